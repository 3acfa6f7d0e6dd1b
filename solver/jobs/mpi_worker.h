// The loop of every MPI rank but the manager's: says hello (its slots, its
// setup), then runs the jobs it is sent on a LocalPool of its own threads
// and table, sends each report back with the positions its searches proved
// on the way (ProvenCollector: the manager keeps the one store), a progress
// count about once a second while it works, and obeys STOP_ALL and SHUTDOWN.
// All its MPI calls are on the calling thread, the one that initialised
// MPI; the pool's threads only search. docs/JOBS.md, "Workers on other
// machines".
#pragma once

#include <chrono>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "job_codec.h"
#include "local_pool.h"
#include "mpi_channel.h"
#include "proven_collector.h"

namespace konobi {

// The worker's share of the options: its DfpnOptions' store is `collector`.
inline DfpnOptions worker_options(DfpnOptions opt, ProvenCollector& collector) {
  opt.store = &collector;
  return opt;
}

// Returns 0 after SHUTDOWN, 1 when the worker failed (it then told the
// manager why, as an Error message, and waited for SHUTDOWN all the same,
// so that every rank ends together). Throws only when MPI itself fails.
template <class Game, int W>
requires SearchedGame<Game, W>
int run_mpi_worker(MpiChannel& ch, TranspositionTable& tt, DfpnOptions opt, int threads,
                   typename LocalPool<Game, W>::RootOf root_of, const std::string& setup = "") {
  using Clock = std::chrono::steady_clock;
  constexpr int kManager = 0;
  ProvenCollector collector;
  ch.send(kManager, int(MessageKind::Hello), encode_hello(Hello{threads, setup}));
  std::optional<LocalPool<Game, W>> pool;
  pool.emplace(tt, worker_options(opt, collector), threads, std::move(root_of));
  bool failed = false;
  auto last_progress = Clock::now();
  auto send = [&](MessageKind kind, std::vector<uint8_t> bytes) {
    ch.send(kManager, int(kind), std::move(bytes));
  };
  while (true) {
    try {
      bool busy = false;
      // Messages first, in the order sent: a STOP_ALL stops the jobs sent
      // before it, never one sent after it.
      while (std::optional<MpiMessage> m = ch.try_receive()) {
        busy = true;
        if (m->source != kManager)
          throw std::runtime_error("a message from rank " + std::to_string(m->source));
        const MessageKind kind = message_kind(m->bytes);
        if (kind == MessageKind::Control) {
          if (decode_control(m->bytes) == Control::Shutdown) {
            pool->stop_all();
            pool.reset();  // joins its threads; reports of stopped jobs are not wanted now
            ch.say_goodbye();
            return failed ? 1 : 0;
          }
          if (!failed) pool->stop_all();
        } else if (kind == MessageKind::Job) {
          if (failed) continue;
          const Job job = decode_job(m->bytes);
          if (pool->idle_slots() == 0) throw std::runtime_error("a job came with every slot busy");
          pool->submit(job);
        } else {
          throw std::runtime_error("a message of kind " + std::to_string(int(kind)) +
                                   ", which workers do not take");
        }
      }
      if (failed) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        continue;
      }
      // Waiting here for a report doubles as the loop's pause.
      while (std::optional<JobReport> r = pool->next(std::chrono::milliseconds(busy ? 0 : 2))) {
        r->proven = collector.take();
        send(MessageKind::Report, encode_report(WorkerReport{std::move(*r), pool->nodes()}));
        busy = true;
      }
      if (pool->idle_slots() < pool->slots() && Clock::now() - last_progress >= std::chrono::seconds(1)) {
        send(MessageKind::Progress, encode_progress(pool->nodes()));
        last_progress = Clock::now();
      }
    } catch (const std::exception& e) {
      // A job that does not belong to this game, a malformed message, a
      // search that failed: the manager hears why and ends the run. Until
      // its SHUTDOWN comes, anything else is dropped.
      if (failed) continue;
      failed = true;
      pool->stop_all();
      send(MessageKind::Error, encode_error(e.what()));
    }
  }
}

}  // namespace konobi
