// Black's first moves grouped into classes by the board symmetries that map
// an opening onto an opening, the one rule that solve, the results files,
// the pie report and the paper share. A symmetry does that when it keeps the
// colours (a symmetry that swaps them turns Black's first stone into a White
// stone with Black to move, which is not an opening). So Konobi, and Gonnect
// with `--edges own`, group by the four that keep the edges of each colour
// (identity, the two mirror flips, the half turn); Gonnect with `--edges
// either`, where a transpose keeps every rule and both colours, by all 8.
// The geometry knows which: it is the one the game keys its positions with.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "geometry.h"
#include "types.h"

namespace konobi {

// Whether symmetry s maps an opening of g's game onto an opening.
template <int W>
bool opening_symmetry(const Geometry<W>& g, int s) {
  return !g.swaps_colors(s);
}

// The smallest point of p's class: the point that is searched for it and
// names it in results files and proofs.
template <int W>
int opening_representative(const Geometry<W>& g, int p) {
  int best = p;
  for (int s = 0; s < kSymmetries; ++s)
    if (opening_symmetry(g, s)) best = std::min<int>(best, g.sym[s][p]);
  return best;
}

// An opening symmetry taking point `from` to point `to` (the first in
// symmetry order), or -1 when they are in different classes. Moves played
// after `from` map to the same game after `to` by this symmetry, colours
// kept.
template <int W>
int opening_symmetry_between(const Geometry<W>& g, int from, int to) {
  for (int s = 0; s < kSymmetries; ++s)
    if (opening_symmetry(g, s) && g.sym[s][from] == to) return s;
  return -1;
}

// The image of move m (a point or a pass) under symmetry s: how a line
// played after one opening reads after another of its class.
template <int W>
Move symmetric_move(const Geometry<W>& g, int s, Move m) {
  return m >= 0 ? Move(g.sym[s][m]) : m;
}

// One point per class, in increasing point order.
template <int W>
std::vector<int> opening_classes(const Geometry<W>& g) {
  std::vector<int> reps;
  for (int p = 0; p < g.cells; ++p)
    if (opening_representative(g, p) == p) reps.push_back(p);
  return reps;
}

// The points of the class whose representative is rep, in point order.
template <int W>
std::vector<int> opening_class_points(const Geometry<W>& g, int rep) {
  std::vector<int> points;
  for (int p = 0; p < g.cells; ++p)
    if (opening_representative(g, p) == rep) points.push_back(p);
  return points;
}

// The geometry of a game as results files name it ("konobi", or "gonnect"
// with its edge rule "either" or "own"), for code that learns the game at
// run time. Sizes 3 to 8, the boards solve works on. Throws
// std::invalid_argument naming an unknown game, edge rule or size.
const Geometry<1>& opening_geometry(int n, const std::string& game, const std::string& edges);

}  // namespace konobi
