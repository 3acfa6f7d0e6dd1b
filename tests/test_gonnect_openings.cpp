// Opening classes (core/openings.h): Gonnect with either edges groups
// Black's first stones under all 8 symmetries, since a transpose keeps its
// rules and colours; Konobi and Gonnect with own edges under the 4 that keep
// the colours. The results check (solver/io/results_check.h) refuses files
// that break the classes, and re-groups files written under the old rule.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/gonnect.h"
#include "core/notation.h"
#include "core/openings.h"
#include "solver/io/json.h"
#include "solver/io/results.h"
#include "solver/search/parallel_dfpn.h"
#include "tests/support.h"

using namespace konobi;
using Catch::Matchers::Contains;

namespace {

#ifdef KONOBI_SANITIZE_BUILD
constexpr bool kSanitize = true;
#else
constexpr bool kSanitize = false;
#endif

using State = GonnectState<1>;

State opening(int n, int p) {
  GonnectVariant v;
  State s = GonnectRules::start(Position<1>::empty(gonnect_geometry<1>(n, v)), v);
  GonnectRules::play(s, p);
  s.pos.swap_available = false;
  return s;
}

// Whether White (to move) wins after Black's opening at p: strict history
// keys, so the table never looks at a transposed position.
bool white_wins(int n, int p) {
  GonnectSearch::merge_before_capture = false;
  TranspositionTable tt(16);
  DfpnOptions opt;
  opt.max_nodes = 5'000'000;  // a safety net: a 4x4 opening takes at most 200 k
  return solve_game_position<GonnectSearch, 1>(opening(n, p), tt, opt, 1, nullptr).mover_wins;
}

// The class of (x, y) worked out on coordinates: the least point of its
// images under the mirrors and half turn, and the transposes when allowed.
int expected_class(int n, int p, bool transposes) {
  const int x = p % n, y = p / n;
  int best = p;
  for (int mx : {0, 1})
    for (int my : {0, 1})
      for (int t : {0, 1}) {
        if (t && !transposes) continue;
        int a = mx ? n - 1 - x : x, b = my ? n - 1 - y : y;
        if (t) std::swap(a, b);
        best = std::min(best, b * n + a);
      }
  return best;
}

Results parse(const std::string& text) { return Results::from_json(text, "test.json"); }

// A 5x5 Gonnect file as the old rule grouped it: only b1's class (b1, d1,
// b5, d5) solved, from a line written for b1; c1 and a3 searched apart.
Results old_5x5() {
  Results r;
  r.game = "gonnect";
  r.size = 5;
  r.ko_rule = "superko";
  r.edges = "either";
  r.ghi = "strict";
  const Geometry<1>& old = Geometry<1>::get(5, true);
  const std::vector<std::string> line = {"a2", "b2", "b3", "c2", "a1"};
  for (int p = 0; p < 25; ++p) {
    OpeningResult o;
    o.point = point_name(5, p);
    const int rep = opening_representative(old, p);
    o.representative = point_name(5, rep);
    if (rep == parse_point(5, "b1")) {
      o.solved = true;
      o.winner = "black";
      const int s = opening_symmetry_between(old, rep, p);
      for (const auto& m : line) o.continuation.push_back(point_name(5, old.sym[s][parse_point(5, m)]));
      o.nodes = 1000;
      o.proof_size = 10;
      o.seconds = 1;
    } else if (rep == parse_point(5, "c1") || rep == parse_point(5, "a3")) {
      o.nodes = rep == parse_point(5, "c1") ? 500 : 300;
      o.seconds = 2;
      o.pn = rep == parse_point(5, "c1") ? 7 : 9;
      o.dn = 3;
    }
    r.openings.push_back(o);
  }
  return r;
}

}  // namespace

TEST_CASE("gonnect openings: the class of every point, 3x3 to 6x6, both edge rules and Konobi",
          "[gonnect][openings]") {
  for (int n = 3; n <= 6; ++n) {
    for (EdgeRule edges : {EdgeRule::Either, EdgeRule::Own}) {
      GonnectVariant v;
      v.edges = edges;
      const Geometry<1>& g = gonnect_geometry<1>(n, v);
      const bool transposes = edges == EdgeRule::Either;
      INFO(n << "x" << n << " edges " << edge_rule_name(edges));
      CHECK(&opening_geometry(n, "gonnect", edge_rule_name(edges)) == &g);
      std::set<int> reps;
      for (int p = 0; p < g.cells; ++p) {
        const int rep = opening_representative(g, p);
        INFO(point_name(n, p));
        CHECK(rep == expected_class(n, p, transposes));
        reps.insert(rep);
        // The symmetry from the representative reaches the point, keeps the
        // colours, and is a transpose only where transposes are allowed.
        const int s = opening_symmetry_between(g, rep, p);
        REQUIRE(s >= 0);
        CHECK(g.sym[s][rep] == p);
        CHECK(!g.swaps_colors(s));
        const std::vector<int> cls = opening_class_points(g, rep);
        CHECK(std::find(cls.begin(), cls.end(), p) != cls.end());
      }
      CHECK(std::vector<int>(reps.begin(), reps.end()) == opening_classes(g));
      // ceil(n/2)^2 classes under the mirrors; m(m+1)/2 with m = ceil(n/2)
      // once the diagonal folds too.
      const int m = (n + 1) / 2;
      CHECK(int(reps.size()) == (transposes ? m * (m + 1) / 2 : m * m));
    }
    // Konobi keeps the 4 colour-keeping symmetries.
    const Geometry<1>& k = opening_geometry(n, "konobi", "");
    CHECK(&k == &Geometry<1>::get(n));
    for (int p = 0; p < k.cells; ++p) CHECK(opening_representative(k, p) == expected_class(n, p, false));
  }
  // The cases of the issue, by name.
  const Geometry<1>& g5 = opening_geometry(5, "gonnect", "either");
  auto rep5 = [&](const char* p) { return point_name(5, opening_representative(g5, parse_point(5, p))); };
  CHECK(rep5("a2") == "b1");
  CHECK(rep5("e4") == "b1");
  CHECK(rep5("a3") == "c1");
  CHECK(rep5("b3") == "c2");
  CHECK(rep5("c3") == "c3");
  CHECK(opening_class_points(g5, parse_point(5, "b1")).size() == 8);
  CHECK(opening_classes(opening_geometry(4, "gonnect", "either")).size() == 3);
  CHECK_THROWS_WITH(opening_geometry(5, "gonnect", "sideways"), Contains("edges 'sideways'"));
  CHECK_THROWS_WITH(opening_geometry(5, "hex", ""), Contains("game 'hex'"));
  CHECK_THROWS_WITH(opening_geometry(9, "konobi", ""), Contains("size 9"));
}

TEST_CASE("gonnect openings: every 4x4 opening has the value of its transposed opening, both solved",
          "[gonnect][openings][solver]") {
  const Geometry<1>& g = gonnect_geometry<1>(4, GonnectVariant{});
  int pairs = 0;
  for (int p = 0; p < 16; ++p) {
    const int t = g.sym[4][p];  // rows and columns swapped
    if (t <= p) continue;       // each pair once; the diagonal maps to itself
    if (kSanitize && pairs > 0) break;
    INFO(point_name(4, p) << " and " << point_name(4, t));
    CHECK(white_wins(4, p) == white_wins(4, t));
    ++pairs;
  }
  CHECK(pairs == (kSanitize ? 1 : 6));
}

TEST_CASE("gonnect openings: results files that break the classes are refused",
          "[gonnect][openings][results]") {
  const std::string shipped =
      konobi_test::read_all(std::string(KONOBI_SOURCE_DIR) + "/results/gonnect-4x4.json");
  const Results good = parse(shipped);
  REQUIRE(good.openings.size() == 16);
  auto refused = [&](Results r) {
    try {
      parse(r.to_json());
    } catch (const std::runtime_error& e) { return std::string(e.what()); }
    return std::string("accepted");
  };

  SECTION("two openings swapped") {
    Results r = good;
    std::swap(r.openings[1], r.openings[2]);
    CHECK_THAT(refused(r), Contains("openings[1].point is c1, expected b1") && Contains("point order"));
  }
  SECTION("a point name that is no point") {
    Results r = good;
    r.openings[3].point = "z9";
    CHECK_THAT(refused(r), Contains("openings[3].point is 'z9'") && Contains("expected d1"));
  }
  SECTION("a class that is not the representative") {
    Results r = good;
    r.openings[4].representative = "a2";  // a2's class is b1 under all 8 symmetries
    CHECK_THAT(refused(r), Contains("openings[4].class is 'a2'") && Contains("is b1"));
  }
  SECTION("values that differ within a class") {
    Results r = good;
    r.openings[4].winner = "white";  // a2 against b1, its transpose
    CHECK_THAT(refused(r), Contains("openings[4].winner is white for a2") && Contains("black for b1"));
  }
  SECTION("a Konobi file may not group by transposes") {
    const Results k =
        parse(konobi_test::read_all(std::string(KONOBI_SOURCE_DIR) + "/results/konobi-4x4.json"));
    Results r = k;
    r.openings[4].representative = "b1";
    CHECK_THAT(refused(r), Contains("openings[4].class is 'b1'") && Contains("4 symmetries"));
  }
  SECTION("a continuation move that is not a move") {
    Results r = good;
    r.openings[0].continuation.push_back("q7");
    // (the loader's own check, which names the move's place in the line)
    CHECK_THAT(refused(r), Contains("openings[0].continuation[") && Contains("'q7' is off the 4x4 board"));
  }
  CHECK(refused(good) == "accepted");
}

TEST_CASE("gonnect openings: a file grouped by the old rule is read re-grouped",
          "[gonnect][openings][results]") {
  const Results before = old_5x5();
  const Results r = parse(before.to_json());
  const Geometry<1>& g = opening_geometry(5, "gonnect", "either");
  const int b1 = parse_point(5, "b1");
  for (int p = 0; p < 25; ++p) {
    const OpeningResult& o = r.openings[p];
    INFO(o.point);
    CHECK(o.point == point_name(5, p));
    CHECK(o.representative == point_name(5, opening_representative(g, p)));
    CHECK(o.solved == (opening_representative(g, p) == b1));
  }
  // a2 was not solved before: it takes b1's result, its line turned over by
  // the transpose (the colours stay: a transpose keeps them in this game).
  const OpeningResult& a2 = r.openings[parse_point(5, "a2")];
  CHECK(a2.winner == "black");
  CHECK(a2.continuation == std::vector<std::string>{"b1", "b2", "c2", "b3", "a1"});
  CHECK(a2.nodes == 1000);
  // The line is a game: every move legal after a2, as b1's is after b1.
  State s = opening(5, parse_point(5, "a2"));
  for (const auto& m : a2.continuation) {
    REQUIRE(GonnectRules::placements(s).test(parse_point(5, m)));
    GonnectRules::play(s, parse_point(5, m));
  }
  // c1 and a3 were two classes searched apart: one class now, with both
  // efforts and the representative's proof numbers.
  for (const char* p : {"c1", "a3", "e3", "c5"}) {
    const OpeningResult& o = r.openings[parse_point(5, p)];
    INFO(p);
    CHECK(o.representative == "c1");
    CHECK(!o.solved);
    CHECK(o.nodes == 800);
    CHECK(o.seconds == 4);
    CHECK(o.pn == 7);
  }
  // Read again, the re-grouped file is unchanged.
  CHECK(parse(r.to_json()).to_json() == r.to_json());

  // A mixture of the two groupings is refused.
  Results mixed = before;
  mixed.openings[parse_point(5, "e4")].representative = "b1";
  CHECK_THROWS_WITH(parse(mixed.to_json()), Contains("openings[5].class is 'a2'"));
  // And the old rule's classes are not accepted for Gonnect with own edges.
  Results own = before;
  own.edges = "own";
  own.openings[parse_point(5, "a2")].representative = "b1";
  CHECK_THROWS_WITH(parse(own.to_json()), Contains("openings[5].class is 'b1'"));
}

TEST_CASE("gonnect openings: solve --resume re-groups an old file and keeps what it proved",
          "[gonnect][openings][cli]") {
  konobi_test::TempDir dir;
  const std::string out = dir / "g5.json";
  Results old = old_5x5();
  old.nodes = 4321;
  {
    std::ofstream f(out);
    f << old.to_json();
  }
  // Only b1's class asked for, and it is proven: nothing is searched.
  const auto r =
      konobi_test::run_konobi({"solve", "--game", "gonnect", "--size", "5", "--threads", "1", "--tt-mb", "1",
                               "-q", "--resume", "--openings", "b1", "--out", out});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const Json j = parse_json(konobi_test::read_all(out));
  CHECK(j["nodes"].get<long long>() == 4321);
  std::set<std::string> classes, solved;
  for (const Json& o : j["openings"]) {
    classes.insert(o["class"].get<std::string>());
    if (o["solved"].get<bool>()) solved.insert(o["point"].get<std::string>());
  }
  CHECK(classes == std::set<std::string>{"a1", "b1", "c1", "b2", "c2", "c3"});
  CHECK(solved == std::set<std::string>{"b1", "d1", "a2", "e2", "a4", "e4", "b5", "d5"});
}

TEST_CASE("gonnect openings: solve writes each point's line turned by the symmetry from its class's point",
          "[gonnect][openings][cli]") {
  // On 3x3, c2 is b1 under a quarter turn, whose inverse is the other one:
  // mapping by the symmetry from c2 back to b1 would write a2's line.
  konobi_test::TempDir dir;
  const std::string out = dir / "g3.json";
  const auto r = konobi_test::run_konobi(
      {"solve", "--game", "gonnect", "--size", "3", "--threads", "1", "--tt-mb", "8", "-q", "--out", out});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const Results res = parse(konobi_test::read_all(out));
  int turned = 0;
  for (const OpeningResult& o : res.openings) {
    const OpeningResult& rep = res.openings[parse_point(3, o.representative)];
    REQUIRE(o.solved);
    REQUIRE(o.continuation.size() == rep.continuation.size());
    // Some symmetry on coordinates takes the class's point and its whole line
    // to this point and its line.
    bool found = false;
    for (int sym = 0; sym < 8 && !found; ++sym) {
      auto map = [&](const std::string& name) {
        const int p = parse_point(3, name);
        int x = p % 3, y = p / 3;
        if (sym & 1) x = 2 - x;
        if (sym & 2) y = 2 - y;
        if (sym & 4) std::swap(x, y);
        return point_name(3, y * 3 + x);
      };
      bool all = map(rep.point) == o.point;
      for (size_t i = 0; all && i < o.continuation.size(); ++i)
        all = map(rep.continuation[i]) == o.continuation[i];
      found = all;
    }
    INFO(o.point << " in the class of " << o.representative);
    CHECK(found);
    turned += o.point != o.representative;
  }
  CHECK(turned == 6);
}

TEST_CASE("gonnect openings: the shipped files have one proof per solved class, and no other",
          "[gonnect][openings][shipped]") {
  namespace fs = std::filesystem;
  const fs::path results = fs::path(KONOBI_SOURCE_DIR) / "results";
  for (int n : {3, 4, 5}) {
    const std::string nn = std::to_string(n) + "x" + std::to_string(n);
    const Results r = parse(konobi_test::read_all((results / ("gonnect-" + nn + ".json")).string()));
    std::set<std::string> want, have;
    for (const OpeningResult& o : r.openings) {
      if (!o.solved || o.point != o.representative) continue;
      want.insert("gonnect-" + nn + "-" + o.point + ".proof.xz");
      // The header names the start and the winner: the first lines suffice.
      const std::string head = konobi_test::decompress(
          results / ("proofs-gonnect-" + nn) / ("gonnect-" + nn + "-" + o.point + ".proof.xz"), 256);
      INFO(nn << " " << o.point);
      CHECK_THAT(head, Contains("\nstart " + o.point + "\nwinner " + o.winner + "\nentries " +
                                std::to_string(o.proof_size) + "\n"));
    }
    for (const auto& e : fs::directory_iterator(results / ("proofs-gonnect-" + nn)))
      have.insert(e.path().filename());
    CHECK(have == want);
  }
}
