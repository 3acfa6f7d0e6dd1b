// Fuzz target: the results-file loader (solver/io/results.*), read by
// `solve --resume`, `pie` and `paper`. A file it accepts must be written
// back by to_json into one it reads the same way. std::runtime_error is the
// documented rejection.
#include <stdexcept>

#include "fuzz_support.h"
#include "solver/io/results.h"

using namespace konobi;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 65536) return 0;  // the shipped files are under 14 KB
  Results r;
  try {
    r = Results::from_json(konobi_fuzz::as_text(data, size), "fuzz input");
  } catch (const std::runtime_error&) { return 0; }
  (void)r.complete();
  (void)r.empty_board_winner();
  const std::string written = r.to_json();
  Results again;
  try {
    again = Results::from_json(written, "the rewritten file");
  } catch (const std::runtime_error& e) {
    konobi_fuzz::finding(std::string("an accepted results file is written back unreadably: ") + e.what());
  }
  if (again.to_json() != written) konobi_fuzz::finding("a results file changes when read back:\n" + written);
  return 0;
}
