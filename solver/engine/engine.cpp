// The engine's decisions (engine.h): an immediate win at once; on the boards
// the solver searches, a proof within part of the budget and perfect play
// from it; elsewhere, or without a proof in time, the tree search of mcts.h
// with the rest of the budget. The pie swap and the first move of a game
// under the pie rule are decided from the same search (docs/ENGINE.md).
#include "engine.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <type_traits>
#include <stdexcept>

#include "mcts.h"
#include "prove.h"
#include "record.h"

namespace konobi {

namespace {

using Clock = std::chrono::steady_clock;

std::string percent(double v) { return std::to_string(int(std::lround(100 * v))) + "%"; }

std::string with_commas(long n) {
  std::string s = std::to_string(n), out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i > 0 && (s.size() - i) % 3 == 0) out += ',';
    out += s[i];
  }
  return out;
}

std::string win_in(int remoteness) {
  return remoteness > 0 ? "proven win in " + std::to_string(remoteness) : "proven win";
}

// The proof's budget: with a playout limit, a node count so that the move is
// reproducible; otherwise a share of the time, larger near the end of the
// game where proofs are cheap and the tree search is weakest.
ProofBudget proof_budget(const EngineLimits& limits, int empty_points, const std::atomic<bool>* cancel) {
  ProofBudget b;
  b.table_mb = limits.table_mb;
  b.cancel = cancel;
  if (limits.playouts > 0) {
    b.dfpn_nodes = uint64_t(std::max(2000L, std::min(limits.playouts, 100000000L) * 200));
    b.ab_nodes = b.dfpn_nodes;
  } else {
    b.seconds = limits.seconds * (empty_points <= 30 ? 0.6 : 0.25);
  }
  return b;
}

template <class Rules, int W>
EngineChoice decide(const Game<Rules, W>& game, const typename Rules::Variant& variant,
                    const EngineLimits& limits, const std::atomic<bool>* cancel) {
  const auto t0 = Clock::now();
  if (game.over())
    throw std::invalid_argument(std::string("the game is over: ") + color_name(Color(game.winner())) +
                                " has won");
  if (game.must_pass()) return {kPass, EngineChoice::Unproven, -1, "no legal placement: a forced pass"};
  const auto& s = game.state();
  const Position<W>& pos = game.position();
  const bool pie = pos.swap_available;
  // Black's first stone on an empty board: the opponent may swap it.
  const bool opening = pos.occupied().none();
  const Bitboard<W> legal = game.placements();
  if (const Bitboard<W> wins = Rules::winning(s, legal); wins.any())
    return {wins.first(), EngineChoice::ProvenWin, 1, win_in(1)};

  if constexpr (W == 1) {
    if (solver_applies<Rules, W>(variant) && !opening) {
      const int empty = pos.empty_points().count();
      Prover<Rules> prover(proof_budget(limits, empty, cancel));
      try {
        const Proof p = prover.prove(s);
        if (p.proven && pie && !p.wins)
          return {kSwap, EngineChoice::ProvenWin, p.remoteness >= 0 ? p.remoteness + 1 : -1,
                  "swap: White to move here loses, so taking Black's stone is a " +
                      win_in(p.remoteness >= 0 ? p.remoteness + 1 : -1)};
        if (p.proven && p.wins) return {p.move, EngineChoice::ProvenWin, p.remoteness, win_in(p.remoteness)};
        if (p.proven)
          return {p.move, EngineChoice::ProvenLoss, p.remoteness,
                  p.remoteness > 0 ? "proven loss in " + std::to_string(p.remoteness) + ": resisting"
                                   : "proven loss: resisting"};
      } catch (const DrawFound&) {
        // A position no game reaches (neither side can move): no proof.
      }
    }
  }

  MctsSettings ms;
  ms.playouts = limits.playouts;
  ms.seed = limits.seed;
  ms.cancel = cancel;
  // Gonnect's random playouts wander (captures, long games): cut off after
  // 20 moves and judged by the connection distance, the engine beat the
  // greedy player 12 games of 12 on 9x9 where full playouts won 8 of 20.
  if constexpr (std::is_same_v<Rules, GonnectRules>) ms.cutoff = 20;
  ms.seconds = std::max(0.01, limits.seconds - std::chrono::duration<double>(Clock::now() - t0).count());
  const MctsResult r = Mcts<Rules, W>(s, ms).run();
  const std::string figures = with_commas(r.playouts) + " playouts";
  if (opening && !r.children.empty()) {
    // Under the pie rule the first stone should leave the game as even as
    // possible: the well-explored move whose value is nearest 50%.
    // A search stopped before its first playout has explored nothing: then
    // the tree's best move below, from the evaluation's priors.
    int most = 0;
    for (const MctsChild& c : r.children) most = std::max(most, c.visits);
    const MctsChild* pick = nullptr;
    for (const MctsChild& c : r.children)
      if (c.visits >= std::max(1, most / 10) &&
          (!pick || std::abs(c.value - 0.5) < std::abs(pick->value - 0.5)))
        pick = &c;
    if (pick)
      return {pick->move, EngineChoice::Unproven, -1,
              "opening for the pie rule: " + figures + ", " + percent(pick->value) + " wins after it"};
  }
  if (pie && (r.proven == -1 || (r.proven == 0 && r.value < 0.5)))
    return {kSwap, r.proven == -1 ? EngineChoice::ProvenWin : EngineChoice::Unproven, -1,
            r.proven == -1 ? "swap: White to move here loses, so taking Black's stone is a proven win"
                           : "swap: keeping White wins " + percent(r.value) + " (" + figures + ")"};
  if (r.proven == 1) return {r.best, EngineChoice::ProvenWin, -1, "proven win (" + figures + ")"};
  if (r.proven == -1)
    return {r.best, EngineChoice::ProvenLoss, -1, "proven loss: resisting (" + figures + ")"};
  return {r.best, EngineChoice::Unproven, -1, "no proof: " + figures + ", " + percent(r.value) + " wins"};
}

template <class Rules, int W>
std::vector<MoveAnalysis> analyze(const Game<Rules, W>& game, const typename Rules::Variant& variant,
                                  const EngineLimits& limits, const std::atomic<bool>* cancel) {
  std::vector<MoveAnalysis> out;
  if (game.over()) return out;
  const auto& s = game.state();
  std::vector<Move> moves;
  game.placements().for_each([&](int m) { moves.push_back(m); });
  if (game.must_pass()) moves.push_back(kPass);
  for (Move m : moves) {
    const bool wins = m >= 0 && Rules::wins_by(s, m);
    out.push_back({m, wins ? 1 : 0, wins ? 1 : -1});
  }
  if constexpr (W == 1) {
    if (solver_applies<Rules, W>(variant)) {
      ProofBudget b = proof_budget(limits, 0, cancel);
      if (limits.playouts <= 0) b.seconds = limits.seconds;
      Prover<Rules> prover(b);
      StopRelay relay(b.seconds, cancel, prover.stop_flag());
      // Every value first (df-pn is quick to a verdict), then the
      // remoteness of each with what is left of the time: exact alpha-beta
      // on one table shared by the moves, so that their common lines are
      // searched once. A node limit per move (reproducible in playout
      // mode) keeps one hard move from taking the time of all the others;
      // early in a game the exact remoteness is out of reach (minutes on
      // 5x5 at ply 3, as `konobi analyze --remoteness` shows) and stays
      // unknown.
      for (MoveAnalysis& a : out) {
        if (a.value != 0) continue;
        try {
          a.value = prover.prove_move(s, a.move, false).first;
        } catch (const DrawFound&) {}
      }
      AlphaBeta<1, typename Prover<Rules>::Search> ab(20, &prover.stop_flag());
      for (MoveAnalysis& a : out) {
        if (a.value == 0 || a.remoteness >= 0) continue;
        auto q = s;
        board_of(q).swap_available = false;  // as prove_move sees it
        if (a.move == kPass) Rules::pass(q);
        else Rules::play(q, a.move);
        ab.set_node_limit(ab.nodes() + (limits.playouts > 0 ? b.ab_nodes : 5 * b.ab_nodes));
        try {
          a.remoteness = remoteness_of(ab.score(q)) + 1;
        } catch (const SearchStopped&) {
          if (prover.stop_flag()) break;  // the time is up
        }
      }
    }
  }
  return out;
}

template <class Rules, int W>
std::vector<Move> line(const Game<Rules, W>& game, const typename Rules::Variant& variant,
                       const EngineLimits& limits, const std::atomic<bool>* cancel) {
  if (game.over()) return {};
  const auto& s = game.state();
  if (const Bitboard<W> wins = Rules::winning(s, game.placements()); wins.any()) return {wins.first()};
  if constexpr (W == 1) {
    if (solver_applies<Rules, W>(variant)) {
      ProofBudget b = proof_budget(limits, 0, cancel);
      if (limits.playouts <= 0) b.seconds = limits.seconds;
      try {
        const Proof p = Prover<Rules>(b).prove(s);
        if (p.proven && p.wins) return p.line;
        if (p.proven && game.position().swap_available) {
          std::vector<Move> r{kSwap};
          r.insert(r.end(), p.line.begin(), p.line.end());
          return r;
        }
      } catch (const DrawFound&) {}
    }
  }
  return {};
}

}  // namespace

EngineChoice engine_move(const GameRecord& record, const EngineLimits& limits,
                         const std::atomic<bool>* cancel) {
  return dispatch_game(record.spec, [&](auto rules, const auto& variant, auto w) {
    using Rules = decltype(rules);
    constexpr int W = decltype(w)::value;
    return decide<Rules, W>(replay<Rules, W>(record, variant), variant, limits, cancel);
  });
}

std::vector<MoveAnalysis> analyze_moves(const GameRecord& record, const EngineLimits& limits,
                                        const std::atomic<bool>* cancel) {
  return dispatch_game(record.spec, [&](auto rules, const auto& variant, auto w) {
    using Rules = decltype(rules);
    constexpr int W = decltype(w)::value;
    return analyze<Rules, W>(replay<Rules, W>(record, variant), variant, limits, cancel);
  });
}

std::vector<Move> winning_line(const GameRecord& record, const EngineLimits& limits,
                               const std::atomic<bool>* cancel) {
  return dispatch_game(record.spec, [&](auto rules, const auto& variant, auto w) {
    using Rules = decltype(rules);
    constexpr int W = decltype(w)::value;
    return line<Rules, W>(replay<Rules, W>(record, variant), variant, limits, cancel);
  });
}

}  // namespace konobi
