// A slow, deliberately naive implementation of Gonnect's rules, written
// straight from docs/GONNECT.md with plain loops over coordinates and its own
// flood fill. Like simple_rules.h it includes nothing from core/, so that the
// tests can check the bitboard engine against it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace konobi_ref {

// A board plus what the ko rules need: every earlier board, oldest first.
// cell[row * n + col] is '.', 'B' or 'W'.
struct RefGo {
  int n = 0;
  std::vector<char> cell;
  char to_move = 'B';
  bool superko = true;                     // false: the text's ko rule only
  bool own_edges = false;                  // true: Black top-bottom, White left-right
  std::vector<std::vector<char>> earlier;  // boards before this one
};

RefGo ref_go_empty(int n, bool superko, bool own_edges);
// The board after the mover plays empty point p, with captures, or an empty
// vector when the placement is suicide. Ignores ko.
std::vector<char> ref_go_board_after(const RefGo& g, int p);
// Legal placements for the mover, increasing point order.
std::vector<int> ref_go_legal(const RefGo& g);
// Plays a legal placement.
RefGo ref_go_play(const RefGo& g, int p);
// Whether `color` has a chain joining a pair of edges it may join.
bool ref_go_has_winning_chain(const RefGo& g, char color);
// The board as rows from the top with coordinates, and who is to move.
std::string ref_go_diagram(const RefGo& g);
// counts[d] = number of move sequences of length d + 1 (d < depth); a
// placement that wins is counted but not expanded; a mover without a legal
// placement has no moves (and loses); no pie swap.
std::vector<uint64_t> ref_go_perft(const RefGo& g, int depth);

}  // namespace konobi_ref
