#include "pie.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>
#include <stdexcept>

#include "core/notation.h"
#include "solver/io/atomic_file.h"
#include "solver/search/alphabeta.h"

namespace konobi {

int PieReport::solved() const {
  int k = 0;
  for (const auto& o : openings) k += o.solved;
  return k;
}
int PieReport::black_wins() const {
  int k = 0;
  for (const auto& o : openings) k += o.solved && o.winner == "black";
  return k;
}
int PieReport::white_wins() const {
  int k = 0;
  for (const auto& o : openings) k += o.solved && o.winner == "white";
  return k;
}
int PieReport::classes() const {
  int k = 0;
  for (const auto& o : openings) k += o.point == o.cls;
  return k;
}

std::vector<const PieOpening*> PieReport::hardest() const {
  std::vector<const PieOpening*> v;
  for (const auto& o : openings)
    if (o.solved && o.point == o.cls) v.push_back(&o);
  std::stable_sort(v.begin(), v.end(), [](const PieOpening* a, const PieOpening* b) {
    if (a->proof_size != b->proof_size) return a->proof_size > b->proof_size;
    return a->nodes > b->nodes;
  });
  return v;
}

std::string PieReport::verdict() const {
  if (complete())
    return "with perfect play the second player wins under the pie rule: White swaps after each of the " +
           std::to_string(black_wins()) + " winning openings and plays on after each of the " +
           std::to_string(white_wins()) + " losing ones";
  return "unknown: " + std::to_string(openings.size() - solved()) + " of " + std::to_string(openings.size()) +
         " openings are not proven yet (the second player wins as soon as every opening is known)";
}

std::string PieReport::losing_share() const {
  const int of = complete() ? int(openings.size()) : solved();
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.1f%%", of ? 100.0 * white_wins() / of : 0.0);
  return std::to_string(white_wins()) + " of " + std::to_string(of) + (complete() ? "" : " proven") + " (" +
         pct + ")";
}

Results load_results_file(const std::string& path, int expected_size) {
  const std::string text = read_file(path);  // names the path when missing
  Results r = Results::from_json(text, path);
  const std::string where = path + " is not a valid results file: ";
  if (r.game != "konobi") throw std::runtime_error(where + "game '" + r.game + "' is not konobi");
  if (r.size < kPieMinSize || r.size > kPieMaxSize)
    throw std::runtime_error(where + "size " + std::to_string(r.size) + " is outside 3..8");
  if (expected_size && r.size != expected_size)
    throw std::runtime_error(path + " holds size " + std::to_string(r.size) + ", not " +
                             std::to_string(expected_size));
  // The openings' order, classes and values were checked by from_json
  // (check_results, solver/io/results_check.h).
  return r;
}

PieReport make_pie_report(const Results& r, const std::string& file, uint64_t remoteness_nodes) {
  PieReport rep;
  rep.size = r.size;
  rep.file = file;
  rep.nodes = r.nodes;
  rep.seconds = r.seconds;
  rep.commit = r.provenance.commit;
  rep.remoteness_nodes = remoteness_nodes;
  const int n = r.size;
  const Geometry<1>& g = Geometry<1>::get(n);
  std::map<std::string, int> remoteness;  // per class
  for (int p = 0; p < g.cells; ++p) {
    const OpeningResult& o = r.openings[p];
    PieOpening x;
    x.point = o.point;
    x.cls = o.representative;
    x.solved = o.solved;
    if (o.solved) {
      x.winner = o.winner;
      x.swap = o.swap();
      x.nodes = o.nodes;
      x.proof_size = o.proof_size;
    }
    if (remoteness_nodes && o.solved && o.point == o.representative) {
      Position<1> pos = Position<1>::empty(g);
      pos.place(p);
      pos.swap_available = false;
      AlphaBeta<1> ab(20);
      ab.set_node_limit(remoteness_nodes);
      try {
        const int s = ab.score(pos);  // for White, to move
        const std::string winner = s > 0 ? "white" : "black";
        if (winner != o.winner)
          throw std::runtime_error(file + ": alpha-beta finds that " + winner + " wins after " + o.point +
                                   ", the file says " + o.winner);
        remoteness[o.point] = remoteness_of(s);
      } catch (const SearchStopped&) {}
    }
    rep.openings.push_back(x);
  }
  for (auto& x : rep.openings)
    if (auto it = remoteness.find(x.cls); it != remoteness.end() && x.solved) x.remoteness = it->second;
  return rep;
}

std::string results_path(const std::string& dir, int n) {
  return (std::filesystem::path(dir) / ("konobi-" + std::to_string(n) + "x" + std::to_string(n) + ".json"))
      .string();
}

std::vector<int> results_sizes(const std::string& dir) {
  std::vector<int> sizes;
  for (int n = kPieMinSize; n <= kPieMaxSize; ++n)
    if (std::filesystem::exists(results_path(dir, n))) sizes.push_back(n);
  return sizes;
}

PieReport load_pie_report(const std::string& dir, int n, uint64_t remoteness_nodes) {
  const std::string path = results_path(dir, n);
  return make_pie_report(load_results_file(path, n), path, remoteness_nodes);
}

std::string opening_map_file(int n) {
  return "opening-map-" + std::to_string(n) + "x" + std::to_string(n) + ".svg";
}

SvgBoard opening_map_svg(const PieReport& rep) {
  SvgBoard b;
  const int n = rep.size;
  b.n = n;
  b.cells.assign(n * n, -1);
  b.values.resize(n * n);
  for (int p = 0; p < n * n; ++p) {
    const PieOpening& o = rep.openings[p];
    b.values[p].side = !o.solved             ? SvgValue::Unknown
                       : o.winner == "black" ? SvgValue::Black
                                             : SvgValue::White;
    b.values[p].text = !o.solved ? "?" : o.winner == "black" ? "B" : "W";
  }
  const std::string nn = std::to_string(n) + "x" + std::to_string(n);
  b.title = "Konobi " + nn + ": Black's first stone";
  b.notes.push_back("B: Black wins, White swaps. W: White wins.");
  b.notes.push_back("Losing openings: " + rep.losing_share() + ".");
  b.notes.push_back(rep.complete() ? "Pie rule: the second player wins." : "Pie rule: not yet known.");
  return b;
}

namespace {

std::string map_text(const PieReport& rep) {
  const int n = rep.size;
  std::ostringstream s;
  s << "     ";
  for (int c = 0; c < n; ++c) s << ' ' << char('a' + c);
  s << "\n";
  for (int r = n - 1; r >= 0; --r) {
    s << (r + 1 < 10 ? "   " : "  ") << r + 1 << " ";
    for (int c = 0; c < n; ++c) {
      const PieOpening& o = rep.openings[r * n + c];
      s << ' ' << (!o.solved ? '?' : o.winner == "black" ? 'B' : 'W');
    }
    s << "\n";
  }
  return s.str();
}

std::string remoteness_text(const PieOpening& o) {
  return o.remoteness < 0 ? "-" : std::to_string(o.remoteness);
}

}  // namespace

std::string pie_text(const PieReport& rep) {
  const int n = rep.size;
  std::ostringstream s;
  s << "Konobi " << n << "x" << n << " under the pie rule (" << rep.file << ", "
    << (rep.complete() ? "complete"
                       : "partial: " + std::to_string(rep.solved()) + " of " +
                             std::to_string(rep.openings.size()) + " openings proven")
    << ")\n";
  s << "Opening map, Black's first stone (B: Black wins, White swaps; W: White wins, plays on; ?: unknown):\n"
    << map_text(rep);
  s << "\nopening  class  winner  swap  proof size       nodes  remoteness\n";
  char line[160];
  for (const PieOpening& o : rep.openings) {
    if (!o.solved) {
      std::snprintf(line, sizeof line, "%-7s  %-5s  %-6s  %-4s  %10s  %10s  %10s\n", o.point.c_str(),
                    o.cls.c_str(), "?", "?", "-", "-", "-");
    } else {
      std::snprintf(line, sizeof line, "%-7s  %-5s  %-6s  %-4s  %10llu  %10llu  %10s\n", o.point.c_str(),
                    o.cls.c_str(), o.winner.c_str(), o.swap ? "yes" : "no", o.proof_size, o.nodes,
                    remoteness_text(o).c_str());
    }
    s << line;
  }
  s << "(proof size: positions where the winner moves in the proof; nodes: df-pn nodes of the class;\n"
    << " remoteness: plies after Black's first stone with best play, by alpha-beta "
    << (rep.remoteness_nodes
            ? "within " + std::to_string(rep.remoteness_nodes) + " nodes per class, '-' over it"
            : "(not computed; --remoteness-nodes N)")
    << ")\n\n";
  s << "Winning openings (White swaps): " << rep.black_wins() << "\n";
  s << "Losing openings (White plays on): " << rep.white_wins() << "\n";
  if (!rep.complete()) s << "Unknown openings: " << rep.openings.size() - rep.solved() << "\n";
  s << "Share of losing openings: " << rep.losing_share() << "\n";
  const auto hard = rep.hardest();
  s << "Most work (one opening per symmetry class):";
  for (size_t i = 0; i < hard.size() && i < 3; ++i)
    s << (i ? "; " : " ") << hard[i]->point << " (" << (hard[i]->winner == "white" ? "refutation" : "win")
      << ", proof size " << hard[i]->proof_size << ", " << hard[i]->nodes << " nodes, remoteness "
      << remoteness_text(*hard[i]) << ")";
  s << (hard.empty() ? " none proven\n" : "\n");
  s << "Verdict: " << rep.verdict() << ".\n";
  return s.str();
}

Json pie_json(const PieReport& rep) {
  Json j = {{"size", rep.size},
            {"file", rep.file},
            {"complete", rep.complete()},
            {"openings_total", int(rep.openings.size())},
            {"openings_solved", rep.solved()},
            {"openings_black_wins", rep.black_wins()},
            {"openings_white_wins", rep.white_wins()},
            {"losing_share", rep.losing_share()},
            {"second_player_wins", rep.complete() ? Json(true) : Json(nullptr)},
            {"verdict", rep.verdict()},
            {"remoteness_nodes", (unsigned long long)rep.remoteness_nodes}};
  Json& hardest = j["hardest"] = Json::array();
  const auto hard = rep.hardest();
  for (size_t i = 0; i < hard.size() && i < 3; ++i) hardest.push_back(hard[i]->point);
  Json& list = j["openings"] = Json::array();
  for (const PieOpening& o : rep.openings) {
    Json x = {{"point", o.point}, {"class", o.cls}, {"solved", o.solved}};
    if (o.solved) {
      x["winner"] = o.winner;
      x["swap"] = o.swap;
      x["proof_size"] = o.proof_size;
      x["nodes"] = o.nodes;
      x["remoteness"] = o.remoteness < 0 ? Json(nullptr) : Json(o.remoteness);
    }
    list.push_back(std::move(x));
  }
  return j;
}

}  // namespace konobi
