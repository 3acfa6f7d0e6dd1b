// Monte Carlo tree search for every board: UCT over a tree kept in one
// array, each new node's children seeded with prior wins from the
// connection-distance evaluation (distance.h: a move on a shortest path of
// either side is worth more), playouts that take an immediate win and block
// the opponent's immediate win and otherwise play uniformly at random, and
// exact values where the tree reaches the end of the game (the MCTS-solver
// rule: a node with a winning child is won, one whose children all win for
// the opponent is lost). Every move goes through the rules (placements,
// winning, play, pass), so nothing here knows a rule.
//
// The pie swap is not in the tree: the root's swap is turned off and the
// caller decides it from the root's value (engine.cpp). Playouts are
// bounded (Gonnect's simple ko can cycle); one that reaches the bound is
// judged by the connection distance.
#pragma once

#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/game.h"
#include "distance.h"
#include "record.h"

namespace konobi {

struct MctsSettings {
  double seconds = 1;  // used when playouts == 0
  long playouts = 0;   // > 0: stop after this many (reproducible)
  uint64_t seed = 0;   // the playouts' random stream
  double exploration = 0.5;
  float prior_visits = 12;  // weight of the evaluation's prior, in playouts
  int expand_at = 2;        // a leaf gets children once it has had this many playouts
  size_t max_nodes = 1 << 21;
  // > 0: a playout stops after this many moves and is judged by the
  // connection distance (0: played to the end, or to the length bound).
  int cutoff = 0;
  const std::atomic<bool>* cancel = nullptr;
};

struct MctsChild {
  Move move;
  int visits;    // playouts through the move
  double value;  // the mover's share of wins after it
  int proven;    // 1: the move wins, -1: it loses, 0: unknown
};

struct MctsResult {
  Move best = kPass;   // most visited (a proven win first, a proven loss last)
  double value = 0.5;  // the mover's win rate after best
  int proven = 0;      // the root: 1 the mover wins, -1 loses, 0 unknown
  long playouts = 0;
  std::vector<MctsChild> children;
};

// A small fast generator (splitmix64): the playouts need speed, not quality.
struct PlayoutRandom {
  uint64_t s;
  uint64_t next() { return mix64(s += 0x9e3779b97f4a7c15ull); }
  int below(int n) { return int((next() >> 32) * uint64_t(n) >> 32); }
  // A uniformly chosen member of a non-empty set.
  template <int W>
  int pick(const Bitboard<W>& b) {
    int k = below(b.count());
    for (int i = 0; i < W; ++i) {
      const int c = std::popcount(b.w[i]);
      if (k >= c) {
        k -= c;
        continue;
      }
      uint64_t x = b.w[i];
      while (k--) x &= x - 1;
      return i * 64 + std::countr_zero(x);
    }
    return b.first();
  }
};

// The empty points where colour c would complete a winning chain (legality
// aside): the playouts block these.
template <class Rules, int W>
Bitboard<W> winning_points(const typename Rules::template State<W>& s, Color c) {
  if constexpr (std::is_same_v<Rules, GonnectRules>)
    return gonnect_connecting_points(s.pos, c, s.variant.edges);
  else return connecting_points(s, c);
}

template <class Rules, int W>
class Mcts {
 public:
  using State = typename Rules::template State<W>;

  // root: the side to move must have a move (the caller handles a finished
  // game); its swap is turned off here.
  Mcts(const State& root, const MctsSettings& settings) : root_(root), set_(settings), rng_{settings.seed} {
    board_of(root_).swap_available = false;
    const int cells = Rules::board(root_).g->cells;
    max_playout_ = 3 * cells + 16;
    nodes_.reserve(std::min<size_t>(set_.max_nodes, 1 << 16));
    nodes_.push_back(Node{});
  }

  MctsResult run() {
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    long done = 0;
    expand(0, root_);
    while (nodes_[0].proven == 0) {
      if (set_.cancel && set_.cancel->load(std::memory_order_relaxed)) break;
      if (set_.playouts > 0) {
        if (done >= set_.playouts) break;
      } else if ((done & 31) == 0 &&
                 std::chrono::duration<double>(Clock::now() - t0).count() >= set_.seconds) {
        break;
      }
      iterate();
      ++done;
    }
    return result(done);
  }

 private:
  struct Node {
    float n = 0, w = 0;  // visits and wins for the player who moved into the node, prior included
    int32_t real = 0;    // playouts through the node
    float real_w = 0;    // their wins, for the figures reported
    int32_t child = -1;  // first child's index; children are contiguous
    uint16_t nchild = 0;
    int16_t move = kPass;
    // 1: the player who moved into the node wins from here, -1: loses.
    int8_t proven = 0;
    bool expanded = false;
  };

  // Children for every legal move of s (a forced pass in Konobi), or the
  // node's exact value when s ends the game at once.
  void expand(int32_t at, const State& s) {
    Node& nd = nodes_[at];
    const Bitboard<W> legal = Rules::placements(s);
    if (legal.none()) {
      if constexpr (!Rules::can_pass) {
        nodes_[at].proven = 1;  // the mover has no move and loses
        return;
      } else {
        if (nodes_.size() + 1 > set_.max_nodes) return;
        nd.expanded = true;
        nd.child = int32_t(nodes_.size());
        nd.nchild = 1;
        Node c;
        c.move = kPass;
        c.n = 1, c.w = 0.5f;
        nodes_.push_back(c);
        return;
      }
    }
    if (Rules::winning(s, legal).any()) {
      nd.proven = -1;  // the mover wins now
      return;
    }
    const int count = legal.count();
    if (nodes_.size() + size_t(count) > set_.max_nodes) return;
    const Color mover = Rules::board(s).to_move;
    const PathExcess<W> mine = path_excess<Rules, W>(s, mover);
    const PathExcess<W> theirs = path_excess<Rules, W>(s, other(mover));
    nd.expanded = true;
    nd.child = int32_t(nodes_.size());
    nd.nchild = uint16_t(count);
    legal.for_each([&](int m) {
      Node c;
      c.move = int16_t(m);
      // 0..6: how near the point is to a shortest path of each side.
      const int near = std::max(0, 3 - int(mine.excess[m])) + std::max(0, 3 - int(theirs.excess[m]));
      c.n = set_.prior_visits;
      c.w = set_.prior_visits * (0.3f + 0.06f * float(near));
      nodes_.push_back(c);
    });
  }

  int32_t select(int32_t at) const {
    const Node& nd = nodes_[at];
    const float logn = std::log(std::max(nd.n, 1.0f));
    int32_t best = -1;
    float best_score = -1;
    for (int32_t i = nd.child; i < nd.child + nd.nchild; ++i) {
      const Node& c = nodes_[i];
      if (c.proven == 1) return i;
      const float score =
          c.proven == -1 ? -0.5f : c.w / c.n + float(set_.exploration) * std::sqrt(logn / c.n);
      if (score > best_score) best_score = score, best = i;
    }
    return best;
  }

  void iterate() {
    State s = root_;
    path_.clear();
    movers_.clear();
    int32_t at = 0;
    path_.push_back(0);
    movers_.push_back(other(Rules::board(s).to_move));
    while (nodes_[at].expanded && nodes_[at].proven == 0) {
      const int32_t c = select(at);
      movers_.push_back(Rules::board(s).to_move);
      apply(s, nodes_[c].move);
      path_.push_back(c);
      at = c;
    }
    if (nodes_[at].proven == 0 && !nodes_[at].expanded && nodes_[at].real + 1 >= set_.expand_at) {
      expand(at, s);
      if (nodes_[at].expanded && nodes_[at].proven == 0) {
        const int32_t c = select(at);
        movers_.push_back(Rules::board(s).to_move);
        apply(s, nodes_[c].move);
        path_.push_back(c);
        at = c;
      }
    }
    Color winner;
    if (nodes_[at].proven != 0) winner = nodes_[at].proven == 1 ? movers_.back() : other(movers_.back());
    else winner = playout(s);
    backup(winner);
  }

  static void apply(State& s, Move m) {
    if (m == kPass) Rules::pass(s);
    else Rules::play(s, m);
  }

  void backup(Color winner) {
    for (size_t i = path_.size(); i-- > 0;) {
      Node& nd = nodes_[path_[i]];
      const float r = movers_[i] == winner ? 1.0f : 0.0f;
      nd.n += 1, nd.w += r;
      nd.real += 1, nd.real_w += r;
      // Exact values climb: a child that wins for its mover makes this
      // node lost for the player who moved into it; children that all lose
      // for their mover make it won.
      if (nd.proven == 0 && nd.expanded) {
        bool any_win = false, all_lose = true;
        for (int32_t c = nd.child; c < nd.child + nd.nchild; ++c) {
          any_win |= nodes_[c].proven == 1;
          all_lose &= nodes_[c].proven == -1;
        }
        if (any_win) nd.proven = -1;
        else if (all_lose) nd.proven = 1;
      }
    }
  }

  // Plays s out; the winner.
  Color playout(State& s) {
    int passes = 0;
    const int length = set_.cutoff > 0 ? std::min(set_.cutoff, max_playout_) : max_playout_;
    for (int step = 0; step < length; ++step) {
      const Color c = Rules::board(s).to_move;
      const Bitboard<W> legal = Rules::placements(s);
      if (legal.none()) {
        if constexpr (Rules::can_pass) {
          if (++passes >= 2) break;  // the rules rule it out; judged below
          Rules::pass(s);
          continue;
        } else {
          return other(c);
        }
      }
      passes = 0;
      if (Rules::winning(s, legal).any()) return c;
      const Bitboard<W> blocks = legal & winning_points<Rules, W>(s, other(c));
      Rules::play(s, rng_.pick(blocks.any() ? blocks : legal));
    }
    const int b = game_distance<Rules, W>(s, Black), w = game_distance<Rules, W>(s, White);
    if (b != w) return b < w ? Black : White;
    return Color(rng_.below(2));
  }

  MctsResult result(long done) const {
    MctsResult r;
    r.playouts = done;
    const Node& root = nodes_[0];
    r.proven = -root.proven;
    int32_t best = -1;
    auto rank = [&](const Node& c) {
      // A proven win first, a proven loss last, else the most playouts.
      return c.proven == 1 ? 1e12 : c.proven == -1 ? -1e12 + c.real : double(c.real) + c.w / c.n * 1e-3;
    };
    for (int32_t i = root.child; root.expanded && i < root.child + root.nchild; ++i) {
      const Node& c = nodes_[i];
      r.children.push_back({c.move, c.real, c.real ? c.real_w / c.real : c.w / c.n, c.proven});
      if (best < 0 || rank(c) > rank(nodes_[best])) best = i;
    }
    if (best >= 0) {
      const Node& c = nodes_[best];
      r.best = c.move;
      r.value = c.proven != 0 ? (c.proven == 1 ? 1.0 : 0.0) : c.real ? c.real_w / c.real : c.w / c.n;
    }
    return r;
  }

  State root_;
  MctsSettings set_;
  PlayoutRandom rng_;
  int max_playout_ = 0;
  std::vector<Node> nodes_;
  std::vector<int32_t> path_;
  std::vector<Color> movers_;
};

}  // namespace konobi
