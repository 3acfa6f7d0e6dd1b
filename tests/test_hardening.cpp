// The hardening of issue 24: proven results are never written over by a run
// that holds fewer, outputs replace only regular files and never collide on
// a temporary, inputs must be regular files of a sane size, standard output
// that cannot be written fails the command, finished positions are finished
// for bench and verify-proof alike, and bad numbers and huge words get a
// short clear message.
#include <catch2/catch.hpp>

#include "tests/support.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "solver/io/atomic_file.h"
#include "solver/io/results.h"
#include "solver/io/results_merge.h"

using Catch::Contains;
namespace fs = std::filesystem;
using konobi_test::quote;
using konobi_test::run_konobi;
using konobi_test::TempDir;
using Run = konobi_test::RunResult;

namespace {

const fs::path kShipped = fs::path(KONOBI_SOURCE_DIR) / "results";

// Commands here finish in a second or two; a hang fails instead of waiting.
#ifdef KONOBI_SANITIZE_BUILD
const std::string kGuard = "timeout 600 ";
#else
const std::string kGuard = "timeout 60 ";
#endif

std::string slurp(const std::string& path) { return konobi_test::read_all(path); }

void spit(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  REQUIRE(out.good());
}

void require_status(const Run& r, int status) {
  INFO("stdout: " << r.out.substr(0, 2000));
  INFO("stderr: " << r.err.substr(0, 2000));
  REQUIRE(r.exited);
  CHECK(r.status == status);
}

konobi::Results load(const std::string& path) { return konobi::Results::from_json(slurp(path), path); }

bool is_fifo(const std::string& p) { return fs::is_fifo(fs::symlink_status(p)); }

}  // namespace

TEST_CASE("solve refuses to write over proven results unless told to", "[cli][hardening]") {
  TempDir dir;
  const std::string out = dir / "r.json";
  const std::string shipped = slurp((kShipped / "konobi-4x4.json").string());
  REQUIRE(load((kShipped / "konobi-4x4.json").string()).complete());
  spit(out, shipped);

  SECTION("without --resume or --overwrite: a clear refusal, the file untouched") {
    const Run r = run_konobi({"solve", "--size", "4", "--out", out, "--quiet", "--tt-mb", "16"}, kGuard);
    require_status(r, 2);
    CHECK_THAT(r.err, Contains(out) && Contains("16 proven openings") && Contains("--resume") &&
                          Contains("--overwrite"));
    CHECK(slurp(out) == shipped);
  }
  SECTION("from the repository root, the shipped 6x6 file is safe before any memory is taken") {
    // A copy of the layout: results/konobi-6x6.json under the working directory.
    fs::create_directories(dir.path / "results");
    const std::string six = slurp((kShipped / "konobi-6x6.json").string());
    spit(dir / "results/konobi-6x6.json", six);
    const Run r = run_konobi({"solve", "--size", "6", "--quiet", "--tt-mb", "100000000"},
                             "cd " + quote(dir.path.string()) + " && " + kGuard);
    require_status(r, 2);
    CHECK_THAT(r.err, Contains("results/konobi-6x6.json holds") && Contains("--resume"));
    CHECK_FALSE(r.err.find("more memory") != std::string::npos);  // refused before the table
    CHECK(slurp(dir / "results/konobi-6x6.json") == six);
  }
  SECTION("--overwrite replaces them, and is not to be mixed with --resume") {
    const Run bad = run_konobi({"solve", "--size", "4", "--out", out, "--resume", "--overwrite"}, kGuard);
    require_status(bad, 2);
    CHECK_THAT(bad.err, Contains("--resume") && Contains("--overwrite"));
    const Run r = run_konobi(
        {"solve", "--size", "4", "--out", out, "--quiet", "--tt-mb", "16", "--overwrite", "--threads", "1"},
        kGuard);
    require_status(r, 0);
    CHECK(slurp(out) != shipped);
    CHECK(load(out).complete());
  }
  SECTION("--resume with nothing left to do leaves the file exactly as it was") {
    const Run r = run_konobi({"solve", "--size", "4", "--out", out, "--resume", "--tt-mb", "16"}, kGuard);
    require_status(r, 0);
    CHECK_THAT(r.err, Contains("nothing left to do"));
    CHECK(slurp(out) == shipped);  // provenance included
  }
  SECTION("an --out that is not a regular file is refused before the search") {
    const std::string fifo = dir / "fifo";
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    const Run r = run_konobi({"solve", "--size", "4", "--out", fifo, "--quiet", "--tt-mb", "16"}, kGuard);
    require_status(r, 2);
    CHECK_THAT(r.err, Contains("not a regular file"));
    CHECK(is_fifo(fifo));
  }
  SECTION("a file that holds nothing proven is replaced as before") {
    spit(out, "not a results file");
    const Run r = run_konobi({"solve", "--size", "3", "--out", out, "--quiet", "--tt-mb", "1"}, kGuard);
    require_status(r, 0);
    CHECK(load(out).complete());
  }
}

TEST_CASE("saving results keeps what another run proved in the file meanwhile", "[hardening]") {
  const konobi::Results full = load((kShipped / "konobi-4x4.json").string());
  konobi::Results ours = full;
  for (auto& o : ours.openings) o.solved = false, o.winner.clear(), o.continuation.clear();
  REQUIRE(konobi::proven_openings(ours) == 0);

  SECTION("openings proven on disk and not here are taken in") {
    const std::string text = konobi::results_over(ours, full.to_json(), "r.json");
    CHECK(konobi::proven_openings(ours) == 16);
    CHECK(konobi::proven_openings(konobi::Results::from_json(text, "r.json")) == 16);
    for (size_t i = 0; i < ours.openings.size(); ++i)
      CHECK(ours.openings[i].winner == full.openings[i].winner);
  }
  SECTION("a missing file or one that is not a results file is simply replaced") {
    CHECK(konobi::proven_openings(
              konobi::Results::from_json(konobi::results_over(ours, std::nullopt, "r"), "r")) == 0);
    CHECK(konobi::proven_openings(
              konobi::Results::from_json(konobi::results_over(ours, "garbage", "r"), "r")) == 0);
  }
  SECTION("proven openings of another board are never written over") {
    const konobi::Results three = load((kShipped / "konobi-3x3.json").string());
    CHECK_THROWS_WITH(konobi::results_over(ours, three.to_json(), "r.json"),
                      Contains("not replacing r.json"));
  }
}

TEST_CASE("outputs replace regular files only, and follow symbolic links", "[cli][hardening]") {
  TempDir dir;
  SECTION("a FIFO is refused and stays a FIFO") {
    const std::string fifo = dir / "fifo";
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    const Run r = run_konobi({"show", "--size", "3", "--svg", fifo}, kGuard);
    require_status(r, 2);
    CHECK_THAT(r.err, Contains(fifo) && Contains("FIFO") && Contains("only a regular file"));
    CHECK(is_fifo(fifo));
    CHECK_THROWS_WITH(konobi::write_file_atomically(fifo, "x"), Contains("FIFO"));
    CHECK(is_fifo(fifo));
  }
  SECTION("a character device is refused and stays one") {
    // /dev/full's numbers, made here so that a failure cannot harm the real one.
    const std::string dev = dir / "full";
    if (mknod(dev.c_str(), S_IFCHR | 0600, makedev(1, 7)) != 0) {
      WARN("mknod needs privileges this run lacks: the device case is not checked");
      return;
    }
    const Run r = run_konobi({"show", "--size", "3", "--svg", dev}, kGuard);
    require_status(r, 2);
    CHECK_THAT(r.err, Contains("character device"));
    CHECK(fs::is_character_file(fs::symlink_status(dev)));
  }
  SECTION("a directory is refused") {
    fs::create_directories(dir.path / "sub");
    const Run r = run_konobi({"show", "--size", "3", "--svg", dir / "sub"}, kGuard);
    require_status(r, 2);
    CHECK_THAT(r.err, Contains("directory"));
    CHECK(fs::is_directory(dir.path / "sub"));
  }
  SECTION("a symbolic link: its target gets the file and the link stays") {
    const std::string target = dir / "target.svg", link = dir / "link.svg";
    spit(target, "old");
    fs::create_symlink(target, link);
    require_status(run_konobi({"show", "--size", "3", "--svg", link}, kGuard), 0);
    CHECK(fs::is_symlink(link));
    CHECK_THAT(slurp(target), Contains("<svg"));
    // A link to a file not there yet: the file is made where it points.
    const std::string dangling = dir / "dangling.svg", later = dir / "later.svg";
    fs::create_symlink(later, dangling);
    require_status(run_konobi({"show", "--size", "3", "--svg", dangling}, kGuard), 0);
    CHECK(fs::is_symlink(dangling));
    CHECK_THAT(slurp(later), Contains("<svg"));
  }
}

TEST_CASE("two writers of one file never collide on a temporary", "[hardening]") {
  TempDir dir;
  const std::string path = dir / "out.json";
  const std::string a(10000, 'a'), b(10000, 'b');
  std::atomic<int> failures{0};
  auto writer = [&](const std::string& text) {
    for (int i = 0; i < 40; ++i) {
      try {
        konobi::write_file_atomically(path, text);
      } catch (const std::exception&) { ++failures; }
    }
  };
  std::thread t1(writer, a), t2(writer, b);
  t1.join();
  t2.join();
  CHECK(failures == 0);
  const std::string now = slurp(path);
  CHECK((now == a || now == b));
  // Nothing left behind but the file.
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir.path)) {
    ++files;
    CHECK(e.path().string() == path);
  }
  CHECK(files == 1);
}

TEST_CASE("input files must be regular files of a sane size", "[cli][hardening]") {
  TempDir dir;
  SECTION("a device, a FIFO and a directory get a clear message at once") {
    const std::string fifo = dir / "fifo";
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    const Run r = run_konobi({"verify-proof", "/dev/zero", fifo, dir.path.string()}, kGuard);
    require_status(r, 1);
    CHECK_THAT(r.out, Contains("/dev/zero: cannot read /dev/zero: it is a character device"));
    CHECK_THAT(r.out, Contains("it is a FIFO"));
    CHECK_THAT(r.out, Contains("it is a directory"));
    CHECK_FALSE(r.out.find("bad_alloc") != std::string::npos);
    CHECK_FALSE(r.out.find("truncated") != std::string::npos);
    const Run p = run_konobi({"puzzles", "--from", dir.path.string()}, kGuard);
    require_status(p, 2);
    CHECK_THAT(p.err, Contains("is a directory"));
  }
  SECTION("a file over the limit") {
    const std::string big = dir / "big";
    spit(big, std::string(1000, 'x'));
    CHECK_THROWS_WITH(konobi::read_file(big, 999), Contains("1000 bytes") && Contains("999"));
    CHECK(konobi::read_file(big, 1000).size() == 1000);
  }
}

TEST_CASE("a write error on standard output fails the command", "[cli][hardening]") {
  TempDir dir;
  const std::string err = dir / "err";
  const int raw = std::system((quote(KONOBI_BINARY) + " show --size 3 > /dev/full 2> " + quote(err)).c_str());
  REQUIRE(WIFEXITED(raw));
  CHECK(WEXITSTATUS(raw) == 2);
  CHECK_THAT(slurp(err), Contains("cannot write standard output"));
}

TEST_CASE("huge table sizes get the memory message, not a crash", "[cli][hardening]") {
  TempDir dir;
  for (const std::string mb : {"17592186044416", "1e30", "inf"}) {
    const Run r =
        run_konobi({"solve", "--size", "3", "--tt-mb", mb, "--out", dir / "r.json", "--quiet"}, kGuard);
    INFO("--tt-mb " << mb);
    require_status(r, 2);
    CHECK_THAT(r.err, Contains("needs more memory") && Contains("--tt-mb"));
  }
  const Run a = run_konobi({"analyze", "--size", "3", "--tt-mb", "17592186044416"}, kGuard);
  require_status(a, 2);
  CHECK_THAT(a.err, Contains("needs more memory"));
}

TEST_CASE("verify-proof refuses a proof whose start is already won", "[cli][hardening]") {
  TempDir dir;
  // Black's column a joins rows 1 and 3; White's row 3 joins columns a and c.
  const struct {
    const char* start;
    const char* winner;
    const char* won_by;
  } cases[] = {{"B../B../B.. w", "black", "black"},
               {"WWW/B../B.. b", "white", "white"},
               {"B../B../B.. w", "white", "black"}};
  for (const auto& c : cases) {
    INFO(c.start << " claimed for " << c.winner);
    const std::string file = dir / "p.proof";
    spit(file, std::string("konobi-proof 1\nsize 3\nstart ") + c.start + "\nwinner " + c.winner +
                   "\nentries 0\nend\n");
    const Run r = run_konobi({"verify-proof", file}, kGuard);
    require_status(r, 1);
    CHECK_THAT(r.out, Contains("FAIL") && Contains(std::string("already won by ") + c.won_by));
  }
}

TEST_CASE("bench and analyze agree on finished positions", "[cli][hardening]") {
  // Black has won with White to move; a full board Black has won.
  for (const std::string pos : {"B../B../B.. w", "BWB/WBW/BWB w"}) {
    INFO(pos);
    const Run a = run_konobi({"analyze", "-p", pos}, kGuard);
    require_status(a, 0);
    REQUIRE_THAT(a.out, Contains("Black has already won"));
    const Run b = run_konobi({"bench", "--tt-mb", "1", "-p", pos}, kGuard);
    require_status(b, 0);
    CHECK_THAT(b.out, Contains(pos) && Contains("Black has already won"));
    CHECK_FALSE(b.out.find("mover") != std::string::npos);
  }
}

TEST_CASE("bad numbers and huge words get short clear messages", "[cli][hardening]") {
  SECTION("--size 0 is out of range, not missing") {
    for (const std::vector<std::string>& args : {std::vector<std::string>{"show", "--size", "0"},
                                                 {"analyze", "--size", "0"},
                                                 {"perft", "--size", "0", "--depth", "1"}}) {
      const Run r = run_konobi(args, kGuard);
      INFO(args[0]);
      require_status(r, 2);
      CHECK_THAT(r.err, Contains("0 is out of range"));
    }
    const Run pie = run_konobi({"pie", "--size", "0"}, kGuard);
    require_status(pie, 2);
    CHECK_THAT(pie.err, Contains("--size 0 is out of range"));
  }
  SECTION("--class-limit and --think out of range") {
    TempDir dir;
    const Run r =
        run_konobi({"solve", "--size", "3", "--class-limit", "-5", "--out", dir / "r.json"}, kGuard);
    require_status(r, 2);
    CHECK_THAT(r.err, Contains("--class-limit"));
    CHECK_FALSE(fs::exists(dir / "r.json"));
    const Run p = run_konobi({"play", "--size", "3", "--white", "solver", "--think", "1e300"}, kGuard);
    require_status(p, 2);
    CHECK_THAT(p.err, Contains("--think"));
  }
  SECTION("a 130 KB word is echoed by its start") {
    const std::string word(130000, 'x');
    for (const std::vector<std::string>& args : {std::vector<std::string>{"show", "--size", "5", word},
                                                 {"show", "--size", word},
                                                 {"show", "-p", "..../..../..../.... " + word},
                                                 {"solve", "--size", "4", "--game", word}}) {
      const Run r = run_konobi(args, kGuard);
      require_status(r, 2);
      CHECK(r.err.size() < 1000);
      CHECK_THAT(r.err, Contains("xxxxxxxxxx..."));
    }
  }
  SECTION("a record of 100,000 words is rejected at move 1 at once") {
    // Before, the option parser took each word off the front of a list:
    // quadratic, many seconds. The guard turns a relapse into a failure.
    std::vector<std::string> args{"timeout", "10", KONOBI_BINARY, "show", "--size", "5", "b9"};
    args.resize(args.size() + 99999, "a1");
    TempDir dir;
    const std::string err = dir / "err";
    // Too long for one shell command line: the words go to the program as
    // they are, stderr to a file.
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      if (!freopen(err.c_str(), "w", stderr) || !freopen("/dev/null", "w", stdout)) _exit(127);
      execvp(argv[0], argv.data());
      _exit(127);
    }
    int raw = 0;
    REQUIRE(waitpid(pid, &raw, 0) == pid);
    REQUIRE(WIFEXITED(raw));
    CHECK(WEXITSTATUS(raw) == 2);  // 124 when timeout stopped it
    CHECK_THAT(slurp(err), Contains("move 1: 'b9' is off the 5x5 board"));
  }
  SECTION("a long record still reaches its last move") {
    std::vector<std::string> args{"show", "--size", "5", "--json"};
    for (const char* m : {"c3", "b2", "d3"}) args.push_back(m);
    const Run r = run_konobi(args, kGuard);
    require_status(r, 0);
    CHECK_THAT(r.out, Contains("c3 b2 d3"));
    const Run bad = run_konobi({"show", "--size", "5", "c3", "c3"}, kGuard);
    require_status(bad, 2);
    CHECK_THAT(bad.err, Contains("move 2"));
  }
}
