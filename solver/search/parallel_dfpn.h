// Runs df-pn on a list of positions ("jobs") with several TBB threads
// sharing one table. A thread takes the next job nobody has started; when
// none is left it joins the running job with the fewest searches on it, so
// easy jobs run side by side and the last hard one ends up with every core.
// Searches on one job keep busy marks and use different epsilons, which
// spreads them over different subtrees (dfpn.h).
#pragma once

#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>

#include "dfpn.h"

namespace konobi {

struct SolveOutcome {
  bool mover_wins = false;
  uint64_t nodes = 0;
};

// How a job ended.
enum class JobEnd {
  Proven,   // `mover_wins` holds
  GaveUp,   // past its time limit, or every search on it hit max_nodes
  Stopped,  // the caller's stop flag was raised
};

struct JobResult {
  int job = -1;
  JobEnd end = JobEnd::Stopped;
  bool mover_wins = false;
  uint64_t nodes = 0;  // every search on the job, proven or not
  double seconds = 0;  // from the first search's start to the last one's end
};

// What a job is doing now, for progress lines.
struct JobStatus {
  int job;
  int searches;
  double seconds;
};

template <class Game, int W>
requires SearchedGame<Game, W>
class JobRunner {
 public:
  using State = typename Game::template State<W>;
  // Called once per started job, on the thread that ends it, after every
  // search on it has stopped. Two jobs ending together are reported at
  // once, each on its own thread, so the callee guards what they share:
  // work done here (a proof's extraction) then holds up no other report
  // and leaves the other threads searching or extracting side by side.
  using OnEnd = std::function<void(const JobResult&)>;

  JobRunner(TranspositionTable& tt, const DfpnOptions& opt, int threads)
      : tt_(tt), opt_(opt), threads_(threads) {
    opt_.parallel = threads > 1;
  }

  // Gives up a job (JobEnd::GaveUp) once it has run this long; 0: never.
  void set_job_seconds(double s) { job_seconds_ = s; }
  // Running node count of every search, for progress lines.
  void set_progress(std::atomic<uint64_t>* p) { progress_ = p; }

  // Runs every job to its end, or until `stop` is raised (the jobs then
  // running end as Stopped; those not started are not reported). Rethrows
  // the first exception a search or `on_end` threw.
  void run(const std::vector<State>& jobs, const std::atomic<bool>* stop, const OnEnd& on_end) {
    {
      std::lock_guard lock(mutex_);
      jobs_ = &jobs;
      slots_ = std::vector<Slot>(jobs.size());
      next_ = 0;
      stop_ = stop;
      on_end_ = &on_end;
    }
    std::atomic<bool> running{true};
    // A plain thread (no arena slot) turns the caller's stop flag and the
    // time limit into each job's own flag, which its searches poll.
    std::thread relay([&] {
      while (running.load()) {
        relay_once();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    });
    // An arena of exactly `threads` slots, the calling thread being one of
    // them through wait(): TBB starts one worker fewer than its concurrency,
    // expecting the caller to join. More threads than cores are the
    // caller's choice: TBB would otherwise cap its workers at the core count
    // and leave searches queued.
    oneapi::tbb::global_control workers(oneapi::tbb::global_control::max_allowed_parallelism,
                                        size_t(threads_));
    oneapi::tbb::task_arena arena(threads_);
    arena.execute([&] {
      oneapi::tbb::task_group group;
      for (int t = 0; t < threads_; ++t) group.run([this] { worker(); });
      group.wait();
    });
    running.store(false);
    relay.join();
    if (error_) std::rethrow_exception(error_);
  }

  std::vector<JobStatus> status() const {
    std::lock_guard lock(mutex_);
    std::vector<JobStatus> out;
    for (size_t j = 0; j < slots_.size(); ++j)
      if (slots_[j].started && !slots_[j].ended)
        out.push_back({int(j), slots_[j].searches.load(), elapsed(slots_[j])});
    return out;
  }

 private:
  using Clock = std::chrono::steady_clock;
  struct Slot {
    std::atomic<bool> stop{false};
    // Searches on the job now: changed under the lock, read by them without.
    std::atomic<int> searches{0};
    bool started = false, ended = false, gave_up = false, proven = false, mover_wins = false;
    int joined = 0;
    uint64_t nodes = 0;
    Clock::time_point t0;
  };

  static double elapsed(const Slot& s) { return std::chrono::duration<double>(Clock::now() - s.t0).count(); }

  bool halted() const { return (stop_ && stop_->load()) || abort_.load(); }

  void relay_once() {
    const bool halt = halted();
    std::lock_guard lock(mutex_);
    for (Slot& s : slots_) {
      if (!s.started || s.ended || s.stop.load()) continue;
      if (!halt && !(job_seconds_ > 0 && elapsed(s) > job_seconds_)) continue;
      if (!halt) s.gave_up = true;
      s.stop.store(true);
    }
  }

  // The job this thread should search next, and its index among the
  // searches that joined that job; -1 when there is nothing left.
  std::pair<int, int> pick() {
    std::lock_guard lock(mutex_);
    if (halted()) return {-1, 0};
    if (next_ < slots_.size()) {
      Slot& s = slots_[next_];
      s.started = true;
      s.t0 = Clock::now();
      s.searches = s.joined = 1;
      return {int(next_++), 0};
    }
    int best = -1;
    for (size_t j = 0; j < slots_.size(); ++j) {
      const Slot& s = slots_[j];
      if (!s.started || s.ended || s.stop.load()) continue;
      // Fewest searches first; among equals the longest-running job, which
      // is likely the hardest.
      if (best < 0 || s.searches < slots_[best].searches) best = int(j);
    }
    if (best < 0) return {-1, 0};
    ++slots_[best].searches;
    return {best, slots_[best].joined++};
  }

  void worker() {
    try {
      while (true) {
        const auto [job, index] = pick();
        if (job < 0) break;
        search(job, index);
      }
    } catch (...) {
      std::lock_guard lock(mutex_);
      if (!error_) error_ = std::current_exception();
      abort_.store(true);
    }
  }

  void search(int job, int index) {
    Slot& slot = slots_[job];
    DfpnOptions o = opt_;
    // Different slack per search of one job: they drift apart sooner.
    o.epsilon = opt_.epsilon * (1.0 + 0.5 * index);
    Dfpn<W, Game> dfpn(tt_, o, &slot.stop, progress_);
    dfpn.set_company(&slot.searches);
    bool proven = false, wins = false;
    try {
      wins = dfpn.solve((*jobs_)[job]);
      proven = true;
    } catch (const SearchStopped&) {
      // Past max_nodes (rather than told to stop): the job gives up, or the
      // next pick would start another search on it.
      if (!slot.stop.load()) {
        std::lock_guard lock(mutex_);
        slot.gave_up = true;
        slot.stop.store(true);
      }
    } catch (...) {
      leave(job, false, false, dfpn.nodes());
      throw;
    }
    leave(job, proven, wins, dfpn.nodes());
  }

  void leave(int job, bool proven, bool wins, uint64_t nodes) {
    Slot& slot = slots_[job];
    JobResult r;
    {
      std::lock_guard lock(mutex_);
      slot.nodes += nodes;
      if (proven && !slot.proven) {
        slot.proven = true;
        slot.mover_wins = wins;
        slot.stop.store(true);  // the other searches on it are done too
      }
      if (--slot.searches > 0) return;
      slot.ended = true;
      slot.stop.store(true);
      r.job = job;
      r.end = slot.proven ? JobEnd::Proven : halted() && !slot.gave_up ? JobEnd::Stopped : JobEnd::GaveUp;
      r.mover_wins = slot.mover_wins;
      r.nodes = slot.nodes;
      r.seconds = elapsed(slot);
    }
    (*on_end_)(r);
  }

  TranspositionTable& tt_;
  DfpnOptions opt_;
  int threads_;
  double job_seconds_ = 0;
  std::atomic<uint64_t>* progress_ = nullptr;
  const std::vector<State>* jobs_ = nullptr;
  std::vector<Slot> slots_;
  size_t next_ = 0;
  const std::atomic<bool>* stop_ = nullptr;
  const OnEnd* on_end_ = nullptr;
  mutable std::mutex mutex_;
  std::atomic<bool> abort_{false};
  std::exception_ptr error_;
};

// One position with every thread on it. Throws SearchStopped when `stop` is
// raised first (or every search passed opt.max_nodes).
template <class Game, int W>
requires SearchedGame<Game, W> SolveOutcome solve_game_position(const typename Game::template State<W>& pos,
                                                                TranspositionTable& tt, DfpnOptions opt,
                                                                int threads, const std::atomic<bool>* stop,
                                                                std::atomic<uint64_t>* progress = nullptr) {
  if (threads == 1) {  // on the calling thread: no arena, no relay
    Dfpn<W, Game> search(tt, opt, stop, progress);
    const bool wins = search.solve(pos);
    return {wins, search.nodes()};
  }
  JobRunner<Game, W> runner(tt, opt, threads);
  runner.set_progress(progress);
  JobResult result;
  runner.run({pos}, stop, [&](const JobResult& r) { result = r; });
  if (result.end != JobEnd::Proven) throw SearchStopped{};
  return {result.mover_wins, result.nodes};
}

// Konobi, the common case.
template <int W>
SolveOutcome solve_position(const Position<W>& pos, TranspositionTable& tt, DfpnOptions opt, int threads,
                            const std::atomic<bool>* stop, std::atomic<uint64_t>* progress = nullptr) {
  return solve_game_position<KonobiSearch, W>(pos, tt, opt, threads, stop, progress);
}

}  // namespace konobi
