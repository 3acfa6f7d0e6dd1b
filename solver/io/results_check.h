// What a results file must satisfy beyond its JSON shape, checked whenever
// one is read (Results::from_json: solve --resume, pie, the paper): the
// openings in point order, each naming the representative of its class
// under the game's symmetry rule (core/openings.h), and one value per class.
#pragma once

#include "core/geometry.h"

namespace konobi {

struct Results;

// Throws std::runtime_error naming the field and the reason: openings not
// listed in point order a1, b1, ... row by row, a point name that is not the
// one of its place in the list, a `class` that is not the representative of
// the point's class, and solved winners that differ within one class (the
// loader has checked each field's own form, continuation moves included). A Gonnect `--edges either` file
// written while its openings were grouped by the four mirror symmetries
// only (every `class` as that rule gives it) is accepted and re-grouped
// under all 8 symmetries by regroup_openings.
void check_results(Results& r);

// Gives every opening the class of opening_representative(g, point) and the
// result of its class: that of the representative when it is solved, else
// of the first solved point of the class, mapped onto each point (its
// continuation's moves) by the symmetry between them. A class with no
// solved point sums the effort of the old classes it joins, taking the
// proof and disproof numbers of its representative's old class. Winners
// must already agree within each class (check_results sees to it).
void regroup_openings(Results& r, const Geometry<1>& g);

}  // namespace konobi
