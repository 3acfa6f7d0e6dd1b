// Negamax alpha-beta on the same rules engine, with exact scores that encode
// remoteness: a win in r plies scores kWinScore - r, a loss in r plies
// -(kWinScore - r), so the winner hurries and the loser delays. Searched
// with a null window it is a plain boolean solver, an independent check of
// df-pn (different search, different table, same move generator).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "core/assert.h"
#include "movegen.h"
#include "parallel_dfpn.h"

namespace konobi {

constexpr int kWinScore = 10000;
inline int remoteness_of(int s) { return kWinScore - std::abs(s); }

// Game: the searched game (game_search.h), Konobi unless told.
template <int W, SearchedGame<W> Game = KonobiSearch>
class AlphaBeta {
 public:
  using State = typename Game::template State<W>;

  // A table of 2^log2_entries bound entries, replaced always.
  explicit AlphaBeta(int log2_entries = 20, const std::atomic<bool>* stop = nullptr)
      : table_(size_t(1) << log2_entries), mask_(table_.size() - 1), stop_(stop) {}

  // Exact score for the side to move.
  int score(const State& pos) { return search(pos, -kWinScore - 1, kWinScore + 1); }
  // Whether the side to move wins (null-window search around 0).
  bool wins(const State& pos) { return search(pos, -1, 1) > 0; }

  // Exact score of every move at the root; pass for a forced pass.
  std::vector<std::pair<Move, int>> score_moves(const State& pos) {
    std::vector<std::pair<Move, int>> out;
    const Bitboard<W> legal = Game::Rules::placements(pos);
    if (legal.none()) {
      if constexpr (Game::Rules::can_pass) {
        State q = pos;
        Game::pass(q);
        out.emplace_back(kPass, child_score(q));
      }
      return out;
    }
    legal.for_each([&](int m) {
      if (Game::Rules::wins_by(pos, m)) return out.emplace_back(m, kWinScore - 1), void();
      State q = pos;
      Game::play(q, m);
      out.emplace_back(m, child_score(q));
    });
    return out;
  }

  uint64_t nodes() const { return nodes_; }
  // Give up (SearchStopped) once the node count passes `limit`; 0: none.
  void set_node_limit(uint64_t limit) { node_limit_ = limit; }

  int search(const State& pos, int alpha, int beta) {
    ++nodes_;
    if ((nodes_ & 4095) == 0) {
      if (stop_ && stop_->load(std::memory_order_relaxed)) throw SearchStopped{};
      if (node_limit_ && nodes_ > node_limit_) throw SearchStopped{};
    }
    const NodeMoves<W> nm = Game::moves(pos);
    if (nm.kind == NodeKind::WinNow) return kWinScore - 1;
    if (nm.kind == NodeKind::LoseNow) return -(kWinScore - Game::kLoseNowPlies);
    // Past those two checks the score lies in [-(kWinScore - 2), kWinScore -
    // Game::kFastestLaterWin]: narrowing the window to it keeps windows
    // passed down from emptying.
    alpha = std::max(alpha, -(kWinScore - 2));
    beta = std::min(beta, kWinScore - Game::kFastestLaterWin);
    if (alpha >= beta) return alpha;
    const uint64_t key = Game::key(pos, true);
    Entry& e = table_[key & mask_];
    if (e.key == key) {
      if (e.lower >= beta) return e.lower;
      if (e.upper <= alpha) return e.upper;
      alpha = std::max<int>(alpha, e.lower);
      beta = std::min<int>(beta, e.upper);
      if (alpha >= beta) return alpha;
    }
    const int alpha0 = alpha;
    int best = -kWinScore - 1;
    auto consider = [&](const State& child) {
      const int s = -shift(search(child, -shift_back(beta), -shift_back(alpha)));
      best = std::max(best, s);
      alpha = std::max(alpha, s);
    };
    if (nm.kind == NodeKind::PassOnly) {
      State q = pos;
      Game::pass(q);
      consider(q);
    } else {
      // Try the moves most likely to be good first: near the centre.
      int moves[kMaxCells], count = 0;
      nm.moves.for_each([&](int m) {
        KONOBI_ASSERT(count < kMaxCells);
        moves[count++] = m;
      });
      const Geometry<W>& g = *Game::board(pos).g;
      std::sort(moves, moves + count,
                [&](int a, int b) { return centre_distance(g, a) < centre_distance(g, b); });
      for (int i = 0; i < count && alpha < beta; ++i) consider(Game::child(pos, moves[i]));
    }
    Entry ne{key, int16_t(-kWinScore - 1), int16_t(kWinScore + 1)};
    if (e.key == key) ne = e;
    if (best <= alpha0) ne.upper = int16_t(best);
    else if (best >= beta) ne.lower = int16_t(best);
    else ne.lower = ne.upper = int16_t(best);
    e = ne;
    return best;
  }

 private:
  struct Entry {
    uint64_t key = 0;
    int16_t lower = -kWinScore - 1, upper = kWinScore + 1;
  };

  // A child's score seen one ply earlier: a win or loss is one ply further.
  static int shift(int s) { return s > 0 ? s - 1 : s < 0 ? s + 1 : 0; }
  // The inverse, for passing a window down (bounds stay ordered).
  static int shift_back(int s) {
    if (s > kWinScore || s < -kWinScore) return s;
    return s > 0 ? s + 1 : s < 0 ? s - 1 : 0;
  }
  int child_score(const State& q) { return -shift(score(q)); }
  static int centre_distance(const Geometry<W>& g, int p) {
    return std::abs(2 * g.col(p) - (g.n - 1)) + std::abs(2 * g.row(p) - (g.n - 1));
  }

  std::vector<Entry> table_;
  size_t mask_;
  const std::atomic<bool>* stop_;
  uint64_t nodes_ = 0, node_limit_ = 0;
};

}  // namespace konobi
