// The games on disk: one SQLite database, DATA/games.sqlite, in WAL mode.
// Each change (a new game, a seat taken, moves played, an undo, the end) is
// one transaction, committed before the hub sends the state that shows it,
// so that a server stopped at any moment, even by kill -9, has on disk
// every move a player saw. The schema carries a version (PRAGMA
// user_version); a database of a newer version, or one that is not an
// intact SQLite file, is refused with a message naming the file and why.
// Finished games stay, for their records. Thread-safe: one connection
// behind a mutex.
#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace konobi {

constexpr int kStoreSchemaVersion = 1;

struct StoredSeat {
  std::string player;  // the token; "" while free (or the engine's seat)
  std::string name;
  bool engine = false;
};

struct StoredGame {
  std::string id;
  std::string game = "konobi";  // "konobi" or "gonnect"
  int size = 0;
  std::string ko, edges;  // Gonnect only, else ""
  std::string mode;       // "local", "online", "engine"
  double engine_seconds = 0;
  std::string creator;  // the token that created it (limits per player)
  double created = 0;   // Unix time
  std::string start;    // the start position (docs/NOTATION.md), "" for the empty board
  StoredSeat seats[2];
  std::vector<std::string> moves;  // as docs/NOTATION.md names them
  std::vector<double> move_times;  // Unix time of each
  // Set once over: "black" or "white", how ("connection", "no-move",
  // "resign") and when.
  std::string winner, reason;
  double finished = 0;
  bool over() const { return !winner.empty(); }
};

class GameStore {
 public:
  // Opens or creates DIR/games.sqlite (making DIR); throws
  // std::runtime_error naming the file and what is wrong.
  explicit GameStore(const std::string& dir);
  ~GameStore();
  GameStore(const GameStore&) = delete;
  GameStore& operator=(const GameStore&) = delete;

  const std::string& path() const { return path_; }

  // Each is one transaction; each throws std::runtime_error when the
  // database refuses (disk full, read-only), and then nothing is changed.
  void create(const StoredGame& g);
  void set_seat(const std::string& id, int seat, const StoredSeat& s);
  // Appends moves at plies first_ply, first_ply+1, ...; with `ended`, also
  // records the end (winner, reason, finished) in the same transaction.
  void append(const std::string& id, size_t first_ply, const std::vector<std::string>& moves, double time,
              const StoredGame* ended = nullptr);
  void truncate(const std::string& id, size_t ply);  // keeps the first ply moves
  void finish(const std::string& id, const std::string& winner, const std::string& reason, double time);

  std::vector<StoredGame> unfinished() const;
  std::optional<StoredGame> load(const std::string& id) const;

 private:
  void exec(const char* sql) const;
  StoredGame read_game(const std::string& id) const;  // the games row must exist

  std::string path_;
  sqlite3* db_ = nullptr;
  mutable std::mutex mutex_;
};

}  // namespace konobi
