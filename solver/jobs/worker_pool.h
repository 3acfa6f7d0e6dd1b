// Where the manager's jobs run: threads of this process on one shared table
// (LocalPool), or MPI ranks each with its own table and threads (MpiPool).
// The manager only submits jobs and collects reports, so it does not know
// which; a virtual call per job is nothing next to a job's seconds.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

#include "job.h"

namespace konobi {

class WorkerPool {
 public:
  virtual ~WorkerPool() = default;
  // Jobs that can run at once, and how many of them are free now.
  virtual int slots() const = 0;
  virtual int idle_slots() const = 0;
  // Starts a job; only while idle_slots() > 0.
  virtual void submit(const Job& job) = 0;
  // The report of a job that ended, waiting at most `timeout` for one; none
  // when none ended meanwhile. Every submitted job is reported exactly once.
  virtual std::optional<JobReport> next(std::chrono::milliseconds timeout) = 0;
  // Asks every running job to stop; each still reports (Stopped, or its
  // value if it got there first). Jobs submitted afterwards run normally.
  virtual void stop_all() = 0;
  // Nodes visited by every job so far, running ones included (approximate
  // for those), for progress lines.
  virtual uint64_t nodes() const = 0;
};

}  // namespace konobi
