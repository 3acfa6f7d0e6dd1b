// Black's first moves up to the four symmetries that keep the edge colours
// (the transposing four turn an opening into a White stone with Black to
// move, which is not an opening).
#pragma once

#include <vector>

#include "core/geometry.h"

namespace konobi {

template <int W>
int opening_representative(const Geometry<W>& g, int p) {
  int best = p;
  for (int s = 0; s < 4; ++s) best = std::min<int>(best, g.sym[s][p]);
  return best;
}

// One point per class, in increasing point order.
template <int W>
std::vector<int> opening_classes(const Geometry<W>& g) {
  std::vector<int> reps;
  for (int p = 0; p < g.cells; ++p)
    if (opening_representative(g, p) == p) reps.push_back(p);
  return reps;
}

}  // namespace konobi
