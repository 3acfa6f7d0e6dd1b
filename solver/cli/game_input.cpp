#include "game_input.h"

namespace konobi {

void GameInput::add_options(po::options_description& opts, po::positional_options_description& pos) {
  opts.add_options()
    ("size,n", po::value<int>(&size), "board size, 3 to 19 (taken from --position when given)")
    ("position,p", po::value<std::string>(&position)->notifier([this](const std::string&) { given_position = true; }),
     "start position: rows from the top separated by '/', then b or w (see docs/NOTATION.md)")
    ("moves", po::value<std::vector<std::string>>(&moves)->multitoken(),
     "moves played from the start: points like c3, pass, swap");
  pos.add("moves", -1);
}

int GameInput::board_size() const {
  if (given_position) {
    const int n = parse_position(position).n;
    if (size != 0 && size != n)
      throw UsageError("--size " + std::to_string(size) + " disagrees with the position, which is " +
                       std::to_string(n) + "x" + std::to_string(n));
    return n;
  }
  if (size == 0) throw UsageError("give the board size with --size N (or a --position)");
  check_size(size);
  return size;
}

}  // namespace konobi
