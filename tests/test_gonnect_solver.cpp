// Gonnect search: df-pn (positions merged by board before the first capture,
// by board and set of earlier boards after it) and alpha-beta must give the
// values of a plain search that carries each line's full history and keeps
// no table at all, on every 3x3 opening and on random 4x4 positions, many of
// them after captures, where positions repeat and history matters.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "core/game.h"
#include "core/gonnect.h"
#include "solver/search/alphabeta.h"
#include "solver/search/parallel_dfpn.h"
#include "solver/search/pv.h"

using namespace konobi;

namespace {

using State = GonnectState<1>;

struct OverBudget {};

// Whether the side to move wins, by exhaustive search over the rules alone:
// every line carries its own history, nothing is shared between lines.
bool plain_wins(const State& s, uint64_t& budget) {
  if (budget-- == 0) throw OverBudget{};
  const Bitboard<1> legal = GonnectRules::placements(s);
  if (legal.none()) return false;
  if (GonnectRules::winning(s, legal).any()) return true;
  bool win = false;
  legal.for_each([&](int m) {
    if (win) return;
    State q = s;
    GonnectRules::play(q, m);
    if (!plain_wins(q, budget)) win = true;
  });
  return win;
}

// merge: positions merge by board before the first capture (solve --ghi
// merge); otherwise the set of earlier boards is in every key (strict).
bool dfpn_wins(const State& s, bool symmetry, bool merge = false, int threads = 1) {
  GonnectSearch::merge_before_capture = merge;
  TranspositionTable tt(16);
  DfpnOptions opt;
  opt.symmetry = symmetry;
  return solve_game_position<GonnectSearch, 1>(s, tt, opt, threads, nullptr).mover_wins;
}

State opening(int n, int p, EdgeRule edges = EdgeRule::Either) {
  GonnectVariant v;
  v.edges = edges;
  State s = GonnectRules::start(Position<1>::empty(gonnect_geometry<1>(n, v)), v);
  GonnectRules::play(s, p);
  s.pos.swap_available = false;
  return s;
}

}  // namespace

TEST_CASE("gonnect solver: every 3x3 opening, df-pn and alpha-beta equal the plain full-history search",
          "[gonnect][solver]") {
  for (EdgeRule edges : {EdgeRule::Either, EdgeRule::Own})
    for (int p = 0; p < 9; ++p) {
      const State s = opening(3, p, edges);
      uint64_t budget = 50'000'000;
      const bool expected = plain_wins(s, budget);
      INFO("opening " << point_name(3, p) << " edges " << edge_rule_name(edges));
      CHECK(dfpn_wins(s, true) == expected);
      CHECK(dfpn_wins(s, false) == expected);
      CHECK(dfpn_wins(s, true, true) == expected);
      CHECK(dfpn_wins(s, true, false, 2) == expected);
      CHECK(AlphaBeta<1, GonnectSearch>(16).wins(s) == expected);
    }
}

TEST_CASE("gonnect solver: random 4x4 positions, with and without captures, match the plain search",
          "[gonnect][solver]") {
  std::mt19937_64 rng(99);
  int compared = 0, with_capture = 0, skipped = 0;
  for (int trial = 0; trial < 400 && compared < 40; ++trial) {
    GonnectVariant v;
    Game<GonnectRules, 1> g = Game<GonnectRules, 1>::new_game(4, v);
    const int plies = 8 + int(rng() % 10);
    for (int i = 0; i < plies && !g.over(); ++i) {
      std::vector<int> moves;
      g.placements().for_each([&](int p) { moves.push_back(p); });
      g.play(moves[rng() % moves.size()]);
    }
    if (g.over()) continue;
    State s = g.state();
    s.pos.swap_available = false;
    uint64_t budget = 300'000;
    bool expected;
    try {
      expected = plain_wins(s, budget);
    } catch (const OverBudget&) {
      ++skipped;
      continue;
    }
    INFO("moves " << format_record(4, g.moves()));
    CHECK(dfpn_wins(s, true) == expected);
    CHECK(dfpn_wins(s, false) == expected);
    CHECK(dfpn_wins(s, true, true) == expected);
    CHECK(AlphaBeta<1, GonnectSearch>(16).wins(s) == expected);
    ++compared;
    with_capture += s.captured;
  }
  INFO("compared " << compared << ", after a capture " << with_capture << ", skipped " << skipped);
  CHECK(compared >= 25);
  CHECK(with_capture >= 5);
}

TEST_CASE("gonnect solver: symmetric positions have equal values and keys", "[gonnect][solver]") {
  std::mt19937_64 rng(5);
  int compared = 0;
  for (int trial = 0; trial < 40; ++trial) {
    GonnectVariant v;
    Game<GonnectRules, 1> g = Game<GonnectRules, 1>::new_game(4, v);
    for (int i = 0; i < 9 && !g.over(); ++i) {
      std::vector<int> moves;
      g.placements().for_each([&](int p) { moves.push_back(p); });
      g.play(moves[rng() % moves.size()]);
    }
    if (g.over() || g.state().captured) continue;
    State s = g.state();
    s.pos.swap_available = false;
    const bool expected = dfpn_wins(s, false);
    for (int sym = 0; sym < kSymmetries; ++sym) {
      const State t = GonnectRules::start(s.pos.transformed(sym), v);
      GonnectSearch::merge_before_capture = true;  // the keys that use symmetry
      CHECK(GonnectSearch::key(t, true) == GonnectSearch::key(GonnectRules::start(s.pos, v), true));
      CHECK(dfpn_wins(t, false) == expected);  // without symmetry: the images are searched apart
    }
    ++compared;
  }
  CHECK(compared >= 10);
}

TEST_CASE("gonnect solver: a principal variation ends in a win for the winner", "[gonnect][solver]") {
  for (int p : {0, 4}) {
    const State s = opening(3, p);
    TranspositionTable tt(16);
    DfpnOptions opt;
    const bool mover_wins = solve_game_position<GonnectSearch, 1>(s, tt, opt, 1, nullptr).mover_wins;
    const std::vector<Move> pv = game_principal_variation<GonnectSearch, 1>(s, tt, true, 64);
    REQUIRE_FALSE(pv.empty());
    Game<GonnectRules, 1> g(s);
    g.play_record(pv);
    REQUIRE(g.over());
    CHECK((g.winner() == White) == mover_wins);
  }
}
