// Principal variations read back from a solved table: the stored best move
// at each position until the game ends or the table has no entry.
#pragma once

#include <type_traits>
#include <vector>

#include "game_search.h"
#include "movegen.h"
#include "must_play.h"
#include "tt.h"

namespace konobi {

template <class Game, int W>
requires SearchedGame<Game, W> std::vector<Move> game_principal_variation(
    typename Game::template State<W> pos, const TranspositionTable& tt, bool symmetry, int max_len) {
  using State = typename Game::template State<W>;
  std::vector<Move> pv;
  Move hint = -1;  // the winner's answer to a reply outside the must-play region
  while (int(pv.size()) < max_len) {
    const NodeMoves<W> nm = Game::moves(pos);
    if (nm.kind == NodeKind::WinNow) {
      pv.push_back(nm.win);
      break;
    }
    if (nm.kind == NodeKind::PassOnly) {
      pv.push_back(kPass);
      Game::pass(pos);
      continue;
    }
    if (nm.kind == NodeKind::LoseNow) {  // every move lets the opponent win at once
      const Move any = Game::Rules::placements(pos).first();
      if (any < 0) break;  // no move at all: the mover has lost
      pv.push_back(any);
      Game::play(pos, any);
      continue;
    }
    // Our winning move if the table knows one; otherwise the reply that
    // cost the most to refute, the stubbornest defence, among those the
    // table knows: a reply the must-play region left out was never
    // searched, and the line would wander off the proof after it.
    Move proven = -1, fallback = -1;
    int most_work = -1;
    nm.moves.for_each([&](int c) {
      if (proven >= 0) return;
      State q = pos;
      Game::play(q, c);
      const auto fc = tt.probe(Game::key(q, symmetry));
      if (fc.hit && fc.dn == 0) proven = c;
      else if (fc.hit && int(fc.work) > most_work) most_work = fc.work, fallback = c;
    });
    Move next = proven >= 0 ? proven : fallback;
    if constexpr (std::is_same_v<Game, KonobiSearch>) {
      // A position the must-play region settled has no reply in the
      // table: show one reply and the null-move win that refutes it.
      if (next < 0 && hint >= 0 && nm.moves.test(hint)) next = hint;
      hint = -1;
      if (next < 0)
        for_each_null_win(pos, [&](const NullWin<W>& w) {
          const Bitboard<W> outside = Game::Rules::placements(pos).minus(w.zone);
          if (next < 0 && outside.any()) next = outside.first(), hint = w.move;
        });
    }
    if (next < 0) break;
    pv.push_back(next);
    Game::play(pos, next);
  }
  return pv;
}

template <int W>
std::vector<Move> principal_variation(Position<W> pos, const TranspositionTable& tt, bool symmetry,
                                      int max_len) {
  return game_principal_variation<KonobiSearch, W>(pos, tt, symmetry, max_len);
}

}  // namespace konobi
