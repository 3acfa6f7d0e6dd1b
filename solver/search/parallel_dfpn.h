// Runs df-pn on one position with several TBB threads sharing one table, so
// a single hard position gets every core, not just the positions side by
// side.
#pragma once

#include <atomic>
#include <chrono>
#include <thread>

#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>

#include "dfpn.h"

namespace konobi {

struct SolveOutcome {
  bool mover_wins = false;
  uint64_t nodes = 0;
};

// Throws SearchStopped when `stop` is raised first. `progress` (optional)
// receives node counts as the threads go.
template <class Game, int W>
SolveOutcome solve_game_position(const typename Game::template State<W>& pos, TranspositionTable& tt, DfpnOptions opt,
                                 int threads, const std::atomic<bool>* stop, std::atomic<uint64_t>* progress = nullptr) {
  if (threads == 1) {  // on the calling thread: no task group, no polling
    Dfpn<W, Game> search(tt, opt, stop, progress);
    const bool wins = search.solve(pos);
    return {wins, search.nodes()};
  }
  opt.parallel = true;
  std::atomic<bool> finish{false};  // raised by the first thread done, or by `stop`
  std::atomic<int> result{-1}, running{threads};
  std::atomic<uint64_t> nodes{0};
  // The searches run in an arena of exactly `threads` slots, the calling
  // thread being one of them through wait(): TBB starts one worker fewer
  // than its concurrency, expecting the caller to join, so a caller that
  // only polled would leave one search queued behind the others.
  // The stop flag is relayed by a plain thread that takes no arena slot.
  std::thread relay([&] {
    while (running.load() > 0) {
      if (stop && stop->load()) finish.store(true);
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  });
  oneapi::tbb::task_arena arena(threads);
  try {
    arena.execute([&] {
      oneapi::tbb::task_group group;
      for (int t = 0; t < threads; ++t) {
        group.run([&, t] {
          DfpnOptions o = opt;
          // Different slack per thread: their searches drift apart sooner.
          o.epsilon = opt.epsilon * (1.0 + 0.5 * t);
          Dfpn<W, Game> search(tt, o, &finish, progress);
          try {
            int expected = -1;
            result.compare_exchange_strong(expected, search.solve(pos) ? 1 : 0);
            finish.store(true);
          } catch (const SearchStopped&) {
          } catch (...) {
            finish.store(true);
            running.fetch_sub(1);
            throw;
          }
          nodes += search.nodes();
          running.fetch_sub(1);
        });
      }
      group.wait();
    });
  } catch (...) {
    finish.store(true);
    running.store(0);
    relay.join();
    throw;
  }
  relay.join();
  if (result.load() < 0) throw SearchStopped{};
  return {result.load() == 1, nodes.load()};
}

// Konobi, the common case.
template <int W>
SolveOutcome solve_position(const Position<W>& pos, TranspositionTable& tt, DfpnOptions opt, int threads,
                            const std::atomic<bool>* stop, std::atomic<uint64_t>* progress = nullptr) {
  return solve_game_position<KonobiSearch, W>(pos, tt, opt, threads, stop, progress);
}

}  // namespace konobi
