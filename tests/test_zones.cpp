// Relevance zones (issue 21; solver/search/zones.h, zone_table.h). A zone is
// a claim about many positions at once: every position in play that agrees
// with a proven one on its zone has the same value. The claim is checked
// here where it can be checked exhaustively, against a retrograde analysis
// of every reachable 4x4 position, and then through the searches that use
// it: df-pn against the same analysis, and proofs built on zone matches
// against the proof checker, which knows nothing of zones.
#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "retrograde.h"
#include "solver/search/dfpn.h"
#include "solver/search/proof.h"
#include "solver/search/zone_table.h"
#include "solver/search/zones.h"
#include "solver/verify/proof_checker.h"
#include "solver/io/results.h"
#include "solver_support.h"
#include "support.h"

using namespace solver_test;

namespace {

// Every position of a retrograde analysis as two stone sets, the side to
// move and the value, for scanning.
struct Flat {
  uint64_t black, white;
  int to_move;
  bool wins;
};

std::vector<Flat> flatten(const Retrograde& r) {
  std::vector<Flat> v;
  for (int s = 0; s < r.groups() / 2; ++s)
    for (int side = 0; side < 2; ++side)
      for (uint64_t i : r.group(s, side)) {
        const Pos p = r.position(i);
        v.push_back({p.stones[konobi::Black].w[0], p.stones[konobi::White].w[0], int(p.to_move), r.wins(i)});
      }
  return v;
}

std::string names(int n, uint64_t set) {
  std::string s;
  for (int p = 0; p < n * n; ++p)
    if (set >> p & 1) s += (s.empty() ? "" : " ") + konobi::point_name(n, p);
  return "{" + s + "}";
}

}  // namespace

TEST_CASE("zones: the zone table gives back what was stored, and nothing for other keys", "[solver][zones]") {
  konobi::ZoneTable t(1);
  konobi::ZoneTable::Hit h{};
  CHECK_FALSE(t.find(0x123456789abcdef0ull, h));
  t.store(0x123456789abcdef0ull, true, 17, 0x00ff00ffull);
  REQUIRE(t.find(0x123456789abcdef0ull, h));
  CHECK(h.mover_wins);
  CHECK(h.move == 17);
  CHECK(h.zone == 0x00ff00ffull);
  // Another key in the same slot (the same index bits, other high bits).
  CHECK_FALSE(t.find(0x923456789abcdef0ull, h));
  t.store(0x923456789abcdef0ull, false, -1, 1);
  REQUIRE(t.find(0x923456789abcdef0ull, h));
  CHECK_FALSE(h.mover_wins);
  CHECK(h.move == -1);
  CHECK_FALSE(t.find(0x123456789abcdef0ull, h));
  CHECK_THROWS_AS(konobi::ZoneTable(0), std::invalid_argument);
}

TEST_CASE("zones: every reachable 4x4 position that agrees with a proven one on its zone has its value",
          "[solver][zones]") {
  // Release: every reachable position, searched with zones on one shared
  // table, and the zones of a sample of them held against every position
  // in the analysis. Sanitizers: the positions reachable from random middle
  // games, fewer of them.
  const Retrograde r = kSanitize ? Retrograde(4, random_positions(4, 200, 6, 12, 9100u)) : Retrograde(4);
  REQUIRE(r.draws() == 0);
  const std::vector<Flat> all = flatten(r);
  konobi::TranspositionTable tt(64);
  konobi::ZoneTable zones(16);
  konobi::DfpnOptions opt;
  opt.zones = &zones;
  opt.max_nodes = 20'000'000;
  std::vector<std::string> bad;
  uint64_t hits = 0, checked_zones = 0, agreeing = 0, zone_points = 0;
  const size_t stride = kSanitize ? 97 : 7;
  for (size_t j = 0; j < all.size(); j += stride) {
    const Flat& f = all[j];
    Pos pos = Pos::empty(konobi::Geometry<1>::get(4));
    for (int p = 0; p < 16; ++p) {
      if (f.black >> p & 1) pos.toggle_stone(konobi::Black, p);
      if (f.white >> p & 1) pos.toggle_stone(konobi::White, p);
    }
    pos.to_move = konobi::Color(f.to_move);
    konobi::Dfpn<1> search(tt, opt);
    const bool wins = search.solve(pos);
    hits += search.zone_hits();
    if (wins != f.wins) bad.push_back(show(pos) + ": df-pn with zones says " + (wins ? "win" : "loss"));
    // Every 40th position's zone against the whole analysis.
    konobi::ZoneTable::Hit h{};
    if ((j / stride) % 40 != 0 || !zones.find(pos.key(), h)) continue;
    ++checked_zones;
    zone_points += uint64_t(std::popcount(h.zone));
    if (h.mover_wins != f.wins) bad.push_back(show(pos) + ": its zone entry has the wrong value");
    for (const Flat& o : all) {
      if (o.to_move != f.to_move || ((o.black ^ f.black) | (o.white ^ f.white)) & h.zone) continue;
      ++agreeing;
      if (o.wins != h.mover_wins && bad.size() < 50)
        bad.push_back(show(pos) + " (" + (h.mover_wins ? "win" : "loss") + ", zone " + names(4, h.zone) +
                      ") agrees on the zone with a position of the other value: black " + names(4, o.black) +
                      " white " + names(4, o.white));
    }
  }
  INFO(all.size() << " positions, " << hits << " zone matches, " << checked_zones << " zones held against "
                  << agreeing << " agreeing positions, " << zone_points << " zone points in all");
  INFO(join(bad));
  CHECK(bad.empty());
  CHECK(hits > (kSanitize ? 10u : 10000u));
  // Observed in Release: 2,544 zones (9.5 of the 16 points on average)
  // held against 951,348 agreeing positions; 59,630 zone matches.
  CHECK(checked_zones > (kSanitize ? 10u : 2000u));
  // Zones that were the whole board would agree with nothing but
  // themselves: they must reach other positions.
  CHECK(agreeing > checked_zones * 2);
}

TEST_CASE("zones: random 5x5 and late 6x6 positions, the same verdict with and without, and a checked proof",
          "[solver][zones]") {
  std::vector<std::string> bad;
  uint64_t hits = 0, entries = 0;
  int positions = 0;
  auto sample = random_positions(5, kSanitize ? 16 : 400, 5, 14, 9200u);
  for (const Pos& pos : random_positions(6, kSanitize ? 4 : 100, 14, 24, 9201u)) sample.push_back(pos);
  for (const Pos& pos : sample) {
    ++positions;
    konobi::TranspositionTable tt_on(16), tt_off(16);
    konobi::ZoneTable zones(4);
    konobi::DfpnOptions on, off;
    on.zones = &zones;
    on.max_nodes = off.max_nodes = 5'000'000;
    std::optional<bool> v_on, v_off;
    try {
      konobi::Dfpn<1> a(tt_on, on), b(tt_off, off);
      v_on = a.solve(pos);
      hits += a.zone_hits();
      v_off = b.solve(pos);
    } catch (const konobi::SearchStopped&) {}
    if (!v_on || !v_off || *v_on != *v_off) {
      bad.push_back(show(pos) + ": with zones " + verdict(v_on) + ", without " + verdict(v_off));
      continue;
    }
    const konobi::Color winner = *v_on ? pos.to_move : konobi::other(pos.to_move);
    try {
      const konobi::Proof proof = konobi::ProofBuilder<1>(tt_on, on).build(pos, winner);
      entries += proof.entries.size();
      const konobi::ProofCheck check = konobi::check_proof(proof.to_text());
      if (!check.ok) bad.push_back(show(pos) + ": the proof is refused: " + check.message);
    } catch (const std::exception& e) { bad.push_back(show(pos) + ": no proof: " + e.what()); }
  }
  INFO(positions << " positions, " << hits << " zone matches, " << entries << " proof entries");
  INFO(join(bad));
  CHECK(bad.empty());
  CHECK(hits > (kSanitize ? 5u : 2000u));
}

TEST_CASE("zones: solve --zones gives the shipped 4x4 values with proofs that verify-proof accepts",
          "[solver][zones][cli]") {
  konobi_test::TempDir dir;
  const std::string out = dir / "r.json", proofs = dir / "proofs";
  const konobi_test::RunResult r = konobi_test::run_konobi(
      {"solve", "--size", "4", "--zones", "--zone-mb", "1", "--out", out, "--proof", proofs, "--quiet"},
      "timeout 600 ");
  REQUIRE(r.exited);
  REQUIRE(r.status == 0);
  const konobi::Results got = konobi::Results::from_json(konobi_test::read_all(out), out);
  const std::string shipped_path = std::string(KONOBI_SOURCE_DIR) + "/results/konobi-4x4.json";
  const konobi::Results shipped =
      konobi::Results::from_json(konobi_test::read_all(shipped_path), shipped_path);
  REQUIRE(got.openings.size() == shipped.openings.size());
  for (size_t i = 0; i < got.openings.size(); ++i) {
    INFO(got.openings[i].point);
    CHECK(got.openings[i].solved);
    CHECK(got.openings[i].winner == shipped.openings[i].winner);
  }
  std::vector<std::string> args{"verify-proof"};
  for (const auto& e : std::filesystem::directory_iterator(proofs)) args.push_back(e.path().string());
  CHECK(args.size() == 5);  // the four classes of 4x4: a1, a2, b1, b2
  const konobi_test::RunResult v = konobi_test::run_konobi(args);
  INFO(v.out << v.err);
  CHECK(v.status == 0);
}

TEST_CASE("zones: solve refuses --zone-mb without --zones, and --zones where zones do not serve",
          "[solver][zones][cli]") {
  konobi_test::TempDir dir;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"solve", "--size", "4", "--zone-mb", "8", "--out", dir / "a.json"},
        std::vector<std::string>{"solve", "--size", "4", "--zones", "--game", "gonnect", "--out",
                                 dir / "b.json"},
        std::vector<std::string>{"solve", "--size", "4", "--zones", "--zone-mb", "0", "--out",
                                 dir / "c.json"}}) {
    const konobi_test::RunResult r = konobi_test::run_konobi(args);
    INFO(r.err);
    CHECK(r.exited);
    CHECK(r.status == 2);
    CHECK(r.err.find("zone") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(args.back()));
  }
}
