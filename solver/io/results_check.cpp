#include "results_check.h"

#include <map>
#include <stdexcept>
#include <string>

#include "core/notation.h"
#include "core/openings.h"
#include "results.h"

namespace konobi {

namespace {

std::string field(int p, const char* name) { return "openings[" + std::to_string(p) + "]." + name; }

// Whether every opening's class is the representative of its point in g.
bool grouped_by(const Results& r, const Geometry<1>& g) {
  for (int p = 0; p < g.cells; ++p)
    if (r.openings[p].representative != point_name(r.size, opening_representative(g, p))) return false;
  return true;
}

std::string rule_text(const Geometry<1>& g) {
  return g.transposes_swap_colors
             ? "the 4 symmetries that keep the colours (mirrors and the half turn)"
             : "all 8 symmetries (Gonnect with either edges: a transpose keeps the colours)";
}

}  // namespace

void check_results(Results& r) {
  const Geometry<1>* gp = nullptr;
  try {
    gp = &opening_geometry(r.size, r.game, r.game == "gonnect" ? r.edges : "");
  } catch (const std::invalid_argument& e) { throw std::runtime_error(e.what()); }
  const Geometry<1>& g = *gp;
  const int n = r.size;
  if (int(r.openings.size()) != g.cells)
    throw std::runtime_error("it lists " + std::to_string(r.openings.size()) + " openings, not " +
                             std::to_string(g.cells));
  for (int p = 0; p < g.cells; ++p) {
    const std::string& name = r.openings[p].point;
    if (name == point_name(n, p)) continue;
    int q = -1;
    try {
      q = parse_point(n, name);
    } catch (const ParseError&) {}
    if (q < 0)
      throw std::runtime_error(field(p, "point") + " is '" + name + "', which is not a point of the " +
                               std::to_string(n) + "x" + std::to_string(n) + " board (expected " +
                               point_name(n, p) + ")");
    throw std::runtime_error(field(p, "point") + " is " + name + ", expected " + point_name(n, p) +
                             ": the openings must be listed in point order a1, b1, ..., row by row");
  }
  // One value per class, under the game's rule (the old grouping of a
  // Gonnect file is finer, so this covers it too).
  for (int p = 0; p < g.cells; ++p) {
    const OpeningResult& o = r.openings[p];
    if (!o.solved) continue;
    for (int q = 0; q < p; ++q) {
      const OpeningResult& x = r.openings[q];
      if (x.solved && x.winner != o.winner && opening_representative(g, q) == opening_representative(g, p))
        throw std::runtime_error(field(p, "winner") + " is " + o.winner + " for " + o.point + ", but " +
                                 x.winner + " for " + x.point + " in the same class (" +
                                 point_name(n, opening_representative(g, p)) + ", under " + rule_text(g) +
                                 ")");
    }
  }
  if (grouped_by(r, g)) return;
  if (!g.transposes_swap_colors && grouped_by(r, Geometry<1>::get(n, true))) {
    regroup_openings(r, g);
    r.regrouped_on_read = true;
    return;
  }
  for (int p = 0; p < g.cells; ++p) {
    const std::string rep = point_name(n, opening_representative(g, p));
    if (r.openings[p].representative != rep)
      throw std::runtime_error(
          field(p, "class") + " is '" + r.openings[p].representative + "' for " + r.openings[p].point +
          ", but its class representative under " + rule_text(g) + " is " + rep +
          (g.transposes_swap_colors ? ""
                                    : " (a file grouped by the 4 mirror symmetries is read "
                                      "re-grouped only when every class follows that rule)"));
  }
}

void regroup_openings(Results& r, const Geometry<1>& g) {
  const int n = g.n;
  const std::vector<OpeningResult> old = r.openings;
  for (int rep : opening_classes(g)) {
    const std::vector<int> points = opening_class_points(g, rep);
    int source = -1;
    for (int p : points)
      if (old[p].solved && (source < 0 || p == rep)) source = p;
    if (source >= 0) {
      for (int p : points) {
        const int s = opening_symmetry_between(g, source, p);
        OpeningResult o = old[source];
        o.point = point_name(n, p);
        o.continuation.clear();
        for (const std::string& name : old[source].continuation)
          o.continuation.push_back(move_name(n, symmetric_move(g, s, parse_move(n, name))));
        o.representative = point_name(n, rep);
        r.openings[p] = o;
      }
      continue;
    }
    // Unsolved: each old class's effort once (its points carry copies).
    std::map<std::string, const OpeningResult*> merged;
    for (int p : points) merged.emplace(old[p].representative, &old[p]);
    unsigned long long nodes = 0;
    double seconds = 0;
    for (const auto& [name, o] : merged) nodes += o->nodes, seconds += o->seconds;
    for (int p : points) {
      OpeningResult& o = r.openings[p];
      o.representative = point_name(n, rep);
      o.nodes = nodes;
      o.seconds = seconds;
      o.pn = old[rep].pn;
      o.dn = old[rep].dn;
    }
  }
}

}  // namespace konobi
