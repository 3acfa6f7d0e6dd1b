// Helpers shared by the solver's test files (test_dfpn.cpp, test_job_runner.cpp,
// test_proofs.cpp, test_table.cpp, test_results_format.cpp): positions to
// solve, df-pn under a deadline, and the comparison with alpha-beta.
#pragma once

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "core/game.h"
#include "core/notation.h"
#include "solver/io/results.h"
#include "solver/search/alphabeta.h"
#include "solver/search/dfpn.h"
#include "core/openings.h"
#include "solver/search/parallel_dfpn.h"
#include "solver/search/proof.h"
#include "solver/search/tt.h"
#include "solver/verify/proof_checker.h"

namespace solver_test {

using Pos = konobi::Position<1>;

#ifdef KONOBI_SANITIZE_BUILD
inline constexpr bool kSanitize = true;
#else
inline constexpr bool kSanitize = false;
#endif

// Each position here takes well under a second; a search that runs for this
// long is stuck (a livelock), which must fail the test rather than hang it.
inline constexpr double kSolveSeconds = kSanitize ? 120 : 15;

inline std::string show(const Pos& pos) { return konobi::format_position(konobi::to_text(pos)); }

// Black's stone at p on an empty n x n board, White to move, no swap.
inline Pos opening(int n, int p) {
  Pos pos = Pos::empty(konobi::Geometry<1>::get(n));
  pos.place(p);
  pos.swap_available = false;
  return pos;
}

inline std::string join(const std::vector<std::string>& lines, size_t max = 20) {
  std::string s;
  for (size_t i = 0; i < lines.size() && i < max; ++i) s += lines[i] + "\n";
  if (lines.size() > max) s += "... and " + std::to_string(lines.size() - max) + " more\n";
  return s;
}

// Every position reachable from the empty n x n board by placements and
// forced passes (no swap), stopping at wins, once each (by key).
// `draws` counts positions where neither side can place, which the rules say
// cannot occur.
inline std::vector<Pos> reachable_positions(int n, int& draws) {
  std::vector<Pos> out;
  std::unordered_set<uint64_t> seen;
  std::vector<Pos> stack{Pos::empty(konobi::Geometry<1>::get(n))};
  draws = 0;
  while (!stack.empty()) {
    const Pos pos = stack.back();
    stack.pop_back();
    if (!seen.insert(pos.key()).second) continue;
    const auto legal = konobi::konobi_legal_placements(pos);
    if (legal.none()) {
      if (konobi::konobi_legality(pos, konobi::other(pos.to_move)).legal.none()) {
        ++draws;
        continue;
      }
      out.push_back(pos);
      Pos q = pos;
      q.pass();
      stack.push_back(q);
      continue;
    }
    out.push_back(pos);
    legal.for_each([&](int m) {
      if (konobi::konobi_wins_by(pos, m)) return;  // the game ends here
      Pos q = pos;
      q.place(m);
      q.swap_available = false;
      stack.push_back(q);
    });
  }
  return out;
}

// Positions with `lo` to `hi` stones from random legal play on an n x n board
// (winning placements avoided, forced passes played), distinct by key.
inline std::vector<Pos> random_positions(int n, int count, int lo, int hi, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Pos> out;
  std::unordered_set<uint64_t> seen;
  int attempts = 0;
  while (int(out.size()) < count && attempts++ < count * 50) {
    const int target = std::uniform_int_distribution<int>(lo, hi)(rng);
    Pos pos = Pos::empty(konobi::Geometry<1>::get(n));
    bool ok = true;
    while (ok && pos.stone_count() < target) {
      const auto legal = konobi::konobi_legal_placements(pos);
      if (legal.none()) {
        if (konobi::konobi_legality(pos, konobi::other(pos.to_move)).legal.none()) ok = false;
        else pos.pass();
        continue;
      }
      std::vector<int> quiet;
      legal.for_each([&](int m) {
        if (!konobi::konobi_wins_by(pos, m)) quiet.push_back(m);
      });
      if (quiet.empty()) {
        ok = false;
        break;
      }
      pos.place(quiet[std::uniform_int_distribution<size_t>(0, quiet.size() - 1)(rng)]);
      pos.swap_available = false;
    }
    if (!ok || konobi::has_winning_chain(pos, konobi::Black) || konobi::has_winning_chain(pos, konobi::White))
      continue;
    if (seen.insert(pos.key()).second) out.push_back(pos);
  }
  return out;
}

// Raises `stop` after `seconds` unless destroyed first.
class Deadline {
 public:
  explicit Deadline(double seconds)
      : thread_([this, seconds] {
          std::unique_lock<std::mutex> lock(mutex_);
          if (!cv_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return done_; }))
            stop = true;
        }) {}
  ~Deadline() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  std::atomic<bool> stop{false};

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

// df-pn's verdict for the side to move, or nothing if it did not finish in
// kSolveSeconds.
inline std::optional<bool> dfpn_wins(const Pos& pos, konobi::TranspositionTable& tt,
                                     const konobi::DfpnOptions& opt, int threads) {
  Deadline deadline(kSolveSeconds);
  try {
    return konobi::solve_position<1>(pos, tt, opt, threads, &deadline.stop).mover_wins;
  } catch (const konobi::SearchStopped&) { return std::nullopt; }
}

inline std::string verdict(std::optional<bool> v) {
  return !v ? "no answer within " + std::to_string(int(kSolveSeconds)) + " s" : *v ? "win" : "loss";
}

struct Reference {
  bool wins;  // alpha-beta's null-window verdict
  int score;  // exact score
};

// What is wrong with an alpha-beta score, or "".
inline std::string score_problem(int score, bool wins) {
  std::ostringstream why;
  const int r = konobi::remoteness_of(score);
  if (wins != (score > 0))
    why << " AlphaBeta::wins says " << (wins ? "win" : "loss") << " but score is " << score;
  if (score == 0) why << " score 0 (a draw)";
  if (std::abs(score) > konobi::kWinScore - 1) why << " score " << score << " is out of range";
  // The mover wins on one of its own plies: an odd number of plies away.
  else if (score != 0 && (r % 2 == 1) != (score > 0))
    why << " remoteness " << r << " has the wrong parity for score " << score;
  return why.str();
}

// Compares df-pn (with `opt`, `threads`, on `tt`) with alpha-beta (a fresh
// table of 2^log2 entries per position) on each position; returns one line
// per disagreement. `refs` receives alpha-beta's answers when given.
inline std::vector<std::string> compare_with_alphabeta(const std::vector<Pos>& positions,
                                                       konobi::TranspositionTable& tt,
                                                       const konobi::DfpnOptions& opt, int threads, int log2,
                                                       std::vector<Reference>* refs = nullptr) {
  std::vector<std::string> bad;
  for (const Pos& pos : positions) {
    const std::optional<bool> dfpn = dfpn_wins(pos, tt, opt, threads);
    // Separate tables: the exact search must not lean on the null-window one.
    const bool abw = konobi::AlphaBeta<1>(log2).wins(pos);
    const int score = konobi::AlphaBeta<1>(log2).score(pos);
    if (refs) refs->push_back({abw, score});
    std::string why;
    if (dfpn != abw)
      why += " df-pn says " + verdict(dfpn) + ", AlphaBeta::wins says " + (abw ? "win" : "loss");
    why += score_problem(score, abw);
    if (!why.empty()) bad.push_back(show(pos) + ":" + why);
  }
  return bad;
}

inline std::vector<Pos> openings4() {
  std::vector<Pos> v;
  for (int p = 0; p < 16; ++p) v.push_back(opening(4, p));
  return v;
}

// One 4x4 opening per symmetry class.
inline std::vector<Pos> opening_classes4() {
  std::vector<Pos> v;
  for (int p : konobi::opening_classes(konobi::Geometry<1>::get(4))) v.push_back(opening(4, p));
  return v;
}

}  // namespace solver_test
