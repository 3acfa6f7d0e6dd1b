// The hub through its protocol (docs/SERVER.md), with fake connections: a
// whole game between two players, the checks on every move (the core's
// reasons, the wrong player, a stale ply, watchers), the pie swap, forced
// passes, the winning chain, Gonnect's captures, suicide and ko, undo,
// reconnection to the same seat, and bad messages answered with an error
// that changes nothing.
#include <string>

#include "core/game.h"
#include "hub_harness.h"

using Catch::Contains;
using konobi::Json;
using konobi_test::HubHarness;
using konobi_test::kAnn;
using konobi_test::kBob;
using konobi_test::kCat;
using konobi_test::TempDir;

namespace {

std::vector<std::string> names(const Json& list) {
  std::vector<std::string> v;
  for (const Json& x : list) v.push_back(x.get<std::string>());
  return v;
}

}  // namespace

TEST_CASE("hub: a whole online game between two connections", "[hub]") {
  TempDir dir;
  HubHarness h(dir.path.string());
  h.open(1);
  h.open(2);
  h.open(3);
  const std::string id = h.create(1, {{"size", 3}, {"mode", "online"}, {"name", "Ann"}});
  const Json s0 = h.last(1, "state");
  CHECK(s0["you"] == "first");
  CHECK(s0["ply"] == 0);
  CHECK(s0["to_move"] == "black");
  CHECK(s0["players"][1]["free"] == true);

  const std::vector<Json> joined =
      h.say(2, Json{{"type", "join"}, {"id", id}, {"player", kBob}, {"name", "Bob"}, {"req", 5}});
  REQUIRE(joined.size() == 1);
  CHECK(joined[0]["type"] == "state");
  CHECK(joined[0]["req"] == 5);
  CHECK(joined[0]["you"] == "second");
  CHECK(joined[0]["players"][1]["name"] == "Bob");
  CHECK(joined[0]["players"][1]["connected"] == true);
  CHECK(h.last(1, "state")["players"][1]["name"] == "Bob");  // Ann sees Bob arrive
  const std::vector<Json> watched = h.say(3, Json{{"type", "join"}, {"id", id}, {"player", kCat}});
  CHECK(watched.back()["you"] == "watcher");

  SECTION("moves out of turn, stale, or from a watcher change nothing") {
    CHECK_THAT(h.move(2, id, "b2", 0)["message"].get<std::string>(), Contains("not your turn"));
    CHECK_THAT(h.move(1, id, "b2", 1)["message"].get<std::string>(), Contains("moved on"));
    CHECK_THAT(h.move(3, id, "b2", 0)["message"].get<std::string>(), Contains("watch"));
    CHECK(h.last(1, "state")["ply"] == 0);
    CHECK(h.move(1, id, "b2", 0)["ply"] == 1);
  }

  SECTION("Black joins top and bottom: winner, reason, winning chain, record") {
    const char* moves[] = {"b1", "a1", "b2", "a3", "b3"};
    for (int i = 0; i < 5; ++i) {
      const Json s = h.move(i % 2 == 0 ? 1 : 2, id, moves[i], i);
      INFO(s.dump());
      REQUIRE(s["type"] == "state");
      CHECK(s["ply"] == i + 1);
      CHECK(s["last_move"] == moves[i]);
    }
    for (int c : {1, 2, 3}) {
      const Json s = h.last(c, "state");
      CHECK(s["ply"] == 5);
      CHECK(s["winner"] == "black");
      CHECK(s["reason"] == "connection");
      CHECK(s["to_move"] == "none");
      CHECK(s["legal"].empty());
      CHECK(names(s["winning_chain"]) == std::vector<std::string>{"b1", "b2", "b3"});
    }
    CHECK_THAT(h.move(2, id, "c1", 5)["message"].get<std::string>(), Contains("over"));
    const std::optional<std::string> rec = h.hub->record(id);
    REQUIRE(rec);
    CHECK_THAT(*rec,
               Contains("Game: konobi\nSize: 3\nBlack: Ann\nWhite: Bob\nResult: Black wins by connection\n"));
    // The last line is a record that the notation's parser reads back.
    const std::string last = rec->substr(rec->rfind('\n', rec->size() - 2) + 1);
    CHECK(konobi::format_record(3, konobi::parse_record(3, last)) == "b1 a1 b2 a3 b3");
    CHECK(h.hub->stats().games == 0);
    CHECK(h.hub->stats().moves == 5);
  }
  CHECK_FALSE(h.hub->record("nosuchgame"));
}

TEST_CASE("hub: an illegal move gets the core's reason and changes nothing", "[hub]") {
  TempDir dir;
  HubHarness h(dir.path.string());
  h.open(1);
  const std::string id = h.create(1, {{"size", 4}, {"mode", "local"}});
  h.move(1, id, "a2", 0);
  const Json before = h.move(1, id, "c3", 1);
  CHECK(before["you"] == "both");
  // The state lists b1 with the reason show --json gives and show's sentence.
  bool listed = false;
  for (const Json& x : before["illegal"])
    if (x["point"] == "b1") {
      listed = true;
      CHECK(x["reason"] == "weak-connection");
      CHECK(x["stone"] == "a2");
      CHECK(x["alternative"] == "a1");
      CHECK_THAT(x["text"].get<std::string>(), Contains("b1 would weakly connect to a2"));
    }
  CHECK(listed);
  auto game = konobi::Game<konobi::KonobiRules, 1>::new_game(4);
  game.play_record(konobi::parse_record(4, "a2 c3"));
  const std::string why = game.why_illegal(konobi::parse_point(4, "b1"));
  REQUIRE_FALSE(why.empty());
  const size_t seen = h.count(1);
  const Json err = h.move(1, id, "b1", 2);
  CHECK(err["type"] == "error");
  CHECK(err["message"] == why);
  CHECK(h.count(1) == seen + 1);  // the error alone
  const Json off = h.move(1, id, "e9", 2);
  CHECK(off["type"] == "error");
  CHECK_THAT(off["message"].get<std::string>(), Contains("e9"));
  CHECK(h.say(1, Json{{"type", "join"}, {"id", id}, {"player", kAnn}}).back()["ply"] == 2);
}

TEST_CASE("hub: the pie swap gives the first player White", "[hub]") {
  TempDir dir;
  HubHarness h(dir.path.string());
  h.open(1);
  h.open(2);
  const std::string id = h.create(1, {{"size", 5}, {"mode", "online"}});
  h.say(2, Json{{"type", "join"}, {"id", id}, {"player", kBob}});
  CHECK(h.move(1, id, "c3", 0)["swap_available"] == true);
  const Json s = h.move(2, id, "swap", 1);
  INFO(s.dump());
  CHECK(s["swapped"] == true);
  CHECK(s["to_move"] == "white");
  CHECK(s["players"][0]["color"] == "white");
  CHECK(s["players"][1]["color"] == "black");
  // White, now the first player, is to move: Bob may not, Ann may.
  CHECK_THAT(h.move(2, id, "b2", 2)["message"].get<std::string>(), Contains("not your turn"));
  CHECK(h.move(1, id, "b2", 2)["ply"] == 3);
}

TEST_CASE("hub: the server plays a forced pass and announces it; undo takes it back with the move", "[hub]") {
  TempDir dir;
  HubHarness h(dir.path.string());
  h.open(1);
  const std::string id = h.create(1, {{"size", 4}, {"mode", "local"}});
  const std::vector<std::string> record = {"c3", "a3", "a1", "b1", "a4", "d4", "d1",
                                           "d3", "a2", "d2", "c4", "c2", "c1", "b4"};
  Json s;
  for (size_t i = 0; i < record.size(); ++i) s = h.move(1, id, record[i], long(i));
  INFO(s.dump());
  CHECK(s["ply"] == 15);
  CHECK(s["moves"].back() == "pass");
  CHECK(s["to_move"] == "white");
  CHECK(names(s["events"]) == std::vector<std::string>{"Black has no legal placement and passes"});
  const Json u = h.say(1, Json{{"type", "undo"}, {"id", id}}).back();
  CHECK(u["ply"] == 13);
  CHECK(u["to_move"] == "white");
  CHECK(h.say(1, Json{{"type", "undo"}, {"id", id}}).back()["ply"] == 12);
}

TEST_CASE("hub: local undo back to the start, and not in online games", "[hub]") {
  TempDir dir;
  HubHarness h(dir.path.string());
  h.open(1);
  const std::string id = h.create(1, {{"size", 5}, {"mode", "local"}});
  h.move(1, id, "c3", 0);
  h.move(1, id, "b2", 1);
  const Json undo = {{"type", "undo"}, {"id", id}};
  CHECK(h.say(1, undo).back()["ply"] == 1);
  CHECK(h.say(1, undo).back()["ply"] == 0);
  CHECK_THAT(h.say(1, undo).back()["message"].get<std::string>(), Contains("no move"));
  const std::string online = h.create(1, {{"size", 5}, {"mode", "online"}});
  h.move(1, online, "c3", 0);
  CHECK_THAT(h.say(1, Json{{"type", "undo"}, {"id", online}}).back()["message"].get<std::string>(),
             Contains("local and engine"));
}

TEST_CASE("hub: Gonnect's captures, suicide and ko come from the core", "[hub][gonnect]") {
  TempDir dir;
  HubHarness h(dir.path.string());
  h.open(1);
  SECTION("a capture and the ko that follows") {
    const std::string id =
        h.create(1, {{"game", "gonnect"}, {"size", 4}, {"mode", "local"}, {"ko", "simple"}});
    const std::vector<std::string> record = {"c3", "b4", "d4", "b3", "c1", "b2", "d2", "c4", "b1", "d3"};
    Json s;
    for (size_t i = 0; i < record.size(); ++i) s = h.move(1, id, record[i], long(i));
    INFO(s.dump());
    CHECK(s["ko"] == "simple");
    CHECK(names(s["captured"]) == std::vector<std::string>{"d4"});
    bool ko = false;
    for (const Json& x : s["illegal"]) ko = ko || (x["point"] == "d4" && x["reason"] == "ko");
    CHECK(ko);
    const Json err = h.move(1, id, "d4", 10);
    CHECK_THAT(err["message"].get<std::string>(), Contains("(ko)"));
    CHECK(h.move(1, id, "a1", 10)["captured"].empty());
  }
  SECTION("suicide") {
    const std::string id = h.create(1, {{"game", "gonnect"}, {"size", 4}, {"mode", "local"}});
    h.move(1, id, "c4", 0);
    h.move(1, id, "b3", 1);
    const Json s = h.move(1, id, "d3", 2);
    CHECK(s["ko"] == "superko");
    const Json err = h.move(1, id, "d4", 3);
    CHECK_THAT(err["message"].get<std::string>(), Contains("suicide"));
  }
}

TEST_CASE("hub: a reload rejoins the same seat; connected follows the connections", "[hub]") {
  TempDir dir;
  HubHarness h(dir.path.string());
  h.open(1);
  h.open(2);
  const std::string id = h.create(1, {{"size", 5}, {"mode", "online"}, {"seat", "second"}});
  CHECK(h.last(1, "state")["you"] == "second");
  h.say(2, Json{{"type", "join"}, {"id", id}, {"player", kBob}});
  CHECK(h.last(2, "state")["you"] == "first");
  h.move(2, id, "c3", 0);
  h.hub->close(1);
  CHECK(h.last(2, "state")["players"][1]["connected"] == false);
  h.open(7);
  const Json back = h.say(7, Json{{"type", "join"}, {"id", id}, {"player", kAnn}}).back();
  CHECK(back["you"] == "second");
  CHECK(back["ply"] == 1);
  CHECK(h.last(2, "state")["players"][1]["connected"] == true);
  CHECK(h.move(7, id, "b2", 1)["ply"] == 2);
  // A third person only watches a full game.
  h.open(8);
  CHECK(h.say(8, Json{{"type", "join"}, {"id", id}, {"player", kCat}}).back()["you"] == "watcher");
  CHECK(h.hub->stats().connections == 3);
}

TEST_CASE("hub: every malformed message gets an error and changes nothing", "[hub]") {
  TempDir dir;
  HubHarness h(dir.path.string());
  h.open(1);
  const std::string id = h.create(1, {{"size", 5}, {"mode", "local"}});
  h.move(1, id, "c3", 0);
  const std::string deep = std::string(50, '[') + std::string(50, ']');
  const std::string big = "{\"type\":\"join\",\"id\":\"" + std::string(5000, 'x') + "\"}";
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"not json", "not valid JSON"},
      {"[1,2]", "object"},
      {deep, "deeper"},
      {big, "limit"},
      {R"({"type":"dance"})", "unknown message type"},
      {R"({"req":3})", "type: missing"},
      {R"({"type":"move","id":"x","move":"c3","ply":1,"colour":"red"})", "unknown field 'colour'"},
      {R"({"type":"move","id":5,"move":"c3","ply":1})", "id: expected a string"},
      {R"({"type":"move","id":"ID","move":"b2","ply":"1"})", "ply: expected a whole number"},
      {R"({"type":"move","id":"ID","move":"b2","ply":1e300})", "ply: expected a whole number"},
      {R"({"type":"move","id":"ID","move":"b2","ply":99999999999999999999})", "ply"},
      {R"({"type":"move","id":"ID","move":"b2","ply":-1})", "out of range"},
      {R"({"type":"move","id":"ID","move":"z99","ply":1})", "z99"},
      {R"({"type":"move","id":"ID","move":"c3","ply":1})", "occupied"},
      {R"({"type":"move","id":"nosuchgame00","move":"b2","ply":1})", "no game nosuchgame00"},
      {R"({"type":"create","game":"chess","size":5,"mode":"local","player":"ann-token-0123456789"})", "game"},
      {R"({"type":"create","game":"konobi","size":20,"mode":"local","player":"ann-token-0123456789"})",
       "out of range"},
      {R"({"type":"create","game":"konobi","size":5,"mode":"local","player":"short"})", "player"},
      {R"({"type":"create","game":"konobi","size":5,"mode":"local","player":"ann-token-0123456789","ko":"simple"})",
       "Gonnect"},
      {R"({"type":"join","id":"ID","player":"ann token with spaces!!"})", "player"},
      {R"({"type":"knowledge","game":"konobi","size":17})", "no shipped results"},
      {R"({"type":"puzzles","size":3})", "no shipped puzzles"},
  };
  for (const auto& [text, why] : bad) {
    std::string t = text;
    if (const size_t at = t.find("\"ID\""); at != std::string::npos) t.replace(at + 1, 2, id);
    INFO(t.substr(0, 200));
    const std::vector<Json> r = h.say(1, t);
    REQUIRE(r.size() == 1);
    CHECK(r[0]["type"] == "error");
    CHECK_THAT(r[0]["message"].get<std::string>(), Contains(why));
  }
  // The request number comes back with the error when it could be read.
  CHECK(h.say(1, R"({"type":"undo","id":"nosuchgame00","req":41})").back()["req"] == 41);
  const Json s = h.say(1, Json{{"type", "join"}, {"id", id}, {"player", kAnn}}).back();
  CHECK(s["ply"] == 1);
  CHECK(h.hub->stats().games == 1);
}

TEST_CASE("hub: games per player and in all are limited", "[hub]") {
  TempDir dir;
  konobi::HubOptions o;
  o.max_games_per_player = 2;
  o.max_games = 3;
  HubHarness h(dir.path.string(), o);
  h.open(1);
  h.create(1, {{"size", 5}, {"mode", "local"}});
  h.create(1, {{"size", 5}, {"mode", "local"}});
  const Json refused =
      h.say(1, Json{{"type", "create"}, {"game", "konobi"}, {"size", 5}, {"mode", "local"}, {"player", kAnn}})
          .back();
  CHECK(refused["type"] == "error");
  CHECK_THAT(refused["message"].get<std::string>(), Contains("limit per player"));
  h.create(1, {{"size", 5}, {"mode", "local"}, {"player", kBob}});
  const Json full =
      h.say(1, Json{{"type", "create"}, {"game", "konobi"}, {"size", 5}, {"mode", "local"}, {"player", kCat}})
          .back();
  CHECK_THAT(full["message"].get<std::string>(), Contains("its limit"));
  CHECK(h.hub->stats().games == 3);
}

TEST_CASE("hub: resigning ends the game for the other side; its record says so", "[hub]") {
  TempDir dir;
  HubHarness h(dir.path.string());
  h.open(1);
  h.open(2);
  const std::string id = h.create(1, {{"size", 5}, {"mode", "online"}, {"name", "Ann"}});
  h.say(2, Json{{"type", "join"}, {"id", id}, {"player", kBob}, {"name", "Bob"}});
  h.move(1, id, "c3", 0);
  // Bob (White) resigns although it is his turn or not: a seat may resign any time.
  const Json s = h.say(2, Json{{"type", "resign"}, {"id", id}}).back();
  INFO(s.dump());
  CHECK(s["winner"] == "black");
  CHECK(s["reason"] == "resign");
  CHECK(s["legal"].empty());
  CHECK(names(s["events"]) == std::vector<std::string>{"White resigns"});
  CHECK(h.last(1, "state")["winner"] == "black");
  CHECK_THAT(h.say(1, Json{{"type", "resign"}, {"id", id}}).back()["message"].get<std::string>(),
             Contains("over"));
  CHECK_THAT(h.hub->record(id).value(), Contains("Result: Black wins by resign\n"));
  // Nobody views it any more: it leaves memory, and the store still has it.
  h.hub->close(1);
  h.say(2, Json{{"type", "leave"}, {"id", id}});
  CHECK_THAT(h.hub->record(id).value(), Contains("c3\n"));
  h.open(3);
  const Json again = h.say(3, Json{{"type", "join"}, {"id", id}, {"player", kBob}}).back();
  CHECK(again["winner"] == "black");
  CHECK(again["reason"] == "resign");
  CHECK(again["you"] == "second");
}

TEST_CASE("hub: a game's engine time is capped by max_engine_seconds", "[hub]") {
  TempDir dir;
  konobi::HubOptions o;
  o.max_engine_seconds = 1.5;
  HubHarness h(dir.path.string(), o);
  h.open(1);
  h.create(1, {{"size", 5}, {"mode", "engine"}, {"engine_seconds", 3600}});
  CHECK(h.last(1, "state")["engine"]["seconds"] == 1.5);
}
