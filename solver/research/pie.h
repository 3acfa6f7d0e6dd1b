// The pie rule on a solved board, read from a results file: which openings
// win and which lose for Black, White's swap decision for each, the share of
// losing openings, the openings that took the most work, and the verdict
// (with perfect play the second player wins under the pie rule, once every
// opening is known). Optionally the remoteness of each opening, by
// alpha-beta under a node budget per symmetry class.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "solver/io/results.h"
#include "solver/io/svg.h"

namespace konobi {

// Sizes a results file can hold (the solver's one-word boards).
constexpr int kPieMinSize = 3, kPieMaxSize = 8;
// The default alpha-beta budget per class for the openings' remoteness: enough
// for every 3x3 and 4x4 class, a few seconds on 5x5, where it runs out.
constexpr uint64_t kPieRemotenessNodes = 250000;

struct PieOpening {
  std::string point, cls;  // Black's first stone, the searched point of its class
  bool solved = false;
  std::string winner;  // "black", "white", "" while unknown
  bool swap = false;   // White swaps (winner == "black")
  unsigned long long nodes = 0, proof_size = 0;
  int remoteness = -1;  // plies after Black's first stone with best play; -1: not known
};

struct PieReport {
  int size = 0;
  std::string file;
  std::vector<PieOpening> openings;  // every point, row by row from a1
  unsigned long long nodes = 0;      // df-pn nodes of all runs
  double seconds = 0;
  std::string commit;             // of the build that last wrote the file
  uint64_t remoteness_nodes = 0;  // alpha-beta budget per class; 0: not tried

  int solved() const;
  int black_wins() const;  // winning openings: White swaps
  int white_wins() const;  // losing openings: White plays on
  bool complete() const { return solved() == int(openings.size()) && !openings.empty(); }
  int classes() const;
  // One opening per solved class, the most work first (proof size, then nodes).
  std::vector<const PieOpening*> hardest() const;
  // "the second player wins ..." once complete, else what is still unknown.
  std::string verdict() const;
  // "17 of 25 (68%)"; of the solved openings while incomplete.
  std::string losing_share() const;
};

// Reads and checks results/konobi-NxN.json: a clear std::runtime_error for
// a missing or unreadable file, corrupt JSON, another schema or game, a size
// other than expected or outside 3..8, or openings out of order, with a
// wrong class or with values that differ within a class (check_results).
Results load_results_file(const std::string& path, int expected_size);

// remoteness_nodes: alpha-beta node budget per class (0: skip). A class
// over the budget keeps remoteness -1; an alpha-beta value that contradicts
// the file throws std::runtime_error.
PieReport make_pie_report(const Results& r, const std::string& file, uint64_t remoteness_nodes);

// The opening map as a picture: each point tinted by the winner of Black's
// first stone there, labelled B or W (? while unknown).
SvgBoard opening_map_svg(const PieReport& report);

// DIR/konobi-NxN.json, and the sizes 3..8 that have one in DIR.
std::string results_path(const std::string& dir, int n);
std::vector<int> results_sizes(const std::string& dir);
// load_results_file + make_pie_report for DIR/konobi-NxN.json.
PieReport load_pie_report(const std::string& dir, int n, uint64_t remoteness_nodes);
// "opening-map-NxN.svg"
std::string opening_map_file(int n);

// Text report and JSON object for one size.
std::string pie_text(const PieReport& report);
Json pie_json(const PieReport& report);

}  // namespace konobi
