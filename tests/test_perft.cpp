// Perft: the engine's move counts per depth against the reference rules'
// (tests/reference), which generate moves with plain loops. Equality of the
// two is the assertion; no count here is typed in by hand.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/game.h"
#include "core/konobi.h"
#include "core/notation.h"
#include "core/perft.h"
#include "solver/verify/simple_rules.h"
#include "tests/support.h"

using namespace konobi_ref;
using konobi_test::to_ref;

namespace {

std::string show(const std::vector<uint64_t>& v) {
  std::string s;
  for (uint64_t x : v) {
    if (!s.empty()) s += ' ';
    s += std::to_string(x);
  }
  return s;
}

// Both perfts from pos; checks them equal depth by depth and returns them.
std::vector<uint64_t> compare_perft(const konobi::Position<1>& pos, int depth) {
  const std::vector<uint64_t> eng = konobi::perft<konobi::KonobiRules>(pos, depth);
  const std::vector<uint64_t> ref = ref_perft(to_ref(pos), depth);
  INFO(ref_to_string(to_ref(pos)) << " depth " << depth);
  INFO("engine    " << show(eng));
  INFO("reference " << show(ref));
  REQUIRE(eng.size() == size_t(depth));
  REQUIRE(ref.size() == size_t(depth));
  for (int d = 0; d < depth; ++d) {
    INFO("sequences of length " << d + 1);
    CHECK(eng[d] == ref[d]);
  }
  return eng;
}

konobi::Position<1> empty_board(int n) { return konobi::Position<1>::empty(konobi::Geometry<1>::get(n)); }

}  // namespace

TEST_CASE("perft 3x3 to the end of the game: engine equals reference", "[perft]") {
  // At most 9 placements, and a pass is always followed by a placement, so
  // no game is longer than 18 moves; depth 18 covers the whole game tree.
  const int depth = 18;
  const std::vector<uint64_t> counts = compare_perft(empty_board(3), depth);
  CHECK(counts[0] == 9);          // every point is open on the empty board
  CHECK(counts[depth - 1] == 0);  // the tree is exhausted
}

// Depth 7 takes about 2 s in a Release build but ten times that under the
// sanitizers, which therefore stop at depth 6.
#if defined(__SANITIZE_ADDRESS__)
constexpr int kPerft4Depth = 6;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr int kPerft4Depth = 6;
#else
constexpr int kPerft4Depth = 7;
#endif
#else
constexpr int kPerft4Depth = 7;
#endif

TEST_CASE("perft 4x4 to depth 6 or 7: engine equals reference", "[perft]") {
  const std::vector<uint64_t> counts = compare_perft(empty_board(4), kPerft4Depth);
  CHECK(counts[0] == 16);
  CHECK(counts[1] == 16 * 15);  // no second stone can be illegal: nothing of White's to link to
}

TEST_CASE("perft 4x4 with White to move after a Black stone", "[perft]") {
  for (const char* first : {"a1", "b2", "b1"}) {
    INFO("Black " << first);
    konobi::Position<1> pos = empty_board(4);
    pos.place(konobi::parse_point(4, first));
    compare_perft(pos, 5);
  }
}

TEST_CASE("perft from 5x5 mid-game positions: engine equals reference", "[perft]") {
  SECTION("the designer's example positions") {
    for (const char* text : {"...../W.W../B.W.B/..B../..BW. b", "...../...../..W../W.B../B.... b",
                             "...../W.W../B.W.B/..B../..BW. w", "...../...../..W../W.B../B.... w"}) {
      const auto pos = konobi::from_text<1>(konobi::parse_position(text));
      compare_perft(pos, 4);
    }
  }
  SECTION("a position reached by a legal game record") {
    auto game = konobi::Game<konobi::KonobiRules, 1>::new_game(5);
    game.play_record(konobi::parse_record(5, "c3 b3 c2 d3 b2 b4 c1"));
    REQUIRE_FALSE(game.over());
    compare_perft(game.position(), 4);
  }
  SECTION("a crowded position with crosscuts nearby") {
    const char* text = "B.W.B/.WBW./.B.BW/.WBW./B.W.B b";
    const auto pos = konobi::from_text<1>(konobi::parse_position(text));
    REQUIRE_FALSE(konobi::has_winning_chain(pos, konobi::Black));
    REQUIRE_FALSE(konobi::has_winning_chain(pos, konobi::White));
    compare_perft(pos, 6);
  }
}

TEST_CASE("perft through forced passes (4x4 positions from random play)", "[perft]") {
  // In the first two the mover has no legal placement: the only move is the
  // pass, and the opponent moves next.
  for (const char* text : {"BWWW/BBWB/W..W/BWBB b", "BWBW/W.BB/B.WW/BWBW b"}) {
    const auto pos = konobi::from_text<1>(konobi::parse_position(text));
    INFO(text);
    REQUIRE(konobi::konobi_legal_placements(pos).none());
    REQUIRE(ref_legal(to_ref(pos)).empty());
    const std::vector<uint64_t> counts = compare_perft(pos, 4);
    CHECK(counts[0] == 1);
    CHECK(counts[1] > 0);  // the opponent has a placement after the pass
  }
  // A few moves before such a pass.
  for (const char* text :
       {".WWW/BBWB/..../BWBB w", "WB.B/.BWB/...W/BWBW w", "BWWB/BB../...W/BWBW w", "BWBW/..B./B.WW/B.BW w"}) {
    const auto pos = konobi::from_text<1>(konobi::parse_position(text));
    REQUIRE_FALSE(konobi::has_winning_chain(pos, konobi::Black));
    REQUIRE_FALSE(konobi::has_winning_chain(pos, konobi::White));
    compare_perft(pos, 8);
  }
}
