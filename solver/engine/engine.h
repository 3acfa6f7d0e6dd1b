// The playing engine behind `play --vs engine`, `konobi gtp` and the web
// board, for every board from 3x3 to 19x19 and both games: where the solver
// proves the position within the budget it plays perfectly and says so;
// elsewhere a time-limited Monte Carlo tree search guided by the
// connection-distance evaluation. The game is chosen at run time (a message,
// a GTP command), so this interface takes it as data and dispatches to the
// templates inside.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "core/gonnect.h"
#include "core/types.h"

namespace konobi {

// Which game on which board.
struct GameSpec {
  bool gonnect = false;
  int size = 0;                       // 3..19
  KoRule ko = KoRule::Superko;        // Gonnect only
  EdgeRule edges = EdgeRule::Either;  // Gonnect only
};

// A game to think about: its start (a position string of docs/NOTATION.md,
// or "" for the empty board) and the moves since.
struct GameRecord {
  GameSpec spec;
  std::string start;
  std::vector<Move> moves;
};

struct EngineLimits {
  double seconds = 2;    // wall-clock time for the whole decision
  double table_mb = 64;  // the solver's table
  int threads = 1;
  uint64_t seed = 0;  // the search's random stream
  // When > 0, the tree search stops after this many playouts instead of at
  // the time limit, so that a move is reproducible (tests, matches).
  long playouts = 0;
};

struct EngineChoice {
  Move move = kPass;  // a placement, kSwap or kPass
  enum Knowledge { ProvenWin, ProvenLoss, Unproven } knowledge = Unproven;
  int remoteness = -1;  // plies to the end when proven and known
  std::string said;     // for people: "proven win in 7", "no proof: 12,400 playouts, 61% wins"
};

// The engine's move for the side to move, the pie swap included. Throws
// RuleError or ParseError for a bad record, std::invalid_argument when the
// game is over. When *cancel becomes true the search stops early and the
// best move found so far is returned.
EngineChoice engine_move(const GameRecord& game, const EngineLimits& limits,
                         const std::atomic<bool>* cancel = nullptr);

// A legal move's value for the side to move, where it is proven.
struct MoveAnalysis {
  Move move;
  int value;       // 1: the move wins, -1: it loses, 0: unknown
  int remoteness;  // plies to the end, -1 when unknown
};

// Every legal move (placements; pass when forced), proven within the limits
// where the solver reaches (boards up to 8x8), unknown elsewhere.
std::vector<MoveAnalysis> analyze_moves(const GameRecord& game, const EngineLimits& limits,
                                        const std::atomic<bool>* cancel = nullptr);

// The side to move's winning line from here (its move, the best defence,
// ...) when the solver proves a win within the limits; empty otherwise.
std::vector<Move> winning_line(const GameRecord& game, const EngineLimits& limits,
                               const std::atomic<bool>* cancel = nullptr);

}  // namespace konobi
