// The solver as a player: within a time budget it proves each candidate move
// (df-pn on one table kept for the whole game) and plays a proven win when
// there is one; knowing it has lost, it plays the reply that cost the most
// to refute; without a proof in time, the move the evaluation likes best.
#pragma once

#include <atomic>
#include <string>
#include <type_traits>

#include "eval.h"
#include "parallel_dfpn.h"
#include "stop_relay.h"

namespace konobi {

struct MoveChoice {
  Move move = kPass;
  enum Knowledge { ProvenWin, ProvenLoss, Unproven } knowledge = Unproven;
};

// Game: the searched game (game_search.h), Konobi unless told.
template <int W, SearchedGame<W> Game = KonobiSearch>
class SolverPlayer {
 public:
  using State = typename Game::template State<W>;

  SolverPlayer(double table_mb, double seconds_per_move, int threads)
      : tt_(table_mb), budget_(seconds_per_move), threads_(threads) {}

  // For the pie rule: whether White, to move in pos, should swap.
  // Unproven in time, it keeps White.
  bool should_swap(State pos) {
    board(pos).swap_available = false;
    StopRelay d(budget_, nullptr, stop_);
    try {
      return !solve_game_position<Game, W>(pos, tt_, opt_, threads_, &stop_).mover_wins;
    } catch (const SearchStopped&) { return false; }
  }

  // pos must have a legal placement.
  MoveChoice choose(State pos) {
    board(pos).swap_available = false;
    const NodeMoves<W> nm = Game::moves(pos);
    if (nm.kind == NodeKind::WinNow) return {nm.win, MoveChoice::ProvenWin};
    const Bitboard<W> candidates = nm.kind == NodeKind::LoseNow ? Game::Rules::placements(pos) : nm.moves;
    StopRelay d(budget_, nullptr, stop_);
    try {
      if (nm.kind != NodeKind::LoseNow) {
        Move found = -1;
        candidates.for_each([&](int m) {
          if (found >= 0) return;
          State q = pos;
          Game::play(q, m);
          if (!solve_game_position<Game, W>(q, tt_, opt_, threads_, &stop_).mover_wins) found = m;
        });
        if (found >= 0) return {found, MoveChoice::ProvenWin};
      }
      // Every move loses: resist where the proof was hardest.
      Move stubborn = candidates.first();
      int most = -1;
      candidates.for_each([&](int m) {
        State q = pos;
        Game::play(q, m);
        const auto f = tt_.probe(Game::key(q, opt_.symmetry));
        if (int(f.work) > most) most = f.work, stubborn = m;
      });
      return {stubborn, MoveChoice::ProvenLoss};
    } catch (const SearchStopped&) {
      // Out of time: the move that leaves us closest to connecting relative
      // to the opponent.
      Move best = candidates.first();
      int best_score = 1 << 30;
      candidates.for_each([&](int m) {
        State q = pos;
        Game::play(q, m);
        const Estimate e = Game::evaluate(q);  // from the opponent's side
        const int score = int(e.dn) - int(e.pn);
        if (score < best_score) best_score = score, best = m;
      });
      return {best, MoveChoice::Unproven};
    }
  }

 private:
  static Position<W>& board(State& s) {
    if constexpr (std::is_same_v<State, Position<W>>) return s;
    else return s.pos;
  }

  TranspositionTable tt_;
  DfpnOptions opt_;
  double budget_;
  int threads_;
  std::atomic<bool> stop_{false};
};

}  // namespace konobi
