// Pictures of a board as self-contained SVG 1.1: the board from the
// players' view as in the text diagrams (row N on top, columns a.. from the
// left, coordinates on all four sides), Black's edges (top and bottom) and
// White's edges (left and right) as coloured bands, one <circle> per stone
// and nothing else drawn as a circle, optional marks (last move, solution,
// illegal points) and optional per-point values (an opening map's winner,
// an analysis' win or loss with remoteness). Generic font families only.
#pragma once

#include <string>
#include <vector>

namespace konobi {

enum class SvgMark {
  None,
  LastMove,     // a small square on the stone just played
  Solution,     // a diamond on the point to play
  WeakIllegal,  // a bar: illegal by the weak-connection rule
  Crosscut,     // a cross: illegal by the crosscut rule
};

struct SvgValue {
  enum Side { None = -1, Black = 0, White = 1, Unknown = 2 };
  int side = None;   // whose win the point stands for (tints the point)
  std::string text;  // a short label drawn on the point, e.g. "B", "W", "L7"
};

struct SvgBoard {
  int n = 0;
  std::vector<int> cells;          // by point, row by row from a1: -1 empty, 0 Black, 1 White
  std::vector<SvgMark> marks;      // empty, or one per point
  std::vector<SvgValue> values;    // empty, or one per point
  std::string title;               // a line above the board ("" for none)
  std::vector<std::string> notes;  // lines of text below the board
};

// The SVG document (XML declaration included). Text is escaped.
std::string render_svg(const SvgBoard& board);

// Escapes &, <, >, " and ' for XML text and attribute values.
std::string xml_escape(const std::string& text);

}  // namespace konobi
