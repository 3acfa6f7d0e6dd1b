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
  // As many buckets as fit, not the largest power of two: 10485.76 bytes.
  konobi::TranspositionTable small(0.01);
  CHECK(small.buckets() == 163);
  CHECK(small.bytes() == 163 * 64);
}

TEST_CASE("a table of any number of buckets uses every one of them", "[solver]") {
  // Three buckets of four entries: twelve keys, four for each third of the
  // low 32 bits, all stay. With an index that reached only some buckets,
  // the keys of the others would evict one another. (The high halves are
  // even: the check sets bit 0, so 2 and 3 would read as one key.)
  konobi::TranspositionTable t(3 * 64.0 / (1024 * 1024));
  REQUIRE(t.buckets() == 3);
  std::vector<uint64_t> keys;
  for (uint64_t third = 0; third < 3; ++third)
    for (uint64_t high = 1; high <= 4; ++high) keys.push_back(2 * high << 32 | (third * 0x55555556u + high));
  for (size_t i = 0; i < keys.size(); ++i) t.store(keys[i], uint32_t(i + 1), 7, -1, 1);
  for (size_t i = 0; i < keys.size(); ++i) {
    const auto f = t.probe(keys[i]);
    REQUIRE(f.hit);
    CHECK(f.pn == i + 1);
  }
  CHECK(t.fill() == 1.0);
}
