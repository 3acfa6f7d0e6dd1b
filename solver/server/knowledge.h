// What the shipped results know, for the web board: each opening's value
// and the pie verdict from results/konobi-NxN.json and gonnect-NxN.json
// (read with Results::from_json, the verdict by solver/research/pie.h), and
// the puzzle collections results/puzzles-NxN.json (PuzzleSet::from_json).
// Each file is read once, on first use, and kept. Not thread-safe: the hub
// calls it under its lock.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <tuple>

#include "solver/io/json.h"
#include "solver/io/puzzle_file.h"

namespace konobi {

class Knowledge {
 public:
  explicit Knowledge(std::string results_dir) : dir_(std::move(results_dir)) {}

  // The knowledge message's fields: game, size, ko, edges, openings
  // [{point, value, class}], empty_board, pie. Value is from Black's view
  // (the opener's): "win" when Black's first stone there wins with White to
  // move and no swap, so White swaps; null while unknown. Throws
  // std::runtime_error when no shipped results cover the board or the file
  // is unreadable.
  const Json& openings(bool gonnect, int size, const std::string& ko, const std::string& edges);

  // The puzzle collection of that size; throws std::runtime_error naming
  // the file when there is none or it is unreadable.
  const PuzzleSet& puzzles(int size);

 private:
  std::string dir_;
  std::map<std::tuple<bool, int, std::string, std::string>, Json> openings_;
  std::map<int, std::unique_ptr<PuzzleSet>> puzzles_;
};

}  // namespace konobi
