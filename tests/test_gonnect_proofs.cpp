// Gonnect proofs (docs/PROOFS.md, "Gonnect proofs"): the shipped ones pass
// the independent checker, the solver's proofs of every 3x3 opening pass it
// under both edge rules and both ko rules, and tampered proofs fail with the
// position named.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "core/gonnect.h"
#include "solver/io/json.h"
#include "solver/search/parallel_dfpn.h"
#include "solver/search/proof.h"
#include "solver/verify/proof_checker.h"
#include "solver/verify/simple_gonnect.h"
#include "solver/verify/simple_rules.h"
#include "tests/support.h"

using namespace konobi;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

using konobi_test::decompress;

using State = GonnectState<1>;
const fs::path kResults = fs::path(KONOBI_SOURCE_DIR) / "results";
constexpr size_t kHeader = 7;  // format line, ko, edges, size, start, winner, entries

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> v;
  size_t i = 0;
  while (i < text.size()) {
    const size_t j = text.find('\n', i);
    v.push_back(text.substr(i, j - i));
    i = j + 1;
  }
  return v;
}

std::string text_of(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

State start_state(int n, const std::vector<int>& game, GonnectVariant v) {
  State s = GonnectRules::start(Position<1>::empty(gonnect_geometry<1>(n, v)), v);
  for (int p : game) GonnectRules::play(s, p);
  s.pos.swap_available = false;
  return s;
}

// Solves the position after `game` and extracts its proof.
struct Solved {
  bool mover_wins;
  std::string text;
  size_t entries;  // in the text
  size_t counted;  // by ProofBuilder::size, without a text
};
Solved solve_and_prove(int n, const std::vector<int>& game, GonnectVariant v, bool merge = false,
                       bool symmetry = true) {
  GonnectSearch::merge_before_capture = merge;
  const State s = start_state(n, game, v);
  TranspositionTable tt(16);
  DfpnOptions opt;
  opt.symmetry = symmetry;
  opt.max_nodes = 5'000'000;  // a safety net: these take thousands
  const bool mover_wins = solve_game_position<GonnectSearch, 1>(s, tt, opt, 1, nullptr).mover_wins;
  const Color winner = mover_wins ? s.pos.to_move : other(s.pos.to_move);
  const Proof proof = ProofBuilder<1, GonnectSearch>(tt, opt).build(s, winner, game);
  // Counted on a table of its own, solved alike: building may re-solve
  // children the table lost, which changes the table.
  TranspositionTable tt2(16);
  solve_game_position<GonnectSearch, 1>(s, tt2, opt, 1, nullptr);
  const size_t counted = ProofBuilder<1, GonnectSearch>(tt2, opt).size(s, winner);
  GonnectSearch::merge_before_capture = false;
  return {mover_wins, proof.to_text(), proof.entries.size(), counted};
}

// The winner's legal placements at an entry, by the simple rules (the
// game replayed from the empty board).
std::vector<int> legal_at(const std::string& entry, int n, bool superko) {
  konobi_ref::RefGo g = konobi_ref::ref_go_empty(n, superko, false);
  std::vector<std::string> tokens;
  size_t i = 0;
  while (i < entry.size()) {
    const size_t j = std::min(entry.find(' ', i), entry.size());
    tokens.push_back(entry.substr(i, j - i));
    i = j + 1;
  }
  tokens.pop_back();
  for (const auto& t : tokens) g = konobi_ref::ref_go_play(g, konobi_ref::ref_parse_point(n, t));
  return konobi_ref::ref_go_legal(g);
}

std::string with_move(std::vector<std::string> lines, size_t i, const std::string& move) {
  lines[i] = lines[i].substr(0, lines[i].rfind(' ') + 1) + move;
  return text_of(lines);
}

}  // namespace

TEST_CASE("gonnect proofs: the shipped 3x3 and 4x4 proofs pass the checker and match the results",
          "[gonnect][proof][shipped]") {
  for (int n : {3, 4}) {
    const std::string size = std::to_string(n) + "x" + std::to_string(n);
    const Json results =
        Json::parse(konobi_test::read_all((kResults / ("gonnect-" + size + ".json")).string()));
    const fs::path dir = kResults / ("proofs-gonnect-" + size);
    REQUIRE(fs::is_directory(dir));
    int files = 0;
    for (const Json& o : results["openings"]) {
      if (o["point"].get<std::string>() != o["class"].get<std::string>()) continue;
      const fs::path f = dir / ("gonnect-" + size + "-" + o["point"].get<std::string>() + ".proof.xz");
      INFO(f);
      REQUIRE(fs::exists(f));
      const ProofCheck c = check_gonnect_proof(decompress(f));
      CHECK(c.ok);
      CHECK(c.message.find("never reached") == std::string::npos);
      CHECK(c.game == "gonnect");
      CHECK(c.ko == results["ko_rule"].get<std::string>());
      CHECK(c.edges == results["edges"].get<std::string>());
      CHECK(c.start == o["point"].get<std::string>());
      CHECK(c.winner == o["winner"].get<std::string>());
      CHECK(c.entries == uint64_t(o["proof_size"].get<long long>()));
      ++files;
    }
    CHECK(files == 3);  // the opening classes under all 8 symmetries: a1, b1, and b2 (the centre on 3x3)
  }
}

TEST_CASE("gonnect proofs: the solver's proofs of every 3x3 opening pass, both edge rules",
          "[gonnect][proof]") {
  for (EdgeRule edges : {EdgeRule::Either, EdgeRule::Own}) {
    for (bool merge : {false, true}) {
      for (int p = 0; p < 9; ++p) {
        GonnectVariant v;
        v.edges = edges;
        const Solved s = solve_and_prove(3, {p}, v, merge);
        INFO(edge_rule_name(edges) << (merge ? " merge " : " strict ") << point_name(3, p) << "\n" << s.text);
        const ProofCheck c = check_any_proof(s.text);
        CHECK(c.ok);
        CHECK(c.game == "gonnect");
        CHECK(c.edges == edge_rule_name(edges));
        CHECK(c.winner == (s.mover_wins ? "white" : "black"));
        CHECK(c.start == point_name(3, p));
        CHECK(s.counted == s.entries);
      }
    }
  }
}

TEST_CASE("gonnect proofs: a proof made under simple ko is checked under simple ko", "[gonnect][proof]") {
  // Every 3x3 opening, and a 4x4 one: the search plays by the state's ko
  // rule, the proof says which, and the checker plays by what it says.
  GonnectVariant v;
  v.ko = KoRule::Simple;
  for (int p = 0; p < 9; ++p) {
    const Solved s = solve_and_prove(3, {p}, v);
    const ProofCheck c = check_gonnect_proof(s.text);
    INFO(point_name(3, p) << ": " << c.message);
    CHECK(c.ok);
    CHECK(c.ko == "simple");
    CHECK(lines_of(s.text)[1] == "ko simple");
  }
  // And the other way round: a 4x4 superko proof whose lines meet repeated
  // boards does not hold as a simple-ko proof (the loser gets moves that
  // superko barred), so the checker really plays by the header's rule.
  int fails_under_simple = 0;
  for (const char* point : {"a1", "b1", "b2"}) {
    const std::string text =
        decompress(kResults / "proofs-gonnect-4x4" / (std::string("gonnect-4x4-") + point + ".proof.xz"));
    auto lines = lines_of(text);
    REQUIRE(lines[1] == "ko superko");
    lines[1] = "ko simple";
    const ProofCheck c = check_gonnect_proof(text_of(lines));
    if (!c.ok) {
      ++fails_under_simple;
      CHECK_THAT(c.message, Contains("reached by the game"));
    }
  }
  CHECK(fails_under_simple > 0);
}

TEST_CASE("gonnect proofs: tampered proofs are rejected", "[gonnect][proof]") {
  const int n = 4;
  const std::string text = decompress(kResults / "proofs-gonnect-4x4" / "gonnect-4x4-b2.proof.xz");
  REQUIRE(check_gonnect_proof(text).ok);
  const auto lines = lines_of(text);
  REQUIRE(lines[0] == "gonnect-proof 1");
  REQUIRE(lines[5] == "winner black");
  REQUIRE(lines.back() == "end");
  const size_t entries = lines.size() - kHeader - 1;
  REQUIRE(lines[6] == "entries " + std::to_string(entries));

  SECTION("a winning move replaced by another legal move") {
    // At some entries every other legal move loses; at all of them some do.
    int rejected = 0, tried = 0;
    for (size_t i = kHeader; i < lines.size() - 1 && tried < 40; i += 37) {
      const std::string move = lines[i].substr(lines[i].rfind(' ') + 1);
      for (int p : legal_at(lines[i], n, true)) {
        const std::string other_move = point_name(n, p);
        if (other_move == move) continue;
        ++tried;
        const ProofCheck c = check_gonnect_proof(with_move(lines, i, other_move));
        if (!c.ok) {
          ++rejected;
          CHECK_THAT(c.message, Contains("reached by the game"));
        }
      }
    }
    CHECK(tried > 0);
    CHECK(rejected > 0);
  }
  SECTION("a winning move replaced by an occupied point, and by a non-point") {
    const ProofCheck c = check_gonnect_proof(with_move(lines, kHeader, "b2"));  // the start's stone
    CHECK_FALSE(c.ok);
    CHECK_THAT(c.message, Contains("illegal"));
    CHECK_FALSE(check_gonnect_proof(with_move(lines, kHeader, "z9")).ok);
    CHECK_FALSE(check_gonnect_proof(with_move(lines, kHeader, "pass")).ok);
  }
  SECTION("a missing entry, with the count fixed") {
    for (size_t drop : {kHeader, kHeader + entries / 2, lines.size() - 2}) {
      auto v = lines;
      v.erase(v.begin() + long(drop));
      v[6] = "entries " + std::to_string(entries - 1);
      const ProofCheck c = check_gonnect_proof(text_of(v));
      INFO("dropped " << lines[drop] << ": " << c.message);
      CHECK_FALSE(c.ok);
      CHECK_THAT(c.message, Contains("no move"));
      CHECK_THAT(c.message, Contains("reached by the game"));
    }
  }
  SECTION("a loser's reply left uncovered: every entry after it gone") {
    // The entries after the start's first reply of the loser that needs any.
    const std::string reply = lines[kHeader].substr(0, lines[kHeader].rfind(' '));  // "b2 X"
    std::vector<std::string> v(lines.begin(), lines.begin() + long(kHeader));
    size_t kept = 0;
    for (size_t i = kHeader; i < lines.size() - 1; ++i)
      if (lines[i].rfind(reply + " ", 0) != 0) v.push_back(lines[i]), ++kept;
    v.push_back("end");
    REQUIRE(kept < entries);
    v[6] = "entries " + std::to_string(kept);
    const ProofCheck c = check_gonnect_proof(text_of(v));
    CHECK_FALSE(c.ok);
    CHECK_THAT(c.message, Contains("reached by the game: " + reply));
  }
  SECTION("a second entry for one game") {
    auto v = lines;
    v.insert(v.begin() + long(kHeader) + 1, v[kHeader]);
    v[6] = "entries " + std::to_string(entries + 1);
    CHECK_FALSE(check_gonnect_proof(text_of(v)).ok);
  }
  SECTION("a truncated file") {
    for (size_t cut : {text.size() / 2, text.size() - 5, size_t(10)}) {
      const ProofCheck c = check_gonnect_proof(text.substr(0, cut));
      INFO("cut at " << cut << ": " << c.message);
      CHECK_FALSE(c.ok);
    }
    CHECK_THAT(check_gonnect_proof(text.substr(0, text.size() / 2)).message, Contains("truncated"));
    CHECK_FALSE(check_gonnect_proof("").ok);
  }
  SECTION("a wrong header: game, version, ko, edges, size, winner, start") {
    auto v = lines;
    v[0] = "konobi-proof 1";
    CHECK_FALSE(check_gonnect_proof(text_of(v)).ok);
    CHECK_FALSE(check_any_proof(text_of(v)).ok);
    v[0] = "gonnect-proof 2";
    CHECK_FALSE(check_any_proof(text_of(v)).ok);
    // And a Konobi proof does not pass as a Gonnect one.
    CHECK_FALSE(check_gonnect_proof(decompress(kResults / "proofs-4x4" / "konobi-4x4-b2.proof.xz")).ok);
    for (const auto& [line, value] : std::vector<std::pair<size_t, std::string>>{{1, "ko positional"},
                                                                                 {2, "edges own"},
                                                                                 {2, "edges both"},
                                                                                 {3, "size 5"},
                                                                                 {3, "size x"},
                                                                                 {4, "start c3"},
                                                                                 {4, "start b2 b2"},
                                                                                 {5, "winner white"},
                                                                                 {5, "winner nobody"}}) {
      auto w = lines;
      w[line] = value;
      INFO(value);
      CHECK_FALSE(check_gonnect_proof(text_of(w)).ok);
    }
  }
}

TEST_CASE("gonnect proofs: solve --proof writes them and verify-proof checks them", "[gonnect][proof][cli]") {
  using konobi_test::run_konobi;
  const konobi_test::TempDir dir;
  const auto r = run_konobi({"solve", "--game", "gonnect", "--size", "3", "--threads", "1", "--tt-mb", "8",
                             "-q", "--out", dir / "g3.json", "--proof", dir / "proofs"});
  REQUIRE(r.status == 0);
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir.path / "proofs"))
    files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  // One per class under all 8 symmetries: a2 is b1 turned over.
  CHECK(files == std::vector<std::string>{"gonnect-3x3-a1.proof.xz", "gonnect-3x3-b1.proof.xz",
                                          "gonnect-3x3-b2.proof.xz"});
  std::vector<std::string> args{"verify-proof"};
  for (const auto& f : files) args.push_back(dir / ("proofs/" + f));
  const auto ok = run_konobi(args);
  CHECK(ok.status == 0);
  CHECK(ok.out.find("OK    ") != std::string::npos);
  CHECK(ok.out.find("gonnect, ko superko, edges either") != std::string::npos);
  // The rules asked for must be the file's.
  args.insert(args.begin() + 1, {"--game", "gonnect", "--ko", "superko", "--edges", "either"});
  CHECK(run_konobi(args).status == 0);
  const auto wrong_ko =
      run_konobi({"verify-proof", "--ko", "simple", dir / "proofs/gonnect-3x3-b2.proof.xz"});
  CHECK(wrong_ko.status == 1);
  CHECK(wrong_ko.out.find("FAIL") != std::string::npos);
  CHECK(run_konobi({"verify-proof", "--edges", "own", dir / "proofs/gonnect-3x3-b2.proof.xz"}).status == 1);
  CHECK(run_konobi({"verify-proof", "--game", "konobi", dir / "proofs/gonnect-3x3-b2.proof.xz"}).status == 1);
  // Konobi and Gonnect files side by side: each is checked by its own first line.
  const auto mixed =
      run_konobi({"verify-proof", (kResults / "proofs-3x3" / "konobi-3x3-b2.proof.xz").string(),
                  (kResults / "proofs-gonnect-3x3" / "gonnect-3x3-b2.proof.xz").string()});
  CHECK(mixed.status == 0);
  // A tampered one fails with the game that reaches the bad position and its diagram.
  auto lines = lines_of(decompress(dir.path / "proofs/gonnect-3x3-b2.proof.xz"));
  lines.erase(lines.begin() + long(kHeader));
  lines[6] = "entries " + std::to_string(lines.size() - kHeader - 1);
  {
    std::ofstream out(dir / "bad.proof");
    out << text_of(lines);
  }
  const auto bad = run_konobi({"verify-proof", dir / "bad.proof"});
  CHECK(bad.status == 1);
  CHECK(bad.out.find("reached by the game: b2 ") != std::string::npos);
  CHECK(bad.out.find("    a b c") != std::string::npos);
}

TEST_CASE("gonnect proofs: a wrong claim in the table is repaired and the proof still passes",
          "[gonnect][proof]") {
  // As for Konobi (test_proofs.cpp): a winner's position is given as its
  // own move one that loses, its child proven lost for its mover. The
  // builder follows it, meets the refutation, repairs the claim and walks
  // again, and the game each entry names (kept while walking, popped on
  // the exception's way out too) must still be right for the checker. The
  // winner's position is the start when its mover wins, else the start
  // after the loser's first reply.
  int planted = 0;
  for (int p = 0; p < 9; ++p) {
    const GonnectVariant v;
    const State s = start_state(3, {p}, v);
    TranspositionTable tt(16);
    DfpnOptions opt;
    opt.max_nodes = 5'000'000;
    const bool mover_wins = solve_game_position<GonnectSearch, 1>(s, tt, opt, 1, nullptr).mover_wins;
    const Color winner = mover_wins ? s.pos.to_move : other(s.pos.to_move);
    State at = s;
    if (!mover_wins) at = GonnectSearch::child(s, GonnectRules::placements(s).first());
    int wrong = -1;
    GonnectRules::placements(at).for_each([&](int m) {
      if (wrong >= 0 || GonnectRules::winning(at, GonnectRules::placements(at)).any()) return;
      TranspositionTable fresh(4);
      if (solve_game_position<GonnectSearch, 1>(GonnectSearch::child(at, m), fresh, opt, 1, nullptr)
              .mover_wins)
        wrong = m;
    });
    if (wrong < 0) continue;
    tt.store(GonnectSearch::key(GonnectSearch::child(at, wrong), opt.symmetry), kInf, 0, -1, 1);
    tt.store(GonnectSearch::key(at, opt.symmetry), 0, kInf,
             int8_t(table_move<GonnectSearch, 1>(at, wrong, opt.symmetry)), 1);
    ProofBuilder<1, GonnectSearch> builder(tt, opt);
    const Proof proof = builder.build(s, winner, {p});
    INFO(point_name(3, p) << ", planted " << point_name(3, wrong) << "\n" << proof.to_text());
    CHECK(builder.repairs() >= 1);
    const ProofCheck c = check_gonnect_proof(proof.to_text());
    CHECK(c.ok);
    CHECK(c.start == point_name(3, p));
    ++planted;
  }
  CHECK(planted == 9);  // every opening has a winner's position with a losing move
}
