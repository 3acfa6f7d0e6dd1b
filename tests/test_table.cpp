// The transposition table: moves stored through one image of a position and
// read through another, and sizes too small to hold a bucket.
#include <catch2/catch.hpp>

#include "solver_support.h"

using namespace solver_test;

TEST_CASE("a move stored in the table means the same move through every image of the position", "[solver]") {
  // Entries are shared by the 8 images of a position; table_move stores a
  // move as the keyed image sees it and board_move reads it back. Through
  // any image the move read back must lead to the same child up to
  // symmetry, and through the writer's own orientation to the same point.
  // (From one stone on: on the empty board the first stone opens the pie
  // swap for Black only, so the colour-swapping images are not the same.)
  int checked = 0;
  for (int n = 3; n <= 8; ++n)
    for (const Pos& pos : random_positions(n, 30, 1, n * n / 2, 4242u + uint32_t(n))) {
      for (int s = 0; s < konobi::kSymmetries; ++s) {
        const Pos img = pos.transformed(s);
        REQUIRE(img.canonical_key() == pos.canonical_key());
        pos.empty_points().for_each([&](int m) {
          const int stored = konobi::table_move<konobi::KonobiSearch, 1>(pos, m, true);
          const int read = konobi::board_move<konobi::KonobiSearch, 1>(img, stored, true);
          INFO(show(pos) << " move " << konobi::point_name(n, m) << " symmetry " << s);
          REQUIRE(konobi::board_move<konobi::KonobiSearch, 1>(pos, stored, true) == m);
          REQUIRE(img.empty_points().test(read));
          REQUIRE(img.canonical_key_after(read) == pos.canonical_key_after(m));
          // Without symmetry reduction moves are stored as they are.
          REQUIRE(konobi::table_move<konobi::KonobiSearch, 1>(pos, m, false) == m);
          ++checked;
        });
      }
      REQUIRE(konobi::table_move<konobi::KonobiSearch, 1>(pos, konobi::kPass, true) == konobi::kPass);
    }
  CHECK(checked > 10000);
}

TEST_CASE("a transposition table too small for one bucket is refused", "[solver]") {
  CHECK_THROWS_AS(konobi::TranspositionTable(0.00001), std::invalid_argument);
  CHECK_THROWS_AS(konobi::TranspositionTable(0), std::invalid_argument);
  CHECK_THROWS_AS(konobi::TranspositionTable(-1), std::invalid_argument);
  CHECK_THROWS_AS(konobi::TranspositionTable(std::numeric_limits<double>::quiet_NaN()),
                  std::invalid_argument);
  // One bucket (64 bytes) is enough.
  konobi::TranspositionTable one(64.0 / (1024 * 1024));
  CHECK(one.buckets() == 1);
  konobi::TranspositionTable small(0.01);
  CHECK(small.buckets() == 128);
  CHECK(small.bytes() == 128 * 64);
}
