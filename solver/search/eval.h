// A cheap evaluation for initialising proof numbers: how many more stones
// each side needs to join its edges if nothing stood in its way but the
// opponent's stones. A side close to connecting is cheap to prove a win for.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/konobi.h"

namespace konobi {

// Fewest empty points that `own` must fill to join `lo` to `hi`, chains
// growing by `grow` (8-connected for Konobi, 4 for Gonnect) and ignoring
// legality; `limit` when it needs that many or more. One flood per extra
// stone, so a small limit also bounds the work.
template <int W, class Grow>
int fill_distance(const Geometry<W>& g, const Bitboard<W>& own, const Bitboard<W>& empty, const Bitboard<W>& lo,
                  const Bitboard<W>& hi, int limit, Grow&& grow) {
  // reach: points joined to lo using at most d empty points.
  Bitboard<W> reach = g.flood(own, lo, grow);
  for (int d = 0; d < limit; ++d) {
    if ((reach & hi).any()) return d;
    const Bitboard<W> step = (grow(reach) | lo) & empty;
    const Bitboard<W> next = reach | step | g.flood(own, grow(step), grow);
    if (next == reach) break;
    reach = next;
  }
  return limit;
}

// Fewest empty points colour c must fill to join its edges in Konobi, or
// n*n when blocked.
template <int W>
int connection_distance(const Position<W>& pos, Color c) {
  const Geometry<W>& g = *pos.g;
  return fill_distance(g, pos.stones[c], pos.empty_points(), g.edge_lo[c], g.edge_hi[c], g.cells,
                       [&](const Bitboard<W>& b) { return g.grow8(b); });
}

struct Estimate {
  uint32_t pn, dn;
};

// For the side to move: proving a win costs about its own distance, proving
// a loss about the opponent's.
template <int W>
Estimate estimate(const Position<W>& pos) {
  const int mine = connection_distance(pos, pos.to_move);
  const int theirs = connection_distance(pos, other(pos.to_move));
  return {uint32_t(std::max(1, mine)), uint32_t(std::max(1, theirs))};
}

}  // namespace konobi
