#include "geometry.h"

#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include <xxhash.h>

namespace konobi {

namespace {
// Keys come from hashing their own description, so they are the same on
// every machine and build without a stored table or a PRNG state.
uint64_t key_for(int n, int what, int color, int point) {
  const int32_t data[4] = {n, what, color, point};
  return XXH3_64bits_withSeed(data, sizeof data, 0x4b6f6e6f6269ull /* "Konobi" */);
}
}  // namespace

template <int W>
Geometry<W>::Geometry(int size, bool transposes_swap)
    : n(size), cells(size * size), transposes_swap_colors(transposes_swap) {
  if (size < kMinSize || size > kMaxSize || words_for_size(size) != W)
    throw std::invalid_argument("board size " + std::to_string(size) + " is not supported");
  for (int p = 0; p < cells; ++p) {
    const int x = p % n, y = p / n;
    board.set(p);
    if (x != 0) not_first_col.set(p);
    if (x != n - 1) not_last_col.set(p);
    if (y == 0) edge_lo[Black].set(p);
    if (y == n - 1) edge_hi[Black].set(p);
    if (x == 0) edge_lo[White].set(p);
    if (x == n - 1) edge_hi[White].set(p);
  }
  uint64_t base[2][kMaxCells];
  for (int c = 0; c < 2; ++c)
    for (int p = 0; p < cells; ++p) base[c][p] = key_for(n, 0, c, p);
  side_key = key_for(n, 1, 0, 0);
  swap_key = key_for(n, 2, 0, 0);
  for (int s = 0; s < kSymmetries; ++s) {
    for (int p = 0; p < cells; ++p) {
      int x = p % n, y = p / n;
      if (s & 1) x = n - 1 - x;
      if (s & 2) y = n - 1 - y;
      if (s & 4) std::swap(x, y);
      const int q = y * n + x;
      sym[s][p] = int16_t(q);
      for (int c = 0; c < 2; ++c) zob[c][p][s] = base[swaps_colors(s) ? c ^ 1 : c][q];
    }
  }
}

template <int W>
const Geometry<W>& Geometry<W>::get(int size, bool transposes_swap) {
  static std::unique_ptr<Geometry> table[2][kMaxSize + 1];
  static std::once_flag once[2][kMaxSize + 1];
  if (size < kMinSize || size > kMaxSize || words_for_size(size) != W)
    throw std::invalid_argument("board size " + std::to_string(size) + " is not supported");
  const int t = transposes_swap ? 1 : 0;
  std::call_once(once[t][size], [&] { table[t][size] = std::make_unique<Geometry>(size, transposes_swap); });
  return *table[t][size];
}

template struct Geometry<1>;
template struct Geometry<2>;
template struct Geometry<4>;
template struct Geometry<6>;

}  // namespace konobi
