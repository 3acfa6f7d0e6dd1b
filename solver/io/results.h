// The results file of a solve (results/konobi-NxN.json), schema documented
// in docs/RESULTS.md. Written after every proven opening, atomically, so an
// interrupted run keeps all it proved; read back by --resume and by the
// reports built on it.
#pragma once

#include <string>
#include <vector>

#include "json.h"

namespace konobi {

constexpr const char* kResultsSchema = "konobi-results/1";

struct OpeningResult {
  std::string point;           // Black's first stone
  std::string representative;  // the point of its symmetry class that was solved
  bool solved = false;
  std::string winner;                     // "black" or "white" (with White to move, no swap)
  std::vector<std::string> continuation;  // best play from the opening, White first
  // Solved: the search of the run that proved it. Unsolved: every run's
  // effort on it so far, so a long attempt that was stopped is on record.
  unsigned long long nodes = 0, proof_size = 0;
  double seconds = 0;
  // Unsolved and searched: the root's proof and disproof numbers (White to
  // move: the estimated cost of proving that White wins, and that Black
  // wins) when the last run stopped; 0 when never searched.
  unsigned long long pn = 0, dn = 0;
  // Searched without a proof yet: the effort fields above are on record.
  bool searched_unproven() const { return !solved && nodes > 0; }
  // With the pie rule White swaps exactly when Black's opening wins.
  bool swap() const { return winner == "black"; }
};

struct Provenance {
  std::string program, commit, command, date;
  int threads = 1;
  double tt_mb = 0;
  bool symmetry = true, evaluation = true;
  int simulation = 0;  // DfpnOptions::simulation; files from before it have none
  // DfpnOptions::must_play_depth, or 0 without must-play regions (Gonnect,
  // --no-must-play, and files from before them, which have no field)
  int must_play = 0;
};

// The provenance object shared by every file the solver writes, and its
// checked reader (each field's type and range; throws JsonError naming it).
Json provenance_json(const Provenance& p);
Provenance read_provenance(const JsonField& v);

struct Results {
  std::string game = "konobi";
  int size = 0;
  // Gonnect only: the rule variant and how the table met the history
  // (docs/GONNECT.md); absent from Konobi files.
  std::string ko_rule, edges, ghi;
  unsigned long long ghi_hazards = 0;
  Provenance provenance;
  std::vector<OpeningResult> openings;  // every point, row by row from a1
  double seconds = 0;                   // wall time of all runs together
  unsigned long long nodes = 0;
  // Set by from_json when the file's openings were grouped under an older
  // rule and were re-grouped on reading (io/results_check.h): the file then
  // says less than this does, and writing it is not a mere rewrite.
  bool regrouped_on_read = false;

  bool complete() const;
  // Empty board, Black to move, no pie rule: Black wins iff some opening wins.
  std::string empty_board_winner() const;  // "black", "white", or "" if unknown
  std::string to_json() const;
  // Reads and checks a results file: every field's presence, type and range,
  // the game and its rules, and the summary fields against the openings.
  // Throws std::runtime_error "WHERE is not a valid results file: FIELD: why".
  static Results from_json(const std::string& text, const std::string& where);
};

}  // namespace konobi
