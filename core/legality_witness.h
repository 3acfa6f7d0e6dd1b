// Which points decide whether colour c may place a stone at an empty point:
// a witness set W such that every position agreeing with this one on W (and
// with p still empty) gives the same verdict at p. Relevance zones
// (solver/search/must_play.h) carry these sets because Konobi's legality is
// not monotone: a stone far from p can bar p (it guards a stone p would
// weakly connect to) or unbar it. The sets follow the rule's exact reach
// (konobi.h, docs/RULES.md) and keep one reason per fact, so they stay
// small:
//   legal p: for each diagonal direction, one point that rules out both a
//     weak link and a crosscut there (a c stone beside p and the diagonal
//     point, else the diagonal point when it holds no c stone); where the
//     diagonal point is a c stone s weakly linked to p, s and the two points
//     beside both, s's orthogonal neighbours, and for each empty one a weak
//     link of it (the c stone and the two points beside both): those keep
//     s unguarded.
//   crosscut p: the three stones of the block.
//   weak-illegal p: the guarded stone s, the two points beside p and s, and
//     a free neighbour x of s with, per diagonal direction of x, one point
//     that rules out a weak link of x there.
#pragma once

#include "konobi.h"

namespace konobi {

namespace witness_detail {

// Whether the c stone at (sx, sy), diagonal to (ax, ay), is joined to it
// weakly: neither point beside both holds a c stone.
template <int W>
bool weak_pair(const Geometry<W>& g, const Bitboard<W>& C, int ax, int ay, int sx, int sy) {
  return g.on_board(sx, sy) && C.test(g.point(sx, sy)) && !C.test(g.point(sx, ay)) &&
         !C.test(g.point(ax, sy));
}

// One point ruling out a weak link of an empty (ax, ay) to the diagonal
// point (ax+dx, ay+dy): a c stone beside both, else the diagonal point
// itself (not a c stone). Call only when there is no such link.
template <int W>
Bitboard<W> no_link(const Geometry<W>& g, const Bitboard<W>& C, int ax, int ay, int dx, int dy) {
  if (!g.on_board(ax + dx, ay + dy)) return Bitboard<W>{};
  if (C.test(g.point(ax + dx, ay))) return Bitboard<W>::single(g.point(ax + dx, ay));
  if (C.test(g.point(ax, ay + dy))) return Bitboard<W>::single(g.point(ax, ay + dy));
  return Bitboard<W>::single(g.point(ax + dx, ay + dy));
}

}  // namespace witness_detail

// The witnesses of a point p legal for the colour whose stones are C (the
// opponent's O). They read C and which points are empty, never the
// Legality, so a caller that knows p is legal need not compute it.
template <int W>
Bitboard<W> legal_witness(const Geometry<W>& g, const Bitboard<W>& C, const Bitboard<W>& O, int p) {
  using witness_detail::no_link, witness_detail::weak_pair;
  const auto one = [](int q) { return Bitboard<W>::single(q); };
  const Bitboard<W> empty = g.board.minus(C | O);
  const int x = g.col(p), y = g.row(p);
  Bitboard<W> w = one(p);
  // Nothing bars p, and the witnesses keep it so.
  for (int dy : {1, -1})
    for (int dx : {1, -1}) {
      if (!g.on_board(x + dx, y + dy)) continue;
      if (!weak_pair(g, C, x, y, x + dx, y + dy)) {
        // No weak link there; the same point rules out a crosscut (a c
        // stone beside both, or a diagonal point without a c stone).
        w |= no_link(g, C, x, y, dx, dy);
        continue;
      }
      const int sx = x + dx, sy = y + dy;
      w |= one(g.point(sx, sy)) | one(g.point(sx, y)) | one(g.point(x, sy));
      const Bitboard<W> around = g.orth_neighbours(one(g.point(sx, sy)));
      w |= around;
      (around & empty).for_each([&](int e) {
        // e is not free (s is unguarded): keep one weak link of it.
        const int ex = g.col(e), ey = g.row(e);
        bool kept = false;
        for (int ey2 : {1, -1})
          for (int ex2 : {1, -1})
            if (!kept && weak_pair(g, C, ex, ey, ex + ex2, ey + ey2)) {
              w |= one(g.point(ex + ex2, ey + ey2)) | one(g.point(ex + ex2, ey)) | one(g.point(ex, ey + ey2));
              kept = true;
            }
        KONOBI_ASSERT(kept);
      });
    }
  return w & g.board;
}

// The same for any empty p, for the colour whose stones are C against O.
// L: konobi_legality(g, C, O), which a caller often has at hand.
template <int W>
Bitboard<W> legality_witness(const Geometry<W>& g, const Bitboard<W>& C, const Bitboard<W>& O, int p,
                             const Legality<W>& L) {
  using witness_detail::no_link, witness_detail::weak_pair;
  const auto one = [](int q) { return Bitboard<W>::single(q); };
  const int x = g.col(p), y = g.row(p);
  Bitboard<W> w = one(p);
  if (L.crosscut.test(p)) {
    for (int dy : {1, -1})
      for (int dx : {1, -1})
        if (g.on_board(x + dx, y + dy) && C.test(g.point(x + dx, y + dy)) && O.test(g.point(x + dx, y)) &&
            O.test(g.point(x, y + dy)))
          return w | one(g.point(x + dx, y + dy)) | one(g.point(x + dx, y)) | one(g.point(x, y + dy));
  }
  if (L.weak_illegal.test(p)) {
    for (int dy : {1, -1})
      for (int dx : {1, -1}) {
        if (!weak_pair(g, C, x, y, x + dx, y + dy)) continue;
        const int s = g.point(x + dx, y + dy);
        if (!L.guarded.test(s)) continue;
        const int f = (L.free & g.orth_neighbours(one(s))).first();
        w |= one(s) | one(g.point(x + dx, y)) | one(g.point(x, y + dy)) | one(f);
        for (int ey : {1, -1})
          for (int ex : {1, -1}) w |= no_link(g, C, g.col(f), g.row(f), ex, ey);
        return w;
      }
  }
  return legal_witness(g, C, O, p);
}

// L: konobi_legality(pos, c), which a caller often has at hand.
template <int W>
Bitboard<W> legality_witness(const Position<W>& pos, Color c, int p, const Legality<W>& L) {
  return legality_witness(*pos.g, pos.stones[c], pos.stones[other(c)], p, L);
}

template <int W>
Bitboard<W> legality_witness(const Position<W>& pos, Color c, int p) {
  return legality_witness(pos, c, p, konobi_legality(pos, c));
}

}  // namespace konobi
