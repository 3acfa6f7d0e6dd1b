#include "openings.h"

#include <stdexcept>

#include "gonnect.h"

namespace konobi {

const Geometry<1>& opening_geometry(int n, const std::string& game, const std::string& edges) {
  if (n < kMinSize || words_for_size(n) != 1)
    throw std::invalid_argument("size " + std::to_string(n) + " is outside 3..8");
  if (game == "konobi") return Geometry<1>::get(n);
  if (game != "gonnect") throw std::invalid_argument("game '" + game + "' is not konobi or gonnect");
  const auto rule = parse_edge_rule(edges);
  if (!rule) throw std::invalid_argument("edges '" + edges + "' is not either or own");
  GonnectVariant v;
  v.edges = *rule;
  return gonnect_geometry<1>(n, v);
}

}  // namespace konobi
