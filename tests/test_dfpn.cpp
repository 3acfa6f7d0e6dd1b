// df-pn checked against itself and against an independent search: its
// move generation and child estimates, agreement with alpha-beta on every
// reachable 3x3 position, every 4x4 opening and a sample of 5x5 middle
// games; its verdict does not depend on threads, symmetry keys, evaluation,
// simulation or table size; replays of a sibling's refutation.
#include <catch2/catch.hpp>

#include "solver_support.h"

using namespace solver_test;

TEST_CASE("the searched moves are exactly the placements that do not let the opponent win at once",
          "[solver]") {
  // node_moves drops a placement when the opponent could then complete a
  // chain; df-pn, alpha-beta and the proofs rely on it dropping nothing else.
  int positions = 0, dropped = 0, lost = 0;
  for (int n = 3; n <= 7; ++n) {
    for (const Pos& pos : random_positions(n, 150, 2, n * n * 3 / 4, 500u + uint32_t(n))) {
      const auto nm = konobi::node_moves(pos);
      if (nm.kind == konobi::NodeKind::WinNow || nm.kind == konobi::NodeKind::PassOnly) continue;
      ++positions;
      if (nm.kind == konobi::NodeKind::LoseNow) ++lost;
      konobi::konobi_legal_placements(pos).for_each([&](int m) {
        Pos child = pos;
        child.place(m);
        const bool opponent_wins_at_once =
            (konobi::konobi_legal_placements(child) & konobi::connecting_points(child, child.to_move)).any();
        const bool kept = nm.kind == konobi::NodeKind::Search && nm.moves.test(m);
        INFO(show(pos) << " then " << konobi::point_name(n, m));
        REQUIRE(kept == !opponent_wins_at_once);
        if (!kept) ++dropped;
      });
    }
  }
  CHECK(positions > 300);
  CHECK(dropped > 100);
  CHECK(lost > 0);
}

TEST_CASE("the per-parent child estimates equal the evaluation of each child", "[solver]") {
  // df-pn seeds every new child from ChildEstimates; it must give exactly
  // estimate() of the child (the bench fingerprint relies on it too), on
  // open boards, crowded ones and ones where a side is cut off.
  int checked = 0, critical = 0;
  for (int n = 3; n <= 8; ++n) {
    const int hi = n * n * 3 / 4;
    for (const Pos& pos : random_positions(n, 120, 0, hi, 1000u + uint32_t(n))) {
      const konobi::ChildEstimates<1> estimates(pos);
      const int before = konobi::connection_distance(pos, konobi::other(pos.to_move));
      pos.empty_points().for_each([&](int m) {
        Pos child = pos;
        child.place(m);
        const konobi::Estimate want = konobi::estimate(child);
        const konobi::Estimate got = estimates(m);
        INFO(show(pos) << " then " << konobi::point_name(n, m));
        REQUIRE(got.pn == want.pn);
        REQUIRE(got.dn == want.dn);
        if (konobi::connection_distance(child, child.to_move) != before) ++critical;
        ++checked;
      });
    }
  }
  CHECK(checked > 5000);
  CHECK(critical > 100);  // the recomputed case was exercised
}

TEST_CASE("df-pn agrees with alpha-beta on every reachable 3x3 position", "[solver]") {
  int draws = -1;
  const std::vector<Pos> all = reachable_positions(3, draws);
  INFO(all.size() << " positions");
  CHECK(draws == 0);
  REQUIRE(all.size() > 100);
  konobi::TranspositionTable tt(16);
  std::vector<Reference> refs;
  const auto bad = compare_with_alphabeta(all, tt, konobi::DfpnOptions{}, 1, 10, &refs);
  INFO(join(bad));
  CHECK(bad.empty());
  // The empty 3x3 board (no pie rule) is a first-player win.
  REQUIRE(all.front().stone_count() == 0);
  CHECK(refs.front().wins);
}

TEST_CASE("df-pn agrees with alpha-beta on every 4x4 opening", "[solver]") {
  konobi::TranspositionTable tt(32);
  std::vector<Reference> refs;
  const auto bad = compare_with_alphabeta(openings4(), tt, konobi::DfpnOptions{}, 1, 18, &refs);
  INFO(join(bad));
  CHECK(bad.empty());
  // Symmetric openings have the same value and the same remoteness.
  const auto& g = konobi::Geometry<1>::get(4);
  for (int p = 0; p < 16; ++p) {
    const int rep = konobi::opening_representative(g, p);
    INFO("opening " << konobi::point_name(4, p) << " class " << konobi::point_name(4, rep));
    CHECK(refs[p].score == refs[rep].score);
  }
}

TEST_CASE("df-pn agrees with alpha-beta on every 4x4 position with two stones", "[solver]") {
  std::vector<Pos> positions;
  int index = 0;
  for (const Pos& o : openings4())
    konobi::konobi_legal_placements(o).for_each([&](int m) {
      if (konobi::konobi_wins_by(o, m)) return;
      // Under the sanitizers, every fourth.
      if (kSanitize && index++ % 4 != 0) return;
      Pos q = o;
      q.place(m);
      positions.push_back(q);
    });
  REQUIRE(positions.size() > (kSanitize ? 50u : 200u));
  konobi::TranspositionTable tt(32);
  const auto bad = compare_with_alphabeta(positions, tt, konobi::DfpnOptions{}, 1, 16);
  INFO(bad.size() << " of " << positions.size() << " disagree:\n" << join(bad));
  CHECK(bad.empty());
}

TEST_CASE("df-pn agrees with alpha-beta on random 5x5 positions with 8 to 14 stones", "[solver]") {
  const int count = kSanitize ? 30 : 300;
  const std::vector<Pos> sample = random_positions(5, count, 8, 14, 20240601u);
  REQUIRE(int(sample.size()) == count);
  konobi::TranspositionTable tt(64);
  std::vector<Reference> refs;
  const auto bad = compare_with_alphabeta(sample, tt, konobi::DfpnOptions{}, 1, 16, &refs);
  INFO(join(bad));
  CHECK(bad.empty());
  // The sample is not one-sided.
  int wins = 0;
  for (const auto& r : refs) wins += r.wins;
  CHECK(wins > 0);
  CHECK(wins < int(refs.size()));
}

TEST_CASE("alpha-beta gives the same exact scores when its table is reused", "[solver]") {
  SECTION("the smallest case found: two 3x3 positions in a row") {
    const Pos first = konobi::from_text<1>(konobi::parse_position("..B/.../... w"));
    const Pos second = konobi::from_text<1>(konobi::parse_position("BWB/.W./..B w"));
    const int expected = konobi::AlphaBeta<1>(10).score(second);
    CHECK(expected == -(konobi::kWinScore - 4));  // White loses in 4 plies
    konobi::AlphaBeta<1> shared(18);
    CHECK(shared.score(first) < 0);
    const int got = shared.score(second);
    CHECK(got == expected);
    CHECK(shared.wins(second) == (expected > 0));
  }
  SECTION("a fresh table: 4x4 positions that White wins, as a checked proof shows") {
    for (const char* text : {"B.../..../..../.W.. b", "...B/..../..../..W. b"}) {
      const Pos pos = konobi::from_text<1>(konobi::parse_position(text));
      INFO(text);
      // Ground truth from the independent checker.
      konobi::TranspositionTable tt(16);
      const std::optional<bool> black_wins = dfpn_wins(pos, tt, konobi::DfpnOptions{}, 1);
      REQUIRE(black_wins == false);
      const std::string proof =
          konobi::ProofBuilder<1>(tt, konobi::DfpnOptions{}).build(pos, konobi::White).to_text();
      REQUIRE(konobi::check_proof(proof).ok);
      CHECK_FALSE(konobi::AlphaBeta<1>(18).wins(pos));
      const int score = konobi::AlphaBeta<1>(18).score(pos);
      CHECK(score < 0);
      CHECK(score_problem(score, false).empty());
    }
  }
  SECTION("every reachable 3x3 position, one table for all") {
    int draws = -1;
    const std::vector<Pos> all = reachable_positions(3, draws);
    konobi::AlphaBeta<1> shared(18);
    std::vector<std::string> bad;
    for (const Pos& pos : all) {
      const int expected = konobi::AlphaBeta<1>(10).score(pos);
      const int got = shared.score(pos);
      if (got != expected || !score_problem(got, got > 0).empty())
        bad.push_back(show(pos) + ": score " + std::to_string(got) + " with the shared table, " +
                      std::to_string(expected) + " with a fresh one");
    }
    INFO(bad.size() << " of " << all.size() << " positions differ:\n" << join(bad, 8));
    CHECK(bad.empty());
  }
  SECTION("score_moves on the 4x4 openings") {
    std::vector<std::string> bad;
    for (const Pos& pos : kSanitize ? opening_classes4() : openings4()) {
      konobi::AlphaBeta<1> ab(18);
      for (const auto& [m, score] : ab.score_moves(pos)) {
        REQUIRE(m >= 0);
        Pos q = pos;
        q.place(m);
        const bool wins = konobi::konobi_wins_by(pos, m) || !konobi::AlphaBeta<1>(16).wins(q);
        if ((score > 0) != wins || std::abs(score) > konobi::kWinScore - 1)
          bad.push_back(show(pos) + " move " + konobi::point_name(4, m) + ": score " + std::to_string(score) +
                        ", but the move " + (wins ? "wins" : "loses"));
      }
    }
    INFO(join(bad));
    CHECK(bad.empty());
  }
}

TEST_CASE("df-pn's verdict does not depend on threads, symmetry, evaluation, simulation or table size",
          "[solver]") {
  std::vector<Pos> positions = kSanitize ? opening_classes4() : openings4();
  const std::vector<Pos> mid = random_positions(5, kSanitize ? 6 : 40, 10, 14, 777u);
  REQUIRE(!mid.empty());
  positions.insert(positions.end(), mid.begin(), mid.end());

  std::vector<bool> expected;
  for (const Pos& p : positions) expected.push_back(konobi::AlphaBeta<1>(16).wins(p));

  for (int threads : {1, 2})
    for (bool symmetry : {true, false})
      for (bool evaluate : {true, false})
        for (double mb : {0.01, 256.0})
          for (int simulation : {konobi::DfpnOptions{}.simulation, 0}) {
            konobi::DfpnOptions opt;
            opt.symmetry = symmetry;
            opt.evaluate = evaluate;
            opt.simulation = simulation;
            // A tiny table of 0.01 MB (128 buckets): fresh for every position,
            // so every search runs under heavy replacement. The large one is
            // shared by all positions of a configuration.
            std::unique_ptr<konobi::TranspositionTable> shared;
            if (mb > 1) shared = std::make_unique<konobi::TranspositionTable>(mb);
            std::vector<std::string> bad;
            for (size_t i = 0; i < positions.size(); ++i) {
              std::unique_ptr<konobi::TranspositionTable> own;
              if (!shared) own = std::make_unique<konobi::TranspositionTable>(mb);
              konobi::TranspositionTable& tt = shared ? *shared : *own;
              const std::optional<bool> got = dfpn_wins(positions[i], tt, opt, threads);
              if (got != expected[i])
                bad.push_back(show(positions[i]) + ": df-pn says " + verdict(got) + ", alpha-beta " +
                              (expected[i] ? "win" : "loss"));
            }
            INFO("threads " << threads << ", symmetry " << symmetry << ", evaluation " << evaluate
                            << ", simulation " << simulation << ", table " << mb << " MB");
            INFO(join(bad));
            CHECK(bad.empty());
          }
}

TEST_CASE("simulation proves moves by a sibling's refutation, in fewer nodes", "[solver]") {
  // The 4x4 opening classes and random 5x5 middle games, each from an empty
  // table, with replays and without: the same verdicts (the test above
  // checks them against alpha-beta), children proven by replay, fewer
  // nodes in all, and proofs that use the replayed positions pass the
  // independent checker.
  std::vector<Pos> positions = opening_classes4();
  const std::vector<Pos> mid = random_positions(5, kSanitize ? 4 : 20, 8, 12, 9090u);
  positions.insert(positions.end(), mid.begin(), mid.end());
  uint64_t nodes_with = 0, nodes_without = 0, simulated = 0;
  for (const Pos& pos : positions) {
    konobi::DfpnOptions with, without;
    without.simulation = 0;
    REQUIRE(with.simulation > 0);
    konobi::TranspositionTable tt_with(16), tt_without(16);
    konobi::Dfpn<1> a(tt_with, with), b(tt_without, without);
    const bool wins = a.solve(pos);
    INFO(show(pos));
    CHECK(wins == b.solve(pos));
    CHECK(b.simulated() == 0);
    nodes_with += a.nodes(), nodes_without += b.nodes(), simulated += a.simulated();
    const konobi::Color winner = wins ? pos.to_move : konobi::other(pos.to_move);
    const auto c = konobi::check_proof(konobi::ProofBuilder<1>(tt_with, with).build(pos, winner).to_text());
    INFO(c.message);
    CHECK(c.ok);
  }
  INFO(nodes_with << " nodes with simulation, " << nodes_without << " without, " << simulated
                  << " replays proved a move");
  CHECK(simulated > 100);
  CHECK(nodes_with < nodes_without);
}
