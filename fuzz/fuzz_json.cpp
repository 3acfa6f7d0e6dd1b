// Fuzz target: the JSON reader itself (solver/io/json_value.*), through
// which every JSON file is read; the no-draw results (results/nodraw-NxN.json)
// have no loader of their own: `paper` reads their fields from the parsed
// value directly, as this target does. JsonError is the documented rejection.
#include "fuzz_support.h"
#include "solver/io/json_value.h"

using namespace konobi;

namespace {

// Every typed access `paper` and the loaders make, on every value.
void walk(const JsonValue& v, int depth) {
  if (depth > 64) return;
  try { (void)v.str(); } catch (const JsonError&) {}
  try { (void)v.number(); } catch (const JsonError&) {}
  try { (void)v.integer(); } catch (const JsonError&) {}
  try { (void)v.boolean(); } catch (const JsonError&) {}
  try { (void)v["reachable"]; } catch (const JsonError&) {}
  (void)v.has("complete");
  if (v.type() == JsonValue::Type::Array)
    for (const JsonValue& e : v.array()) walk(e, depth + 1);
  if (v.type() == JsonValue::Type::Object)
    for (const auto& [key, e] : v.object()) walk(e, depth + 1);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 65536) return 0;
  try {
    walk(JsonValue::parse(konobi_fuzz::as_text(data, size)), 0);
  } catch (const JsonError&) {
  }
  return 0;
}
