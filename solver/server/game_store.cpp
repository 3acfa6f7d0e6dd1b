#include "game_store.h"

#include <sqlite3.h>

#include <filesystem>
#include <stdexcept>

namespace konobi {

namespace {

// One prepared statement, finalised on every path out.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &st_, nullptr) != SQLITE_OK)
      throw std::runtime_error(std::string("game store: ") + sqlite3_errmsg(db));
  }
  ~Statement() { sqlite3_finalize(st_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int i, const std::string& s) {
    check(sqlite3_bind_text(st_, i, s.data(), int(s.size()), SQLITE_TRANSIENT));
    return *this;
  }
  Statement& bind(int i, long long v) {
    check(sqlite3_bind_int64(st_, i, v));
    return *this;
  }
  Statement& bind(int i, double v) {
    check(sqlite3_bind_double(st_, i, v));
    return *this;
  }
  // True while there is a row.
  bool step() {
    const int rc = sqlite3_step(st_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw std::runtime_error(std::string("game store: ") + sqlite3_errmsg(db_));
  }
  void run() {
    while (step()) {}
  }
  std::string text(int col) const {
    const unsigned char* t = sqlite3_column_text(st_, col);
    return t ? std::string(reinterpret_cast<const char*>(t), size_t(sqlite3_column_bytes(st_, col))) : "";
  }
  long long integer(int col) const { return sqlite3_column_int64(st_, col); }
  double real(int col) const { return sqlite3_column_double(st_, col); }

 private:
  void check(int rc) const {
    if (rc != SQLITE_OK) throw std::runtime_error(std::string("game store: ") + sqlite3_errmsg(db_));
  }
  sqlite3* db_;
  sqlite3_stmt* st_ = nullptr;
};

// BEGIN IMMEDIATE ... COMMIT, rolled back when an exception leaves the scope.
class Transaction {
 public:
  explicit Transaction(sqlite3* db) : db_(db) { exec("BEGIN IMMEDIATE"); }
  ~Transaction() {
    if (!done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  void commit() {
    exec("COMMIT");
    done_ = true;
  }

 private:
  void exec(const char* sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
      const std::string why = err ? err : "unknown error";
      sqlite3_free(err);
      throw std::runtime_error("game store: " + why);
    }
  }
  sqlite3* db_;
  bool done_ = false;
};

const char* const kSchema = R"(
CREATE TABLE games (
  id TEXT PRIMARY KEY,
  game TEXT NOT NULL,
  size INTEGER NOT NULL,
  ko TEXT NOT NULL,
  edges TEXT NOT NULL,
  mode TEXT NOT NULL,
  engine_seconds REAL NOT NULL,
  creator TEXT NOT NULL,
  created REAL NOT NULL,
  start TEXT NOT NULL DEFAULT '',
  winner TEXT NOT NULL DEFAULT '',
  reason TEXT NOT NULL DEFAULT '',
  finished REAL NOT NULL DEFAULT 0
);
CREATE TABLE seats (
  game_id TEXT NOT NULL REFERENCES games(id),
  seat INTEGER NOT NULL,
  player TEXT NOT NULL,
  name TEXT NOT NULL,
  engine INTEGER NOT NULL,
  PRIMARY KEY (game_id, seat)
);
CREATE TABLE moves (
  game_id TEXT NOT NULL REFERENCES games(id),
  ply INTEGER NOT NULL,
  move TEXT NOT NULL,
  time REAL NOT NULL,
  PRIMARY KEY (game_id, ply)
);
CREATE INDEX games_unfinished ON games(winner);
PRAGMA user_version = 1;
)";

}  // namespace

GameStore::GameStore(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error("cannot make the data folder " + dir + ": " + ec.message());
  path_ = (std::filesystem::path(dir) / "games.sqlite").string();
  if (sqlite3_open_v2(path_.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                      nullptr) != SQLITE_OK) {
    const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw std::runtime_error(path_ + ": cannot open the game store: " + why);
  }
  try {
    sqlite3_busy_timeout(db_, 5000);
    // An intact SQLite file first: a file of something else fails here with
    // "file is not a database", a damaged one with quick_check's findings.
    long long version = 0;
    {
      Statement v(db_, "PRAGMA user_version");
      if (v.step()) version = v.integer(0);
    }
    {
      Statement q(db_, "PRAGMA quick_check");
      if (q.step() && q.text(0) != "ok") throw std::runtime_error("the database is damaged: " + q.text(0));
    }
    if (version > kStoreSchemaVersion)
      throw std::runtime_error("written by a newer konobi (store schema version " + std::to_string(version) +
                               "; this program reads version " + std::to_string(kStoreSchemaVersion) +
                               " and older)");
    // WAL: a commit is one append to the log, readers never block the
    // writer. synchronous=NORMAL: a committed move survives the process
    // being killed; only a power failure can lose the last commits.
    exec("PRAGMA journal_mode=WAL");
    exec("PRAGMA synchronous=NORMAL");
    exec("PRAGMA foreign_keys=ON");
    if (version == 0) {
      Statement t(db_, "SELECT count(*) FROM sqlite_master");
      if (t.step() && t.integer(0) != 0)
        throw std::runtime_error("holds tables but no store schema version: not a konobi game store");
      Transaction tx(db_);
      exec(kSchema);
      tx.commit();
    }
  } catch (const std::runtime_error& e) {
    sqlite3_close(db_);
    db_ = nullptr;
    std::string why = e.what();
    if (why.rfind("game store: ", 0) == 0) why = why.substr(12);
    throw std::runtime_error(path_ + ": not a usable konobi game store: " + why);
  }
}

GameStore::~GameStore() { sqlite3_close(db_); }

void GameStore::exec(const char* sql) const {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    const std::string why = err ? err : sqlite3_errmsg(db_);
    sqlite3_free(err);
    throw std::runtime_error("game store: " + why);
  }
}

void GameStore::create(const StoredGame& g) {
  std::lock_guard lock(mutex_);
  Transaction tx(db_);
  Statement(db_,
            "INSERT INTO games(id, game, size, ko, edges, mode, engine_seconds, creator, created, start) "
            "VALUES(?,?,?,?,?,?,?,?,?,?)")
      .bind(1, g.id)
      .bind(2, g.game)
      .bind(3, (long long)g.size)
      .bind(4, g.ko)
      .bind(5, g.edges)
      .bind(6, g.mode)
      .bind(7, g.engine_seconds)
      .bind(8, g.creator)
      .bind(9, g.created)
      .bind(10, g.start)
      .run();
  for (int s = 0; s < 2; ++s)
    Statement(db_, "INSERT INTO seats(game_id, seat, player, name, engine) VALUES(?,?,?,?,?)")
        .bind(1, g.id)
        .bind(2, (long long)s)
        .bind(3, g.seats[s].player)
        .bind(4, g.seats[s].name)
        .bind(5, (long long)g.seats[s].engine)
        .run();
  tx.commit();
}

void GameStore::set_seat(const std::string& id, int seat, const StoredSeat& s) {
  std::lock_guard lock(mutex_);
  Statement(db_, "UPDATE seats SET player = ?, name = ?, engine = ? WHERE game_id = ? AND seat = ?")
      .bind(1, s.player)
      .bind(2, s.name)
      .bind(3, (long long)s.engine)
      .bind(4, id)
      .bind(5, (long long)seat)
      .run();
}

void GameStore::append(const std::string& id, size_t first_ply, const std::vector<std::string>& moves,
                       double time, const StoredGame* ended) {
  std::lock_guard lock(mutex_);
  Transaction tx(db_);
  for (size_t i = 0; i < moves.size(); ++i)
    Statement(db_, "INSERT INTO moves(game_id, ply, move, time) VALUES(?,?,?,?)")
        .bind(1, id)
        .bind(2, (long long)(first_ply + i))
        .bind(3, moves[i])
        .bind(4, time)
        .run();
  if (ended)
    Statement(db_, "UPDATE games SET winner = ?, reason = ?, finished = ? WHERE id = ?")
        .bind(1, ended->winner)
        .bind(2, ended->reason)
        .bind(3, ended->finished)
        .bind(4, id)
        .run();
  tx.commit();
}

void GameStore::truncate(const std::string& id, size_t ply) {
  std::lock_guard lock(mutex_);
  Statement(db_, "DELETE FROM moves WHERE game_id = ? AND ply >= ?")
      .bind(1, id)
      .bind(2, (long long)ply)
      .run();
}

void GameStore::finish(const std::string& id, const std::string& winner, const std::string& reason,
                       double time) {
  StoredGame g;
  g.winner = winner;
  g.reason = reason;
  g.finished = time;
  append(id, 0, {}, time, &g);
}

StoredGame GameStore::read_game(const std::string& id) const {
  StoredGame g;
  Statement q(
      db_,
      "SELECT id, game, size, ko, edges, mode, engine_seconds, creator, created, winner, reason, finished, "
      "start "
      "FROM games WHERE id = ?");
  q.bind(1, id);
  if (!q.step()) throw std::runtime_error("game store: no game " + id);
  g.id = q.text(0);
  g.game = q.text(1);
  g.size = int(q.integer(2));
  g.ko = q.text(3);
  g.edges = q.text(4);
  g.mode = q.text(5);
  g.engine_seconds = q.real(6);
  g.creator = q.text(7);
  g.created = q.real(8);
  g.winner = q.text(9);
  g.reason = q.text(10);
  g.finished = q.real(11);
  g.start = q.text(12);
  Statement s(db_, "SELECT seat, player, name, engine FROM seats WHERE game_id = ? ORDER BY seat");
  s.bind(1, id);
  while (s.step()) {
    const long long seat = s.integer(0);
    if (seat < 0 || seat > 1)
      throw std::runtime_error("game store: game " + id + " has a seat " + std::to_string(seat));
    g.seats[seat] = {s.text(1), s.text(2), s.integer(3) != 0};
  }
  Statement m(db_, "SELECT ply, move, time FROM moves WHERE game_id = ? ORDER BY ply");
  m.bind(1, id);
  while (m.step()) {
    if (m.integer(0) != (long long)g.moves.size())
      throw std::runtime_error("game store: game " + id + " lacks its move " +
                               std::to_string(g.moves.size() + 1));
    g.moves.push_back(m.text(1));
    g.move_times.push_back(m.real(2));
  }
  return g;
}

std::vector<StoredGame> GameStore::unfinished() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> ids;
  {
    Statement q(db_, "SELECT id FROM games WHERE winner = '' ORDER BY created, id");
    while (q.step()) ids.push_back(q.text(0));
  }
  std::vector<StoredGame> out;
  for (const std::string& id : ids) out.push_back(read_game(id));
  return out;
}

std::optional<StoredGame> GameStore::load(const std::string& id) const {
  std::lock_guard lock(mutex_);
  {
    Statement q(db_, "SELECT 1 FROM games WHERE id = ?");
    q.bind(1, id);
    if (!q.step()) return std::nullopt;
  }
  return read_game(id);
}

}  // namespace konobi
