// Fuzz target: the puzzle-file loader (solver/io/puzzle_file.*), which
// checks every puzzle against its board, as `puzzles --from` and `paper`
// read a collection. A file they accept must be drawable (each
// position on the collection's board, the solution marked) and be written
// back by to_json into one read the same way. std::runtime_error is the
// documented rejection.
#include <stdexcept>

#include "core/notation.h"
#include "fuzz_support.h"
#include "solver/cli/diagram.h"
#include "solver/io/puzzle_file.h"
#include "solver/io/svg.h"

using namespace konobi;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 65536) return 0;  // the shipped files are under 20 KB
  PuzzleSet s;
  try {
    s = PuzzleSet::from_json(konobi_fuzz::as_text(data, size), "fuzz input");
  } catch (const std::runtime_error&) { return 0; }
  // What `puzzles --from` (text and --svg-dir --svg-solutions) and `paper`
  // draw of each puzzle.
  for (const PuzzleEntry& p : s.puzzles) {
    const PositionText t = parse_position(p.position);
    (void)render_board(s.size, t.cells);
    SvgBoard b;
    b.n = s.size;
    b.cells = t.cells;
    b.marks.assign(s.size * s.size, SvgMark::None);
    b.marks[parse_point(s.size, p.solution)] = SvgMark::Solution;
    b.notes.push_back(p.position);
    (void)render_svg(b);
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
