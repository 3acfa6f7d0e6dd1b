// Perft: the number of move sequences of each length from a position, the
// standard check that move generation is exactly right. Passes are moves
// (the only move when no placement is legal); a position just won is a
// leaf, and so is one whose mover has no move in a game without passing;
// the pie swap is not counted.
#pragma once

#include <cstdint>
#include <vector>

#include "position.h"
#include "rules.h"

namespace konobi {

// counts[d] += number of sequences of length d + 1 from pos, d < depth.
template <class Rules, class State>
requires GameRules<Rules, StateWords<State>::value>
void perft_accumulate(const State& pos, int depth, uint64_t* counts) {
  constexpr int W = StateWords<State>::value;
  const Bitboard<W> moves = Rules::placements(pos);
  if (moves.none()) {
    if constexpr (Rules::can_pass) {
      counts[0] += 1;
      if (depth > 1) {
        auto next = pos;
        Rules::pass(next);
        perft_accumulate<Rules>(next, depth - 1, counts + 1);
      }
    }
    return;
  }
  counts[0] += moves.count();
  if (depth == 1) return;
  moves.minus(Rules::winning(pos, moves)).for_each([&](int p) {
    auto next = pos;
    Rules::play(next, p);
    perft_accumulate<Rules>(next, depth - 1, counts + 1);
  });
}

// Sequences of length 1..depth.
template <class Rules, class State>
requires GameRules<Rules, StateWords<State>::value> std::vector<uint64_t> perft(const State& pos, int depth) {
  std::vector<uint64_t> counts(depth, 0);
  if (depth > 0) perft_accumulate<Rules>(pos, depth, counts.data());
  return counts;
}

}  // namespace konobi
