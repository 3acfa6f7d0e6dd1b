// Must-play regions from null moves (issue 21; docs/SOLVER.md, "Must-play
// regions"). At a node where X is to move, suppose X passed: if the
// opponent Y could then play a and win within 3 plies (after a, every X
// placement leaves Y a completed chain at once), that win rests on a small
// set of points, its relevance zone Z. Any X move m outside Z leaves Z as it
// was, so Y's a wins after m as well: X must play inside Z. With several
// such a, X must play inside all their zones. Hex solvers call this the
// must-play region (Benzene); here the zones must also hold what decides
// the legality of every move the 3-ply win uses, since in Konobi a stone
// far away can bar or unbar a point (core/legality_witness.h).
//
// The zone of a's win, Q being the position after a (X to move), t0 one of
// Y's winning points in Q:
//   - a and the witnesses of a's legality for Y;
//   - t0, the Y groups that t0 joins to Y's two edges, the witnesses of t0's
//     legality for Y in Q, and t0's orthogonal neighbours;
//   - for each of those neighbours (and t0) legal for X in Q: after X plays
//     it, a winning point of Y there with its groups and legality witnesses;
//     for each illegal for X: the witnesses of its illegality.
// Why that suffices: in a position P' agreeing with P on Z, a is legal for
// Y and t0 is a legal winning point after it. An X stone can bar t0 for Y
// only by making it a crosscut, from an orthogonal neighbour (an X stone
// never creates a Y stone or a Y weak link, so it never guards a Y stone),
// and it never cuts a Y group; so every X reply off t0 and its neighbours
// leaves t0 winning, and the replies on them are the ones checked in Q,
// whose zones lie inside Z. X cannot win at once on the way: a Y chain
// joining Y's edges but for one legal empty point crosses every X path
// between X's edges, and the crossing would need a crosscut there.
#pragma once

#include "core/konobi.h"
#include "core/legality_witness.h"
#include "movegen.h"

namespace konobi {

template <int W>
struct NullWin {
  int move;          // Y's move after X's (imagined) pass
  Bitboard<W> zone;  // X moves outside it lose to `move` as well
};

// The Y stones that join point t (empty, Y's to fill) to Y's two edges in
// q: one group touching each edge among those beside t (none for an edge
// that t lies on).
template <int W>
Bitboard<W> joining_groups(const Position<W>& q, Color y, int t) {
  const Geometry<W>& g = *q.g;
  const Bitboard<W>& Y = q.stones[y];
  const Bitboard<W> at = Bitboard<W>::single(t), beside = g.grow8(at) & Y;
  Bitboard<W> r;
  for (const Bitboard<W>* edge : {&g.edge_lo[y], &g.edge_hi[y]}) {
    if ((at & *edge).any()) continue;
    const Bitboard<W> touching = flood8(g, Y, *edge) & beside;
    KONOBI_ASSERT(touching.any());
    r |= flood8(g, Y, Bitboard<W>::single(touching.first()));
  }
  return r;
}

// What makes t a winning point for y in q: t, its joining groups and the
// witnesses of its legality.
// yl: konobi_legality(q, y).
template <int W>
Bitboard<W> win_zone(const Position<W>& q, Color y, int t, const Legality<W>& yl) {
  return Bitboard<W>::single(t) | joining_groups(q, y, t) | legality_witness(q, y, t, yl);
}

// Y's empty points one or two empty points away from joining its edges
// through them: the only places where a Y stone can create a winning point
// (given that Y has no legal winning point yet and every winning point of Y
// is legal; otherwise every legal point is a candidate).
template <int W>
Bitboard<W> null_move_candidates(const Position<W>& pos, Color y) {
  const Geometry<W>& g = *pos.g;
  const Bitboard<W>& Y = pos.stones[y];
  const Bitboard<W> E = pos.empty_points();
  Bitboard<W> one[2], two[2];
  for (int side = 0; side < 2; ++side) {
    const Bitboard<W>& edge = side ? g.edge_hi[y] : g.edge_lo[y];
    // Empty points that join the edge by themselves, then those that join
    // it with one more empty point of the first kind.
    one[side] = E & (edge | g.grow8(flood8(g, Y, edge)));
    const Bitboard<W> reach = one[side] | flood8(g, Y, g.grow8(one[side]));
    two[side] = E & (one[side] | g.grow8(reach));
  }
  return (one[0] & two[1]) | (two[0] & one[1]);
}

// Y's legal points worth trying as the first move of a threat line, given
// Y's legality and joining points in pos: the near ones, or every legal
// point while some joining point is barred (a Y stone can unbar it).
template <int W>
Bitboard<W> threat_candidates(const Position<W>& pos, Color y, const Legality<W>& yl,
                              const Bitboard<W>& joins) {
  return joins.any() ? yl.legal : yl.legal & null_move_candidates(pos, y);
}

// Threat sequences. The opponent Y wins by threats in q (Y to move) when
// some Y move a leaves Y a legal winning point t0 and every X reply that
// could stop it (t0 and its orthogonal neighbours) either is illegal for X
// or leaves Y a legal winning point or, `depth` allowing, another win by
// threats. (Every Y move of such a line makes a threat, which is also what
// keeps X from winning on the way: see the top of this file.) The zone of
// the win is added to `zone`; false when there is none within depth.
template <int W>
class ThreatWins {
 public:
  // `budget`: the positions it may look at in all, so that a node's cost
  // stays bounded however many threats a position holds.
  explicit ThreatWins(int budget) : budget_(budget) {}

  // a: Y's move in q (Y to move, legal for Y). Whether it wins by threats,
  // and if so its zone in `zone`. Most candidates fail, so the line is
  // checked first and its zone gathered only once it holds.
  bool wins_by(const Position<W>& q, int a, int depth, Bitboard<W>& zone) {
    if (--budget_ < 0) return false;
    const Geometry<W>& g = *q.g;
    const Color y = q.to_move, x = other(y);
    Position<W> r = q;
    r.place(a);  // X to move
    // Most candidates leave no winning point at all: the flood first.
    const Bitboard<W> joins = connecting_points(r, y);
    if (joins.none()) return false;
    const Legality<W> yl = konobi_legality(r, y);
    const Bitboard<W> threats = yl.legal & joins;
    if (threats.none()) return false;
    const int t0 = threats.first();
    const Bitboard<W> near = Bitboard<W>::single(t0) | g.orth_neighbours(Bitboard<W>::single(t0));
    const Legality<W> xl = konobi_legality(r, x);
    const Bitboard<W> stoppers = near & xl.legal;
    if ((stoppers & connecting_points(r, x)).any()) return false;  // X stops the threat by winning
    // Each stopper must leave Y a legal winning point (or a deeper win).
    struct Answer {
      Position<W> u;  // after the stopper, Y to move
      int t;          // Y's winning point there
      Legality<W> l;  // Y's legality there
    };
    Answer answers[5];
    int count = 0;
    Bitboard<W> deeper;
    bool ok = true;
    stoppers.for_each([&](int b) {
      if (!ok) return;
      Position<W> u = r;
      u.place(b);  // Y to move
      // An X stone joins no Y chain: Y's joining points are those of r but b.
      const Legality<W> ul = konobi_legality(u, y);
      const Bitboard<W> wins = ul.legal & joins.minus(Bitboard<W>::single(b));
      if (wins.any()) answers[count++] = {u, wins.test(t0) ? t0 : wins.first(), ul};
      else ok = depth > 1 && any_win(u, depth - 1, deeper);
    });
    if (!ok) return false;
    Bitboard<W> z =
        Bitboard<W>::single(a) | legality_witness(q, y, a) | win_zone(r, y, t0, yl) | near | deeper;
    (near & r.empty_points()).minus(xl.legal).for_each([&](int b) { z |= legality_witness(r, x, b, xl); });
    for (int i = 0; i < count; ++i) z |= win_zone(answers[i].u, y, answers[i].t, answers[i].l);
    zone |= z;
    return true;
  }

  // Whether Y (to move in q) wins by threats within depth, adding the zone
  // of the first win found.
  bool any_win(const Position<W>& q, int depth, Bitboard<W>& zone) {
    const Color y = q.to_move;
    const Legality<W> yl = konobi_legality(q, y);
    const Bitboard<W> candidates = threat_candidates(q, y, yl, connecting_points(q, y));
    bool found = false;
    candidates.for_each([&](int a) {
      if (!found) found = wins_by(q, a, depth, zone);
    });
    return found;
  }

 private:
  int budget_;
};

// Calls f(NullWin) for each of Y's null-move wins at pos (X to move): Y's
// moves that, were X to pass, would win by threats within `depth` Y moves.
// Only where X has legal placements and no win at once, and Y has no legal
// winning point yet (else the move generator's threat replies apply).
template <int W, class F>
void for_each_null_win(const Position<W>& pos, F&& f, int depth = 1, int budget = 256) {
  const Color x = pos.to_move, y = other(x);
  const Legality<W> mine = konobi_legality(pos, x);
  if (mine.legal.none() || (mine.legal & connecting_points(pos, x)).any()) return;
  const Legality<W> theirs = konobi_legality(pos, y);
  const Bitboard<W> their_wins = connecting_points(pos, y);
  if ((theirs.legal & their_wins).any()) return;
  const Bitboard<W> candidates = threat_candidates(pos, y, theirs, their_wins);
  if (candidates.none()) return;
  Position<W> passed = pos;
  passed.pass();  // Y to move on the same board
  ThreatWins<W> search(budget);
  candidates.for_each([&](int a) {
    Bitboard<W> zone;
    if (search.wins_by(passed, a, depth, zone)) f(NullWin<W>{a, zone & pos.g->board});
  });
}

// X's moves worth searching: inside every null-move win's zone. The whole
// board when there is none.
template <int W>
Bitboard<W> must_play_region(const Position<W>& pos, int depth = 1) {
  Bitboard<W> region = pos.g->board;
  for_each_null_win(
      pos, [&](const NullWin<W>& w) { region &= w.zone; }, depth);
  return region;
}

}  // namespace konobi
