// konobi tree (solver/cli/cmd_tree.cpp, docs/JOBS.md "Where a solve
// stands"): a checkpoint written here by hand, with numbers kept as the
// manager keeps them, read back as a class table, a node with its moves and
// the line the numbers point to, in text and JSON; every way to ask for
// what the file does not hold gets a message and exit status 2, and a file
// that is not a checkpoint a message and a non-zero status.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/notation.h"
#include "solver/io/json.h"
#include "solver/jobs/checkpoint.h"
#include "checkpoint_node.h"
#include "support.h"
#include "temp_dir.h"

namespace fs = std::filesystem;
using Catch::Contains;
using konobi::CheckpointNode;
using konobi_test::run_konobi;
using V = CheckpointNode::Value;

namespace {

// Moves by name on the 5x5 board of the sample below.
CheckpointNode node(const std::vector<std::string>& path, V value, uint32_t pn, uint32_t dn,
                    uint64_t job_nodes, uint32_t jobs, bool expanded = false, const char* best = nullptr) {
  std::vector<konobi::Move> moves;
  for (const auto& m : path) moves.push_back(konobi::parse_move(5, m));
  return konobi_test::checkpoint_node(moves, value, pn, dn, job_nodes, jobs, expanded,
                                      best ? konobi::parse_move(5, best) : -1);
}

// 5x5, class a1. White's root: d4 and b2 leaves, c3 expanded, a2 refuted
// (Black answers b3); under c3, Black's d3 and b3 open, b4 refuted (White
// answers c4) though it is c3's hint. Each open node's numbers are its
// open children's as the manager keeps them: pn the least of their dns,
// dn the sum of their pns.
void write_sample(const std::string& path) {
  konobi::Checkpoint cp;
  cp.game = "konobi";
  cp.size = 5;
  cp.job_nodes = 1000;
  konobi::CheckpointClass c;
  c.opening = konobi::parse_point(5, "a1");
  c.jobs = 17;
  c.nodes = 15000;
  c.seconds = 12;
  c.nodes_list = {
      node({}, V::Open, 50, 800, 0, 0, true, "c3"),
      node({"c3"}, V::Open, 200, 85, 100, 1, true, "b4"),
      node({"b2"}, V::Open, 300, 60, 2000, 3),
      node({"d4"}, V::Open, 300, 50, 4000, 4),
      node({"a2"}, V::MoverWins, 1, 1, 5000, 2, false, "b3"),
      node({"c3", "b3"}, V::Open, 45, 500, 800, 2),
      node({"c3", "d3"}, V::Open, 40, 200, 900, 3),
      node({"c3", "b4"}, V::MoverWins, 1, 1, 700, 1, false, "c4"),
  };
  cp.classes.push_back(c);
  konobi::write_checkpoint(path, cp);
}

void require_status(const konobi_test::RunResult& r, int status) {
  INFO("stdout: " << r.out);
  INFO("stderr: " << r.err);
  REQUIRE(r.exited);
  REQUIRE(r.status == status);
}

}  // namespace

TEST_CASE("konobi tree prints a checkpoint's open classes, in text and JSON", "[cli][tree]") {
  konobi_test::TempDir dir;
  const std::string file = dir / "t.checkpoint.xz";
  write_sample(file);
  const auto text = run_konobi({"tree", file});
  require_status(text, 0);
  CHECK_THAT(text.out, Contains("Konobi 5x5, 1 open class, jobs of 1000 nodes"));
  CHECK_THAT(text.out, Contains("a1     open            50        800        17"));
  CHECK_THAT(text.out, Contains("4: 0 win, 1 lose, 3 open"));

  const auto json = run_konobi({"tree", file, "--json"});
  require_status(json, 0);
  const konobi::Json j = konobi::Json::parse(json.out);
  CHECK(j["size"] == 5);
  CHECK(j["job_nodes"] == 1000);
  REQUIRE(j["classes"].size() == 1);
  const konobi::Json& c = j["classes"][0];
  CHECK(c["class"] == "a1");
  CHECK(c["value"] == "open");
  CHECK(c["pn"] == 50);
  CHECK(c["dn"] == 800);
  CHECK(c["jobs"] == 17);
  CHECK(c["nodes"] == 15000);
  CHECK(c["tree_nodes"] == 8);
  CHECK(c["replies"]["win"] == 0);
  CHECK(c["replies"]["lose"] == 1);
  CHECK(c["replies"]["open"] == 3);

  // --size finds results/konobi-NxN.checkpoint.xz from where it is run.
  fs::create_directories(dir / "results");
  fs::copy_file(file, dir / "results/konobi-5x5.checkpoint.xz");
  const auto by_size =
      run_konobi({"tree", "--size", "5", "--json"}, "cd " + konobi_test::quote(dir.path) + " && ");
  require_status(by_size, 0);
  CHECK(konobi::Json::parse(by_size.out)["classes"] == j["classes"]);
}

TEST_CASE("konobi tree shows a node: its numbers, its moves for their player, the line they point to",
          "[cli][tree]") {
  konobi_test::TempDir dir;
  const std::string file = dir / "t.checkpoint.xz";
  write_sample(file);
  const auto root = run_konobi({"tree", file, "--class", "a1"});
  require_status(root, 0);
  CHECK_THAT(root.out, Contains("class a1") && Contains("17 jobs, 15.0k nodes"));
  CHECK_THAT(root.out, Contains("After a1, White to move:"));
  CHECK_THAT(root.out,
             Contains("Open: pn 50 to prove that White wins, dn 800 to prove that Black wins. Hint: c3."));
  CHECK_THAT(root.out, Contains("White's 4 moves (0 win, 1 lose, 3 open)"));
  // Cheapest first (a move's pn is its child's dn), the refuted one last.
  const size_t d4 = root.out.find("  d4 "), b2 = root.out.find("  b2 "), c3 = root.out.find("  c3 "),
               a2 = root.out.find("  a2 ");
  REQUIRE(d4 != std::string::npos);
  CHECK(d4 < b2);
  CHECK(b2 < c3);
  CHECK(c3 < a2);
  CHECK_THAT(root.out, Contains("loses to b3"));
  // The hint is followed while it is open, then the least pn: d3 (200) before b3 (500).
  CHECK_THAT(root.out, Contains("The line the numbers point to: c3 d3"));
  // a2 is proven: its figures are only those of its time as a leaf, and the table says so.
  CHECK_THAT(root.out, Contains("A proven move's nodes and jobs are those run on it as a leaf"));

  const auto c3json = run_konobi({"tree", file, "--class", "a1", "--line", "c3", "--json"});
  require_status(c3json, 0);
  const konobi::Json j = konobi::Json::parse(c3json.out);
  CHECK(j["to_move"] == "black");
  CHECK(j["value"] == "open");
  CHECK(j["pn"] == 200);
  CHECK(j["dn"] == 85);
  CHECK(j["nodes"] == 100 + 800 + 900 + 700);
  CHECK(j["jobs"] == 1 + 2 + 3 + 1);
  CHECK(j["tree_nodes"] == 4);
  REQUIRE(j["moves"].size() == 3);
  CHECK(j["moves"][0]["move"] == "d3");
  CHECK(j["moves"][0]["pn"] == 200);
  CHECK(j["moves"][0]["dn"] == 40);
  CHECK(j["moves"][1]["move"] == "b3");
  CHECK(j["moves"][2]["move"] == "b4");
  CHECK(j["moves"][2]["verdict"] == "loses");
  CHECK(j["moves"][2]["answer"] == "c4");
  // Its hint, b4, is refuted: said, and the line goes by the numbers.
  CHECK(j["hint"] == "b4");
  CHECK(j["hint_refuted"] == true);
  CHECK(j["cheapest_line"] == konobi::Json::array({"d3"}));
  const auto c3text = run_konobi({"tree", file, "--class", "a1", "--line", "c3"});
  require_status(c3text, 0);
  CHECK_THAT(c3text.out, Contains("Hint: b4, refuted (the jobs pass it over)."));
  CHECK_THAT(c3text.out, Contains("The line the numbers point to: d3"));
  const auto rootjson = run_konobi({"tree", file, "--class", "a1", "--json"});
  require_status(rootjson, 0);
  CHECK(konobi::Json::parse(rootjson.out)["hint"] == "c3");
  CHECK(konobi::Json::parse(rootjson.out)["hint_refuted"] == false);
  // The node's pn is its cheapest open move's.
  CHECK(j["pn"] == j["moves"][0]["pn"]);

  const auto leaf = run_konobi({"tree", file, "--class", "a1", "--line", "d4"});
  require_status(leaf, 0);
  CHECK_THAT(leaf.out, Contains("After a1 d4, Black to move:") && Contains("A leaf of the tree"));
  const auto proven = run_konobi({"tree", file, "--class", "a1", "--line", "a2"});
  require_status(proven, 0);
  CHECK_THAT(proven.out, Contains("Proven: Black wins with b3."));
}

TEST_CASE("konobi tree refuses what the checkpoint does not hold, saying what it does", "[cli][tree]") {
  konobi_test::TempDir dir;
  const std::string file = dir / "t.checkpoint.xz";
  write_sample(file);
  const auto usage = [&](const std::vector<std::string>& args, const std::string& expected) {
    const auto r = run_konobi(args);
    require_status(r, 2);
    INFO("stderr: " << r.err);
    CHECK_THAT(r.err, Contains(expected));
    CHECK(r.out.empty());
  };
  usage({"tree", file, "--class", "b1"}, "holds no open class b1; its open classes are a1");
  usage({"tree", file, "--class", "a1", "--line", "c3,b4,c4"},
        "does not reach a1 c3 b4 c4; the deepest position of that line it holds is a1 c3 b4, proven");
  usage({"tree", file, "--class", "a1", "--line", "b2 c2"},
        "the deepest position of that line it holds is a1 b2, a leaf");
  usage({"tree", file, "--class", "a1", "--line", "c3,zz"}, "--line:");
  usage({"tree", file, "--class", "a1", "--line", "swap"}, "--line: swap is not a move");
  usage({"tree", file, "--class", "k9"}, "--class:");
  usage({"tree", file, "--line", "c3"}, "--line goes with --class");
  usage({"tree", file, "--size", "5"}, "not both");
  usage({"tree", "--size", "5", "--game", "go"}, "--game must be konobi or gonnect");
  usage({"tree"}, "give the checkpoint file");
  usage({"tree", dir / "none.checkpoint.xz"}, "no checkpoint");

  // Not a checkpoint at all: a message naming it, never a crash.
  {
    std::ofstream out(dir / "junk.xz");
    out << "this is not a checkpoint\n";
  }
  const auto junk = run_konobi({"tree", dir / "junk.xz"});
  INFO("stderr: " << junk.err);
  REQUIRE(junk.exited);
  CHECK(junk.status != 0);
  CHECK(junk.status < 128);
  CHECK_THAT(junk.err, Contains("junk.xz") && Contains("not xz-compressed"));
}
