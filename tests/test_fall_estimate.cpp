// The progress line's estimate of a class's time left (solver/cli/fall_estimate.h):
// the least-squares fall of a noisy root number over the last half hour,
// given only when the samples span ten minutes and fall.
#include <catch2/catch.hpp>

#include "solver/cli/fall_estimate.h"

TEST_CASE("the progress line's estimate: the fitted fall of a root number, only where there is one",
          "[progress]") {
  konobi::FallEstimate e;  // the last 30 minutes, at least 10 of them
  CHECK(!e.seconds_left());
  // 1000 a minute down from 40 000, with noise of +-3000 that averages out.
  for (int m = 0; m <= 20; ++m) e.add(60.0 * m, 40000 - 1000.0 * m + (m % 2 ? 3000 : -3000));
  const auto left = e.seconds_left();
  REQUIRE(left.has_value());
  // The last sample is 17 000 (20 000 less the noise), at 1000 a minute.
  CHECK(*left == Approx(17 * 60).epsilon(0.1));
  // Too short a span: none.
  konobi::FallEstimate brief;
  for (int s = 0; s < 500; s += 10) brief.add(s, 1000 - s);
  CHECK(!brief.seconds_left());
  // A number that climbs, or stays: none.
  konobi::FallEstimate up, flat;
  for (int m = 0; m <= 20; ++m) up.add(60.0 * m, 1000 + 10.0 * m), flat.add(60.0 * m, 500);
  CHECK(!up.seconds_left());
  CHECK(!flat.seconds_left());
  // Only the window counts: an old fall followed by a climb gives none.
  konobi::FallEstimate turned;
  for (int m = 0; m <= 60; ++m) turned.add(60.0 * m, 100000 - 1000.0 * m);
  for (int m = 61; m <= 100; ++m) turned.add(60.0 * m, 40000 + 500.0 * (m - 60));
  CHECK(!turned.seconds_left());
  // A fall too slow to say anything: 1 a minute from 40 000 over 20
  // minutes would take 2000 times the span; 40 a minute, 50 times, is shown.
  konobi::FallEstimate crawl, slow;
  for (int m = 0; m <= 20; ++m) crawl.add(60.0 * m, 40000 - 1.0 * m), slow.add(60.0 * m, 40000 - 40.0 * m);
  CHECK(!crawl.seconds_left());
  REQUIRE(slow.seconds_left().has_value());
  CHECK(*slow.seconds_left() == Approx(39200.0 / 40 * 60));
}
