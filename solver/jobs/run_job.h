// Runs one job in this process: rebuilds its leaf from the class root and
// the path, searches it with df-pn within the job's budget on the given
// table, and reports the value or the numbers it stopped at. Used by the
// in-process pool and, inside each MPI worker, by the same pool there.
#pragma once

#include <atomic>
#include <chrono>
#include <stdexcept>

#include "job.h"
#include "solver/search/dfpn.h"

namespace konobi {

// The leaf of `job`: the class root with the job's path played. Throws
// std::invalid_argument when a move of the path is not legal there (a
// checkpoint or a message that does not belong to this game).
template <class Game, int W>
requires SearchedGame<Game, W>
typename Game::template State<W> job_leaf(const typename Game::template State<W>& root,
                                          const std::vector<Move>& path) {
  typename Game::template State<W> s = root;
  for (Move m : path) {
    const NodeMoves<W> nm = Game::moves(s);
    if (m == kPass) {
      if (nm.kind != NodeKind::PassOnly)
        throw std::invalid_argument("a job's path passes where a stone can be placed");
      Game::pass(s);
    } else {
      if (m < 0 || m >= Game::board(s).g->cells || !Game::Rules::placements(s).test(m))
        throw std::invalid_argument("a job's path makes a move that is not legal");
      Game::play(s, m);
    }
  }
  return s;
}

// `stop` ends the job early (JobOutcome::Stopped); `progress`, if given,
// counts its nodes as they go (in steps of 1024).
template <class Game, int W>
requires SearchedGame<Game, W> JobReport run_job(const Job& job, const typename Game::template State<W>& root,
                                                 TranspositionTable& tt, DfpnOptions opt,
                                                 const std::atomic<bool>* stop,
                                                 std::atomic<uint64_t>* progress = nullptr) {
  const auto t0 = std::chrono::steady_clock::now();
  const typename Game::template State<W> leaf = job_leaf<Game, W>(root, job.path);
  opt.max_nodes = job.max_nodes;
  Dfpn<W, Game> dfpn(tt, opt, stop, progress);
  JobReport r;
  r.id = job.id;
  try {
    if (job.th_pn >= kInf && job.th_dn >= kInf) {
      const bool wins = dfpn.solve(leaf);
      r.outcome = wins ? JobOutcome::MoverWins : JobOutcome::MoverLoses;
      r.pn = wins ? 0 : kInf;
      r.dn = wins ? kInf : 0;
    } else {
      dfpn.search_within(leaf, job.th_pn, job.th_dn, job.min_nodes, r.pn, r.dn);
      r.outcome = r.pn == 0 ? JobOutcome::MoverWins : r.dn == 0 ? JobOutcome::MoverLoses : JobOutcome::Open;
    }
  } catch (const SearchStopped&) {
    r.outcome = stop && stop->load() ? JobOutcome::Stopped : JobOutcome::Open;
    // No numbers unless the table has them (below): 0/0 tells the manager
    // to keep the leaf's own.
    r.pn = r.dn = 0;
  }
  const auto f = tt.probe(Game::key(leaf, opt.symmetry));
  if (r.outcome == JobOutcome::Open || r.outcome == JobOutcome::Stopped) {
    // The root entry holds the numbers the search stopped at (df-pn leaves
    // them on its way up from a stop), unless a tiny table lost it; a stop
    // may also have come just after a proof.
    if (f.hit) r.pn = f.pn, r.dn = f.dn;
    if (f.hit && f.pn == 0) r.outcome = JobOutcome::MoverWins;
    if (f.hit && f.dn == 0) r.outcome = JobOutcome::MoverLoses;
  }
  if (r.outcome == JobOutcome::MoverWins && f.hit && f.pn == 0)
    r.best = board_move<Game, W>(leaf, f.best, opt.symmetry);
  r.nodes = dfpn.nodes();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace konobi
