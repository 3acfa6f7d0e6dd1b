// The baseline players (baseline.h).
#include "baseline.h"

#include <stdexcept>
#include <vector>

#include "distance.h"
#include "mcts.h"
#include "record.h"

namespace konobi {

namespace {

template <class Rules, int W>
Move choose(const Game<Rules, W>& game, Baseline kind, uint64_t seed) {
  if (game.over())
    throw std::invalid_argument(std::string("the game is over: ") + color_name(Color(game.winner())) +
                                " has won");
  if (game.must_pass()) return kPass;
  PlayoutRandom rng{seed};
  const auto& s = game.state();
  const Position<W>& pos = game.position();
  const Bitboard<W> legal = game.placements();
  if (kind == Baseline::Random) {
    if (pos.swap_available && rng.below(2) == 1) return kSwap;
    return rng.pick(legal);
  }
  if (pos.swap_available && game_distance<Rules, W>(s, Black) < game_distance<Rules, W>(s, White))
    return kSwap;
  if (const Bitboard<W> wins = Rules::winning(s, legal); wins.any()) return rng.pick(wins);
  const Color me = pos.to_move;
  Bitboard<W> best;
  int best_score = 1 << 30;
  legal.for_each([&](int m) {
    auto q = s;
    Rules::play(q, m);
    const int score = game_distance<Rules, W>(q, me) - game_distance<Rules, W>(q, other(me));
    if (score < best_score) best_score = score, best = Bitboard<W>();
    if (score == best_score) best.set(m);
  });
  return rng.pick(best);
}

}  // namespace

Move baseline_move(const GameRecord& record, Baseline kind, uint64_t seed) {
  return dispatch_game(record.spec, [&](auto rules, const auto& variant, auto w) {
    using Rules = decltype(rules);
    constexpr int W = decltype(w)::value;
    return choose<Rules, W>(replay<Rules, W>(record, variant), kind, seed);
  });
}

}  // namespace konobi
