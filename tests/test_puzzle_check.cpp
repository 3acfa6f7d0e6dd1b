// A puzzle file whose puzzles do not fit its board (found by fuzzing, see
// docs/FUZZING.md): `puzzles --from` drew each position on a board of the
// collection's size and read past a smaller position's cells. Such a file
// is now refused with a message naming the puzzle.
#include <filesystem>
#include <unistd.h>

#include "support.h"
#include "solver/io/atomic_file.h"
#include "solver/io/puzzle_check.h"

using namespace konobi;
using konobi_test::read_all;
using konobi_test::run_konobi;

namespace {

PuzzleSet shipped_5x5() {
  const std::string path = std::string(KONOBI_SOURCE_DIR) + "/results/puzzles-5x5.json";
  return PuzzleSet::from_json(read_all(path), path);
}

}  // namespace

TEST_CASE("check_puzzle_set: the shipped collections pass", "[puzzles][fuzz]") {
  for (const char* n : {"5x5", "6x6"}) {
    const std::string path = std::string(KONOBI_SOURCE_DIR) + "/results/puzzles-" + n + ".json";
    CHECK_NOTHROW(check_puzzle_set(PuzzleSet::from_json(read_all(path), path), path));
  }
}

TEST_CASE("check_puzzle_set: puzzles that do not fit the board are refused", "[puzzles][fuzz]") {
  auto refused = [](const PuzzleSet& s, const std::string& why) {
    try {
      check_puzzle_set(s, "f.json");
    } catch (const std::runtime_error& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find("f.json is not a valid puzzle file: ") == 0);
      CHECK(std::string(e.what()).find(why) != std::string::npos);
      return;
    }
    FAIL("accepted: " << why);
  };
  PuzzleSet s = shipped_5x5();
  s.size = 7;
  refused(s, "the position is 5x5, not 7x7");
  s.size = 1000;
  refused(s, "board size 1000 is out of range");
  s = shipped_5x5();
  s.puzzles[1].position = "3/3/3 w";
  refused(s, "puzzle 2: the position is 3x3, not 5x5");
  s = shipped_5x5();
  s.puzzles[0].to_move = s.puzzles[0].to_move == "black" ? "white" : "black";
  refused(s, "puzzle 1: to_move");
  s = shipped_5x5();
  s.puzzles[0].solution = "f6";
  refused(s, "puzzle 1: 'f6' is off the 5x5 board");
  s = shipped_5x5();
  s.puzzles[0].record.push_back("z");
  refused(s, "puzzle 1: 'z' is not a point");
  s = shipped_5x5();
  s.puzzles[0].remoteness = 0;
  refused(s, "puzzle 1: remoteness 0 is below 1");
}

TEST_CASE("puzzles --from refuses a puzzle of another size", "[puzzles][fuzz][cli]") {
  const auto dir = std::filesystem::temp_directory_path() / ("konobi_test_" + std::to_string(getpid()) + "_pc");
  std::filesystem::create_directories(dir);
  PuzzleSet s = shipped_5x5();
  s.puzzles[0].position = "3/3/3 w";
  const std::string file = (dir / "puzzles-5x5.json").string();
  write_file_atomically(file, s.to_json());
  for (const bool json : {false, true}) {
    const auto r = json ? run_konobi({"puzzles", "--from", file, "--json"}) : run_konobi({"puzzles", "--from", file});
    REQUIRE(r.exited);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find("puzzle 1: the position is 3x3, not 5x5") != std::string::npos);
  }
  std::filesystem::remove_all(dir);
}
