// The solver inside the engine, on the boards it searches (up to 8x8, one
// word): df-pn proves the position within a budget (a deadline, or a node
// count when the caller wants reproducible moves), then alpha-beta within a
// node budget gives the remoteness and the fastest win or the longest
// defence when that is cheap. Gonnect only under superko: under simple ko a
// game can cycle, so positions have no proven value.
#pragma once

#include <atomic>
#include <type_traits>
#include <vector>

#include "record.h"
#include "solver/search/alphabeta.h"
#include "solver/search/parallel_dfpn.h"
#include "solver/search/pv.h"
#include "solver/search/stop_relay.h"

namespace konobi {

template <class Rules>
using SearchOf = std::conditional_t<std::is_same_v<Rules, GonnectRules>, GonnectSearch, KonobiSearch>;

// Whether the solver applies to this game on this board.
template <class Rules, int W>
bool solver_applies(const typename Rules::Variant& v) {
  if constexpr (W != 1) return false;
  else if constexpr (std::is_same_v<Rules, GonnectRules>) return v.ko == KoRule::Superko;
  else return true;
}

struct ProofBudget {
  double seconds = 0;       // > 0: a deadline
  uint64_t dfpn_nodes = 0;  // > 0: df-pn's node limit
  uint64_t ab_nodes = 200000;
  double table_mb = 64;
  const std::atomic<bool>* cancel = nullptr;
};

// One position (its swap off) proven, with the move to play.
struct Proof {
  bool proven = false;
  bool wins = false;
  Move move = kPass;       // the winning move, or the stubbornest defence
  int remoteness = -1;     // plies to the end with best play, when alpha-beta finished
  std::vector<Move> line;  // the principal variation from the table
};

template <class Rules>
class Prover {
 public:
  using Search = SearchOf<Rules>;
  using State = typename Rules::template State<1>;

  explicit Prover(const ProofBudget& b) : b_(b), tt_(b.table_mb) {}

  // The value of s (its swap turned off) for the side to move.
  Proof prove(State s) {
    board_of(s).swap_available = false;
    Proof r;
    DfpnOptions opt;
    opt.max_nodes = b_.dfpn_nodes;
    StopRelay relay(b_.seconds, b_.cancel, stop_);
    try {
      r.wins = solve_game_position<Search, 1>(s, tt_, opt, 1, &stop_).mover_wins;
    } catch (const SearchStopped&) { return r; }
    r.proven = true;
    r.line = game_principal_variation<Search, 1>(s, tt_, opt.symmetry, 4 * Rules::board(s).g->cells);
    r.move = r.line.empty() ? kPass : r.line.front();
    if (!r.wins) r.move = stubborn_move(s, opt);
    // The remoteness and the best move by it, when alpha-beta is cheap here.
    AlphaBeta<1, Search> ab(18, &stop_);
    ab.set_node_limit(b_.ab_nodes);
    try {
      const auto scores = ab.score_moves(s);
      if (!scores.empty()) {
        auto best = scores.front();
        for (const auto& x : scores)
          if (x.second > best.second) best = x;
        // Trust alpha-beta's move only where it agrees with df-pn's value.
        if ((best.second > 0) == r.wins) {
          r.move = best.first;
          r.remoteness = remoteness_of(best.second);
        }
      }
    } catch (const SearchStopped&) {}
    return r;
  }

  // The value of the position after move m (a placement or kPass) for the
  // side that made it: 1 wins, -1 loses, 0 not proven; remoteness counted
  // from before m.
  std::pair<int, int> prove_move(const State& s, Move m, bool remoteness) {
    State q = s;
    board_of(q).swap_available = false;
    if (m != kPass && Rules::wins_by(q, m)) return {1, 1};
    if (m == kPass) Rules::pass(q);
    else Rules::play(q, m);
    board_of(q).swap_available = false;
    DfpnOptions opt;
    opt.max_nodes = b_.dfpn_nodes;
    bool child_wins;
    try {
      child_wins = solve_game_position<Search, 1>(q, tt_, opt, 1, &stop_).mover_wins;
    } catch (const SearchStopped&) { return {0, -1}; }
    int remote = -1;
    if (remoteness) {
      AlphaBeta<1, Search> ab(16, &stop_);
      ab.set_node_limit(b_.ab_nodes);
      try {
        remote = remoteness_of(ab.score(q)) + 1;
      } catch (const SearchStopped&) {}
    }
    return {child_wins ? -1 : 1, remote};
  }

  // For callers that run several proofs under one deadline.
  std::atomic<bool>& stop_flag() { return stop_; }

 private:
  // Every move loses: the reply that cost the search most to refute.
  Move stubborn_move(const State& s, const DfpnOptions& opt) {
    const Bitboard<1> legal = Rules::placements(s);
    if (legal.none()) return kPass;
    Move stubborn = legal.first();
    int most = -1;
    legal.for_each([&](int m) {
      State q = s;
      Rules::play(q, m);
      const auto f = tt_.probe(Search::key(q, opt.symmetry));
      if (int(f.work) > most) most = int(f.work), stubborn = m;
    });
    return stubborn;
  }

  ProofBudget b_;
  TranspositionTable tt_;
  std::atomic<bool> stop_{false};
};

}  // namespace konobi
