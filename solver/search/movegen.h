// The moves worth searching in a position, with the cheap exact shortcuts
// that make small-board proofs small: an immediate win ends the node; when
// the opponent threatens to win next move, only moves that can stop every
// threat are kept (all others lose at once).
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

template <int W>
NodeMoves<W> node_moves(const Position<W>& pos) {
  NodeMoves<W> r;
  const Bitboard<W> legal = konobi_legal_placements(pos);
  const Color opp = other(pos.to_move);
  if (legal.none()) {
    if (konobi_legality(pos, opp).legal.none())
      throw DrawFound("neither side can move and nobody has won (a draw, which the rules rule out)");
    r.kind = NodeKind::PassOnly;
    return r;
  }
  const Bitboard<W> wins = legal & connecting_points(pos, pos.to_move);
  if (wins.any()) {
    r.kind = NodeKind::WinNow;
    r.win = wins.first();
    return r;
  }
  const Bitboard<W> threats = konobi_legality(pos, opp).legal & connecting_points(pos, opp);
  r.moves = threats.any() ? legal & threat_stoppers(*pos.g, threats) : legal;
  if (r.moves.none()) r.kind = NodeKind::LoseNow;
  return r;
}

}  // namespace konobi
