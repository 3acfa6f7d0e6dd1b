// Everything about an N x N board that depends on N but not on the stones:
// masks for shifting without wrap-around, the edges each colour owns, the 8
// symmetries as point maps, and the Zobrist keys seen through each symmetry.
// Built once per size and shared read-only by every thread.
#pragma once

#include <array>
#include <cstdint>

#include "bitboard.h"
#include "types.h"

namespace konobi {

// Symmetry s: bit 0 mirrors columns, bit 1 mirrors rows, bit 2 then swaps
// rows and columns. In Konobi the four with bit 2 set move Black's edges onto
// White's, so they also exchange the colours (and the side to move). In
// Gonnect, where either pair of edges wins for either colour, a transpose
// keeps the colours; that game uses a second Geometry per size (see
// `transposes_swap_colors` below) so that positions stay one type.
constexpr int kSymmetries = 8;
constexpr bool sym_swaps_colors(int s) { return (s & 4) != 0; }
// The symmetry that undoes s: the mirrors undo themselves; after a
// transpose, undoing the column mirror means mirroring rows, and back.
constexpr int sym_inverse(int s) { return (s & 4) ? 4 | (s & 1) << 1 | (s & 2) >> 1 : s; }

template <int W>
struct Geometry {
  int n = 0;
  int cells = 0;
  Bitboard<W> board;          // every point of the board
  Bitboard<W> not_first_col;  // all but column a
  Bitboard<W> not_last_col;   // all but the last column
  Bitboard<W> edge_lo[2];     // Black: row 1, White: column a
  Bitboard<W> edge_hi[2];     // Black: row N, White: the last column
  std::array<std::array<int16_t, kMaxCells>, kSymmetries> sym{};
  // zob[c][p][s]: key of a c stone at p in the image under symmetry s, i.e.
  // the base key of the mapped colour at the mapped point. The 8 keys of one
  // stone are adjacent because every move updates all of them.
  alignas(64) std::array<std::array<std::array<uint64_t, kSymmetries>, kMaxCells>, 2> zob{};
  uint64_t side_key = 0;  // xor-ed in when White is to move
  uint64_t swap_key = 0;  // xor-ed in while the pie swap is available
  // Whether the transposing symmetries exchange the colours: true for Konobi
  // (and Gonnect with one pair of edges per colour), false for Gonnect's
  // either-pair win. Fixed per instance, so the hot key updates never branch.
  bool transposes_swap_colors = true;

  explicit Geometry(int size, bool transposes_swap_colors = true);
  // One shared instance per size and colour convention.
  static const Geometry& get(int size, bool transposes_swap_colors = true);

  bool swaps_colors(int s) const { return transposes_swap_colors && sym_swaps_colors(s); }

  int row(int p) const { return p / n; }
  int col(int p) const { return p % n; }
  int point(int col, int row) const { return row * n + col; }
  bool on_board(int col, int row) const { return col >= 0 && row >= 0 && col < n && row < n; }

  // The set of points p whose neighbour p + (DX, DY) is in b. Every rule is
  // phrased with this one primitive, which is what lets them run on all
  // points at once.
  template <int DX, int DY>
  [[gnu::always_inline]] Bitboard<W> at(const Bitboard<W>& b) const {
    static_assert(DX >= -1 && DX <= 1 && DY >= -1 && DY <= 1 && (DX || DY));
    // The sign of DY * n + DX is DY's, or DX's on a row, for any n >= 2:
    // deciding the shift's direction at compile time keeps the rules'
    // inner loops free of branches (konobi_legality's code halves).
    constexpr bool down = DY > 0 || (DY == 0 && DX > 0);
    Bitboard<W> r;
    if constexpr (down) r = b.shr(DY * n + DX);
    else r = b.shl(-(DY * n + DX)) & board;
    if constexpr (DX == 1) r &= not_last_col;
    if constexpr (DX == -1) r &= not_first_col;
    return r;
  }

  // b with its 8-neighbourhood: the growth step of a chain flood fill.
  [[gnu::always_inline]] Bitboard<W> grow8(const Bitboard<W>& b) const {
    Bitboard<W> h = b | at<1, 0>(b) | at<-1, 0>(b);
    return h | at<0, 1>(h) | at<0, -1>(h);
  }
  [[gnu::always_inline]] Bitboard<W> orth_neighbours(const Bitboard<W>& b) const {
    return at<1, 0>(b) | at<-1, 0>(b) | at<0, 1>(b) | at<0, -1>(b);
  }
  // The stones of `stones` joined to `seed` by repeated grow() steps: the
  // chain flood fill of both games (8-connected for Konobi, 4 for Gonnect).
  template <class Grow>
  Bitboard<W> flood(const Bitboard<W>& stones, Bitboard<W> seed, Grow&& grow) const {
    Bitboard<W> prev;
    seed &= stones;
    do {
      prev = seed;
      seed = grow(seed) & stones;
    } while (seed != prev);
    return seed;
  }
};

extern template struct Geometry<1>;
extern template struct Geometry<2>;
extern template struct Geometry<4>;
extern template struct Geometry<6>;

// Calls f(std::integral_constant<int, W>{}) with the word count for size n,
// the one place where a run-time size becomes a compile-time board type.
template <class F>
decltype(auto) with_words(int n, F&& f) {
  switch (words_for_size(n)) {
    case 1:
      return f(std::integral_constant<int, 1>{});
    case 2:
      return f(std::integral_constant<int, 2>{});
    case 4:
      return f(std::integral_constant<int, 4>{});
    default:
      return f(std::integral_constant<int, 6>{});
  }
}

}  // namespace konobi
