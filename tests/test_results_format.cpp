// Results files: a round trip, and corrupt files refused.
#include <catch2/catch.hpp>

#include "solver_support.h"

using Catch::Contains;
using namespace solver_test;

namespace {

konobi::Results sample_results() {
  konobi::Results r;
  r.size = 3;
  r.provenance.program = "konobi test";
  r.provenance.command = "konobi solve --size 3";
  r.provenance.threads = 2;
  r.provenance.tt_mb = 0.5;
  r.provenance.simulation = 16;
  r.provenance.must_play = 1;
  r.seconds = 1.25;
  r.nodes = 1234;
  for (int p = 0; p < 9; ++p) {
    konobi::OpeningResult o;
    o.point = konobi::point_name(3, p);
    o.representative = konobi::point_name(3, konobi::opening_representative(konobi::Geometry<1>::get(3), p));
    o.solved = p % 3 != 2;
    if (o.solved) {
      o.winner = p == 4 ? "black" : "white";
      o.continuation = {"b2", "pass", "a1"};
      o.nodes = 10 + p;
      o.proof_size = 5;
      o.seconds = 0.5;
    } else if (p == 2) {  // searched and stopped: its effort is kept
      o.nodes = 70000;
      o.seconds = 12.5;
      o.pn = 35;
      o.dn = 226;
    }
    r.openings.push_back(o);
  }
  return r;
}

}  // namespace

TEST_CASE("results files survive a round trip", "[solver]") {
  const konobi::Results r = sample_results();
  const std::string json = r.to_json();
  const konobi::Results back = konobi::Results::from_json(json, "test");
  CHECK(back.size == 3);
  CHECK(back.game == "konobi");
  CHECK(back.nodes == r.nodes);
  CHECK(back.seconds == Approx(r.seconds));
  CHECK(back.provenance.threads == 2);
  CHECK(back.provenance.tt_mb == Approx(0.5));
  CHECK(back.provenance.command == r.provenance.command);
  CHECK(back.provenance.simulation == r.provenance.simulation);
  REQUIRE(back.openings.size() == 9);
  for (int p = 0; p < 9; ++p) {
    INFO("opening " << p);
    CHECK(back.openings[p].point == r.openings[p].point);
    CHECK(back.openings[p].representative == r.openings[p].representative);
    CHECK(back.openings[p].solved == r.openings[p].solved);
    CHECK(back.openings[p].winner == r.openings[p].winner);
    CHECK(back.openings[p].continuation == r.openings[p].continuation);
    CHECK(back.openings[p].nodes == r.openings[p].nodes);
    CHECK(back.openings[p].seconds == Approx(r.openings[p].seconds));
    CHECK(back.openings[p].pn == r.openings[p].pn);
    CHECK(back.openings[p].dn == r.openings[p].dn);
  }
  // An unsolved class that was never searched has no effort fields.
  CHECK(back.openings[5].nodes == 0);
  CHECK(back.openings[2].nodes == 70000);
  CHECK_FALSE(back.complete());
  CHECK(back.empty_board_winner() == "black");
  CHECK(back.to_json() == json);
  // Files written before replays existed have no "simulation": they read as 0.
  std::string old = json;
  const size_t at = old.find("\"simulation\"");
  REQUIRE(at != std::string::npos);
  const size_t from = old.rfind(',', at), to = old.find_first_of(",}", at);
  old.erase(from, to - from);
  CHECK(konobi::Results::from_json(old, "old.json").provenance.simulation == 0);
  // Nor have files from before must-play regions "must_play": 0, none.
  CHECK(back.provenance.must_play == r.provenance.must_play);
  old = json;
  const size_t mp = old.find("\"must_play\"");
  REQUIRE(mp != std::string::npos);
  old.erase(old.rfind(',', mp), old.find_first_of(",}", mp) - old.rfind(',', mp));
  CHECK(konobi::Results::from_json(old, "old.json").provenance.must_play == 0);
}

TEST_CASE("corrupt results files are refused", "[solver]") {
  const std::string json = sample_results().to_json();
  SECTION("not JSON") {
    CHECK_THROWS_AS(konobi::Results::from_json("this is not json", "x.json"), std::runtime_error);
    CHECK_THROWS_AS(konobi::Results::from_json("", "x.json"), std::runtime_error);
    CHECK_THROWS_AS(konobi::Results::from_json(std::string("\0\1\2garbage", 10), "x.json"),
                    std::runtime_error);
  }
  SECTION("truncated") {
    for (size_t cut : {json.size() / 3, json.size() / 2, json.size() - 2}) {
      INFO("cut at " << cut);
      CHECK_THROWS_AS(konobi::Results::from_json(json.substr(0, cut), "x.json"), std::runtime_error);
    }
  }
  SECTION("wrong schema") {
    std::string bad = json;
    const size_t at = bad.find("konobi-results/1");
    REQUIRE(at != std::string::npos);
    bad.replace(at, 16, "konobi-results/9");
    CHECK_THROWS_WITH(konobi::Results::from_json(bad, "x.json"), Contains("x.json") && Contains("schema"));
  }
  SECTION("trailing garbage") {
    CHECK_THROWS_AS(konobi::Results::from_json(json + "}", "x.json"), std::runtime_error);
  }
  SECTION("a bad winner") {
    std::string bad = json;
    const size_t at = bad.find("\"winner\": \"white\"", bad.find("\"openings\": ["));
    REQUIRE(at != std::string::npos);
    bad.replace(at, 17, "\"winner\": \"grey\"");
    CHECK_THROWS_WITH(konobi::Results::from_json(bad, "x.json"), Contains("grey"));
  }
  SECTION("a negative count") {
    for (const char* field : {"\"nodes\": 70000", "\"pn\": 35", "\"proof_size\": 5"}) {
      std::string bad = json;
      const size_t at = bad.find(field);
      REQUIRE(at != std::string::npos);
      const size_t colon = bad.find(':', at);
      bad.insert(colon + 2, "-");
      INFO(bad.substr(at, 20));
      CHECK_THROWS_WITH(konobi::Results::from_json(bad, "x.json"), Contains("negative"));
    }
  }
  SECTION("the wrong number of openings") {
    konobi::Results r = sample_results();
    r.openings.pop_back();
    CHECK_THROWS_WITH(konobi::Results::from_json(r.to_json(), "x.json"), Contains("openings"));
  }
  SECTION("the message names the file") {
    CHECK_THROWS_WITH(konobi::Results::from_json("{", "results/konobi-5x5.json"),
                      Contains("results/konobi-5x5.json"));
  }
}
