// A Konobi or Gonnect board state: two stone sets, the side to move, whether
// the pie swap is still open, and one Zobrist key per symmetry kept up to
// date move by move so the canonical key costs 8 xors and a min, not a
// transform of the board.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "assert.h"
#include "geometry.h"

namespace konobi {

template <int W>
struct Position {
  const Geometry<W>* g = nullptr;
  Bitboard<W> stones[2];
  std::array<uint64_t, kSymmetries> keys{};  // stones only, one per symmetry
  Color to_move = Black;
  bool swap_available = false;

  static Position empty(const Geometry<W>& geo) {
    Position pos;
    pos.g = &geo;
    return pos;
  }

  int size() const { return g->n; }
  Bitboard<W> occupied() const { return stones[Black] | stones[White]; }
  Bitboard<W> empty_points() const { return g->board.minus(occupied()); }
  int stone_count() const { return occupied().count(); }
  // -1 empty, else the colour
  int at(int p) const { return stones[Black].test(p) ? Black : stones[White].test(p) ? White : -1; }

  void toggle_stone(Color c, int p) {
    KONOBI_ASSERT(p >= 0 && p < g->cells);
    stones[c] ^= Bitboard<W>::single(p);
    const auto& z = g->zob[c][p];  // the 8 keys side by side: one cache line
    for (int s = 0; s < kSymmetries; ++s) keys[s] ^= z[s];
  }
  // The mover puts a stone on p. The pie swap opens only after Black's first
  // stone on an empty board.
  void place(int p) {
    KONOBI_ASSERT(p >= 0 && p < g->cells && !occupied().test(p));
    swap_available = to_move == Black && occupied().none();
    toggle_stone(to_move, p);
    to_move = other(to_move);
  }
  void pass() {
    swap_available = false;
    to_move = other(to_move);
  }
  // Board and side to move stay; only the players' colours were exchanged.
  void swap() { swap_available = false; }

  uint64_t key() const {
    return keys[0] ^ (to_move == White ? g->side_key : 0) ^ (swap_available ? g->swap_key : 0);
  }
  // The key of the image under symmetry s, without the swap flag.
  uint64_t image_key(int s) const {
    const bool white_moves = (to_move == White) != g->swaps_colors(s);
    return keys[s] ^ (white_moves ? g->side_key : 0);
  }
  // The same for all 8 images of the position (a colour-swapping symmetry also
  // hands the move to the other colour).
  uint64_t canonical_key() const {
    uint64_t best = ~uint64_t{0};
    for (int s = 0; s < kSymmetries; ++s) best = std::min(best, image_key(s));
    return best ^ (swap_available ? g->swap_key : 0);
  }
  // A symmetry whose image gives canonical_key(): a move stored with that
  // key is stored as the image sees it, so that every image reads it back.
  int canonical_symmetry() const {
    int best = 0;
    for (int s = 1; s < kSymmetries; ++s)
      if (image_key(s) < image_key(best)) best = s;
    return best;
  }
  // key() and canonical_key() of the position after the mover places at p,
  // without building it: a search node needs every child's key but builds
  // only the child it descends into.
  uint64_t key_after(int p) const {
    const bool swap_opens = to_move == Black && occupied().none();
    return keys[0] ^ g->zob[to_move][p][0] ^ (to_move == Black ? g->side_key : 0) ^
           (swap_opens ? g->swap_key : 0);
  }
  uint64_t canonical_key_after(int p) const {
    const bool swap_opens = to_move == Black && occupied().none();
    const auto& z = g->zob[to_move][p];
    uint64_t best = ~uint64_t{0};
    for (int s = 0; s < kSymmetries; ++s) {
      const bool white_moves = (to_move == Black) != g->swaps_colors(s);
      best = std::min(best, keys[s] ^ z[s] ^ (white_moves ? g->side_key : 0));
    }
    return best ^ (swap_opens ? g->swap_key : 0);
  }

  // Whether some symmetry other than the identity maps the position onto
  // itself (then some of its moves are equivalent).
  bool is_symmetric() const {
    for (int s = 1; s < kSymmetries; ++s)
      if (image_key(s) == image_key(0)) return true;
    return false;
  }

  // Keys from scratch, for tests and for positions built stone by stone.
  std::array<uint64_t, kSymmetries> recompute_keys() const {
    std::array<uint64_t, kSymmetries> k{};
    for (int c = 0; c < 2; ++c)
      stones[c].for_each([&](int p) {
        for (int s = 0; s < kSymmetries; ++s) k[s] ^= g->zob[c][p][s];
      });
    return k;
  }

  // The image of this position under symmetry s.
  Position transformed(int s) const {
    Position r = empty(*g);
    for (int c = 0; c < 2; ++c)
      stones[c].for_each(
          [&](int p) { r.toggle_stone(g->swaps_colors(s) ? other(Color(c)) : Color(c), g->sym[s][p]); });
    r.to_move = g->swaps_colors(s) ? other(to_move) : to_move;
    r.swap_available = swap_available;
    return r;
  }

  bool operator==(const Position& o) const {
    return g == o.g && stones[0] == o.stones[0] && stones[1] == o.stones[1] && to_move == o.to_move &&
           swap_available == o.swap_available;
  }
};

// The board word count of a game state type, so that templates over a game's
// state can name the board type without being told W.
template <class S>
struct StateWords;
template <int W>
struct StateWords<Position<W>> {
  static constexpr int value = W;
};

}  // namespace konobi
