// The moves worth searching in a position, with the cheap exact shortcuts
// that make small-board proofs small: an immediate win ends the node; moves
// that let the opponent win next move are dropped (when the opponent
// threatens to win, that leaves only moves that stop every threat).
#pragma once

#include <stdexcept>

#include "core/konobi.h"

namespace konobi {

enum class NodeKind { Search, WinNow, LoseNow, PassOnly };

template <int W>
struct NodeMoves {
  NodeKind kind = NodeKind::Search;
  Bitboard<W> moves;  // Search: the candidate placements
  int win = -1;       // WinNow: a winning placement
};

// A position where neither side can place and nobody has won: the rules say
// it cannot happen, so the solver stops rather than guess a value.
struct DrawFound : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Points a stone could occupy to stop an opponent's win at t: t itself, or an
// orthogonal neighbour, which can turn t into a crosscut. Nothing else can:
// a stone only removes an empty point, which never makes the opponent's
// weak-connection rule stricter, and never cuts the opponent's chains.
template <int W>
Bitboard<W> threat_stoppers(const Geometry<W>& g, const Bitboard<W>& threats) {
  Bitboard<W> stop = g.board;
  threats.for_each([&](int t) {
    const Bitboard<W> tb = Bitboard<W>::single(t);
    stop &= tb | g.orth_neighbours(tb);
  });
  return stop;
}

// What node_moves learns of both sides at a node that it searches, for a
// caller that looks further there (must_play.h's null-move wins) without
// computing it again.
template <int W>
struct NodeFacts {
  Legality<W> mine, theirs;  // the mover's and the opponent's
  Bitboard<W> my_wins;       // connecting_points for the mover
  EdgeReach<W> their_reach;  // edge_reach for the opponent
};

template <int W>
NodeFacts<W> node_facts(const Position<W>& pos) {
  const Color opp = other(pos.to_move);
  return {konobi_legality(pos, pos.to_move), konobi_legality(pos, opp), connecting_points(pos, pos.to_move),
          edge_reach(*pos.g, pos.stones[opp], opp)};
}

// facts: filled in where the node is searched (NodeKind::Search or LoseNow).
template <int W>
NodeMoves<W> node_moves(const Position<W>& pos, NodeFacts<W>* facts = nullptr) {
  NodeMoves<W> r;
  const Legality<W> mine = konobi_legality(pos, pos.to_move);
  const Bitboard<W>& legal = mine.legal;
  const Color opp = other(pos.to_move);
  if (legal.none()) {
    if (konobi_legality(pos, opp).legal.none())
      throw DrawFound("neither side can move and nobody has won (a draw, which the rules rule out)");
    r.kind = NodeKind::PassOnly;
    return r;
  }
  const Bitboard<W> my_wins = connecting_points(pos, pos.to_move);
  const Bitboard<W> wins = legal & my_wins;
  if (wins.any()) {
    r.kind = NodeKind::WinNow;
    r.win = wins.first();
    return r;
  }
  const Legality<W> theirs = konobi_legality(pos, opp);
  const EdgeReach<W> their_reach = edge_reach(*pos.g, pos.stones[opp], opp);
  const Bitboard<W> their_wins = their_reach.joins(pos.empty_points());
  if (facts) *facts = {mine, theirs, my_wins, their_reach};
  const Bitboard<W> threats = theirs.legal & their_wins;
  r.moves = threats.any() ? legal & threat_stoppers(*pos.g, threats) : legal;
  // A placement after which the opponent can complete a chain loses at
  // once: drop it here rather than search a child to find that out. Such a
  // placement leaves a threat standing (a stopper beside a threat need not
  // make it a crosscut), or it fills an empty point that was the opponent's
  // "free" alternative, so that a point the weak-connection rule barred
  // becomes legal for them. Nothing else can hand them a win: our stone
  // never joins their chains, and apart from that it only adds crosscuts.
  const Bitboard<W> opened = their_wins & theirs.weak_illegal;
  const Bitboard<W> suspects = threats.any() ? r.moves : opened.any() ? r.moves & theirs.free : Bitboard<W>{};
  const Bitboard<W>& ours = pos.stones[pos.to_move];
  suspects.for_each([&](int p) {
    const Bitboard<W> at = Bitboard<W>::single(p);
    if ((konobi_legality(*pos.g, pos.stones[opp], ours | at).legal & their_wins).minus(at).any())
      r.moves = r.moves.minus(at);
  });
  if (r.moves.none()) r.kind = NodeKind::LoseNow;
  return r;
}

}  // namespace konobi
