// Must-play regions (issue 21, solver/search/must_play.h) and the legality
// witnesses they rest on (core/legality_witness.h). Each claim is checked
// by brute force below the search: the zones against the simple rules of
// the proof checker (solver/verify/simple_rules.h), the witnesses against
// perturbed boards, and the search that prunes with them against a
// retrograde analysis of every reachable 4x4 and 3x3 position and against
// the proof checker. A zone that is one point too small shows up here as a
// position, a null win and a move, not as a wrong 6x6 result later.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/legality_witness.h"
#include "solver/search/movegen.h"
#include "solver/search/must_play.h"
#include "retrograde.h"
#include "solver_support.h"
#include "support.h"

using namespace solver_test;
using konobi::Bitboard;
using konobi_ref::RefBoard;

namespace {

// X is the side to move and Y the opponent, as in must_play.h.
using BB = Bitboard<1>;
using NullWin = konobi::NullWin<1>;

template <int W>
std::string names(int n, const Bitboard<W>& set) {
  std::string s;
  set.for_each([&](int p) { s += (s.empty() ? "" : " ") + konobi::point_name(n, p); });
  return "{" + s + "}";
}

template <int W>
std::string text(const konobi::Position<W>& pos) {
  return konobi::format_position(konobi::to_text(pos));
}

std::vector<NullWin> null_wins(const Pos& pos) {
  std::vector<NullWin> v;
  konobi::for_each_null_win(pos, [&](const NullWin& w) { v.push_back(w); });
  return v;
}

// ---- The 3-ply refutation on the simple rules (nothing from core/).

// The empty points where a `color` stone would touch chains (or edges)
// reaching both of its edges: two 8-connected floods from the edges. Only
// used to find candidates quickly; every candidate is confirmed by placing
// it, and when none is found every legal point is tried, so a slip here can
// fail a check but never pass one.
std::vector<int> ref_connecting(const RefBoard& b, char color) {
  const int n = b.n;
  const auto on_edge = [&](int p, bool hi) {
    const int coord = color == 'B' ? p / n : p % n;
    return coord == (hi ? n - 1 : 0);
  };
  const auto neighbours = [&](int p, auto&& f) {
    const int r = p / n, c = p % n;
    for (int dr = -1; dr <= 1; ++dr)
      for (int dc = -1; dc <= 1; ++dc)
        if ((dr || dc) && r + dr >= 0 && r + dr < n && c + dc >= 0 && c + dc < n) f((r + dr) * n + c + dc);
  };
  std::array<std::vector<char>, 2> reach;
  for (int hi = 0; hi < 2; ++hi) {
    std::vector<char>& in = reach[hi];
    in.assign(size_t(n * n), 0);
    std::vector<int> stack;
    for (int p = 0; p < n * n; ++p)
      if (b.cell[p] == color && on_edge(p, hi)) in[p] = 1, stack.push_back(p);
    while (!stack.empty()) {
      const int p = stack.back();
      stack.pop_back();
      neighbours(p, [&](int q) {
        if (b.cell[q] == color && !in[q]) in[q] = 1, stack.push_back(q);
      });
    }
  }
  std::vector<int> out;
  for (int p = 0; p < n * n; ++p) {
    if (b.cell[p] != '.') continue;
    bool touches[2] = {on_edge(p, false), on_edge(p, true)};
    neighbours(p, [&](int q) {
      for (int hi = 0; hi < 2; ++hi) touches[hi] = touches[hi] || reach[hi][q];
    });
    if (touches[0] && touches[1]) out.push_back(p);
  }
  return out;
}

bool ref_wins_with(const RefBoard& b, int p) {
  RefBoard c = b;
  c.cell[p] = b.to_move;
  return konobi_ref::ref_has_winning_chain(c, b.to_move);
}

// Whether the side to move has a legal placement that completes a chain.
bool ref_can_win_now(const RefBoard& b) {
  for (int p : ref_connecting(b, b.to_move))
    if (konobi_ref::ref_is_legal(b, p) && ref_wins_with(b, p)) return true;
  for (int p : konobi_ref::ref_legal(b))
    if (ref_wins_with(b, p)) return true;
  return false;
}

// Y to move in `after`: why Y's a does not win within 3 plies (legal, then
// after every legal X placement, none of which may win for X, or after X's
// pass when X has none, Y completes a chain at once), or "" when it does.
std::string ref_refutation_fails(const RefBoard& after, int a) {
  const int n = after.n;
  const char y = after.to_move, x = konobi_ref::ref_other(y);
  const std::string an = konobi_ref::ref_point_name(n, a);
  if (after.cell[a] != '.') return an + " is occupied";
  if (!konobi_ref::ref_is_legal(after, a)) return "Y's " + an + " is illegal";
  RefBoard q = after;
  q.cell[a] = y;
  q.to_move = x;
  if (konobi_ref::ref_has_winning_chain(q, y)) return "";
  const std::vector<int> replies = konobi_ref::ref_legal(q);
  if (replies.empty()) {
    q.to_move = y;
    return ref_can_win_now(q) ? "" : "X must pass after " + an + " and Y then has no winning placement";
  }
  for (int b : replies) {
    RefBoard r = q;
    r.cell[b] = x;
    r.to_move = y;
    const std::string bn = konobi_ref::ref_point_name(n, b);
    if (konobi_ref::ref_has_winning_chain(r, x)) return "after " + an + ", X's reply " + bn + " wins for X";
    if (!ref_can_win_now(r)) return "after " + an + " and X's reply " + bn + ", Y has no winning placement";
  }
  return "";
}

// ---- The same on core's rules, where speed matters more than independence.

bool mover_can_win_now(const Pos& pos) {
  return (konobi::konobi_legal_placements(pos) & konobi::connecting_points(pos, pos.to_move)).any();
}

bool core_refutes(const Pos& after, int a) {
  if (!konobi::konobi_legal_placements(after).test(a)) return false;
  if (konobi::konobi_wins_by(after, a)) return true;
  Pos q = after;
  q.place(a);
  const BB replies = konobi::konobi_legal_placements(q);
  if (replies.none()) {
    q.pass();
    return mover_can_win_now(q);
  }
  bool ok = true;
  replies.for_each([&](int b) {
    if (!ok) return;
    if (konobi::konobi_wins_by(q, b)) {
      ok = false;
      return;
    }
    Pos r = q;
    r.place(b);
    ok = mover_can_win_now(r);
  });
  return ok;
}

// The stated preconditions of for_each_null_win: X (to move) has legal
// placements and no win at once, and Y has no legal winning point.
bool null_wins_may_exist(const Pos& pos) {
  const konobi::Color y = konobi::other(pos.to_move);
  const BB legal = konobi::konobi_legal_placements(pos);
  return legal.any() && (legal & konobi::connecting_points(pos, pos.to_move)).none() &&
         (konobi::konobi_legality(pos, y).legal & konobi::connecting_points(pos, y)).none();
}

// Positions for the zone checks: from a quarter to three quarters full,
// where one side is often a null move away from a win.
std::vector<Pos> zone_positions(int n, int count, uint32_t seed) {
  return random_positions(n, count, n * n / 4, n * n * 3 / 4, seed);
}

}  // namespace

TEST_CASE("must-play: every legal move outside a null win's zone loses to it (simple rules)",
          "[solver][must-play]") {
  // The zone's claim, replayed move by move with the proof checker's rules:
  // the zone is built from core's bitboards, so a slip in core and in the
  // zone alike still shows here.
  const int per_size = kSanitize ? 40 : 12000;
  std::vector<std::string> bad;
  int positions = 0, with_wins = 0, wins = 0, moves_checked = 0, outside_all = 0;
  for (int n = 4; n <= 8; ++n)
    for (const Pos& pos : zone_positions(n, per_size, 2100u + uint32_t(n))) {
      ++positions;
      const std::vector<NullWin> found = null_wins(pos);
      if (found.empty()) continue;
      ++with_wins;
      if (!null_wins_may_exist(pos))
        bad.push_back(show(pos) + ": null wins reported against the preconditions");
      const BB legal = konobi::konobi_legal_placements(pos);
      Pos passed = pos;
      passed.pass();
      BB all = pos.g->board;
      for (const NullWin& w : found) {
        ++wins;
        const std::string head =
            show(pos) + ": null win " + konobi::point_name(n, w.move) + " zone " + names(n, w.zone) + ", ";
        if (w.zone.minus(pos.g->board).any()) bad.push_back(head + "zone off the board");
        // The null move itself: if X really passed, a must win.
        if (const std::string why = ref_refutation_fails(konobi_test::to_ref(passed), w.move); !why.empty())
          bad.push_back(head + "after X's pass: " + why);
        legal.minus(w.zone).for_each([&](int m) {
          ++moves_checked;
          Pos q = pos;
          q.place(m);
          if (const std::string why = ref_refutation_fails(konobi_test::to_ref(q), w.move); !why.empty())
            bad.push_back(head + "X plays " + konobi::point_name(n, m) + ": " + why);
        });
        all &= w.zone;
      }
      outside_all += legal.minus(all).count();
    }
  INFO(positions << " positions, " << with_wins << " with null wins, " << wins << " null wins, "
                 << moves_checked << " moves outside a zone checked");
  INFO(join(bad));
  CHECK(bad.empty());
  // Observed in Release: 60,000 positions, 9,397 with null wins, 15,262
  // null wins, 98,975 moves checked.
  CHECK(with_wins > (kSanitize ? 5 : 7000));
  CHECK(moves_checked > (kSanitize ? 100 : 75000));
  CHECK(outside_all > 0);
}

TEST_CASE("must-play: every legal move outside the region loses to one of the null wins",
          "[solver][must-play]") {
  const int per_size = kSanitize ? 40 : 12000;
  std::vector<std::string> bad;
  int positions = 0, pruned_positions = 0, pruned_moves = 0, pruned_searched = 0;
  for (int n = 4; n <= 8; ++n)
    for (const Pos& pos : zone_positions(n, per_size, 3300u + uint32_t(n))) {
      ++positions;
      const std::vector<NullWin> found = null_wins(pos);
      const BB region = konobi::must_play_region(pos);
      BB expect = pos.g->board;
      for (const NullWin& w : found) expect &= w.zone;
      if (region != expect)
        bad.push_back(show(pos) + ": region " + names(n, region) + " is not the zones' intersection " +
                      names(n, expect));
      const BB legal = konobi::konobi_legal_placements(pos);
      const BB outside = legal.minus(region);
      outside.for_each([&](int m) {
        Pos q = pos;
        q.place(m);
        const bool lost = std::any_of(found.begin(), found.end(),
                                      [&](const NullWin& w) { return core_refutes(q, w.move); });
        if (!lost)
          bad.push_back(show(pos) + ": " + konobi::point_name(n, m) + " outside the region " +
                        names(n, region) + " is refuted by none of the null wins");
      });
      if (outside.any()) {
        ++pruned_positions;
        pruned_moves += outside.count();
        // What df-pn gains: moves the move generator would still search.
        const konobi::NodeMoves<1> nm = konobi::node_moves(pos);
        if (nm.kind == konobi::NodeKind::Search) pruned_searched += nm.moves.minus(region).count();
      }
    }
  INFO(positions << " positions, " << pruned_positions << " with moves outside the region, " << pruned_moves
                 << " such moves, " << pruned_searched << " of them searched without the region");
  INFO(join(bad));
  CHECK(bad.empty());
  // Observed in Release: 60,000 positions, 9,444 with moves outside the
  // region, 67,832 such moves, 67,556 of them in the move generator's list.
  CHECK(pruned_positions > (kSanitize ? 5 : 7000));
  CHECK(pruned_searched > (kSanitize ? 10 : 50000));
}

TEST_CASE("must-play: every 3-ply null win with a standing threat is reported", "[solver][must-play]") {
  // Not needed for soundness (a missed null win only prunes less), but a
  // filter that drops real candidates would silently cost nodes. The class
  // required here is the one must_play.h promises: after X's pass and Y's a,
  // Y already has a legal winning point, X has placements, none wins, and
  // each leaves Y a win at once.
  const int per_size = kSanitize ? 30 : 5000;
  std::vector<std::string> bad;
  int required = 0, reported = 0;
  for (int n = 4; n <= 8; ++n)
    for (const Pos& pos : zone_positions(n, per_size, 4400u + uint32_t(n))) {
      const std::vector<NullWin> found = null_wins(pos);
      reported += int(found.size());
      if (!null_wins_may_exist(pos)) {
        if (!found.empty()) bad.push_back(show(pos) + ": null wins reported against the preconditions");
        continue;
      }
      Pos passed = pos;
      passed.pass();
      konobi::konobi_legal_placements(passed).for_each([&](int a) {
        Pos q = passed;
        q.place(a);
        if (!mover_can_win_now([&] {
              Pos t = q;
              t.pass();
              return t;
            }()))
          return;
        const BB replies = konobi::konobi_legal_placements(q);
        if (replies.none() || !core_refutes(passed, a)) return;
        ++required;
        if (std::none_of(found.begin(), found.end(), [&](const NullWin& w) { return w.move == a; }))
          bad.push_back(show(pos) + ": null win " + konobi::point_name(n, a) + " not reported");
      });
    }
  INFO(required << " null wins required, " << reported << " reported");
  INFO(join(bad));
  CHECK(bad.empty());
  CHECK(required > (kSanitize ? 5 : 5000));  // observed: 6,633
}

namespace {

// A position from random legal play on an n x n board with about `stones`
// stones (fewer when the game would end), for any word count.
template <int W>
konobi::Position<W> random_play(int n, int stones, std::mt19937& rng) {
  auto pos = konobi::Position<W>::empty(konobi::Geometry<W>::get(n));
  while (pos.stone_count() < stones) {
    const Bitboard<W> legal = konobi::konobi_legal_placements(pos);
    if (legal.none()) {
      if (konobi::konobi_legality(pos, konobi::other(pos.to_move)).legal.none()) break;
      pos.pass();
      continue;
    }
    std::vector<int> quiet;
    legal.for_each([&](int m) {
      if (!konobi::konobi_wins_by(pos, m)) quiet.push_back(m);
    });
    if (quiet.empty()) break;
    pos.place(quiet[std::uniform_int_distribution<size_t>(0, quiet.size() - 1)(rng)]);
    pos.swap_available = false;
  }
  return pos;
}

// Whether one of the (up to four) 2x2 blocks holding p is a crosscut.
template <int W>
bool crosscut_at(const konobi::Position<W>& q, int p) {
  const auto& g = *q.g;
  const int x = g.col(p), y = g.row(p);
  for (int bx = x - 1; bx <= x; ++bx)
    for (int by = y - 1; by <= y; ++by) {
      if (!g.on_board(bx, by) || !g.on_board(bx + 1, by + 1)) continue;
      const int a = q.at(g.point(bx, by)), b = q.at(g.point(bx + 1, by + 1));
      const int c = q.at(g.point(bx + 1, by)), d = q.at(g.point(bx, by + 1));
      if (a >= 0 && a == b && c >= 0 && c == d && a != c) return true;
    }
  return false;
}

struct WitnessStats {
  long checks = 0, illegal = 0, crosscut = 0, weak = 0, changed_points = 0, witness_points = 0, cells = 0;
};

// For random empty points p and colours c of random positions: boards that
// agree with the position on the witness (p empty) and differ elsewhere,
// near p or anywhere, without a crosscut, must give c the same verdict at p.
template <int W>
void check_witnesses(int n, int positions, uint32_t seed, WitnessStats& st, std::vector<std::string>& bad) {
  std::mt19937 rng(seed);
  const auto& g = konobi::Geometry<W>::get(n);
  const int points_per_position = kSanitize ? 4 : 8, perturbations = kSanitize ? 6 : 16;
  for (int i = 0; i < positions; ++i) {
    const auto pos = random_play<W>(n, std::uniform_int_distribution<int>(n, n * n * 2 / 3)(rng), rng);
    const Bitboard<W> empty = pos.empty_points();
    if (empty.none()) continue;
    for (int k = 0; k < points_per_position; ++k) {
      const konobi::Color c = konobi::Color(rng() & 1);
      const konobi::Legality<W> L = konobi::konobi_legality(pos, c);
      // Half the points from the barred ones, which are rarer and subtler.
      const Bitboard<W> barred = empty.minus(L.legal);
      const Bitboard<W> from = barred.any() && (rng() & 1) ? barred : empty;
      std::vector<int> pts;
      from.for_each([&](int q) { pts.push_back(q); });
      const int p = pts[std::uniform_int_distribution<size_t>(0, pts.size() - 1)(rng)];
      const bool verdict = L.legal.test(p);
      const Bitboard<W> witness = konobi::legality_witness(pos, c, p);
      st.witness_points += witness.count();
      st.cells += n * n;
      if (witness.minus(g.board).any())
        bad.push_back(text(pos) + " " + konobi::color_name(c) + " " + konobi::point_name(n, p) +
                      ": witness off the board");
      const Bitboard<W> free_points = g.board.minus(witness | Bitboard<W>::single(p));
      std::vector<int> all, near;
      free_points.for_each([&](int q) {
        all.push_back(q);
        if (std::abs(g.col(q) - g.col(p)) <= 3 && std::abs(g.row(q) - g.row(p)) <= 3) near.push_back(q);
      });
      for (int t = 0; t < perturbations; ++t) {
        const bool local = t % 2 == 0;
        std::vector<int>& cand = local && !near.empty() ? near : all;
        if (cand.empty()) break;
        std::shuffle(cand.begin(), cand.end(), rng);
        const size_t count =
            local ? std::uniform_int_distribution<size_t>(1, std::min<size_t>(4, cand.size()))(rng)
                  : std::uniform_int_distribution<size_t>(1, cand.size())(rng);
        auto q = pos;
        int changed = 0;
        for (size_t j = 0; j < count; ++j) {
          const int point = cand[j], before = q.at(point);
          const int after = (before + 2 + int(rng() % 2)) % 3 - 1;  // -1, 0 or 1, not `before`
          if (before >= 0) q.toggle_stone(konobi::Color(before), point);
          if (after >= 0) q.toggle_stone(konobi::Color(after), point);
          if (crosscut_at(q, point)) {  // not a Konobi board: undo
            if (after >= 0) q.toggle_stone(konobi::Color(after), point);
            if (before >= 0) q.toggle_stone(konobi::Color(before), point);
            continue;
          }
          ++changed;
        }
        if (changed == 0) continue;
        ++st.checks;
        st.changed_points += changed;
        if (!verdict) ++st.illegal;
        if (L.crosscut.test(p)) ++st.crosscut;
        if (L.weak_illegal.test(p)) ++st.weak;
        if (konobi::konobi_legality(q, c).legal.test(p) != verdict)
          bad.push_back(text(pos) + " " + konobi::color_name(c) + " at " + konobi::point_name(n, p) + " is " +
                        (verdict ? "legal" : "illegal") + ", witness " + names(n, witness) + "; but not in " +
                        text(q));
      }
    }
  }
}

}  // namespace

TEST_CASE("must-play: legality witnesses: boards that agree on the witness give the same verdict",
          "[solver][must-play]") {
  WitnessStats st;
  std::vector<std::string> bad;
  const int per_size = kSanitize ? 40 : 1500;
  for (int n = 3; n <= 8; ++n) check_witnesses<1>(n, per_size, 5500u + uint32_t(n), st, bad);
  // Two words: shifts across the word boundary.
  for (int n : {9, 11}) check_witnesses<2>(n, per_size / 3, 5500u + uint32_t(n), st, bad);
  INFO(st.checks << " perturbed boards, " << st.illegal << " at a barred point (" << st.crosscut
                 << " crosscut, " << st.weak << " weak-connection), " << st.changed_points
                 << " points changed, witnesses " << st.witness_points << " of " << st.cells << " points");
  INFO(join(bad));
  CHECK(bad.empty());
  // Observed in Release: 1,277,742 boards, 809,769 at barred points (7,478
  // crosscuts), the witnesses 11% of the board's points.
  CHECK(st.checks > (kSanitize ? 2000 : 1000000));
  CHECK(st.crosscut > (kSanitize ? 5 : 5000));
  CHECK(st.weak > (kSanitize ? 100 : 600000));
  CHECK(st.witness_points < st.cells / 2);
}

namespace {

struct Agreement {
  long checked = 0, pruned_roots = 0;
  std::vector<std::string> bad;
};

// df-pn against the retrograde values of `sample`: on one table for the
// whole run, as a solve shares it, or on a fresh table for each position,
// so that each is searched from its root down rather than read back.
void compare_with_retrograde(const Retrograde& r, const std::vector<uint64_t>& sample,
                             const konobi::DfpnOptions& opt, bool fresh_tables, Agreement& out) {
  std::optional<konobi::TranspositionTable> shared;
  if (!fresh_tables) shared.emplace(64);
  konobi::DfpnOptions guarded = opt;
  guarded.max_nodes = 20'000'000;  // a livelock fails rather than hangs
  for (uint64_t i : sample) {
    const Pos pos = r.position(i);
    ++out.checked;
    if (opt.must_play && konobi::must_play_region(pos) != pos.g->board) ++out.pruned_roots;
    std::optional<konobi::TranspositionTable> own;
    if (fresh_tables) own.emplace(1);
    try {
      konobi::Dfpn<1> search(fresh_tables ? *own : *shared, guarded);
      const bool wins = search.solve(pos);
      if (wins != r.wins(i))
        out.bad.push_back(show(pos) + ": df-pn (must_play " + (opt.must_play ? "on" : "off") +
                          (fresh_tables ? ", own table" : "") + ") says " + (wins ? "win" : "loss") +
                          ", retrograde " + (r.wins(i) ? "win" : "loss"));
    } catch (const konobi::SearchStopped&) {
      out.bad.push_back(show(pos) + ": df-pn gave up after " + std::to_string(guarded.max_nodes) + " nodes");
    } catch (const std::exception& e) { out.bad.push_back(show(pos) + ": df-pn threw: " + e.what()); }
  }
}

// Up to `per_group` positions of each (stones, side to move) group, spread
// evenly through it, so that no ply goes unchecked; all when it is large.
std::vector<uint64_t> sample_per_group(const Retrograde& r, size_t per_group, int& groups) {
  std::vector<uint64_t> sample;
  groups = 0;
  for (int g = 0; g < r.groups(); ++g) {
    const auto& v = r.group(g / 2, g % 2);
    if (v.empty()) continue;
    ++groups;
    const size_t stride = std::max<size_t>(1, v.size() / per_group);
    for (size_t j = 0; j < v.size(); j += stride) sample.push_back(v[j]);
  }
  // Not in enumeration order, so that the shared table does not always meet
  // a position right after the positions below it.
  std::shuffle(sample.begin(), sample.end(), std::mt19937(61));
  return sample;
}

}  // namespace

TEST_CASE("must-play: df-pn agrees with a retrograde analysis of every reachable 3x3 position",
          "[solver][must-play]") {
  const Retrograde r(3);
  REQUIRE(r.draws() == 0);
  int draws = 0;
  REQUIRE(r.positions() == reachable_positions(3, draws).size());
  std::vector<uint64_t> all;
  for (int s = 0; s < r.groups() / 2; ++s)
    for (int side = 0; side < 2; ++side)
      all.insert(all.end(), r.group(s, side).begin(), r.group(s, side).end());
  for (const bool must_play : {true, false}) {
    konobi::DfpnOptions opt;
    opt.must_play = must_play;
    Agreement a;
    compare_with_retrograde(r, all, opt, false, a);
    INFO("must_play " << must_play << ": " << a.checked << " positions, " << a.pruned_roots
                      << " with a must-play region");
    INFO(join(a.bad));
    CHECK(a.bad.empty());
    CHECK(a.checked == long(r.positions()));
  }
}

TEST_CASE("must-play: df-pn agrees with a retrograde analysis of every reachable 4x4 position",
          "[solver][must-play]") {
  // All 2.3 million take 6 s in Release. Under the sanitizers the analysis
  // starts from a few hundred random middle games instead of the empty
  // board, and df-pn sees a sample of each ply of what that reaches.
  const Retrograde r = kSanitize ? Retrograde(4, random_positions(4, 300, 6, 12, 6600u)) : Retrograde(4);
  REQUIRE(r.draws() == 0);
  int groups = 0;
  const std::vector<uint64_t> all = sample_per_group(r, kSanitize ? 200 : SIZE_MAX, groups);
  INFO(r.positions() << " reachable positions in " << groups << " groups, " << all.size() << " checked");
  // One group per stone count 0..15 (a full board is always won), and
  // White to move on 14 stones after a forced pass.
  if (!kSanitize) CHECK(groups >= 17);
  if (!kSanitize) CHECK(all.size() == r.positions());
  // Depth 2: the regions of wins by two threats in a row, too.
  for (const int depth : {1, 2, 0}) {
    const bool must_play = depth > 0;
    konobi::DfpnOptions opt;
    opt.must_play = must_play;
    opt.must_play_depth = std::max(1, depth);
    Agreement a;
    compare_with_retrograde(r, all, opt, false, a);
    INFO("must_play depth " << depth << ": " << a.checked << " positions, " << a.pruned_roots
                            << " with a must-play region");
    INFO(join(a.bad));
    CHECK(a.bad.empty());
    // Observed: 409,647 of the 2,347,991 roots have a region.
    if (must_play) CHECK(a.pruned_roots > (kSanitize ? 20 : 300000));
  }
  // Each searched on its own table: the pruning at every node below the
  // root, not only where the shared table had not yet been filled.
  int unused = 0;
  const std::vector<uint64_t> sample = sample_per_group(r, kSanitize ? 10 : 1500, unused);
  Agreement a;
  compare_with_retrograde(r, sample, konobi::DfpnOptions{}, true, a);
  INFO("own tables: " << a.checked << " positions, " << a.pruned_roots << " with a must-play region");
  INFO(join(a.bad));
  CHECK(a.bad.empty());
  CHECK(a.checked > (kSanitize ? 50 : 15000));
}

namespace {

struct ProofRun {
  int positions = 0, pruned_roots = 0, pruned_in_proofs = 0, proof_entries = 0;
  std::vector<std::string> bad;
};

// Whether must_play_region leaves out a move the move generator would
// search at pos.
bool region_prunes(const Pos& pos) {
  const konobi::NodeMoves<1> nm = konobi::node_moves(pos);
  return nm.kind == konobi::NodeKind::Search && nm.moves.minus(konobi::must_play_region(pos)).any();
}

// Solves pos with must-play on and off; the proof of the pruned solve must
// pass the checker. Counts the loser's positions in the proof (after each
// of the winner's moves) where the region pruned.
void solve_both_ways(const Pos& pos, ProofRun& run, int depth = 1) {
  ++run.positions;
  if (region_prunes(pos)) ++run.pruned_roots;
  konobi::DfpnOptions on, off;
  off.must_play = false;
  on.must_play_depth = depth;
  konobi::TranspositionTable tt_on(16), tt_off(16);
  const std::optional<bool> v_on = dfpn_wins(pos, tt_on, on, 1), v_off = dfpn_wins(pos, tt_off, off, 1);
  if (!v_on || !v_off || *v_on != *v_off) {
    run.bad.push_back(show(pos) + ": must_play (depth " + std::to_string(depth) + ") says " + verdict(v_on) +
                      ", off says " + verdict(v_off));
    return;
  }
  const konobi::Color winner = *v_on ? pos.to_move : konobi::other(pos.to_move);
  konobi::Proof proof;
  try {
    proof = konobi::ProofBuilder<1>(tt_on, on).build(pos, winner);
  } catch (const std::exception& e) {  // the builder meets an inconsistent table
    run.bad.push_back(show(pos) + ": no must-play proof: " + e.what());
    return;
  }
  const konobi::ProofCheck check = konobi::check_proof(proof.to_text());
  if (!check.ok) run.bad.push_back(show(pos) + ": the must-play proof is refused: " + check.message);
  run.proof_entries += int(proof.entries.size());
  for (const std::string& line : proof.entries) {
    const size_t cut = line.rfind(' ');
    Pos q = konobi::from_text<1>(konobi::parse_position(line.substr(0, cut)));
    const konobi::Move m = konobi::parse_move(q.size(), line.substr(cut + 1));
    if (m < 0 || konobi::konobi_wins_by(q, m)) continue;
    q.place(m);
    q.swap_available = false;
    if (region_prunes(q)) ++run.pruned_in_proofs;
  }
}

}  // namespace

TEST_CASE("must-play: random 5x5 and late 6x6 positions, the same verdict on and off and a checked proof",
          "[solver][must-play]") {
  ProofRun run;
  for (const Pos& pos : random_positions(5, kSanitize ? 24 : 1000, 6, 16, 7700u)) solve_both_ways(pos, run);
  // Late 6x6 middle games: enough stones that each solves in milliseconds.
  for (const Pos& pos : random_positions(6, kSanitize ? 6 : 200, 14, 24, 7701u)) solve_both_ways(pos, run);
  // Two threats in a row: the proofs then replay longer null-move lines.
  ProofRun deeper;
  for (const Pos& pos : random_positions(5, kSanitize ? 12 : 300, 6, 16, 7702u))
    solve_both_ways(pos, deeper, 2);
  INFO("depth 2: " << deeper.positions << " positions, " << deeper.pruned_in_proofs
                   << " loser positions in proofs pruned (at depth 1)");
  INFO(join(deeper.bad));
  CHECK(deeper.bad.empty());
  INFO(run.positions << " positions, " << run.pruned_roots << " pruned at the root, " << run.proof_entries
                     << " proof entries, " << run.pruned_in_proofs << " loser positions in proofs pruned");
  INFO(join(run.bad));
  CHECK(run.bad.empty());
  CHECK(run.pruned_roots > (kSanitize ? 0 : 150));        // observed: 254 of 1,200
  CHECK(run.pruned_in_proofs > (kSanitize ? 5 : 20000));  // observed: 35,021
}

TEST_CASE("must-play: deeper 5x5 searches give the same verdict on and off, on one thread and two",
          "[solver][must-play]") {
  // Early 5x5 positions, whose trees are deep enough for the region to
  // prune far below the root and for two threads to share the pruned
  // table. Node counts are a benchmark (bench, docs/SOLVER.md), not a test:
  // only the verdicts are compared.
  std::vector<std::string> bad;
  uint64_t nodes_on = 0, nodes_off = 0;
  const auto sample = random_positions(5, kSanitize ? 2 : 8, kSanitize ? 7 : 3, kSanitize ? 8 : 5, 8800u);
  for (const Pos& pos : sample) {
    konobi::DfpnOptions on, off;
    off.must_play = false;
    std::optional<bool> v[3];
    // One thread on a fresh table within the deadline, counting its nodes.
    const auto solve_one = [&](const konobi::DfpnOptions& opt, uint64_t& nodes) -> std::optional<bool> {
      konobi::TranspositionTable tt(32);
      Deadline d(kSolveSeconds);
      try {
        const auto o = konobi::solve_position<1>(pos, tt, opt, 1, &d.stop);
        nodes += o.nodes;
        return o.mover_wins;
      } catch (const konobi::SearchStopped&) { return std::nullopt; }
    };
    v[0] = solve_one(on, nodes_on);
    v[1] = solve_one(off, nodes_off);
    {
      konobi::TranspositionTable tt(32);
      v[2] = dfpn_wins(pos, tt, on, 2);
    }
    if (!v[0] || v[0] != v[1] || v[0] != v[2])
      bad.push_back(show(pos) + ": on " + verdict(v[0]) + ", off " + verdict(v[1]) +
                    ", on with two threads " + verdict(v[2]));
  }
  INFO(sample.size() << " positions; nodes with must-play " << nodes_on << ", without " << nodes_off);
  INFO(join(bad));
  CHECK(bad.empty());
  CHECK(sample.size() >= (kSanitize ? 2u : 8u));
}
