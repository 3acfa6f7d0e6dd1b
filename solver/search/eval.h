// A cheap evaluation for initialising proof numbers: how many more stones
// each side needs to join its edges if nothing stood in its way but the
// opponent's stones. A side close to connecting is cheap to prove a win for.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/konobi.h"

namespace konobi {

// Fewest empty points colour c must fill to join its edges (8-connected,
// ignoring legality), or n*n when blocked. One flood per extra stone.
template <int W>
int connection_distance(const Position<W>& pos, Color c) {
  const Geometry<W>& g = *pos.g;
  const Bitboard<W>& own = pos.stones[c];
  const Bitboard<W> empty = pos.empty_points();
  // reach: points joined to the low edge using at most d empty points.
  Bitboard<W> reach = flood8(g, own, g.edge_lo[c]);
  for (int d = 0; d <= g.cells; ++d) {
    if ((reach & g.edge_hi[c]).any()) return d;
    const Bitboard<W> step = (g.grow8(reach) | g.edge_lo[c]) & empty;
    const Bitboard<W> next = reach | step | flood8(g, own, g.grow8(step));
    if (next == reach) break;
    reach = next;
  }
  return g.cells;
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
