// The paper (papers/konobi-small-boards.md) agrees with results/: every
// generated block in it is exactly what `konobi paper --block NAME`
// produces from results/ now, its figures are what `konobi paper
// --figures` draws, and the pie table's counts are those of the files.
#include <filesystem>

#include "support.h"
#include "xml_check.h"
#include "solver/io/atomic_file.h"
#include "solver/io/results.h"

namespace fs = std::filesystem;
using Catch::Contains;
using konobi_test::read_all;
using konobi_test::run_konobi;

namespace {

const fs::path kSource = KONOBI_SOURCE_DIR;
const fs::path kPaper = kSource / "papers" / "konobi-small-boards.md";
const std::string kResultsDir = (kSource / "results").string();

// The text between a block's BEGIN line and its END line.
std::string block_in(const std::string& paper, const std::string& name) {
  const std::string begin = "<!-- BEGIN GENERATED: " + name + " -->\n";
  const std::string end = "<!-- END GENERATED: " + name + " -->";
  const size_t b = paper.find(begin);
  REQUIRE(b != std::string::npos);
  REQUIRE(paper.find(begin, b + 1) == std::string::npos);
  const size_t e = paper.find(end, b);
  REQUIRE(e != std::string::npos);
  return paper.substr(b + begin.size(), e - b - begin.size());
}

}  // namespace

TEST_CASE("every generated block of the paper matches results/", "[paper]") {
  const std::string paper = read_all(kPaper.string());
  const auto list = run_konobi({"paper", "--results", kResultsDir, "--list"});
  REQUIRE(list.status == 0);
  std::istringstream names(list.out);
  std::string name;
  int blocks = 0;
  while (std::getline(names, name)) {
    INFO("block " << name << " (run scripts/paper.sh to regenerate)");
    const auto r = run_konobi({"paper", "--results", kResultsDir, "--block", name});
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(block_in(paper, name) == r.out);
    ++blocks;
  }
  CHECK(blocks == 7);
  // The program's own check agrees.
  const auto c = run_konobi({"paper", "--results", kResultsDir, "--check", kPaper.string()});
  INFO(c.err);
  CHECK(c.status == 0);
}

TEST_CASE("the paper's pie table counts the openings of each results file", "[paper]") {
  const std::string table = block_in(read_all(kPaper.string()), "pie-table");
  int sizes = 0;
  for (int n = 3; n <= 8; ++n) {
    const fs::path f =
        kSource / "results" / ("konobi-" + std::to_string(n) + "x" + std::to_string(n) + ".json");
    if (!fs::exists(f)) continue;
    const konobi::Results r = konobi::Results::from_json(konobi::read_file(f.string()), f.string());
    int solved = 0, black = 0;
    for (const auto& o : r.openings) solved += o.solved, black += o.solved && o.winner == "black";
    const std::string nn = std::to_string(n) + "x" + std::to_string(n);
    INFO(nn);
    CHECK_THAT(table, Contains("| " + nn + " | " + std::to_string(solved) + " of " + std::to_string(n * n) +
                               " | " + std::to_string(black)));
    CHECK_THAT(table, Contains(std::to_string(solved - black) + " of " +
                               std::to_string(r.complete() ? n * n : solved)));
    ++sizes;
  }
  CHECK(sizes >= 3);
}

TEST_CASE("the paper's figures are what the program draws from results/", "[paper]") {
  char name[] = "/tmp/konobi_paper_XXXXXX";
  REQUIRE(mkdtemp(name) != nullptr);
  const fs::path tmp = name;
  const auto r = run_konobi({"paper", "--results", kResultsDir, "--figures", tmp.string()});
  INFO(r.err);
  REQUIRE(r.status == 0);
  int figures = 0;
  for (const auto& e : fs::directory_iterator(tmp)) {
    const std::string file = e.path().filename().string();
    INFO(file << " (run scripts/paper.sh to redraw)");
    const auto d = konobi_test::check_xml(read_all(e.path().string()));
    CHECK(d.ok);
    const fs::path shipped = kSource / "results" / "figures" / file;
    REQUIRE(fs::exists(shipped));
    CHECK(read_all(shipped.string()) == read_all(e.path().string()));
    ++figures;
  }
  fs::remove_all(tmp);
  CHECK(figures >= 3);
  // Every figure the paper shows exists.
  const std::string paper = read_all(kPaper.string());
  const std::string link = "](../results/figures/";
  int shown = 0;
  for (size_t at = paper.find(link); at != std::string::npos; at = paper.find(link, at + 1), ++shown) {
    const size_t from = at + 5, to = paper.find(')', from);
    REQUIRE(to != std::string::npos);
    const std::string path = paper.substr(from, to - from);  // results/figures/NAME.svg
    INFO(path);
    CHECK(fs::exists(kSource / path));
  }
  CHECK(shown >= 2);
}

TEST_CASE("paper refuses a missing file and unknown blocks", "[paper]") {
  CHECK(run_konobi({"paper", "--block", "no-such-block"}).status == 2);
  CHECK(run_konobi({"paper", "--check", "/nonexistent/paper.md"}).status == 2);
  CHECK(run_konobi({"paper"}).status == 2);
}
