// The baseline players the engine is measured against (scripts/match.py
// through `konobi gtp --player`): a uniformly random legal move, and the
// one-ply greedy move that minimises the mover's connection distance minus
// the opponent's after it (an immediate win first; ties broken at random).
#pragma once

#include <cstdint>

#include "engine.h"

namespace konobi {

enum class Baseline { Random, Greedy };

// The baseline's move for the side to move, the pie swap included: the
// random player swaps with probability 1/2; the greedy one swaps when
// Black, whose stone it would take, is nearer to connecting than White.
// A forced pass is a pass. Throws like engine_move.
Move baseline_move(const GameRecord& game, Baseline kind, uint64_t seed);

}  // namespace konobi
