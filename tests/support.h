// Helpers shared by the test files: running the konobi program and reading
// its output, and turning an engine position into the simple rules' board.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "core/position.h"
#include "solver/io/compressed_file.h"
#include "solver/verify/simple_rules.h"
#include "temp_dir.h"

namespace konobi_test {

// The text of an xz-compressed file (the shipped proofs), or its first
// `limit` bytes: a header without unpacking a big proof.
inline std::string decompress(const std::filesystem::path& p, size_t limit = SIZE_MAX) {
  const bool prefix = limit != SIZE_MAX;
  return konobi::read_maybe_compressed(p.string(), prefix ? limit : konobi::kMaxDecompressedBytes, prefix);
}

struct RunResult {
  bool exited = false;  // false: killed by a signal (a crash)
  int status = -1;      // exit status when exited
  std::string out, err;
};

inline std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') q += "'\\''";
    else q += c;
  }
  return q + "'";
}

inline std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs `prefix konobi args < input`, capturing stdout and stderr apart.
inline RunResult run_konobi(const std::vector<std::string>& args, const std::string& prefix = "",
                            const std::string& input = "/dev/null") {
  char errname[] = "/tmp/konobi_test_err_XXXXXX";
  const int fd = mkstemp(errname);
  REQUIRE(fd >= 0);
  close(fd);
  std::string cmd = prefix + quote(KONOBI_BINARY);
  for (const auto& a : args) cmd += " " + quote(a);
  cmd += " < " + quote(input) + " 2> " + quote(errname);
  RunResult r;
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buf[4096];
  size_t got;
  while ((got = fread(buf, 1, sizeof buf, pipe)) > 0) r.out.append(buf, got);
  const int raw = pclose(pipe);
  REQUIRE(raw != -1);
  r.exited = WIFEXITED(raw);
  r.status = r.exited ? WEXITSTATUS(raw) : -1;
  r.err = read_all(errname);
  std::remove(errname);
  return r;
}

template <int W>
konobi_ref::RefBoard to_ref(const konobi::Position<W>& pos) {
  konobi_ref::RefBoard b = konobi_ref::ref_empty(pos.size());
  for (int p = 0; p < b.n * b.n; ++p) {
    const int c = pos.at(p);
    b.cell[p] = c < 0 ? '.' : c == konobi::Black ? 'B' : 'W';
  }
  b.to_move = pos.to_move == konobi::Black ? 'B' : 'W';
  return b;
}

}  // namespace konobi_test
