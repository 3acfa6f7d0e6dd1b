// Gonnect search: df-pn (positions merged by board before the first capture,
// by board and set of earlier boards after it) and alpha-beta must give the
// values of a plain search that carries each line's full history and keeps
// no table at all, on every 3x3 opening and on random 4x4 positions, many of
// them after captures, where positions repeat and history matters.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <deque>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "core/game.h"
#include "core/gonnect.h"
#include "core/perft.h"
#include "solver/search/alphabeta.h"
#include "solver/search/parallel_dfpn.h"
#include "solver/search/pv.h"
#include "solver/io/json.h"
#include "tests/support.h"

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

// The search's states share one history per search path (gonnect_child)
// and compute child keys without building the child: along random games,
// under both ko rules, a chain of shared states must agree with states that
// own a copy of their history in everything the rules and the table see.
TEST_CASE("gonnect solver: shared-history children equal copied ones, keys and all", "[gonnect][solver]") {
  std::mt19937_64 rng(11);
  int captures = 0, bans = 0;
  for (int trial = 0; trial < 60; ++trial) {
    GonnectVariant v;
    v.ko = trial % 2 ? KoRule::Simple : KoRule::Superko;
    const int n = 3 + trial % 3;
    State root = GonnectRules::start(Position<1>::empty(gonnect_geometry<1>(n, v)), v);
    GonnectRules::play(root, int(rng() % uint64_t(n * n)));  // an owned history under the shared ones
    // Shared states live in a deque (stable addresses), as on a search's stack.
    std::deque<State> shared{root};
    State owned = root;
    for (int ply = 0; ply < 40; ++ply) {
      const State& s = shared.back();
      const Bitboard<1> legal = GonnectRules::placements(owned);
      REQUIRE(GonnectRules::placements(s) == legal);
      const GonnectLegality<1> L = gonnect_legality(owned);
      bans += L.repeat.count();
      if (legal.none() || GonnectRules::winning(owned, legal).any()) break;
      std::vector<int> moves;
      legal.for_each([&](int p) { moves.push_back(p); });
      const int m = moves[rng() % moves.size()];
      for (bool merge : {false, true})
        for (bool symmetry : {false, true}) {
          GonnectSearch::merge_before_capture = merge;
          State q = owned;
          GonnectRules::play(q, m);
          CHECK(GonnectSearch::child_key(s, m, symmetry) == GonnectSearch::key(q, symmetry));
          CHECK(GonnectSearch::child_key(owned, m, symmetry) == GonnectSearch::key(q, symmetry));
        }
      GonnectSearch::merge_before_capture = false;
      captures += gonnect_captures(owned.pos, owned.pos.to_move, m).any();
      shared.push_back(GonnectSearch::child(s, m));
      GonnectRules::play(owned, m);
      const State& c = shared.back();
      CHECK(c.base != nullptr);
      CHECK(c.history.empty());
      CHECK(c.earlier_boards() == owned.history);
      CHECK(c.history_hash == owned.history_hash);
      CHECK(c.pos == owned.pos);
      CHECK(GonnectSearch::key(c, false) == GonnectSearch::key(owned, false));
      // A copy played on owns its history again.
      State copy = c;
      if (GonnectRules::placements(copy).any()) {
        GonnectRules::play(copy, GonnectRules::placements(copy).first());
        CHECK(copy.base == nullptr);
        CHECK(copy.history.size() == owned.history.size() + 1);
      }
    }
  }
  INFO("captures " << captures << ", repetition bans " << bans);
  CHECK(captures > 20);
  CHECK(bans > 0);
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

// The program: every subcommand takes --game gonnect, bad options exit 2
// with a message, and solve writes the ko rule into its results.
TEST_CASE("gonnect cli: subcommands, clear errors and the results file", "[gonnect][cli]") {
  using konobi_test::run_konobi;
  struct Bad {
    std::vector<std::string> args;
    const char* says;
  };
  const Bad bad[] = {
      {{"show", "--game", "gonnect", "--ko", "bogus", "--size", "3"}, "--ko must be"},
      {{"show", "--game", "go", "--size", "3"}, "--game must be"},
      {{"perft", "--ko", "simple", "--size", "3", "--depth", "2"}, "add --game gonnect"},
      {{"solve", "--game", "gonnect", "--ko", "simple", "--size", "3"}, "needs --ko superko"},
      {{"analyze", "--game", "gonnect", "--ko", "simple", "--size", "3"}, "needs --ko superko"},
      {{"verify-proof", "--game", "gonnect", "--ko", "bogus", "x.proof"}, "--ko must be"},
      {{"verify-proof", "--game", "konobi", "--ko", "simple", "x.proof"}, "Gonnect options"},
      {{"show", "--game", "gonnect", "--size", "3", "b2", "pass"}, "pass is not allowed in gonnect"},
  };
  for (const Bad& b : bad) {
    const auto r = run_konobi(b.args);
    INFO(b.args[0] << " ... -> " << r.err);
    CHECK(r.exited);
    CHECK(r.status == 2);
    CHECK(r.err.find(b.says) != std::string::npos);
  }

  // perft --json agrees with the engine's perft.
  const auto p = run_konobi({"perft", "--game", "gonnect", "--size", "3", "--depth", "5", "--json"});
  REQUIRE(p.status == 0);
  const Json pj = Json::parse(p.out);
  CHECK(pj["game"].get<std::string>() == "gonnect");
  CHECK(pj["ko_rule"].get<std::string>() == "superko");
  GonnectVariant v;
  const std::vector<uint64_t> want =
      perft<GonnectRules>(GonnectRules::start(Position<1>::empty(gonnect_geometry<1>(3, v)), v), 5);
  REQUIRE(pj["counts"].size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) CHECK(uint64_t(pj["counts"][i].get<long long>()) == want[i]);

  // show --json names the reason of a superko ban.
  const auto s = run_konobi(
      {"show", "--game", "gonnect", "-p", "...../.BW../B.BW./.BW../..... b", "d5", "b3", "--json"});
  REQUIRE(s.status == 0);
  CHECK(s.out.find("\"superko\"") != std::string::npos);

  // solve writes results/gonnect-3x3.json's schema with the ko rule named,
  // and the values of the plain search.
  char dir[] = "/tmp/gonnect_cli_XXXXXX";
  REQUIRE(mkdtemp(dir) != nullptr);
  const std::string out = std::string(dir) + "/g3.json";
  const auto r = run_konobi(
      {"solve", "--game", "gonnect", "--size", "3", "--threads", "1", "--tt-mb", "8", "-q", "--out", out});
  REQUIRE(r.status == 0);
  const Json j = Json::parse(konobi_test::read_all(out));
  CHECK(j["game"].get<std::string>() == "gonnect");
  CHECK(j["ko_rule"].get<std::string>() == "superko");
  CHECK(j["edges"].get<std::string>() == "either");
  CHECK(j["ghi"].get<std::string>() == "strict");
  CHECK(j["complete"].get<bool>());
  for (const Json& o : j["openings"]) {
    const State st = opening(3, parse_point(3, o["point"].get<std::string>()));
    uint64_t budget = 50'000'000;
    CHECK((o["winner"].get<std::string>() == "white") == plain_wins(st, budget));
  }
  std::filesystem::remove_all(dir);
}
