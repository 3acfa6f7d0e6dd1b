// Relevance zones of proven Konobi positions (issue 21; Wu and Lin's
// relevance-zone-oriented proof search). The zone Z of a position P proven
// for its mover X is a set of points such that every position in play that
// agrees with P on Z has the same value. Konobi's legality is not monotone
// (a stone far away can bar or unbar a point), so a zone holds, besides the
// stones a win rests on, the legality witnesses (core/legality_witness.h)
// of every move its argument uses. docs/SOLVER.md, "Relevance zones",
// gives the argument; in short:
//
//   - X wins at once at t: t, the X groups t joins to X's edges, and the
//     witnesses of t's legality.
//   - X wins by m, P+m having zone Zc: Zc, m, and m's legality witnesses
//     (in P' agreeing on them m is legal and P'+m agrees with P+m on Zc).
//   - X loses: each legal reply r has a zone Zr of Y's win after it (the
//     searched child's, an immediate win's, or the null-move win's that
//     left r out of the must-play region). A *transferable* zone (a
//     null-move win's, a standing threat's, or a Zr without r) refutes
//     every reply r' outside it, because P'+r' agrees with P+r (or with P
//     after X's pass) on it. Z is the union of the transferable zones used
//     and of the Zr of the replies that none of them leaves out (smallest
//     first, so that a small transferable zone speaks for most replies);
//     points illegal for X in P that every transferable zone holds keep
//     their illegality witnesses, so that a point barred in P but not in P'
//     is refuted too. A loss with no transferable zone gets none.
//
// A zone is a one-word bitboard: zones serve the fast path's boards only.
#pragma once

#include <algorithm>
#include <optional>

#include "core/konobi.h"
#include "core/legality_witness.h"
#include "movegen.h"
#include "must_play.h"
#include "zone_table.h"

namespace konobi {

// The zone of X's win at once at t (legal for X, joining X's edges).
template <int W>
Bitboard<W> win_now_zone(const Position<W>& pos, int t) {
  const Color x = pos.to_move;
  return win_zone(*pos.g, pos.stones[x], pos.stones[other(x)], x, t) & pos.g->board;
}

// The zone of X's win by m (legal for X) when pos+m has zone `child`.
template <int W>
Bitboard<W> win_by_zone(const Position<W>& pos, int m, const Bitboard<W>& child) {
  const Color x = pos.to_move;
  return (child | legal_witness(*pos.g, pos.stones[x], pos.stones[other(x)], m)) & pos.g->board;
}

// The zone of Y's win at once after X's placement r, or nothing when Y
// has no legal winning point there.
template <int W>
std::optional<Bitboard<W>> win_after_zone(const Position<W>& pos, int r) {
  Position<W> q = pos;
  q.place(r);
  const Color y = q.to_move;
  const Bitboard<W> wins = konobi_legality(q, y).legal & connecting_points(q, y);
  if (wins.none()) return std::nullopt;
  return win_now_zone(q, wins.first());
}

// The zone of a position lost for its mover X. `searched`: the placements
// df-pn searched there (the move generator's list narrowed to the must-play
// region, or fewer on a symmetric position, whose other moves then need a
// null-move win of their own); child_zone(r, Bitboard<W>&) gives the zone
// of Y's win after a searched r, false when it is not known. depth: the
// must-play threat depth the search used. Nothing when some reply has no
// zone, when there is no transferable zone, or when X must pass.
template <int W, class ChildZone>
std::optional<Bitboard<W>> lost_zone(const Position<W>& pos, const Bitboard<W>& searched, int depth,
                                     ChildZone&& child_zone) {
  const Geometry<W>& g = *pos.g;
  NodeFacts<W> facts;
  const NodeMoves<W> nm = node_moves(pos, &facts);
  if (nm.kind != NodeKind::Search && nm.kind != NodeKind::LoseNow) return std::nullopt;
  const Color x = pos.to_move, y = other(x);
  const Bitboard<W>& X = pos.stones[x];
  const Bitboard<W>& Y = pos.stones[y];
  const Bitboard<W> legal = facts.mine.legal;
  Bitboard<W> zone;
  // The intersection of the transferable zones: the points none of them
  // leaves out. Starts as the whole board, with no zone yet.
  Bitboard<W> kept = g.board;
  bool transferable = false;
  const auto transfer = [&](const Bitboard<W>& z) {
    zone |= z;
    kept &= z;
    transferable = true;
  };
  // A legal winning point t of Y's stands against every X reply but t and
  // its orthogonal neighbours (movegen.h): its win zone and those points
  // form a transferable zone.
  const Bitboard<W> threats = facts.theirs.legal & facts.their_reach.joins(pos.empty_points());
  if (threats.any()) {
    const int t = threats.first();
    const Bitboard<W> T = Bitboard<W>::single(t);
    transfer((win_zone(g, Y, X, y, t) | T | g.orth_neighbours(T)) & g.board);
  }
  // Replies outside the region: each left out by some null-move win.
  const Bitboard<W> kept_moves = nm.kind == NodeKind::Search ? nm.moves : Bitboard<W>{};
  const Bitboard<W> unsearched = kept_moves.minus(searched);
  if ((unsearched & kept).any()) {
    for_each_null_win(
        pos, facts,
        [&](const NullWin<W>& w) {
          if ((unsearched & kept).minus(w.zone).any()) transfer(w.zone);
        },
        depth);
    if ((unsearched & kept).any()) return std::nullopt;
  }
  // The other replies, as long as no transferable zone speaks for them:
  // each refutation that leaves its own reply out speaks for every reply
  // it leaves out (Wu and Lin's pruning at the loser's node, applied to
  // the zone rather than to the search). Smaller zones first: the first
  // transferable one decides which other replies need zones of their own.
  struct Reply {
    int r;
    Bitboard<W> z;
    int size;
  };
  Reply replies[64];
  int count = 0;
  bool ok = true;
  (legal.minus(unsearched) & kept).for_each([&](int r) {
    if (!ok) return;
    Bitboard<W> z;
    if (searched.test(r)) {
      if (!child_zone(r, z)) return void(ok = false);
    } else {
      // Dropped by the move generator: Y wins at once after it.
      const auto w = win_after_zone(pos, r);
      if (!w) return void(ok = false);
      z = *w;
    }
    replies[count++] = {r, z, z.count() + (z.test(r) ? 64 : 0)};
  });
  if (!ok) return std::nullopt;
  std::sort(replies, replies + count, [](const Reply& a, const Reply& b) { return a.size < b.size; });
  for (int i = 0; i < count; ++i) {
    if (!kept.test(replies[i].r)) continue;
    if (replies[i].z.test(replies[i].r)) zone |= replies[i].z;
    else transfer(replies[i].z);
  }
  if (!transferable)  // any null-move win transfers
    for_each_null_win(
        pos, facts,
        [&](const NullWin<W>& w) {
          if (!transferable) transfer(w.zone);
        },
        depth);
  if (!transferable) return std::nullopt;
  // Illegal points that no transferable zone leaves out keep their verdict.
  (pos.empty_points().minus(legal) & kept).for_each([&](int e) {
    zone |= legality_witness(g, X, Y, e, facts.mine);
  });
  return zone & g.board;
}

// A proven position that pos matches inside its zone: pos itself (the
// transposition table may have lost it), or one that lacks one stone x of
// pos's mover and one y of the opponent (so it has the same side to move)
// and whose zone holds neither, so that pos agrees with it on the zone and
// has its value. Up to 128 pairs, every slot fetched before the first is
// read.
inline std::optional<ZoneTable::Hit> match_zone(const ZoneTable& zones, const Position<1>& pos) {
  constexpr int kMax = 128;
  const Geometry<1>& g = *pos.g;
  const Color me = pos.to_move, op = other(me);
  const uint64_t base = pos.key();
  uint64_t keys[kMax];
  uint8_t xs[kMax], ys[kMax];
  int count = 0;
  zones.prefetch(base);
  pos.stones[me].for_each([&](int x) {
    pos.stones[op].for_each([&](int y) {
      if (count == kMax) return;
      xs[count] = uint8_t(x), ys[count] = uint8_t(y);
      zones.prefetch(keys[count++] = base ^ g.zob[me][x][0] ^ g.zob[op][y][0]);
    });
  });
  const uint64_t empty = pos.empty_points().w[0];
  const auto usable = [&](const ZoneTable::Hit& h) {
    // The winning move lies in the zone, so it is empty here too; a slot
    // that says otherwise was overwritten between our two reads.
    return !h.mover_wins || (h.move >= 0 && (empty >> h.move & 1));
  };
  ZoneTable::Hit h;
  if (zones.find(base, h) && usable(h)) return h;
  for (int i = 0; i < count; ++i)
    if (zones.find(keys[i], h) && !(h.zone >> xs[i] & 1) && !(h.zone >> ys[i] & 1) && usable(h)) return h;
  return std::nullopt;
}

}  // namespace konobi
