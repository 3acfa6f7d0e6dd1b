// The in-process pool: one thread per slot, every slot searching its own
// job on the one shared table, so that a job starts from what the jobs
// before it proved and what the others are proving. Jobs feed the
// persistent store themselves (DfpnOptions::store).
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "run_job.h"
#include "worker_pool.h"

namespace konobi {

template <class Game, int W>
requires SearchedGame<Game, W>
class LocalPool final : public WorkerPool {
 public:
  using State = typename Game::template State<W>;
  // The root of each class by its representative point.
  using RootOf = std::function<const State&(int opening)>;

  LocalPool(TranspositionTable& tt, DfpnOptions opt, int threads, RootOf root_of)
      : tt_(tt), opt_(opt), root_of_(std::move(root_of)), slots_(size_t(threads)) {
    opt_.parallel = threads > 1;
    for (size_t i = 0; i < slots_.size(); ++i)
      slots_[i].thread = std::thread([this, i] { serve(slots_[i]); });
  }

  ~LocalPool() override {
    {
      std::lock_guard lock(mutex_);
      closing_ = true;
      for (Slot& s : slots_) s.stop.store(true);
    }
    wake_.notify_all();
    for (Slot& s : slots_) s.thread.join();
  }

  int slots() const override { return int(slots_.size()); }
  int idle_slots() const override {
    std::lock_guard lock(mutex_);
    int n = 0;
    for (const Slot& s : slots_) n += !s.busy;
    return n;
  }

  void submit(const Job& job) override {
    std::lock_guard lock(mutex_);
    for (Slot& s : slots_)
      if (!s.busy) {
        s.busy = true;
        s.job = job;
        s.stop.store(false);
        s.progress.store(0);
        wake_.notify_all();
        return;
      }
    throw std::logic_error("LocalPool::submit with no idle slot");
  }

  std::optional<JobReport> next(std::chrono::milliseconds timeout) override {
    std::unique_lock lock(mutex_);
    ended_.wait_for(lock, timeout, [&] { return !reports_.empty() || error_; });
    if (error_) std::rethrow_exception(error_);
    if (reports_.empty()) return std::nullopt;
    JobReport r = std::move(reports_.front());
    reports_.pop_front();
    return r;
  }

  void stop_all() override {
    std::lock_guard lock(mutex_);
    for (Slot& s : slots_)
      if (s.busy) s.stop.store(true);
  }

  uint64_t nodes() const override {
    std::lock_guard lock(mutex_);
    uint64_t n = done_nodes_;
    for (const Slot& s : slots_)
      if (s.busy) n += s.progress.load(std::memory_order_relaxed);
    return n;
  }

 private:
  struct Slot {
    std::thread thread;
    bool busy = false, running = false;
    Job job;
    std::atomic<bool> stop{false};
    std::atomic<uint64_t> progress{0};
  };

  void serve(Slot& slot) {
    while (true) {
      Job job;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return closing_ || (slot.busy && !slot.running); });
        if (closing_) return;
        slot.running = true;
        job = slot.job;
      }
      JobReport r;
      try {
        r = run_job<Game, W>(job, root_of_(job.opening), tt_, opt_, &slot.stop, &slot.progress);
      } catch (...) {
        std::lock_guard lock(mutex_);
        if (!error_) error_ = std::current_exception();
        slot.busy = slot.running = false;
        ended_.notify_all();
        continue;
      }
      std::lock_guard lock(mutex_);
      done_nodes_ += r.nodes;
      slot.busy = slot.running = false;
      reports_.push_back(std::move(r));
      ended_.notify_all();
    }
  }

  TranspositionTable& tt_;
  DfpnOptions opt_;
  RootOf root_of_;
  std::vector<Slot> slots_;
  mutable std::mutex mutex_;
  std::condition_variable wake_, ended_;
  std::deque<JobReport> reports_;
  uint64_t done_nodes_ = 0;
  bool closing_ = false;
  std::exception_ptr error_;
};

}  // namespace konobi
