// Puzzle mining: positions from random legal games where the side to move
// has exactly one winning move. Every candidate is proven twice, by df-pn
// (the mover wins, and every other move loses) and by alpha-beta (the same
// single winner, with its exact remoteness), so a shipped puzzle rests on
// two independent searches. Positions that either search cannot settle
// within its node budget are skipped, not guessed.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <random>
#include <unordered_set>
#include <vector>

#include "solver/search/alphabeta.h"
#include "solver/search/parallel_dfpn.h"

namespace konobi {

struct PuzzleOptions {
  int count = 10;
  uint64_t seed = 1;
  int min_remoteness = 3;              // 1 would admit "win at once" puzzles
  int min_stones = 4;                  // look at positions from this many stones on
  int max_per_remoteness = 0;          // at most this many puzzles of one remoteness; 0: no cap
  uint64_t dfpn_nodes = 200000;        // per solve
  uint64_t alphabeta_nodes = 2000000;  // per check
  int max_games = 100000;
  double tt_mb = 256;
};

struct FoundPuzzle {
  std::vector<Move> record;  // from the empty board to the puzzle
  Move solution = -1;
  int remoteness = 0;  // plies to the win, the solution included
  uint64_t dfpn_nodes = 0, alphabeta_nodes = 0;
  int game = 0;  // which random game it came from
};

struct PuzzleStats {
  std::atomic<uint64_t> games{0}, positions{0}, candidates{0}, skipped{0}, nodes{0};
  std::atomic<int> found{0};
};

// The number of winning moves for the side to move, stopping at two:
// -1 when a solve ran out of budget.
template <int W>
int count_winning_moves(const Position<W>& pos, TranspositionTable& tt, const DfpnOptions& opt, Move& winner,
                        uint64_t& nodes, const std::atomic<bool>* stop) {
  int wins = 0;
  bool gave_up = false;
  konobi_legal_placements(pos).for_each([&](int m) {
    if (wins > 1 || gave_up) return;
    bool good;
    if (konobi_wins_by(pos, m)) {
      good = true;
    } else {
      Position<W> q = pos;
      q.place(m);
      try {
        const SolveOutcome o = solve_position(q, tt, opt, 1, stop);
        nodes += o.nodes;
        good = !o.mover_wins;
      } catch (const SearchStopped&) {
        if (stop && stop->load()) throw;
        gave_up = true;
        return;
      }
    }
    if (good) ++wins, winner = m;
  });
  return gave_up ? -1 : wins;
}

enum class Verdict { Settled, OverBudget };

// One position: a puzzle if the mover's win is proven and unique.
template <int W>
Verdict try_position(const Position<W>& pos, const std::vector<Move>& record, int game,
                     const PuzzleOptions& opt, const DfpnOptions& dopt, TranspositionTable& tt,
                     std::unordered_set<uint64_t>& seen, PuzzleStats& stats, const std::atomic<bool>* stop,
                     std::vector<FoundPuzzle>& out, const std::function<void(const FoundPuzzle&)>& on_found) {
  const NodeMoves<W> nm = node_moves(pos);
  if (nm.kind != NodeKind::Search) return Verdict::Settled;  // a win at once, a lost position or a pass
  const uint64_t key = pos.canonical_key();
  if (seen.count(key)) return Verdict::Settled;
  ++stats.candidates;
  FoundPuzzle f;
  try {
    const SolveOutcome root = solve_position(pos, tt, dopt, 1, stop);
    f.dfpn_nodes += root.nodes;
    stats.nodes += root.nodes;
    if (!root.mover_wins) return Verdict::Settled;
  } catch (const SearchStopped&) {
    if (stop && stop->load()) return Verdict::Settled;
    ++stats.skipped;
    return Verdict::OverBudget;
  }
  const int wins = count_winning_moves(pos, tt, dopt, f.solution, f.dfpn_nodes, stop);
  stats.nodes += f.dfpn_nodes;
  if (wins < 0) {
    ++stats.skipped;
    return Verdict::OverBudget;
  }
  if (wins != 1) return Verdict::Settled;
  // The second opinion: alpha-beta must find the same single winner.
  AlphaBeta<W> ab(18, stop);
  ab.set_node_limit(opt.alphabeta_nodes);
  try {
    bool agree = true;
    konobi_legal_placements(pos).for_each([&](int m) {
      if (!agree) return;
      if (konobi_wins_by(pos, m)) return void(agree = m == f.solution);
      Position<W> q = pos;
      q.place(m);
      if (m == f.solution) {
        const int s = ab.score(q);  // the opponent's exact score, so negative
        agree = s < 0;
        f.remoteness = remoteness_of(s) + 1;
      } else {
        agree = ab.wins(q);
      }
    });
    f.alphabeta_nodes = ab.nodes();
    if (!agree)  // two searches disagree: a bug, never a puzzle
      throw std::logic_error("df-pn and alpha-beta disagree on a puzzle candidate");
  } catch (const SearchStopped&) {
    ++stats.skipped;
    return Verdict::OverBudget;
  }
  if (f.remoteness < opt.min_remoteness) return Verdict::Settled;
  if (opt.max_per_remoteness > 0 && std::count_if(out.begin(), out.end(), [&](const FoundPuzzle& x) {
                                      return x.remoteness == f.remoteness;
                                    }) >= opt.max_per_remoteness)
    return Verdict::Settled;
  seen.insert(key);
  f.record = record;
  f.game = game;
  out.push_back(f);
  ++stats.found;
  if (on_found) on_found(f);
  return Verdict::Settled;
}

// Mines puzzles until opt.count are found, opt.max_games games were played
// or `stop` is raised. `on_found` sees each puzzle as it is proven.
template <int W>
std::vector<FoundPuzzle> find_puzzles(int n, const PuzzleOptions& opt, PuzzleStats& stats,
                                      const std::atomic<bool>* stop,
                                      const std::function<void(const FoundPuzzle&)>& on_found = {}) {
  const Geometry<W>& g = Geometry<W>::get(n);
  TranspositionTable tt(opt.tt_mb);
  DfpnOptions dopt;
  dopt.max_nodes = opt.dfpn_nodes;
  // Plain mt19937_64 words, reduced by modulo: the same seed gives the same
  // games with every standard library (the std distributions differ).
  std::mt19937_64 rng(opt.seed);
  std::unordered_set<uint64_t> seen;  // canonical keys of puzzles found
  std::vector<FoundPuzzle> out;
  for (int game = 1; game <= opt.max_games && int(out.size()) < opt.count; ++game) {
    if (stop && stop->load()) break;
    ++stats.games;
    // Play the whole random game first, then look at its positions from the
    // end backwards: late positions are cheap to prove, and once two in a
    // row exceed the budgets the earlier, emptier ones will too.
    std::vector<Move> record;
    std::vector<std::pair<Position<W>, size_t>> line;  // each with its record length
    Position<W> pos = Position<W>::empty(g);
    while (true) {
      const Bitboard<W> legal = konobi_legal_placements(pos);
      if (legal.none()) {
        if (konobi_legality(pos, other(pos.to_move)).legal.none())
          break;  // cannot happen (see verify-nodraw)
        pos.pass();
        record.push_back(kPass);
        continue;
      }
      pos.swap_available = false;  // puzzles are about placements, not the pie rule
      line.emplace_back(pos, record.size());
      int moves[kMaxCells], count = 0;
      legal.for_each([&](int m) { moves[count++] = m; });
      const Move m = moves[rng() % uint64_t(count)];
      const bool wins = konobi_wins_by(pos, m);
      pos.place(m);
      record.push_back(m);
      if (wins) break;
    }
    int over_budget = 0;
    for (size_t i = line.size(); i-- > 0 && over_budget < 2 && int(out.size()) < opt.count;) {
      if (stop && stop->load()) break;
      const Position<W>& p = line[i].first;
      if (p.stone_count() < opt.min_stones) break;
      ++stats.positions;
      const std::vector<Move> upto(record.begin(), record.begin() + std::ptrdiff_t(line[i].second));
      switch (try_position(p, upto, game, opt, dopt, tt, seen, stats, stop, out, on_found)) {
        case Verdict::OverBudget:
          ++over_budget;
          break;
        case Verdict::Settled:
          over_budget = 0;
          break;
      }
    }
  }
  return out;
}

}  // namespace konobi
