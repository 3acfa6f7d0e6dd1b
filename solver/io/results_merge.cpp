#include "results_merge.h"

#include <stdexcept>

namespace konobi {

int proven_openings(const Results& r) {
  int n = 0;
  for (const OpeningResult& o : r.openings) n += o.solved;
  return n;
}

std::string results_over(Results& ours, const std::optional<std::string>& old, const std::string& path) {
  if (old) {
    Results theirs;
    bool readable = true;
    try {
      theirs = Results::from_json(*old, path);
    } catch (const std::exception&) {
      readable = false;  // not a results file: nothing proven to keep
    }
    if (readable && proven_openings(theirs) > 0) {
      if (theirs.game != ours.game || theirs.size != ours.size || theirs.ko_rule != ours.ko_rule ||
          theirs.edges != ours.edges || theirs.ghi != ours.ghi ||
          theirs.openings.size() != ours.openings.size())
        throw std::runtime_error(
            "not replacing " + path + ": it now holds " + std::to_string(proven_openings(theirs)) +
            " proven openings of a " + theirs.game + " " + std::to_string(theirs.size) + "x" +
            std::to_string(theirs.size) + " solve with other rules or size; give another --out");
      for (size_t i = 0; i < ours.openings.size(); ++i)
        if (theirs.openings[i].solved && !ours.openings[i].solved &&
            theirs.openings[i].point == ours.openings[i].point)
          ours.openings[i] = theirs.openings[i];
    }
  }
  return ours.to_json();
}

}  // namespace konobi
