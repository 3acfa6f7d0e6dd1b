// The store of proven positions in SQLite (docs/JOBS.md, "The store", says
// why SQLite and gives the figures). One file, in WAL mode with
// synchronous=NORMAL: a process killed at any moment leaves the file as of
// its last committed batch, and a reader in another process never sees
// half a batch. Two tables: `meta` (the identity) and `proven` (key ->
// value, work), each row carrying a checksum of its own fields, so that a
// damaged value is noticed even where the B-tree around it is whole.
#include "proven_store.h"

#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "solver/search/big_memory.h"

namespace konobi {

namespace {

constexpr int kFormat = 1;                  // PRAGMA user_version
constexpr int kApplicationId = 0x4b505331;  // "KPS1": PRAGMA application_id of a store
constexpr size_t kBatch = 1024;             // adds that wake the writer before its second is up
constexpr size_t kSlice = 4096;             // adds committed in one transaction at most
constexpr size_t kSliceMin = 64;            // and at least, however near the cap
constexpr auto kWriteEvery = std::chrono::seconds(1);
constexpr int kBusyMs = 60000;  // another process's write in progress: wait this long

// A row's value: mover_wins (bit 16), best (bits 8..15), work (bits 0..7),
// and in bits 24..47 a 24-bit checksum of the key and those fields. 48 bits
// fit SQLite's 6-byte integer: 20 bytes a row on disk with the key.
uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}
int64_t pack(const ProvenPosition& p) {
  const uint64_t fields = uint64_t(p.mover_wins) << 16 | uint64_t(uint8_t(p.best)) << 8 | p.work;
  const uint64_t sum = mix(p.key ^ mix(fields + 0x9e3779b97f4a7c15ull)) & 0xffffff;
  return int64_t(sum << 24 | fields);
}
// The position a row holds, or nothing when its checksum does not match.
std::optional<ProvenPosition> unpack(uint64_t key, int64_t v) {
  if (v < 0 || uint64_t(v) >> 48) return std::nullopt;
  ProvenPosition p;
  p.key = key;
  p.mover_wins = (v >> 16) & 1;
  p.best = int8_t(uint8_t(v >> 8));
  p.work = uint8_t(v);
  if (pack(p) != v) return std::nullopt;
  return p;
}

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw std::runtime_error("store " + path + ": " + what);
}

struct Db {
  sqlite3* db = nullptr;
  std::string path;
  Db(const std::string& p, int flags) : path(p) {
    if (sqlite3_open_v2(p.c_str(), &db, flags | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
      const std::string why = db ? sqlite3_errmsg(db) : "out of memory";
      sqlite3_close(db);
      fail(p, "cannot open: " + why);
    }
    sqlite3_busy_timeout(db, kBusyMs);
    sqlite3_extended_result_codes(db, 1);
  }
  ~Db() { sqlite3_close(db); }
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;
  [[noreturn]] void error(const std::string& doing) const {
    const int code = sqlite3_errcode(db) & 0xff;
    if (code == SQLITE_CORRUPT)
      fail(path, "damaged (" + std::string(sqlite3_errmsg(db)) + ", " + doing + ")");
    if (code == SQLITE_NOTADB)
      fail(path, "not a store of proven positions (" + std::string(sqlite3_errmsg(db)) + ")");
    fail(path, doing + ": " + sqlite3_errmsg(db));
  }
  void exec(const char* sql, const char* doing) {
    if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK) error(doing);
  }
};

// One prepared statement, finalised on every path out.
class Statement {
 public:
  Statement(Db& db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db.db, sql, -1, &st_, nullptr) != SQLITE_OK) db.error("reading");
  }
  ~Statement() { sqlite3_finalize(st_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  Statement& bind(int i, int64_t v) {
    sqlite3_bind_int64(st_, i, v);
    return *this;
  }
  Statement& bind(int i, const std::string& s) {
    sqlite3_bind_text(st_, i, s.data(), int(s.size()), SQLITE_TRANSIENT);
    return *this;
  }
  bool step(const char* doing = "reading") {  // true while there is a row
    const int rc = sqlite3_step(st_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    db_.error(doing);
  }
  void reset() {
    sqlite3_reset(st_);
    sqlite3_clear_bindings(st_);
  }
  int64_t integer(int c) const { return sqlite3_column_int64(st_, c); }
  std::string text(int c) const {
    const auto* t = sqlite3_column_text(st_, c);
    return t ? reinterpret_cast<const char*>(t) : "";
  }

 private:
  Db& db_;
  sqlite3_stmt* st_ = nullptr;
};

int64_t pragma(Db& db, const char* sql) {
  Statement st(db, sql);
  return st.step() ? st.integer(0) : 0;
}

// A reader: a connection of its own with its lookup prepared, used by one
// thread at a time.
struct Reader {
  Db db;
  Statement find;
  explicit Reader(const std::string& path)
      : db(path, SQLITE_OPEN_READWRITE), find(db, "SELECT v FROM proven WHERE key = ?") {}
};

}  // namespace

struct ProvenStore::Impl {
  std::string path;
  StoreIdentity id;
  uint64_t cap_bytes;
  Db writer;

  // Adds not yet committed: `pending` collects them, `writing` is the batch
  // the writer is committing now. find() reads both before the database.
  std::mutex mutex;
  std::condition_variable wake;
  std::unordered_map<uint64_t, ProvenPosition> pending, writing;
  bool stopping = false;
  std::string write_error;  // the writer thread's failure, reported by the next add or flush

  std::mutex write_mutex;  // one write_out at a time (the thread or flush())
  std::mutex readers_mutex;
  std::vector<std::unique_ptr<Reader>> readers;  // idle ones

  std::atomic<uint64_t> finds{0}, hits{0}, adds{0};

  // A Bloom filter of the keys this process knows to be in the store (read
  // on opening, added since): df-pn asks about many positions the store
  // does not hold, and a miss here costs a few cache lines instead of a
  // database lookup (which made a 5x5 solve twice as slow). About 6 bits a
  // key at the cap's size, 4 probes: some 6% of misses still reach SQLite.
  // Positions another process adds after this opening are not seen (they
  // are found again when this process next opens the store).
  //
  // Its bits come from the tables' allocator (2 MiB pages where granted):
  // with 4 KiB pages the probes of the default cap's 256 MiB filter, each
  // on a random page, faulted a page in or missed the TLB nearly every
  // time, and a Gonnect 4x4 solve took 25 s of CPU with the store against
  // 3 s with --store-mb 16.
  BigMemory filter_memory;
  uint64_t* filter = nullptr;
  uint64_t filter_mask = 0;  // bits - 1

  void make_filter() {
    const double bits_wanted = double(cap_bytes) / 20 * 6;  // ~20 bytes a row on disk
    uint64_t bits = uint64_t(1) << 16;
    while (double(bits) < bits_wanted && bits < (uint64_t(1) << 34)) bits <<= 1;
    try {
      filter_memory = allocate_big_zeroed(bits / 8);
    } catch (const std::exception& e) {
      fail(path, "no memory for its filter (" + std::to_string(bits / 8 / 1024 / 1024) + " MB): " + e.what());
    }
    filter = static_cast<uint64_t*>(filter_memory.get());
    filter_mask = bits - 1;
  }
  template <class F>
  bool each_bit(uint64_t key, F&& f) const {
    const uint64_t h = mix(key), step = mix(h) | 1;
    for (int i = 0; i < 4; ++i)
      if (!f((h + uint64_t(i) * step) & filter_mask)) return false;
    return true;
  }
  void filter_add(uint64_t key) {
    each_bit(key, [&](uint64_t b) {
      std::atomic_ref<uint64_t>(filter[b >> 6]).fetch_or(uint64_t(1) << (b & 63), std::memory_order_relaxed);
      return true;
    });
  }
  bool filter_may_hold(uint64_t key) const {
    return each_bit(key, [&](uint64_t b) {
      return (std::atomic_ref<uint64_t>(filter[b >> 6]).load(std::memory_order_relaxed) >> (b & 63) & 1) != 0;
    });
  }
  std::atomic<uint64_t> entries{0}, bytes{0};
  uint64_t limit = 0, used_at_limit = 0;  // the cap in entries, and the size it was taken at (write_mutex)
  uint64_t used_now = 0;                  // bytes in pages in use at the last look (write_mutex)

  std::thread thread;

  Impl(const std::string& p, const StoreIdentity& i, double max_mb)
      : path(p), id(i), cap_bytes(uint64_t(max_mb * 1024 * 1024)), writer(prepare(p), kOpenFlags) {}

  static constexpr int kOpenFlags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;

  // Makes the folder; refuses a file that is there but cannot be SQLite
  // (SQLite itself would only say so at the first read).
  static const std::string& prepare(const std::string& p) {
    const std::filesystem::path parent = std::filesystem::path(p).parent_path();
    std::error_code ec;
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    if (ec) fail(p, "cannot make its folder: " + ec.message());
    return p;
  }

  // SQLite reads past a file's end as zeros, so a truncated file can pass
  // its checks where the cut fell in free room. Its header names its size
  // (valid while its two change counters agree): a file shorter than that
  // is refused. Only without a write-ahead log to replay: a process killed
  // while it copied the log into the file leaves the file short until the
  // next opening finishes the copy from the log.
  void check_length() {
    std::error_code ec;
    const uint64_t size = std::filesystem::file_size(path, ec);
    if (ec || size == 0) return;  // a new store
    const uint64_t wal = std::filesystem::file_size(path + "-wal", ec);
    if (!ec && wal > 0) return;
    unsigned char h[100] = {};
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) fail(path, "cannot read it");
    const size_t got = std::fread(h, 1, sizeof h, f);
    std::fclose(f);
    if (got < sizeof h || std::memcmp(h, "SQLite format 3", 16) != 0) return;  // SQLite says what it is
    const auto be = [&](int at, int n) {
      uint64_t v = 0;
      for (int i = 0; i < n; ++i) v = v << 8 | h[at + i];
      return v;
    };
    const uint64_t page = be(16, 2) == 1 ? 65536 : be(16, 2);
    const uint64_t pages = be(28, 4);
    if (be(24, 4) != be(92, 4) || page < 512) return;
    if (size < pages * page || size % page != 0)
      fail(path, "damaged (truncated: " + std::to_string(size) + " bytes where its header says " +
                     std::to_string(pages * page) + ")");
  }

  void open() {
    make_filter();
    check_length();
    // journal_mode=WAL reads the header: a file that is no database fails here.
    {
      Statement wal(writer, "PRAGMA journal_mode=WAL");
      if (!wal.step("opening")) writer.error("opening");
    }
    writer.exec("PRAGMA synchronous=NORMAL", "opening");
    writer.exec("PRAGMA cache_size=-65536", "opening");
    writer.exec("BEGIN IMMEDIATE", "opening");
    try {
      if (pragma(writer, "SELECT count(*) FROM sqlite_master") == 0) create();
      else check();
      writer.exec("COMMIT", "opening");
    } catch (...) {
      sqlite3_exec(writer.db, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
    entries = uint64_t(pragma(writer, "SELECT count(*) FROM proven"));
    hold_cap();  // a store reopened with a smaller cap is cut at once
  }

  void create() {
    writer.exec(
        "CREATE TABLE meta(name TEXT PRIMARY KEY, value TEXT NOT NULL);"
        "CREATE TABLE proven(key INTEGER PRIMARY KEY, v INTEGER NOT NULL, w INTEGER NOT NULL)",
        "creating");
    writer.exec(("PRAGMA application_id=" + std::to_string(kApplicationId)).c_str(), "creating");
    writer.exec(("PRAGMA user_version=" + std::to_string(kFormat)).c_str(), "creating");
    Statement put(writer, "INSERT INTO meta VALUES(?, ?)");
    for (const auto& [name, value] : identity()) {
      put.bind(1, name).bind(2, value).step("creating");
      put.reset();
    }
  }

  std::vector<std::pair<std::string, std::string>> identity() const {
    return {{"game", id.game},
            {"symmetry", id.symmetry ? "yes" : "no"},
            {"key_check", std::to_string(id.key_check)}};
  }

  // An existing file: ours, not newer, whole, and made for this identity.
  void check() {
    if (pragma(writer, "PRAGMA application_id") != kApplicationId)
      fail(path, "not a store of proven positions (an SQLite database of something else)");
    const int64_t format = pragma(writer, "PRAGMA user_version");
    if (format > kFormat)
      fail(path, "made by a newer konobi (store format " + std::to_string(format) + ", this one reads " +
                     std::to_string(kFormat) + ")");
    if (format != kFormat) fail(path, "unknown store format " + std::to_string(format));
    {
      Statement qc(writer, "PRAGMA quick_check(1)");
      const std::string r = qc.step("checking") ? qc.text(0) : "no answer";
      if (r != "ok") fail(path, "damaged (" + r + ")");
    }
    std::unordered_map<std::string, std::string> meta;
    {
      Statement st(writer, "SELECT name, value FROM meta");
      while (st.step("checking")) meta[st.text(0)] = st.text(1);
    }
    for (const auto& [name, value] : identity()) {
      const auto it = meta.find(name);
      if (it == meta.end()) fail(path, "damaged (no " + name + " in its identity)");
      if (it->second != value)
        fail(path, "made for another " +
                       std::string(name == "game"       ? "game"
                                   : name == "symmetry" ? "keying"
                                                        : "key set") +
                       ": its " + name + " is '" + it->second + "', this solve's is '" + value + "'");
    }
    // Every row's checksum: quick_check vouches for the B-tree, not for
    // the bytes of a value.
    Statement rows(writer, "SELECT key, v FROM proven");
    while (rows.step("checking")) {
      filter_add(uint64_t(rows.integer(0)));
      if (!unpack(uint64_t(rows.integer(0)), rows.integer(1)))
        fail(path, "damaged (the entry of key " + std::to_string(uint64_t(rows.integer(0))) +
                       " fails its checksum)");
    }
  }

  std::optional<ProvenPosition> find(uint64_t key) {
    if (!filter_may_hold(key)) return std::nullopt;
    {
      std::lock_guard lock(mutex);
      if (auto it = pending.find(key); it != pending.end()) return it->second;
      if (auto it = writing.find(key); it != writing.end()) return it->second;
    }
    std::unique_ptr<Reader> r;
    {
      std::lock_guard lock(readers_mutex);
      if (!readers.empty()) r = std::move(readers.back()), readers.pop_back();
    }
    if (!r) r = std::make_unique<Reader>(path);
    std::optional<ProvenPosition> p;
    bool damaged = false;
    r->find.bind(1, int64_t(key));
    if (r->find.step()) {
      p = unpack(key, r->find.integer(0));
      damaged = !p;
    }
    r->find.reset();
    {
      std::lock_guard lock(readers_mutex);
      readers.push_back(std::move(r));
    }
    if (damaged) fail(path, "damaged (the entry of key " + std::to_string(key) + " fails its checksum)");
    return p;
  }

  void add(const ProvenPosition& p) {
    filter_add(p.key);
    std::lock_guard lock(mutex);
    if (!write_error.empty()) throw std::runtime_error(write_error);
    auto [it, inserted] = pending.try_emplace(p.key, p);
    if (!inserted && p.work > it->second.work) it->second = p;
    if (pending.size() >= kBatch) wake.notify_one();
  }

  // Commits what is pending in one transaction, then holds the cap.
  void write_out() {
    std::lock_guard wlock(write_mutex);
    {
      std::lock_guard lock(mutex);
      if (pending.empty()) return;
      std::swap(pending, writing);
    }
    try {
      auto it = writing.begin();
      while (it != writing.end()) {  // in slices, the cap held after each
        writer.exec("BEGIN IMMEDIATE", "writing");
        try {
          Statement insert(writer, "INSERT OR IGNORE INTO proven VALUES(?, ?, ?)");
          Statement update(writer, "UPDATE proven SET v = ?2, w = ?3 WHERE key = ?1 AND w < ?3");
          uint64_t added = 0;
          const size_t slice = slice_size();
          for (size_t n = 0; it != writing.end() && n < slice; ++it, ++n) {
            const auto& [key, p] = *it;
            insert.bind(1, int64_t(key)).bind(2, pack(p)).bind(3, p.work).step("writing");
            insert.reset();
            if (sqlite3_changes(writer.db)) {
              ++added;
            } else {  // known already: keep the costlier proof's record
              update.bind(1, int64_t(key)).bind(2, pack(p)).bind(3, p.work).step("writing");
              update.reset();
            }
          }
          writer.exec("COMMIT", "writing");
          entries += added;
        } catch (...) {
          sqlite3_exec(writer.db, "ROLLBACK", nullptr, nullptr, nullptr);
          throw;
        }
        hold_cap();
      }
    } catch (...) {
      // Kept for the next try (those committed already are written again, harmlessly).
      std::lock_guard lock(mutex);
      for (auto& [key, p] : writing) pending.try_emplace(key, p);
      writing.clear();
      throw;
    }
    std::lock_guard lock(mutex);
    writing.clear();
  }

  // How many adds one transaction commits: a full slice while the store is
  // far from its cap, and no more than the room left near it, so that one
  // slice cannot carry the file far past the cap before hold_cap() looks
  // (under a small cap a full slice is a quarter of it).
  size_t slice_size() const {
    uint64_t room = kSlice;
    if (limit != 0) {
      room = limit > entries ? limit - entries : 0;
    } else if (used_now > 0 && entries > 0) {
      const double per_entry = double(used_now) / double(entries);
      room = used_now < cap_bytes ? uint64_t(double(cap_bytes - used_now) / per_entry) : 0;
    }
    return size_t(std::clamp<uint64_t>(room, kSliceMin, kSlice));
  }

  // The cap (docs/JOBS.md): SQLite reuses the room that deleted rows leave
  // in their pages but does not shrink the file, so the cap is held as a
  // number of entries, taken from the density when the pages in use first
  // pass the cap, and again whenever they grow past that size (rows that
  // fill the holes deletes left in random places pack less densely than
  // the first ones did). Past that number, the entries with the least work
  // go until ~10% are free.
  void hold_cap() {
    const int64_t page = pragma(writer, "PRAGMA page_size");
    const uint64_t total = uint64_t(pragma(writer, "PRAGMA page_count") * page);
    const uint64_t used = total - uint64_t(pragma(writer, "PRAGMA freelist_count") * page);
    bytes = total;
    used_now = used;
    if (used > cap_bytes && (limit == 0 || used > used_at_limit)) {
      entries = uint64_t(pragma(writer, "SELECT count(*) FROM proven"));  // other processes add too
      const uint64_t taken = uint64_t(double(entries) * double(cap_bytes) / double(used));
      limit = limit == 0 ? taken : std::min(limit, taken);
      used_at_limit = used;
    }
    if (limit == 0 || entries <= limit) return;
    prune(entries - limit * 9 / 10);
  }

  // Deletes `count` entries, those with the least work first.
  void prune(uint64_t count) {
    writer.exec("BEGIN IMMEDIATE", "making room");
    try {
      uint64_t below = 0;  // entries with work < w
      int64_t w = 0;
      {
        Statement hist(writer, "SELECT w, count(*) FROM proven GROUP BY w ORDER BY w");
        while (hist.step("making room")) {
          w = hist.integer(0);
          if (below + uint64_t(hist.integer(1)) >= count) break;
          below += uint64_t(hist.integer(1));
        }
      }
      Statement cheaper(writer, "DELETE FROM proven WHERE w < ?");
      cheaper.bind(1, w).step("making room");
      Statement some(writer, "DELETE FROM proven WHERE key IN (SELECT key FROM proven WHERE w = ? LIMIT ?)");
      some.bind(1, w).bind(2, int64_t(count - below)).step("making room");
      writer.exec("COMMIT", "making room");
    } catch (...) {
      sqlite3_exec(writer.db, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
    entries = uint64_t(pragma(writer, "SELECT count(*) FROM proven"));
  }

  // The writer thread: commits every second, or at once when a batch is full.
  void run() {
    std::unique_lock lock(mutex);
    while (!stopping) {
      wake.wait_for(lock, kWriteEvery, [&] { return stopping || pending.size() >= kBatch; });
      if (stopping || pending.empty()) continue;
      lock.unlock();
      try {
        write_out();
      } catch (const std::exception& e) {
        lock.lock();
        write_error = e.what();
        continue;
      }
      lock.lock();
    }
  }
};

ProvenStore::ProvenStore(const std::string& path, const StoreIdentity& id, double max_mb) {
  if (!(max_mb > 0)) fail(path, "the size cap must be more than 0 MB");
  impl_ = std::make_unique<Impl>(path, id, max_mb);
  impl_->open();
  impl_->thread = std::thread([this] { impl_->run(); });
}

ProvenStore::~ProvenStore() {
  {
    std::lock_guard lock(impl_->mutex);
    impl_->stopping = true;
  }
  impl_->wake.notify_one();
  impl_->thread.join();
  try {
    impl_->write_out();
  } catch (...) {}  // a destructor cannot report it; flush() before closing does
  impl_->readers.clear();
}

std::optional<ProvenPosition> ProvenStore::find(uint64_t key) {
  ++impl_->finds;
  auto p = impl_->find(key);
  if (p) ++impl_->hits;
  return p;
}

void ProvenStore::add(const ProvenPosition& p) {
  ++impl_->adds;
  impl_->add(p);
}

void ProvenStore::flush() {
  {
    std::lock_guard lock(impl_->mutex);
    if (!impl_->write_error.empty()) throw std::runtime_error(impl_->write_error);
  }
  impl_->write_out();
}

ProvenStore::Stats ProvenStore::stats() const {
  return {impl_->entries.load(), impl_->bytes.load(), impl_->finds.load(), impl_->hits.load(),
          impl_->adds.load()};
}

}  // namespace konobi
