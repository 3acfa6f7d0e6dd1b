// The konobi program as a user meets it: help, output of each command, and
// bad input, which must end with exit status 2 and a message on stderr,
// never a crash.
#include <catch2/catch.hpp>

#include "tests/support.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>

using Catch::Contains;

namespace {

struct TempFile {
  std::string path;
  explicit TempFile(const std::string& contents = "") {
    char name[] = "/tmp/konobi_cli_test_XXXXXX";
    const int fd = mkstemp(name);
    REQUIRE(fd >= 0);
    close(fd);
    path = name;
    std::ofstream(path) << contents;
  }
  ~TempFile() { std::remove(path.c_str()); }
};

using konobi_test::quote;
using konobi_test::read_all;
using Result = konobi_test::RunResult;

// Runs konobi with args, stdin from stdin_path. The shell reports a child
// killed by signal N as status 128 + N: that counts as a crash here.
Result run(std::initializer_list<std::string> args, const std::string& stdin_path = "/dev/null") {
  Result r = konobi_test::run_konobi(std::vector<std::string>(args), "", stdin_path);
  if (r.exited && r.status > 128) r.exited = false;
  return r;
}

// Bad input: exit status exactly 2, a message on stderr, nothing much else.
void require_usage_error(const Result& r, const std::string& expected) {
  INFO("stdout: " << r.out);
  INFO("stderr: " << r.err);
  REQUIRE(r.exited);
  REQUIRE(r.status == 2);
  REQUIRE_THAT(r.err, Contains(expected));
  REQUIRE(r.out.empty());
}

std::string strip_space(const std::string& s) {
  std::string r;
  for (char c : s)
    if (c != ' ' && c != '\n' && c != '\t' && c != '\r') r += c;
  return r;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("cli: help", "[cli]") {
  const Result top = run({"--help"});
  REQUIRE(top.exited);
  REQUIRE(top.status == 0);
  REQUIRE_THAT(top.out, Contains("show") && Contains("perft") && Contains("play"));

  const Result show = run({"show", "--help"});
  REQUIRE(show.status == 0);
  REQUIRE_THAT(show.out, Contains("--size") && Contains("--position") && Contains("--json"));

  const Result perft = run({"perft", "--help"});
  REQUIRE(perft.status == 0);
  REQUIRE_THAT(perft.out,
               Contains("--size") && Contains("--depth") && Contains("--threads") && Contains("--json"));

  const Result play = run({"play", "--help"});
  REQUIRE(play.status == 0);
  REQUIRE_THAT(play.out,
               Contains("--size") && Contains("--black") && Contains("--white") && Contains("--seed"));

  // No command at all: usage on stderr, status 2.
  const Result none = run({});
  REQUIRE(none.exited);
  REQUIRE(none.status == 2);
  REQUIRE_THAT(none.err, Contains("usage"));
}

TEST_CASE("cli: show draws a diagram", "[cli]") {
  const Result r = run({"show", "--size", "5", "c3", "b2"});
  INFO(r.err);
  REQUIRE(r.exited);
  REQUIRE(r.status == 0);
  REQUIRE_THAT(r.out, Contains("a b c d e"));
  REQUIRE_THAT(r.out, Contains("Moves: c3 b2"));
  REQUIRE_THAT(r.out, Contains("Position: ...../...../..B../.W.../..... b"));
  REQUIRE_THAT(r.out, Contains("Black to move"));
  REQUIRE_THAT(r.out, Contains("Legal (20)"));
  // Five rows of the board, each labelled on both sides.
  for (const char* row : {"  5 |", "  4 |", "  3 |", "  2 |", "  1 |"}) REQUIRE_THAT(r.out, Contains(row));
  REQUIRE(r.err.empty());

  // The same through --position, with the side to move and swap.
  const Result swap = run({"show", "-p", ".B./.../... w swap"});
  REQUIRE(swap.status == 0);
  REQUIRE_THAT(swap.out, Contains("may swap"));
  const Result swapped = run({"show", "-p", ".B./.../... w swap", "swap"});
  REQUIRE(swapped.status == 0);
  REQUIRE_THAT(swapped.out, Contains("swapped colours"));

  // A finished game says who won.
  const Result won = run({"show", "--size", "3", "b1", "a3", "b2", "c3", "b3"});
  REQUIRE(won.status == 0);
  REQUIRE_THAT(won.out, Contains("Black has won"));
}

TEST_CASE("cli: show --json reports illegal points with reasons", "[cli]") {
  const Result r = run({"show", "--json", "-p", "...../W.W../B.W.B/..B../..BW. b"});
  INFO(r.err);
  REQUIRE(r.exited);
  REQUIRE(r.status == 0);
  const std::string j = strip_space(r.out);
  REQUIRE_THAT(j, Contains("\"position\":\"...../W.W../B.W.B/..B../..BW.b\""));
  REQUIRE_THAT(j, Contains("\"to_move\":\"black\""));
  const size_t illegal = j.find("\"illegal\":[");
  REQUIRE(illegal != std::string::npos);
  // Designer's example 2: b2 is barred by the weak-connection rule (a3, a2).
  const size_t b2 = j.find("{\"point\":\"b2\",\"reason\":\"weak-connection\"", illegal);
  REQUIRE(b2 != std::string::npos);
  REQUIRE(j.find("\"stone\":\"a3\",\"alternative\":\"a2\"", b2) != std::string::npos);
  // Designer's example 1: b3 is legal, so it is in "legal" and not "illegal".
  const size_t legal = j.find("\"legal\":[");
  REQUIRE(legal != std::string::npos);
  REQUIRE(legal < illegal);
  const std::string legal_list = j.substr(legal, illegal - legal);
  REQUIRE_THAT(legal_list, Contains("\"b3\""));
  REQUIRE_THAT(legal_list, !Contains("\"b2\""));
  REQUIRE(j.find("\"point\":\"b3\"", illegal) == std::string::npos);
}

TEST_CASE("cli: perft", "[cli]") {
  const Result r = run({"perft", "--size", "3", "--depth", "3", "--json"});
  INFO(r.err);
  REQUIRE(r.exited);
  REQUIRE(r.status == 0);
  const std::string j = strip_space(r.out);
  REQUIRE_THAT(j, Contains("\"counts\":[9,"));  // 9 first moves on an empty 3x3
  REQUIRE_THAT(j, Contains("\"depth\":3"));

  // Threads do not change the counts.
  const Result one = run({"perft", "--size", "4", "--depth", "4", "--json"});
  const Result four = run({"perft", "--size", "4", "--depth", "4", "--threads", "4", "--json"});
  REQUIRE(one.status == 0);
  REQUIRE(four.status == 0);
  auto counts = [](const std::string& out) {
    const std::string j = strip_space(out);
    const size_t a = j.find("\"counts\":[");
    return a == std::string::npos ? std::string() : j.substr(a, j.find(']', a) - a);
  };
  REQUIRE_FALSE(counts(one.out).empty());
  REQUIRE(counts(one.out) == counts(four.out));

  const Result text = run({"perft", "--size", "3", "--depth", "2"});
  REQUIRE(text.status == 0);
  REQUIRE_THAT(text.out, Contains("depth  1  9"));
}

TEST_CASE("cli: bad input exits 2 with a clear message", "[cli]") {
  {
    const Result r = run({"frobnicate"});
    REQUIRE(r.exited);
    REQUIRE(r.status == 2);
    REQUIRE_THAT(r.err, Contains("unknown command 'frobnicate'"));
  }
  require_usage_error(run({"show", "--size", "2"}), "board size 2 is out of range");
  require_usage_error(run({"show", "--size", "20"}), "board size 20 is out of range");
  require_usage_error(run({"show", "--size", "abc"}), "'abc'");
  require_usage_error(run({"show", "--size", "-3"}), "out of range");
  require_usage_error(run({"show"}), "--size");
  require_usage_error(run({"show", "--bogus"}), "--bogus");
  require_usage_error(run({"show", "-p", "...../..z../...../...../..... b"}), "'z' is not a point");
  require_usage_error(run({"show", "-p", "..../.../... b"}), "row 1 from the top");
  require_usage_error(run({"show", "-p", "../.. b"}), "2 rows");
  require_usage_error(run({"show", "-p", "3/3/3 x"}), "side to move 'x'");
  require_usage_error(run({"show", "-p", "3/3/3 w swap"}), "'swap' is only possible");
  require_usage_error(run({"show", "-p", "5/5/5/5/5", "--size", "6"}), "disagrees");
  require_usage_error(run({"show", "--size", "5", "f3"}), "'f3' is off the 5x5 board");
  require_usage_error(run({"show", "--size", "5", "c3", "zz"}), "move 2");
  // Illegal moves in the record.
  {
    const Result r = run({"show", "--size", "5", "c3", "c3"});
    require_usage_error(r, "illegal move");
    REQUIRE_THAT(r.err, Contains("move 2 (c3)") && Contains("occupied"));
  }
  require_usage_error(run({"show", "-p", "...../W.W../B.W.B/..B../..BW. b", "b2"}), "weak-connection rule");
  require_usage_error(run({"show", "--size", "5", "swap"}), "move 1 (swap)");
  {
    const Result r = run({"show", "--size", "5", "c3", "b2", "swap"});
    require_usage_error(r, "move 3 (swap)");
    REQUIRE_THAT(r.err, Contains("swap is only allowed on White's first turn"));
  }
  require_usage_error(run({"show", "--size", "5", "c3", "pass"}), "pass is not allowed");
  require_usage_error(run({"show", "-p", "B../B../B.. w", "c1"}), "game is over");
  // perft and play options.
  require_usage_error(run({"perft", "--size", "4", "--depth", "0"}), "--depth");
  require_usage_error(run({"perft", "--size", "4", "--depth", "65"}), "--depth");
  require_usage_error(run({"perft", "--size", "4"}), "--depth");
  require_usage_error(run({"perft", "--size", "4", "--depth", "2", "--threads", "0"}), "--threads");
  require_usage_error(run({"perft", "--size", "20", "--depth", "2"}), "out of range");
  require_usage_error(run({"perft", "-p", "B../B../B.. w", "--depth", "2"}), "already won");
  require_usage_error(run({"play", "--size", "4", "--black", "robot"}), "'robot'");
  require_usage_error(run({"play", "--size", "4", "--white", "robot"}), "'robot'");
  require_usage_error(run({"play", "--size", "4", "--seed", "abc"}), "'abc'");
  require_usage_error(run({"play", "--size", "1"}), "out of range");
}

TEST_CASE("cli: play between two random movers ends with a win", "[cli]") {
  for (const char* seed : {"1", "2", "3"}) {
    const Result r = run({"play", "--size", "3", "--black", "random", "--white", "random", "--seed", seed});
    INFO("seed " << seed << "\n" << r.out << r.err);
    REQUIRE(r.exited);
    REQUIRE(r.status == 0);
    REQUIRE_THAT(r.out, Contains(") wins, joining both"));
    REQUIRE_THAT(r.out, Contains("Record: "));
  }
  // The same seed gives the same game.
  const Result a = run({"play", "--size", "5", "--black", "random", "--white", "random", "--seed", "42"});
  const Result b = run({"play", "--size", "5", "--black", "random", "--white", "random", "--seed", "42"});
  REQUIRE(a.status == 0);
  REQUIRE(a.out == b.out);
}

TEST_CASE("cli: play explains illegal input and asks again", "[cli]") {
  SECTION("5x5: illegal and malformed moves, then input ends") {
    // Black c3; White declines the swap, tries the occupied c3 and the
    // garbage zz, then plays b4; input ends on Black's turn.
    TempFile in("c3\nn\nc3\nzz\nb4\n");
    const Result r = run({"play", "--size", "5"}, in.path);
    INFO(r.out << r.err);
    REQUIRE(r.exited);
    REQUIRE(r.status == 1);  // the game was left unfinished
    REQUIRE_THAT(r.out, Contains("Illegal: c3 is occupied"));
    REQUIRE_THAT(r.out, Contains("'zz' is not a point"));
    REQUIRE_THAT(r.out, Contains("swap colours"));
    // White was asked three times: c3, zz, b4.
    REQUIRE(count(r.out, "White (second player) to move:") == 3);
    REQUIRE_THAT(r.out, Contains("Input ended"));
  }
  SECTION("5x5: the weak-connection rule is explained") {
    TempFile in("c3\nn\nb2\nd4\n");  // Black d4 next: weakly connects to c3 while c2 is free
    const Result r = run({"play", "--size", "5"}, in.path);
    INFO(r.out << r.err);
    REQUIRE(r.exited);
    REQUIRE(r.status == 1);
    REQUIRE_THAT(r.out, Contains("Illegal: d4 would weakly connect to c3"));
  }
  SECTION("3x3: a whole game with an illegal try ends with a win") {
    TempFile in("b1\nmaybe\nn\nb1\na3\nb2\nc3\nb3\n");
    const Result r = run({"play", "--size", "3"}, in.path);
    INFO(r.out << r.err);
    REQUIRE(r.exited);
    REQUIRE(r.status == 0);
    REQUIRE_THAT(r.out, Contains("Please answer y or n"));
    REQUIRE_THAT(r.out, Contains("Illegal: b1 is occupied"));
    REQUIRE_THAT(r.out, Contains("Black (first player) wins"));
    REQUIRE_THAT(r.out, Contains("Record: b1 a3 b2 c3 b3"));
  }
  SECTION("swap at the prompt") {
    TempFile in("c3\ny\nb2\nquit\n");
    const Result r = run({"play", "--size", "5"}, in.path);
    INFO(r.out << r.err);
    REQUIRE(r.exited);
    REQUIRE(r.status == 1);
    REQUIRE_THAT(r.out, Contains("The first player now holds White"));
    REQUIRE_THAT(r.out, Contains("White (first player) to move:"));
    REQUIRE_THAT(r.out, Contains("Black (second player) to move:"));
    REQUIRE_THAT(r.out, Contains("Game left unfinished"));
  }
}
