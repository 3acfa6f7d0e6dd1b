#include "mpi_pool.h"

#include <stdexcept>
#include <thread>

#include "job_codec.h"

namespace konobi {

namespace {

using Clock = std::chrono::steady_clock;
// How long next() sleeps between polls that found nothing: a job lasts
// seconds, so a millisecond's delay in hearing of its end costs nothing,
// and the manager's thread stays nearly idle.
constexpr auto kPollSleep = std::chrono::milliseconds(1);

}  // namespace

MpiPool::MpiPool(MpiChannel& channel, std::string setup, std::chrono::milliseconds hello_timeout)
    : ch_(channel), setup_(std::move(setup)) {
  if (ch_.rank() != 0) throw std::logic_error("MpiPool runs on rank 0 only");
  if (ch_.size() < 2)
    throw std::runtime_error("MpiPool needs at least one worker rank (mpirun -np 2 or more)");
  for (int r = 1; r < ch_.size(); ++r) workers_.push_back(Worker{r, 0, {}, 0});
  try {
    await_hellos(hello_timeout);
  } catch (...) {
    // The workers must still be told to go, or they would wait for jobs
    // for ever and every rank's MPI_Finalize with them.
    try {
      shutdown(std::chrono::seconds(5));
    } catch (...) {}
    throw;
  }
}

void MpiPool::await_hellos(std::chrono::milliseconds hello_timeout) {
  const auto deadline = Clock::now() + hello_timeout;
  int heard = 0;
  while (heard < int(workers_.size())) {
    std::optional<MpiMessage> m = ch_.try_receive();
    if (!m) {
      if (Clock::now() > deadline) {
        std::string missing;
        for (const Worker& w : workers_)
          if (w.slots == 0) missing += (missing.empty() ? "" : ", ") + std::to_string(w.rank);
        throw std::runtime_error("MPI: no hello from worker rank(s) " + missing + " within " +
                                 std::to_string(hello_timeout.count() / 1000) + " s");
      }
      std::this_thread::sleep_for(kPollSleep);
      continue;
    }
    Worker& w = worker_of(m->source);
    if (message_kind(m->bytes) == MessageKind::Error)
      throw std::runtime_error("MPI worker rank " + std::to_string(w.rank) + ": " + decode_error(m->bytes));
    const Hello h = decode_hello(m->bytes);
    if (w.slots != 0)
      throw std::runtime_error("MPI worker rank " + std::to_string(w.rank) + " said hello twice");
    if (h.setup != setup_)
      throw std::runtime_error("MPI worker rank " + std::to_string(w.rank) + " solves \"" + h.setup +
                               "\", the manager \"" + setup_ + "\": every rank must have the same options");
    w.slots = h.slots;
    total_slots_ += h.slots;
    ++heard;
  }
}

MpiPool::~MpiPool() {
  try {
    shutdown();
  } catch (...) {  // the ranks are ending anyway; mpirun reports a rank that does not
  }
}

MpiPool::Worker& MpiPool::worker_of(int rank) {
  if (rank < 1 || rank > int(workers_.size()))
    throw std::runtime_error("MPI: a message from rank " + std::to_string(rank) + ", which is not a worker");
  return workers_[size_t(rank - 1)];
}

int MpiPool::idle_slots() const {
  int n = 0;
  for (const Worker& w : workers_) n += w.slots - int(w.running.size());
  return n;
}

void MpiPool::submit(const Job& job) {
  if (shut_) throw std::logic_error("MpiPool::submit after shutdown");
  Worker* best = nullptr;
  for (Worker& w : workers_)
    if (int(w.running.size()) < w.slots &&
        (!best || w.slots - int(w.running.size()) > best->slots - int(best->running.size())))
      best = &w;
  if (!best) throw std::logic_error("MpiPool::submit with no idle slot");
  if (!best->running.insert(job.id).second)
    throw std::logic_error("MpiPool::submit of a job id already running");
  ch_.send(best->rank, int(MessageKind::Job), encode_job(job));
}

bool MpiPool::poll() {
  std::optional<MpiMessage> m = ch_.try_receive();
  if (!m) return false;
  Worker& w = worker_of(m->source);
  const std::string who = "MPI worker rank " + std::to_string(w.rank);
  try {
    switch (message_kind(m->bytes)) {
      case MessageKind::Report: {
        WorkerReport r = decode_report(m->bytes);
        if (!w.running.erase(r.report.id))
          throw std::runtime_error("a report of job " + std::to_string(r.report.id) +
                                   ", which it was not running");
        w.nodes = std::max(w.nodes, r.worker_nodes);
        reports_.push_back(std::move(r.report));
        break;
      }
      case MessageKind::Progress:
        w.nodes = std::max(w.nodes, decode_progress(m->bytes));
        break;
      case MessageKind::Error:
        throw std::runtime_error(decode_error(m->bytes));
      case MessageKind::Bye:
        throw std::runtime_error("it ended while the run went on");
      default:
        throw std::runtime_error("an unexpected message of kind " +
                                 std::to_string(int(message_kind(m->bytes))));
    }
  } catch (const std::runtime_error& e) { throw std::runtime_error(who + ": " + e.what()); }
  return true;
}

std::optional<JobReport> MpiPool::next(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (true) {
    while (poll()) {}
    if (!reports_.empty()) {
      JobReport r = std::move(reports_.front());
      reports_.pop_front();
      return r;
    }
    if (Clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::min<Clock::duration>(kPollSleep, deadline - Clock::now()));
  }
}

void MpiPool::stop_all() {
  for (const Worker& w : workers_)
    if (!w.running.empty()) ch_.send(w.rank, int(MessageKind::Control), encode_control(Control::StopAll));
}

uint64_t MpiPool::nodes() const {
  uint64_t n = 0;
  for (const Worker& w : workers_) n += w.nodes;
  return n;
}

void MpiPool::shutdown(std::chrono::milliseconds timeout) {
  if (shut_) return;
  shut_ = true;
  reports_.clear();
  for (Worker& w : workers_) w.running.clear();
  ch_.release_workers(timeout);
}

}  // namespace konobi
