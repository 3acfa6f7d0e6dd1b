#include "puzzle_check.h"

#include <stdexcept>

#include "core/notation.h"

namespace konobi {

void check_puzzle_set(const PuzzleSet& set, const std::string& where) {
  const std::string bad = where + " is not a valid puzzle file: ";
  try {
    check_size(set.size);
  } catch (const ParseError& e) {
    throw std::runtime_error(bad + e.what());
  }
  const int n = set.size;
  for (const PuzzleEntry& p : set.puzzles) {
    const std::string puzzle = bad + "puzzle " + std::to_string(p.id) + ": ";
    try {
      const PositionText t = parse_position(p.position);
      if (t.n != n)
        throw ParseError("the position is " + std::to_string(t.n) + "x" + std::to_string(t.n) + ", not " +
                         std::to_string(n) + "x" + std::to_string(n) + " like the collection");
      if (p.to_move != (t.to_move == Black ? "black" : "white"))
        throw ParseError("to_move '" + p.to_move + "' is not the side to move in the position");
      parse_point(n, p.solution);
      for (const std::string& m : p.record) parse_move(n, m);
    } catch (const ParseError& e) {
      throw std::runtime_error(puzzle + e.what());
    }
    if (p.remoteness < 1) throw std::runtime_error(puzzle + "remoteness " + std::to_string(p.remoteness) + " is below 1");
  }
}

}  // namespace konobi
