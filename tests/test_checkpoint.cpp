// The checkpoint file (solver/jobs/checkpoint.h, docs/JOBS.md): a round trip
// keeps every field; every damaged or foreign file is refused with a message
// naming the file and what is wrong (truncated anywhere, a byte flipped in
// the compressed data or in the text, a wrong version or checksum, an unknown
// field, a bad move, a number out of range, a child before its parent); and
// the lock keeps a second process out, naming the holder, until the holder
// releases it or dies (even by kill -9).
#include <catch2/catch.hpp>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>

#include <sys/wait.h>
#include <unistd.h>
#include <xxhash.h>

#include "core/notation.h"
#include "solver/io/atomic_file.h"
#include "solver/io/compressed_file.h"
#include "solver/jobs/checkpoint.h"
#include "solver/search/tt.h"
#include "temp_dir.h"

namespace fs = std::filesystem;
using Catch::Contains;
using konobi::Checkpoint;
using konobi::CheckpointClass;
using konobi::CheckpointLock;
using konobi::CheckpointNode;
using konobi::kInf;
using konobi::kPass;
using Value = CheckpointNode::Value;
using konobi_test::TempDir;

namespace {

std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) { return e.what(); }
  return "accepted";
}

int pt(int n, const char* name) { return konobi::parse_point(n, name); }

CheckpointNode node(std::vector<konobi::Move> path, Value v, uint32_t pn, uint32_t dn, uint64_t job_nodes,
                    uint32_t jobs, konobi::Move best, bool expanded) {
  CheckpointNode x;
  x.path = std::move(path);
  x.value = v;
  x.pn = pn, x.dn = dn, x.job_nodes = job_nodes, x.jobs = jobs, x.best = best, x.expanded = expanded;
  return x;
}

// Two classes of a 5x5 Konobi solve: open and proven nodes, a pass inside a
// path, numbers at their limits, and a class with its root alone.
Checkpoint konobi_checkpoint() {
  const int n = 5;
  Checkpoint c;
  c.game = "konobi", c.size = n, c.variant = "", c.symmetry = true, c.job_nodes = 300;
  CheckpointClass a;
  a.opening = pt(n, "c3"), a.jobs = 17, a.nodes = 5100, a.seconds = 0.125;
  const int b2 = pt(n, "b2"), d4 = pt(n, "d4"), e5 = pt(n, "e5");
  a.nodes_list = {
      node({}, Value::Open, 3, 7, 300, 1, -1, true),
      node({b2}, Value::Open, 7, 2, 600, 2, -1, true),
      node({b2, d4}, Value::MoverWins, 0, kInf, 900, 3, e5, false),
      node({b2, kPass}, Value::Open, kInf - 1, 1, 18446744073709551615ull, 4294967295u, -1, true),
      node({b2, kPass, e5}, Value::MoverLoses, kInf, 0, 0, 0, -1, false),
      node({d4}, Value::Open, 1, 1, 0, 0, -1, false),
  };
  CheckpointClass b;
  b.opening = pt(n, "a1"), b.jobs = 0, b.nodes = 0, b.seconds = 1e-9;
  b.nodes_list = {node({}, Value::Open, 1, 1, 0, 0, -1, false)};
  c.classes = {a, b};
  return c;
}

// A Gonnect-like one: a variant of several words, no symmetry, three classes.
Checkpoint gonnect_checkpoint() {
  const int n = 4;
  Checkpoint c;
  c.game = "gonnect", c.size = n, c.variant = "ko superko, edges either, ghi strict", c.symmetry = false;
  c.job_nodes = 2000000;
  for (const char* p : {"b2", "a1", "d4"}) {
    CheckpointClass k;
    k.opening = pt(n, p), k.jobs = 3, k.nodes = 4000000, k.seconds = 12.3456789;
    k.nodes_list = {node({}, Value::Open, 5, 9, 2000000, 1, -1, true),
                    node({pt(n, "c3")}, Value::MoverWins, 0, kInf, 1000, 1, pt(n, "d1"), false),
                    node({kPass}, Value::Open, 2, 2, 2000000, 1, -1, true),
                    node({kPass, kPass}, Value::MoverLoses, kInf, 0, 10, 1, -1, false)};
    c.classes.push_back(k);
  }
  return c;
}

void require_equal(const Checkpoint& a, const Checkpoint& b) {
  REQUIRE(a.game == b.game);
  REQUIRE(a.size == b.size);
  REQUIRE(a.variant == b.variant);
  REQUIRE(a.symmetry == b.symmetry);
  REQUIRE(a.job_nodes == b.job_nodes);
  REQUIRE(a.classes.size() == b.classes.size());
  for (size_t i = 0; i < a.classes.size(); ++i) {
    const CheckpointClass &x = a.classes[i], &y = b.classes[i];
    REQUIRE(x.opening == y.opening);
    REQUIRE(x.jobs == y.jobs);
    REQUIRE(x.nodes == y.nodes);
    REQUIRE(x.seconds == y.seconds);
    REQUIRE(x.nodes_list.size() == y.nodes_list.size());
    for (size_t j = 0; j < x.nodes_list.size(); ++j) {
      const CheckpointNode &p = x.nodes_list[j], &q = y.nodes_list[j];
      REQUIRE(p.path == q.path);
      REQUIRE(p.value == q.value);
      REQUIRE(p.pn == q.pn);
      REQUIRE(p.dn == q.dn);
      REQUIRE(p.job_nodes == q.job_nodes);
      REQUIRE(p.jobs == q.jobs);
      REQUIRE(p.best == q.best);
      REQUIRE(p.expanded == q.expanded);
    }
  }
}

// The text without its checksum line, and a text with a right checksum
// appended: for altering the contents while keeping the checksum valid, so
// that the check after it is what refuses.
std::string body_of(const std::string& text) { return text.substr(0, text.rfind("checksum ")); }
std::string with_checksum(const std::string& body) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(XXH64(body.data(), body.size(), 0)));
  return body + "checksum " + hex + "\n";
}
std::string replaced(std::string s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

// The refusal of `text` (checksum made right) as a file, xz-compressed.
std::string refusal_of_text(const TempDir& dir, const std::string& body) {
  const std::string path = dir / "altered.checkpoint.xz";
  konobi::write_file_atomically(path, konobi::compress_xz(with_checksum(body)));
  const std::string why = refusal([&] { konobi::read_checkpoint(path); });
  CHECK_THAT(why, Contains(path));
  return why;
}

}  // namespace

TEST_CASE("checkpoint: a round trip keeps every field, in Konobi and Gonnect", "[checkpoint]") {
  TempDir dir;
  for (const Checkpoint& c : {konobi_checkpoint(), gonnect_checkpoint()}) {
    const std::string path = dir / (c.game + ".checkpoint.xz");
    konobi::write_checkpoint(path, c);
    const std::string raw = konobi::read_file(path);
    REQUIRE(raw.substr(0, 6) == std::string("\xfd"
                                            "7zXZ\0",
                                            6));  // xz on disk
    const Checkpoint back = konobi::read_checkpoint(path);
    require_equal(c, back);
    REQUIRE(back.to_text() == c.to_text());
  }
  // The text, line by line, as docs/JOBS.md shows it.
  const std::string text = konobi_checkpoint().to_text();
  REQUIRE(text.substr(0, text.find("checksum")) ==
          "konobi-checkpoint 1\n"
          "game konobi\n"
          "size 5\n"
          "variant\n"
          "symmetry 1\n"
          "job-nodes 300\n"
          "class c3 jobs 17 nodes 5100 seconds 0.125\n"
          "- open 3 7 300 1 - 1\n"
          "b2 open 7 2 600 2 - 1\n"
          "b2,d4 win 0 1073741823 900 3 e5 0\n"
          "b2,pass open 1073741822 1 18446744073709551615 4294967295 - 1\n"
          "b2,pass,e5 loss 1073741823 0 0 0 - 0\n"
          "d4 open 1 1 0 0 - 0\n"
          "class a1 jobs 0 nodes 0 seconds 1e-09\n"
          "- open 1 1 0 0 - 0\n");
  REQUIRE(text == with_checksum(body_of(text)));
  REQUIRE_THAT(gonnect_checkpoint().to_text(), Contains("\nvariant ko superko, edges either, ghi strict\n"));
  REQUIRE_THAT(gonnect_checkpoint().to_text(), Contains("\nc3 win 0 1073741823 1000 1 d1 0\n"));
}

TEST_CASE("checkpoint: a truncated, corrupt or non-xz file is refused naming it", "[checkpoint]") {
  TempDir dir;
  const std::string good = dir / "good.checkpoint.xz";
  konobi::write_checkpoint(good, gonnect_checkpoint());
  const std::string raw = konobi::read_file(good);
  REQUIRE(raw.size() > 100);
  const std::string path = dir / "bad.checkpoint.xz";

  SECTION("truncated at several lengths") {
    for (size_t len : {size_t(0), size_t(3), size_t(6), size_t(12), size_t(40), raw.size() / 2,
                       raw.size() - 9, raw.size() - 1}) {
      konobi::write_file_atomically(path, raw.substr(0, len));
      const std::string why = refusal([&] { konobi::read_checkpoint(path); });
      INFO("length " << len << " of " << raw.size() << ": " << why);
      REQUIRE_THAT(why, Contains("checkpoint " + path));
      if (len < 6) REQUIRE_THAT(why, Contains("is not xz-compressed"));
      else REQUIRE_THAT(why, Contains("is not a valid .xz file"));
    }
  }
  SECTION("a byte flipped inside the compressed data") {
    for (size_t at : {size_t(20), raw.size() / 2, raw.size() - 20}) {
      std::string bad = raw;
      bad[at] = char(bad[at] ^ 0x10);
      konobi::write_file_atomically(path, bad);
      const std::string why = refusal([&] { konobi::read_checkpoint(path); });
      INFO("byte " << at << ": " << why);
      REQUIRE_THAT(why, Contains("checkpoint " + path));
      REQUIRE_THAT(why, Contains("is not a valid .xz file"));
    }
  }
  SECTION("plain text, not xz") {
    konobi::write_file_atomically(path, gonnect_checkpoint().to_text());
    REQUIRE(refusal([&] { konobi::read_checkpoint(path); }) ==
            "checkpoint " + path + " is not xz-compressed (not a checkpoint, or damaged)");
  }
  SECTION("a missing file") {
    REQUIRE_THAT(refusal([&] { konobi::read_checkpoint(dir / "none.checkpoint.xz"); }),
                 Contains(dir / "none.checkpoint.xz"));
  }
  SECTION("an xz file that unpacks to more than the limit") {
    // 64 xz streams of 1 MiB each, as one file (xz concatenates them).
    const std::string one = konobi::compress_xz(std::string(1u << 20, '\n'));
    std::string bomb;
    for (int i = 0; i < 64; ++i) bomb += one;
    konobi::write_file_atomically(path, bomb);
    const std::string why = refusal([&] { konobi::read_checkpoint(path, size_t(8) << 20); });
    REQUIRE_THAT(why, Contains("checkpoint " + path));
    REQUIRE_THAT(why, Contains("unpacks to more than 8 MiB"));
  }
}

TEST_CASE("checkpoint: altered text is refused by its checksum", "[checkpoint]") {
  TempDir dir;
  const std::string text = konobi_checkpoint().to_text();
  const std::string path = dir / "bad.checkpoint.xz";
  auto refusal_of = [&](const std::string& t) {
    konobi::write_file_atomically(path, konobi::compress_xz(t));
    return refusal([&] { konobi::read_checkpoint(path); });
  };
  SECTION("a byte flipped in the text, then recompressed") {
    for (size_t at : {size_t(0), size_t(30), text.size() / 2, text.size() - 30}) {
      std::string bad = text;
      bad[at] = char(bad[at] ^ 0x01);
      const std::string why = refusal_of(bad);
      INFO("byte " << at << ": " << why);
      REQUIRE_THAT(why, Contains("checkpoint " + path + ": the checksum does not match"));
    }
  }
  SECTION("a wrong checksum") {
    const std::string hex = text.substr(text.rfind("checksum ") + 9, 16);
    const std::string other = hex.substr(0, 15) + (hex[15] == '0' ? "1" : "0");
    REQUIRE_THAT(refusal_of(replaced(text, "checksum " + hex, "checksum " + other)),
                 Contains("checkpoint " + path + ": the checksum does not match (the file holds " + other));
  }
  SECTION("a checksum that is not hex") {
    REQUIRE(refusal_of(body_of(text) + "checksum 12345678zz\n") ==
            "checkpoint " + path + ": the checksum '12345678zz' is not 16 hex digits");
  }
  SECTION("no checksum line") {
    REQUIRE(refusal_of(body_of(text)) == "checkpoint " + path + ": no checksum line at the end (cut short?)");
    REQUIRE(refusal_of(text.substr(0, text.size() - 1)) ==
            "checkpoint " + path + ": no checksum line at the end (cut short?)");
    REQUIRE(refusal_of("") == "checkpoint " + path + ": no checksum line at the end (cut short?)");
  }
  SECTION("lines after the checksum") {
    REQUIRE(refusal_of(text + "- open 1 1 0 0 - 0\n") ==
            "checkpoint " + path + ": no checksum line at the end (cut short?)");
  }
}

TEST_CASE("checkpoint: wrong contents with a right checksum are refused by line and field", "[checkpoint]") {
  TempDir dir;
  const std::string body = body_of(konobi_checkpoint().to_text());
  const std::string where = "checkpoint " + (dir / "altered.checkpoint.xz") + ": ";
  auto why = [&](const std::string& b) { return refusal_of_text(dir, b); };

  REQUIRE(why(replaced(body, "konobi-checkpoint 1", "konobi-checkpoint 2")) ==
          where + "line 1: version 2 is newer than this program reads (1); update konobi");
  REQUIRE(why(replaced(body, "konobi-checkpoint 1", "konobi-checkpoint 0")) ==
          where + "line 1: version 0 is unknown");
  REQUIRE(why(replaced(body, "konobi-checkpoint 1", "konobi-results 1")) ==
          where + "line 1: not a konobi checkpoint (the first line must be 'konobi-checkpoint 1')");
  REQUIRE(why(replaced(body, "symmetry 1\n", "colour black\nsymmetry 1\n")) ==
          where + "line 5: unknown field 'colour' (expected 'symmetry')");
  REQUIRE(why(replaced(body, "job-nodes 300\n", "job-nodes 300\nextra 1\n")) ==
          where + "line 7: unknown field 'extra'");
  REQUIRE(why(replaced(body, "size 5", "size 20")) ==
          where + "line 3: size '20' is out of range (at most 19)");
  REQUIRE(why(replaced(body, "size 5", "size 2")) == where + "line 3: size 2 is out of range (3 to 19)");
  REQUIRE(why(replaced(body, "size 5", "size five")) == where + "line 3: size 'five' is not a whole number");
  REQUIRE(why(replaced(body, "symmetry 1", "symmetry yes")) ==
          where + "line 5: symmetry 'yes' is not 0 or 1");
  REQUIRE(why(replaced(body, "job-nodes 300", "job-nodes 18446744073709551616")) ==
          where + "line 6: job-nodes '18446744073709551616' is out of range (at most 18446744073709551615)");
  REQUIRE(why(replaced(body, "job-nodes 300\n", "")) ==
          where + "line 6: unknown field 'class' (expected 'job-nodes')");
  REQUIRE_THAT(why(replaced(body, "b2,d4 win", "b2,z9 win")), Contains(where + "line 10: path: "));
  REQUIRE_THAT(why(replaced(body, "b2,d4 win", "b2,z9 win")), Contains("'z9'"));
  REQUIRE_THAT(why(replaced(body, "b2,d4 win", "b2,f1 win")), Contains(where + "line 10: path: "));
  REQUIRE(why(replaced(body, "b2,d4 win", "b2,,d4 win")) ==
          where + "line 10: path 'b2,,d4' has an empty move");
  REQUIRE_THAT(why(replaced(body, "900 3 e5 0", "900 3 k5 0")), Contains(where + "line 10: best: "));
  REQUIRE(why(replaced(body, "b2,d4 win 0 1073741823", "b2,d4 win 0 1073741824")) ==
          where + "line 10: dn '1073741824' is out of range (at most 1073741823)");
  REQUIRE(why(replaced(body, "- open 3 7", "- open 99999999999 7")) ==
          where + "line 8: pn '99999999999' is out of range (at most 1073741823)");
  REQUIRE(why(replaced(body, "- open 3 7", "- open -3 7")) ==
          where + "line 8: pn '-3' is not a whole number");
  REQUIRE(why(replaced(body, "4294967295 - 1", "4294967296 - 1")) ==
          where + "line 11: jobs '4294967296' is out of range (at most 4294967295)");
  REQUIRE(why(replaced(body, "b2,d4 win", "b2,d4 won")) ==
          where + "line 10: value 'won' is not open, win or loss");
  REQUIRE(why(replaced(body, "900 3 e5 0", "900 3 e5 2")) == where + "line 10: expanded '2' is not 0 or 1");
  REQUIRE(why(replaced(body, "900 3 e5 0", "900 3 e5")) ==
          where + "line 10: a node line is 'PATH VALUE PN DN JOB-NODES JOBS BEST EXPANDED'");
  REQUIRE(why(replaced(body, "seconds 0.125", "seconds -1")) ==
          where + "line 7: seconds '-1' is not a number of seconds");
  REQUIRE(why(replaced(body, "seconds 0.125", "seconds nan")) ==
          where + "line 7: seconds 'nan' is not a number of seconds");
  REQUIRE(why(replaced(body, "class a1", "class c3")) == where + "line 14: class c3 is listed twice");
  REQUIRE_THAT(why(replaced(body, "class a1", "class a9")), Contains(where + "line 14: class opening: "));
  REQUIRE(why(replaced(body, "class a1 jobs", "class a1 jabs")) ==
          where + "line 14: a class line is 'class POINT jobs J nodes N seconds S'");
  REQUIRE(why(replaced(body, "d4 open 1 1", "d4  open 1 1")) ==
          where + "line 13: two spaces in a row, or a space at an end of the line");

  // Parents before children, and a parent must be expanded.
  REQUIRE(why(replaced(body, "b2 open 7 2 600 2 - 1\n", "")) ==
          where + "line 9: node b2,d4 comes before its parent b2");
  REQUIRE(why(replaced(body, "- open 3 7 300 1 - 1\n", "")) ==
          where + "line 8: node b2 comes before its parent -");
  REQUIRE(why(replaced(body, "b2 open 7 2 600 2 - 1", "b2 open 7 2 600 2 - 0")) ==
          where + "line 10: node b2,d4 has a parent, b2, not expanded");
  REQUIRE(why(replaced(body, "d4 open 1 1 0 0 - 0\n", "d4 open 1 1 0 0 - 0\nb2 open 1 1 0 0 - 0\n")) ==
          where + "line 14: node b2 is listed twice");
  {  // a child moved above its parent
    std::string b = replaced(body, "b2,pass,e5 loss 1073741823 0 0 0 - 0\n", "");
    b = replaced(b, "b2,d4 win", "b2,pass,e5 loss 1073741823 0 0 0 - 0\nb2,d4 win");
    REQUIRE(why(b) == where + "line 10: node b2,pass,e5 comes before its parent b2,pass");
  }
  // A class's tree starts again at its root: a path of another class does not count.
  REQUIRE(why(replaced(body, "class a1 jobs 0 nodes 0 seconds 1e-09\n- open",
                       "class a1 jobs 0 nodes 0 seconds 1e-09\nb2 open")) ==
          where + "line 15: node b2 comes before its parent -");
  REQUIRE(why(replaced(body, "class c3 jobs 17 nodes 5100 seconds 0.125\n", "")) ==
          where + "line 7: unknown field '-'");
  // Without a change, the same body reads.
  const std::string path = dir / "ok.checkpoint.xz";
  konobi::write_file_atomically(path, konobi::compress_xz(with_checksum(body)));
  require_equal(konobi::read_checkpoint(path), konobi_checkpoint());
}

TEST_CASE("checkpoint: what could not be read back is never written", "[checkpoint]") {
  TempDir dir;
  const std::string path = dir / "c.checkpoint.xz";
  konobi::write_checkpoint(path, konobi_checkpoint());
  const std::string before = konobi::read_file(path);
  Checkpoint c = konobi_checkpoint();
  std::swap(c.classes[0].nodes_list[1], c.classes[0].nodes_list[2]);  // a child before its parent
  REQUIRE_THAT(refusal([&] { konobi::write_checkpoint(path, c); }),
               Contains("not writing a checkpoint that could not be read back: checkpoint " + path +
                        ": line 9: node b2,d4 comes before its parent b2"));
  c = konobi_checkpoint();
  c.classes[0].nodes_list[1].pn = kInf + 1;
  REQUIRE_THAT(refusal([&] { konobi::write_checkpoint(path, c); }),
               Contains("pn '1073741824' is out of range"));
  c = konobi_checkpoint();
  c.variant = "two  spaces";
  REQUIRE_THAT(refusal([&] { konobi::write_checkpoint(path, c); }), Contains("variant must be one line"));
  REQUIRE(konobi::read_file(path) == before);
}

namespace {

// Runs `f` in a child process; returns what it wrote to the pipe (the
// message of what it threw, or "locked").
std::string in_child(const std::function<std::string()>& f) {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    std::string out;
    try {
      out = f();
    } catch (const std::exception& e) { out = e.what(); }
    const ssize_t w = write(fds[1], out.data(), out.size());
    _exit(w == ssize_t(out.size()) ? 0 : 1);
  }
  close(fds[1]);
  std::string got;
  char buf[512];
  for (ssize_t r; (r = read(fds[0], buf, sizeof buf)) > 0;) got.append(buf, size_t(r));
  close(fds[0]);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  return got;
}

std::string try_lock(const std::string& path) {
  CheckpointLock lock(path);
  return "locked";
}

}  // namespace

TEST_CASE("checkpoint lock: a second process is kept out, naming the holder, until it lets go",
          "[checkpoint]") {
  TempDir dir;
  const std::string path = dir / "konobi-4x4.checkpoint.xz";
  const std::string message = "another solve is using " + path + " (process " + std::to_string(getpid()) +
                              "); wait for it to end or give another --checkpoint";
  {
    CheckpointLock held(path);
    REQUIRE(fs::exists(path + ".lock"));
    REQUIRE(
        (fs::status(path + ".lock").permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read));
    REQUIRE(konobi::read_file(path + ".lock") == std::to_string(getpid()) + "\n");
    REQUIRE(in_child([&] { return try_lock(path); }) == message);
    // Within this process too: a second lock is its own open file.
    REQUIRE(refusal([&] { try_lock(path); }) == message);
  }
  REQUIRE(in_child([&] { return try_lock(path); }) == "locked");
  REQUIRE(try_lock(path) == "locked");
  // A lock beside a checkpoint in a folder that does not exist: a clear refusal.
  REQUIRE_THAT(refusal([&] { try_lock(dir / "no/such/c.checkpoint.xz"); }),
               Contains("cannot open the lock file " + (dir / "no/such/c.checkpoint.xz.lock")));
}

TEST_CASE("checkpoint lock: a holder killed with SIGKILL leaves it free", "[checkpoint]") {
  TempDir dir;
  const std::string path = dir / "konobi-4x4.checkpoint.xz";
  int ready[2];
  REQUIRE(pipe(ready) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    close(ready[0]);
    try {
      CheckpointLock lock(path);
      if (write(ready[1], "x", 1) != 1) _exit(1);
      while (true) pause();
    } catch (...) { _exit(2); }
  }
  close(ready[1]);
  char c = 0;
  REQUIRE(read(ready[0], &c, 1) == 1);
  close(ready[0]);
  REQUIRE(refusal([&] { try_lock(path); }) == "another solve is using " + path + " (process " +
                                                  std::to_string(pid) +
                                                  "); wait for it to end or give another --checkpoint");
  REQUIRE(kill(pid, SIGKILL) == 0);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFSIGNALED(status));
  REQUIRE(WTERMSIG(status) == SIGKILL);
  REQUIRE(fs::exists(path + ".lock"));  // the file stays; its lock went with the process
  REQUIRE(try_lock(path) == "locked");
  REQUIRE(konobi::read_file(path + ".lock") == std::to_string(getpid()) + "\n");
}
