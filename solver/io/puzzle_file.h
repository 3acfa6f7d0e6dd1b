// The puzzle collection file (results/puzzles-NxN.json), schema documented
// in docs/RESULTS.md: each puzzle's position, the game record that reached
// it, its single winning move and its remoteness, with the settings and
// provenance of the run that mined it.
#pragma once

#include <string>
#include <vector>

#include "results.h"

namespace konobi {

constexpr const char* kPuzzleSchema = "konobi-puzzles/1";

struct PuzzleEntry {
  int id = 0;
  std::string position;             // position text (docs/NOTATION.md)
  std::string to_move;              // "black" or "white"
  std::string solution;             // the one winning move
  int remoteness = 0;               // plies to the win, the solution included
  std::vector<std::string> record;  // from the empty board to the position
  int game = 0;                     // the random game it came from
  unsigned long long dfpn_nodes = 0, alphabeta_nodes = 0;
  // Moves the solver makes to win, the solution included.
  int moves_to_win() const { return (remoteness + 1) / 2; }
};

struct PuzzleSet {
  std::string game = "konobi";
  int size = 0;
  Provenance provenance;
  unsigned long long seed = 0, dfpn_nodes = 0, alphabeta_nodes = 0;
  int min_remoteness = 0, min_stones = 0, max_per_remoteness = 0;
  unsigned long long games = 0, positions = 0, candidates = 0, skipped = 0;
  double seconds = 0;
  std::vector<PuzzleEntry> puzzles;

  std::string to_json() const;
  static PuzzleSet from_json(const std::string& text, const std::string& where);  // throws std::runtime_error
};

}  // namespace konobi
