// Proven positions written into the transposition table before a search
// starts, from the entry lines of proof pieces (proof_pieces.h): "position
// move", the position won by its side to move with that move.
//
// Why: a class carried over many runs starts each run on an empty table,
// while its pieces hold millions of positions that earlier runs proved,
// the strategies of the nodes the job manager proved near the class root.
// The open nodes beside them reach many of those positions again by
// another move order (a reply and a later move swapped), and a cold
// table searches each of them again. Written into the table as proven
// wins with their moves, they answer at once, as they would have in the
// run that proved them, and df-pn's replays of refutations follow them.
//
// Only Konobi's entries name a position; Gonnect's name the game that
// reaches it, whose table key needs the history, so none are seeded.
// Nothing here is trusted beyond the run: a value seeded wrongly would show
// as a proof that verify-proof refuses, as any piece would.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/game.h"
#include "core/notation.h"
#include "game_search.h"
#include "tt.h"

namespace konobi {

// Writes the entry line's position into tt as won by its mover, with the
// line's move as its winning move (in the table's orientation, table_move),
// and the least work a proven entry has, so that positions the search
// itself spent work on are kept before these when a bucket is full.
// Returns false, writing nothing, for a line that is not a position of
// geometry g with an empty point or pass as its move.
template <int W>
bool seed_proven_line(TranspositionTable& tt, const Geometry<W>& g, std::string_view line, bool symmetry) {
  const size_t space = line.rfind(' ');
  if (space == std::string_view::npos) return false;
  Position<W> pos;
  Move m = kPass;
  try {
    const PositionText t = parse_position(line.substr(0, space));
    if (t.n != g.n || t.swap_available) return false;
    m = parse_move(t.n, line.substr(space + 1));
    pos = from_text<W>(t, &g);
  } catch (const ParseError&) { return false; }
  if (m != kPass && (m < 0 || !pos.empty_points().test(m))) return false;
  tt.store(KonobiSearch::key(pos, symmetry), 0, kInf, int8_t(table_move<KonobiSearch, W>(pos, m, symmetry)),
           1);
  return true;
}

}  // namespace konobi
