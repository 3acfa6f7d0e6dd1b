// The results and proofs shipped under results/ must stand on their own:
// their proofs pass the independent checker, a tampered copy does not, and
// the values in the results files agree with alpha-beta.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <iterator>
#include <string>

#include "core/game.h"
#include "core/notation.h"
#include "solver/io/atomic_file.h"
#include "solver/io/results.h"
#include "solver/search/alphabeta.h"
#include "solver/verify/proof_checker.h"
#include "tests/support.h"

namespace fs = std::filesystem;

namespace {

using konobi_test::decompress;

const fs::path kResults = fs::path(KONOBI_SOURCE_DIR) / "results";

}  // namespace

TEST_CASE("shipped 3x3 and 4x4 proofs pass the checker, and a tampered one fails", "[shipped]") {
  int checked = 0;
  for (const char* dir : {"proofs-3x3", "proofs-4x4"}) {
    for (const auto& entry : fs::directory_iterator(kResults / dir)) {
      const std::string text = decompress(entry.path());
      const konobi::ProofCheck c = konobi::check_proof(text);
      INFO(entry.path() << ": " << c.message);
      REQUIRE(c.ok);
      ++checked;
      // Drop the strategy's first move: the checker must notice.
      const size_t first = text.find('\n', text.find("entries"));
      const size_t second = text.find('\n', first + 1);
      std::string tampered = text;
      tampered.erase(first + 1, second - first);
      REQUIRE_FALSE(konobi::check_proof(tampered).ok);
    }
  }
  CHECK(checked == 8);  // 4 symmetry classes on each size
}

TEST_CASE("shipped 5x5 proof of the smallest class passes the checker", "[shipped]") {
  const konobi::ProofCheck c =
      konobi::check_proof(decompress(kResults / "proofs-5x5" / "konobi-5x5-c1.proof.xz"));
  INFO(c.message);
  REQUIRE(c.ok);
  CHECK(c.winner == "white");
}

TEST_CASE("shipped 3x3 and 4x4 results agree with alpha-beta on every opening", "[shipped]") {
  for (int n : {3, 4}) {
    const std::string name = "konobi-" + std::to_string(n) + "x" + std::to_string(n) + ".json";
    const konobi::Results r = konobi::Results::from_json(konobi::read_file((kResults / name).string()), name);
    REQUIRE(r.complete());
    const auto& g = konobi::Geometry<1>::get(n);
    for (int p = 0; p < g.cells; ++p) {
      auto pos = konobi::Position<1>::empty(g);
      pos.place(p);
      pos.swap_available = false;
      konobi::AlphaBeta<1> ab(16);
      const std::string expected = ab.wins(pos) ? "white" : "black";
      INFO(name << " opening " << r.openings[p].point);
      CHECK(r.openings[p].point == konobi::point_name(n, p));
      CHECK(r.openings[p].winner == expected);
      CHECK(r.openings[p].swap() == (expected == "black"));
    }
  }
}

TEST_CASE("shipped 6x6 results name a proof for each proven class, for the same opening and winner",
          "[shipped]") {
  // The proofs themselves take minutes to check (`konobi verify-proof
  // results/proofs-6x6/*.xz`, docs/SOLVER.md); here only their headers,
  // which the checker holds a proof to, are matched against the results.
  const konobi::Results r = konobi::Results::from_json(
      konobi::read_file((kResults / "konobi-6x6.json").string()), "konobi-6x6.json");
  const auto& g = konobi::Geometry<1>::get(6);
  int proven = 0;
  for (int p = 0; p < g.cells; ++p) {
    const konobi::OpeningResult& o = r.openings[p];
    if (!o.solved || o.point != o.representative) continue;
    ++proven;
    const fs::path file = kResults / "proofs-6x6" / ("konobi-6x6-" + o.point + ".proof.xz");
    INFO(file);
    REQUIRE(fs::exists(file));
    const std::string head = decompress(file, 4096);
    auto pos = konobi::Position<1>::empty(g);
    pos.place(p);
    pos.swap_available = false;
    CHECK(head.find("size 6\n") != std::string::npos);
    CHECK(head.find("start " + konobi::format_position(konobi::to_text(pos)) + "\n") != std::string::npos);
    CHECK(head.find("winner " + o.winner + "\n") != std::string::npos);
    if (head.rfind("konobi-proof 3\n", 0) == 0)  // in parts: its size is theirs (verify-proof adds them up)
      CHECK(fs::is_directory(kResults / "proofs-6x6" / ("konobi-6x6-" + o.point + ".parts")));
    else CHECK(head.find("entries " + std::to_string(o.proof_size) + "\n") != std::string::npos);
  }
  // One proof file per proven class; a folder of parts may also belong to
  // a class still open whose proof is being written part by part.
  int files = 0;
  for (const auto& e : fs::directory_iterator(kResults / "proofs-6x6")) {
    const std::string name = e.path().filename().string();
    INFO(name);
    if (e.is_directory()) {
      CHECK(name.size() > 5);
      CHECK(name.substr(name.size() - 6) == ".parts");
      // Its parts, and the budget its rounds go on from (`rounds`,
      // docs/JOBS.md); for a class its mover wins, the folder of the parts
      // below the winning move, which holds the same.
      auto parts_and_rounds = [](const fs::path& folder) {
        for (const auto& part : fs::directory_iterator(folder))
          CHECK((part.path().extension() == ".xz" || part.path().filename() == "rounds"));
      };
      for (const auto& part : fs::directory_iterator(e.path())) {
        INFO(part.path());
        if (part.is_directory()) {
          CHECK(part.path().extension() == ".parts");
          parts_and_rounds(part.path());
        } else {
          CHECK((part.path().extension() == ".xz" || part.path().filename() == "rounds"));
        }
      }
    } else {
      ++files;
    }
  }
  CHECK(proven == files);
}

// A results file's provenance records the command that wrote it, and the
// repository travels: an absolute path of one machine (a home folder, a
// checkout) in it would name folders no other clone has.
TEST_CASE("shipped results files record their commands without absolute paths", "[shipped]") {
  int commands = 0;
  for (const auto& entry : fs::directory_iterator(kResults)) {
    if (entry.path().extension() != ".json") continue;
    const std::string text = konobi::read_file(entry.path().string());
    for (size_t at = text.find("\"command\": \""); at != std::string::npos;
         at = text.find("\"command\": \"", at + 1)) {
      const size_t begin = at + 12, end = text.find('"', begin);
      const std::string command = text.substr(begin, end - begin);
      INFO(entry.path().filename() << ": " << command);
      CHECK(command.find(" /") == std::string::npos);
      ++commands;
    }
  }
  CHECK(commands >= 10);
}
