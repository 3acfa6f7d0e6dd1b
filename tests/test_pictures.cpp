// SVG pictures and the pie report: every picture the program writes is
// well-formed XML with exactly one <circle> per stone; konobi pie agrees
// with the results files, reports partial files as partial, and refuses
// bad input with exit status 2.
#include <algorithm>
#include <filesystem>
#include <set>

#include "support.h"
#include "xml_check.h"
#include "core/notation.h"
#include "solver/io/atomic_file.h"
#include "solver/io/json.h"
#include "solver/io/puzzle_file.h"
#include "solver/io/results.h"
#include "solver/io/svg.h"
#include "solver/search/alphabeta.h"

namespace fs = std::filesystem;
using Catch::Contains;
using konobi_test::check_xml;
using konobi_test::read_all;
using konobi_test::run_konobi;

namespace {

const fs::path kResults = fs::path(KONOBI_SOURCE_DIR) / "results";

using konobi_test::TempDir;

int stones_in(const std::string& position) {
  const konobi::PositionText t = konobi::parse_position(position);
  int k = 0;
  for (int c : t.cells) k += c >= 0;
  return k;
}

int count_of(const konobi_test::XmlDoc& d, const std::string& name) {
  return d.elements.count(name) ? d.elements.at(name) : 0;
}

// Parses the picture and checks one circle per stone.
konobi_test::XmlDoc check_picture(const std::string& path, int stones) {
  INFO(path);
  REQUIRE(fs::exists(path));
  const konobi_test::XmlDoc d = check_xml(read_all(path));
  INFO(d.error);
  REQUIRE(d.ok);
  CHECK(d.root == "svg");
  CHECK(count_of(d, "circle") == stones);
  return d;
}

konobi::Results shipped(int n) {
  const std::string name = "konobi-" + std::to_string(n) + "x" + std::to_string(n) + ".json";
  return konobi::Results::from_json(konobi::read_file((kResults / name).string()), name);
}

}  // namespace

TEST_CASE("the XML checker itself accepts good documents and refuses broken ones", "[pictures]") {
  CHECK(check_xml("<?xml version=\"1.0\"?>\n<a x=\"1\"><b/><c>t &amp; &#65;</c></a>\n").ok);
  for (const char* bad : {"<a>", "<a></b>", "<a x=1/>", "<a x=\"1\" x=\"2\"/>", "<a>&nbsp;</a>",
                          "<a>x < y</a>", "<a/><b/>", "text", "<a x=\"<\"/>", "<a><!-- x -- y --></a>"}) {
    INFO(bad);
    CHECK_FALSE(check_xml(bad).ok);
  }
  const auto d = check_xml("<svg><circle/><g><circle></circle><rect/></g></svg>");
  REQUIRE(d.ok);
  CHECK(d.elements.at("circle") == 2);
}

TEST_CASE("the renderer draws one circle per stone and escapes its text", "[pictures]") {
  konobi::SvgBoard b;
  b.n = 4;
  b.cells = {0, 1, -1, -1, -1, 0, -1, -1, -1, -1, -1, -1, 1, -1, -1, 0};
  b.marks.assign(16, konobi::SvgMark::None);
  b.marks[0] = konobi::SvgMark::LastMove;
  b.marks[2] = konobi::SvgMark::Solution;
  b.marks[3] = konobi::SvgMark::Crosscut;
  b.marks[4] = konobi::SvgMark::WeakIllegal;
  b.values.resize(16);
  b.values[6] = {konobi::SvgValue::Black, "W3"};
  b.values[7] = {konobi::SvgValue::White, "<&>"};
  b.title = "a \"title\" & <more>";
  b.notes = {"x < y", "it's"};
  const auto d = check_xml(konobi::render_svg(b));
  INFO(d.error);
  REQUIRE(d.ok);
  CHECK(count_of(d, "circle") == 5);
  const auto& texts = d.text.at("text");
  CHECK(std::count(texts.begin(), texts.end(), "<&>") == 1);
  CHECK(std::count(texts.begin(), texts.end(), "a \"title\" & <more>") == 1);
  b.cells.pop_back();
  CHECK_THROWS(konobi::render_svg(b));
}

TEST_CASE("show --svg and analyze --svg draw the position", "[pictures]") {
  TempDir tmp;
  const auto s = run_konobi({"show", "--size", "5", "c3", "b2", "d3", "b4", "--svg", tmp / "show.svg"});
  INFO(s.err);
  REQUIRE(s.status == 0);
  const auto d = check_picture(tmp / "show.svg", 4);
  // The illegal points are marked as the text diagram marks them, never with circles.
  const auto j = run_konobi({"show", "--size", "5", "c3", "b2", "d3", "b4", "--json"});
  const konobi::Json v = konobi::Json::parse(j.out);
  CHECK(count_of(d, "path") == 1 + int(v["illegal"].size()));  // the grid, then one mark per illegal point

  const std::string position = "...BB/BBWBB/WWW../WBWB./WBWBW w";
  const auto a = run_konobi(
      {"analyze", "-p", position, "--remoteness", "--tt-mb", "16", "--svg", tmp / "analyze.svg", "--json"});
  INFO(a.err);
  REQUIRE(a.status == 0);
  const auto ad = check_picture(tmp / "analyze.svg", stones_in(position));
  // One label per legal move, W for the winning ones.
  const konobi::Json av = konobi::Json::parse(a.out);
  int wins = 0, labels = 0, w = 0;
  for (const auto& m : av["moves"]) wins += m["value"].get<std::string>() == "win";
  // Labels are W or L and the remoteness: "W3", "L2".
  auto is_label = [](const std::string& t) {
    return t.size() > 1 && (t[0] == 'W' || t[0] == 'L') && std::all_of(t.begin() + 1, t.end(), [](char c) {
             return std::isdigit(static_cast<unsigned char>(c));
           });
  };
  for (const auto& t : ad.text.at("text"))
    if (is_label(t)) ++labels, w += t[0] == 'W';
  CHECK(labels == int(av["moves"].size()));
  CHECK(w == wins);
  CHECK(wins == 1);  // the position has one winning move
}

TEST_CASE("puzzles --svg-dir draws every puzzle of a collection", "[pictures]") {
  TempDir tmp;
  const std::string from = (kResults / "puzzles-6x6.json").string();
  const auto r = run_konobi({"puzzles", "--from", from, "--svg-dir", tmp / "p", "--svg-solutions"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const konobi::PuzzleSet set = konobi::PuzzleSet::from_json(konobi::read_file(from), from);
  REQUIRE_FALSE(set.puzzles.empty());
  for (const auto& p : set.puzzles) {
    const auto d = check_picture(tmp / ("p/puzzle-" + std::to_string(p.id) + ".svg"), stones_in(p.position));
    CHECK(count_of(d, "path") == 2);  // the grid and the solution's diamond
  }
  CHECK(std::distance(fs::directory_iterator(tmp.path / "p"), fs::directory_iterator()) ==
        long(set.puzzles.size()));
}

TEST_CASE("pie agrees with the results files, and its opening map has no stones", "[pictures][pie]") {
  TempDir tmp;
  for (int n : {3, 4, 5}) {
    INFO("size " << n);
    const konobi::Results res = shipped(n);
    const auto r = run_konobi({"pie", "--size", std::to_string(n), "--results", kResults.string(), "--json",
                               "--remoteness-nodes", n == 5 ? "0" : "250000", "--svg", tmp / "map.svg"});
    INFO(r.err);
    REQUIRE(r.status == 0);
    const konobi::Json v = konobi::Json::parse(r.out)["sizes"].at(0);
    CHECK(v["size"].get<long long>() == n);
    CHECK(v["complete"].get<bool>() == res.complete());
    CHECK(v["second_player_wins"].get<bool>());
    CHECK_THAT(v["verdict"].get<std::string>(), Contains("second player wins"));
    int black = 0;
    const auto& g = konobi::Geometry<1>::get(n);
    for (int p = 0; p < n * n; ++p) {
      const auto& o = v["openings"].at(p);
      const auto& f = res.openings[p];
      CHECK(o["point"].get<std::string>() == f.point);
      CHECK(o["winner"].get<std::string>() == f.winner);
      CHECK(o["swap"].get<bool>() == (f.winner == "black"));
      CHECK(o["proof_size"].get<long long>() == (long long)f.proof_size);
      black += f.winner == "black";
      if (n < 5) {
        // The remoteness is alpha-beta's, after Black's first stone.
        auto pos = konobi::Position<1>::empty(g);
        pos.place(p);
        pos.swap_available = false;
        konobi::AlphaBeta<1> ab(18);
        CHECK(o["remoteness"].get<long long>() == konobi::remoteness_of(ab.score(pos)));
      } else {
        CHECK(o["remoteness"].is_null());
      }
    }
    CHECK(v["openings_black_wins"].get<long long>() == black);
    CHECK(v["openings_white_wins"].get<long long>() == n * n - black);
    // The map: no stones, one B label per winning opening, one W per losing one.
    const auto d = check_picture(tmp / "map.svg", 0);
    const auto& texts = d.text.at("text");
    CHECK(std::count(texts.begin(), texts.end(), "B") == black);
    CHECK(std::count(texts.begin(), texts.end(), "W") == n * n - black);
  }
}

TEST_CASE("pie --all reads every results file and writes one map per size", "[pictures][pie]") {
  TempDir tmp;
  const auto r = run_konobi(
      {"pie", "--all", "--results", kResults.string(), "--remoteness-nodes", "0", "--svg", tmp / "maps"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  for (int n : {3, 4, 5}) {
    const std::string nn = std::to_string(n) + "x" + std::to_string(n);
    CHECK_THAT(r.out, Contains("Konobi " + nn + " under the pie rule"));
    check_picture(tmp / ("maps/opening-map-" + nn + ".svg"), 0);
  }
  CHECK_THAT(r.out, Contains("Verdict: with perfect play the second player wins under the pie rule"));
}

TEST_CASE("pie reports a partially solved file as partial, without a verdict", "[pictures][pie]") {
  TempDir tmp;
  konobi::Results res = shipped(4);
  std::set<std::string> unsolved;
  for (auto& o : res.openings)
    if (o.representative == "a2") o.solved = false, o.winner.clear(), unsolved.insert(o.point);
  REQUIRE(unsolved.size() == 4);
  konobi::write_file_atomically(tmp / "konobi-4x4.json", res.to_json());
  const auto r = run_konobi({"pie", "--size", "4", "--results", tmp.path.string(), "--json"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const konobi::Json v = konobi::Json::parse(r.out)["sizes"].at(0);
  CHECK_FALSE(v["complete"].get<bool>());
  CHECK(v["second_player_wins"].is_null());
  CHECK(v["openings_solved"].get<long long>() == 12);
  CHECK_THAT(v["verdict"].get<std::string>(), Contains("unknown"));
  for (const auto& o : v["openings"])
    CHECK(o["solved"].get<bool>() == !unsolved.count(o["point"].get<std::string>()));
  const auto t = run_konobi({"pie", "--size", "4", "--results", tmp.path.string(), "--svg", tmp / "m.svg"});
  REQUIRE(t.status == 0);
  CHECK_THAT(t.out, Contains("partial: 12 of 16 openings proven"));
  CHECK_THAT(t.out, Contains("Unknown openings: 4"));
  const auto d = check_picture(tmp / "m.svg", 0);
  const auto& texts = d.text.at("text");
  CHECK(std::count(texts.begin(), texts.end(), "?") == 4);
}

TEST_CASE("pie refuses bad input with exit status 2", "[pictures][pie]") {
  TempDir tmp;
  auto refused = [&](const std::vector<std::string>& args, const std::string& why) {
    const auto r = run_konobi(args);
    INFO(r.out << r.err);
    CHECK(r.exited);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Contains(why));
    CHECK(r.out.empty());
  };
  const std::string dir = tmp.path.string();
  refused({"pie", "--size", "4", "--results", dir}, "konobi-4x4.json");  // missing
  refused({"pie", "--all", "--results", dir}, "no results file");
  refused({"pie", "--size", "2"}, "out of range");
  refused({"pie", "--size", "9"}, "out of range");
  refused({"pie"}, "--size N or --all");
  refused({"pie", "--size", "3", "--all"}, "--size N or --all");
  konobi::write_file_atomically(tmp / "konobi-3x3.json", "{\"schema\": \"konobi-results/1\", \"size\": 3, ");
  refused({"pie", "--size", "3", "--results", dir}, "not a valid results file");
  const std::string good = konobi::read_file((kResults / "konobi-3x3.json").string());
  std::string other = good;
  other.replace(other.find("konobi-results/1"), 16, "konobi-results/9");
  konobi::write_file_atomically(tmp / "konobi-3x3.json", other);
  refused({"pie", "--size", "3", "--results", dir}, "schema");
  // A file under the wrong name: a 3x3 file standing in for 4x4.
  konobi::write_file_atomically(tmp / "konobi-4x4.json", good);
  refused({"pie", "--size", "4", "--results", dir}, "holds size 3");
  // One opening of a class changed (c1, a corner; the file's summary agrees with it): the class has
  // two values, refused on reading.
  konobi::Results one = konobi::Results::from_json(good, "konobi-3x3.json");
  for (auto& o : one.openings)
    if (o.point == "c1") o.winner = o.winner == "white" ? "black" : "white";
  konobi::write_file_atomically(tmp / "konobi-3x3.json", one.to_json());
  refused({"pie", "--size", "3", "--results", dir}, "in the same class");
  // The whole class changed: alpha-beta contradicts it when remoteness is computed.
  konobi::Results whole = konobi::Results::from_json(good, "konobi-3x3.json");
  std::string cls;
  for (auto& o : whole.openings)
    if (o.solved && o.winner == "white" && (cls.empty() || o.representative == cls))
      cls = o.representative, o.winner = "black";
  konobi::write_file_atomically(tmp / "konobi-3x3.json", whole.to_json());
  refused({"pie", "--size", "3", "--results", dir}, "alpha-beta");
}
