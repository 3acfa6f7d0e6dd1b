// Depth-first proof-number search in negamax form: every node's pn is the
// cost of proving that its side to move wins, dn that it loses; a node's pn
// is the least dn among its children and its dn the sum of their pns.
// Thresholds use the 1+epsilon trick (Pawlewicz and Lew) so that a thread
// does not bounce between two siblings of nearly equal cost. Unexpanded
// children start from an evaluation (the two sides' connection distances)
// rather than 1/1. Several threads may run on one table: each marks the
// positions it is inside as busy, and others see a busy child as costlier
// ("virtual proof numbers"), which spreads them over different subtrees.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "eval.h"
#include "movegen.h"
#include "tt.h"

namespace konobi {

struct DfpnOptions {
  bool symmetry = true;  // key positions by their canonical key over 8 symmetries
  bool evaluate = true;  // initial proof numbers from the evaluation (else 1/1)
  double epsilon = 0.25;
  bool parallel = false;  // keep busy marks for other threads
  // Give up (SearchStopped) past this many nodes per thread; 0: no limit.
  // What was proven stays in the table and is exact.
  uint64_t max_nodes = 0;
};

struct SearchStopped {};

template <int W>
class Dfpn {
 public:
  Dfpn(TranspositionTable& tt, const DfpnOptions& opt, const std::atomic<bool>* stop = nullptr,
       std::atomic<uint64_t>* progress = nullptr)
      : tt_(tt), opt_(opt), stop_(stop), progress_(progress) {}

  // Runs until the root is proven or disproven (or the stop flag is raised,
  // which throws SearchStopped). Returns true when the side to move wins.
  bool solve(const Position<W>& root) {
    const uint64_t k = key(root);
    uint32_t pn = 1, dn = 1, th_pn = 0, th_dn = 0;
    while (true) {
      const auto f = tt_.probe(k);
      if (f.hit) pn = f.pn, dn = f.dn;
      if (pn == 0 || dn == 0) return pn == 0;
      // Widening root thresholds rather than infinite ones: the root entry
      // is stored each time one is reached, which progress reports read.
      // They never shrink, or a small table that forgot the children could
      // hand back the same numbers for ever.
      th_pn = std::max(th_pn, widen(pn));
      th_dn = std::max(th_dn, widen(dn));
      mid(root, k, th_pn, th_dn, pn, dn);
      if (pn == 0 || dn == 0) return pn == 0;
    }
  }

  uint64_t nodes() const { return nodes_; }
  uint64_t key(const Position<W>& p) const { return opt_.symmetry ? p.canonical_key() : p.key(); }

 private:
  struct Child {
    Position<W> pos;
    uint64_t key;
    uint32_t pn, dn;  // from the child's mover's side
    int move;
    uint16_t order;
  };

  static uint32_t sat(uint64_t v) { return v >= kInf ? kInf : uint32_t(v); }
  static uint32_t widen(uint32_t v) { return sat(uint64_t(v) * 2 + 2); }

  void mid(const Position<W>& pos, uint64_t k, uint32_t th_pn, uint32_t th_dn, uint32_t& out_pn, uint32_t& out_dn) {
    const uint64_t start_nodes = ++nodes_;
    if ((nodes_ & 1023) == 0) {
      if (progress_) progress_->fetch_add(1024, std::memory_order_relaxed);
      if (stop_ && stop_->load(std::memory_order_relaxed)) throw SearchStopped{};
      if (opt_.max_nodes && nodes_ > opt_.max_nodes) throw SearchStopped{};
    }

    const NodeMoves<W> nm = node_moves(pos);
    if (nm.kind == NodeKind::WinNow || nm.kind == NodeKind::LoseNow) {
      out_pn = nm.kind == NodeKind::WinNow ? 0 : kInf;
      out_dn = nm.kind == NodeKind::WinNow ? kInf : 0;
      tt_.store(k, out_pn, out_dn, int8_t(nm.win), 1);
      return;
    }

    std::vector<Child> children;
    if (nm.kind == NodeKind::PassOnly) {
      Position<W> q = pos;
      q.pass();
      children.push_back({q, key(q), 1, 1, kPass, 0});
    } else {
      children.reserve(nm.moves.count());
      nm.moves.for_each([&](int m) {
        Position<W> q = pos;
        KonobiRules::play(q, m);
        children.push_back({q, key(q), 1, 1, m, move_order(pos, m)});
      });
      std::sort(children.begin(), children.end(), [](const Child& a, const Child& b) { return a.order > b.order; });
    }
    for (Child& c : children) {
      const auto f = tt_.probe(c.key);
      if (f.hit) {
        c.pn = f.pn, c.dn = f.dn;
      } else if (opt_.evaluate) {
        const Estimate e = cached_estimate(c.pos, c.key);
        c.pn = e.pn, c.dn = e.dn;
      }
    }
    if (opt_.parallel) tt_.add_busy(k, +1);

    int best = 0;
    while (true) {
      // This node's numbers from its children's.
      uint64_t sum_pn = 0;
      uint32_t min_dn = kInf, second_dn = kInf;
      uint64_t best_eff = UINT64_MAX;
      best = 0;
      for (size_t i = 0; i < children.size(); ++i) {
        Child& c = children[i];
        if (opt_.parallel) {
          const auto f = tt_.probe(c.key);
          if (f.hit) c.pn = f.pn, c.dn = f.dn;
        }
        sum_pn += c.pn;
        min_dn = std::min(min_dn, c.dn);
        uint64_t eff = c.dn;
        if (opt_.parallel && c.dn != 0) eff += uint64_t(c.dn) * busy_of(c.key);
        if (eff < best_eff) {
          second_dn = std::min<uint64_t>(best_eff, kInf);
          best_eff = eff;
          best = int(i);
        } else if (eff < second_dn) {
          second_dn = uint32_t(std::min<uint64_t>(eff, kInf));
        }
      }
      const uint32_t pn = min_dn;
      const uint32_t dn = sat(sum_pn);
      if (pn >= th_pn || dn >= th_dn || pn == 0 || dn == 0) {
        out_pn = pn, out_dn = dn;
        const int8_t mv = int8_t(pn == 0 ? winning_child_move(children) : children[best].move);
        tt_.store(k, pn, dn, mv, nodes_ - start_nodes + 1);
        if (opt_.parallel) tt_.add_busy(k, -1);
        return;
      }
      Child& c = children[best];
      // Child thresholds: its dn may rise until it is no longer our cheapest
      // way to win (with 1+epsilon slack); its pn until our dn would exceed ours.
      const uint64_t slack = uint64_t(double(second_dn) * (1.0 + opt_.epsilon)) + 1;
      const uint32_t child_th_dn = uint32_t(std::min<uint64_t>({th_pn, slack, kInf}));
      const uint32_t child_th_pn = sat(uint64_t(th_dn) - dn + c.pn);
      try {
        mid(c.pos, c.key, child_th_pn, child_th_dn, c.pn, c.dn);
      } catch (...) {
        if (opt_.parallel) tt_.add_busy(k, -1);
        throw;
      }
    }
  }

  static int winning_child_move(const std::vector<Child>& cs) {
    for (const Child& c : cs)
      if (c.dn == 0) return c.move;
    return -1;
  }

  uint32_t busy_of(uint64_t k) const { return tt_.probe(k).busy; }

  // df-pn re-enters a node many times as its thresholds grow, and each time
  // its unexpanded children would be evaluated again: a small per-thread
  // cache of evaluations avoids that without filling the shared table with
  // positions that were never searched.
  Estimate cached_estimate(const Position<W>& pos, uint64_t k) {
    if (eval_cache_.empty()) eval_cache_.resize(size_t(1) << kEvalCacheBits);
    EvalSlot& slot = eval_cache_[k & ((size_t(1) << kEvalCacheBits) - 1)];
    if (slot.key == k) return {slot.pn, slot.dn};
    const Estimate e = estimate(pos);
    slot = {k, uint32_t(e.pn), uint32_t(e.dn)};
    return e;
  }

  // Placements near the centre and next to the mover's own stones first.
  static uint16_t move_order(const Position<W>& pos, int m) {
    const Geometry<W>& g = *pos.g;
    const int x = g.col(m), y = g.row(m), n = g.n;
    const int centre = n - std::abs(2 * x - (n - 1)) / 2 - std::abs(2 * y - (n - 1)) / 2;
    const int friends = (g.grow8(Bitboard<W>::single(m)) & pos.stones[pos.to_move]).count();
    return uint16_t(centre * 4 + friends);
  }

  struct EvalSlot {
    uint64_t key = 0;
    uint32_t pn = 0, dn = 0;
  };
  static constexpr int kEvalCacheBits = 18;  // 4 MiB per thread

  TranspositionTable& tt_;
  DfpnOptions opt_;
  std::vector<EvalSlot> eval_cache_;
  const std::atomic<bool>* stop_;
  std::atomic<uint64_t>* progress_;
  uint64_t nodes_ = 0;
};

}  // namespace konobi
