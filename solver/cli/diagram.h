// Text diagrams of a board: row numbers on both sides, top row first, column
// letters above and below, Black's edges drawn as '=' rules above and below,
// White's as '|' at the sides.
#pragma once

#include <string>
#include <vector>

#include "core/position.h"

namespace konobi {

// marks: per point, a character to draw instead of '.' on an empty point
// (or instead of the stone when upper case), '\0' for none.
std::string render_board(int n, const std::vector<int>& cells, const std::vector<char>& marks = {});

template <int W>
std::string render_board(const Position<W>& pos, const std::vector<char>& marks = {}) {
  std::vector<int> cells(pos.g->cells);
  for (int p = 0; p < pos.g->cells; ++p) cells[p] = pos.at(p);
  return render_board(pos.size(), cells, marks);
}

}  // namespace konobi
