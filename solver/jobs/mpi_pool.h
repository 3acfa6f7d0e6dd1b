// The manager's pool on rank 0 when the solve runs under mpirun: every
// other rank is a worker (mpi_worker.h) with its own table and threads, and
// its slots are its --threads. Jobs go to the worker with the most free
// slots; reports, progress and errors come back as messages, which next()
// polls for without blocking anything but its own wait. Positions that
// workers proved come back inside the reports (JobReport::proven), for the
// caller to add to the store. docs/JOBS.md, "Workers on other machines".
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_set>
#include <vector>

#include "mpi_channel.h"
#include "worker_pool.h"

namespace konobi {

class MpiPool final : public WorkerPool {
 public:
  // Waits for every other rank's hello (at most `hello_timeout`). Throws
  // std::runtime_error when this is not rank 0, there is no other rank, a
  // worker's setup is not `setup` (ranks started with different options),
  // or a hello does not come in time.
  MpiPool(MpiChannel& channel, std::string setup,
          std::chrono::milliseconds hello_timeout = std::chrono::minutes(5));
  // shutdown(), errors swallowed.
  ~MpiPool() override;

  int slots() const override { return total_slots_; }
  int idle_slots() const override;
  void submit(const Job& job) override;
  // Throws std::runtime_error when a worker reported an error or sent a
  // message that is malformed or does not fit (a report of a job it was
  // not running).
  std::optional<JobReport> next(std::chrono::milliseconds timeout) override;
  void stop_all() override;
  uint64_t nodes() const override;

  int workers() const { return int(workers_.size()); }
  // Sends SHUTDOWN to every worker and waits (at most `timeout`) for each
  // one's goodbye (MpiChannel::release_workers), so that every rank ends
  // and no message is left half-delivered. Once only; submit() afterwards
  // throws.
  void shutdown(std::chrono::milliseconds timeout = std::chrono::seconds(30));

 private:
  struct Worker {
    int rank = 0;
    int slots = 0;
    std::unordered_set<uint64_t> running;  // ids of its jobs not yet reported
    uint64_t nodes = 0;                    // its latest running count
  };
  void await_hellos(std::chrono::milliseconds timeout);
  Worker& worker_of(int rank);
  // Handles one message; false when none was waiting.
  bool poll();

  MpiChannel& ch_;
  std::string setup_;
  std::vector<Worker> workers_;  // ranks 1..size-1
  int total_slots_ = 0;
  std::deque<JobReport> reports_;
  bool shut_ = false;
};

}  // namespace konobi
