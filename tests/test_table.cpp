// The transposition table: moves stored through one image of a position and
// read through another, and sizes too small to hold a bucket.
#include <catch2/catch.hpp>

#include "solver_support.h"
#include "solver/search/table_seed.h"

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

TEST_CASE("keys that differ in their 4 lowest bits alone are told apart, and forget empties one of them",
          "[solver]") {
  // One bucket: every key lands in it, and the high halves are equal, so
  // only the 4 low bits that pn and dn carry (tt.h) set the keys apart.
  // With the 32-bit check alone, the second key read the first's proof.
  konobi::TranspositionTable t(64.0 / (1024 * 1024));
  REQUIRE(t.buckets() == 1);
  const uint64_t high = uint64_t(0x9e3779b9) << 32;
  t.store(high | 0x5, 0, konobi::kInf, 3, 1);  // proven won
  CHECK_FALSE(t.probe(high | 0x4).hit);
  CHECK_FALSE(t.probe(high | 0x1).hit);
  CHECK_FALSE(t.probe(high | 0xd).hit);
  t.store(high | 0xa, konobi::kInf, 0, -1, 1);  // proven lost
  t.store(high | 0xf, 12, 34, -1, 1);
  const auto won = t.probe(high | 0x5), lost = t.probe(high | 0xa), open = t.probe(high | 0xf);
  REQUIRE((won.hit && lost.hit && open.hit));
  CHECK((won.pn == 0 && won.dn == konobi::kInf && won.best == 3));
  CHECK((lost.pn == konobi::kInf && lost.dn == 0));
  CHECK((open.pn == 12 && open.dn == 34));
  // Bits 32 and up beyond the check's lowest (which it sets) still count.
  CHECK_FALSE(t.probe(high ^ (uint64_t(1) << 40) | 0x5).hit);
  t.forget(high | 0xa);
  CHECK_FALSE(t.probe(high | 0xa).hit);
  CHECK(t.probe(high | 0x5).hit);
  CHECK(t.probe(high | 0xf).hit);
  CHECK(t.fill() == 0.5);
}

TEST_CASE(
    "a proof piece's line seeded into the table reads back as a proven win with its move, through every "
    "image",
    "[solver]") {
  // seed_proven_line (table_seed.h) writes what df-pn would have written on
  // proving the position: won for its mover, the move in the keyed image's
  // orientation. Read through each of the 8 images the move must lead to
  // the same child up to symmetry; keyed plainly, it is the line's move.
  int checked = 0;
  for (int n = 4; n <= 7; ++n)
    for (const Pos& pos : random_positions(n, 20, 2, n * n / 2, 777u + uint32_t(n))) {
      const int m = pos.empty_points().first();
      const std::string line = show(pos) + " " + konobi::point_name(n, m);
      konobi::TranspositionTable tt(1), plain(1);
      REQUIRE(konobi::seed_proven_line(tt, *pos.g, line, true));
      REQUIRE(konobi::seed_proven_line(plain, *pos.g, line, false));
      INFO(line);
      for (int s = 0; s < konobi::kSymmetries; ++s) {
        const Pos img = pos.transformed(s);
        const auto f = tt.probe(img.canonical_key());
        REQUIRE(f.hit);
        CHECK(f.pn == 0);
        CHECK(f.dn == konobi::kInf);
        const int read = konobi::board_move<konobi::KonobiSearch, 1>(img, f.best, true);
        REQUIRE(img.empty_points().test(read));
        CHECK(img.canonical_key_after(read) == pos.canonical_key_after(m));
        ++checked;
      }
      const auto f = plain.probe(pos.key());
      REQUIRE(f.hit);
      CHECK((f.pn == 0 && f.dn == konobi::kInf && f.best == m));
    }
  CHECK(checked == 4 * 20 * 8);

  // A pass is kept as the table keeps it (kPass).
  const Pos pos = random_positions(5, 1, 6, 6, 99u)[0];
  konobi::TranspositionTable tt(1);
  REQUIRE(konobi::seed_proven_line(tt, *pos.g, show(pos) + " pass", true));
  CHECK(tt.probe(pos.canonical_key()).best == konobi::kPass);

  // Lines that are not a position of this board with a move on an empty
  // point are passed over, writing nothing.
  konobi::TranspositionTable untouched(1);
  const int occupied = (pos.stones[konobi::Black] | pos.stones[konobi::White]).first();
  for (const std::string& bad :
       {std::string(), std::string("a1"), show(pos), show(pos) + " " + konobi::point_name(5, occupied),
        show(pos) + " f6", show(pos) + " swap", show(pos) + " zz", std::string("..../..../..../.... b a1"),
        std::string("...../...../...../...../..... b swap a1"), std::string("not a position a1")}) {
    INFO("line: '" << bad << "'");
    CHECK_FALSE(konobi::seed_proven_line(untouched, *pos.g, bad, true));
  }
  CHECK_FALSE(untouched.probe(pos.canonical_key()).hit);
  CHECK(untouched.fill() == 0.0);
}
