// The connection-distance evaluation of solver/search/eval.h for both games
// and every board: how many empty points a colour still has to fill to join
// a pair of edges it may join (Konobi: its own pair, chains 8-connected;
// Gonnect: grow4, either pair or its own by the variant), and for each empty
// point how much longer than that the shortest path through the point is.
// A point with excess 0 lies on a shortest path: filling it helps its owner
// most, and taking it hinders the other side most. The tree search's priors,
// its playouts' judge at the length bound and the greedy player read it.
#pragma once

#include <algorithm>
#include <array>
#include <type_traits>

#include "core/game.h"
#include "solver/search/eval.h"

namespace konobi {

// Calls f(lo, hi, grow) for each pair of edges colour c may join.
template <class Rules, int W, class F>
void for_each_connection_goal(const typename Rules::template State<W>& s, Color c, F&& f) {
  const Position<W>& pos = Rules::board(s);
  const Geometry<W>& g = *pos.g;
  if constexpr (std::is_same_v<Rules, GonnectRules>) {
    const auto grow4 = [&g](const Bitboard<W>& b) { return b | g.orth_neighbours(b); };
    for_each_goal(g, c, s.variant.edges,
                  [&](const Bitboard<W>& lo, const Bitboard<W>& hi) { f(lo, hi, grow4); });
  } else {
    const auto grow8 = [&g](const Bitboard<W>& b) { return g.grow8(b); };
    f(g.edge_lo[c], g.edge_hi[c], grow8);
  }
}

// Colour c's distance (cells when it cannot connect at all).
template <class Rules, int W>
int game_distance(const typename Rules::template State<W>& s, Color c) {
  const Position<W>& pos = Rules::board(s);
  const Geometry<W>& g = *pos.g;
  const Bitboard<W> empty = pos.empty_points();
  int best = g.cells;
  for_each_connection_goal<Rules, W>(s, c, [&](const Bitboard<W>& lo, const Bitboard<W>& hi, auto&& grow) {
    best = std::min(best, fill_distance(g, pos.stones[c], empty, lo, hi, g.cells, grow));
  });
  return best;
}

// Colour c's distance and, per empty point, the excess of the shortest path
// through it over the distance (kFar when no path of at most twice the
// distance uses it).
template <int W>
struct PathExcess {
  static constexpr int kFar = 255;
  int distance = 0;
  std::array<uint8_t, kMaxCells> excess;
};

template <class Rules, int W>
PathExcess<W> path_excess(const typename Rules::template State<W>& s, Color c) {
  const Position<W>& pos = Rules::board(s);
  const Geometry<W>& g = *pos.g;
  const Bitboard<W> empty = pos.empty_points();
  PathExcess<W> r;
  r.excess.fill(PathExcess<W>::kFar);
  r.distance = g.cells;
  std::array<uint8_t, kMaxCells> from_lo, from_hi;
  for_each_connection_goal<Rules, W>(s, c, [&](const Bitboard<W>& lo, const Bitboard<W>& hi, auto&& grow) {
    // The cost of an empty point from an edge, counting itself: the layer
    // where it first joins the reach set.
    auto costs = [&](const Bitboard<W>& a, const Bitboard<W>& b, std::array<uint8_t, kMaxCells>& into) {
      into.fill(PathExcess<W>::kFar);
      Bitboard<W> seen;
      return fill_distance(
          g, pos.stones[c], empty, a, b, g.cells, grow, [&](int d, const Bitboard<W>& reach) {
            (reach & empty).minus(seen).for_each([&](int p) { into[p] = uint8_t(std::min(d, 254)); });
            seen |= reach;
          });
    };
    const int d = costs(lo, hi, from_lo);
    costs(hi, lo, from_hi);
    if (d >= g.cells) return;
    r.distance = std::min(r.distance, d);
    empty.for_each([&](int p) {
      if (from_lo[p] == PathExcess<W>::kFar || from_hi[p] == PathExcess<W>::kFar) return;
      r.excess[p] = uint8_t(std::min<int>(r.excess[p], std::min(from_lo[p] + from_hi[p] - 1, 254)));
    });
  });
  // Shortest through-path lengths so far; as excess over the best goal's.
  empty.for_each([&](int p) {
    if (r.excess[p] != PathExcess<W>::kFar) r.excess[p] = uint8_t(std::max(0, r.excess[p] - r.distance));
  });
  return r;
}

}  // namespace konobi
