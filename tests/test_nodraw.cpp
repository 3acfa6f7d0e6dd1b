// verify-nodraw: the census of reachable positions against an independent
// brute force on the simple reference rules, the search of crosscut-free
// boards against every 3x3 board, the fact the search prunes with, and
// planted rule bugs that the checks must catch.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "support.h"
#include "core/game.h"
#include "solver/io/atomic_file.h"
#include "solver/research/nodraw.h"

using namespace konobi;
using konobi_ref::RefBoard;
using konobi_test::run_konobi;

namespace {

// ---- The independent brute force: simple_rules.h only, plain containers.

// The four colour-preserving symmetries of a plain grid, smallest text wins.
std::string ref_canonical(const RefBoard& b) {
  std::string best;
  for (int s = 0; s < 4; ++s) {
    std::string t(b.cell.size(), '.');
    for (int r = 0; r < b.n; ++r)
      for (int c = 0; c < b.n; ++c) {
        const int rr = s & 2 ? b.n - 1 - r : r, cc = s & 1 ? b.n - 1 - c : c;
        t[rr * b.n + cc] = b.cell[r * b.n + c];
      }
    if (best.empty() || t < best) best = t;
  }
  return best;
}

struct RefCounts {
  uint64_t positions = 0, must_pass = 0, won = 0, draws = 0;
  bool operator==(const RefCounts&) const = default;
};

// Every reachable position per ply, by depth-first search from the empty
// board, remembering (ply, canonical board) pairs already counted.
std::map<int, RefCounts> ref_census(int n) {
  std::map<int, RefCounts> out;
  std::set<std::pair<int, std::string>> seen;
  auto visit = [&](auto&& self, const RefBoard& b, int ply) -> void {
    if (!seen.insert({ply, ref_canonical(b)}).second) return;
    RefCounts& c = out[ply];
    ++c.positions;
    const char mover = b.to_move, last = konobi_ref::ref_other(mover);
    if (ply > 0 && konobi_ref::ref_has_winning_chain(b, last)) {
      ++c.won;
      return;
    }
    const std::vector<int> moves = konobi_ref::ref_legal(b);
    RefBoard next = b;
    next.to_move = last;
    if (moves.empty()) {
      ++c.must_pass;
      if (konobi_ref::ref_legal(next).empty()) {
        ++c.draws;
        return;
      }
      self(self, next, ply + 1);
      return;
    }
    for (int p : moves) {
      RefBoard child = next;
      child.cell[p] = mover;
      self(self, child, ply + 1);
    }
  };
  visit(visit, konobi_ref::ref_empty(n), 0);
  return out;
}

bool ref_has_crosscut(const RefBoard& b) {
  for (int r = 0; r + 1 < b.n; ++r)
    for (int c = 0; c + 1 < b.n; ++c) {
      const char a = b.cell[r * b.n + c], x = b.cell[r * b.n + c + 1];
      const char y = b.cell[(r + 1) * b.n + c], d = b.cell[(r + 1) * b.n + c + 1];
      if (a != '.' && x != '.' && a == d && x == y && a != x) return true;
    }
  return false;
}

bool ref_stuck(RefBoard b) {
  b.to_move = 'B';
  if (!konobi_ref::ref_legal(b).empty()) return false;
  b.to_move = 'W';
  return konobi_ref::ref_legal(b).empty();
}

// ---- Planted rule bugs.

// Forbids every weak connection, not only those with a free alternative.
struct AllWeakBarredRules : KonobiRules {
  template <int W>
  static Bitboard<W> placements(const Position<W>& pos) {
    return konobi_legality(pos, pos.to_move).free;
  }
};

// Drops the crosscut rule.
struct NoCrosscutRules : KonobiRules {
  template <int W>
  static Bitboard<W> placements(const Position<W>& pos) {
    const Legality<W> L = konobi_legality(pos, pos.to_move);
    return pos.empty_points().minus(L.weak_illegal);
  }
};

// Replays a record under the given rules: every move legal (a pass only when
// forced), no win on the way. Returns the final position.
template <class Rules>
Position<1> replay(int n, const std::vector<Move>& record) {
  Position<1> pos = Position<1>::empty(Geometry<1>::get(n));
  for (Move m : record) {
    const Bitboard<1> legal = Rules::placements(pos);
    if (m == kPass) {
      REQUIRE(legal.none());
      pos.pass();
    } else {
      REQUIRE(legal.test(m));
      REQUIRE_FALSE(Rules::winning(pos, legal).test(m));
      pos.place(m);
    }
  }
  return pos;
}

}  // namespace

TEST_CASE("nodraw: the 3x3 census equals an independent brute force", "[nodraw]") {
  const ReachableResult res = reachable_census<KonobiRules, 1>(3);
  REQUIRE(res.complete);
  const std::map<int, RefCounts> ref = ref_census(3);
  REQUIRE(res.plies.size() == ref.size());
  for (const PlyCounts& p : res.plies) {
    INFO("ply " << p.ply);
    const RefCounts& r = ref.at(p.ply);
    CHECK(p.positions == r.positions);
    CHECK(p.must_pass == r.must_pass);
    CHECK(p.won == r.won);
    CHECK(p.draws == r.draws);
  }
  CHECK(res.total(&PlyCounts::draws) == 0);
  CHECK(res.total(&PlyCounts::won) > 0);
}

TEST_CASE("nodraw: the 4x4 census has forced passes and no draw", "[nodraw]") {
  const ReachableResult res = reachable_census<KonobiRules, 1>(4);
  REQUIRE(res.complete);
  CHECK(res.total(&PlyCounts::draws) == 0);
  // Passes do happen, so the census does follow them.
  CHECK(res.total(&PlyCounts::must_pass) > 0);
  // The deepest ply holds full boards only, all won.
  CHECK(res.plies.back().won == res.plies.back().positions);
}

TEST_CASE("nodraw: the census stops cleanly at --max-ply and --max-mb", "[nodraw]") {
  ReachableOptions opt;
  opt.max_ply = 3;
  const ReachableResult a = reachable_census<KonobiRules, 1>(4, opt);
  CHECK_FALSE(a.complete);
  CHECK(a.plies.size() == 4);
  ReachableOptions tight;
  tight.max_mb = 0.5;
  const ReachableResult b = reachable_census<KonobiRules, 1>(4, tight);
  CHECK_FALSE(b.complete);
  CHECK(b.stopped.find("--max-mb") != std::string::npos);
}

TEST_CASE("nodraw: a planted rule bug makes the census find a reachable draw with its record", "[nodraw]") {
  for (int n : {3, 4}) {
    INFO(n << "x" << n);
    const ReachableResult res = reachable_census<AllWeakBarredRules, 1>(n);
    REQUIRE(res.total(&PlyCounts::draws) > 0);
    REQUIRE(res.first_draw_ply >= 0);
    ReachableOptions keep;
    keep.keep_plies = true;
    keep.max_ply = res.first_draw_ply;
    const ReachableResult kept = reachable_census<AllWeakBarredRules, 1>(n, keep);
    const std::vector<Move> record =
        reachable_record<AllWeakBarredRules, 1>(kept, res.first_draw, res.first_draw_ply);
    REQUIRE(int(record.size()) == res.first_draw_ply);
    const Position<1> end = replay<AllWeakBarredRules>(n, record);
    CHECK(placements_for<AllWeakBarredRules>(end, Black).none());
    CHECK(placements_for<AllWeakBarredRules>(end, White).none());
    CHECK_FALSE(has_winning_chain(end, Black));
    CHECK_FALSE(has_winning_chain(end, White));
  }
}

TEST_CASE("nodraw: dropping the crosscut rule alone still allows no draw", "[nodraw]") {
  // Without crosscuts to block it, an empty point is legal unless the
  // weak-connection rule bars it, which needs a free point elsewhere, which
  // is legal: so both sides are stuck only on a full board, which is won.
  for (int n : {3, 4}) {
    const ReachableResult res = reachable_census<NoCrosscutRules, 1>(n);
    REQUIRE(res.complete);
    CHECK(res.total(&PlyCounts::draws) == 0);
  }
}

TEST_CASE("nodraw: every 3x3 board, by brute force on the reference rules", "[nodraw]") {
  // All 3^9 boards: the crosscut-free ones where both colours are stuck.
  uint64_t stuck = 0, stuck_unwon = 0;
  for (int code = 0; code < 19683; ++code) {
    RefBoard b = konobi_ref::ref_empty(3);
    for (int p = 0, x = code; p < 9; ++p, x /= 3) b.cell[p] = ".BW"[x % 3];
    if (ref_has_crosscut(b) || !ref_stuck(b)) continue;
    ++stuck;
    if (!konobi_ref::ref_has_winning_chain(b, 'B') && !konobi_ref::ref_has_winning_chain(b, 'W'))
      ++stuck_unwon;
    // The fact the search prunes with: every empty point of a both-stuck
    // board is a crosscut point for both colours.
    for (int p = 0; p < 9; ++p)
      if (b.cell[p] == '.') {
        CHECK(konobi_ref::ref_is_crosscut(b, p, 'B'));
        CHECK(konobi_ref::ref_is_crosscut(b, p, 'W'));
      }
  }
  REQUIRE(stuck > 0);
  CHECK(stuck_unwon == 0);

  // The search counts the same both-stuck boards with and without the fact.
  CrosscutFreeOptions count;
  count.prune_won = false;
  const CrosscutFreeResult with = crosscut_free_search<KonobiRules, 1>(3, count);
  count.use_lemma = false;
  const CrosscutFreeResult without = crosscut_free_search<KonobiRules, 1>(3, count);
  CHECK(with.lemma);
  CHECK_FALSE(without.lemma);
  CHECK(with.stuck == stuck);
  CHECK(without.stuck == stuck);
  CHECK(with.counterexamples == stuck_unwon);
  CHECK(without.leaves > with.leaves);
}

TEST_CASE("nodraw: the crosscut-free search finds no counterexample up to 5x5, with or without merging",
          "[nodraw]") {
  for (int n : {3, 4, 5}) {
    INFO(n << "x" << n);
    const CrosscutFreeResult merged = crosscut_free_search<KonobiRules, 1>(n);
    CrosscutFreeOptions plain;
    plain.memo = false;
    const CrosscutFreeResult unmerged = crosscut_free_search<KonobiRules, 1>(n, plain);
    REQUIRE(merged.complete);
    REQUIRE(unmerged.complete);
    CHECK(merged.memo);
    CHECK(merged.counterexamples == 0);
    CHECK(unmerged.counterexamples == 0);
    // Every board that passes the local tests is stuck for both colours
    // by the rules themselves (the converse of the pruning fact).
    CHECK(merged.stuck == merged.leaves);
    CHECK(unmerged.stuck == unmerged.leaves);
    CHECK(unmerged.leaves >= merged.leaves);
  }
}

TEST_CASE("nodraw: a planted rule bug makes the crosscut-free search report a counterexample", "[nodraw]") {
  const CrosscutFreeResult res = crosscut_free_search<AllWeakBarredRules, 1>(3);
  REQUIRE(res.complete);
  CHECK_FALSE(res.lemma);  // the fact is only known for the real rules
  REQUIRE(res.counterexamples > 0);
  REQUIRE_FALSE(res.examples.empty());
  Position<1> pos = Position<1>::empty(Geometry<1>::get(3));
  pos.stones[Black].w[0] = res.examples[0].first;
  pos.stones[White].w[0] = res.examples[0].second;
  CHECK(placements_for<AllWeakBarredRules>(pos, Black).none());
  CHECK(placements_for<AllWeakBarredRules>(pos, White).none());
  CHECK_FALSE(has_winning_chain(pos, Black));
  CHECK_FALSE(has_winning_chain(pos, White));
  // The same board is no counterexample under the real rules.
  CHECK((konobi_legality(pos, Black).legal | konobi_legality(pos, White).legal).any());
}

TEST_CASE("nodraw: the verify-nodraw command", "[nodraw][cli]") {
  const auto ok = run_konobi({"verify-nodraw", "--size", "3", "--quiet"});
  REQUIRE(ok.exited);
  CHECK(ok.status == 0);
  CHECK(ok.out.find("No reachable draw") != std::string::npos);
  CHECK(ok.out.find("No crosscut-free board") != std::string::npos);

  const std::string dir =
      std::filesystem::temp_directory_path() / ("konobi_nodraw_" + std::to_string(getpid()));
  const std::string file = dir + "/nodraw-4x4.json";
  const auto js = run_konobi({"verify-nodraw", "--size", "4", "--quiet", "--json", "--out", file});
  REQUIRE(js.exited);
  CHECK(js.status == 0);
  CHECK(js.out.find("\"verdict\": \"holds\"") != std::string::npos);
  CHECK(konobi::read_file(file) == js.out);
  std::filesystem::remove_all(dir);

  const auto partial =
      run_konobi({"verify-nodraw", "--size", "4", "--mode", "reachable", "--max-ply", "3", "-q"});
  CHECK(partial.status == 3);
  CHECK(partial.out.find("INCOMPLETE") != std::string::npos);

  for (const std::vector<std::string>& bad : {std::vector<std::string>{"verify-nodraw", "--size", "9"},
                                              {"verify-nodraw", "--size", "2"},
                                              {"verify-nodraw", "--size", "6", "--mode", "reachable"},
                                              {"verify-nodraw", "--size", "4", "--mode", "sideways"},
                                              {"verify-nodraw"}}) {
    const auto r = run_konobi(bad);
    INFO(r.err);
    REQUIRE(r.exited);
    CHECK(r.status == 2);
    CHECK_FALSE(r.err.empty());
  }
}
