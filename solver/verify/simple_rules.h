// A slow, deliberately naive implementation of Konobi's rules, written
// straight from docs/RULES.md and shared/rules/CLARIFICATIONS.md with plain
// loops over coordinates. It includes nothing from core/ and shares no code
// with it, so that the tests can check the bitboard engine against it and the proof
// checker can verify what the engine proved.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace konobi_ref {

// A plain grid. cell[row * n + col] is '.', 'B' or 'W'; row 0 is the bottom
// row ("1"), col 0 is column a. to_move is 'B' or 'W'.
struct RefBoard {
  int n = 0;
  std::vector<char> cell;
  char to_move = 'B';
};

RefBoard ref_empty(int n);
// Parses a position string: rows from the top, '/' between rows, '.' empty,
// 'B'/'W' stones, then a space and 'b' or 'w'. Throws std::invalid_argument.
RefBoard ref_from_string(const std::string& text);
std::string ref_to_string(const RefBoard& b);
// "c3" <-> point index.
std::string ref_point_name(int n, int p);
int ref_parse_point(int n, const std::string& name);

char ref_other(char color);

// For two DIAGONALLY adjacent points a and b: whether a `color` stone at both
// would be weakly connected, i.e. neither of the two points orthogonally
// adjacent to both of them holds a `color` stone (on the board as given).
bool ref_weakly_connected(const RefBoard& b, int a, int c, char color);

// Whether a `color` stone at empty p would complete a 2x2 block holding two
// diagonal stones of each colour.
bool ref_is_crosscut(const RefBoard& b, int p, char color);

// The weak-connection rule: p would be weakly connected to a `color` stone s
// and some EMPTY point x orthogonally adjacent to s would, with a `color`
// stone at x on the board as it is (without p), be weakly connected to no
// `color` stone at all.
bool ref_weak_rule_forbids(const RefBoard& b, int p, char color);

// Legality of a placement at p for b.to_move.
bool ref_is_legal(const RefBoard& b, int p);
// All legal placements for b.to_move, increasing point order.
std::vector<int> ref_legal(const RefBoard& b);

// Whether `color` has an 8-connected chain joining its two edges: rows 0 and
// n-1 for 'B', columns 0 and n-1 for 'W'.
bool ref_has_winning_chain(const RefBoard& b, char color);

// counts[d] = number of move sequences of length d + 1 (d < depth) from b. A
// mover without a legal placement passes (one move); a placement after which
// the mover has a winning chain is counted but not expanded; no pie swap.
std::vector<uint64_t> ref_perft(RefBoard b, int depth);

}  // namespace konobi_ref
