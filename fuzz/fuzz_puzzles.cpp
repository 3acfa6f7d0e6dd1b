// Fuzz target: the puzzle-file loader (solver/io/puzzle_file.*), read by
// `puzzles --from` and `paper`. A file it accepts must be written back by
// to_json into one it reads the same way. std::runtime_error is the
// documented rejection.
#include <stdexcept>

#include "fuzz_support.h"
#include "solver/io/puzzle_file.h"

using namespace konobi;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 65536) return 0;  // the shipped files are under 20 KB
  PuzzleSet s;
  try {
    s = PuzzleSet::from_json(konobi_fuzz::as_text(data, size), "fuzz input");
  } catch (const std::runtime_error&) {
    return 0;
  }
  const std::string written = s.to_json();
  PuzzleSet again;
  try {
    again = PuzzleSet::from_json(written, "the rewritten file");
  } catch (const std::runtime_error& e) {
    konobi_fuzz::finding(std::string("an accepted puzzle file is written back unreadably: ") + e.what());
  }
  if (again.to_json() != written) konobi_fuzz::finding("a puzzle file changes when read back:\n" + written);
  return 0;
}
