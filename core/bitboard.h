// A set of board points as W 64-bit words. Point p = row * N + col lives in
// bit p % 64 of word p / 64. Boards up to 8x8 fit one word, which is the
// solver's fast path; the same template serves 19x19 with six words, so every
// rule is written once against this interface.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

namespace konobi {

template <int W>
struct Bitboard {
  static_assert(W >= 1 && W <= 8, "Bitboard supports 1..8 words");
  std::array<uint64_t, W> w{};

  static constexpr Bitboard single(int p) {
    Bitboard b;
    b.w[p >> 6] = uint64_t{1} << (p & 63);
    return b;
  }

  constexpr bool test(int p) const { return (w[p >> 6] >> (p & 63)) & 1; }
  constexpr void set(int p) { w[p >> 6] |= uint64_t{1} << (p & 63); }
  constexpr void reset(int p) { w[p >> 6] &= ~(uint64_t{1} << (p & 63)); }

  constexpr bool any() const {
    uint64_t acc = 0;
    for (int i = 0; i < W; ++i) acc |= w[i];
    return acc != 0;
  }
  constexpr bool none() const { return !any(); }
  constexpr int count() const {
    int c = 0;
    for (int i = 0; i < W; ++i) c += std::popcount(w[i]);
    return c;
  }
  // Lowest set point; undefined on an empty set.
  constexpr int first() const {
    for (int i = 0; i < W; ++i)
      if (w[i]) return i * 64 + std::countr_zero(w[i]);
    return -1;
  }
  constexpr int pop_first() {
    for (int i = 0; i < W; ++i)
      if (w[i]) {
        int p = i * 64 + std::countr_zero(w[i]);
        w[i] &= w[i] - 1;
        return p;
      }
    return -1;
  }
  template <class F>
  constexpr void for_each(F&& f) const {
    for (int i = 0; i < W; ++i)
      for (uint64_t x = w[i]; x; x &= x - 1) f(i * 64 + std::countr_zero(x));
  }

  // Shifts towards higher (shl) or lower (shr) point numbers, 0 < k < 64.
  constexpr Bitboard shl(int k) const {
    Bitboard r;
    for (int i = W - 1; i >= 0; --i) r.w[i] = (w[i] << k) | (i > 0 ? w[i - 1] >> (64 - k) : 0);
    return r;
  }
  constexpr Bitboard shr(int k) const {
    Bitboard r;
    for (int i = 0; i < W; ++i) r.w[i] = (w[i] >> k) | (i + 1 < W ? w[i + 1] << (64 - k) : 0);
    return r;
  }

  constexpr Bitboard operator|(const Bitboard& o) const {
    Bitboard r;
    for (int i = 0; i < W; ++i) r.w[i] = w[i] | o.w[i];
    return r;
  }
  constexpr Bitboard operator&(const Bitboard& o) const {
    Bitboard r;
    for (int i = 0; i < W; ++i) r.w[i] = w[i] & o.w[i];
    return r;
  }
  constexpr Bitboard operator^(const Bitboard& o) const {
    Bitboard r;
    for (int i = 0; i < W; ++i) r.w[i] = w[i] ^ o.w[i];
    return r;
  }
  // Complement within the word array; callers mask with the board.
  constexpr Bitboard operator~() const {
    Bitboard r;
    for (int i = 0; i < W; ++i) r.w[i] = ~w[i];
    return r;
  }
  // a & ~b without materialising the complement.
  constexpr Bitboard minus(const Bitboard& o) const {
    Bitboard r;
    for (int i = 0; i < W; ++i) r.w[i] = w[i] & ~o.w[i];
    return r;
  }
  constexpr Bitboard& operator|=(const Bitboard& o) { return *this = *this | o; }
  constexpr Bitboard& operator&=(const Bitboard& o) { return *this = *this & o; }
  constexpr Bitboard& operator^=(const Bitboard& o) { return *this = *this ^ o; }
  constexpr bool operator==(const Bitboard&) const = default;
};

// Words needed for an N x N board. Only a few widths are instantiated so that
// the binary stays small: 1 (<= 8x8), 2 (<= 11x11), 4 (<= 16x16), 6 (<= 19x19).
constexpr int words_for_size(int n) { return n <= 8 ? 1 : n <= 11 ? 2 : n <= 16 ? 4 : 6; }

}  // namespace konobi
