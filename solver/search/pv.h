// Principal variations read back from a solved table: the stored best move
// at each position until the game ends or the table has no entry.
#pragma once

#include <vector>

#include "movegen.h"
#include "tt.h"

namespace konobi {

template <int W>
std::vector<Move> principal_variation(Position<W> pos, const TranspositionTable& tt, bool symmetry, int max_len) {
  std::vector<Move> pv;
  while (int(pv.size()) < max_len) {
    const NodeMoves<W> nm = node_moves(pos);
    if (nm.kind == NodeKind::WinNow) {
      pv.push_back(nm.win);
      break;
    }
    if (nm.kind == NodeKind::PassOnly) {
      pv.push_back(kPass);
      pos.pass();
      continue;
    }
    if (nm.kind == NodeKind::LoseNow) {  // every move lets the opponent win at once
      const Move any = konobi_legal_placements(pos).first();
      pv.push_back(any);
      pos.place(any);
      continue;
    }
    // Our winning move if the table knows one; otherwise the reply that
    // cost the most to refute, the stubbornest defence.
    Move proven = -1, fallback = -1;
    int most_work = -1;
    nm.moves.for_each([&](int c) {
      if (proven >= 0) return;
      Position<W> q = pos;
      q.place(c);
      const auto fc = tt.probe(symmetry ? q.canonical_key() : q.key());
      if (fc.hit && fc.dn == 0) proven = c;
      else if (int(fc.work) > most_work) most_work = fc.work, fallback = c;
    });
    const Move next = proven >= 0 ? proven : fallback;
    if (next < 0) break;
    pv.push_back(next);
    pos.place(next);
  }
  return pv;
}

}  // namespace konobi
