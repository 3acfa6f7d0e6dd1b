// The Go Text Protocol (version 2) for Konobi and Gonnect, so that the tools
// Hex and Go players use to run engine matches can drive the engine (or a
// baseline player): reads commands from a stream, writes the replies to
// another. Vertices are the project's points (docs/NOTATION.md: "c3",
// columns a.. including i, any case) and the moves "pass" and "swap".
// Every bad command gets a "? message" reply and changes nothing.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "baseline.h"
#include "engine.h"

namespace konobi {

struct GtpOptions {
  enum class Player { Engine, Random, Greedy } player = Player::Engine;
  GameSpec spec{false, 9, KoRule::Superko, EdgeRule::Either};
  double think = 1;      // seconds per move at most (time_left may bound it lower)
  long playouts = 0;     // > 0: the engine stops after this many (reproducible)
  double table_mb = 64;  // the solver's table
  uint64_t seed = 0;     // the players' random streams (varied per move)
  std::string version = "0";
};

class GtpSession {
 public:
  explicit GtpSession(const GtpOptions& options);

  // Answers commands until `quit` or the end of the input.
  void run(std::istream& in, std::ostream& out);
  // One command line's reply, "=..." or "?...", without the blank line that
  // ends it; sets quit() after `quit`. Empty for a blank or comment line.
  std::string execute(const std::string& line);
  bool quit() const { return quit_; }

  const GameRecord& record() const { return record_; }

 private:
  std::string handle(const std::string& command, const std::vector<std::string>& args);
  std::string play(const std::vector<std::string>& args);
  std::string genmove(const std::vector<std::string>& args);
  std::string showboard() const;
  std::string winner() const;  // "black", "white" or "none"
  // The side to move, after the forced passes needed for colour c to move.
  void pass_until(Color c);
  double think_seconds(Color c) const;

  GtpOptions opt_;
  GameRecord record_;
  bool quit_ = false;
  uint64_t moves_made_ = 0;
  std::string said_;  // what the engine said about its last move
  // time_settings and time_left, in seconds (negative: not given).
  double main_time_ = -1, byo_time_ = 0;
  int byo_stones_ = 0;
  double time_left_[2] = {-1, -1};
  int stones_left_[2] = {0, 0};
};

}  // namespace konobi
