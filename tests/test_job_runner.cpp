// The job runner: many positions searched side by side, time limits, stops,
// and jobs ending together.
#include <catch2/catch.hpp>

#include "solver_support.h"

using namespace solver_test;

TEST_CASE("the job runner proves many positions side by side with the single-thread verdicts", "[solver]") {
  std::vector<Pos> jobs = openings4();
  const std::vector<Pos> mid = random_positions(5, kSanitize ? 4 : 24, 10, 14, 4242u);
  jobs.insert(jobs.end(), mid.begin(), mid.end());
  std::vector<bool> expected;
  for (const Pos& p : jobs) expected.push_back(konobi::AlphaBeta<1>(16).wins(p));

  for (int threads : {1, 2, 3}) {
    konobi::TranspositionTable tt(64);
    konobi::JobRunner<konobi::KonobiSearch, 1> runner(tt, konobi::DfpnOptions{}, threads);
    std::vector<int> ended(jobs.size(), 0);
    std::vector<std::string> bad;
    std::mutex m;  // reports may come on two threads at once
    runner.run(jobs, nullptr, [&](const konobi::JobResult& r) {
      std::lock_guard lock(m);
      ++ended[r.job];
      if (r.end != konobi::JobEnd::Proven) bad.push_back(show(jobs[r.job]) + ": not proven");
      else if (r.mover_wins != expected[r.job]) bad.push_back(show(jobs[r.job]) + ": wrong verdict");
    });
    INFO("threads " << threads << "\n" << join(bad));
    CHECK(bad.empty());
    CHECK(std::count(ended.begin(), ended.end(), 1) == int(jobs.size()));  // each job reported once
  }
}

TEST_CASE("the job runner gives up a job past its time limit and reports nothing after a stop", "[solver]") {
  // The 5x5 corner opening takes far longer than 0.2 s.
  Pos hard = Pos::empty(konobi::Geometry<1>::get(5));
  hard.place(0);
  hard.swap_available = false;
  for (int threads : {1, 2}) {
    konobi::TranspositionTable tt(16);
    konobi::JobRunner<konobi::KonobiSearch, 1> runner(tt, konobi::DfpnOptions{}, threads);
    runner.set_job_seconds(0.2);
    std::vector<konobi::JobResult> results;
    std::mutex m;
    runner.run({hard, hard}, nullptr, [&](const konobi::JobResult& r) {
      std::lock_guard lock(m);
      results.push_back(r);
    });
    REQUIRE(results.size() == 2);
    for (const auto& r : results) {
      CHECK(r.end == konobi::JobEnd::GaveUp);
      CHECK(r.nodes > 0);
    }

    std::atomic<bool> stop{true};  // raised before the start: no job starts
    results.clear();
    runner.run({hard}, &stop, [&](const konobi::JobResult& r) { results.push_back(r); });
    CHECK(results.empty());
  }
}

TEST_CASE("the job runner reports two jobs ending together at once, on their own threads", "[solver]") {
  // Each report waits (up to 10 s) for another to begin: reports
  // serialized one after the other would never overlap, and time out.
  const std::vector<Pos> jobs = openings4();
  konobi::TranspositionTable tt(16);
  konobi::JobRunner<konobi::KonobiSearch, 1> runner(tt, konobi::DfpnOptions{}, 2);
  std::atomic<int> inside{0}, most{0}, reports{0};
  runner.run(jobs, nullptr, [&](const konobi::JobResult&) {
    const int now = ++inside;
    int seen = most.load();
    while (now > seen && !most.compare_exchange_weak(seen, now)) {}
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    // The last report has nobody left to wait for.
    while (most.load() < 2 && reports.load() + 1 < int(jobs.size()) &&
           std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ++reports;
    --inside;
  });
  CHECK(reports.load() == int(jobs.size()));
  CHECK(most.load() == 2);
}
