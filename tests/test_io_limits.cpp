// Compressed input through liblzma and zlib: a small .xz that unpacks to far
// more than the limit (a "bomb") is refused with a message naming the file
// and the limit, holding no more than the limit in memory; truncated and
// corrupt .xz and .gz files are refused with a message saying so. And the
// no-draw report's loader checks its fields.
#include <filesystem>
#include <functional>
#include <string>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <nlohmann/json.hpp>

#include "support.h"
#include "solver/io/atomic_file.h"
#include "solver/io/compressed_file.h"
#include "solver/io/nodraw_file.h"

namespace fs = std::filesystem;
using Catch::Contains;
using konobi::Compression;

namespace {

const fs::path kResults = fs::path(KONOBI_SOURCE_DIR) / "results";

std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) { return e.what(); }
  return "accepted";
}

// Runs konobi with `args`, its stdout to `out`; returns its exit status and
// sets `peak_kib` to its own peak resident memory (wait4's rusage: the
// child's alone, which popen's shared-memory spawn would mix with ours).
int run_measured(const std::vector<std::string>& args, const std::string& out, long& peak_kib) {
  std::vector<char*> argv{const_cast<char*>(KONOBI_BINARY)};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    if (!std::freopen(out.c_str(), "w", stdout)) _exit(127);
    execv(KONOBI_BINARY, argv.data());
    _exit(127);
  }
  int status = 0;
  rusage u{};
  REQUIRE(wait4(pid, &status, 0, &u) == pid);
  peak_kib = u.ru_maxrss;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// gzip format (zlib's deflate with a gzip wrapper), as `gzip` writes it.
std::string gzip(const std::string& text) {
  z_stream s{};
  REQUIRE(deflateInit2(&s, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&s, uLong(text.size())), '\0');
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  s.avail_in = uInt(text.size());
  s.next_out = reinterpret_cast<Bytef*>(out.data());
  s.avail_out = uInt(out.size());
  REQUIRE(deflate(&s, Z_FINISH) == Z_STREAM_END);
  out.resize(s.total_out);
  deflateEnd(&s);
  return out;
}

}  // namespace

TEST_CASE("compressed files: a small .xz that unpacks to 1 GiB is refused within the limit", "[compressed]") {
  // 16 MiB of zeros make a few KB of .xz; xz reads streams one after
  // another as one file, so 64 copies unpack to 1 GiB from about 160 KB.
  const std::string one = konobi::compress_xz(std::string(16u << 20, '\0'));
  CHECK(one.size() < 4 * 1024);
  std::string bomb;
  for (int i = 0; i < 64; ++i) bomb += one;
  const konobi_test::TempDir tmp;
  konobi::write_file_atomically(tmp / "bomb.proof.xz", bomb);

  // The program refuses it, naming the file and the limit, having held no
  // more than about the limit: its peak memory stays far below the 1 GiB.
  // A child's peak counts what it shared with this process when forked, so
  // the bomb's run is compared with a run on a small file.
  konobi::write_file_atomically(tmp / "small.proof.xz", konobi::compress_xz("not a proof\n"));
  long small_kib = 0, bomb_kib = 0;
  CHECK(run_measured({"verify-proof", "--max-mb", "8", tmp / "small.proof.xz"}, tmp / "out.txt", small_kib) ==
        1);
  CHECK(run_measured({"verify-proof", "--max-mb", "8", tmp / "bomb.proof.xz"}, tmp / "out.txt", bomb_kib) ==
        1);
  CHECK_THAT(konobi_test::read_all(tmp / "out.txt"),
             Contains("FAIL") && Contains("bomb.proof.xz unpacks to more than 8 MiB, the limit"));
  INFO("peak " << bomb_kib << " KiB, on a small file " << small_kib << " KiB");
  CHECK(bomb_kib - small_kib < 64 * 1024);

  // In memory and from disk.
  CHECK_THAT(refusal([&] { konobi::decompress(bomb, Compression::Xz, "bomb.xz", size_t(32) << 20); }),
             Contains("bomb.xz unpacks to more than 32 MiB"));
  CHECK_THAT(refusal([&] { konobi::read_maybe_compressed(tmp / "bomb.proof.xz", size_t(1) << 20); }),
             Contains(tmp / "bomb.proof.xz") && Contains("unpacks to more than 1 MiB"));
  // Read whole under a limit it fits in; or only its head.
  CHECK(konobi::decompress(one + one, Compression::Xz, "two.xz", size_t(32) << 20).size() == size_t(32)
                                                                                                 << 20);
  CHECK(konobi::read_maybe_compressed(tmp / "bomb.proof.xz", 1000, true) == std::string(1000, '\0'));
}

TEST_CASE("compressed files: round trips, and truncated or corrupt files are refused", "[compressed]") {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "line " + std::to_string(i * 7919 % 10007) + "\n";
  const std::string xz = konobi::compress_xz(text);
  const std::string gz = gzip(text);
  CHECK(konobi::decompress(xz, Compression::Xz, "t.xz") == text);
  CHECK(konobi::decompress(gz, Compression::Gzip, "t.gz") == text);
  CHECK(konobi::decompress(xz + xz, Compression::Xz, "t.xz") == text + text);  // concatenated, as xz allows
  CHECK(konobi::decompress(gz + gz, Compression::Gzip, "t.gz") == text + text);

  CHECK_THAT(refusal([&] { konobi::decompress(xz.substr(0, xz.size() / 2), Compression::Xz, "cut.xz"); }),
             Contains("cut.xz is not a valid .xz file") && Contains("truncated"));
  CHECK_THAT(refusal([&] { konobi::decompress(gz.substr(0, gz.size() / 2), Compression::Gzip, "cut.gz"); }),
             Contains("cut.gz is not a valid .gz file") && Contains("truncated"));
  CHECK_THAT(refusal([&] { konobi::decompress("", Compression::Xz, "empty.xz"); }),
             Contains("empty.xz is not a valid .xz file"));
  CHECK_THAT(refusal([&] { konobi::decompress("", Compression::Gzip, "empty.gz"); }),
             Contains("empty.gz is not a valid .gz file"));
  std::string bad_xz = xz, bad_gz = gz;
  for (size_t i = bad_xz.size() / 3; i < bad_xz.size() / 3 + 16; ++i) bad_xz[i] = char(~bad_xz[i]);
  for (size_t i = bad_gz.size() / 3; i < bad_gz.size() / 3 + 16; ++i) bad_gz[i] = char(~bad_gz[i]);
  CHECK_THAT(refusal([&] { konobi::decompress(bad_xz, Compression::Xz, "bad.xz"); }),
             Contains("bad.xz is not a valid .xz file"));
  CHECK_THAT(refusal([&] { konobi::decompress(bad_gz, Compression::Gzip, "bad.gz"); }),
             Contains("bad.gz is not a valid .gz file"));
  CHECK_THAT(refusal([&] { konobi::decompress(text, Compression::Xz, "plain.xz"); }),
             Contains("not in the .xz format"));
  CHECK_THAT(refusal([&] { konobi::decompress(xz + "junk", Compression::Xz, "tail.xz"); }),
             Contains("tail.xz is not a valid .xz file"));

  // verify-proof says which file and why, and goes on to the next.
  const konobi_test::TempDir tmp;
  konobi::write_file_atomically(tmp / "cut.proof.xz", xz.substr(0, xz.size() / 2));
  konobi::write_file_atomically(tmp / "bad.proof.gz", bad_gz);
  const auto r = konobi_test::run_konobi({"verify-proof", tmp / "cut.proof.xz", tmp / "bad.proof.gz"});
  REQUIRE(r.exited);
  CHECK(r.status == 1);
  CHECK_THAT(r.out, Contains("FAIL  " + tmp / "cut.proof.xz") && Contains("truncated") &&
                        Contains("FAIL  " + tmp / "bad.proof.gz") && Contains("not a valid .gz file"));
  CHECK_THAT(konobi_test::run_konobi({"verify-proof", "--max-mb", "0", tmp / "cut.proof.xz"}).err,
             Contains("--max-mb"));
}

TEST_CASE("nodraw reports: the shipped ones load, and a bad field is refused, naming it",
          "[loaders][nodraw]") {
  using Doc = nlohmann::ordered_json;
  for (int n = 3; n <= 7; ++n) {
    const std::string name = "nodraw-" + std::to_string(n) + "x" + std::to_string(n) + ".json";
    INFO(name);
    const std::string text = konobi_test::read_all((kResults / name).string());
    // Loaded and written back: the same bytes, so the format is unchanged.
    CHECK(konobi::json_text(konobi::read_nodraw_file(text, name)) == text);
  }
  const Doc good = Doc::parse(konobi_test::read_all((kResults / "nodraw-4x4.json").string()));
  REQUIRE(good.contains("reachable"));
  REQUIRE(good.contains("crosscut_free"));
  struct Case {
    const char* what;
    std::function<void(Doc&)> edit;
    const char* message;
  };
  const Case cases[] = {
      {"verdict", [](Doc& d) { d["verdict"] = "counterexample"; },
       "verdict: 'counterexample' but the checks say 'holds'"},
      {"verdict value", [](Doc& d) { d["verdict"] = "maybe"; },
       "verdict: 'maybe' is not holds or counterexample or incomplete"},
      {"totals", [](Doc& d) { d["reachable"]["totals"]["positions"] = 1; },
       "reachable.totals.positions: is not the sum"},
      {"negative", [](Doc& d) { d["reachable"]["plies"][2]["won"] = -1; },
       "reachable.plies[2].won: -1 is negative"},
      {"ply order", [](Doc& d) { d["reachable"]["plies"][2]["ply"] = 5; },
       "reachable.plies[2].ply: expected ply 2"},
      {"draws without a counterexample",
       [](Doc& d) {
         d["reachable"]["plies"][3]["draws"] = 1;
         d["reachable"]["totals"]["draws"] = 1;
       },
       "reachable.totals.draws: counts draws but no counterexample"},
      {"check", [](Doc& d) { d["check"] = "other"; }, "check: 'other' is not no-draw"},
      {"size", [](Doc& d) { d["size"] = 1; }, "size: 1 is out of range"},
      {"missing", [](Doc& d) { d["crosscut_free"].erase("both_stuck"); },
       "crosscut_free.both_stuck: missing"},
      {"tasks",
       [](Doc& d) { d["crosscut_free"]["tasks_done"] = d["crosscut_free"]["tasks"].get<long long>() + 1; },
       "crosscut_free.tasks_done: exceeds tasks"},
      {"neither",
       [](Doc& d) {
         d.erase("reachable");
         d.erase("crosscut_free");
       },
       "neither reachable nor crosscut_free"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    Doc d = good;
    c.edit(d);
    CHECK_THAT(refusal([&] { konobi::read_nodraw_file(d.dump(2), "nd.json"); }),
               Contains("nd.json is not a valid no-draw report") && Contains(c.message));
  }
}
