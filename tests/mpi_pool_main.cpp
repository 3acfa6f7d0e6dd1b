// The MPI workers without a manager: run under mpirun (tests/CMakeLists.txt,
// label `mpi`), rank 0 drives an MpiPool by hand and every other rank runs
// run_mpi_worker. The exit status of rank 0 is the verdict (mpirun passes
// on the first non-zero one).
//   values: every 4x4 opening class root, and one child of each, as jobs
//           with no budget; each value is checked against a plain df-pn
//           solve in this process, and each winning move by a solve of the
//           position it leads to.
//   stop:   a 5x5 job with no budget stopped by stop_all, then one that
//           runs out of a small budget.
//   error:  a job whose path is not legal: the worker's error reaches next().
//   early:  rank 0 returns 2 before it has a pool: the workers, waiting for
//           jobs, are told to go (by MpiRuntime's destructor), so every rank
//           ends at once rather than mpirun waiting for ever.
//   gone:   rank 1 ends before its worker loop: rank 0 hears why.
#include <cstdio>
#include <cstdlib>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/openings.h"
#include "solver/jobs/mpi_pool.h"
#include "solver/jobs/mpi_worker.h"
#include "solver/search/parallel_dfpn.h"

namespace {

using namespace konobi;
using Pos = Position<1>;
using Clock = std::chrono::steady_clock;

int failures = 0;

void check(bool ok, const std::string& what) {
  if (ok) return;
  ++failures;
  std::fprintf(stderr, "FAILED: %s\n", what.c_str());
}

Pos opening(int n, int p) {
  Pos pos = Pos::empty(Geometry<1>::get(n));
  pos.place(p);
  pos.swap_available = false;
  return pos;
}

bool plain_solve(const Pos& p) {
  TranspositionTable tt(16);
  return solve_game_position<KonobiSearch, 1>(p, tt, DfpnOptions{}, 1, nullptr).mover_wins;
}

// Every report, each once, or a failure past the deadline.
std::vector<JobReport> run_all(MpiPool& pool, const std::vector<Job>& jobs, double seconds) {
  std::vector<JobReport> reports;
  size_t next = 0;
  const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  while (reports.size() < jobs.size()) {
    while (next < jobs.size() && pool.idle_slots() > 0) pool.submit(jobs[next++]);
    if (Clock::now() > deadline) {
      check(false, "jobs not all reported within " + std::to_string(seconds) + " s");
      break;
    }
    if (std::optional<JobReport> r = pool.next(std::chrono::milliseconds(100)))
      reports.push_back(std::move(*r));
  }
  return reports;
}

void values(MpiPool& pool, int workers, int threads) {
  check(pool.slots() == workers * threads, "slots() is the sum of the workers' slots");
  check(pool.idle_slots() == pool.slots(), "every slot idle at the start");
  const Geometry<1>& g = Geometry<1>::get(4);
  std::vector<Job> jobs;
  std::vector<Pos> leaves;
  for (int p : opening_classes(g)) {
    const Pos root = opening(4, p);
    jobs.push_back(Job{jobs.size() + 1, p, {}, 0});
    leaves.push_back(root);
    // One step deeper: the path travels and the worker replays it.
    int m = 0;
    while (!KonobiRules::placements(root).test(m)) ++m;
    jobs.push_back(Job{jobs.size() + 1, p, {m}, 0});
    leaves.push_back(job_leaf<KonobiSearch, 1>(root, {m}));
  }
  const std::vector<JobReport> reports = run_all(pool, jobs, 120);
  std::set<uint64_t> seen;
  for (const JobReport& r : reports) {
    const std::string name = "job " + std::to_string(r.id);
    check(r.id >= 1 && r.id <= jobs.size() && seen.insert(r.id).second, name + " reported once");
    if (r.id < 1 || r.id > jobs.size()) continue;
    const Pos& leaf = leaves[r.id - 1];
    const bool wins = plain_solve(leaf);
    check(r.outcome == (wins ? JobOutcome::MoverWins : JobOutcome::MoverLoses),
          name + ": the plain solve's value");
    check(wins ? r.pn == 0 && r.dn == kInf : r.pn == kInf && r.dn == 0, name + ": numbers of a proven value");
    // A class root is searched; a child may already be proven in that
    // worker's table by its root's job (with one worker, always), and then
    // costs no node.
    if (r.id % 2 == 1) check(r.nodes > 0, name + ": nodes counted");
    if (wins && r.best >= 0) {
      check(KonobiRules::placements(leaf).test(r.best), name + ": its winning move is legal");
      Pos after = leaf;
      after.place(r.best);
      check(!plain_solve(after), name + ": its winning move wins");
    }
  }
  check(seen.size() == jobs.size(), "every job reported");
  check(pool.idle_slots() == pool.slots(), "every slot idle at the end");
  check(pool.nodes() > 0, "nodes() counts the workers' nodes");
  std::printf("values: %zu jobs on %d workers, %llu nodes\n", jobs.size(), workers,
              static_cast<unsigned long long>(pool.nodes()));
}

void stop(MpiPool& pool) {
  // The 5x5 corner opening takes far longer than the wait here.
  pool.submit(Job{1, 0, {}, 0});
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  pool.stop_all();
  std::optional<JobReport> r = pool.next(std::chrono::seconds(30));
  check(r && r->id == 1 && r->outcome == JobOutcome::Stopped, "a job with no budget stops when told");
  // Jobs submitted after stop_all run normally, here into their budget.
  pool.submit(Job{2, 0, {}, 20000});
  r = pool.next(std::chrono::seconds(60));
  check(r && r->id == 2 && r->outcome == JobOutcome::Open, "a job past its budget reports Open");
  if (r) {
    check(r->pn > 0 && r->pn < kInf && r->dn > 0 && r->dn < kInf,
          "an open job's numbers are neither 0 nor infinite");
    check(r->nodes > 20000 && r->nodes < 40000, "an open job ran to its budget: " + std::to_string(r->nodes));
  }
  check(pool.nodes() >= 20000, "nodes() counts the workers' nodes");
}

void error(MpiPool& pool) {
  // Black's stone is already on point 0: the path's move is not legal.
  pool.submit(Job{1, 0, {0}, 0});
  try {
    pool.next(std::chrono::seconds(30));
    check(false, "a job whose path is not legal gives an error");
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    check(what.find("MPI worker rank") != std::string::npos && what.find("not legal") != std::string::npos,
          "the error names the worker and the cause: " + what);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "values";
  if (mode != "values" && mode != "stop" && mode != "error" && mode != "early" && mode != "gone") {
    std::fprintf(stderr, "usage: mpi_pool_main values|stop|error|early|gone (under mpirun)\n");
    return 2;
  }
  MpiRuntime mpi;
  if (!mpi.active()) {
    std::fprintf(stderr, "mpi_pool_main: run it under mpirun\n");
    return 2;
  }
  const int n = mode == "values" ? 4 : 5, threads = 2;
  std::vector<Pos> roots;
  for (int p = 0; p < n * n; ++p) roots.push_back(opening(n, p));
  const std::string setup = "konobi " + std::to_string(n) + "x" + std::to_string(n);
  try {
    MpiChannel ch(mpi);
    if (ch.rank() != 0) {
      if (mode == "gone" && ch.rank() == 1) return 3;
      TranspositionTable tt(16);
      return run_mpi_worker<KonobiSearch, 1>(
          ch, tt, DfpnOptions{}, threads, [&](int p) -> const Pos& { return roots.at(size_t(p)); }, setup);
    }
    if (mode == "early") return 2;
    if (mode == "gone") {
      try {
        MpiPool pool(ch, setup);
        check(false, "a worker that ended before its loop is noticed");
      } catch (const std::runtime_error& e) {
        const std::string what = e.what();
        check(what.find("rank 1 ended before its worker loop ran") != std::string::npos,
              "rank 0 hears why: " + what);
      }
      std::printf("rank 0: %d failure(s)\n", failures);
      return failures ? 1 : 0;
    }
    MpiPool pool(ch, setup);
    if (mode == "values") values(pool, ch.size() - 1, threads);
    if (mode == "stop") stop(pool);
    if (mode == "error") error(pool);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mpi_pool_main rank %d: %s\n", mpi.rank(), e.what());
    mpi.abort(1);
  }
  std::printf("rank 0: %d failure(s)\n", failures);
  return failures ? 1 : 0;
}
