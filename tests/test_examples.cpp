// The designer's four examples (CLARIFICATIONS.md / docs/RULES.md), crosscuts
// and win detection, each judged by the engine and by the reference rules.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "core/game.h"
#include "core/konobi.h"
#include "core/notation.h"
#include "solver/verify/simple_rules.h"

using namespace konobi_ref;

namespace {

constexpr const char* kPos12 = "...../W.W../B.W.B/..B../..BW. b";
constexpr const char* kPos34 = "...../...../..W../W.B../B.... b";

konobi::Position<1> engine_pos(const std::string& text) {
  return konobi::from_text<1>(konobi::parse_position(text));
}

int pt(int n, const std::string& name) { return konobi::parse_point(n, name); }

std::vector<std::string> names(int n, const konobi::Bitboard<1>& b) {
  std::vector<std::string> out;
  b.for_each([&](int p) { out.push_back(konobi::point_name(n, p)); });
  return out;
}
std::vector<std::string> names(int n, const std::vector<int>& v) {
  std::vector<std::string> out;
  for (int p : v) out.push_back(ref_point_name(n, p));
  return out;
}
std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}
std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : s) {
    if (ch == ' ') {
      if (!cur.empty()) out.push_back(cur), cur.clear();
    } else {
      cur += ch;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// Whether a `color` stone at empty x has no weak connection (reference).
bool ref_free(const RefBoard& b, int x, char color) {
  if (b.cell[x] != '.') return false;
  const int cx = x % b.n, rx = x / b.n;
  for (int dc : {-1, 1})
    for (int dr : {-1, 1}) {
      const int c = cx + dc, r = rx + dr;
      if (c < 0 || r < 0 || c >= b.n || r >= b.n) continue;
      const int t = r * b.n + c;
      if (b.cell[t] == color && ref_weakly_connected(b, x, t, color)) return false;
    }
  return true;
}

}  // namespace

TEST_CASE("reference parser agrees with the engine's position parser", "[examples][reference]") {
  for (const char* text : {kPos12, kPos34}) {
    const auto t = konobi::parse_position(text);
    const RefBoard b = ref_from_string(text);
    REQUIRE(b.n == t.n);
    for (int p = 0; p < t.n * t.n; ++p) {
      const char want = t.cells[p] < 0 ? '.' : t.cells[p] == konobi::Black ? 'B' : 'W';
      CHECK(b.cell[p] == want);
    }
    CHECK(b.to_move == 'B');
    CHECK(ref_to_string(b) == text);
    CHECK(ref_parse_point(5, "b3") == pt(5, "b3"));
  }
}

TEST_CASE("example 1: Black b3 is legal", "[examples]") {
  const auto pos = engine_pos(kPos12);
  const RefBoard rb = ref_from_string(kPos12);
  const int b3 = pt(5, "b3"), c2 = pt(5, "c2");
  // b3 is weakly connected to c2 ...
  CHECK(ref_weakly_connected(rb, b3, c2, 'B'));
  // ... but it is legal: b2 and d2 beside c2 are weakly linked to a3 and e3.
  CHECK(konobi::konobi_legal_placements(pos).test(b3));
  CHECK(konobi::explain_point(pos, konobi::Black, b3).kind == konobi::PointVerdict::Legal);
  CHECK(ref_is_legal(rb, b3));
  CHECK_FALSE(ref_weak_rule_forbids(rb, b3, 'B'));
  CHECK_FALSE(ref_free(rb, pt(5, "b2"), 'B'));
  CHECK_FALSE(ref_free(rb, pt(5, "d2"), 'B'));
}

TEST_CASE("example 2: Black b2 is illegal (a2 is a free strong connection to a3)", "[examples]") {
  const auto pos = engine_pos(kPos12);
  const RefBoard rb = ref_from_string(kPos12);
  const int b2 = pt(5, "b2");
  CHECK_FALSE(konobi::konobi_legal_placements(pos).test(b2));
  const konobi::PointVerdict v = konobi::explain_point(pos, konobi::Black, b2);
  CHECK(v.kind == konobi::PointVerdict::WeakConnection);
  CHECK(v.stone == pt(5, "a3"));
  CHECK(v.alternative == pt(5, "a2"));
  CHECK_FALSE(ref_is_legal(rb, b2));
  CHECK(ref_weak_rule_forbids(rb, b2, 'B'));
  CHECK_FALSE(ref_is_crosscut(rb, b2, 'B'));
  CHECK(ref_free(rb, pt(5, "a2"), 'B'));
}

TEST_CASE("example 3: Black b2 is legal", "[examples]") {
  const auto pos = engine_pos(kPos34);
  const RefBoard rb = ref_from_string(kPos34);
  const int b2 = pt(5, "b2");
  CHECK(ref_weakly_connected(rb, b2, pt(5, "a1"), 'B'));
  CHECK(konobi::konobi_legal_placements(pos).test(b2));
  CHECK(konobi::explain_point(pos, konobi::Black, b2).kind == konobi::PointVerdict::Legal);
  CHECK(ref_is_legal(rb, b2));
  // a1's only empty orthogonal neighbour, b1, would be weakly connected to c2.
  CHECK_FALSE(ref_free(rb, pt(5, "b1"), 'B'));
}

TEST_CASE("example 4: Black b1 is illegal (c1 or d2 is a free strong connection to c2)", "[examples]") {
  const auto pos = engine_pos(kPos34);
  const RefBoard rb = ref_from_string(kPos34);
  const int b1 = pt(5, "b1"), c2 = pt(5, "c2");
  CHECK_FALSE(konobi::konobi_legal_placements(pos).test(b1));
  const konobi::PointVerdict v = konobi::explain_point(pos, konobi::Black, b1);
  CHECK(v.kind == konobi::PointVerdict::WeakConnection);
  CHECK(v.stone == c2);
  CHECK((v.alternative == pt(5, "c1") || v.alternative == pt(5, "d2")));
  CHECK(ref_free(rb, pt(5, "c1"), 'B'));
  CHECK(ref_free(rb, pt(5, "d2"), 'B'));
  if (v.alternative >= 0) CHECK(ref_free(rb, v.alternative, 'B'));
  CHECK_FALSE(ref_is_legal(rb, b1));
  CHECK(ref_weak_rule_forbids(rb, b1, 'B'));
}

TEST_CASE("examples: full legal sets match docs/RULES.md, engine and reference", "[examples]") {
  const std::pair<const char*, const char*> cases[] = {
      {kPos12, "a1 a2 a5 b1 b3 b5 c5 d3 d5 e1 e2 e4 e5"},
      {kPos34, "a3 a4 a5 b2 b4 b5 c1 c4 c5 d2 d4 d5 e1 e2 e3 e4 e5"},
  };
  for (const auto& [text, legal] : cases) {
    INFO(text);
    const auto pos = engine_pos(text);
    const RefBoard rb = ref_from_string(text);
    CHECK(sorted(names(5, konobi::konobi_legal_placements(pos))) == sorted(split(legal)));
    CHECK(sorted(names(5, ref_legal(rb))) == sorted(split(legal)));
  }
}

TEST_CASE("crosscuts: the completing stone is illegal in all four orientations, for both colours",
          "[examples]") {
  // On a 4x4 board, the 2x2 block b2 c2 b3 c3 gets three stones; the fourth
  // completes a crosscut for the mover.
  const int n = 4;
  const int block[4] = {pt(n, "b2"), pt(n, "c2"), pt(n, "c3"), pt(n, "b3")};  // cyclic order
  for (int mover = 0; mover < 2; ++mover)
    for (int missing = 0; missing < 4; ++missing) {
      konobi::PositionText t;
      t.n = n;
      t.cells.assign(n * n, -1);
      t.to_move = konobi::Color(mover);
      // The missing point and its opposite corner belong to the mover; the
      // other diagonal to the opponent.
      t.cells[block[(missing + 2) % 4]] = mover;
      t.cells[block[(missing + 1) % 4]] = 1 - mover;
      t.cells[block[(missing + 3) % 4]] = 1 - mover;
      const int p = block[missing];
      const auto pos = konobi::from_text<1>(t);
      const std::string text = konobi::format_position(t);
      INFO(text << " at " << konobi::point_name(n, p));
      const RefBoard rb = ref_from_string(text);
      CHECK_FALSE(konobi::konobi_legal_placements(pos).test(p));
      CHECK(konobi::explain_point(pos, konobi::Color(mover), p).kind == konobi::PointVerdict::Crosscut);
      CHECK(ref_is_crosscut(rb, p, rb.to_move));
      CHECK_FALSE(ref_is_legal(rb, p));
      // The other colour may fill the same point: its stone does not make a
      // crosscut there.
      CHECK_FALSE(ref_is_crosscut(rb, p, ref_other(rb.to_move)));
      CHECK(konobi::explain_point(pos, konobi::Color(1 - mover), p).kind != konobi::PointVerdict::Crosscut);
    }
}

TEST_CASE("crosscut in a game: Game refuses the move and says why", "[examples]") {
  // 3x3: Black a1, White b1 and a2; Black b2 would complete a crosscut.
  const char* text = ".../W../BW. b";
  konobi::Game<konobi::KonobiRules, 1> game(engine_pos(text));
  const int b2 = pt(3, "b2");
  CHECK_FALSE(game.placements().test(b2));
  CHECK_THROWS_AS(game.play(b2), konobi::RuleError);
  CHECK(game.why_illegal(b2).find("crosscut") != std::string::npos);
  const RefBoard rb = ref_from_string(text);
  CHECK(ref_is_crosscut(rb, b2, 'B'));
  CHECK_FALSE(ref_is_legal(rb, b2));
  CHECK(game.position().stone_count() == 3);  // the refused move left no trace
}

TEST_CASE("win: a Black chain joining rows 1 and N wins; Black joining the columns does not",
          "[examples][win]") {
  SECTION("straight chain up column c, 5x5") {
    auto game = konobi::Game<konobi::KonobiRules, 1>::new_game(5);
    const char* moves[] = {"c1", "a5", "c2", "a4", "c3", "a3", "c4", "a2"};
    for (const char* m : moves) {
      game.play(pt(5, m));
      CHECK(game.winner() == -1);
    }
    CHECK(konobi::konobi_wins_by(game.position(), pt(5, "c5")));
    game.play(pt(5, "c5"));
    CHECK(game.over());
    CHECK(game.winner() == konobi::Black);
    CHECK_THROWS_AS(game.play(pt(5, "e5")), konobi::RuleError);
    const RefBoard rb = ref_from_string(konobi::format_position(konobi::to_text(game.position())));
    CHECK(ref_has_winning_chain(rb, 'B'));
    CHECK_FALSE(ref_has_winning_chain(rb, 'W'));  // a2..a5 touch column a only
  }
  SECTION("Black across row 1 joins the columns, not Black's edges; White then wins across row 3") {
    auto game = konobi::Game<konobi::KonobiRules, 1>::new_game(5);
    const char* moves[] = {"a1", "a3", "b1", "b3", "c1", "c3", "d1", "d3", "e1"};
    for (const char* m : moves) {
      game.play(pt(5, m));
      CHECK(game.winner() == -1);
    }
    RefBoard rb = ref_from_string(konobi::format_position(konobi::to_text(game.position())));
    CHECK_FALSE(ref_has_winning_chain(rb, 'B'));
    CHECK_FALSE(konobi::has_winning_chain(game.position(), konobi::Black));
    CHECK(konobi::konobi_wins_by(game.position(), pt(5, "e3")));
    game.play(pt(5, "e3"));
    CHECK(game.winner() == konobi::White);
    rb = ref_from_string(konobi::format_position(konobi::to_text(game.position())));
    CHECK(ref_has_winning_chain(rb, 'W'));
    CHECK(konobi::has_winning_chain(game.position(), konobi::White));
  }
  SECTION("White along column a touches only one of its edges: no win") {
    auto game = konobi::Game<konobi::KonobiRules, 1>::new_game(4);
    const char* moves[] = {"c1", "a1", "c2", "a2", "d4", "a3", "b4", "a4"};
    for (const char* m : moves) game.play(pt(4, m));
    CHECK(game.winner() == -1);
    CHECK_FALSE(konobi::has_winning_chain(game.position(), konobi::White));
    const RefBoard rb = ref_from_string(konobi::format_position(konobi::to_text(game.position())));
    CHECK_FALSE(ref_has_winning_chain(rb, 'W'));
  }
}

TEST_CASE("win: a chain with one legal diagonal (weak) link wins", "[examples][win]") {
  // Black c1 c2 c3 and d5; d4 joins them through the weak link c3-d4 (c4 is
  // White, d3 empty). d4 is legal: c3's only empty orthogonal neighbour d3 is
  // weakly linked to e2, so no free strong connection to c3 exists.
  const char* text = "...B./..W../.WB../..B.B/..B.. b";
  const auto start = engine_pos(text);
  RefBoard rb = ref_from_string(text);
  const int d4 = pt(5, "d4"), c3 = pt(5, "c3");
  REQUIRE(ref_is_legal(rb, d4));
  REQUIRE(konobi::konobi_legal_placements(start).test(d4));
  CHECK(ref_weakly_connected(rb, d4, c3, 'B'));
  CHECK_FALSE(ref_has_winning_chain(rb, 'B'));

  konobi::Game<konobi::KonobiRules, 1> game(start);
  CHECK(game.winner() == -1);
  CHECK(konobi::konobi_wins_by(game.position(), d4));
  game.play(d4);
  CHECK(game.winner() == konobi::Black);
  rb.cell[d4] = 'B';
  CHECK(ref_has_winning_chain(rb, 'B'));
  CHECK(konobi::has_winning_chain(game.position(), konobi::Black));
}

TEST_CASE("win: a diagram that already shows a win is recognised", "[examples][win]") {
  // White joins column a to column e on 5x5 with a diagonal step.
  const char* text = "...../...WW/WWW../...../B.B.B b";
  const auto pos = engine_pos(text);
  konobi::Game<konobi::KonobiRules, 1> game(pos);
  CHECK(game.winner() == konobi::White);
  const RefBoard rb = ref_from_string(text);
  CHECK(ref_has_winning_chain(rb, 'W'));
  CHECK_FALSE(ref_has_winning_chain(rb, 'B'));
}
