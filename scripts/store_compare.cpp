// Measures the two embedded databases Debian offers for the store of proven
// positions (docs/JOBS.md, "The store") on what the solver does with it:
// ~2 M entries (u64 key -> value, best move, work byte) inserted in
// batches of ~1000 per transaction, random lookups (half hits, half misses)
// from 2 threads with one short read transaction each, the file's size,
// the time to reopen, and a writer killed (SIGKILL) mid-write: whether the
// file opens afterwards, passes its check, and keeps the committed batches.
// Both in their crash-safe modes without an fsync per commit: SQLite WAL
// with synchronous=NORMAL (and a 64 MB page cache, as the store uses),
// LMDB with MDB_NOMETASYNC. Built and run by
// scripts/store_compare.sh.
#include <lmdb.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

uint64_t mix(uint64_t x) {  // splitmix64: the keys are table keys, i.e. random
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
uint64_t key_of(uint64_t i) { return mix(i); }
uint32_t value_of(uint64_t i) { return uint32_t(mix(i ^ 0x55) & 0xffffff); }  // win bit, best, work

uint64_t file_bytes(const std::string& dir) {
  uint64_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.is_regular_file()) n += e.file_size();
  return n;
}

void die(const char* what) {
  std::fprintf(stderr, "store_compare: %s\n", what);
  std::exit(1);
}

// ---- SQLite --------------------------------------------------------------
struct Sqlite {
  sqlite3* db = nullptr;
  explicit Sqlite(const std::string& dir) {
    if (sqlite3_open_v2((dir + "/s.sqlite").c_str(), &db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        nullptr) != SQLITE_OK)
      die("sqlite open");
    exec(
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-65536;"
        "CREATE TABLE IF NOT EXISTS p(k INTEGER PRIMARY KEY, v INTEGER NOT NULL)");
  }
  ~Sqlite() { sqlite3_close(db); }
  void exec(const char* sql) {
    char* err = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) die(err ? err : sql);
  }
  void insert(uint64_t from, uint64_t to, uint64_t batch) {
    sqlite3_stmt* st;
    sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO p VALUES(?,?)", -1, &st, nullptr);
    for (uint64_t b = from; b < to; b += batch) {
      exec("BEGIN");
      for (uint64_t i = b; i < std::min(to, b + batch); ++i) {
        sqlite3_bind_int64(st, 1, int64_t(key_of(i)));
        sqlite3_bind_int64(st, 2, value_of(i));
        if (sqlite3_step(st) != SQLITE_DONE) die("sqlite insert");
        sqlite3_reset(st);
      }
      exec("COMMIT");
    }
    sqlite3_finalize(st);
  }
  // One lookup, in its own (implicit) read transaction, as find() does.
  static bool find(sqlite3_stmt* st, uint64_t k, uint32_t& v) {
    sqlite3_bind_int64(st, 1, int64_t(k));
    const bool hit = sqlite3_step(st) == SQLITE_ROW;
    if (hit) v = uint32_t(sqlite3_column_int64(st, 0));
    sqlite3_reset(st);
    return hit;
  }
  uint64_t count() {
    sqlite3_stmt* st;
    sqlite3_prepare_v2(db, "SELECT count(*) FROM p", -1, &st, nullptr);
    sqlite3_step(st);
    const uint64_t n = uint64_t(sqlite3_column_int64(st, 0));
    sqlite3_finalize(st);
    return n;
  }
  std::string check(const char* pragma) {
    sqlite3_stmt* st;
    sqlite3_prepare_v2(db, pragma, -1, &st, nullptr);
    std::string r = sqlite3_step(st) == SQLITE_ROW ? (const char*)sqlite3_column_text(st, 0) : "error";
    sqlite3_finalize(st);
    return r;
  }
};

// ---- LMDB ----------------------------------------------------------------
struct Lmdb {
  MDB_env* env = nullptr;
  MDB_dbi dbi = 0;
  explicit Lmdb(const std::string& dir) {
    mdb_env_create(&env);
    mdb_env_set_mapsize(env, size_t(16) << 30);
    mdb_env_set_maxreaders(env, 64);
    if (mdb_env_open(env, dir.c_str(), MDB_NOMETASYNC, 0644) != 0) die("lmdb open");
    MDB_txn* t;
    mdb_txn_begin(env, nullptr, 0, &t);
    if (mdb_dbi_open(t, nullptr, MDB_INTEGERKEY, &dbi) != 0) die("lmdb dbi");
    mdb_txn_commit(t);
  }
  ~Lmdb() { mdb_env_close(env); }
  void insert(uint64_t from, uint64_t to, uint64_t batch) {
    for (uint64_t b = from; b < to; b += batch) {
      MDB_txn* t;
      mdb_txn_begin(env, nullptr, 0, &t);
      for (uint64_t i = b; i < std::min(to, b + batch); ++i) {
        uint64_t k = key_of(i);
        uint32_t v = value_of(i);
        MDB_val kv{8, &k}, vv{4, &v};
        if (mdb_put(t, dbi, &kv, &vv, 0) != 0) die("lmdb put");
      }
      if (mdb_txn_commit(t) != 0) die("lmdb commit");
    }
  }
  bool find(MDB_txn*& t, uint64_t k, uint32_t& v) {
    if (!t) mdb_txn_begin(env, nullptr, MDB_RDONLY, &t);
    else mdb_txn_renew(t);
    MDB_val kv{8, &k}, vv;
    const bool hit = mdb_get(t, dbi, &kv, &vv) == 0;
    if (hit) std::memcpy(&v, vv.mv_data, 4);
    mdb_txn_reset(t);
    return hit;
  }
  uint64_t count() {
    MDB_txn* t;
    mdb_txn_begin(env, nullptr, MDB_RDONLY, &t);
    MDB_stat s;
    mdb_stat(t, dbi, &s);
    mdb_txn_abort(t);
    return s.ms_entries;
  }
};

constexpr uint64_t kBatch = 1000;

// Lookups from 2 threads: even i a hit (an inserted key), odd a miss.
template <class F>
double lookups(uint64_t n_inserted, uint64_t per_thread, F&& make_finder) {
  std::atomic<uint64_t> wrong{0};
  const auto t0 = Clock::now();
  std::vector<std::thread> ts;
  for (int t = 0; t < 2; ++t)
    ts.emplace_back([&, t] {
      auto find = make_finder();
      uint64_t r = 12345 + t;
      for (uint64_t j = 0; j < per_thread; ++j) {
        r = mix(r);
        const bool want = (j & 1) == 0;
        const uint64_t i = want ? r % n_inserted : n_inserted * 4 + r % (1ull << 40);
        uint32_t v = 0;
        const bool hit = find(key_of(i), v);
        if (hit != want || (hit && v != value_of(i))) wrong.fetch_add(1);
      }
    });
  for (auto& t : ts) t.join();
  const double s = since(t0);
  if (wrong) die("lookup answered wrong");
  return 2.0 * double(per_thread) / s;
}

// A child inserts for ever from `from`; it is killed after `ms`. Returns
// the entries found afterwards.
template <class Open>
void kill_test(const char* name, const std::string& dir, uint64_t before, Open&& reopen_and_report) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (std::string(name) == "sqlite") Sqlite(dir).insert(before, before + 100000000, kBatch);
    else Lmdb(dir).insert(before, before + 100000000, kBatch);
    _exit(0);
  }
  usleep(700000);
  kill(pid, SIGKILL);
  int status;
  waitpid(pid, &status, 0);
  reopen_and_report();
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 2000000;
  const std::string root = argc > 2 ? argv[2] : "/tmp/store_compare";
  const uint64_t per_thread = 500000;
  std::filesystem::remove_all(root);
  std::printf("%llu entries, batches of %llu; lookups: 2 threads x %llu, half hits\n", (unsigned long long)n,
              (unsigned long long)kBatch, (unsigned long long)per_thread);

  {  // SQLite
    const std::string dir = root + "/sqlite";
    std::filesystem::create_directories(dir);
    double ins, look, reopen;
    {
      Sqlite s(dir);
      auto t0 = Clock::now();
      s.insert(0, n, kBatch);
      ins = since(t0);
      s.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    }
    {
      auto t0 = Clock::now();
      Sqlite s(dir);
      reopen = since(t0);
      t0 = Clock::now();
      const std::string qc = s.check("PRAGMA quick_check");
      const double qct = since(t0);
      std::printf(
          "sqlite: insert %.2f s (%.0f/s), file %.1f MB (%.1f B/entry), reopen %.4f s, quick_check %.2f s "
          "(%s)\n",
          ins, double(n) / ins, double(file_bytes(dir)) / 1e6, double(file_bytes(dir)) / double(n), reopen,
          qct, qc.c_str());
    }
    look = lookups(n, per_thread, [&] {
      auto conn = std::make_shared<Sqlite>(dir);
      sqlite3_stmt* st;
      sqlite3_prepare_v2(conn->db, "SELECT v FROM p WHERE k=?", -1, &st, nullptr);
      auto holder = std::shared_ptr<sqlite3_stmt>(st, sqlite3_finalize);
      return [conn, holder](uint64_t k, uint32_t& v) { return Sqlite::find(holder.get(), k, v); };
    });
    std::printf("sqlite: lookups %.0f/s (2 threads together)\n", look);
    kill_test("sqlite", dir, n, [&] {
      Sqlite s(dir);
      std::printf(
          "sqlite: killed mid-write: reopens, quick_check '%s', %llu entries (%llu committed after the kill "
          "test began)\n",
          s.check("PRAGMA quick_check").c_str(), (unsigned long long)s.count(),
          (unsigned long long)(s.count() - n));
    });
  }

  {  // LMDB
    const std::string dir = root + "/lmdb";
    std::filesystem::create_directories(dir);
    double ins, look, reopen;
    {
      Lmdb l(dir);
      auto t0 = Clock::now();
      l.insert(0, n, kBatch);
      ins = since(t0);
    }
    {
      auto t0 = Clock::now();
      Lmdb l(dir);
      reopen = since(t0);
      std::printf(
          "lmdb:   insert %.2f s (%.0f/s), file %.1f MB (%.1f B/entry), reopen %.4f s, %llu entries\n", ins,
          double(n) / ins, double(file_bytes(dir)) / 1e6, double(file_bytes(dir)) / double(n), reopen,
          (unsigned long long)l.count());
      look = lookups(n, per_thread, [&] {
        auto holder = std::make_shared<MDB_txn*>(nullptr);
        Lmdb* lp = &l;
        return [lp, holder](uint64_t k, uint32_t& v) { return lp->find(*holder, k, v); };
      });
      // (the read transactions are left to mdb_env_close)
    }
    std::printf("lmdb:   lookups %.0f/s (2 threads together)\n", look);
    kill_test("lmdb", dir, n, [&] {
      Lmdb l(dir);
      std::printf(
          "lmdb:   killed mid-write: reopens, %llu entries (%llu committed after the kill test began)\n",
          (unsigned long long)l.count(), (unsigned long long)(l.count() - n));
    });
  }
  std::filesystem::remove_all(root);
}
