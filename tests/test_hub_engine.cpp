// The hub's work off its lock: the engine's moves (answering, the pie swap,
// undo back to the human's turn, at most max_engines thinking at once),
// analysis, the shipped knowledge and puzzles (a wrong answer refuted).
// Small boards and small budgets keep them fast.
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "core/game.h"
#include "hub_harness.h"

using Catch::Contains;
using konobi::Json;
using konobi_test::HubHarness;
using konobi_test::kAnn;
using konobi_test::kBob;
using konobi_test::TempDir;

namespace {

Json read_json(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return Json::parse(s.str());
}

const std::string kResults = std::string(KONOBI_SOURCE_DIR) + "/results";

}  // namespace

TEST_CASE("hub: the engine answers, and undo goes back to the human's turn", "[hub][engine]") {
  TempDir dir;
  HubHarness h(dir.path.string());
  h.open(1);
  const std::string id = h.create(1, {{"size", 4}, {"mode", "engine"}, {"engine_seconds", 0.2}});
  const Json s0 = h.last(1, "state");
  CHECK(s0["players"][1]["kind"] == "engine");
  CHECK(s0["engine"]["thinking"] == false);
  const Json mine = h.move(1, id, "a1", 0);
  CHECK(mine["engine"]["thinking"] == true);
  REQUIRE(h.wait_for(1, [](const Json& j) { return j["type"] == "state" && j["ply"] == 2; }));
  const Json answered = h.last(1, "state");
  INFO(answered.dump());
  CHECK(answered["engine"]["thinking"] == false);
  CHECK(answered["engine"]["said"].is_string());
  CHECK(answered["to_move"] == (answered["swapped"] == true ? "white" : "black"));
  // A person may not move for the engine, and undo takes back both moves.
  const Json u = h.say(1, Json{{"type", "undo"}, {"id", id}}).back();
  CHECK(u["ply"] == 0);
  CHECK(u["engine"]["thinking"] == false);
  CHECK_THAT(h.say(1, Json{{"type", "undo"}, {"id", id}}).back()["message"].get<std::string>(),
             Contains("no move"));
}

TEST_CASE("hub: the engine moves first when it holds Black, and takes the pie", "[hub][engine]") {
  TempDir dir;
  HubHarness h(dir.path.string());
  h.open(1);
  SECTION("first move") {
    const std::string id =
        h.create(1, {{"size", 5}, {"mode", "engine"}, {"seat", "second"}, {"engine_seconds", 0.2}});
    REQUIRE(h.wait_for(1, [](const Json& j) { return j["type"] == "state" && j["ply"] == 1; }));
    CHECK(h.last(1, "state")["you"] == "second");
    CHECK(h.last(1, "state")["swap_available"] == true);
  }
  SECTION("swap: on 3x3 Black's a1 wins (results/konobi-3x3.json), so the engine takes it") {
    const std::string id = h.create(1, {{"size", 3}, {"mode", "engine"}, {"engine_seconds", 0.5}});
    h.move(1, id, "a1", 0);
    REQUIRE(h.wait_for(1, [](const Json& j) { return j["type"] == "state" && j["ply"] == 2; }));
    const Json s = h.last(1, "state");
    INFO(s.dump());
    CHECK(s["moves"].back() == "swap");
    CHECK(s["players"][0]["color"] == "white");
    CHECK(s["to_move"] == "white");  // the human, now White, moves
    CHECK(s["players"][1]["color"] == "black");
  }
}

TEST_CASE("hub: at most max_engines think at once; an undo cancels a thinking engine", "[hub][engine]") {
  TempDir dir;
  konobi::HubOptions o;
  o.max_engines = 1;
  HubHarness h(dir.path.string(), o);
  h.open(1);
  const std::string a = h.create(1, {{"size", 9}, {"mode", "engine"}, {"engine_seconds", 0.3}});
  const std::string b = h.create(1, {{"size", 9}, {"mode", "engine"}, {"engine_seconds", 0.3}});
  h.move(1, a, "e5", 0);
  h.move(1, b, "e5", 0);
  long most = 0;
  const auto answered = [&](const std::string& id) {
    return [id](const Json& j) { return j["type"] == "state" && j["id"] == id && j["ply"] == 2; };
  };
  // Sampled while both wait: never two at once.
  for (int i = 0; i < 60000 && !(h.seen(1, answered(a)) && h.seen(1, answered(b))); ++i) {
    most = std::max(most, h.hub->stats().engines_thinking);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CHECK(h.seen(1, answered(a)));
  CHECK(h.seen(1, answered(b)));
  CHECK(most <= 1);
  CHECK(h.hub->stats().engines_thinking == 0);

  // A long think, taken back at once: the state says so and no answer comes.
  const std::string c = h.create(1, {{"size", 9}, {"mode", "engine"}, {"engine_seconds", 30}});
  CHECK(h.move(1, c, "e5", 0)["engine"]["thinking"] == true);
  const Json u = h.say(1, Json{{"type", "undo"}, {"id", c}}).back();
  CHECK(u["ply"] == 0);
  CHECK(u["engine"]["thinking"] == false);
  h.restart();  // the hub waits for its workers: the cancelled search stops
  CHECK(h.hub->stats().games == 3);
}

TEST_CASE("hub: analysis values each legal move by the solver or the results", "[hub][engine]") {
  TempDir dir;
  HubHarness h(dir.path.string());
  h.open(1);
  const std::string id = h.create(1, {{"size", 4}, {"mode", "local"}});
  h.move(1, id, "b2", 0);
  h.move(1, id, "c3", 1);
  h.say(1, Json{{"type", "analyze"}, {"id", id}, {"req", 9}});
  REQUIRE(h.wait_for(1, [](const Json& j) { return j["type"] == "analysis"; }));
  const Json a = h.last(1, "analysis");
  INFO(a.dump());
  CHECK(a["req"] == 9);
  CHECK(a["ply"] == 2);
  const Json s = h.last(1, "state");
  CHECK(a["moves"].size() == s["legal"].size());
  for (const Json& m : a["moves"]) {
    CHECK(m["value"].is_string());  // 4x4 is proven within the budget
    CHECK(m["source"] == "solver");
  }
  CHECK_THAT(h.say(1, Json{{"type", "analyze"}, {"id", "nosuchgame00"}}).back()["message"].get<std::string>(),
             Contains("no game"));
}

TEST_CASE("hub: knowledge for 5x5 is results/konobi-5x5.json's", "[hub]") {
  TempDir dir;
  HubHarness h(dir.path.string());
  h.open(1);
  const Json k = h.say(1, Json{{"type", "knowledge"}, {"game", "konobi"}, {"size", 5}}).back();
  const Json file = read_json(kResults + "/konobi-5x5.json");
  REQUIRE(k["type"] == "knowledge");
  REQUIRE(k["openings"].size() == file["openings"].size());
  for (size_t i = 0; i < file["openings"].size(); ++i) {
    const Json& o = file["openings"][i];
    CHECK(k["openings"][i]["point"] == o["point"]);
    CHECK(k["openings"][i]["class"] == o["class"]);
    CHECK(k["openings"][i]["value"] == (o["winner"] == "black" ? "win" : "loss"));
  }
  CHECK(k["empty_board"] == file["empty_board"]["winner"]);
  CHECK(k["pie"]["black_wins"] == file["pie"]["openings_black_wins"]);
  CHECK(k["pie"]["white_wins"] == file["pie"]["openings_white_wins"]);
  const Json g = h.say(1, Json{{"type", "knowledge"}, {"game", "gonnect"}, {"size", 4}}).back();
  CHECK(g["openings"].size() == 16);
  CHECK_THAT(h.say(1, Json{{"type", "knowledge"}, {"game", "gonnect"}, {"size", 4}, {"ko", "simple"}})
                 .back()["message"]
                 .get<std::string>(),
             Contains("superko"));
}

TEST_CASE("hub: puzzles load, a right answer is answered, a wrong one refuted", "[hub][engine]") {
  TempDir dir;
  HubHarness h(dir.path.string());
  h.open(1);
  const Json file = read_json(kResults + "/puzzles-5x5.json");
  const Json list = h.say(1, Json{{"type", "puzzles"}, {"size", 5}}).back();
  REQUIRE(list["puzzles"].size() == file["puzzles"].size());
  CHECK(list["puzzles"][0]["position"] == file["puzzles"][0]["position"]);
  CHECK(list["puzzles"][0]["remoteness"] == file["puzzles"][0]["remoteness"]);

  // Puzzle 0: White's one winning move is d3.
  const Json p = file["puzzles"][0];
  REQUIRE(p["solution"] == "d3");
  h.say(1, Json{{"type", "puzzle_move"}, {"size", 5}, {"index", 0}, {"moves", {"d3"}}, {"req", 1}});
  REQUIRE(h.wait_for(1, [](const Json& j) { return j["type"] == "puzzle_reply" && j["req"] == 1; }));
  const Json right = h.last(1, "puzzle_reply");
  INFO(right.dump());
  CHECK(right["correct"] == true);
  CHECK(right["reply"].is_string());

  // Any other legal move loses: the reply is Black's winning line from there.
  auto game = konobi::Game<konobi::KonobiRules, 1>(
      konobi::from_text<1>(konobi::parse_position(p["position"].get<std::string>())));
  std::string wrong;
  game.placements().for_each([&](int q) {
    if (wrong.empty() && konobi::point_name(5, q) != "d3") wrong = konobi::point_name(5, q);
  });
  REQUIRE_FALSE(wrong.empty());
  h.say(1, Json{{"type", "puzzle_move"}, {"size", 5}, {"index", 0}, {"moves", {wrong}}, {"req", 2}});
  REQUIRE(h.wait_for(1, [](const Json& j) { return j["type"] == "puzzle_reply" && j["req"] == 2; }));
  const Json refuted = h.last(1, "puzzle_reply");
  INFO(refuted.dump());
  CHECK(refuted["correct"] == false);
  REQUIRE_FALSE(refuted["refutation"].empty());
  game.play(konobi::parse_point(5, wrong));
  CHECK(game.why_illegal(konobi::parse_move(5, refuted["refutation"][0].get<std::string>())) == "");

  // Bad puzzle messages are errors at once.
  CHECK_THAT(h.say(1, Json{{"type", "puzzle_move"}, {"size", 5}, {"index", 999}, {"moves", {"d3"}}})
                 .back()["message"]
                 .get<std::string>(),
             Contains("index 999"));
  CHECK_THAT(h.say(1, Json{{"type", "puzzle_move"}, {"size", 5}, {"index", 0}, {"moves", {"d5"}}})
                 .back()["message"]
                 .get<std::string>(),
             Contains("occupied"));
}
