// The results and puzzle loaders refuse every malformed file with a message
// naming the file, the field and the reason: wrong types, values out of
// range, fields that contradict each other or the board. A puzzle file whose
// size disagrees with its positions used to make `puzzles --from` read past
// a buffer; it is refused before anything is indexed by it.
#include <filesystem>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "support.h"
#include "core/game.h"
#include "solver/io/atomic_file.h"
#include "solver/io/puzzle_file.h"
#include "solver/io/results.h"

namespace fs = std::filesystem;
using Catch::Contains;
using Doc = nlohmann::ordered_json;

namespace {

const fs::path kResults = fs::path(KONOBI_SOURCE_DIR) / "results";

Doc shipped(const std::string& name) { return Doc::parse(konobi_test::read_all((kResults / name).string())); }

// The message a loader throws, or "accepted".
std::string refusal(const std::function<void()>& load) {
  try {
    load();
  } catch (const std::exception& e) { return e.what(); }
  return "accepted";
}

std::string results_refusal(const Doc& d) {
  return refusal([&] { konobi::Results::from_json(d.dump(2), "r.json"); });
}
std::string puzzles_refusal(const Doc& d) {
  return refusal([&] { konobi::PuzzleSet::from_json(d.dump(2), "p.json"); });
}

}  // namespace

TEST_CASE("loaders: every shipped results and puzzle file loads", "[loaders]") {
  for (const char* name : {"konobi-3x3.json", "konobi-4x4.json", "konobi-5x5.json", "konobi-6x6.json",
                           "gonnect-3x3.json", "gonnect-4x4.json", "gonnect-5x5.json"}) {
    INFO(name);
    const std::string text = konobi_test::read_all((kResults / name).string());
    const konobi::Results r = konobi::Results::from_json(text, name);
    // Written back, a file with every field of today's writer is the same bytes.
    if (text.find("\"simulation\"") != std::string::npos) CHECK(r.to_json() == text);
  }
  for (const char* name : {"puzzles-5x5.json", "puzzles-6x6.json"}) {
    INFO(name);
    const std::string text = konobi_test::read_all((kResults / name).string());
    CHECK(konobi::PuzzleSet::from_json(text, name).puzzles.size() > 10);
  }
}

TEST_CASE("loaders: a results file with a bad field is refused, naming it", "[loaders]") {
  const Doc good = shipped("konobi-4x4.json");
  REQUIRE(results_refusal(good) == "accepted");
  struct Case {
    const char* what;
    std::function<void(Doc&)> edit;
    const char* message;
  };
  const Case cases[] = {
      {"not JSON", [](Doc& d) { d = Doc::array(); }, "the document: expected an object"},
      {"winner", [](Doc& d) { d["openings"][7]["winner"] = "grey"; },
       "openings[7].winner: 'grey' is not black or white"},
      {"negative nodes", [](Doc& d) { d["nodes"] = -5; }, "nodes: -5 is negative"},
      {"negative opening nodes", [](Doc& d) { d["openings"][3]["nodes"] = -1; },
       "openings[3].nodes: -1 is negative"},
      {"fractional count", [](Doc& d) { d["openings"][3]["proof_size"] = 1.5; },
       "openings[3].proof_size: expected a whole number"},
      {"huge count", [](Doc& d) { d["nodes"] = 1e30; },
       "nodes: expected a whole number, found a fractional number"},
      {"size as text", [](Doc& d) { d["size"] = "4"; }, "size: expected a whole number, found a string"},
      {"size too small", [](Doc& d) { d["size"] = 2; }, "size: 2 is out of range 3..19"},
      {"size too large", [](Doc& d) { d["size"] = 20; }, "size: 20 is out of range 3..19"},
      {"size against openings", [](Doc& d) { d["size"] = 5; }, "openings: lists 16 openings, not 25"},
      {"game", [](Doc& d) { d["game"] = "chess"; }, "game: 'chess' is not konobi or gonnect"},
      {"missing game", [](Doc& d) { d.erase("game"); }, "game: missing"},
      {"gonnect rule in konobi", [](Doc& d) { d["ko_rule"] = "superko"; },
       "ko_rule: a Gonnect rule field in a Konobi file"},
      {"schema", [](Doc& d) { d["schema"] = "konobi-results/2"; },
       "schema: 'konobi-results/2' is not konobi-results/1"},
      {"threads", [](Doc& d) { d["provenance"]["threads"] = 0; }, "provenance.threads: 0 is out of range"},
      {"tt_mb", [](Doc& d) { d["provenance"]["tt_mb"] = "big"; },
       "provenance.tt_mb: expected a number, found a string"},
      {"command", [](Doc& d) { d["provenance"].erase("command"); }, "provenance.command: missing"},
      {"negative seconds", [](Doc& d) { d["seconds"] = -1; }, "seconds: -1 is out of range"},
      {"opening seconds", [](Doc& d) { d["openings"][0]["seconds"] = nullptr; },
       "openings[0].seconds: expected a number, found null"},
      {"solved", [](Doc& d) { d["openings"][2]["solved"] = "yes"; },
       "openings[2].solved: expected true or false"},
      {"swap", [](Doc& d) { d["openings"][0]["swap"] = true; },
       "openings[0].swap: says true but the winner is white"},
      {"continuation off the board", [](Doc& d) { d["openings"][0]["continuation"][0] = "e9"; },
       "openings[0].continuation[0]: "},
      {"continuation type", [](Doc& d) { d["openings"][0]["continuation"] = "a2 d2"; },
       "openings[0].continuation: expected an array, found a string"},
      {"complete", [](Doc& d) { d["complete"] = false; }, "complete: disagrees with the openings"},
      {"pie", [](Doc& d) { d["pie"]["openings_black_wins"] = 3; },
       "pie.openings_black_wins: is 3, the openings give 0"},
      {"empty board", [](Doc& d) { d["empty_board"]["winner"] = "black"; },
       "empty_board.winner: is \"black\", the openings give \"white\""},
      {"unsolved with a winner",
       [](Doc& d) {
         d["openings"][5]["solved"] = false;
         d["openings"][5].erase("nodes");
       },
       "openings[5].winner: present in an opening that is not solved"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    Doc d = good;
    c.edit(d);
    const std::string why = results_refusal(d);
    CHECK_THAT(why, Contains("r.json is not a valid results file") && Contains(c.message));
  }
  CHECK_THAT(refusal([&] { konobi::Results::from_json(good.dump(2).substr(0, 300), "cut.json"); }),
             Contains("cut.json is not a valid results file: not valid JSON"));
}

TEST_CASE("loaders: a Gonnect results file names its rules, and only those", "[loaders]") {
  const Doc good = shipped("gonnect-3x3.json");
  REQUIRE(results_refusal(good) == "accepted");
  Doc d = good;
  d.erase("ghi");
  CHECK_THAT(results_refusal(d), Contains("ghi: missing"));
  d = good;
  d["ko_rule"] = "bogus";
  CHECK_THAT(results_refusal(d), Contains("ko_rule: 'bogus' is not simple or superko"));
  d = good;
  d["edges"] = 1;
  CHECK_THAT(results_refusal(d), Contains("edges: expected a string, found a number"));
  d = good;
  d["ghi_hazards"] = -2;
  CHECK_THAT(results_refusal(d), Contains("ghi_hazards: -2 is negative"));
}

TEST_CASE("loaders: a puzzle file that contradicts its board is refused", "[loaders][puzzles]") {
  const Doc good = shipped("puzzles-5x5.json");
  REQUIRE(puzzles_refusal(good) == "accepted");
  // The first puzzle: "...BB/BBWBB/WWW../WBWB./WBWBW w", White plays d3.
  REQUIRE(good["puzzles"][0]["solution"] == "d3");
  struct Case {
    const char* what;
    std::function<void(Doc&)> edit;
    const char* message;
  };
  const Case cases[] = {
      {"size larger than the positions", [](Doc& d) { d["size"] = 6; },
       "puzzles[0].position: a 5x5 position in a file of size 6"},
      {"size smaller than the positions", [](Doc& d) { d["size"] = 4; },
       "puzzles[0].position: a 5x5 position in a file of size 4"},
      {"size out of range", [](Doc& d) { d["size"] = 40; }, "size: 40 is out of range 3..19"},
      {"position", [](Doc& d) { d["puzzles"][1]["position"] = "BB/W b"; }, "puzzles[1].position: "},
      {"solution off the board", [](Doc& d) { d["puzzles"][0]["solution"] = "f9"; }, "puzzles[0].solution: "},
      {"solution on a stone", [](Doc& d) { d["puzzles"][0]["solution"] = "a1"; },
       "puzzles[0].solution: a1 is not an empty point"},
      {"solution a pass", [](Doc& d) { d["puzzles"][0]["solution"] = "pass"; }, "puzzles[0].solution: "},
      {"remoteness negative", [](Doc& d) { d["puzzles"][0]["remoteness"] = -3; },
       "puzzles[0].remoteness: -3 is out of range"},
      {"remoteness zero", [](Doc& d) { d["puzzles"][0]["remoteness"] = 0; },
       "puzzles[0].remoteness: 0 is out of range"},
      {"moves to win", [](Doc& d) { d["puzzles"][0]["moves_to_win"] = 5; },
       "puzzles[0].moves_to_win: is not (remoteness + 1) / 2"},
      {"to_move", [](Doc& d) { d["puzzles"][0]["to_move"] = "black"; },
       "puzzles[0].to_move: 'black' but the position has white to move"},
      {"to_move value", [](Doc& d) { d["puzzles"][0]["to_move"] = "red"; },
       "puzzles[0].to_move: 'red' is not black or white"},
      {"game", [](Doc& d) { d["game"] = "gonnect"; }, "game: 'gonnect' is not konobi"},
      {"record short", [](Doc& d) { d["puzzles"][0]["record"].erase(d["puzzles"][0]["record"].size() - 1); },
       "puzzles[0].record: does not reach the position"},
      {"record illegal", [](Doc& d) { d["puzzles"][0]["record"][1] = d["puzzles"][0]["record"][0]; },
       "puzzles[0].record: move 2"},
      {"negative count", [](Doc& d) { d["games"] = -1; }, "games: -1 is negative"},
      {"settings", [](Doc& d) { d["settings"]["min_remoteness"] = 0; },
       "settings.min_remoteness: 0 is out of range"},
      {"id", [](Doc& d) { d["puzzles"][2]["id"] = "three"; }, "puzzles[2].id: expected a whole number"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    Doc d = good;
    c.edit(d);
    CHECK_THAT(puzzles_refusal(d), Contains("p.json is not a valid puzzle file") && Contains(c.message));
  }
}

TEST_CASE("loaders: a puzzle solution on an empty but illegal point is refused", "[loaders][puzzles]") {
  // Find a shipped puzzle with an empty point the mover may not play, and offer it as the solution.
  const Doc good = shipped("puzzles-5x5.json");
  bool found = false;
  for (size_t i = 0; i < good["puzzles"].size() && !found; ++i) {
    const konobi::PositionText t = konobi::parse_position(good["puzzles"][i]["position"].get<std::string>());
    const konobi::Game<konobi::KonobiRules, 1> g(konobi::from_text<1>(t));
    for (int p = 0; p < 25 && !found; ++p) {
      if (t.cells[p] >= 0 || g.why_illegal(p).empty()) continue;
      found = true;
      Doc d = good;
      d["puzzles"][i]["solution"] = konobi::point_name(5, p);
      CHECK_THAT(puzzles_refusal(d), Contains("puzzles[" + std::to_string(i) +
                                              "].solution: " + konobi::point_name(5, p) + " is not legal: "));
    }
  }
  REQUIRE(found);
}

TEST_CASE("puzzles --from refuses a file whose size disagrees with its positions",
          "[loaders][puzzles][cli]") {
  const konobi_test::TempDir tmp;
  Doc d = shipped("puzzles-5x5.json");
  for (int size : {6, 4, 19}) {
    INFO(size);
    d["size"] = size;
    const std::string path = tmp / "p.json";
    konobi::write_file_atomically(path, d.dump(2));
    // Text (whose diagrams used to read 36 or 361 cells of a 25-cell board), JSON, pictures.
    for (const std::string extra : {"", "--json", "--svg-dir"}) {
      INFO(extra);
      std::vector<std::string> args{"puzzles", "--from", path};
      if (extra == "--json") args.push_back(extra);
      if (extra == "--svg-dir") args.insert(args.end(), {extra, tmp / "svg"});
      const auto r = konobi_test::run_konobi(args);
      REQUIRE(r.exited);  // no crash
      CHECK(r.status == 2);
      CHECK(r.out.empty());
      CHECK_THAT(r.err, Contains("p.json is not a valid puzzle file") &&
                            Contains("a 5x5 position in a file of size " + std::to_string(size)));
    }
  }
  CHECK_FALSE(fs::exists(tmp.path / "svg"));
}
