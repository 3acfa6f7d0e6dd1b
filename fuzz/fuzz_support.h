// What every fuzz target shares (docs/FUZZING.md). A target returns normally
// when the input is rejected with the error the parser documents; anything
// else (a crash, a sanitizer report, an uncaught exception, a hang, or a
// broken invariant reported through finding()) is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace konobi_fuzz {

inline std::string as_text(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// A broken invariant: says which, then aborts so libFuzzer (or the replay
// test) stops on it like on a crash.
[[noreturn]] inline void finding(const std::string& what) {
  std::fprintf(stderr, "fuzz finding: %s\n", what.c_str());
  std::abort();
}

}  // namespace konobi_fuzz
