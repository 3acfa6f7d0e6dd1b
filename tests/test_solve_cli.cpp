// `konobi solve` and `konobi verify-proof` as a user runs them: results
// files, proofs the checker accepts (and tampered ones it refuses), stopping
// with Ctrl-C and resuming, and bad input, which must end with a nonzero
// exit status and a message, never a crash.
#include <catch2/catch.hpp>

#include "tests/support.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/game.h"
#include "core/notation.h"
#include "core/openings.h"
#include "solver/io/atomic_file.h"
#include "solver/io/compressed_file.h"
#include "solver/io/results.h"
#include "solver/jobs/checkpoint.h"
#include "solver/search/alphabeta.h"
#include "solver/search/big_memory.h"
#include "solver/search/parallel_dfpn.h"
#include "solver/search/proof.h"

using Catch::Contains;
namespace fs = std::filesystem;

namespace {

void spit(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  REQUIRE(out.good());
}

using konobi_test::TempDir;

// Runs `prefix konobi args...` through the shell (args quoted), stdin from
// /dev/null, stdout and stderr captured separately. `prefix` is put in
// front unquoted (e.g. a `timeout` command).
using konobi_test::quote;
using konobi_test::run_konobi;
using Run = konobi_test::RunResult;
std::string slurp(const std::string& path) { return konobi_test::read_all(path); }

// Solves that should finish in a second or two run under this, so that a
// stuck search fails the test (status 124) instead of hanging it.
#ifdef KONOBI_SANITIZE_BUILD
const std::string kGuard = "timeout 600 ";
#else
const std::string kGuard = "timeout 120 ";
#endif

// The program stopped by its own choice: an exit status, not a signal (the
// shell reports a child killed by signal N as 128 + N; 130 is our own
// "interrupted" status and is allowed where the caller says so).
void require_no_crash(const Run& r, bool allow_130 = false) {
  INFO("stdout: " << r.out);
  INFO("stderr: " << r.err);
  REQUIRE(r.exited);
  if (!(allow_130 && r.status == 130)) REQUIRE(r.status < 128);
}

void require_status(const Run& r, int status) {
  INFO("stdout: " << r.out);
  INFO("stderr: " << r.err);
  require_no_crash(r);
  CHECK(r.status == status);
}

void require_usage_error(const Run& r, const std::string& expected) {
  require_status(r, 2);
  INFO("stderr: " << r.err);
  CHECK_THAT(r.err, Contains(expected));
}

konobi::Results load(const std::string& path) { return konobi::Results::from_json(slurp(path), path); }

// Point, solved flag and winner of every opening must match.
void require_same_openings(const konobi::Results& a, const konobi::Results& b) {
  REQUIRE(a.size == b.size);
  REQUIRE(a.openings.size() == b.openings.size());
  for (size_t i = 0; i < a.openings.size(); ++i) {
    INFO("opening " << i << ": " << a.openings[i].point);
    CHECK(a.openings[i].point == b.openings[i].point);
    CHECK(a.openings[i].representative == b.openings[i].representative);
    CHECK(a.openings[i].solved == b.openings[i].solved);
    CHECK(a.openings[i].winner == b.openings[i].winner);
  }
}

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> v;
  for (const auto& e : fs::directory_iterator(dir)) v.push_back(e.path().string());
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

TEST_CASE("solve --size 4 writes a complete results file that matches alpha-beta", "[cli]") {
  TempDir dir;
  const std::string out = dir / "r.json";
  const Run r = run_konobi(
      {"solve", "--size", "4", "--out", out, "--quiet", "--tt-mb", "16", "--threads", "2"}, kGuard);
  require_status(r, 0);
  CHECK_THAT(r.out, Contains("White (second player) wins") || Contains("Black (first player) wins"));
  const std::string json = slurp(out);
  CHECK_THAT(json, Contains("\"complete\": true"));
  CHECK_THAT(json, Contains("\"schema\": \"konobi-results/1\""));
  CHECK(r.err.empty());  // --quiet

  const konobi::Results res = load(out);
  REQUIRE(res.size == 4);
  CHECK(res.complete());
  // Every opening, including those only solved through their class
  // representative, carries the value alpha-beta finds for it.
  konobi::AlphaBeta<1> ab(18);
  for (int p = 0; p < 16; ++p) {
    konobi::Position<1> pos = konobi::Position<1>::empty(konobi::Geometry<1>::get(4));
    pos.place(p);
    pos.swap_available = false;
    const auto& o = res.openings[p];
    INFO("opening " << o.point);
    CHECK(o.point == konobi::point_name(4, p));
    CHECK(o.solved);
    CHECK(o.winner == (ab.wins(pos) ? "white" : "black"));
    // The continuation starts with a legal move for White.
    REQUIRE(!o.continuation.empty());
    const konobi::Move m = konobi::parse_move(4, o.continuation.front());
    CHECK((m >= 0 && konobi::konobi_legal_placements(pos).test(m)));
  }
  bool black_opening = false;
  for (const auto& o : res.openings) black_opening |= o.winner == "black";
  CHECK(res.empty_board_winner() == (black_opening ? "black" : "white"));
}

TEST_CASE("solve --proof writes proofs that verify-proof accepts, and tampered ones it rejects", "[cli]") {
  TempDir dir;
  const std::string proofs = dir / "p";
  const Run r = run_konobi(
      {"solve", "--size", "4", "--out", dir / "r.json", "--quiet", "--tt-mb", "16", "--proof", proofs},
      kGuard);
  require_status(r, 0);
  const auto files = files_in(proofs);
  const size_t classes = konobi::opening_classes(konobi::Geometry<1>::get(4)).size();
  REQUIRE(files.size() == classes);
  for (const auto& f : files) CHECK_THAT(f, Catch::EndsWith(".proof.xz"));  // written compressed

  std::vector<std::string> args{"verify-proof"};
  args.insert(args.end(), files.begin(), files.end());
  const Run ok = run_konobi(args);
  require_status(ok, 0);
  CHECK_THAT(ok.out, Contains("OK"));
  CHECK_THAT(ok.out, !Contains("FAIL"));

  // Tamper with one proof: drop an entry line (count fixed) and lie about
  // the winner in another copy.
  std::vector<std::string> lines;
  {
    std::istringstream in(konobi_test::decompress(files[0]));
    for (std::string l; std::getline(in, l);) lines.push_back(l);
  }
  REQUIRE(lines.size() > 7);
  REQUIRE(lines[4].rfind("entries ", 0) == 0);
  const int entries = std::stoi(lines[4].substr(8));
  REQUIRE(entries >= 1);
  {
    auto v = lines;
    v.erase(v.begin() + 5 + entries / 2);
    v[4] = "entries " + std::to_string(entries - 1);
    std::string text;
    for (const auto& l : v) text += l + "\n";
    spit(dir / "missing.proof", text);
  }
  {
    auto v = lines;
    v[3] = v[3] == "winner white" ? "winner black" : "winner white";
    std::string text;
    for (const auto& l : v) text += l + "\n";
    spit(dir / "winner.proof", text);
  }
  const std::string full = konobi_test::decompress(files[0]);
  spit(dir / "truncated.proof", full.substr(0, full.size() / 2));

  for (const std::string name : {"missing.proof", "winner.proof", "truncated.proof"}) {
    INFO(name);
    const Run bad = run_konobi({"verify-proof", dir / name});
    require_status(bad, 1);
    CHECK_THAT(bad.out + bad.err, Contains("FAIL"));
  }
  // One bad file among good ones fails the run, and the good ones still pass.
  args.push_back(dir / "winner.proof");
  const Run mixed = run_konobi(args);
  require_status(mixed, 1);
  CHECK_THAT(mixed.out, Contains("OK") && Contains("FAIL"));

  // Plain and gzip-compressed proofs are read too.
  spit(dir / "p.proof", full);
  require_status(run_konobi({"verify-proof", dir / "p.proof"}), 0);
  if (std::system(("gzip -c " + quote(dir / "p.proof") + " > " + quote(dir / "p.proof.gz")).c_str()) == 0) {
    require_status(run_konobi({"verify-proof", dir / "p.proof.gz"}), 0);
    const std::string gz = slurp(dir / "p.proof.gz");
    spit(dir / "cut.proof.gz", gz.substr(0, gz.size() / 2));
    require_status(run_konobi({"verify-proof", dir / "cut.proof.gz"}), 1);
  }
}

TEST_CASE("a manager solve without --proof says that its classes will have no proof", "[cli]") {
  TempDir dir;
  const std::vector<std::string> base{"solve", "--size", "3", "--manager", "--no-store", "--tt-mb", "16"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return run_konobi(args, kGuard);
  };
  const Run bare = with({"--out", dir / "a.json"});
  require_status(bare, 0);
  CHECK_THAT(bare.err, Contains("no --proof folder") && Contains("--proof results/proofs-3x3"));
  const Run proofs = with({"--out", dir / "b.json", "--proof", dir / "p"});
  require_status(proofs, 0);
  CHECK_THAT(proofs.err, !Contains("no --proof folder"));
  CHECK(!files_in(dir / "p").empty());
  const Run quiet = with({"--out", dir / "c.json", "--quiet"});
  require_status(quiet, 0);
  CHECK(quiet.err.empty());
}

TEST_CASE("a solve resumed from a partial results file reaches the same verdicts", "[cli]") {
  TempDir dir;
  const std::string a = dir / "a.json", b = dir / "b.json", c = dir / "c.json";
  require_status(run_konobi({"solve", "--size", "4", "--out", a, "--quiet", "--tt-mb", "16"}, kGuard), 0);
  const konobi::Results full = load(a);
  REQUIRE(full.complete());

  SECTION("a file with half the classes unsolved") {
    konobi::Results partial = full;
    const auto& g = konobi::Geometry<1>::get(4);
    const auto classes = konobi::opening_classes(g);
    // Forget the first and the third class, and flip nothing else.
    for (int p = 0; p < 16; ++p) {
      const int rep = konobi::opening_representative(g, p);
      if (rep == classes[0] || rep == classes[2]) {
        auto& o = partial.openings[p];
        o.solved = false;
        o.winner.clear();
        o.continuation.clear();
      }
    }
    REQUIRE_FALSE(partial.complete());
    spit(b, partial.to_json());
    REQUIRE_FALSE(load(b).complete());
    const Run r = run_konobi(
        {"solve", "--size", "4", "--out", b, "--resume", "--tt-mb", "16", "--threads", "1"}, kGuard);
    require_status(r, 0);
    CHECK_THAT(r.err, Contains("resuming"));
    const konobi::Results resumed = load(b);
    CHECK(resumed.complete());
    require_same_openings(full, resumed);
    // The time of the earlier run is carried over.
    CHECK(resumed.seconds >= partial.seconds);
  }
  SECTION("--openings solves only the classes named, and --resume the rest") {
    const auto& g = konobi::Geometry<1>::get(4);
    // d2 and a3 name the classes of a2 and a2 again (one class), b1 that of b1.
    require_status(
        run_konobi({"solve", "--size", "4", "--out", b, "--quiet", "--tt-mb", "16", "--openings", "d2,b1,a3"},
                   kGuard),
        0);
    const konobi::Results some = load(b);
    REQUIRE_FALSE(some.complete());
    int solved = 0;
    for (int p = 0; p < 16; ++p) {
      const int rep = konobi::opening_representative(g, p);
      const bool chosen = rep == konobi::parse_point(4, "a2") || rep == konobi::parse_point(4, "b1");
      INFO("point " << p);
      CHECK(some.openings[p].solved == chosen);
      if (chosen) {
        CHECK(some.openings[p].winner == full.openings[p].winner);
        ++solved;
      }
    }
    CHECK(solved == 8);
    require_status(
        run_konobi({"solve", "--size", "4", "--out", b, "--resume", "--quiet", "--tt-mb", "16"}, kGuard), 0);
    const konobi::Results rest = load(b);
    CHECK(rest.complete());
    require_same_openings(full, rest);
  }
  SECTION("a run stopped with SIGINT (or one that finished first)") {
    const Run r = run_konobi(
        {"solve", "--size", "4", "--out", c, "--tt-mb", "1", "--threads", "1", "--no-symmetry", "--no-eval"},
        "timeout --preserve-status -s INT 0.3 ");
    require_no_crash(r, true);
    CHECK((r.status == 0 || r.status == 130));
    if (fs::exists(c)) CHECK_THAT(slurp(c), Contains("\"schema\""));
    const Run r2 = run_konobi(
        {"solve", "--size", "4", "--out", c, "--resume", "--tt-mb", "1", "--threads", "1", "--quiet"},
        kGuard);
    require_status(r2, 0);
    const konobi::Results resumed = load(c);
    CHECK(resumed.complete());
    require_same_openings(full, resumed);
  }
}

TEST_CASE("a class given up keeps its effort on record, and a resumed attempt adds to it", "[cli]") {
  // The 5x5 corner takes seconds: a limit of 1 s always gives it up.
  TempDir dir;
  const std::string out = dir / "effort.json";
  const std::vector<std::string> args = {"solve", "--size",    "5", "--openings", "a1", "--class-limit",
                                         "1",     "--threads", "1", "--tt-mb",    "16", "--out",
                                         out};
  const Run first = run_konobi(args, kGuard);
  require_status(first, 0);
  CHECK_THAT(first.out, Contains("Not proven: a1 after"));
  const konobi::Results once = load(out);
  const auto& g = konobi::Geometry<1>::get(5);
  for (int p = 0; p < 25; ++p) {
    INFO("point " << konobi::point_name(5, p));
    const konobi::OpeningResult& o = once.openings[p];
    REQUIRE_FALSE(o.solved);
    if (konobi::opening_representative(g, p) == konobi::parse_point(5, "a1")) {
      CHECK(o.nodes > 0);
      CHECK(o.seconds >= 1.0);
      CHECK(o.pn > 0);
      CHECK(o.dn > 0);
      CHECK(o.pn < konobi::kInf);
      CHECK(o.dn < konobi::kInf);
    } else {
      CHECK(o.nodes == 0);  // never searched
    }
  }
  std::vector<std::string> again = args;
  again.push_back("--resume");
  const Run second = run_konobi(again, kGuard);
  require_status(second, 0);
  CHECK_THAT(second.err, Contains("searched before without a proof: a1 "));
  const konobi::Results twice = load(out);
  const int a1 = konobi::parse_point(5, "a1");
  REQUIRE_FALSE(twice.openings[a1].solved);
  CHECK(twice.openings[a1].nodes > once.openings[a1].nodes);
  CHECK(twice.openings[a1].seconds >= once.openings[a1].seconds + 1.0);
  CHECK(twice.nodes == twice.openings[a1].nodes);
}

TEST_CASE("solve stops cleanly on SIGINT, saves, and resumes from the saved file", "[cli]") {
  // 5x5 takes minutes, so it is always interrupted here.
  TempDir dir;
  const std::string out = dir / "r5.json";
  const Run first = run_konobi({"solve", "--size", "5", "--tt-mb", "64", "--threads", "2", "--out", out},
                               "timeout --preserve-status -s INT 1.5 ");
  require_no_crash(first, true);
  INFO("stderr: " << first.err);
  REQUIRE((first.status == 130 || first.status == 0));
  REQUIRE(fs::exists(out));
  const std::string json = slurp(out);
  CHECK_THAT(json, Contains("\"schema\""));
  const konobi::Results saved = load(out);
  CHECK(saved.size == 5);
  if (first.status == 130) {
    CHECK_THAT(first.err, Contains("interrupted") && Contains("--resume"));
    CHECK_FALSE(saved.complete());
    CHECK_THAT(json, Contains("\"complete\": false"));
    // The classes being searched at the stop keep the work spent on them.
    bool effort = false;
    for (const auto& o : saved.openings) effort |= !o.solved && o.nodes > 0 && o.pn > 0;
    CHECK(effort);
  }
  CHECK(saved.seconds > 0);

  const Run second =
      run_konobi({"solve", "--size", "5", "--tt-mb", "64", "--threads", "2", "--out", out, "--resume"},
                 "timeout --preserve-status -s INT 1.5 ");
  require_no_crash(second, true);
  INFO("stderr (resumed): " << second.err);
  REQUIRE((second.status == 130 || second.status == 0));
  CHECK_THAT(second.err, Contains("resuming"));
  const konobi::Results again = load(out);
  // Nothing proven is lost, and the time spent accumulates.
  for (size_t i = 0; i < saved.openings.size(); ++i) {
    INFO("opening " << saved.openings[i].point);
    if (saved.openings[i].solved) {
      CHECK(again.openings[i].solved);
      CHECK(again.openings[i].winner == saved.openings[i].winner);
    }
  }
  CHECK(again.seconds > saved.seconds);
  CHECK(again.nodes >= saved.nodes);
}

TEST_CASE("a solve short of memory stops as on Ctrl-C, saving, and carries on from its checkpoint", "[cli]") {
  TempDir dir;
  const std::string out = dir / "r5.json";
  const std::vector<std::string> base{"solve",      "--size", "5",       "--manager", "--no-store",
                                      "--openings", "a1",     "--tt-mb", "64",        "--threads",
                                      "2",          "--out",  out,       "--proof",   dir / "p"};
  // A floor above any machine's memory: the guard's first look (half a
  // second in) stops the run, long before 5x5 a1 is proven.
  std::vector<std::string> short_of = base;
  for (const char* a : {"--memory-floor-mb", "100000000"}) short_of.push_back(a);
  const Run first = run_konobi(short_of);
  require_no_crash(first, true);
  INFO("stderr: " << first.err);
  REQUIRE(first.status == 130);
  CHECK_THAT(first.err,
             Contains("of memory is left") && Contains("--memory-floor-mb") && Contains("--resume"));
  CHECK(fs::exists(dir / "r5.checkpoint.xz"));
  CHECK_FALSE(load(out).complete());
  // Without the floor the run carries on from the checkpoint to the value.
  std::vector<std::string> resumed = base;
  for (const char* a : {"--resume", "--memory-floor-mb", "0"}) resumed.push_back(a);
  const Run second = run_konobi(resumed);
  require_no_crash(second, true);
  INFO("stderr (resumed): " << second.err);
  REQUIRE(second.status == 0);
  CHECK_THAT(second.err, Contains("resuming"));
  const konobi::Results r = load(out);
  CHECK(r.openings[0].solved);
  CHECK(r.openings[0].winner == "white");
  // Out of range: a usage error.
  std::vector<std::string> bad = base;
  for (const char* a : {"--memory-floor-mb", "-1"}) bad.push_back(a);
  const Run refused = run_konobi(bad);
  CHECK(refused.status == 2);
  CHECK_THAT(refused.err, Contains("--memory-floor-mb must be"));
}

// A 5x5 class solved by the job manager with proofs, in a folder of its
// own (r5.json, p/): its arguments with more added, and its first run,
// which the memory guard's first look stops (as in the test above) so
// that the class is carried over from its checkpoint; that checkpoint and
// results file are kept (saved.checkpoint.xz, saved.json) to run the
// class's end again from them.
struct CarriedClass {
  TempDir dir;
  const std::string out = dir / "r5.json", proofs = dir / "p";
  const std::vector<std::string> base;
  explicit CarriedClass(const char* opening)
      : base{"solve", "--size",    "5", "--manager", "--no-store", "--openings", opening, "--tt-mb",
             "64",    "--threads", "2", "--out",     out,          "--proof",    proofs} {}
  std::vector<std::string> with(std::initializer_list<const char*> more) const {
    std::vector<std::string> a = base;
    a.insert(a.end(), more.begin(), more.end());
    return a;
  }
  void first_run() const {
    const Run first = run_konobi(with({"--memory-floor-mb", "100000000"}));
    require_no_crash(first, true);
    REQUIRE(first.status == 130);
    REQUIRE(fs::exists(dir / "r5.checkpoint.xz"));
    fs::copy_file(dir / "r5.checkpoint.xz", dir / "saved.checkpoint.xz");
    fs::copy_file(out, dir / "saved.json");
  }
  // Each part named was written as the job manager's tree proved its
  // reply, and not again at the class's end.
  static void written_by_tree(const Run& r, std::initializer_list<const char*> replies) {
    for (const std::string m : replies) {
      CHECK_THAT(r.err, Contains("part " + m + " written as the job manager's tree proved it ("));
      CHECK_THAT(r.err, !Contains("part " + m + " written ("));
    }
  }
  // A resumed run that must finish (exit 0); `name` labels its stderr.
  Run resumed(const char* name, std::initializer_list<const char*> more = {}) const {
    std::vector<std::string> a = with({"--resume", "--memory-floor-mb", "0"});
    a.insert(a.end(), more.begin(), more.end());
    const Run r = run_konobi(a);
    require_no_crash(r, true);
    INFO("stderr (" << name << "): " << r.err);
    REQUIRE(r.status == 0);
    return r;
  }
  // The second, resumed, which proves the class in parts.
  void second_run() const { resumed("resumed"); }
};

// Three 5x5 solves of a class (20 s in Release): only outside the sanitizer
// build, where they would take ten times as long. The checker's side of
// format 3 is tested there too (test_proofs.cpp).
#ifndef KONOBI_SANITIZE_BUILD
TEST_CASE("a class carried over and lost by its mover is proven in parts, one a reply, kept across a stop",
          "[cli]") {
  // 5x5 a2, which Black wins: White to move loses, so the proof covers all
  // 24 replies.
  const CarriedClass c("a2");
  const TempDir& dir = c.dir;
  const std::string &out = c.out, &proofs = c.proofs;
  auto with = [&](std::initializer_list<const char*> more) { return c.with(more); };
  c.first_run();
  c.second_run();
  const konobi::Results r = load(out);
  const int a2 = konobi::parse_point(5, "a2");
  REQUIRE(r.openings[a2].solved);
  CHECK(r.openings[a2].winner == "black");
  const fs::path file = fs::path(proofs) / "konobi-5x5-a2.proof.xz",
                 parts = fs::path(proofs) / "konobi-5x5-a2.parts";
  REQUIRE(fs::exists(file));
  REQUIRE(files_in(parts).size() == 24);
  const std::string index = konobi_test::decompress(file);
  CHECK(index.rfind(
            "konobi-proof 3\nsize 5\nstart ...../...../...../B..../..... w\nwinner black\nentries 24\na1 "
            "konobi-5x5-a2.parts/a1.proof.xz\n",
            0) == 0);
  const Run ok = run_konobi({"verify-proof", file});
  INFO(ok.out);
  require_status(ok, 0);
  CHECK_THAT(ok.out, Contains("format 3, 24 parts, " + std::to_string(r.openings[a2].proof_size) +
                              " strategy entries"));
  // Each part is told on stderr as it holds, in the index's order.
  CHECK_THAT(ok.err, Contains("  part 1 of 24 holds: " + (parts / "a1.proof.xz").string() + " ("));
  CHECK_THAT(ok.err, Contains("  part 24 of 24 holds: " + (parts / "e5.proof.xz").string() + " ("));
  CHECK(ok.err.find("part 1 of 24") < ok.err.find("part 24 of 24"));

  // A part that is not a checked proof fails the whole: a part missing,
  // one proving another position, one that fails.
  {
    const std::string e5 = slurp(parts / "e5.proof.xz");
    fs::rename(parts / "e5.proof.xz", dir / "e5.proof.xz");
    const Run missing = run_konobi({"verify-proof", file});
    require_status(missing, 1);
    CHECK_THAT(missing.out, Contains("part konobi-5x5-a2.parts/e5.proof.xz"));
    fs::copy_file(parts / "d5.proof.xz", parts / "e5.proof.xz");
    const Run other = run_konobi({"verify-proof", file});
    require_status(other, 1);
    CHECK_THAT(other.out, Contains("not the position after e5"));
    fs::remove(parts / "e5.proof.xz");
    spit(parts / "e5.proof.xz", e5);
  }

  // The checkpoint a stop in the middle of the class's end leaves: the
  // class as its proven root alone.
  auto cut_to_proven_root = [&] {
    konobi::Checkpoint cut = konobi::read_checkpoint(dir / "r5.checkpoint.xz");
    REQUIRE(cut.classes.size() == 1);
    cut.classes[0].nodes_list.assign(1, konobi::CheckpointNode{});
    cut.classes[0].nodes_list[0].value = konobi::CheckpointNode::Value::MoverLoses;
    konobi::write_checkpoint(dir / "r5.checkpoint.xz", cut);
  };

  // The class's end again, as after a stop in the middle of it: a part
  // missing and a part cut short are built again, the others kept.
  fs::copy_file(dir / "saved.checkpoint.xz", dir / "r5.checkpoint.xz", fs::copy_options::overwrite_existing);
  cut_to_proven_root();
  fs::copy_file(dir / "saved.json", out, fs::copy_options::overwrite_existing);
  fs::remove(file);
  fs::remove(parts / "c3.proof.xz");
  const std::string b4 = slurp(parts / "b4.proof.xz");
  spit(parts / "b4.proof.xz", b4.substr(0, b4.size() / 2));
  // An earlier run's rounds had reached 64 Mi nodes a part: this one starts there.
  spit(parts / "rounds", "budget 67108864\n");
  const Run third = c.resumed("third");
  INFO("stderr (third): " << third.err);
  CHECK_THAT(third.err, Contains("part b4 written (") && Contains("part c3 written ("));
  CHECK_THAT(third.err, !Contains("part a1 written") && !Contains("part e5 written"));
  CHECK_THAT(third.err, Contains("the parts' rounds go on from an earlier run's: 67.1M nodes a part"));
  CHECK_FALSE(fs::exists(parts / "rounds"));  // gone with the class's file
  const Run again = run_konobi({"verify-proof", file});
  INFO(again.out);
  require_status(again, 0);
  // The results count the entries of every part, kept or built again.
  CHECK_THAT(again.out,
             Contains(", " + std::to_string(load(out).openings[a2].proof_size) + " strategy entries"));

  // A rounds file that does not read is said so and passed over.
  fs::copy_file(dir / "saved.checkpoint.xz", dir / "r5.checkpoint.xz", fs::copy_options::overwrite_existing);
  cut_to_proven_root();
  fs::copy_file(dir / "saved.json", out, fs::copy_options::overwrite_existing);
  fs::remove(file);
  fs::remove(parts / "c3.proof.xz");
  spit(parts / "rounds", "budget lots\n");
  const Run fourth = c.resumed("fourth");
  INFO("stderr (fourth): " << fourth.err);
  CHECK_THAT(fourth.err, Contains("rounds does not read as `budget N`") && Contains("part c3 written ("));
  require_status(run_konobi({"verify-proof", file}), 0);

  // Past --part-budget-max the parts left go back to the job manager, here
  // at once (0: no rounds on the table): from a class's end that a stop
  // cut short (the checkpoint keeps its proven root alone) ...
  auto again_without = [&](std::initializer_list<const char*> removed) {
    fs::copy_file(dir / "saved.checkpoint.xz", dir / "r5.checkpoint.xz",
                  fs::copy_options::overwrite_existing);
    fs::copy_file(dir / "saved.json", out, fs::copy_options::overwrite_existing);
    fs::remove(file);
    for (const char* p : removed) fs::remove(parts / p);
  };
  again_without({"c3.proof.xz", "b4.proof.xz", "rounds"});
  cut_to_proven_root();
  const Run fifth = c.resumed("fifth", {"--part-budget-max", "0"});
  INFO("stderr (fifth): " << fifth.err);
  CHECK_THAT(fifth.err,
             Contains("a2: 2 parts of its proof are left past the rounds on the table (up to 0 nodes "
                      "a part); the job manager searches them, its tree kept in the checkpoint"));
  // Each part is written as soon as the manager's tree proves its reply,
  // not again at the class's end.
  c.written_by_tree(fifth, {"b4", "c3"});
  CHECK_FALSE(fs::exists(parts / "rounds"));
  require_status(run_konobi({"verify-proof", file}), 0);
  // The same with the checkpoint of a root proven since hints: it keeps
  // each reply with the move that won it (here e5 for both, a legal move
  // of Black's; a hint orders the jobs and decides nothing), and the
  // replies handed back are searched from those moves.
  again_without({"c3.proof.xz", "b4.proof.xz", "rounds"});
  cut_to_proven_root();
  {
    konobi::Checkpoint cut = konobi::read_checkpoint(dir / "r5.checkpoint.xz");
    cut.classes[0].nodes_list[0].expanded = true;
    for (const char* reply : {"b4", "c3"}) {
      konobi::CheckpointNode won;
      won.path = {konobi::Move(konobi::parse_point(5, reply))};
      won.value = konobi::CheckpointNode::Value::MoverWins;
      won.best = konobi::Move(konobi::parse_point(5, "e5"));
      cut.classes[0].nodes_list.push_back(won);
    }
    konobi::write_checkpoint(dir / "r5.checkpoint.xz", cut);
  }
  const Run hinted = c.resumed("fifth, with the replies' moves", {"--part-budget-max", "0"});
  INFO("stderr (fifth, with the replies' moves): " << hinted.err);
  CHECK_THAT(hinted.err, Contains("the job manager searches them, its tree kept in the checkpoint; the moves "
                                  "that won them before are searched first: b4 e5, c3 e5"));
  c.written_by_tree(hinted, {"b4", "c3"});
  require_status(run_konobi({"verify-proof", file}), 0);
  // ... and, stopped after the hand-over, from the checkpoint's tree (here
  // the open tree of the first run: the parts on disk say its root was
  // proven, and the tree goes on with the two replies whose parts are not
  // there, the others settled), whatever --part-budget-max then says.
  again_without({"c3.proof.xz", "b4.proof.xz"});
  const Run sixth = c.resumed("sixth", {"--part-budget-max", "1e15"});
  INFO("stderr (sixth): " << sixth.err);
  CHECK_THAT(sixth.err, Contains("a2: an earlier run proved its root and began its proof in parts") &&
                            Contains("the job manager searches the 2 replies left"));
  c.written_by_tree(sixth, {"b4", "c3"});
  require_status(run_konobi({"verify-proof", file}), 0);
  // Out of range: a usage error.
  const Run bad = run_konobi(with({"--part-budget-max", "-1"}));
  CHECK(bad.status == 2);
  CHECK_THAT(bad.err, Contains("--part-budget-max must be"));
}

TEST_CASE("a class carried over and won by its mover is proven in parts below its winning move", "[cli]") {
  // 5x5 a1, which White wins: the class file names White's move alone, and
  // the file it names is a proof in parts over Black's replies to it.
  const CarriedClass c("a1");
  const TempDir& dir = c.dir;
  const std::string& out = c.out;
  const fs::path proofs = c.proofs, file = proofs / "konobi-5x5-a1.proof.xz",
                 folder = proofs / "konobi-5x5-a1.parts";
  c.first_run();
  c.second_run();
  const konobi::Results r = load(out);
  REQUIRE(r.openings[0].solved);
  CHECK(r.openings[0].winner == "white");
  REQUIRE(fs::exists(file));
  const std::string head =
      "konobi-proof 3\nsize 5\nstart ...../...../...../...../B.... w\nwinner white\nentries 1\n";
  const std::string index = konobi_test::decompress(file);
  REQUIRE(index.rfind(head, 0) == 0);
  // "c5 konobi-5x5-a1.parts/c5.proof.xz": the move the run proved.
  const std::string move = index.substr(head.size(), index.find(' ', head.size()) - head.size());
  INFO("the winning move: " << move);
  CHECK(index == head + move + " konobi-5x5-a1.parts/" + move + ".proof.xz\nend\n");
  const fs::path below = folder / (move + ".proof.xz"), parts = folder / (move + ".parts");
  REQUIRE(files_in(folder) == std::vector<std::string>{parts.string(), below.string()});
  const std::string inner = konobi_test::decompress(below);
  REQUIRE(inner.rfind("konobi-proof 3\n", 0) == 0);
  // One entry, and one part, for each of Black's replies.
  const size_t replies = files_in(parts).size();
  CHECK(replies >= 20);
  CHECK_THAT(inner, Contains("\nentries " + std::to_string(replies) + "\n"));
  const Run ok = run_konobi({"verify-proof", file});
  INFO(ok.out << ok.err);
  require_status(ok, 0);
  CHECK_THAT(ok.out,
             Contains("format 3, 1 part, " + std::to_string(r.openings[0].proof_size) + " strategy entries"));
  CHECK_THAT(ok.err, Contains("  part " + std::to_string(replies) + " of " + std::to_string(replies) +
                              " holds: " + (parts / "").string()));

  // Stopped in the middle of that proof: the checkpoint keeps the class as
  // its root proven with its winning move, and the folder the parts
  // written so far. The next run takes the move from the checkpoint and
  // builds the parts missing or cut short, keeping the others; what an
  // earlier run began below another move goes.
  konobi::Checkpoint cut = konobi::read_checkpoint(dir / "saved.checkpoint.xz");
  REQUIRE(cut.classes.size() == 1);
  cut.classes[0].nodes_list.assign(1, konobi::CheckpointNode{});
  cut.classes[0].nodes_list[0].value = konobi::CheckpointNode::Value::MoverWins;
  cut.classes[0].nodes_list[0].best = konobi::parse_point(5, move);
  konobi::write_checkpoint(dir / "r5.checkpoint.xz", cut);
  fs::copy_file(dir / "saved.json", out, fs::copy_options::overwrite_existing);
  fs::remove(file);
  fs::remove(below);
  const std::vector<std::string> before = files_in(parts);
  fs::remove(before[0]);
  const std::string second = slurp(before[1]);
  spit(before[1], second.substr(0, second.size() / 2));
  const std::string kept = slurp(before[2]);
  fs::create_directories(folder / "b2.parts");
  spit(folder / "b2.parts" / "a1.proof.xz", "an earlier run's part below another move");
  const Run third = c.resumed("third");
  CHECK_THAT(third.err, Contains("proof of a1: White wins by " + move + "; its proof is written in parts"));
  // Two parts built again, the others kept as they were.
  CHECK_THAT(third.err,
             Contains("written (" + std::to_string(replies - 1) + " of " + std::to_string(replies)));
  CHECK_THAT(third.err, !Contains("written (" + std::to_string(replies - 2) + " of "));
  CHECK(slurp(before[2]) == kept);
  CHECK(files_in(parts) == before);
  CHECK_FALSE(fs::exists(folder / "b2.parts"));
  // Checked two parts at a time: the same verdict, the parts told in order.
  const Run again = run_konobi({"verify-proof", "--threads", "2", file});
  INFO(again.out);
  require_status(again, 0);
  CHECK_THAT(again.out, Contains("format 3, 1 part, "));
  CHECK(again.err.find("  part 1 of " + std::to_string(replies)) <
        again.err.find("  part " + std::to_string(replies) + " of " + std::to_string(replies)));
  CHECK(load(out).openings[0].solved);
  const Run none = run_konobi({"verify-proof", "--threads", "0", file});
  CHECK(none.status == 2);
  CHECK_THAT(none.err, Contains("--threads must be from 1 to 1024"));
}
#endif

TEST_CASE("a reply the manager's tree proves in a class in parts is written at once, with its mirror image",
          "[cli]") {
  // 5x5 a3, which Black wins: its root is symmetric (the rows flipped), so
  // the manager's tree has one child for the replies a2 and a4, and the
  // part it proves is written for both. Carried over, then proven in
  // parts, one per reply:
  const CarriedClass c("a3");
  c.first_run();
  c.second_run();
  const TempDir& dir = c.dir;
  const std::string &out = c.out, &proofs = c.proofs;
  const fs::path file = fs::path(proofs) / "konobi-5x5-a3.proof.xz",
                 parts = fs::path(proofs) / "konobi-5x5-a3.parts";
  REQUIRE(fs::exists(file));
  REQUIRE(files_in(parts).size() == 24);

  // Resumed from checkpoint `cp` without the twins' parts: the parts on
  // disk say the root was proven, the tree searches the one child left and
  // writes both parts as soon as it proves it.
  const konobi::Checkpoint saved = konobi::read_checkpoint(dir / "saved.checkpoint.xz");
  auto without_twins = [&](const konobi::Checkpoint& cp, const char* name) {
    konobi::write_checkpoint(dir / "r5.checkpoint.xz", cp);
    fs::copy_file(dir / "saved.json", out, fs::copy_options::overwrite_existing);
    fs::remove(file);
    fs::remove(parts / "a2.proof.xz");
    fs::remove(parts / "a4.proof.xz");
    const Run run = c.resumed(name);
    INFO("stderr (" << name << "): " << run.err);
    CHECK_THAT(run.err, Contains("a3: an earlier run proved its root and began its proof in parts"));
    c.written_by_tree(run, {"a2", "a4"});
    REQUIRE(files_in(parts).size() == 24);
    return run;
  };
  // From the first run's checkpoint:
  const Run third = without_twins(saved, "third");
  INFO("stderr (third): " << third.err);
  CHECK_THAT(third.err, Contains("the job manager searches the 1 reply left"));
  const konobi::Results r = load(out);
  const int a3 = konobi::parse_point(5, "a3");
  REQUIRE(r.openings[a3].solved);
  CHECK(r.openings[a3].winner == "black");
  const Run ok = run_konobi({"verify-proof", file});
  INFO(ok.out);
  require_status(ok, 0);
  CHECK_THAT(ok.out, Contains("format 3, 24 parts, " + std::to_string(r.openings[a3].proof_size) +
                              " strategy entries"));

  // A reply the saved tree holds proven without its part (a stop cut the
  // part short, or an older run proved it) is searched again by the tree,
  // whose table is gone, and written as it falls, not left to the class's
  // end. The first run's tree, its root expanded and a2 proven in it:
  konobi::Checkpoint proven_a2 = saved;
  REQUIRE(proven_a2.classes.size() == 1);
  konobi::CheckpointNode root = proven_a2.classes[0].nodes_list.at(0);
  root.expanded = true;
  konobi::CheckpointNode proven;
  proven.path = {konobi::Move(konobi::parse_point(5, "a2"))};
  proven.value = konobi::CheckpointNode::Value::MoverWins;  // Black, to move after a2, wins
  proven_a2.classes[0].nodes_list = {root, proven};
  const Run fourth = without_twins(proven_a2, "fourth");
  INFO("stderr (fourth): " << fourth.err);
  CHECK_THAT(fourth.err,
             Contains("the job manager searches the 1 reply left (a2, which its tree had proven, is "
                      "searched again, since the table that proved it is gone)"));
  require_status(run_konobi({"verify-proof", file}), 0);
  // With the move that won it on record (here b3, a legal move of Black's
  // there; a hint orders the jobs and decides nothing), that move is
  // searched first, and the proof is the same kind.
  proven_a2.classes[0].nodes_list[1].best = konobi::Move(konobi::parse_point(5, "b3"));
  const Run fifth = without_twins(proven_a2, "fifth");
  INFO("stderr (fifth): " << fifth.err);
  CHECK_THAT(fifth.err, Contains("(a2, which its tree had proven, is searched again, since the table that "
                                 "proved it is gone; the move that won before is searched first: a2 b3)"));
  require_status(run_konobi({"verify-proof", file}), 0);
}

// Parts are only written when a class's mover loses. A new proof that the
// mover wins, with parts on disk, means one of two searches is wrong: the
// parts are set aside with a warning, never deleted.
TEST_CASE("a proof that the mover wins, over parts that say it loses, sets the parts aside and warns",
          "[cli]") {
  TempDir dir;
  const fs::path proofs = fs::path(std::string(dir / "p"));
  const fs::path parts = proofs / "konobi-4x4-b2.parts", index = proofs / "konobi-4x4-b2.proof.xz";
  const auto plant = [&] {
    fs::create_directories(parts);
    spit(parts / "a1.proof.xz", "a part of an earlier run");
    spit(parts / "rounds", "budget 16777216\n");
    spit(index, "an index naming the parts");
  };
  const auto solve = [&] {
    fs::remove(std::string(dir / "r.json"));
    return run_konobi({"solve", "--size", "4", "--openings", "b2", "--out", dir / "r.json", "--tt-mb", "16",
                       "--proof", proofs.string()},
                      kGuard);
  };
  plant();
  const Run first = solve();
  require_status(first, 0);
  CHECK_THAT(first.err,
             Contains("warning: b2: this run proves White wins, but an earlier run proved Black wins "
                      "and wrote 1 part of that proof: one of the two searches is wrong") &&
                 Contains((proofs / "disputed").string()));
  CHECK(slurp(proofs / "disputed" / "konobi-4x4-b2.parts" / "a1.proof.xz") == "a part of an earlier run");
  CHECK(slurp(proofs / "disputed" / "konobi-4x4-b2.proof.xz") == "an index naming the parts");
  CHECK_FALSE(fs::exists(parts));
  const Run ok = run_konobi({"verify-proof", index.string()});
  require_status(ok, 0);
  CHECK_THAT(ok.out, Contains("white wins"));

  // A second dispute does not overwrite the first.
  plant();
  require_status(solve(), 0);
  CHECK(fs::exists(proofs / "disputed-2" / "konobi-4x4-b2.parts" / "a1.proof.xz"));
  CHECK(fs::exists(proofs / "disputed" / "konobi-4x4-b2.parts" / "a1.proof.xz"));

  // Rounds alone prove nothing: the folder goes, without a warning.
  fs::create_directories(parts);
  spit(parts / "rounds", "budget 16777216\n");
  const Run quiet = solve();
  require_status(quiet, 0);
  CHECK_THAT(quiet.err, !Contains("warning"));
  CHECK_FALSE(fs::exists(parts));
  CHECK_FALSE(fs::exists(proofs / "disputed-3"));
}

// The options that order the manager's jobs (--hint, --easiest-first):
// a 4x4 solve by the manager into the folder, with more options, and the
// values a results file there holds.
struct Manager4x4 {
  const TempDir& dir;
  Run operator()(const std::string& out, const std::vector<std::string>& extra) const {
    std::vector<std::string> args{"solve", "--size",    "4", "--manager", "--no-store", "--tt-mb",
                                  "16",    "--threads", "1", "--out",     dir / out};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_konobi(args, kGuard);
  }
  std::vector<std::string> values(const std::string& file) const {
    const konobi::Results r = load(dir / file);
    std::vector<std::string> v;
    for (const auto& o : r.openings) v.push_back(o.point + " " + o.winner + (o.solved ? "" : "?"));
    return v;
  }
};

TEST_CASE("solve --hint orders the manager's jobs, gives the same values, and refuses what is not a move",
          "[cli]") {
  TempDir dir;
  const Manager4x4 with{dir};
  // The hinted move of b2's root and a move two deep in a1's tree: the
  // same values as a solve without hints, and a line for each.
  const Run plain = with("plain.json", {});
  require_status(plain, 0);
  const Run hinted = with("hinted.json", {"--hint", "b2:c3", "--hint", "a1:b2,c3"});
  require_status(hinted, 0);
  CHECK_THAT(hinted.err, Contains("hint: b2:c3 is searched first while it is open") &&
                             Contains("hint: a1:b2,c3 is searched first while it is open"));
  CHECK(with.values("hinted.json") == with.values("plain.json"));

  SECTION("bad hints") {
    require_usage_error(with("x.json", {"--hint", "b2"}), "no ':' between the class and the moves");
    require_usage_error(with("x.json", {"--hint", "b2:"}), "no moves after the class");
    require_usage_error(with("x.json", {"--hint", "b2:z9"}), "--hint 'b2:z9'");
    require_usage_error(with("x.json", {"--hint", "b2:swap"}), "swap is not a move of a class's tree");
    // c2 is in b2's class (a mirror image): the tree is named by b2.
    require_usage_error(with("x.json", {"--hint", "c2:b3"}), "c2 is in the class of b2");
    // b2 holds Black's first stone: not a move at the class's root.
    require_usage_error(with("x.json", {"--hint", "b2:b2"}),
                        "b2 is not a move the search makes at the class's root");
    require_usage_error(with("x.json", {"--hint", "b2:c3,c3"}),
                        "c3 is not a move the search makes at the position after c3");
    require_usage_error(with("x.json", {"--openings", "a1", "--hint", "b2:c3"}),
                        "the class b2 is not searched in this run");
    const Run plain_search =
        run_konobi({"solve", "--size", "4", "--no-manager", "--hint", "b2:c3", "--out", dir / "x.json"});
    require_usage_error(plain_search, "--hint is an option of the job manager");
    CHECK_FALSE(fs::exists(dir / "x.json"));
  }
}

TEST_CASE("solve --easiest-first orders a class's replies, gives the same values, and refuses bad classes",
          "[cli]") {
  TempDir dir;
  const Manager4x4 with{dir};
  // 4x4's classes are all won by White, the mover at their roots: taking
  // White's replies nearest to refutation first is the worst order there,
  // and the values are still the same.
  const Run plain = with("plain.json", {});
  require_status(plain, 0);
  const Run easiest = with("easiest.json", {"--easiest-first", "b2,a1"});
  require_status(easiest, 0);
  CHECK_THAT(easiest.err,
             Contains("easiest first: b2's jobs take its open replies nearest to refutation first") &&
                 Contains("easiest first: a1's jobs take its open replies nearest to refutation first"));
  CHECK(with.values("easiest.json") == with.values("plain.json"));
  // With a hint at the same root (the hint goes first) the values hold too.
  const Run both = with("both.json", {"--easiest-first", "b2", "--hint", "b2:c3"});
  require_status(both, 0);
  CHECK(with.values("both.json") == with.values("plain.json"));

  SECTION("bad classes") {
    require_usage_error(with("x.json", {"--easiest-first", "z9"}), "--easiest-first: ");
    require_usage_error(with("x.json", {"--easiest-first", ""}), "--easiest-first needs at least one point");
    require_usage_error(with("x.json", {"--easiest-first", "c2"}), "c2 is in the class of b2");
    require_usage_error(with("x.json", {"--openings", "a1", "--easiest-first", "b2"}),
                        "the class b2 is not searched in this run");
    const Run plain_search = run_konobi(
        {"solve", "--size", "4", "--no-manager", "--easiest-first", "b2", "--out", dir / "x.json"});
    require_usage_error(plain_search, "--easiest-first is an option of the job manager");
    CHECK_FALSE(fs::exists(dir / "x.json"));
  }
}

// The proof pieces beside a checkpoint are also written into the table as
// proven when a manager solve starts (table_seed.h), so that a class
// carried over runs does not search again on its empty table what the
// pieces hold. Here the pieces hold a whole proof of 5x5 c2 (the shipped
// one, its entry lines as a segment): seeded, the class is proven without
// a node searched; with --cold-table it is searched as before. Both proofs
// are accepted by verify-proof.
TEST_CASE("a manager solve writes its proof pieces into the table: a class they prove needs no search",
          "[cli]") {
  TempDir dir;
  const std::string shipped = konobi::decompress(
      konobi::read_file(std::string(KONOBI_SOURCE_DIR) + "/results/proofs-5x5/konobi-5x5-c2.proof.xz"),
      konobi::Compression::Xz, "the shipped proof");
  // Its entries and end, after the four lines of the proof's header.
  size_t at = 0;
  for (int i = 0; i < 4; ++i) at = shipped.find('\n', at) + 1;
  REQUIRE(shipped.compare(at, 8, "entries ") == 0);
  const std::string segment = "pieces 1\ngame konobi 5x5\nclass c2\n" + shipped.substr(at);
  const auto solve = [&](const std::string& name, std::vector<std::string> extra) {
    fs::create_directories(dir / (name + ".pieces"));
    spit(dir / (name + ".pieces") + "/c2-0001.xz", konobi::compress_xz(segment));
    std::vector<std::string> args{"solve",
                                  "--size",
                                  "5",
                                  "--manager",
                                  "--no-store",
                                  "--openings",
                                  "c2",
                                  "--tt-mb",
                                  "64",
                                  "--threads",
                                  "1",
                                  "--out",
                                  dir / (name + ".json"),
                                  "--proof",
                                  dir / (name + "-proofs")};
    args.insert(args.end(), extra.begin(), extra.end());
    const Run r = run_konobi(args, kGuard);
    require_status(r, 0);
    const konobi::Results res = load(dir / (name + ".json"));
    const auto& c2 = res.openings[konobi::parse_point(5, "c2")];
    REQUIRE(c2.solved);
    CHECK(c2.winner == "white");  // the shipped value
    const Run check = run_konobi({"verify-proof", dir / (name + "-proofs") + "/konobi-5x5-c2.proof.xz"});
    INFO("verify-proof: " << check.out << check.err);
    CHECK(check.status == 0);
    return std::pair{r, c2.nodes};
  };
  const auto [seeded, seeded_nodes] = solve("seeded", {});
  CHECK_THAT(seeded.err, Contains("read 62204 proof piece entries from") &&
                             Contains("62204 positions written into the table as proven"));
  CHECK(seeded_nodes == 0);
  const auto [cold, cold_nodes] = solve("cold", {"--cold-table"});
  CHECK_THAT(cold.err, Contains("read 62204 proof piece entries from"));
  CHECK_THAT(cold.err, !Contains("written into the table"));
  CHECK(cold_nodes > 10000);
  // Only the manager keeps pieces.
  require_usage_error(
      run_konobi({"solve", "--size", "4", "--no-manager", "--cold-table", "--out", dir / "x.json"}),
      "--cold-table is an option of the job manager");
}

TEST_CASE("solve and verify-proof refuse bad input without crashing", "[cli]") {
  TempDir dir;
  const std::string out = dir / "r.json";
  SECTION("sizes out of range") {
    require_usage_error(run_konobi({"solve", "--size", "9", "--out", out}), "--size 9");
    require_usage_error(run_konobi({"solve", "--size", "2", "--out", out}), "--size 2");
    require_usage_error(run_konobi({"solve", "--size", "-1", "--out", out}), "out of range");
    require_usage_error(run_konobi({"solve", "--size", "four", "--out", out}), "konobi solve");
    require_usage_error(run_konobi({"solve", "--out", out}), "size");
    CHECK_FALSE(fs::exists(out));
  }
  SECTION("threads") {
    require_usage_error(run_konobi({"solve", "--size", "4", "--threads", "0", "--out", out}), "--threads");
    require_usage_error(run_konobi({"solve", "--size", "4", "--threads", "-3", "--out", out}), "--threads");
    CHECK_FALSE(fs::exists(out));
  }
  SECTION("a replay budget out of range") {
    require_usage_error(run_konobi({"solve", "--size", "4", "--simulation", "-1", "--out", out}),
                        "--simulation");
    require_usage_error(run_konobi({"bench", "--simulation", "100001"}), "--simulation");
    CHECK_FALSE(fs::exists(out));
  }
  SECTION("--openings with a point that is not one") {
    require_usage_error(run_konobi({"solve", "--size", "4", "--openings", "b1,e5", "--out", out}), "e5");
    require_usage_error(run_konobi({"solve", "--size", "4", "--openings", "b1,,c2", "--out", out}),
                        "--openings");
    require_usage_error(run_konobi({"solve", "--size", "4", "--openings", "", "--out", out}), "--openings");
    CHECK_FALSE(fs::exists(out));
  }
  SECTION("a table too small for one bucket") {
    const Run r = run_konobi({"solve", "--size", "4", "--tt-mb", "0.00001", "--out", out});
    require_status(r, 2);
    CHECK_THAT(r.err, Contains("MB"));
    CHECK_FALSE(fs::exists(out));
  }
  SECTION("a table larger than the memory available") {
    // Twice MemAvailable: rounded down to a power of two of buckets, still
    // more than is available, and perhaps less than the kernel would map.
    const size_t mib = konobi::available_memory_bytes() >> 20;
    REQUIRE(mib > 0);
    const Run r =
        run_konobi({"solve", "--size", "4", "--tt-mb", std::to_string(2 * (mib + 1)), "--out", out});
    require_status(r, 2);
    CHECK_THAT(r.err, Contains("available") && Contains("--tt-mb"));
    CHECK_FALSE(fs::exists(out));
  }
  SECTION("--resume with a corrupt results file") {
    const std::string garbage = "{\"schema\": \"konobi-results/1\", \"size\": 4, \"openings\": [ garbage";
    spit(out, garbage);
    const Run r = run_konobi({"solve", "--size", "4", "--out", out, "--resume", "--tt-mb", "1"});
    require_status(r, 2);
    CHECK_THAT(r.err, Contains(out) && Contains("not a valid results file"));
    CHECK(slurp(out) == garbage);  // the user's file is left alone
  }
  SECTION("--resume with a results file of another size") {
    require_status(run_konobi({"solve", "--size", "3", "--out", out, "--quiet", "--tt-mb", "1"}, kGuard), 0);
    const std::string before = slurp(out);
    const Run r = run_konobi({"solve", "--size", "4", "--out", out, "--resume", "--tt-mb", "1"});
    require_status(r, 2);
    CHECK_THAT(r.err, Contains("3x3"));
    CHECK(slurp(out) == before);
  }
  SECTION("verify-proof on a missing file") {
    const Run r = run_konobi({"verify-proof", dir / "no-such.proof"});
    require_status(r, 1);
    CHECK_THAT(r.out + r.err, Contains("no-such.proof"));
  }
  SECTION("verify-proof on garbage") {
    spit(dir / "garbage.proof", "\x01\x02 not a proof at all\n\n\xff");
    const Run r = run_konobi({"verify-proof", dir / "garbage.proof"});
    require_status(r, 1);
    CHECK_THAT(r.out + r.err, Contains("FAIL") && Contains("garbage.proof"));
  }
  SECTION("verify-proof on an empty file and a directory") {
    spit(dir / "empty.proof", "");
    require_status(run_konobi({"verify-proof", dir / "empty.proof"}), 1);
    require_status(run_konobi({"verify-proof", dir.path}), 1);
  }
  SECTION("verify-proof with no file") { require_usage_error(run_konobi({"verify-proof"}), "proof file"); }
}

TEST_CASE("bench -p solves the given positions and refuses ones it cannot", "[cli]") {
  SECTION("a 4x4 opening: the verdict matches alpha-beta") {
    const std::string text = "..../..../..../.B.. w";
    const Run r = run_konobi({"bench", "--tt-mb", "1", "-p", text});
    require_status(r, 0);
    konobi::AlphaBeta<1> ab(16);
    const bool wins = ab.wins(konobi::from_text<1>(konobi::parse_position(text)));
    CHECK_THAT(r.out, Contains(text) && Contains(wins ? "mover wins" : "mover loses"));
    CHECK_THAT(r.out, Contains("fingerprint"));
  }
  SECTION("--proof: the proof's entries, as the builder counts them on the same solve") {
    const std::string text = "..../..../.B../.... w";
    const Run r = run_konobi({"bench", "--tt-mb", "1", "--proof", "-p", text});
    require_status(r, 0);
    const auto pos = konobi::from_text<1>(konobi::parse_position(text));
    konobi::TranspositionTable tt(1);
    const konobi::DfpnOptions opt;
    const bool wins = konobi::solve_position<1>(pos, tt, opt, 1, nullptr).mover_wins;
    konobi::ProofBuilder<1> builder(tt, opt);
    const size_t entries = builder.size(pos, wins ? pos.to_move : konobi::other(pos.to_move));
    REQUIRE(entries > 0);
    CHECK_THAT(r.out, Contains("proof entries " + std::to_string(entries) + ","));
    require_usage_error(run_konobi({"bench", "--game", "gonnect", "--proof"}), "Konobi");
  }
  SECTION("boards over 8x8 and malformed positions") {
    require_usage_error(run_konobi({"bench", "-p", "9/9/9/9/9/9/9/9/9 b"}), "8x8");
    const Run r = run_konobi({"bench", "-p", "..../..Q./..../.... w"});
    require_status(r, 2);
    CHECK_FALSE(r.err.empty());
  }
}

TEST_CASE("play with the solver on both sides: the second player wins, as the pie rule predicts", "[cli]") {
  // 3x3 has winning openings (White swaps after them), 4x4 has none (White
  // keeps White); either way the solve says the second player wins.
  for (const char* size : {"3", "4"}) {
    const Run r = run_konobi(
        {"play", "--size", size, "--black", "solver", "--white", "solver", "--think", "60"}, kGuard);
    require_status(r, 0);
    REQUIRE_THAT(r.out, Catch::Contains("(second player) wins"));
    REQUIRE_THAT(r.out, Catch::Contains("has a proven win"));
  }
}

TEST_CASE("play --vs solver answers a person and refuses bad settings", "[cli]") {
  TempDir dir;
  const std::string input = dir / "moves.txt";
  // b1 on 3x3 loses for Black (the solve proves White wins after it).
  std::string lines = "b1\nzz\n";
  for (int i = 0; i < 4; ++i) lines += "a1\na2\na3\nb1\nb2\nb3\nc1\nc2\nc3\n";
  spit(input, lines);
  const Run game = run_konobi({"play", "--size", "3", "--vs", "solver", "--think", "60"}, kGuard, input);
  require_status(game, 0);
  REQUIRE_THAT(game.out, Catch::Contains("is not a point"));
  REQUIRE_THAT(game.out, Catch::Contains("White (solver) keeps White"));
  REQUIRE_THAT(game.out, Catch::Contains("has a proven win"));
  REQUIRE_THAT(game.out, Catch::Contains("White (second player) wins"));
  require_usage_error(run_konobi({"play", "--size", "3", "--vs", "solver", "--white", "random"}), "not both");
  require_usage_error(run_konobi({"play", "--size", "3", "--vs", "robot"}), "human");
  require_usage_error(run_konobi({"play", "--size", "3", "--vs", "solver", "--think", "0"}), "--think");
  require_usage_error(run_konobi({"play", "--size", "9", "--vs", "solver"}), "up to 8x8");
}
