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

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace konobi {

class ProofPieces {
 public:
  // Adds one entry line ("<position or game> <move>"). Returns false, and
  // keeps the first, when the position already has a move; throws
  // std::invalid_argument for a line with no move, or a move of more than
  // kMaxMove characters (no board's move is: "s19", "pass").
  bool add(std::string_view line);

  // The move written for `position` (an entry line without its move), if any.
  std::optional<std::string_view> move_of(std::string_view position) const;

  size_t size() const { return moves_.size(); }
  bool empty() const { return moves_.empty(); }

  static constexpr size_t kMaxMove = 7;

 private:
  // A position is kept as the 128-bit hash of its text, not the text: a
  // hard class's end holds tens of millions of entries (6x6 c3 reached
  // 29.5 M), at about 200 bytes each as two strings in a map of text and
  // 48 as a hash and a packed move. Two positions with one hash would give
  // one of them the other's move, which the checker refuses; at 2^-128 a
  // pair, no run meets one.
  struct Key {
    uint64_t lo = 0, hi = 0;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const { return size_t(k.lo); }
  };
  struct Move {
    std::array<char, kMaxMove> text{};
    uint8_t size = 0;
  };
  static Key key_of(std::string_view position);
  std::unordered_map<Key, Move, KeyHash> moves_;
};

}  // namespace konobi
