// What a puzzle file must say beyond its JSON schema before anything draws
// it: a supported board size, and puzzles whose positions, solutions and
// records are on that board. `puzzles --from` and `paper` draw a puzzle's
// position on a board of the collection's size, so a position of another
// size read past its cells (found by fuzzing, docs/FUZZING.md).
#pragma once

#include <string>

#include "puzzle_file.h"

namespace konobi {

// Throws std::runtime_error naming `where`, the puzzle and what is wrong.
void check_puzzle_set(const PuzzleSet& set, const std::string& where);

}  // namespace konobi
