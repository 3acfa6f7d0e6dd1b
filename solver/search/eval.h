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
// stone, so a small limit also bounds the work. `layer(d, reach)` sees each
// reach set on the way: the points joined to lo using at most d empty
// points (an empty point's cost from lo is the d where it first appears).
template <int W, class Grow, class Layer>
int fill_distance(const Geometry<W>& g, const Bitboard<W>& own, const Bitboard<W>& empty,
                  const Bitboard<W>& lo, const Bitboard<W>& hi, int limit, Grow&& grow, Layer&& layer) {
  Bitboard<W> reach = g.flood(own, lo, grow);
  layer(0, reach);
  for (int d = 0; d < limit; ++d) {
    if ((reach & hi).any()) return d;
    const Bitboard<W> step = (grow(reach) | lo) & empty;
    const Bitboard<W> next = reach | step | g.flood(own, grow(step), grow);
    if (next == reach) break;
    reach = next;
    layer(d + 1, reach);
  }
  return limit;
}

template <int W, class Grow>
int fill_distance(const Geometry<W>& g, const Bitboard<W>& own, const Bitboard<W>& empty,
                  const Bitboard<W>& lo, const Bitboard<W>& hi, int limit, Grow&& grow) {
  return fill_distance(g, own, empty, lo, hi, limit, grow, [](int, const Bitboard<W>&) {});
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

// estimate() of every child of one position at the price of a few floods
// for the parent, not two per child: df-pn evaluates each new child, and
// the children differ from their parent by one stone. Exact (the same
// numbers as estimate() on the child), by shortest-path reasoning with
// empty points costing 1, own stones 0 and the opponent's barring the way:
//   - the placer's distance D becomes min(D, a + b - 2), where a and b are
//     the point's costs from either edge counting itself (a path through it
//     no longer pays for it, on either side);
//   - the other side's distance can grow only when the point lies on every
//     one of its shortest paths. A shortest path fills, for each k = 1..D,
//     exactly one empty point of cost k from lo and D + 1 - k from hi, so
//     that holds just when the point is the only such point for its k; only
//     then is the distance computed again, on the child.
template <int W>
class ChildEstimates {
 public:
  explicit ChildEstimates(const Position<W>& pos) : pos_(pos) {
    const Geometry<W>& g = *pos.g;
    const Color mover = pos.to_move, opp = other(mover);
    const Bitboard<W> empty = pos.empty_points();
    Layers lo, hi;
    int nlo = 0, nhi = 0;
    // The placer: per point, the cost from each edge (an empty point joins
    // reach[d] at d = its cost), kept as bit planes of the set "cost <= d".
    mover_dist_ = layers(mover, empty, lo, hi, nlo, nhi);
    for (int a = 1; a < nlo; ++a) {
      const Bitboard<W> at_a = (lo[a].minus(lo[a - 1])) & empty;
      if (at_a.none()) continue;
      for (int b = 1; b < nhi && a + b - 2 < mover_dist_; ++b) {
        const Bitboard<W> at_ab = at_a & hi[b].minus(hi[b - 1]);
        at_ab.for_each([&](int p) { better_[p] = uint8_t(a + b - 2); });
        improved_ |= at_ab;
      }
    }
    // The other side: the empty points that every shortest path needs.
    // Not cut off, both searches stop at layer D (the distance is the same
    // from either edge), so layers 0..D exist on both sides.
    opp_dist_ = layers(opp, empty, lo, hi, nlo, nhi);
    if (opp_dist_ < g.cells) {
      for (int k = 1; k <= opp_dist_; ++k) {
        const Bitboard<W> on =
            (lo[k].minus(lo[k - 1])) & (hi[opp_dist_ + 1 - k].minus(hi[opp_dist_ - k])) & empty;
        if (on.count() == 1) critical_ |= on;
      }
    }
  }

  // estimate() of the position after the mover places at m.
  Estimate operator()(int m) const {
    const int mine = improved_.test(m) ? better_[m] : mover_dist_;
    int theirs = opp_dist_;
    if (critical_.test(m)) {
      Position<W> child = pos_;
      child.place(m);
      theirs = connection_distance(child, child.to_move);
    }
    // The child's side to move is the opponent.
    return {uint32_t(std::max(1, theirs)), uint32_t(std::max(1, mine))};
  }

 private:
  static constexpr int kLayers = W * 64 + 1;
  // Reach sets, each written before it is read. Left uninitialised: clearing
  // two arrays sized for the largest distance cost more per node than
  // filling the few layers a small board uses.
  struct Layers {
    Layers() {}
    Bitboard<W>& operator[](int d) { return at[d]; }
    operator Bitboard<W>*() { return at; }
    union {
      Bitboard<W> at[kLayers];
    };
  };

  // Colour c's distance, with the reach sets from its lo edge and from its
  // hi edge (n of each).
  int layers(Color c, const Bitboard<W>& empty, Bitboard<W>* lo, Bitboard<W>* hi, int& nlo, int& nhi) const {
    const Geometry<W>& g = *pos_.g;
    const auto grow = [&](const Bitboard<W>& b) { return g.grow8(b); };
    const auto keep = [](Bitboard<W>* into, int& n) {
      return [into, &n](int d, const Bitboard<W>& reach) { into[d] = reach, n = d + 1; };
    };
    const int d =
        fill_distance(g, pos_.stones[c], empty, g.edge_lo[c], g.edge_hi[c], g.cells, grow, keep(lo, nlo));
    fill_distance(g, pos_.stones[c], empty, g.edge_hi[c], g.edge_lo[c], g.cells, grow, keep(hi, nhi));
    return d;
  }

  const Position<W>& pos_;
  int mover_dist_ = 0, opp_dist_ = 0;
  Bitboard<W> improved_, critical_;
  uint8_t better_[W * 64];  // below mover_dist_; read only where improved_ is set
};

}  // namespace konobi
