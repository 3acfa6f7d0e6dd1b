// Konobi's rules on bitboards: which placements are legal for a colour, and
// whether a placement wins. Every point is judged at once with a fixed number
// of word operations (for the 64-bit board, a few dozen instructions).
//
// For colour c (own stones C, the opponent's O, empty E) and each diagonal
// direction d = (dx, dy), the two points beside both p and p+d are p+(dx,0)
// and p+(0,dy); a c stone at p is weakly connected to a c stone at p+d when
// neither of those holds a c stone.
//   free      = empty points where a c stone would be weakly connected to
//               nothing (these are the "alternative" points of the rule);
//   protected = c stones with a free orthogonal neighbour;
//   weak-illegal p: p would be weakly connected to a protected stone;
//   crosscut p: for some d, p+d is c and both side points are the opponent's.
// See docs/RULES.md for the reading of the rule texts this implements.
#pragma once

#include <string>

#include "notation.h"
#include "position.h"
#include "rules.h"

namespace konobi {

template <int W>
struct Legality {
  Bitboard<W> legal;
  Bitboard<W> weak_illegal;  // empty points barred by the weak-connection rule
  Bitboard<W> crosscut;      // empty points barred as crosscuts
  Bitboard<W> free;          // empty points with no weak connection for c
  Bitboard<W> guarded;       // c stones that have a free orthogonal neighbour
};

// The empty points barred to the colour whose stones are C (against O) as
// crosscuts: for some d, p+d is C's and both points beside p and p+d are
// O's. Apart from konobi_legality, for callers that need no more.
template <int W>
Bitboard<W> crosscut_points(const Geometry<W>& g, const Bitboard<W>& C, const Bitboard<W>& O) {
  const Bitboard<W> E = g.board.minus(C | O);
  const Bitboard<W> oE = g.template at<1, 0>(O), oW = g.template at<-1, 0>(O);
  const Bitboard<W> oN = g.template at<0, 1>(O), oS = g.template at<0, -1>(O);
  return E & ((g.template at<1, 1>(C) & oE & oN) | (g.template at<-1, 1>(C) & oW & oN) |
              (g.template at<1, -1>(C) & oE & oS) | (g.template at<-1, -1>(C) & oW & oS));
}

// For the colour whose stones are C, against the opponent's O: the rules
// read nothing but the two stone sets.
template <int W>
Legality<W> konobi_legality(const Geometry<W>& g, const Bitboard<W>& C, const Bitboard<W>& O) {
  const Bitboard<W> E = g.board.minus(C | O);
  const Bitboard<W> cE = g.template at<1, 0>(C), cW = g.template at<-1, 0>(C);
  const Bitboard<W> cN = g.template at<0, 1>(C), cS = g.template at<0, -1>(C);
  // p and p+d share no c stone beside both, per diagonal direction.
  const Bitboard<W> openNE = ~(cE | cN), openNW = ~(cW | cN);
  const Bitboard<W> openSE = ~(cE | cS), openSW = ~(cW | cS);

  Legality<W> r;
  const Bitboard<W> weakly_linked = (g.template at<1, 1>(C) & openNE) | (g.template at<-1, 1>(C) & openNW) |
                                    (g.template at<1, -1>(C) & openSE) | (g.template at<-1, -1>(C) & openSW);
  r.free = E.minus(weakly_linked);
  r.guarded = C & g.orth_neighbours(r.free);
  const Bitboard<W> G = r.guarded;
  r.weak_illegal = E & ((g.template at<1, 1>(G) & openNE) | (g.template at<-1, 1>(G) & openNW) |
                        (g.template at<1, -1>(G) & openSE) | (g.template at<-1, -1>(G) & openSW));

  r.crosscut = crosscut_points(g, C, O);
  r.legal = E.minus(r.weak_illegal | r.crosscut);
  return r;
}

template <int W>
Legality<W> konobi_legality(const Position<W>& pos, Color c) {
  return konobi_legality(*pos.g, pos.stones[c], pos.stones[other(c)]);
}

// Legal placements for the side to move. Empty means the mover must pass.
template <int W>
Bitboard<W> konobi_legal_placements(const Position<W>& pos) {
  return konobi_legality(pos, pos.to_move).legal;
}

// Stones of `stones` 8-connected to the set `seed`.
template <int W>
Bitboard<W> flood8(const Geometry<W>& g, const Bitboard<W>& stones, const Bitboard<W>& seed) {
  return g.flood(stones, seed, [&](const Bitboard<W>& b) { return g.grow8(b); });
}

// The points where a c stone (C: c's stones) would join each of c's edges:
// on the edge, or beside a chain that reaches it. Kept apart from
// connecting_points for callers that add one stone and update the sets
// rather than flood again (solver/search/must_play.h).
template <int W>
struct EdgeReach {
  Bitboard<W> lo, hi;
  // Of the empty points E, those joining both edges: the winning points.
  Bitboard<W> joins(const Bitboard<W>& E) const { return lo & hi & E; }
};

template <int W>
EdgeReach<W> edge_reach(const Geometry<W>& g, const Bitboard<W>& C, Color c) {
  return {g.edge_lo[c] | g.grow8(flood8(g, C, g.edge_lo[c])),
          g.edge_hi[c] | g.grow8(flood8(g, C, g.edge_hi[c]))};
}

// The empty points where a c stone would complete a chain joining c's two
// edges: a new stone joins exactly the chains it touches, so it wins when it
// lies on (or beside a chain that reaches) each edge. Exact, and a handful of
// flood steps for all points at once. Callers intersect with the legal set.
template <int W>
Bitboard<W> connecting_points(const Position<W>& pos, Color c) {
  return edge_reach(*pos.g, pos.stones[c], c).joins(pos.empty_points());
}

// Whether placing the mover's stone at p wins at once.
template <int W>
bool konobi_wins_by(const Position<W>& pos, int p) {
  return connecting_points(pos, pos.to_move).test(p);
}

// Whether colour c has a chain joining its two edges anywhere on the board
// (for positions given as diagrams rather than reached by moves).
template <int W>
bool has_winning_chain(const Position<W>& pos, Color c) {
  const Geometry<W>& g = *pos.g;
  return (flood8(g, pos.stones[c], g.edge_lo[c]) & g.edge_hi[c]).any();
}

// The stones of c's chains that join its two edges (empty while c has not
// won): the groups the win test's floods reach from both edges.
template <int W>
Bitboard<W> winning_chain(const Position<W>& pos, Color c) {
  const Geometry<W>& g = *pos.g;
  return flood8(g, pos.stones[c], g.edge_lo[c]) & flood8(g, pos.stones[c], g.edge_hi[c]);
}

// Why an empty point is or is not open to colour c, for people.
struct PointVerdict {
  enum Kind { Legal, Occupied, Crosscut, WeakConnection } kind = Legal;
  int stone = -1;        // WeakConnection: the stone p would weakly connect to
  int alternative = -1;  // WeakConnection: a free strong connection to that stone
};

template <int W>
PointVerdict explain_point(const Position<W>& pos, Color c, int p) {
  PointVerdict v;
  if (pos.at(p) >= 0) return v.kind = PointVerdict::Occupied, v;
  const Legality<W> L = konobi_legality(pos, c);
  if (L.crosscut.test(p)) return v.kind = PointVerdict::Crosscut, v;
  if (!L.weak_illegal.test(p)) return v;
  const Geometry<W>& g = *pos.g;
  const int x = g.col(p), y = g.row(p);
  for (int dy : {1, -1})
    for (int dx : {1, -1}) {
      if (!g.on_board(x + dx, y + dy)) continue;
      const int s = g.point(x + dx, y + dy);
      const bool side_a = g.on_board(x + dx, y) && pos.stones[c].test(g.point(x + dx, y));
      const bool side_b = g.on_board(x, y + dy) && pos.stones[c].test(g.point(x, y + dy));
      if (!L.guarded.test(s) || side_a || side_b) continue;
      const Bitboard<W> alt = L.free & g.orth_neighbours(Bitboard<W>::single(s));
      v.kind = PointVerdict::WeakConnection;
      v.stone = s;
      v.alternative = alt.first();
      return v;
    }
  return v;  // unreachable while weak_illegal and this search agree
}

// A sentence for people on why p is or is not open to the side to move.
template <int W>
std::string explain_illegal(const Position<W>& pos, int p) {
  const int n = pos.size();
  const std::string who = color_name(pos.to_move);
  const PointVerdict v = explain_point(pos, pos.to_move, p);
  switch (v.kind) {
    case PointVerdict::Occupied:
      return point_name(n, p) + " is occupied";
    case PointVerdict::Crosscut:
      return point_name(n, p) + " would form a crosscut";
    case PointVerdict::WeakConnection:
      return point_name(n, p) + " would weakly connect to " + point_name(n, v.stone) + " while " +
             point_name(n, v.alternative) + " is a strong connection to " + point_name(n, v.stone) +
             " with no weak connection (weak-connection rule)";
    case PointVerdict::Legal:
      break;
  }
  return point_name(n, p) + " is legal for " + who;
}

}  // namespace konobi

namespace konobi {

// The rule set as a type, so that perft, the solver and the game layer are
// templates over the game (Gonnect supplies the same members) rather than
// virtual calls in their inner loops.
struct KonobiRules {
  static constexpr const char* name = "konobi";
  static constexpr bool can_pass = true;  // a player without a placement passes
  struct Variant {};
  // A Konobi position alone decides everything that follows.
  template <int W>
  using State = Position<W>;

  template <int W>
  static State<W> start(const Position<W>& pos, const Variant&) {
    return pos;
  }
  template <int W>
  static const Geometry<W>& geometry(int n, const Variant&) {
    return Geometry<W>::get(n);
  }
  template <int W>
  static const Position<W>& board(const State<W>& s) {
    return s;
  }
  template <int W>
  static void swap(State<W>& s) {
    s.swap();
  }
  template <int W>
  static void pass(State<W>& s) {
    s.pass();
  }
  template <int W>
  static bool has_winning_chain(const State<W>& s, Color c) {
    return konobi::has_winning_chain(s, c);
  }
  template <int W>
  static Bitboard<W> winning_chain(const State<W>& s, Color c) {
    return konobi::winning_chain(s, c);
  }
  template <int W>
  static std::string explain_illegal(const State<W>& s, int p) {
    return konobi::explain_illegal(s, p);
  }
  template <int W>
  static Bitboard<W> placements(const Position<W>& pos) {
    return konobi_legal_placements(pos);
  }
  template <int W>
  static bool wins_by(const Position<W>& pos, int p) {
    return konobi_wins_by(pos, p);
  }
  // Of the given legal placements, those that win at once.
  template <int W>
  static Bitboard<W> winning(const Position<W>& pos, const Bitboard<W>& legal) {
    return legal & connecting_points(pos, pos.to_move);
  }
  template <int W>
  static void play(Position<W>& pos, int p) {
    pos.place(p);
  }
};

static_assert(GameRules<KonobiRules, 1>);  // the contract of rules.h

}  // namespace konobi
