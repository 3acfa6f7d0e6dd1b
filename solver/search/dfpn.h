// Depth-first proof-number search in negamax form: every node's pn is the
// cost of proving that its side to move wins, dn that it loses; a node's pn
// is the least dn among its children and its dn the sum of their pns.
// Thresholds use the 1+epsilon trick (Pawlewicz and Lew) so that a thread
// does not bounce between two siblings of nearly equal cost. Unexpanded
// children start from an evaluation (the two sides' connection distances)
// rather than 1/1. Several threads may run on one table: each marks the
// positions it is inside as busy, and others see a busy child as costlier
// ("virtual proof numbers"), which spreads them over different subtrees.
// Once one move of a node is refuted, the refutation is tried on a sibling
// before the search enters it ("simulation", Kawano): most moves that lose
// lose to the same few replies.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include "core/assert.h"
#include "eval.h"
#include "game_search.h"
#include "movegen.h"
#include "must_play.h"
#include "proven_source.h"
#include "tt.h"
#include "zone_table.h"
#include "zones.h"

namespace konobi {

struct DfpnOptions {
  bool symmetry = true;  // key positions by their canonical key over 8 symmetries
  bool evaluate = true;  // initial proof numbers from the evaluation (else 1/1)
  double epsilon = 0.25;
  bool parallel = false;  // keep busy marks for other threads
  // Give up (SearchStopped) past this many nodes per thread; 0: no limit.
  // What was proven stays in the table and is exact.
  uint64_t max_nodes = 0;
  // Before entering a child, replay on it a proven sibling's refutation,
  // visiting at most this many positions (0: never). See refutes().
  int simulation = 16;
  // Konobi: at each node, search only the moves inside the must-play
  // region (must_play.h): the opponent's null-move wins' zones.
  bool must_play = true;
  int must_play_depth = 1;  // the threats Y may make in a row
  // A store of proven positions kept across jobs and runs (proven_source.h):
  // positions within store_depth plies of the search's root that the table
  // does not hold are looked up in it, and those proven there at a cost of
  // at least store_min_nodes nodes are added to it. nullptr: none.
  ProvenSource* store = nullptr;
  int store_depth = 6;
  uint64_t store_min_nodes = 4096;
  // Konobi up to 8x8: proven positions are kept with their relevance zones
  // (zones.h) and a new position is matched against those that lack one
  // stone of each colour (zone_table.h). nullptr: no zones.
  ZoneTable* zones = nullptr;
};

struct SearchStopped {};

// Game: the searched game (game_search.h), Konobi unless told.
template <int W, SearchedGame<W> Game = KonobiSearch>
class Dfpn {
 public:
  using State = typename Game::template State<W>;

  Dfpn(TranspositionTable& tt, const DfpnOptions& opt, const std::atomic<bool>* stop = nullptr,
       std::atomic<uint64_t>* progress = nullptr)
      : tt_(tt), opt_(opt), stop_(stop), progress_(progress) {}

  // Runs until the root is proven or disproven (or the stop flag is raised,
  // which throws SearchStopped). Returns true when the side to move wins.
  bool solve(const State& root) {
    const uint64_t k = key(root);
    uint32_t pn = 1, dn = 1, th_pn = 0, th_dn = 0;
    if (opt_.store && opt_.store_depth >= 0 && !tt_.probe(k).hit && from_store(k, pn, dn)) return pn == 0;
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
      mid(root, k, 0, th_pn, th_dn, pn, dn);
      if (pn == 0 || dn == 0) return pn == 0;
    }
  }

  // A bounded search of root (the job manager's jobs): returns once root
  // is proven, or its pn reaches th_pn or its dn th_dn after at least
  // min_nodes nodes (below that the thresholds widen, as solve()'s do, so
  // that a job is never so short that sending it costs more than it
  // searches); its numbers in pn and dn. Throws SearchStopped as solve().
  void search_within(const State& root, uint32_t th_pn, uint32_t th_dn, uint64_t min_nodes, uint32_t& pn,
                     uint32_t& dn) {
    const uint64_t k = key(root);
    const auto f = tt_.probe(k);
    pn = f.pn, dn = f.dn;
    bool fresh = !f.hit;
    while (pn != 0 && dn != 0) {
      if (pn >= th_pn || dn >= th_dn) {
        if (nodes_ >= min_nodes) return;
        th_pn = std::max(th_pn, widen(pn));
        th_dn = std::max(th_dn, widen(dn));
      }
      mid(root, k, 0, th_pn, th_dn, pn, dn, fresh);
      fresh = false;
    }
  }

  uint64_t nodes() const { return nodes_; }
  // Positions proven by a zone match instead of searched.
  uint64_t zone_hits() const { return zone_hits_; }
  // Children proven by replaying a sibling's refutation instead of searched.
  uint64_t simulated() const { return simulated_; }
  // With opt.parallel, the number of searches now on this root: while it is
  // 1 the search skips the bookkeeping that only other searches need.
  void set_company(const std::atomic<int>* searches) { company_ = searches; }
  uint64_t key(const State& p) const { return Game::key(p, opt_.symmetry); }

 private:
  // A child is its move, key and numbers; the position itself is rebuilt
  // only to descend or evaluate, so the list stays a few cache lines.
  struct Child {
    uint64_t key;
    uint32_t pn, dn;  // from the child's mover's side
    int16_t move;
    uint16_t order;
    uint8_t work;  // the table's work code, for choosing among winning moves
    bool known;    // the table held it when this node was entered, or it was searched since
    bool stored;   // the store was asked about it and has no entry
  };
  static constexpr int kMaxChildren = 64;  // boards up to 8x8
  static constexpr bool kZones = std::is_same_v<Game, KonobiSearch> && W == 1;
  static constexpr int kSharedDepth = 8;
  using Found = TranspositionTable::Found;

  static uint32_t sat(uint64_t v) { return v >= kInf ? kInf : uint32_t(v); }
  static uint32_t widen(uint32_t v) { return sat(uint64_t(v) * 2 + 2); }

  // One visit of a node: expand it, seed its children's numbers, then
  // select the most proving child and search it until the node's numbers
  // reach its thresholds (or it is proven), replaying a refuted sibling's
  // refutation on a child before entering it.
  void mid(const State& pos, uint64_t k, int depth, uint32_t th_pn, uint32_t th_dn, uint32_t& out_pn,
           uint32_t& out_dn, bool fresh = false, bool asked = false) {
    // fresh: the table did not hold pos; asked: the store has no entry for it
    KONOBI_ASSERT(th_pn <= kInf && th_dn <= kInf);
    // Threads meet near the root, where the big subtrees are: only there is
    // it worth marking positions busy and re-reading siblings that others
    // may have proven. Deeper down that bookkeeping would cost more table
    // traffic than the duplicated work it avoids.
    const bool parallel = opt_.parallel && (!company_ || company_->load(std::memory_order_relaxed) > 1);
    const bool shared = parallel && depth < kSharedDepth;
    if (parallel && depth > 0) {
      const auto f = tt_.probe(k);  // another thread may have settled it since our parent looked
      if (f.hit && (f.pn == 0 || f.dn == 0)) {
        out_pn = f.pn, out_dn = f.dn;
        return;
      }
    }
    const uint64_t start_nodes = count_node();
    // A position proven in an earlier job or run is taken as it was proven.
    if (opt_.store && fresh && !asked && depth <= opt_.store_depth && from_store(k, out_pn, out_dn)) return;
    if constexpr (kZones)
      if (opt_.zones && (fresh || depth == 0) && zone_match(pos, k, out_pn, out_dn)) return;

    const NodeMoves<W> nm = moves(pos);
    if (nm.kind == NodeKind::WinNow || nm.kind == NodeKind::LoseNow) {
      out_pn = nm.kind == NodeKind::WinNow ? 0 : kInf;
      out_dn = nm.kind == NodeKind::WinNow ? kInf : 0;
      tt_.store(k, out_pn, out_dn, int8_t(nm.win), 1);
      if constexpr (kZones)
        if (opt_.zones && nm.kind == NodeKind::LoseNow) store_lost_zone(pos, Bitboard<W>{});
      return;
    }

    Child children[kMaxChildren];
    const int count = expand(pos, nm, children);
    int refuted = seed(pos, nm, fresh, depth, children, count);
    if (shared) tt_.add_busy(k, +1);

    uint64_t replayed = 0;  // the children a replay was tried on, once per visit
    while (true) {
      const Selection s = select(children, count, shared);
      if (s.pn >= th_pn || s.dn >= th_dn || s.pn == 0 || s.dn == 0) {
        out_pn = s.pn, out_dn = s.dn;
        const int mv =
            s.pn == 0 ? table_move<Game, W>(pos, winning_child_move(children, count), opt_.symmetry) : -1;
        tt_.store(k, s.pn, s.dn, int8_t(mv), nodes_ - start_nodes + 1);
        if constexpr (kZones)
          if (opt_.zones && (s.pn == 0 || s.dn == 0)) store_zone(pos, s.pn == 0, children, count);
        if (shared) tt_.add_busy(k, -1);
        if (opt_.store && (s.pn == 0 || s.dn == 0) && depth <= opt_.store_depth) to_store(k, s.pn == 0, mv);
        return;
      }
      Child& c = children[s.best];
      if (refuted >= 0 && !(replayed >> s.best & 1)) {
        replayed |= uint64_t(1) << s.best;
        if (replay(pos, c, children[refuted])) {
          ++simulated_;
          c.pn = 0, c.dn = kInf;
          continue;
        }
      }
      // Child thresholds: its dn may rise until it is no longer our cheapest
      // way to win (with 1+epsilon slack); its pn until our dn would exceed ours.
      const uint64_t slack = uint64_t(double(s.second_dn) * (1.0 + opt_.epsilon)) + 1;
      const uint32_t child_th_dn = uint32_t(std::min<uint64_t>({th_pn, slack, kInf}));
      const uint32_t child_th_pn = sat(uint64_t(th_dn) - s.dn + c.pn);
      // The node is unproven and under its thresholds (else it returned
      // above), so the child chosen is not proven lost for us and has room.
      KONOBI_ASSERT(c.dn != 0 && child_th_pn > c.pn);
      try {
        // Children share what they can with pos (Gonnect: the history),
        // so they are built only while pos lives: to descend or evaluate.
        const uint64_t before = nodes_;
        mid(Game::child(pos, c.move), c.key, depth + 1, child_th_pn, child_th_dn, c.pn, c.dn, !c.known,
            c.stored);
        c.known = true;
        c.work = std::max(c.work, TranspositionTable::work_code(nodes_ - before));
        if (c.pn == 0 && c.move != kPass && opt_.simulation > 0) refuted = s.best;
      } catch (const SearchStopped&) {
        // A stop (a job's node budget, Ctrl-C) leaves this node's numbers
        // as they stand in the table, on the way up: else the node holds
        // only what its last completed visit stored, and a job's leaf that
        // was never left before the budget ran out holds nothing at all, so
        // the job could report no numbers for it (the manager kept 1/1,
        // and a leaf that had cost 2 M nodes looked the cheapest in its
        // tree). The child being searched has just stored its own.
        const auto f = tt_.probe(c.key);
        if (f.hit && f.pn != 0 && f.dn != 0) c.pn = f.pn, c.dn = f.dn;
        const Selection now = select(children, count, shared);
        if (now.pn != 0 && now.dn != 0) tt_.store(k, now.pn, now.dn, -1, nodes_ - start_nodes + 1);
        if (shared) tt_.add_busy(k, -1);
        throw;
      } catch (...) {
        if (shared) tt_.add_busy(k, -1);
        throw;
      }
    }
  }

  // Counts a node entered (returning the count before it, for the node's
  // work); every 1024 nodes, reports progress and honours the stop flag and
  // the node limit.
  uint64_t count_node() {
    const uint64_t start_nodes = ++nodes_;
    if ((nodes_ & 1023) == 0) {
      if (progress_) progress_->fetch_add(1024, std::memory_order_relaxed);
      if (stop_ && stop_->load(std::memory_order_relaxed)) throw SearchStopped{};
      if (opt_.max_nodes && nodes_ > opt_.max_nodes) throw SearchStopped{};
    }
    return start_nodes;
  }

  // Expand: pos's children (a pass, or its placements) with their keys, at
  // 1/1, one per symmetry class on a symmetric position, best-ordered.
  // Returns their count.
  int expand(const State& pos, const NodeMoves<W>& nm, Child* children) {
    int count = 0;
    if (nm.kind == NodeKind::PassOnly) {
      children[count++] = {key(Game::child(pos, kPass)), 1, 1, int16_t(kPass), 0, 0, false, false};
      return count;
    }
    nm.moves.for_each([&](int m) {
      KONOBI_ASSERT(count < kMaxChildren);
      children[count++] = {
          child_key(pos, m), 1, 1, int16_t(m), move_order(Game::board(pos), m), 0, false, false};
    });
    // The table probes are the cost of a node: start every cache miss
    // before waiting on the first, and let the sorts and the evaluation
    // below run while the lines come in (the two together took 13% off
    // the whole 5x5 solve on one thread, with the same nodes).
    for (int i = 0; i < count; ++i) tt_.prefetch(children[i].key);
    // Moves that are images of each other under a symmetry of this
    // position lead to one table entry; counting it once keeps the
    // disproof number honest on symmetric positions (openings above all).
    if (opt_.symmetry && Game::board(pos).is_symmetric()) {
      std::sort(children, children + count, [](const Child& a, const Child& b) { return a.key < b.key; });
      count = int(std::unique(children, children + count,
                              [](const Child& a, const Child& b) { return a.key == b.key; }) -
                  children);
    }
    std::sort(children, children + count, [](const Child& a, const Child& b) { return a.order > b.order; });
    return count;
  }

  // Seed: the children's numbers from the table, or else from the
  // evaluation. Returns a proven sibling to replay (a move of ours that the
  // opponent refutes; only the table proves a child here, estimates never
  // do), or -1.
  int seed(const State& pos, const NodeMoves<W>& nm, bool fresh, int depth, Child* children, int count) {
    // Children the table does not know start from the evaluation. On a
    // node's first visit nearly all are new, so its work is done at once,
    // in the shadow of the probes' misses; df-pn comes back to a node many
    // times, by then mostly with known children, so on a later visit it
    // is done only if one is missing.
    std::optional<typename Game::template ChildEstimates<W>> estimates;
    if (fresh && opt_.evaluate && nm.kind != NodeKind::PassOnly) estimates.emplace(pos);
    // On a node's first visit, the children the table misses are looked up
    // in the store (near the root only): a proven child settles the node or
    // is one move fewer to search, and may be replayed on its siblings.
    const bool ask = opt_.store && fresh && depth + 1 <= opt_.store_depth;
    int refuted = -1;
    for (int i = 0; i < count; ++i) {
      Child& c = children[i];
      auto f = tt_.probe(c.key);
      if (!f.hit && ask) {
        uint32_t pn, dn;
        if (from_store(c.key, pn, dn)) f.hit = true, f.pn = pn, f.dn = dn, f.work = tt_.probe(c.key).work;
        else c.stored = true;
      }
      if (f.hit) {
        c.known = true;
        c.pn = f.pn, c.dn = f.dn, c.work = uint8_t(f.work);
        if (f.pn == 0 && refuted < 0 && c.move != kPass && opt_.simulation > 0) refuted = i;
      } else if (opt_.evaluate && c.move == kPass) {
        const Estimate e = Game::evaluate(Game::child(pos, kPass));
        c.pn = e.pn, c.dn = e.dn;
      } else if (opt_.evaluate) {
        if (!estimates) estimates.emplace(pos);
        const Estimate e = (*estimates)(c.move);
        c.pn = e.pn, c.dn = e.dn;
      }
      KONOBI_ASSERT(c.pn <= kInf && c.dn <= kInf && (c.pn != 0 || c.dn != 0));
    }
    return refuted;
  }

  // A node's numbers from its children's, and the child to search next:
  // the least dn, a busy child's counted as if each thread in it had taken
  // that much again ("virtual proof numbers"), and the runner-up's dn.
  struct Selection {
    uint32_t pn, dn;
    uint32_t second_dn;
    int best;
  };
  Selection select(Child* children, int count, bool shared) const {
    uint64_t sum_pn = 0;
    uint32_t min_dn = kInf, second_dn = kInf;
    uint64_t best_eff = UINT64_MAX;
    int best = 0;
    for (int i = 0; i < count; ++i) {
      Child& c = children[i];
      uint32_t busy = 0;
      if (shared) {  // other threads may have moved the child's numbers
        const auto f = tt_.probe(c.key);
        if (f.hit) c.pn = f.pn, c.dn = f.dn, busy = f.busy;
      }
      sum_pn += c.pn;
      min_dn = std::min(min_dn, c.dn);
      uint64_t eff = c.dn;
      if (busy && c.dn != 0) eff += uint64_t(c.dn) * busy;
      if (eff < best_eff) {
        second_dn = std::min<uint64_t>(best_eff, kInf);
        best_eff = eff;
        best = i;
      } else if (eff < second_dn) {
        second_dn = uint32_t(std::min<uint64_t>(eff, kInf));
      }
    }
    return {min_dn, sat(sum_pn), second_dn, best};
  }

  // Replays the refutation of proven sibling r on c before c is searched
  // (refutes()); true when it proved c lost for its mover.
  bool replay(const State& pos, const Child& c, const Child& r) {
    int budget = opt_.simulation;
    // c's own entry was read by select() or seed(): it is not proven.
    return refutes(Game::child(pos, c.move), c.key, Found{}, Game::child(pos, r.move), tt_.probe(r.key),
                   {c.move, r.move}, budget);
  }

  // The points where two replayed positions differ: t's extra stone and s's.
  struct Difference {
    int t_point, s_point;
  };

  // Simulation. t and s are siblings (their parent's mover placed one stone
  // in each at different points) and s is proven won for its mover, whose
  // move the table names. Whether t's mover wins by following that
  // strategy: in t, the move s's entry names, then every reply, each
  // answered as s's matching position's entry says, down to positions that
  // are won at once or that the table already knows. Every step is played
  // and checked on t itself, so a success is a proof of t whatever s was;
  // s only suggests the moves, and a suggestion that does not fit fails.
  // Each position visited costs one unit of `budget`; the positions proven
  // are stored, with the moves that win them, for the proof builder.
  // ft and fs are t's and s's table entries, read by the caller.
  bool refutes(const State& t, uint64_t kt, const Found& ft, const State& s, const Found& fs, Difference d,
               int& budget) {
    if (--budget < 0) return false;
    if (ft.hit && (ft.pn == 0 || ft.dn == 0)) return ft.pn == 0;
    // Without a suggestion, give up: below the first call t's mover has
    // no immediate win (the replies that allow one are off the list).
    if (!suggests(fs)) return false;
    const NodeMoves<W> nm = moves(t);
    if (nm.kind == NodeKind::WinNow) return true;
    const Move m = board_move<Game, W>(s, fs.best, opt_.symmetry);
    if (nm.kind != NodeKind::Search || !nm.moves.test(m) || !Game::board(s).empty_points().test(m))
      return false;
    const State t2 = Game::child(t, m);
    const uint64_t kt2 = key(t2);
    if (!all_replies_refuted(t2, kt2, Game::child(s, m), d, budget)) return false;
    tt_.store(kt2, kInf, 0, -1, 1);
    tt_.store(kt, 0, kInf, int8_t(table_move<Game, W>(t, m, opt_.symmetry)), 1);
    if constexpr (kZones)
      if (opt_.zones) {
        // t2's replies were the ones its move list gives (all_replies_refuted).
        const NodeMoves<W> nm2 = moves(t2);
        if (const auto z = store_lost_zone(t2, nm2.kind == NodeKind::Search ? nm2.moves : Bitboard<W>{}))
          store_win_zone(t, m, *z);
      }
    return true;
  }

  static bool suggests(const Found& f) { return f.hit && f.pn == 0 && f.best >= 0; }

  // The other half of refutes(): t's mover loses if each of its replies is
  // refuted as in s. Most replays fail, many of them at a reply that the
  // table already knows wins for t's mover, so every reply's entries are
  // read before any reply is followed down. A reply whose match in s has
  // no winning move on record goes last: only the positions this replay
  // proves on the way can settle it (measured: fewer nodes than failing at
  // once, 17.9 M against 21.1 M on the whole 5x5 board, one thread).
  bool all_replies_refuted(const State& t, uint64_t kt, const State& s, Difference d, int& budget) {
    if (--budget < 0) return false;
    // The move list is needed unless the table settles t; it costs about
    // what the entry's cache miss does, so the two overlap (5% less time
    // on the 5x5 a1 and a2 openings, though a settled t wastes the list).
    tt_.prefetch(kt);
    const NodeMoves<W> nm = moves(t);
    const auto ft = tt_.probe(kt);
    if (ft.hit && (ft.pn == 0 || ft.dn == 0)) return ft.dn == 0;
    if (nm.kind != NodeKind::Search) {
      if (nm.kind != NodeKind::PassOnly) return nm.kind == NodeKind::LoseNow;
      if (Game::Rules::placements(s).any()) return false;
      const State t2 = Game::child(t, kPass), s2 = Game::child(s, kPass);
      const uint64_t kt2 = key(t2);
      return refutes(t2, kt2, tt_.probe(kt2), s2, tt_.probe(key(s2)), d, budget);
    }
    // A reply on s's extra point gives the position that s reaches by a
    // reply on t's: the same stones. Every other reply is the same reply
    // in s (in Gonnect, captures can make the two differ more; a reply
    // whose match is occupied in s has none, and the replay gives up).
    Move moves[kMaxChildren], matches[kMaxChildren];
    uint64_t tkeys[kMaxChildren], skeys[kMaxChildren];
    int count = 0;
    const Bitboard<W> s_empty = Game::board(s).empty_points();
    bool matched = true;
    nm.moves.for_each([&](int x) {
      KONOBI_ASSERT(count < kMaxChildren);
      const Move y = x == d.s_point ? d.t_point : x;
      matched &= s_empty.test(y);
      moves[count] = x, matches[count] = y, tkeys[count] = child_key(t, x);
      skeys[count] = x == d.s_point ? tkeys[count] : child_key(s, y);
      tt_.prefetch(tkeys[count]), tt_.prefetch(skeys[count]);
      ++count;
    });
    if (!matched) return false;
    Found sfound[kMaxChildren];
    int open[kMaxChildren], left = 0, later[kMaxChildren], nlater = 0;
    for (int i = 0; i < count; ++i) {
      const auto f = tt_.probe(tkeys[i]);
      if (f.hit && f.pn == 0) continue;  // won for the replaying side already
      if (f.hit && f.dn == 0) return false;
      sfound[i] = tt_.probe(skeys[i]);
      if (suggests(sfound[i])) open[left++] = i;
      else later[nlater++] = i;
    }
    // t's entries are read again on the way: the replay's own stores may
    // have proven a reply since (the lines are in cache by now).
    for (int j = 0; j < left; ++j) {
      const int i = open[j];
      if (!refutes(Game::child(t, moves[i]), tkeys[i], tt_.probe(tkeys[i]), Game::child(s, matches[i]),
                   sfound[i], d, budget))
        return false;
    }
    for (int j = 0; j < nlater; ++j) {
      const auto f = tt_.probe(tkeys[later[j]]);
      if (!(f.hit && f.pn == 0)) return false;
    }
    return true;
  }

  uint64_t child_key(const State& pos, int m) const { return Game::child_key(pos, m, opt_.symmetry); }

  // The moves a node searches: the move generator's, narrowed to the
  // must-play region where that is on (Konobi). A node left with none is
  // lost, as one whose every move loses at once.
  NodeMoves<W> moves(const State& pos) {
    if constexpr (std::is_same_v<Game, KonobiSearch>) {
      if (opt_.must_play) {
        // Game::moves, keeping what it learnt for the region.
        NodeFacts<W> facts;
        NodeMoves<W> nm = node_moves(pos, &facts);
        if (nm.kind == NodeKind::Search) {
          nm.moves &= region(pos, facts);
          if (nm.moves.none()) nm.kind = NodeKind::LoseNow;
        }
        return nm;
      }
    }
    return Game::moves(pos);
  }

  // df-pn enters a node many times; its region is kept in a small
  // direct-mapped cache by the position's plain key (the region is in the
  // board's own orientation), so that only a first visit computes it.
  struct RegionEntry {
    uint64_t key = 0;
    Bitboard<W> region;
  };
  static constexpr size_t kRegionCache = size_t(1) << 15;
  // facts: what node_moves found at pos.
  Bitboard<W> region(const State& pos, const NodeFacts<W>& facts) {
    // A search bounded to a few nodes (the proof builder's re-proofs) needs
    // no more entries than nodes.
    if (regions_.empty())
      regions_.resize(opt_.max_nodes ? std::bit_ceil(std::min<uint64_t>(opt_.max_nodes, kRegionCache))
                                     : kRegionCache);
    const uint64_t k = Game::board(pos).key() | 1;  // 0 marks an empty slot
    RegionEntry& e = regions_[k & (regions_.size() - 1)];
    if (e.key != k) e = {k, must_play_region(Game::board(pos), facts, opt_.must_play_depth)};
    return e.region;
  }

  // Zones (zones.h, zone_table.h). A position P' that has not been searched
  // is proven if some P'' = P' less one stone x of its mover and one y of
  // the opponent (the same side to move) is proven with a zone that holds
  // neither x nor y: P' agrees with it on the zone. The result goes into
  // both tables, the zone unchanged (it is one of P' as well).
  bool zone_match(const State& pos, uint64_t k, uint32_t& pn, uint32_t& dn) {
    const std::optional<ZoneTable::Hit> h = match_zone(*opt_.zones, pos);
    if (!h) return false;
    pn = h->mover_wins ? 0 : kInf;
    dn = h->mover_wins ? kInf : 0;
    tt_.store(k, pn, dn, h->mover_wins ? int8_t(table_move<Game, W>(pos, h->move, opt_.symmetry)) : -1, 1);
    opt_.zones->store(pos.key(), h->mover_wins, h->move, h->zone);
    ++zone_hits_;
    return true;
  }

  // The zone of Y's win after X's reply r at pos (X to move): from the
  // table, or that of Y's win at once there (those are not stored).
  bool child_zone(const State& pos, int r, Bitboard<W>& z) const {
    ZoneTable::Hit h;
    if (opt_.zones->find(pos.key_after(r), h)) {
      if (!h.mover_wins) return false;
      z.w[0] = h.zone;
      return true;
    }
    const auto w = win_after_zone(pos, r);
    if (w) z = *w;
    return bool(w);
  }

  // Stores the zone of pos, lost for its mover after df-pn searched
  // `searched` there, when it has one; returns it.
  std::optional<Bitboard<W>> store_lost_zone(const State& pos, const Bitboard<W>& searched) {
    const auto z = lost_zone(pos, searched, opt_.must_play_depth,
                             [&](int r, Bitboard<W>& c) { return child_zone(pos, r, c); });
    if (z) opt_.zones->store(pos.key(), false, -1, z->w[0]);
    return z;
  }

  // pos's mover wins by m, after which the loser's zone is `child`.
  void store_win_zone(const State& pos, int m, const Bitboard<W>& child) {
    opt_.zones->store(pos.key(), true, m, win_by_zone(pos, m, child).w[0]);
  }

  // A node just proven by its children.
  void store_zone(const State& pos, bool wins, const Child* children, int count) {
    if (wins) {
      const int m = winning_child_move(children, count);
      if (m < 0 || m == kPass) return;
      ZoneTable::Hit h;
      if (opt_.zones->find(pos.key_after(m), h) && !h.mover_wins) {
        Bitboard<W> z;
        z.w[0] = h.zone;
        store_win_zone(pos, m, z);
      }
      return;
    }
    Bitboard<W> searched;
    for (int i = 0; i < count; ++i) {
      if (children[i].move == kPass) return;
      searched.set(children[i].move);
    }
    store_lost_zone(pos, searched);
  }

  // The store's entry for k, written into the table as proven (with the
  // winning move and the work it records): its numbers, or false.
  bool from_store(uint64_t k, uint32_t& pn, uint32_t& dn) {
    const std::optional<ProvenPosition> p = opt_.store->find(k);
    if (!p) return false;
    pn = p->mover_wins ? 0 : kInf;
    dn = p->mover_wins ? kInf : 0;
    // work_code(2^(c/2 - 1)) == c: the entry gets the work the store records.
    const uint64_t work_nodes = p->work < 2 ? p->work : uint64_t(1) << std::min(62, p->work / 2 - 1);
    tt_.store(k, pn, dn, p->mover_wins ? p->best : int8_t(-1), work_nodes);
    return true;
  }

  // Adds a position just proven to the store if its proof was costly: the
  // table's work for it (the most any visit spent) reaches store_min_nodes.
  void to_store(uint64_t k, bool mover_wins, int best) {
    const auto f = tt_.probe(k);
    if (!f.hit || f.work < TranspositionTable::work_code(opt_.store_min_nodes)) return;
    opt_.store->add({k, mover_wins, int8_t(mover_wins ? best : -1), uint8_t(f.work)});
  }

  // The winning move whose proof took the least work: the proof builder
  // follows it, and small subtrees make small proofs.
  static int winning_child_move(const Child* cs, int count) {
    int best = -1;
    for (int i = 0; i < count; ++i)
      if (cs[i].dn == 0 && (best < 0 || cs[i].work < cs[best].work)) best = i;
    return best < 0 ? -1 : cs[best].move;
  }

  // Placements near the centre and next to the mover's own stones first,
  // diagonal neighbours counting more than orthogonal ones: a diagonal
  // step joins the stone while covering new ground, an orthogonal one only
  // thickens the chain. (Measured on the whole 5x5 solve: 4% fewer nodes
  // than counting both kinds alike; other mixes were no better.)
  static uint16_t move_order(const Position<W>& pos, int m) {
    const Geometry<W>& g = *pos.g;
    const int x = g.col(m), y = g.row(m), n = g.n;
    const int centre = n - std::abs(2 * x - (n - 1)) / 2 - std::abs(2 * y - (n - 1)) / 2;
    const Bitboard<W> at = Bitboard<W>::single(m), own = pos.stones[pos.to_move];
    const int friends = (g.grow8(at) & own).count();
    const int orthogonal = (g.orth_neighbours(at) & own).count();
    return uint16_t(centre * 8 + 2 * friends - orthogonal);
  }

  TranspositionTable& tt_;
  DfpnOptions opt_;
  const std::atomic<int>* company_ = nullptr;
  const std::atomic<bool>* stop_;
  std::atomic<uint64_t>* progress_;
  uint64_t nodes_ = 0;
  uint64_t simulated_ = 0;
  uint64_t zone_hits_ = 0;
  std::vector<RegionEntry> regions_;
};

}  // namespace konobi
