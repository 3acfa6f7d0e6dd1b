// The independent proof checkers behind `konobi verify-proof`. They read a
// proof file (docs/PROOFS.md) and replay the winner's strategy against every
// reply of the loser using the deliberately simple rules in simple_rules.h
// (Konobi) and simple_gonnect.h (Gonnect), which share no code with the
// bitboard engine that produced the proof.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace konobi {

struct ProofCheck {
  bool ok = false;
  std::string message;    // what failed, with the position and the moves that reach it
  std::string game;       // "konobi" or "gonnect"
  std::string ko, edges;  // Gonnect: the rule variant the proof holds under; empty for Konobi
  std::string start, winner;
  // Positions checked: each once, except those the winner wins at once,
  // which are counted each time they are met (they are not remembered).
  uint64_t positions = 0;
  uint64_t entries = 0;
  int version = 1;     // the format's version (docs/PROOFS.md)
  uint64_t parts = 0;  // format 3: the parts it names
};

// How a proof in parts (format 3) reaches its parts: `read` gives the text
// of a part named by its path relative to the file that names it (the
// checker refuses absolute paths and `..`); it throws on a missing or
// unreadable file. verify-proof reads them from the proof's own folder.
// `checked`, when given, hears of each part once it holds (its path as
// `read` took it, its place among its file's K entries, its own check), so
// that a check of an hour can say how far it is; parts within parts count
// in their own file.
//
// `threads` parts of one file are checked at once, each on a thread of its
// own (`read` and `checked` are then called from them: `checked` one call
// at a time, in the entries' order all the same). Each part holds its own
// positions while it is checked, so memory adds up: on 6x6 a part of 71 M
// entries takes about 10 GB. Parts within a part checked on a thread are
// checked one by one.
struct ProofParts {
  std::function<std::string(const std::string& path)> read;
  std::function<void(const std::string& path, size_t index, size_t count, const ProofCheck& part)> checked;
  int threads = 1;
};

// Never throws on bad input: a malformed or truncated file is a failed check.
// check_proof: a Konobi proof ("konobi-proof 1", 2 or 3). Format 3 names
// other files, so it holds only with `parts` to read them by.
ProofCheck check_proof(const std::string& text, const ProofParts* parts = nullptr);
// A Gonnect proof ("gonnect-proof 1"), replayed with the full history of
// earlier boards for ko and superko.
ProofCheck check_gonnect_proof(const std::string& text);
// Either, chosen by the file's first line.
ProofCheck check_any_proof(const std::string& text, const ProofParts* parts = nullptr);

}  // namespace konobi
