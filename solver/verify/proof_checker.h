// The independent proof checker behind `konobi verify-proof`. It reads a
// proof file (docs/PROOFS.md) and replays the winner's strategy against every
// reply of the loser using the deliberately simple rules in simple_rules.h,
// which share no code with the bitboard engine that produced the proof.
#pragma once

#include <cstdint>
#include <string>

namespace konobi {

struct ProofCheck {
  bool ok = false;
  std::string message;  // what failed, with the position and the moves that reach it
  std::string start, winner;
  uint64_t positions = 0;  // distinct positions checked
  uint64_t entries = 0;
};

// Never throws on bad input: a malformed or truncated file is a failed check.
ProofCheck check_proof(const std::string& text);

}  // namespace konobi
