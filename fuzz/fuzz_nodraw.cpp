// Fuzz target: the no-draw report's loader (solver/io/nodraw_file.*), which
// `paper` reads results/nodraw-NxN.json with, and through it the JSON parser
// every file goes through (nlohmann-json, solver/io/json.*). A report it
// accepts must survive being written and read again. std::runtime_error is
// the documented rejection (parse errors included).
#include <stdexcept>

#include "fuzz_support.h"
#include "solver/io/nodraw_file.h"

using namespace konobi;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 65536) return 0;  // the shipped reports are under 4 KB
  Json report;
  try {
    report = read_nodraw_file(konobi_fuzz::as_text(data, size), "fuzz input");
  } catch (const std::runtime_error&) { return 0; }
  const std::string written = json_text(report);
  try {
    (void)read_nodraw_file(written, "the rewritten report");
  } catch (const std::runtime_error& e) {
    konobi_fuzz::finding(std::string("an accepted no-draw report is written back unreadably: ") + e.what());
  }
  return 0;
}
