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

// The Y stones (Y: Y's stones) that join point t (empty, Y's to fill) to
// Y's two edges: one group touching each edge among those beside t (none
// for an edge that t lies on).
template <int W>
Bitboard<W> joining_groups(const Geometry<W>& g, const Bitboard<W>& Y, Color y, int t) {
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

template <int W>
Bitboard<W> joining_groups(const Position<W>& q, Color y, int t) {
  return joining_groups(*q.g, q.stones[y], y, t);
}

// What makes t, legal for y, a winning point for y, whose stones are Y
// against O: t, its joining groups and the witnesses of its legality.
template <int W>
Bitboard<W> win_zone(const Geometry<W>& g, const Bitboard<W>& Y, const Bitboard<W>& O, Color y, int t) {
  return Bitboard<W>::single(t) | joining_groups(g, Y, y, t) | legal_witness(g, Y, O, t);
}

// Y's empty points one or two empty points away from joining its edges
// through them: the only places where a Y stone can create a winning point
// (given that Y has no legal winning point yet and every winning point of Y
// is legal; otherwise every legal point is a candidate).
// reach: edge_reach(*pos.g, pos.stones[y], y).
template <int W>
Bitboard<W> null_move_candidates(const Position<W>& pos, Color y, const EdgeReach<W>& reach) {
  const Geometry<W>& g = *pos.g;
  const Bitboard<W>& Y = pos.stones[y];
  const Bitboard<W> E = pos.empty_points();
  Bitboard<W> one[2], two[2];
  for (int side = 0; side < 2; ++side) {
    // Empty points that join the edge by themselves, then those that join
    // it with one more empty point of the first kind.
    one[side] = E & (side ? reach.hi : reach.lo);
    const Bitboard<W> through = one[side] | flood8(g, Y, g.grow8(one[side]));
    two[side] = E & (one[side] | g.grow8(through));
  }
  return (one[0] & two[1]) | (two[0] & one[1]);
}

template <int W>
Bitboard<W> null_move_candidates(const Position<W>& pos, Color y) {
  return null_move_candidates(pos, y, edge_reach(*pos.g, pos.stones[y], y));
}

// Y's legal points worth trying as the first move of a threat line, given
// Y's legality, joining points and edge reach in pos: the near ones, or
// every legal point while some joining point is barred (a Y stone can
// unbar it).
template <int W>
Bitboard<W> threat_candidates(const Position<W>& pos, Color y, const Legality<W>& yl,
                              const Bitboard<W>& joins, const EdgeReach<W>& reach) {
  return joins.any() ? yl.legal : yl.legal & null_move_candidates(pos, y, reach);
}

// What a threat line from q (Y to move) reads of q whatever Y's first move:
// computed once per position rather than once per candidate.
template <int W>
struct ThreatBase {
  EdgeReach<W> reach;   // Y's: edge_reach(g, Y, y)
  Bitboard<W> x_joins;  // connecting_points(q, X)
  Bitboard<W> joins;    // Y's joining points
  Bitboard<W> threats;  // those legal for Y
  // The witnesses of Y's verdicts at its joining points: a Y stone on none
  // of them leaves every verdict as it is (core/legality_witness.h).
  Bitboard<W> join_witness;
};

// yl: konobi_legality(q, Y); reach, x_joins as in ThreatBase.
template <int W>
ThreatBase<W> threat_base(const Position<W>& q, const Legality<W>& yl, const EdgeReach<W>& reach,
                          const Bitboard<W>& x_joins) {
  ThreatBase<W> b{reach, x_joins, reach.joins(q.empty_points()), {}, {}};
  b.threats = b.joins & yl.legal;
  b.joins.for_each([&](int p) { b.join_witness |= legality_witness(q, q.to_move, p, yl); });
  return b;
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

  // a: Y's move in q (Y to move, legal for Y); base: q's ThreatBase.
  // Whether it wins by threats, and if so its zone in `zone`. Most
  // candidates fail, so the line is checked first and its zone gathered
  // only once it holds. The line is read on stone sets rather than on
  // positions built move by move: r is q after a, u is r after an X
  // stopper b.
  bool wins_by(const Position<W>& q, const ThreatBase<W>& base, int a, int depth, Bitboard<W>& zone) {
    if (--budget_ < 0) return false;
    const Geometry<W>& g = *q.g;
    const Color y = q.to_move, x = other(y);
    const Bitboard<W> A = Bitboard<W>::single(a);
    const Bitboard<W> Y = q.stones[y] | A;  // in r
    const Bitboard<W>& X = q.stones[x];
    const Bitboard<W> E = q.empty_points().minus(A);
    // Most candidates leave no winning point at all: Y's joining points in
    // r first. a's chain extends the reach of each edge a joins, and
    // nothing else changes, which spares flooding from the edges again.
    EdgeReach<W> reach = base.reach;
    if (reach.lo.test(a) || reach.hi.test(a)) {
      const Bitboard<W> grown = g.grow8(flood8(g, Y, A));
      if (reach.lo.test(a)) reach.lo |= grown;
      if (reach.hi.test(a)) reach.hi |= grown;
    }
    const Bitboard<W> joins = reach.joins(E);
    if (joins.none()) return false;
    // Y's verdicts at q's joining points hold in r unless a is among their
    // witnesses. Where a adds no joining point and witnesses none, Y's
    // legality in r is not needed: most candidates end here when Y's
    // joining points are barred (then every legal point is a candidate).
    const Bitboard<W> threats = joins.minus(base.joins).none() && !base.join_witness.test(a)
                                    ? joins & base.threats
                                    : konobi_legality(g, Y, X).legal & joins;
    if (threats.none()) return false;
    const int t0 = threats.first();
    const Bitboard<W> T0 = Bitboard<W>::single(t0), near = T0 | g.orth_neighbours(T0);
    const Legality<W> xl = konobi_legality(g, X, Y);
    const Bitboard<W> stoppers = near & xl.legal;
    // X stops the threat by winning. X's joining points in r are those of q
    // on r's empty points, where the stoppers lie.
    if ((stoppers & base.x_joins).any()) return false;
    // Each stopper must leave Y a legal winning point (or a deeper win). An
    // X stone joins no Y chain, so Y's joining points in u are those of r
    // but b; and it bars no legal point of Y but by making it a crosscut
    // (filling a free point only unbars, konobi.h). So t0 still wins after
    // b unless b is t0 or makes it a crosscut; and then its zone in u lies
    // inside its zone in r (the same Y stones, fewer empty points), which
    // the line's zone holds already. Only the other stoppers need Y's
    // legality in u and a winning point of their own.
    struct Answer {
      int b;  // X's stopper
      int t;  // Y's winning point after it
    };
    Answer answers[5];
    int count = 0;
    Bitboard<W> deeper;
    bool ok = true;
    stoppers.for_each([&](int b) {
      if (!ok) return;
      const Bitboard<W> B = Bitboard<W>::single(b);
      if (b != t0 && !crosscut_points(g, Y, X | B).test(t0)) return;
      const Bitboard<W> wins = konobi_legality(g, Y, X | B).legal & joins.minus(B);
      if (wins.any()) {
        answers[count++] = {b, wins.first()};  // t0 is not among them
      } else if (depth > 1) {
        Position<W> u = q;
        u.place(a);
        u.place(b);  // Y to move
        ok = any_win(u, depth - 1, deeper);
      } else {
        ok = false;
      }
    });
    if (!ok) return false;
    // a is legal for Y in q and t0 in r, and so is each answer's point in
    // its u: their witnesses need no Legality.
    Bitboard<W> z = A | legal_witness(g, q.stones[y], X, a) | win_zone(g, Y, X, y, t0) | near | deeper;
    (near & E).minus(xl.legal).for_each([&](int b) { z |= legality_witness(g, X, Y, b, xl); });
    for (int i = 0; i < count; ++i)
      z |= win_zone(g, Y, X | Bitboard<W>::single(answers[i].b), y, answers[i].t);
    zone |= z;
    return true;
  }

  // Whether Y (to move in q) wins by threats within depth, adding the zone
  // of the first win found.
  bool any_win(const Position<W>& q, int depth, Bitboard<W>& zone) {
    const Color y = q.to_move;
    const Legality<W> yl = konobi_legality(q, y);
    const ThreatBase<W> base =
        threat_base(q, yl, edge_reach(*q.g, q.stones[y], y), connecting_points(q, other(y)));
    const Bitboard<W> candidates = threat_candidates(q, y, yl, base.joins, base.reach);
    bool found = false;
    candidates.for_each([&](int a) {
      if (!found) found = wins_by(q, base, a, depth, zone);
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
// facts: node_facts(pos), or what node_moves found at pos.
template <int W, class F>
void for_each_null_win(const Position<W>& pos, const NodeFacts<W>& facts, F&& f, int depth = 1,
                       int budget = 256) {
  const Color x = pos.to_move, y = other(x);
  if (facts.mine.legal.none() || (facts.mine.legal & facts.my_wins).any()) return;
  const Bitboard<W> their_wins = facts.their_reach.joins(pos.empty_points());
  if ((facts.theirs.legal & their_wins).any()) return;
  const Bitboard<W> candidates = threat_candidates(pos, y, facts.theirs, their_wins, facts.their_reach);
  if (candidates.none()) return;
  Position<W> passed = pos;
  passed.pass();  // Y to move on the same board
  const ThreatBase<W> base = threat_base(passed, facts.theirs, facts.their_reach, facts.my_wins);
  ThreatWins<W> search(budget);
  candidates.for_each([&](int a) {
    Bitboard<W> zone;
    if (search.wins_by(passed, base, a, depth, zone)) f(NullWin<W>{a, zone & pos.g->board});
  });
}

template <int W, class F>
void for_each_null_win(const Position<W>& pos, F&& f, int depth = 1, int budget = 256) {
  for_each_null_win(pos, node_facts(pos), std::forward<F>(f), depth, budget);
}

// X's moves worth searching: inside every null-move win's zone. The whole
// board when there is none.
template <int W>
Bitboard<W> must_play_region(const Position<W>& pos, const NodeFacts<W>& facts, int depth = 1) {
  Bitboard<W> region = pos.g->board;
  for_each_null_win(
      pos, facts, [&](const NullWin<W>& w) { region &= w.zone; }, depth);
  return region;
}

template <int W>
Bitboard<W> must_play_region(const Position<W>& pos, int depth = 1) {
  return must_play_region(pos, node_facts(pos), depth);
}

}  // namespace konobi
