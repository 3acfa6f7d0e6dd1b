// The few value types every layer shares.
#pragma once

#include <cstdint>

namespace konobi {

enum Color : uint8_t { Black = 0, White = 1 };
constexpr Color other(Color c) { return Color(c ^ 1); }
constexpr const char* color_name(Color c) { return c == Black ? "Black" : "White"; }

// A move is a point index (row * N + col, row 0 at the bottom) or one of the
// two non-placements. Kept as a plain int so move lists stay flat arrays.
using Move = int;
// splitmix64's finaliser: every input bit reaches every output bit, for
// hash tables of keys and for hashing sets of keys.
constexpr uint64_t mix64(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

constexpr Move kPass = -1;
constexpr Move kSwap = -2;

constexpr int kMinSize = 3;
constexpr int kMaxSize = 19;
constexpr int kMaxCells = kMaxSize * kMaxSize;

}  // namespace konobi
