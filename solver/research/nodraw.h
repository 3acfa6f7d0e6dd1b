// Checks of the designer's claim that Konobi has no draws (docs/NODRAW.md):
//
// 1. reachable_census: every position reachable from the empty board, ply by
//    ply (placements and passes; play stops at a win), de-duplicated per ply
//    up to the four colour-preserving symmetries. Counts positions, forced
//    passes, won positions and draws (mover and opponent both without a
//    placement, nobody has won).
// 2. crosscut_free_search: every stone assignment without a crosscut,
//    reachable or not, searched row by row for one where neither colour has
//    a legal placement and neither colour has a winning chain.
//
// Both are templates over the rules, so a test can plant a rule bug and see
// the check catch it. The rules type supplies placements(pos) and
// winning(pos, legal) like KonobiRules.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_sort.h>

#include "core/konobi.h"
#include "solver/search/key_set.h"

namespace konobi {

// ---------------------------------------------------------------------------
// Shared helpers

// Legal placements of colour c, whoever is to move (legality depends on the
// colour only, not on the turn).
template <class Rules, int W>
Bitboard<W> placements_for(Position<W> pos, Color c) {
  pos.to_move = c;
  pos.swap_available = false;
  return Rules::placements(pos);
}

// ---------------------------------------------------------------------------
// 1. Reachable positions

// A reachable state packed into one word: Black stones in bits [0, cells),
// White stones in [cells, 2 cells), and bit 2 cells set when the last move
// won. The side to move is not stored: every move (placement or pass)
// hands the turn over, so it is Black on even plies and White on odd ones.
// The pie swap is not a ply here: it changes neither the stones nor the side
// to move, so a swapped game reaches exactly the boards of an unswapped one.
// One word holds this for boards up to 5x5 (2 * 25 + 1 bits).
constexpr int kMaxReachableSize = 5;

struct PlyCounts {
  int ply = 0;
  uint64_t positions = 0;  // distinct up to symmetry
  uint64_t must_pass = 0;  // not won, the mover has no legal placement
  uint64_t won = 0;        // the last move won: terminal
  uint64_t draws = 0;      // not won, neither colour has a legal placement
};

struct ReachableOptions {
  int max_ply = -1;                              // stop after this ply (-1: run to the end)
  double max_mb = 0;                             // refuse to grow past this much table memory (0: no limit)
  bool keep_plies = false;                       // keep every ply's states (needed to rebuild a game record)
  std::function<void(const PlyCounts&)> on_ply;  // called as each ply is counted
  std::atomic<uint64_t>* progress = nullptr;     // states expanded in the current ply
  std::atomic<bool>* stop = nullptr;             // set to stop early (e.g. by Ctrl-C)
};

struct ReachableResult {
  int n = 0;
  std::vector<PlyCounts> plies;
  bool complete = false;    // every ply was counted to the end of all games
  std::string stopped;      // why not, if not
  uint64_t first_draw = 0;  // packed state of the first draw found (valid if draws)
  int first_draw_ply = -1;
  double peak_table_mb = 0;                 // largest memory held by the state sets at once
  std::vector<std::vector<uint64_t>> kept;  // keep_plies: sorted states per ply

  uint64_t total(uint64_t PlyCounts::*f) const {
    uint64_t s = 0;
    for (const PlyCounts& p : plies) s += p.*f;
    return s;
  }
};

// The four symmetries that keep colours (mirror columns, mirror rows, both)
// as one lookup per row: the image of a row pattern placed in a given row.
// The other four exchange Black's edges with White's, and so the colours and
// the side to move; on one ply every state has the same side to move, so
// they could never merge two states of a ply.
template <int W>
struct RowSymmetry {
  int n = 0;
  std::vector<uint64_t> table;  // [s][row][pattern]

  explicit RowSymmetry(const Geometry<W>& g) : n(g.n), table(size_t(4) * g.n << g.n) {
    for (int s = 0; s < 4; ++s)
      for (int r = 0; r < n; ++r)
        for (int pat = 0; pat < (1 << n); ++pat) {
          uint64_t img = 0;
          for (int c = 0; c < n; ++c)
            if (pat >> c & 1) img |= uint64_t{1} << g.sym[s][r * n + c];
          table[((size_t(s) * n + r) << n) + pat] = img;
        }
  }
  uint64_t apply(int s, uint64_t bits) const {
    const uint64_t* t = &table[(size_t(s) * n) << n];
    const uint64_t mask = (uint64_t{1} << n) - 1;
    uint64_t img = 0;
    for (int r = 0; r < n; ++r, t += size_t(1) << n) img |= t[(bits >> (r * n)) & mask];
    return img;
  }
  uint64_t canonical(uint64_t state, int cells) const {
    const uint64_t cm = (uint64_t{1} << cells) - 1;
    const uint64_t b = state & cm, w = (state >> cells) & cm, won = state >> (2 * cells);
    uint64_t best = state;
    for (int s = 1; s < 4; ++s)
      best = std::min(best, apply(s, b) | apply(s, w) << cells | won << (2 * cells));
    return best;
  }
};

template <int W>
struct StateCodec {
  const Geometry<W>* g;
  int cells;
  uint64_t cell_mask;

  explicit StateCodec(const Geometry<W>& geo)
      : g(&geo), cells(geo.cells), cell_mask((uint64_t{1} << geo.cells) - 1) {}

  uint64_t pack(const Position<W>& pos, bool won) const {
    return pos.stones[Black].w[0] | pos.stones[White].w[0] << cells | uint64_t{won} << (2 * cells);
  }
  bool won(uint64_t s) const { return (s >> (2 * cells)) & 1; }
  Position<W> unpack(uint64_t s, int ply) const {
    Position<W> pos = Position<W>::empty(*g);
    pos.stones[Black].w[0] = s & cell_mask;
    pos.stones[White].w[0] = (s >> cells) & cell_mask;
    pos.to_move = ply % 2 ? White : Black;
    return pos;  // Zobrist keys are left at zero: nothing here reads them
  }
};

template <class Rules, int W>
ReachableResult reachable_census(int n, const ReachableOptions& opt = {}) {
  if (n < kMinSize || n > kMaxReachableSize)
    throw std::invalid_argument("the reachable census supports boards from 3x3 to 5x5");
  const Geometry<W>& g = Geometry<W>::get(n);
  const StateCodec<W> codec(g);
  const RowSymmetry<W> sym(g);
  ReachableResult res;
  res.n = n;

  std::vector<uint64_t> cur{codec.pack(Position<W>::empty(g), false)};
  constexpr size_t kBatch = size_t(1) << 16;
  for (int ply = 0; !cur.empty(); ++ply) {
    PlyCounts pc;
    pc.ply = ply;
    pc.positions = cur.size();
    std::atomic<uint64_t> must_pass{0}, won{0}, draws{0};
    std::atomic<uint64_t> first_draw{KeySet::kEmpty};
    KeySet next;
    const double cur_mb = double(cur.size()) * 8 / (1 << 20);
    for (size_t begin = 0; begin < cur.size(); begin += kBatch) {
      const size_t end = std::min(cur.size(), begin + kBatch);
      if (opt.stop && opt.stop->load()) {
        res.stopped = "interrupted in ply " + std::to_string(ply);
        return res;
      }
      // A state has at most `cells` successors, so this batch cannot
      // overfill the table. The last ply asked for is classified, not expanded.
      const bool expand = ply != opt.max_ply;
      const size_t need = !expand ? 0 : KeySet::capacity_for(next.size() + (end - begin) * g.cells);
      if (need > next.capacity()) {
        const double mb = cur_mb + KeySet::megabytes_for(need) + next.megabytes();
        if (opt.max_mb > 0 && mb > opt.max_mb) {
          res.stopped = "stopped in ply " + std::to_string(ply) + ": its successors need " +
                        std::to_string(int(mb)) + " MB of state tables, over --max-mb " +
                        std::to_string(int(opt.max_mb)) + " (" + std::to_string(begin) + " of " +
                        std::to_string(cur.size()) + " positions expanded, " + std::to_string(next.size()) +
                        " successors so far)";
          return res;
        }
        res.peak_table_mb = std::max(res.peak_table_mb, mb);
        next.reserve(next.size() + (end - begin) * g.cells);
      }
      oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<size_t>(begin, end, 256), [&](const auto& range) {
        uint64_t l_pass = 0, l_won = 0, l_draw = 0;
        for (size_t i = range.begin(); i != range.end(); ++i) {
          const uint64_t s = cur[i];
          if (codec.won(s)) {
            ++l_won;
            continue;
          }
          const Position<W> pos = codec.unpack(s, ply);
          const Bitboard<W> legal = Rules::placements(pos);
          if (legal.none()) {
            ++l_pass;
            if (placements_for<Rules>(pos, other(pos.to_move)).none()) {
              // Neither side can place and nobody has won: a draw. Its pass
              // successor would be itself again, so it is not expanded.
              ++l_draw;
              uint64_t expected = KeySet::kEmpty;
              first_draw.compare_exchange_strong(expected, s);
              continue;
            }
            if (expand) next.insert(sym.canonical(s, g.cells));
            continue;
          }
          if (!expand) continue;
          const Bitboard<W> wins = Rules::winning(pos, legal);
          legal.for_each([&](int p) {
            Position<W> child = pos;
            child.stones[pos.to_move].set(p);
            next.insert(sym.canonical(codec.pack(child, wins.test(p)), g.cells));
          });
        }
        won += l_won;
        must_pass += l_pass;
        draws += l_draw;
        if (opt.progress) opt.progress->fetch_add(range.size(), std::memory_order_relaxed);
      });
    }
    pc.must_pass = must_pass;
    pc.won = won;
    pc.draws = draws;
    if (pc.draws && res.first_draw_ply < 0) {
      res.first_draw_ply = ply;
      res.first_draw = first_draw.load();
    }
    res.plies.push_back(pc);
    if (opt.on_ply) opt.on_ply(pc);
    if (opt.progress) opt.progress->store(0);
    if (opt.keep_plies) res.kept.push_back(cur);
    if (ply == opt.max_ply && pc.won + pc.draws < pc.positions) {
      res.stopped = "stopped after ply " + std::to_string(ply) + " (--max-ply)";
      return res;
    }
    cur = next.take_sorted();
  }
  res.complete = true;
  return res;
}

// A game record from the empty board to `target` (a packed state at `ply`),
// or empty if none is found. Works backwards through the states kept per ply
// (res.kept): a predecessor is the target less one stone of the side that
// just moved, or the same stones after a pass, whose canonical form was
// reached on the ply before and from which that move is legal. Every step
// stays in the target's orientation, so the moves read as one game.
template <class Rules, int W>
std::vector<Move> reachable_record(const ReachableResult& res, uint64_t target, int ply) {
  const Geometry<W>& g = Geometry<W>::get(res.n);
  const StateCodec<W> codec(g);
  const RowSymmetry<W> sym(g);
  auto seen = [&](int t, uint64_t s) {
    const auto& v = res.kept.at(t);
    return std::binary_search(v.begin(), v.end(), sym.canonical(s, g.cells));
  };
  std::vector<Move> rev;
  uint64_t s = target;
  for (int t = ply; t > 0; --t) {
    const Position<W> pos = codec.unpack(s, t);
    const Color mover = other(pos.to_move);
    bool found = false;
    Position<W> pass_pred = pos;
    pass_pred.to_move = mover;
    // (A pass comes from a position where only the mover was stuck: one
    // where both were is a draw and has no successor.)
    if (seen(t - 1, codec.pack(pass_pred, false)) && Rules::placements(pass_pred).none() &&
        placements_for<Rules>(pass_pred, pos.to_move).any()) {
      rev.push_back(kPass);
      s = codec.pack(pass_pred, false);
      found = true;
    }
    pos.stones[mover].for_each([&](int p) {
      if (found) return;
      Position<W> pred = pos;
      pred.to_move = mover;
      pred.stones[mover].reset(p);
      if (!seen(t - 1, codec.pack(pred, false))) return;
      const Bitboard<W> legal = Rules::placements(pred);
      if (!legal.test(p) || Rules::winning(pred, legal).test(p) != codec.won(s)) return;
      rev.push_back(p);
      s = codec.pack(pred, false);
      found = true;
    });
    if (!found) return {};
  }
  return {rev.rbegin(), rev.rend()};
}

// ---------------------------------------------------------------------------
// 2. Every crosscut-free board

// A fact about Konobi's rules that the search may use to prune, written out
// because the search is only as sound as it:
//
// In a position where neither colour has a legal placement, every empty point
// is a crosscut point for both colours. For either colour c: a "free" point
// (empty, no weak connection for c) is always legal for c, since the
// weak-connection rule needs a weak connection and a crosscut needs one too
// (the diagonal c stone whose common neighbours are both the opponent's).
// So there are no free points, hence no guarded stones (stones with a free
// orthogonal neighbour), hence nothing is barred by the weak-connection
// rule, so every empty point is barred as a crosscut for both colours. That
// needs a c stone diagonally beside p with both common neighbours the
// opponent's, for both c; the two diagonals must be opposite, so all four
// orthogonal neighbours of p are stones and p is not on the edge. The fact
// depends on p's 8 neighbours only, which is what makes it a pruning rule.
// The tests check it against the simple reference rules on every 3x3 board.
template <class Rules>
inline constexpr bool kStuckEmptiesAreDoubleCrosscuts = false;
template <>
inline constexpr bool kStuckEmptiesAreDoubleCrosscuts<KonobiRules> = true;

struct CrosscutFreeOptions {
  bool use_lemma = true;        // prune with kStuckEmptiesAreDoubleCrosscuts (when the rules have it)
  bool prune_won = true;        // skip boards where a colour has won; false: count every both-stuck board
  bool full_board_skip = true;  // skip boards that can no longer hold an empty point (see below)
  bool memo = true;             // merge partial boards with the same frontier (needs the lemma and prune_won)
  double max_seconds = 0;       // stop after this long (0: no limit)
  size_t max_examples = 4;
  std::atomic<uint64_t>* progress_nodes = nullptr;
  std::atomic<uint64_t>* progress_tasks = nullptr;  // top-level tasks done
  std::atomic<bool>* stop = nullptr;
};

struct CrosscutFreeResult {
  int n = 0;
  bool lemma = false, prune_won = true, full_board_skip = false, memo = false;
  uint64_t nodes = 0;            // partial boards (rows 1..k decided, k >= 2) that passed every pruning test
  uint64_t memo_hits = 0;        // partial boards not expanded because an equivalent one was
  uint64_t leaves = 0;           // whole boards checked with the rules
  uint64_t stuck = 0;            // of those, boards where neither colour has a legal placement
  uint64_t counterexamples = 0;  // stuck boards where nobody has a winning chain
  std::vector<std::pair<uint64_t, uint64_t>> examples;  // (black, white) stones
  uint64_t tasks = 0, tasks_done = 0;
  size_t memo_entries = 0;
  bool complete = false;
  double seconds = 0;
};

// The connectivity of the decided rows as seen from the newest row, for the
// two ways a board can be won: per column of that row, the component it is in
// (0: none, else 1..4 in order of first appearance) and per component whether
// it reaches row 1. "open" components are Black-or-empty points joined
// orthogonally: White has a chain joining its sides exactly when no such
// component joins row 1 to row N (the 8- versus 4-neighbour duality of the
// square grid). "black" components are Black stones joined 8-ways.
struct Frontier {
  uint8_t open[8]{}, black[8]{};
  uint8_t open_bottom = 0, black_bottom = 0;  // bit l-1: component l reaches row 1

  uint64_t pack(int n) const {
    uint64_t k = 0;
    for (int c = 0; c < n; ++c) k |= uint64_t(open[c]) << (3 * c) | uint64_t(black[c]) << (3 * (n + c));
    return k | uint64_t(open_bottom) << (6 * n) | uint64_t(black_bottom) << (6 * n + 4);
  }
};

// The frontier after adding a row whose member points (open or black) are
// `cells`, from the labels `below` of the row under it (all zero and
// `bottom` true for row 1). Diagonal steps join black stones only.
inline void extend_frontier(int n, const uint8_t* below, uint8_t below_bottom, uint32_t cells, bool diagonal,
                            bool bottom, uint8_t* out, uint8_t& out_bottom) {
  int parent[12];
  bool touches[12];
  for (int i = 0; i < 4; ++i) parent[i] = i, touches[i] = below_bottom >> i & 1;
  for (int c = 0; c < n; ++c) parent[4 + c] = 4 + c, touches[4 + c] = bottom;
  auto find = [&](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  auto unite = [&](int a, int b) {
    a = find(a), b = find(b);
    if (a == b) return;
    parent[a] = b;
    touches[b] = touches[b] || touches[a];
  };
  for (int c = 0; c < n; ++c) {
    if (!(cells >> c & 1)) continue;
    if (c + 1 < n && (cells >> (c + 1) & 1)) unite(4 + c, 5 + c);
    for (int d = diagonal ? -1 : 0; d <= (diagonal ? 1 : 0); ++d)
      if (c + d >= 0 && c + d < n && below[c + d]) unite(4 + c, below[c + d] - 1);
  }
  int label_of[12] = {};
  int next = 0;
  out_bottom = 0;
  for (int c = 0; c < n; ++c) {
    out[c] = 0;
    if (!(cells >> c & 1)) continue;
    const int root = find(4 + c);
    if (!label_of[root]) {
      label_of[root] = ++next;
      if (touches[root]) out_bottom |= uint8_t(1u << (next - 1));
    }
    out[c] = uint8_t(label_of[root]);
  }
}

// A set of 128-bit keys shared by all threads, in locked shards.
class SharedKeySet {
 public:
  bool insert(uint64_t a, uint64_t b) {
    const uint64_t h = (a * 0x9e3779b97f4a7c15ULL) ^ (b * 0xc2b2ae3d27d4eb4fULL);
    Shard& s = shards_[(h >> 40) % kShards];
    std::lock_guard lock(s.mu);
    return s.keys.insert({a, b}).second;
  }
  size_t size() {
    size_t t = 0;
    for (Shard& s : shards_) {
      std::lock_guard lock(s.mu);
      t += s.keys.size();
    }
    return t;
  }

 private:
  struct Hash {
    size_t operator()(const std::pair<uint64_t, uint64_t>& k) const {
      uint64_t x = k.first * 0x9e3779b97f4a7c15ULL ^ k.second;
      x ^= x >> 31;
      x *= 0xbf58476d1ce4e5b9ULL;
      return x ^ (x >> 29);
    }
  };
  struct Shard {
    std::mutex mu;
    std::unordered_set<std::pair<uint64_t, uint64_t>, Hash> keys;
  };
  static constexpr size_t kShards = 256;
  Shard shards_[kShards];
};

// A row of the crosscut-free search: n-bit masks of its Black and White stones.
struct CrosscutFreeRow {
  uint32_t b, w;
};

// The rows the search may place: candidates for rows 1 and N (edge) and the
// rows between (mid). With the lemma, no empty point on the left or right
// edge, nor anywhere in rows 1 and N.
inline void crosscut_free_rows(int n, bool lemma, std::vector<CrosscutFreeRow>& edge_rows,
                               std::vector<CrosscutFreeRow>& mid_rows) {
  const uint32_t full = (1u << n) - 1;
  const uint32_t inner = full & ~1u & ~(1u << (n - 1));
  for (uint32_t b = 0; b <= full; ++b)
    for (uint32_t w = 0; w <= full; ++w) {
      if (b & w) continue;
      const uint32_t e = full & ~(b | w);
      if (lemma && (e & ~inner)) continue;
      mid_rows.push_back({b, w});
      if (!lemma || e == 0) edge_rows.push_back({b, w});
    }
}

// Whether rows lo (below) and hi (above) of an n-wide board form a crosscut
// in some 2x2 block.
inline bool rows_crosscut(int n, CrosscutFreeRow lo, CrosscutFreeRow hi) {
  const uint32_t full = (1u << n) - 1;
  const uint32_t x = (lo.b & (lo.w >> 1) & hi.w & (hi.b >> 1)) | (lo.w & (lo.b >> 1) & hi.b & (hi.w >> 1));
  return (x & (full >> 1)) != 0;
}

// With the lemma: every empty point of row m is a crosscut point for both
// colours given the rows below (d) and above (u). For the Black diagonal
// towards (dx, dy): that diagonal is B, its two side points W, and the
// opposite diagonal W with its side points B.
inline bool empties_are_double_crosscuts(int n, CrosscutFreeRow d, CrosscutFreeRow m, CrosscutFreeRow u) {
  const uint32_t full = (1u << n) - 1;
  const uint32_t e = full & ~(m.b | m.w);
  if (!e) return true;
  auto east = [](uint32_t r) { return r >> 1; };  // bit c: column c + 1
  auto west = [](uint32_t r) { return r << 1; };  // bit c: column c - 1
  const uint32_t ur = east(u.b) & east(m.w) & u.w & west(d.w) & west(m.b) & d.b;
  const uint32_t ul = west(u.b) & west(m.w) & u.w & east(d.w) & east(m.b) & d.b;
  const uint32_t dr = east(d.b) & east(m.w) & d.w & west(u.w) & west(m.b) & u.b;
  const uint32_t dl = west(d.b) & west(m.w) & d.w & east(u.w) & east(m.b) & u.b;
  return (e & ~(ur | ul | dr | dl) & full) == 0;
}

// Rows are explored bottom-up; a row is a pair of n-bit masks (Black, White).
// Pruning, each a fact about the decided rows that no later row can undo:
//  - a crosscut between two decided rows (the domain is crosscut-free);
//  - with the lemma, an empty point whose 8 neighbours are decided and which
//    is not a crosscut point for both colours: both colours could never be
//    stuck. (Also: no empty point on the edge.)
//  - with prune_won, no open component (see Frontier) joining row 1 to the
//    newest row: White's stones already join its sides, whatever comes above.
//    (Black's chains are left to the check of whole boards, so that every
//    board that passes the local tests is put to the rules.)
//  - with prune_won and full_board_skip (needs the lemma), a board with no
//    empty point once only the top row, which cannot hold one, is left: a
//    full board always has a winning chain (Black joins top and bottom with
//    8-connected stones, or White joins the sides with 4-connected ones).
//  - with memo (needs the lemma and prune_won), a partial board whose last
//    two rows and frontier equal those of one already expanded: with the
//    lemma, whether the rows above can complete it to a counterexample
//    depends on nothing else (stuck is then a local condition, and winning
//    chains are decided by the frontier), so it is skipped.
// Whole boards are then checked with the rules themselves: both colours'
// placements and both colours' chains.
template <class Rules, int W>
CrosscutFreeResult crosscut_free_search(int n, const CrosscutFreeOptions& opt = {}) {
  static_assert(W == 1, "the crosscut-free search works on one-word boards");
  if (n < kMinSize || n > 8)
    throw std::invalid_argument("the crosscut-free search supports boards from 3x3 to 8x8");
  const auto t0 = std::chrono::steady_clock::now();
  const Geometry<W>& g = Geometry<W>::get(n);
  CrosscutFreeResult res;
  res.n = n;
  res.lemma = opt.use_lemma && kStuckEmptiesAreDoubleCrosscuts<Rules>;
  res.prune_won = opt.prune_won;
  res.full_board_skip = res.lemma && opt.prune_won && opt.full_board_skip;
  res.memo = res.lemma && opt.prune_won && opt.memo;
  const uint32_t full = (1u << n) - 1;
  using Row = CrosscutFreeRow;
  std::vector<Row> edge_rows, mid_rows;  // candidates for rows 1 and N, and the rows between
  crosscut_free_rows(n, res.lemma, edge_rows, mid_rows);
  auto crosscut = [n](Row lo, Row hi) { return rows_crosscut(n, lo, hi); };
  auto lemma_ok = [n](Row d, Row m, Row u) { return empties_are_double_crosscuts(n, d, m, u); };

  std::atomic<uint64_t> nodes{0}, hits{0}, leaves{0}, stuck{0}, counter{0}, done{0};
  std::atomic<bool> out_of_time{false};
  std::mutex mu;
  SharedKeySet memo;

  struct Frame {
    Row row;
    Frontier f;
    bool any_empty;
  };
  auto frontier_after = [&](const Frame* below, Row x) {
    Frontier f;
    static const uint8_t none[8] = {};
    extend_frontier(n, below ? below->f.open : none, below ? below->f.open_bottom : 0, ~x.w & full, false,
                    below == nullptr, f.open, f.open_bottom);
    extend_frontier(n, below ? below->f.black : none, below ? below->f.black_bottom : 0, x.b, true,
                    below == nullptr, f.black, f.black_bottom);
    return f;
  };

  // Depth-first over rows r = 2..n-1 given rows[0..r-1].
  auto search = [&](auto&& self, std::vector<Frame>& st, uint64_t& l_nodes, uint64_t& l_hits) -> void {
    const int r = int(st.size());
    if (out_of_time.load(std::memory_order_relaxed)) return;
    const std::vector<Row>& cands = r == n - 1 ? edge_rows : mid_rows;
    for (const Row& x : cands) {
      const Frame& below = st.back();
      if (crosscut(below.row, x)) continue;
      if (res.lemma && !lemma_ok(st[r - 2].row, below.row, x)) continue;
      const bool any_empty = below.any_empty || (x.b | x.w) != full;
      Frontier f;
      if (opt.prune_won) {
        f = frontier_after(&below, x);
        if (!f.open_bottom) continue;  // White has joined its sides
      }
      if (r == n - 2 && res.full_board_skip && !any_empty) continue;
      if (res.memo && r < n - 1) {
        const uint64_t a = uint64_t(r) | uint64_t(below.row.b) << 3 | uint64_t(below.row.w) << (3 + n) |
                           uint64_t(x.b) << (3 + 2 * n) | uint64_t(x.w) << (3 + 3 * n) |
                           uint64_t(any_empty) << (3 + 4 * n);
        if (!memo.insert(a, f.pack(n))) {
          ++l_hits;
          continue;
        }
      }
      ++l_nodes;
      if (r < n - 1) {
        st.push_back({x, f, any_empty});
        self(self, st, l_nodes, l_hits);
        st.pop_back();
        continue;
      }
      // A whole board: ask the rules.
      Position<W> pos = Position<W>::empty(g);
      for (int i = 0; i < r; ++i) {
        pos.stones[Black].w[0] |= uint64_t(st[i].row.b) << (i * n);
        pos.stones[White].w[0] |= uint64_t(st[i].row.w) << (i * n);
      }
      pos.stones[Black].w[0] |= uint64_t(x.b) << (r * n);
      pos.stones[White].w[0] |= uint64_t(x.w) << (r * n);
      leaves.fetch_add(1, std::memory_order_relaxed);
      if (placements_for<Rules>(pos, Black).any() || placements_for<Rules>(pos, White).any()) continue;
      stuck.fetch_add(1, std::memory_order_relaxed);
      if (has_winning_chain(pos, Black) || has_winning_chain(pos, White)) continue;
      counter.fetch_add(1, std::memory_order_relaxed);
      std::lock_guard lock(mu);
      if (res.examples.size() < opt.max_examples)
        res.examples.push_back({pos.stones[Black].w[0], pos.stones[White].w[0]});
    }
  };

  // Tasks: the first two rows, for the threads to share.
  struct Task {
    Row r0, r1;
  };
  std::vector<Task> tasks;
  for (const Row& a : edge_rows)
    for (const Row& b : mid_rows)
      if (!crosscut(a, b)) tasks.push_back({a, b});
  res.tasks = tasks.size();
  oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<size_t>(0, tasks.size(), 1), [&](const auto& range) {
    for (size_t i = range.begin(); i != range.end(); ++i) {
      if (opt.stop && opt.stop->load()) out_of_time = true;
      if (opt.max_seconds > 0 &&
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > opt.max_seconds)
        out_of_time = true;
      if (out_of_time) return;
      const Task& t = tasks[i];
      uint64_t l_nodes = 0, l_hits = 0;
      Frame f0{t.r0, {}, (t.r0.b | t.r0.w) != full};
      if (opt.prune_won) f0.f = frontier_after(nullptr, t.r0);
      Frame f1{t.r1, {}, f0.any_empty || (t.r1.b | t.r1.w) != full};
      if (opt.prune_won) f1.f = frontier_after(&f0, t.r1);
      const bool pruned =
          (opt.prune_won && !f1.f.open_bottom) || (n == 3 && res.full_board_skip && !f1.any_empty);
      if (!pruned) {
        ++l_nodes;
        std::vector<Frame> st{f0, f1};
        st.reserve(n);
        search(search, st, l_nodes, l_hits);
      }
      nodes.fetch_add(l_nodes, std::memory_order_relaxed);
      hits.fetch_add(l_hits, std::memory_order_relaxed);
      if (!out_of_time) done.fetch_add(1, std::memory_order_relaxed);
      if (opt.progress_nodes) opt.progress_nodes->fetch_add(l_nodes, std::memory_order_relaxed);
      if (opt.progress_tasks) opt.progress_tasks->fetch_add(1, std::memory_order_relaxed);
    }
  });
  res.nodes = nodes;
  res.memo_hits = hits;
  res.leaves = leaves;
  res.stuck = stuck;
  res.counterexamples = counter;
  res.tasks_done = done;
  res.memo_entries = res.memo ? memo.size() : 0;
  res.complete = !out_of_time;
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

}  // namespace konobi
