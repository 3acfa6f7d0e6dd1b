// Golden outputs: the whole stdout of `show --json`, `analyze`, `pie` and
// `puzzles --from` for a few positions, compared byte for byte with the
// files under tests/golden/, so that a changed field, a reordered line or a
// dropped one fails. The commands run in the source folder (pie names its
// results file by the path it was given) and print no times or versions.
//
// To accept a deliberate change, regenerate the files and review the diff:
//   KONOBI_REGENERATE_GOLDEN=1 ctest -R golden     (from the build folder)
//   git diff tests/golden/
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "support.h"

namespace {

struct GoldenCase {
  const char* name;  // tests/golden/<name>.out
  std::vector<std::string> args;
};

const std::vector<GoldenCase>& golden_cases() {
  static const std::vector<GoldenCase> cases = {
      {"show-json-5x5", {"show", "--json", "-p", "...../...W./.WB../.BBW./..... b"}},
      {"show-json-5x5-moves", {"show", "--json", "--size", "5", "c3", "b2"}},
      {"show-json-gonnect-4x4", {"show", "--game", "gonnect", "--json", "-p", ".BW./..../..../.... b"}},
      {"analyze-4x4", {"analyze", "--tt-mb", "16", "-p", "..../..../..../.B.. w"}},
      {"analyze-json-remoteness-5x5",
       {"analyze", "--json", "-r", "--tt-mb", "16", "-p", "...../...W./.WB../.BBW./..... b"}},
      {"analyze-gonnect-4x4",
       {"analyze", "--game", "gonnect", "--tt-mb", "16", "-p", "..../..B./.W../.... w"}},
      {"pie-4x4", {"pie", "--size", "4", "--results", "results"}},
      {"pie-json-5x5", {"pie", "--size", "5", "--results", "results", "--json"}},
      {"puzzles-from-5x5", {"puzzles", "--from", "results/puzzles-5x5.json"}},
  };
  return cases;
}

std::string golden_path(const GoldenCase& c) {
  return std::string(KONOBI_SOURCE_DIR) + "/tests/golden/" + c.name + ".out";
}

// The first line where two texts differ, for the failure message.
std::string first_difference(const std::string& want, const std::string& got) {
  size_t line = 1, i = 0;
  while (i < want.size() && i < got.size() && want[i] == got[i]) line += want[i++] == '\n';
  auto line_at = [](const std::string& s, size_t at) {
    const size_t b = s.rfind('\n', at == 0 ? 0 : at - 1);
    const size_t from = at == 0 || b == std::string::npos ? 0 : b + 1;
    return s.substr(from, s.find('\n', from) - from);
  };
  if (i == want.size() && i == got.size()) return "none";
  return "line " + std::to_string(line) + ": expected '" + (i < want.size() ? line_at(want, i) : "<end>") +
         "', got '" + (i < got.size() ? line_at(got, i) : "<end>") + "'";
}

}  // namespace

TEST_CASE("golden outputs: show --json and analyze and pie and puzzles --from print exactly the stored text",
          "[cli][golden]") {
  const char* regen = std::getenv("KONOBI_REGENERATE_GOLDEN");
  const bool regenerate = regen && std::string(regen) == "1";
  for (const GoldenCase& c : golden_cases()) {
    const auto r = konobi_test::run_konobi(c.args, "cd " + konobi_test::quote(KONOBI_SOURCE_DIR) + " && ");
    INFO(c.name << ": " << r.err);
    REQUIRE(r.exited);
    REQUIRE(r.status == 0);
    REQUIRE(!r.out.empty());
    if (regenerate) {
      std::ofstream(golden_path(c), std::ios::binary) << r.out;
      WARN("regenerated tests/golden/" << c.name << ".out");
    }
    const std::string want = konobi_test::read_all(golden_path(c));
    INFO("tests/golden/" << c.name << ".out differs at " << first_difference(want, r.out)
                         << " (KONOBI_REGENERATE_GOLDEN=1 rewrites it; see tests/test_golden.cpp)");
    CHECK(r.out == want);
  }
}
