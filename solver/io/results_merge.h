// Saving a solve's results over the file that is there now without losing
// what that file holds: a run never replaces proven openings with unproven
// ones, even when another run wrote the file meanwhile (docs/RESULTS.md).
#pragma once

#include <optional>
#include <string>

#include "results.h"

namespace konobi {

// Openings proven in r.
int proven_openings(const Results& r);

// The text to write over `old` (the file's contents now; none when it is
// missing): `ours`, after every opening that `old` holds proven and `ours`
// does not has been copied into `ours` (with its own nodes and seconds; the
// file's totals stay those of `ours`). A file that is not a results file
// holds nothing proven and is replaced. Throws std::runtime_error, leaving
// the file alone, when `old` holds proven openings of another game, board
// size or rule variant.
std::string results_over(Results& ours, const std::optional<std::string>& old, const std::string& path);

}  // namespace konobi
