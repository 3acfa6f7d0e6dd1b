// Proof pieces on disk (solver/jobs/piece_files.h): segments written at each
// flush hold only what is new and are numbered on from those already there;
// a reader gets the union of a class's segments and nothing of another
// class's or of a temporary; a damaged or foreign segment is refused naming
// its file; a proven class's segments go, and the folder with the last; a
// load hands each line on once, on several threads.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include <oneapi/tbb/task_arena.h>

#include "solver/io/atomic_file.h"
#include "solver/io/compressed_file.h"
#include "solver/jobs/piece_files.h"
#include "temp_dir.h"

namespace fs = std::filesystem;
using Catch::Contains;
using konobi::PieceFiles;
using konobi_test::TempDir;

namespace {

std::vector<std::string> files_in(const fs::path& dir) {
  std::vector<std::string> v;
  for (const auto& e : fs::directory_iterator(dir)) v.push_back(e.path().filename().string());
  std::sort(v.begin(), v.end());
  return v;
}

const std::vector<std::string> kFirst = {"....../....../....../..B.../....../...... w a1",
                                         "....../....../....../..B.../....../W..... w b2"};
const std::vector<std::string> kSecond = {"....../....../....../..B.../....../W..... w c4",  // held: b2 stays
                                          "....../....../....../..B.../....../.W.... w d4"};

// Class c3's segments, one written per batch of lines.
void write_c3(const std::string& folder, const std::vector<std::vector<std::string>>& batches) {
  PieceFiles w(folder, "konobi 6x6");
  for (const auto& lines : batches) {
    w.add("c3", lines);
    w.flush();
  }
}

}  // namespace

TEST_CASE("proof pieces: the folder beside a checkpoint", "[pieces]") {
  CHECK(PieceFiles::folder_for("results/konobi-6x6.checkpoint.xz") == "results/konobi-6x6.pieces");
  CHECK(PieceFiles::folder_for("run/ck") == "run/ck.pieces");
  CHECK(PieceFiles::folder_for(".checkpoint.xz") == ".checkpoint.xz.pieces");
}

TEST_CASE("proof pieces: segments hold what is new, and a reader gets the union", "[pieces]") {
  TempDir dir;
  const std::string folder = dir / "k.pieces";
  {
    PieceFiles w(folder, "konobi 6x6");
    w.flush();  // nothing yet: no folder
    CHECK(!fs::exists(folder));
    w.add("c3", kFirst);
    CHECK(w.pending() == 2);
    w.flush();
    CHECK(w.pending() == 0);
    w.add("c3", kSecond);  // one of them already held
    CHECK(w.pending() == 1);
    w.add("b3", {"....../....../....../.B..../....../...... w c3"});
    w.flush();
  }
  CHECK(files_in(folder) == std::vector<std::string>{"b3-0001.xz", "c3-0001.xz", "c3-0002.xz"});
  const std::string second = konobi::read_maybe_compressed(folder + "/c3-0002.xz");
  CHECK_THAT(second, Contains("pieces 1\ngame konobi 6x6\nclass c3\nentries 1\n"));
  CHECK_THAT(second, Contains(" w d4\nend\n"));
  // A temporary of an interrupted write and stray names are not segments.
  konobi::write_file_atomically(folder + "/c3-0003.xz.tmp-abcdef", "half");
  konobi::write_file_atomically(folder + "/c3-x.xz", "stray");

  PieceFiles r(folder, "konobi 6x6");
  r.load("c3");
  CHECK(r.pieces("c3").size() == 3);
  REQUIRE(r.pieces("c3").move_of("....../....../....../..B.../....../W..... w").has_value());
  CHECK(*r.pieces("c3").move_of("....../....../....../..B.../....../W..... w") == "b2");
  CHECK(r.pieces("b3").empty());  // not loaded
  r.add("c3", {"....../....../....../..B.../....../..W... w e5"});
  r.flush();
  CHECK(fs::exists(folder + "/c3-0003.xz"));  // after the highest segment's number

  konobi::write_file_atomically(folder + "/b3-0002.xz.tmp-abcdef", "half");
  r.remove("c3");
  // Its segments and their temporaries go; another class's and strays stay.
  CHECK(files_in(folder) == std::vector<std::string>{"b3-0001.xz", "b3-0002.xz.tmp-abcdef", "c3-x.xz"});
  fs::remove(folder + "/c3-x.xz");
  r.remove("b3");
  CHECK(!fs::exists(folder));  // the last class's went, and the folder with them
}

TEST_CASE("proof pieces: a damaged or foreign segment is refused, naming it", "[pieces]") {
  TempDir dir;
  const std::string folder = dir / "k.pieces";
  write_c3(folder, {kFirst});
  const std::string path = folder + "/c3-0001.xz";
  const std::string good = konobi::read_file(path);
  const std::string text = konobi::read_maybe_compressed(path);
  struct Case {
    const char* what;
    std::string data;
    const char* says;
  };
  const std::vector<Case> cases = {
      {"truncated", good.substr(0, good.size() / 2), "truncated"},
      {"not xz", text, "not xz-compressed"},
      {"an entry short", konobi::compress_xz(text.substr(0, text.find(" w b2"))), "truncated"},
      {"another game", konobi::compress_xz("pieces 1\ngame gonnect 6x6\nclass c3\nentries 0\nend\n"),
       "not to this solve"},
      {"another class", konobi::compress_xz("pieces 1\ngame konobi 6x6\nclass b3\nentries 0\nend\n"),
       "not to this solve"},
      {"a newer format", konobi::compress_xz("pieces 2\ngame konobi 6x6\nclass c3\nentries 0\nend\n"),
       "not a proof pieces file"},
      {"a line without a move",
       konobi::compress_xz("pieces 1\ngame konobi 6x6\nclass c3\nentries 1\nb2\nend\n"),
       "needs a position and a move"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    konobi::write_file_atomically(path, c.data);
    PieceFiles r(folder, "konobi 6x6");
    try {
      r.load("c3");
      FAIL("a segment " << c.what << " was read");
    } catch (const std::runtime_error& e) {
      CHECK_THAT(e.what(), Contains(path));
      CHECK_THAT(e.what(), Contains(c.says));
    }
  }
  konobi::write_file_atomically(path, good);
  PieceFiles r(folder, "konobi 6x6");
  r.load("c3");
  CHECK(r.pieces("c3").size() == 2);
}

TEST_CASE("proof pieces: a stopped load ends early and a flush after it writes over no segment", "[pieces]") {
  TempDir dir;
  const std::string folder = dir / "k.pieces";
  write_c3(folder, {kFirst, kSecond});
  REQUIRE(files_in(folder) == std::vector<std::string>{"c3-0001.xz", "c3-0002.xz"});

  // Stopped after the first line handed on: the rest of its segment may
  // have gone into the map (that runs beside the handing on), the next
  // segment is left unread.
  std::atomic<bool> stop{false};
  std::vector<std::string> seen;
  PieceFiles r(folder, "konobi 6x6");
  CHECK_FALSE(r.load(
      "c3", [&](const std::string& line) { seen.push_back(line), stop = true; }, &stop));
  CHECK(seen.size() == 1);
  CHECK(r.pieces("c3").size() <= kFirst.size());
  CHECK_FALSE(r.pieces("c3").move_of("....../....../....../..B.../....../.W.... w"));
  // What the stopped run proves next goes into a third segment.
  r.add("c3", {"....../....../....../..B.../....../..W... w e5"});
  r.flush();
  CHECK(files_in(folder) == std::vector<std::string>{"c3-0001.xz", "c3-0002.xz", "c3-0003.xz"});

  // A flag raised before the load reads nothing; a lowered one reads all.
  PieceFiles none(folder, "konobi 6x6");
  CHECK_FALSE(none.load("c3", {}, &stop));
  CHECK(none.pieces("c3").empty());
  stop = false;
  PieceFiles all(folder, "konobi 6x6");
  CHECK(all.load("c3", {}, &stop));
  CHECK(all.pieces("c3").size() == 4);
}

TEST_CASE("proof pieces: a load hands every line on once, from several threads", "[pieces]") {
  TempDir dir;
  const std::string folder = dir / "k.pieces";
  // Two segments, larger than one thread's share of a segment.
  std::vector<std::vector<std::string>> batches(2);
  for (int i = 0; i < 30000; ++i) batches[i % 2].push_back("p" + std::to_string(i) + " w a1");
  write_c3(folder, batches);

  std::mutex m;
  std::multiset<std::string> seen;
  std::atomic<int> calls{0};
  PieceFiles r(folder, "konobi 6x6");
  oneapi::tbb::task_arena arena(2);
  arena.execute([&] {
    CHECK(r.load("c3", [&](const std::string& line) {
      ++calls;
      const std::lock_guard<std::mutex> lock(m);
      seen.insert(line);
    }));
  });
  CHECK(calls == 30000);
  CHECK(r.pieces("c3").size() == 30000);
  for (const auto& lines : batches)
    for (const std::string& line : lines) {
      CHECK(seen.count(line) == 1);
      CHECK(r.pieces("c3").move_of(line.substr(0, line.rfind(' '))) == "a1");
    }
}
