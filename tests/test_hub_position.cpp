// Games set up from a position (create's `position`): the core reads the
// position and refuses a bad or finished one before anything is stored; the
// start travels in every state, survives a restart, and heads the record.
#include <string>

#include "hub_harness.h"

using Catch::Contains;
using konobi::Json;
using konobi_test::HubHarness;
using konobi_test::kAnn;
using konobi_test::TempDir;

TEST_CASE("hub: a local game from a position string", "[hub]") {
  TempDir dir;
  HubHarness h(dir.path.string());
  h.open(1);
  const std::string start = ".../.B./... w";
  // Written as docs/NOTATION.md also allows (X for Black), kept as the core writes it.
  const std::string id = h.create(1, {{"size", 3}, {"mode", "local"}, {"position", ".../.X./... W"}});
  Json s = h.last(1, "state");
  CHECK(s["start"] == start);
  CHECK(s["position"] == start);
  CHECK(s["to_move"] == "white");
  CHECK(s["ply"] == 0);
  CHECK(s["moves"].empty());

  CHECK(h.move(1, id, "a1", 0)["ply"] == 1);
  CHECK(h.last(1, "state")["position"] == ".../.B./W.. b");

  // A restart replays the game from its start.
  h.restart();
  h.open(2);
  const std::vector<Json> joined = h.say(2, Json{{"type", "join"}, {"id", id}, {"player", kAnn}});
  REQUIRE(!joined.empty());
  s = joined.back();
  CHECK(s["start"] == start);
  CHECK(s["position"] == ".../.B./W.. b");
  CHECK(s["you"] == "both");

  h.say(2, Json{{"type", "resign"}, {"id", id}});
  const std::string rec = h.hub->record(id).value();
  CHECK_THAT(rec, Contains("Position: " + start + "\n"));
  CHECK_THAT(rec, Contains("\n\na1\n"));
}

TEST_CASE("hub: a bad or finished start position is refused and nothing is made", "[hub]") {
  TempDir dir;
  HubHarness h(dir.path.string());
  h.open(1);
  const auto refused = [&](const std::string& position) {
    const std::vector<Json> r = h.say(1, Json{{"type", "create"},
                                              {"game", "konobi"},
                                              {"size", 3},
                                              {"mode", "local"},
                                              {"player", kAnn},
                                              {"position", position}});
    INFO(Json(r).dump());
    REQUIRE(r.size() == 1);
    CHECK(r[0]["type"] == "error");
    return r[0]["message"].get<std::string>();
  };
  CHECK_THAT(refused("..../..../..../.... b"), Contains("position: the position is 4x4, not 3x3"));
  CHECK_THAT(refused("B../B../B.. w"), Contains("already over"));
  CHECK_THAT(refused(".../.Q./... b"), Contains("position:"));
  CHECK(h.hub->stats().games == 0);
  CHECK(h.last(1, "state") == nullptr);
}

TEST_CASE("hub: undo in an engine game set up from a position goes back to the human's turn",
          "[hub][engine]") {
  TempDir dir;
  HubHarness h(dir.path.string());
  h.open(1);
  // White to move: the engine (second seat, White) moves first.
  const std::string id = h.create(
      1, {{"size", 4}, {"mode", "engine"}, {"engine_seconds", 0.2}, {"position", "..../..../.B../.... w"}});
  REQUIRE(h.wait_for(1, [](const Json& j) { return j["type"] == "state" && j["ply"] == 1; }));
  const Json mine = h.last(1, "state");
  REQUIRE(mine["to_move"] == "black");
  h.move(1, id, mine["legal"][0].get<std::string>(), 1);
  REQUIRE(h.wait_for(1, [](const Json& j) { return j["type"] == "state" && j["ply"] == 3; }));
  // Back to before the human's move: the engine's first move stays.
  const Json u = h.say(1, Json{{"type", "undo"}, {"id", id}}).back();
  INFO(u.dump());
  CHECK(u["ply"] == 1);
  CHECK(u["to_move"] == "black");
  CHECK(u["engine"]["thinking"] == false);
}
