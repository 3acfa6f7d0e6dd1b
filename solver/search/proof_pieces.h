// Proof pieces: the winning moves of positions whose whole strategy is
// already written, as proof entry lines (docs/PROOFS.md: "position move" for
// Konobi, "game move" for Gonnect). The job manager builds a piece for each
// node it proves, while the table still holds the job's subtree, and keeps
// the pieces on disk beside its checkpoint (solver/jobs/piece_files.h); the
// class's proof is then assembled from them after any number of restarts
// instead of being proven again from a table that never saw those subtrees.
//
// What makes a set of pieces usable: every entry's position is won by its
// mover with the entry's move, and every position of the winner that the
// move leads to (past the loser's every reply) either wins at once or has
// an entry here too. A union of such sets keeps this, whichever entry is
// kept for a position met twice (both moves win, each with its own
// continuation here), so pieces from different nodes and runs merge by
// union. The checker, not this file, is what trusts nothing: an entry that
// does not win shows as a proof that verify-proof refuses.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>

namespace konobi {

class ProofPieces {
 public:
  // Adds one entry line ("<position or game> <move>"). Returns false, and
  // keeps the first, when the position already has a move; throws
  // std::invalid_argument for a line with no move.
  bool add(std::string_view line) {
    const size_t cut = line.rfind(' ');
    if (cut == std::string_view::npos || cut == 0 || cut + 1 == line.size())
      throw std::invalid_argument("a proof piece line needs a position and a move: '" + std::string(line) +
                                  "'");
    return moves_.emplace(std::string(line.substr(0, cut)), std::string(line.substr(cut + 1))).second;
  }

  // The move written for `position` (an entry line without its move), or null.
  const std::string* move_of(const std::string& position) const {
    const auto it = moves_.find(position);
    return it == moves_.end() ? nullptr : &it->second;
  }

  size_t size() const { return moves_.size(); }
  bool empty() const { return moves_.empty(); }

 private:
  std::unordered_map<std::string, std::string> moves_;
};

}  // namespace konobi
