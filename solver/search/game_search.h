// What the searches need to know about a game, as a type, so that df-pn,
// alpha-beta and the principal variation are templates over the game rather
// than virtual calls in their inner loops: the state searched, its moves
// (with the exact shortcuts of movegen.h), how to play one, the table key,
// and the evaluation that seeds proof numbers.
#pragma once

#include <algorithm>
#include <atomic>

#include "core/assert.h"
#include "core/gonnect.h"
#include "eval.h"
#include "movegen.h"
#include "searched_game.h"

namespace konobi {

// The evaluation of each child of a state, child by child: for a game
// without a cheaper way (eval.h's ChildEstimates is Konobi's).
template <class Game, int W>
class EvaluateEachChild {
 public:
  explicit EvaluateEachChild(const typename Game::template State<W>& s) : s_(s) {}
  Estimate operator()(int m) const { return Game::evaluate(Game::child(s_, m)); }

 private:
  const typename Game::template State<W>& s_;
};

struct KonobiSearch {
  using Rules = KonobiRules;
  // LoseNow: every move lets the opponent win at once (a loss in 2 plies).
  static constexpr int kLoseNowPlies = 2;
  // Without an immediate win, the fastest win takes 3 plies.
  static constexpr int kFastestLaterWin = 3;
  template <int W>
  using State = Position<W>;

  template <int W>
  static NodeMoves<W> moves(const State<W>& s) {
    return node_moves(s);
  }
  template <int W>
  static void play(State<W>& s, int m) {
    s.place(m);
  }
  template <int W>
  static void pass(State<W>& s) {
    s.pass();
  }
  // The position after move m (a placement or kPass).
  template <int W>
  static State<W> child(const State<W>& s, int m) {
    State<W> q = s;
    if (m == kPass) q.pass();
    else q.place(m);
    return q;
  }
  template <int W>
  static uint64_t key(const State<W>& s, bool symmetry) {
    return symmetry ? s.canonical_key() : s.key();
  }
  // The key of the position after placement m, without building it.
  template <int W>
  static uint64_t child_key(const State<W>& s, int m, bool symmetry) {
    return symmetry ? s.canonical_key_after(m) : s.key_after(m);
  }
  // The symmetry whose image key() hashed (table_move below).
  template <int W>
  static int key_symmetry(const State<W>& s, bool symmetry) {
    return symmetry ? s.canonical_symmetry() : 0;
  }
  template <int W>
  static Estimate evaluate(const State<W>& s) {
    return estimate(s);
  }
  // evaluate() of each child of one state, for the placements.
  template <int W>
  using ChildEstimates = konobi::ChildEstimates<W>;
  template <int W>
  static const Position<W>& board(const State<W>& s) {
    return s;
  }
};

// Gonnect under positional superko. A state is its board, the side to move
// and the SET of earlier boards (superko forbids exactly those; their order
// does not matter), so the table key must tell apart states whose sets
// differ (the graph-history interaction problem). Two keys:
//   - strict (the default): the plain board key mixed with an order-free hash
//     of the set of earlier boards, always. Exact without condition.
//   - merge: before the game's first capture every earlier board has fewer
//     stones than the current one, so the current one cannot repeat: the key
//     is the board's (canonical) key and transpositions of the placement
//     phase merge; after it, the strict key.
// The strict key does without symmetry: the set of earlier boards would
// have to be mapped by the same symmetry as the board.
// Merging before the first capture is exact unless a later board could
// equal an earlier board of one move order but not of another. Such a board
// is a proper subset of the board before the first capture; move generation
// counts every candidate board of that kind in `hazards`, and a solve that
// saw none is exact (docs/GONNECT.md has the argument).
struct GonnectSearch {
  using Rules = GonnectRules;
  // LoseNow: the mover has no legal move and has lost (0 plies).
  static constexpr int kLoseNowPlies = 0;
  // Without an immediate win, a move may leave the opponent without one.
  static constexpr int kFastestLaterWin = 1;
  template <int W>
  using State = GonnectState<W>;

  static inline std::atomic<uint64_t> hazards{0};
  static constexpr uint64_t kHistorySalt = 0x476f6e6e656374ull;  // "Gonnect"
  // false (the default, `solve --ghi strict`): the set of earlier boards is
  // in every key, before the first capture too; exact without condition, at
  // the price of the placement phase's transpositions. true: `--ghi merge`.
  static inline std::atomic<bool> merge_before_capture{false};

  template <int W>
  static NodeMoves<W> moves(const State<W>& s) {
    NodeMoves<W> r;
    const GonnectLegality<W> L = gonnect_legality(s);
    // Hazards matter only where positions merge before the first capture.
    if (L.precapture_subset.any() && merge_before_capture.load(std::memory_order_relaxed))
      hazards.fetch_add(L.precapture_subset.count(), std::memory_order_relaxed);
    if (L.legal.none()) {  // no passing: the mover loses
      r.kind = NodeKind::LoseNow;
      return r;
    }
    const Bitboard<W> wins = L.legal & gonnect_connecting_points(s.pos, s.pos.to_move, s.variant.edges);
    if (wins.any()) {
      r.kind = NodeKind::WinNow;
      r.win = wins.first();
      return r;
    }
    r.moves = L.legal;
    return r;
  }
  template <int W>
  static void play(State<W>& s, int m) {
    gonnect_play(s, m);
  }
  template <int W>
  static void pass(State<W>&) {}  // never: moves() has no PassOnly
  // The state after placement m, sharing s's history (gonnect_child): the
  // searches descend depth-first, so s outlives it. Never kPass.
  template <int W>
  static State<W> child(const State<W>& s, int m) {
    return gonnect_child(s, m);
  }
  template <int W>
  static uint64_t key(const State<W>& s, bool symmetry) {
    if (!s.captured && merge_before_capture.load(std::memory_order_relaxed))
      return symmetry ? s.pos.canonical_key() : s.pos.key();
    return s.pos.key() ^ mix_board_key(s.history_hash ^ kHistorySalt);
  }
  // As key(): the identity once the history is in the key.
  template <int W>
  static int key_symmetry(const State<W>& s, bool symmetry) {
    const bool merged = !s.captured && merge_before_capture.load(std::memory_order_relaxed);
    return symmetry && merged ? s.pos.canonical_symmetry() : 0;
  }
  // key() of the state after placement m, without building it: the board
  // key after the stone and its captures, and the set of earlier boards
  // grown by s's board.
  template <int W>
  static uint64_t child_key(const State<W>& s, int m, bool symmetry) {
    const Position<W>& pos = s.pos;
    const Bitboard<W> cap = gonnect_captures(pos, pos.to_move, m);
    if (!s.captured && cap.none() && merge_before_capture.load(std::memory_order_relaxed))
      return symmetry ? pos.canonical_key_after(m) : pos.key_after(m);
    uint64_t k = pos.key_after(m);
    const Color o = other(pos.to_move);
    cap.for_each([&](int q) { k ^= pos.g->zob[o][q][0]; });
    return k ^ mix_board_key(s.history_hash ^ mix_board_key(pos.keys[0]) ^ kHistorySalt);
  }
  // eval.h's idea with Gonnect's chains: the fewest empty points each side
  // must fill to join a pair of edges it may join (4-connected, ignoring
  // captures and legality). Only the search's speed depends on it.
  template <int W>
  static Estimate evaluate(const State<W>& s) {
    const int mine = distance(s, s.pos.to_move), theirs = distance(s, other(s.pos.to_move));
    return {uint32_t(std::max(1, mine)), uint32_t(std::max(1, theirs))};
  }
  template <int W>
  using ChildEstimates = EvaluateEachChild<GonnectSearch, W>;
  template <int W>
  static int distance(const State<W>& s, Color c) {
    const Geometry<W>& g = *s.pos.g;
    const Bitboard<W>& own = s.pos.stones[c];
    const Bitboard<W> empty = s.pos.empty_points();
    int best = g.cells;
    for_each_goal(g, c, s.variant.edges, [&](const Bitboard<W>& lo, const Bitboard<W>& hi) {
      best = fill_distance(g, own, empty, lo, hi, best,
                           [&](const Bitboard<W>& b) { return b | g.orth_neighbours(b); });
    });
    return best;
  }
  template <int W>
  static const Position<W>& board(const State<W>& s) {
    return s.pos;
  }
};

// The contract of searched_game.h, checked here for both games.
static_assert(SearchedGame<KonobiSearch, 1>);
static_assert(SearchedGame<GonnectSearch, 1>);

// A move as a table entry keeps it: in the orientation of the image that
// the entry's key hashed, so that an entry written through one image of a
// position and read through another names the same move. kPass and -1 (no
// move) stay as they are.
template <class Game, int W>
int table_move(const typename Game::template State<W>& s, int m, bool symmetry) {
  KONOBI_ASSERT(m < Game::board(s).g->cells);
  return m < 0 ? m : Game::board(s).g->sym[Game::key_symmetry(s, symmetry)][m];
}
// The move a table entry names, in s's own orientation.
template <class Game, int W>
int board_move(const typename Game::template State<W>& s, int m, bool symmetry) {
  KONOBI_ASSERT(m < Game::board(s).g->cells);
  return m < 0 ? m : Game::board(s).g->sym[sym_inverse(Game::key_symmetry(s, symmetry))][m];
}

}  // namespace konobi
