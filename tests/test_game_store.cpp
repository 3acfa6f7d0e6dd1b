// The game store under the hub: every move is in the SQLite file before the
// state that shows it is sent (read back by a second connection to the
// file, as after kill -9), a hub re-created on the same folder has every
// game, finished or not, and a file that is not an intact store, or one of
// a newer schema, is refused with a message naming it.
#include <sqlite3.h>

#include <fstream>
#include <string>

#include "hub_harness.h"
#include "solver/server/game_store.h"

using Catch::Contains;
using konobi::Json;
using konobi_test::HubHarness;
using konobi_test::kAnn;
using konobi_test::kBob;
using konobi_test::TempDir;

namespace {

// The number of moves the file holds for a game, read by a connection of
// its own, as a restarted server would.
long long stored_moves(const std::string& file, const std::string& id) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, "SELECT count(*) FROM moves WHERE game_id = ?", -1, &st, nullptr) ==
          SQLITE_OK);
  sqlite3_bind_text(st, 1, id.c_str(), -1, SQLITE_TRANSIENT);
  REQUIRE(sqlite3_step(st) == SQLITE_ROW);
  const long long n = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(db);
  return n;
}

std::string refusal(const std::string& dir) {
  try {
    konobi::GameStore store(dir);
  } catch (const std::exception& e) { return e.what(); }
  return "accepted";
}

}  // namespace

TEST_CASE("store: each move is in the file before its state is sent", "[hub][store]") {
  TempDir dir;
  std::string file = dir / "games.sqlite";
  long long on_disk_when_sent = -1;
  std::string id;
  konobi::HubOptions o;
  o.data_dir = dir.path.string();
  // The sender reads the file the moment a state leaves the hub.
  konobi::Hub hub(o, [&](konobi::ConnectionId, std::string text) {
    const Json j = Json::parse(text);
    if (j["type"] == "created") id = j["id"];
    if (j["type"] == "state" && j["ply"].get<int>() > 0) {
      on_disk_when_sent = stored_moves(file, id);
      CHECK(on_disk_when_sent == j["ply"].get<long long>());
    }
  });
  hub.open(1, "127.0.0.1");
  hub.receive(
      1,
      Json{{"type", "create"}, {"game", "konobi"}, {"size", 5}, {"mode", "local"}, {"player", kAnn}}.dump());
  REQUIRE_FALSE(id.empty());
  const char* moves[] = {"c3", "b2", "c4", "d2"};
  for (int i = 0; i < 4; ++i)
    hub.receive(1, Json{{"type", "move"}, {"id", id}, {"move", moves[i]}, {"ply", i}}.dump());
  CHECK(on_disk_when_sent == 4);
}

TEST_CASE("store: a hub re-created on the same folder keeps finished and unfinished games", "[hub][store]") {
  TempDir dir;
  HubHarness h(dir.path.string());
  h.open(1);
  h.open(2);
  const std::string playing = h.create(1, {{"size", 5}, {"mode", "online"}, {"name", "Ann"}});
  h.say(2, Json{{"type", "join"}, {"id", playing}, {"player", kBob}, {"name", "Bob"}});
  h.move(1, playing, "c3", 0);
  h.move(2, playing, "swap", 1);
  const std::string done = h.create(1, {{"size", 3}, {"mode", "local"}});
  const char* moves[] = {"b1", "a1", "b2", "a3", "b3"};
  for (int i = 0; i < 5; ++i) h.move(1, done, moves[i], i);
  const std::string record = h.hub->record(done).value();
  CHECK_FALSE(h.hub->record(playing));

  h.restart();
  CHECK(h.hub->stats().games == 1);
  CHECK(h.hub->record(done) == record);
  h.open(3);
  const Json s = h.say(3, Json{{"type", "join"}, {"id", playing}, {"player", kAnn}}).back();
  INFO(s.dump());
  CHECK(s["you"] == "first");
  CHECK(s["moves"] == Json::array({"c3", "swap"}));
  CHECK(s["swapped"] == true);
  CHECK(s["players"][1]["name"] == "Bob");
  CHECK(h.move(3, playing, "b2", 2)["ply"] == 3);
  h.open(4);
  const Json f = h.say(4, Json{{"type", "join"}, {"id", done}, {"player", kBob}}).back();
  CHECK(f["winner"] == "black");
  CHECK(f["you"] == "watcher");
}

TEST_CASE("store: a corrupt file or a newer schema is refused with a message", "[hub][store]") {
  TempDir dir;
  { std::ofstream(dir / "games.sqlite") << std::string(4096, 'x'); }
  const std::string corrupt = refusal(dir.path.string());
  CHECK_THAT(corrupt, Contains(dir / "games.sqlite"));
  CHECK_THAT(corrupt, Contains("not a usable konobi game store"));
  CHECK_THAT(corrupt, Contains("not a database"));

  TempDir newer;
  {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open((newer / "games.sqlite").c_str(), &db) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db, "PRAGMA user_version = 99", nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
  }
  CHECK_THAT(refusal(newer.path.string()), Contains("newer konobi (store schema version 99"));

  TempDir foreign;
  {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open((foreign / "games.sqlite").c_str(), &db) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db, "CREATE TABLE t(x)", nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
  }
  CHECK_THAT(refusal(foreign.path.string()), Contains("not a konobi game store"));
  // And the hub says the same.
  konobi::HubOptions o;
  o.data_dir = dir.path.string();
  CHECK_THROWS_WITH(konobi::Hub(o, [](konobi::ConnectionId, std::string) {}), Contains("not a database"));
}

TEST_CASE("store: a stored game that does not replay is refused at start, naming it", "[hub][store]") {
  TempDir dir;
  std::string bad;
  {
    HubHarness h(dir.path.string());
    h.open(1);
    // First an engine game whose engine is to move (it would think again
    // at the restart), then the game to damage.
    const std::string engine = h.create(1, {{"size", 9}, {"mode", "engine"}, {"engine_seconds", 30}});
    h.move(1, engine, "e5", 0);
    bad = h.create(1, {{"size", 5}, {"mode", "local"}});
    h.move(1, bad, "c3", 0);
  }
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open((dir / "games.sqlite").c_str(), &db) == SQLITE_OK);
  const std::string damage = "UPDATE moves SET move = 'z9' WHERE game_id = '" + bad + "'";
  REQUIRE(sqlite3_exec(db, damage.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(db);
  konobi::HubOptions o;
  o.data_dir = dir.path.string();
  CHECK_THROWS_WITH(konobi::Hub(o, [](konobi::ConnectionId, std::string) {}),
                    Contains("game " + bad + " does not replay") && Contains("damaged"));
}
