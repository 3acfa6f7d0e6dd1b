// The store of proven positions (solver/store, docs/JOBS.md): what is added
// is found again after reopening; a store of another identity, a newer
// format, a truncated or damaged file and a file that is no store are
// refused with the path; the cap keeps the costliest entries; threads add
// and find at once; df-pn with a store gives the values it gives without,
// and a second solve on a filled store visits far fewer nodes; a proof is
// built from the store when the table was cleared.
#include <catch2/catch.hpp>

#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "solver/store/proven_store.h"
#include "solver_support.h"

using Catch::Contains;
using namespace solver_test;
namespace fs = std::filesystem;

namespace {

// A fresh folder under the system's temporary one, removed at the end.
struct TempDir {
  fs::path dir;
  TempDir() {
    static int n = 0;
    dir = fs::temp_directory_path() /
          ("konobi-store-test-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    fs::remove_all(dir);
  }
  ~TempDir() { fs::remove_all(dir); }
  std::string file(const std::string& name) const { return (dir / name).string(); }
};

konobi::StoreIdentity identity(int n = 4) {
  const Pos probe = opening(n, 0);
  return {"konobi " + std::to_string(n) + "x" + std::to_string(n), true,
          konobi::KonobiSearch::key(probe, true)};
}

konobi::ProvenPosition entry(uint64_t i, uint8_t work = 20) {
  std::mt19937_64 mix(i);
  return {mix(), (i & 1) != 0, int8_t((i & 1) ? i % 16 : -1), work};
}

bool same(const konobi::ProvenPosition& a, const konobi::ProvenPosition& b) {
  return a.key == b.key && a.mover_wins == b.mover_wins && a.best == b.best && a.work == b.work;
}

void fill(const std::string& path, int count) {
  konobi::ProvenStore store(path, identity(), 64);
  for (int i = 0; i < count; ++i) store.add(entry(i));
}

// The message of the std::runtime_error that opening `path` throws ("" if none).
std::string refusal(const std::string& path, const konobi::StoreIdentity& id = identity()) {
  try {
    konobi::ProvenStore store(path, id, 64);
  } catch (const std::runtime_error& e) { return e.what(); }
  return "";
}

void sql(const std::string& path, const char* statement) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  CHECK(sqlite3_exec(db, statement, nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(db);
}

}  // namespace

TEST_CASE("store: what is added is found at once and after reopening", "[store]") {
  TempDir tmp;
  const std::string path = tmp.file("a/b/store.sqlite");  // folders made on the way
  {
    konobi::ProvenStore store(path, identity(), 64);
    for (int i = 0; i < 3000; ++i) store.add(entry(i));
    for (int i = 0; i < 3000; ++i) {  // buffered or written: found either way
      const auto p = store.find(entry(i).key);
      REQUIRE(p);
      CHECK(same(*p, entry(i)));
    }
    CHECK_FALSE(store.find(entry(5000).key));
    store.add(entry(7, 40));  // a costlier proof of a known position replaces its record
    store.add(entry(8, 4));   // a cheaper one does not
    store.flush();
    const auto s = store.stats();
    CHECK(s.entries == 3000);
    CHECK(s.bytes > 0);
    CHECK(s.adds == 3002);
    CHECK(s.finds == 3001);
    CHECK(s.hits == 3000);
  }
  konobi::ProvenStore store(path, identity(), 64);
  CHECK(store.stats().entries == 3000);
  for (int i = 0; i < 3000; ++i) {
    const auto p = store.find(entry(i).key);
    REQUIRE(p);
    CHECK(same(*p, entry(i, i == 7 ? 40 : 20)));
  }
  CHECK_FALSE(store.find(entry(5000).key));
}

TEST_CASE("store: a store of another identity or a newer format is refused", "[store]") {
  TempDir tmp;
  const std::string path = tmp.file("store.sqlite");
  fill(path, 10);
  konobi::StoreIdentity id = identity();
  id.game = "konobi 5x5";
  CHECK_THAT(refusal(path, id), Contains(path) && Contains("another game") && Contains("konobi 4x4"));
  id = identity();
  id.symmetry = false;
  CHECK_THAT(refusal(path, id), Contains(path) && Contains("another keying"));
  id = identity();
  id.key_check ^= 1;
  CHECK_THAT(refusal(path, id), Contains(path) && Contains("another key set"));
  CHECK(refusal(path).empty());
  sql(path, "PRAGMA user_version=2");
  CHECK_THAT(refusal(path), Contains(path) && Contains("newer"));
}

TEST_CASE("store: a file that is no store is refused", "[store]") {
  TempDir tmp;
  fs::create_directories(tmp.dir);
  const std::string text = tmp.file("text.sqlite");
  std::ofstream(text)
      << "not a database, only some text that is long enough to fill a header and then some more\n";
  CHECK_THAT(refusal(text), Contains(text) && Contains("not a database"));
  const std::string other = tmp.file("other.sqlite");
  sql(other, "CREATE TABLE t(x)");
  CHECK_THAT(refusal(other), Contains(other) && Contains("not a store"));
  CHECK(refusal(tmp.file("new.sqlite")).empty());  // a missing one is made
  std::string what;
  try {
    konobi::ProvenStore s(tmp.file("x.sqlite"), identity(), 0);
  } catch (const std::runtime_error& e) { what = e.what(); }
  CHECK_THAT(what, Contains("x.sqlite") && Contains("cap"));
}

TEST_CASE("store: a truncated or damaged file is refused, not used", "[store]") {
  TempDir tmp;
  const std::string path = tmp.file("store.sqlite");
  fill(path, 20000);
  const auto size = fs::file_size(path);
  const size_t page = 4096;
  REQUIRE(size > 40 * page);
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const auto write = [&](const std::string& b) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << b;
  };
  SECTION("truncated") {
    for (const size_t keep : {size / 2, size - page, size - 100, size_t(3 * page + 17)}) {
      write(bytes.substr(0, keep));
      INFO("kept " << keep << " of " << size << " bytes");
      CHECK_THAT(refusal(path), Contains(path) && Contains("damaged"));
    }
  }
  SECTION("bytes flipped") {
    // Pages 1 and 2 are the schema and the identity; the rows are behind them.
    for (const size_t p : {size_t(0), size_t(4), size / page / 2, size / page - 1}) {
      // Six bytes of the page's first cell (its B-tree header: 100 bytes
      // in on page 1; 12 bytes long on interior pages, 8 on leaves).
      std::string b = bytes;
      const size_t at = p * page + (p == 0 ? 100 : 0);
      const int type = b[at];
      const size_t pointer = at + (type == 2 || type == 5 ? 12 : 8);
      const size_t cell = p * page + (size_t(uint8_t(b[pointer])) << 8 | uint8_t(b[pointer + 1]));
      for (size_t i = cell; i < cell + 6; ++i) b[i] = char(b[i] ^ 0x5a);
      write(b);
      INFO("page " << p + 1);
      CHECK_THAT(refusal(path), Contains(path) && Contains("damaged"));
    }
  }
  SECTION("one bit of one value flipped") {
    // A change that leaves every record well formed: only the row's own
    // checksum tells. The value's low byte (its work) of the first row.
    write(bytes);
    sql(path,
        "UPDATE proven SET v = CASE WHEN v & 1 THEN v - 1 ELSE v + 1 END WHERE key = (SELECT min(key) FROM "
        "proven)");
    CHECK_THAT(refusal(path), Contains(path) && Contains("checksum"));
  }
}

TEST_CASE("store: past its cap the entries with the least work go", "[store]") {
  TempDir tmp;
  const std::string path = tmp.file("store.sqlite");
  const double cap_mb = 0.5;
  const int count = 100000;
  const auto work = [](int i) { return uint8_t(1 + (i * 7919) % 97); };
  SECTION("added under the cap: the file stays near it, its freed room reused") {
    konobi::ProvenStore store(path, identity(), cap_mb);
    for (int i = 0; i < count; ++i) store.add(entry(i, work(i)));
    store.flush();
    const auto s = store.stats();
    CHECK(s.entries < uint64_t(count / 2));
    CHECK(s.entries > uint64_t(count / 20));
    CHECK(double(s.bytes) < cap_mb * 1024 * 1024 * 1.1);  // 1.01-1.04 seen
  }
  SECTION("reopened with a smaller cap: the costliest stay") {
    {
      konobi::ProvenStore store(path, identity(), 64);
      for (int i = 0; i < count; ++i) store.add(entry(i, work(i)));
    }
    konobi::ProvenStore store(path, identity(), cap_mb);
    const auto s = store.stats();
    CHECK(s.entries < uint64_t(count / 2));
    CHECK(s.entries > uint64_t(count / 20));
    int kept_min = 1000, gone_max = -1;
    uint64_t kept = 0;
    for (int i = 0; i < count; ++i) {
      if (store.find(entry(i).key)) kept_min = std::min(kept_min, int(work(i))), ++kept;
      else gone_max = std::max(gone_max, int(work(i)));
    }
    CHECK(kept == s.entries);
    CHECK(kept_min >= gone_max);  // ties at the boundary may go either way
    CHECK(gone_max > 1);
  }
}

TEST_CASE("store: threads add and find at once", "[store]") {
  TempDir tmp;
  const std::string path = tmp.file("store.sqlite");
  konobi::ProvenStore store(path, identity(), 64);
  constexpr int kThreads = 4, kEach = 5000;
  std::atomic<int> missing{0}, wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = t * kEach; i < (t + 1) * kEach; ++i) {
        store.add(entry(i));
        const auto own = store.find(entry(i).key);  // this process's own adds: at once
        if (!own) ++missing;
        else if (!same(*own, entry(i))) ++wrong;
        const int other = (i * 31 + 7) % (kThreads * kEach);  // another thread's: now or later
        if (const auto p = store.find(entry(other).key); p && !same(*p, entry(other))) ++wrong;
      }
    });
  for (auto& t : threads) t.join();
  CHECK(missing == 0);
  CHECK(wrong == 0);
  store.flush();
  CHECK(store.stats().entries == uint64_t(kThreads * kEach));
  // A second opening of the same file (another process's view) sees them.
  konobi::ProvenStore second(path, identity(), 64);
  for (int i = 0; i < kThreads * kEach; i += 97) CHECK(second.find(entry(i).key));
}

namespace {

struct Solved {
  bool wins;
  uint64_t nodes;
};

Solved solve(const Pos& pos, konobi::ProvenSource* store, uint64_t min_nodes) {
  konobi::TranspositionTable tt(16);
  konobi::DfpnOptions opt;
  opt.store = store;
  opt.store_min_nodes = min_nodes;
  konobi::Dfpn<1> dfpn(tt, opt);
  const bool wins = dfpn.solve(pos);
  return {wins, dfpn.nodes()};
}

}  // namespace

TEST_CASE("store: df-pn with a store gives the values it gives without, and far fewer nodes the second time",
          "[store][solver]") {
  TempDir tmp;
  std::vector<Pos> positions = openings4();
  for (const Pos& p : random_positions(5, kSanitize ? 4 : 12, 8, 12, 777u)) positions.push_back(p);
  const uint64_t min_nodes = 256;
  konobi::ProvenStore store(tmp.file("store.sqlite"), identity(), 64);
  uint64_t without_nodes = 0, first_nodes = 0, second_nodes = 0;
  for (const Pos& pos : positions) {
    const Solved off = solve(pos, nullptr, min_nodes);
    const Solved first = solve(pos, &store, min_nodes);
    INFO(show(pos));
    CHECK(first.wins == off.wins);
    without_nodes += off.nodes, first_nodes += first.nodes;
  }
  CHECK(store.stats().adds > 0);
  store.flush();
  for (const Pos& pos : positions) {
    const Solved off = solve(pos, nullptr, min_nodes);
    const Solved second = solve(pos, &store, min_nodes);
    INFO(show(pos));
    CHECK(second.wins == off.wins);
    second_nodes += second.nodes;
  }
  INFO("nodes: without " << without_nodes << ", first " << first_nodes << ", second " << second_nodes);
  CHECK(second_nodes * 10 < without_nodes);
}

TEST_CASE("store: a proof is built from the store when the table was cleared", "[store][proof]") {
  TempDir tmp;
  konobi::ProvenStore store(tmp.file("store.sqlite"), identity(5), 64);
  for (const Pos& pos : random_positions(5, kSanitize ? 2 : 4, 8, 11, 4242u)) {
    konobi::TranspositionTable tt(16);
    konobi::DfpnOptions opt;
    opt.store = &store;
    // Every proven position near the root is stored: with must-play
    // regions a position's proof may cost fewer nodes than any threshold.
    opt.store_min_nodes = 1;
    const bool wins = konobi::Dfpn<1>(tt, opt).solve(pos);
    tt.clear();
    const konobi::Color winner = wins ? pos.to_move : konobi::other(pos.to_move);
    const konobi::Proof proof = konobi::ProofBuilder<1>(tt, opt).build(pos, winner);
    const auto c = konobi::check_proof(proof.to_text());
    INFO(show(pos) << ": " << c.message);
    CHECK(c.ok);
    CHECK(c.winner == (winner == konobi::Black ? "black" : "white"));
    CHECK(c.entries == proof.entries.size());
  }
  CHECK(store.stats().hits > 0);
}
