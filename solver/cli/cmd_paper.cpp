// konobi paper: the generated parts of papers/konobi-small-boards.md, all
// read from results/: the opening maps, the pie table, the hardest
// openings, the cost of the proofs, the no-draw check (results/nodraw-NxN.json
// when present) and the puzzles per remoteness; and the paper's SVG figures.
// The paper marks each block with <!-- BEGIN GENERATED: name --> and
// <!-- END GENERATED: name -->; --update rewrites them in place, --check
// says whether they match, --block prints one (the tests compare them).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "command.h"
#include "core/notation.h"
#include "solver/io/atomic_file.h"
#include "solver/io/nodraw_file.h"
#include "solver/io/puzzle_file.h"
#include "solver/io/svg.h"
#include "solver/research/pie.h"

namespace konobi {

namespace fs = std::filesystem;

namespace {

std::string nxn(int n) { return std::to_string(n) + "x" + std::to_string(n); }

std::string fmt(const char* f, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, x);
  return buf;
}

std::string capital(const std::string& s) {
  return s.empty() ? s : std::string(1, char(s[0] - 32)) + s.substr(1);
}

struct Generator {
  std::string dir;

  std::vector<PieReport> reports(uint64_t remoteness_nodes) const {
    std::vector<PieReport> v;
    for (int n : results_sizes(dir)) v.push_back(load_pie_report(dir, n, remoteness_nodes));
    return v;
  }

  static std::string none(const std::string& what) { return "\n*No " + what + " in `results/` yet.*\n\n"; }

  std::string opening_maps() const {
    const auto reps = reports(0);
    if (reps.empty()) return none("results files");
    std::ostringstream s;
    s << "\n";
    for (const PieReport& r : reps) {
      const int n = r.size;
      s << "**" << nxn(n) << "**" << (r.complete() ? "" : " (partial: ? not proven yet)") << "\n\n|   |";
      for (int c = 0; c < n; ++c) s << ' ' << char('a' + c) << " |";
      s << "\n| --- |";
      for (int c = 0; c < n; ++c) s << " --- |";
      s << "\n";
      for (int row = n - 1; row >= 0; --row) {
        s << "| **" << row + 1 << "** |";
        for (int c = 0; c < n; ++c) {
          const PieOpening& o = r.openings[row * n + c];
          s << ' ' << (!o.solved ? "?" : o.winner == "black" ? "B" : "W") << " |";
        }
        s << "\n";
      }
      s << "\n";
    }
    return s.str();
  }

  std::string pie_table() const {
    const auto reps = reports(0);
    if (reps.empty()) return none("results files");
    std::ostringstream s;
    s << "\n| board | openings proven | winning openings: White swaps | losing openings: White plays on | "
         "share of losing openings | second player wins under the pie rule |\n"
      << "| --- | --- | --- | --- | --- | --- |\n";
    for (const PieReport& r : reps) {
      std::string winning;
      for (const PieOpening& o : r.openings)
        if (o.solved && o.winner == "black") winning += (winning.empty() ? "" : ", ") + o.point;
      s << "| " << nxn(r.size) << " | " << r.solved() << " of " << r.openings.size() << " | "
        << r.black_wins() << (winning.empty() ? "" : " (" + winning + ")") << " | " << r.white_wins() << " | "
        << r.losing_share() << " | " << (r.complete() ? "yes" : "not yet known") << " |\n";
    }
    s << "\n";
    return s.str();
  }

  std::string hardest() const {
    const auto reps = reports(kPieRemotenessNodes);
    if (reps.empty()) return none("results files");
    std::ostringstream s;
    s << "\n| board | opening (and its symmetric images) | winner | proof size | df-pn nodes | remoteness |\n"
      << "| --- | --- | --- | --- | --- | --- |\n";
    for (const PieReport& r : reps) {
      const auto hard = r.hardest();
      for (size_t i = 0; i < hard.size() && i < 3; ++i) {
        const PieOpening& o = *hard[i];
        std::string images;
        for (const PieOpening& x : r.openings)
          if (x.cls == o.point && x.point != o.point) images += (images.empty() ? "" : ", ") + x.point;
        s << "| " << nxn(r.size) << " | " << o.point << (images.empty() ? "" : " (" + images + ")") << " | "
          << capital(o.winner) << (o.winner == "white" ? " (refutation)" : " (White swaps)") << " | "
          << o.proof_size << " | " << o.nodes << " | "
          << (o.remoteness < 0 ? "over budget" : std::to_string(o.remoteness)) << " |\n";
      }
    }
    s << "\nThe three symmetry classes per board whose proofs are largest. Proof size: positions where the "
         "winner moves in the extracted proof. Remoteness: plies after Black's first stone with best play "
         "(the winner hurries, the loser delays), by alpha-beta within "
      << kPieRemotenessNodes << " nodes per class; \"over budget\" where that was not enough.\n\n";
    return s.str();
  }

  std::string solve_effort() const {
    const auto reps = reports(0);
    if (reps.empty()) return none("results files");
    std::ostringstream s;
    s << "\n| board | symmetry classes | df-pn nodes | wall time (s) | proof size, all classes | largest "
         "proof | "
         "solver commit |\n| --- | --- | --- | --- | --- | --- | --- |\n";
    for (const PieReport& r : reps) {
      unsigned long long total = 0, largest = 0;
      for (const PieOpening& o : r.openings)
        if (o.solved && o.point == o.cls) total += o.proof_size, largest = std::max(largest, o.proof_size);
      s << "| " << nxn(r.size) << " | " << r.classes() << " | " << r.nodes << " | " << fmt("%.2f", r.seconds)
        << " | " << total << " | " << largest << " | `" << r.commit << "` |\n";
    }
    s << "\nNodes and wall time are summed over every run that wrote the results file (two threads on the "
         "machine named in its provenance); they change when the solver does, the values do not.\n\n";
    return s.str();
  }

  // The text of the field at a dotted path ("reachable.totals.draws"), "" when absent.
  static std::string field(const Json& v, const std::string& path) {
    const Json* x = &v;
    size_t from = 0;
    for (;;) {
      const size_t dot = path.find('.', from);
      const std::string key = path.substr(from, dot == std::string::npos ? std::string::npos : dot - from);
      if (!x->is_object() || !x->contains(key)) return "";
      x = &(*x)[key];
      if (dot == std::string::npos) break;
      from = dot + 1;
    }
    if (x->is_boolean()) return x->get<bool>() ? "yes" : "no";
    if (x->is_number()) {
      const double d = x->get<double>();
      return d == double((long long)d) ? std::to_string((long long)d) : fmt("%.3g", d);
    }
    if (x->is_string()) return x->get<std::string>();
    return "";
  }

  std::string nodraw() const {
    struct Column {
      const char* title;
      const char* path;
    };
    const Column columns[] = {
        {"verdict", "verdict"},
        {"census: positions", "reachable.totals.positions"},
        {"census: complete", "reachable.complete"},
        {"census: draws", "reachable.totals.draws"},
        {"census: must pass", "reachable.totals.must_pass"},
        {"census: note", "reachable.stopped"},
        {"crosscut-free: whole boards checked and stuck for both", "crosscut_free.both_stuck"},
        {"crosscut-free: counterexamples", "crosscut_free.counterexamples"},
        {"crosscut-free: complete", "crosscut_free.complete"},
    };
    std::ostringstream rows;
    for (int n = 3; n <= 19; ++n) {
      const fs::path p = fs::path(dir) / ("nodraw-" + nxn(n) + ".json");
      if (!fs::exists(p)) continue;
      const Json v = read_nodraw_file(read_file(p.string()), p.string());
      rows << "| " << nxn(n) << " |";
      for (const Column& c : columns) {
        const std::string text = field(v, c.path);
        rows << ' ' << (text.empty() ? "-" : text) << " |";
      }
      rows << "\n";
    }
    if (rows.str().empty())
      return none("no-draw results (`results/nodraw-NxN.json`, written by `konobi verify-nodraw`)");
    std::ostringstream s;
    s << "\nOne row per `results/nodraw-NxN.json` (`konobi verify-nodraw`; the fields are explained in "
         "`docs/NODRAW.md`). The census explores every reachable position up to symmetry; the crosscut-free "
         "search covers every crosscut-free board, reachable or not. \"-\" where a file has no such field "
         "(that check was not run for the size).\n\n| board |";
    for (const Column& c : columns) s << ' ' << c.title << " |";
    s << "\n| --- |";
    for (size_t i = 0; i < std::size(columns); ++i) s << " --- |";
    s << "\n" << rows.str() << "\n";
    return s.str();
  }

  std::vector<PuzzleSet> puzzle_sets() const {
    std::vector<PuzzleSet> v;
    for (int n = 3; n <= 19; ++n) {
      const fs::path p = fs::path(dir) / ("puzzles-" + nxn(n) + ".json");
      if (!fs::exists(p)) continue;
      v.push_back(PuzzleSet::from_json(read_file(p.string()), p.string()));
    }
    return v;
  }

  static const PuzzleEntry* hardest_puzzle(const PuzzleSet& set) {
    const PuzzleEntry* best = nullptr;
    for (const PuzzleEntry& p : set.puzzles)
      if (!best || p.remoteness > best->remoteness) best = &p;
    return best;
  }

  std::string puzzles() const {
    const auto sets = puzzle_sets();
    if (sets.empty()) return none("puzzle collections");
    std::set<int> rs;
    for (const auto& set : sets)
      for (const auto& p : set.puzzles) rs.insert(p.remoteness);
    std::ostringstream s;
    s << "\nPuzzles per remoteness r (plies to the win with best play, the solution included: r = 3 is a win "
         "in "
         "2 moves, r = 5 in 3):\n\n| collection | puzzles |";
    for (int r : rs) s << " r = " << r << " |";
    s << " random games | seed |\n| --- | --- |";
    for (size_t i = 0; i < rs.size(); ++i) s << " --- |";
    s << " --- | --- |\n";
    for (const auto& set : sets) {
      std::map<int, int> by;
      for (const auto& p : set.puzzles) ++by[p.remoteness];
      s << "| `puzzles-" << nxn(set.size) << ".json` | " << set.puzzles.size() << " |";
      for (int r : rs) s << ' ' << (by.count(r) ? std::to_string(by[r]) : "0") << " |";
      s << ' ' << set.games << " | " << set.seed << " |\n";
    }
    s << "\n";
    for (const auto& set : sets)
      if (const PuzzleEntry* h = hardest_puzzle(set))
        s << "The hardest " << nxn(set.size) << " puzzle is number " << h->id << ", `" << h->position
          << "`: " << capital(h->to_move) << " to move wins in " << h->moves_to_win() << " moves (remoteness "
          << h->remoteness << ").\n";
    s << "\n";
    return s.str();
  }

  // Gonnect's solved boards, straight from results/gonnect-NxN.json.
  std::string gonnect() const {
    std::ostringstream s;
    s << "\n| board | ko rule | edges | table keys | openings proven | Black's winning openings | "
         "losing openings | second player wins under the pie rule | df-pn nodes | wall time (s) |\n"
      << "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
    int found = 0;
    for (int n = kPieMinSize; n <= kPieMaxSize; ++n) {
      const fs::path path = fs::path(dir) / ("gonnect-" + nxn(n) + ".json");
      if (!fs::exists(path)) continue;
      const Results r = Results::from_json(read_file(path.string()), path.string());
      if (r.game != "gonnect" || r.size != n)
        throw std::runtime_error(path.string() + " does not hold Gonnect " + nxn(n) + " results");
      ++found;
      int solved = 0, losing = 0;
      std::string winning;
      for (const OpeningResult& o : r.openings) {
        solved += o.solved;
        if (o.solved && o.winner == "white") ++losing;
        if (o.solved && o.winner == "black") winning += (winning.empty() ? "" : ", ") + o.point;
      }
      s << "| " << nxn(n) << " | " << r.ko_rule << " | " << r.edges << " | " << r.ghi << " | " << solved
        << " of " << r.openings.size() << " | " << (winning.empty() ? "none" : winning) << " | " << losing
        << " | " << (r.complete() ? "yes" : "not yet known") << " | " << r.nodes << " | "
        << fmt("%.2f", r.seconds) << " |\n";
    }
    if (!found) return none("Gonnect results files");
    s << "\nValues with White to move after Black's first stone and no swap, as for Konobi. Table keys "
         "\"strict\": every position is keyed with the set of earlier boards, so positions reached by "
         "different histories never share an entry (docs/GONNECT.md).\n\n";
    return s.str();
  }

  std::vector<std::pair<std::string, std::function<std::string()>>> blocks() const {
    return {{"opening-maps", [this] { return opening_maps(); }},
            {"pie-table", [this] { return pie_table(); }},
            {"hardest", [this] { return hardest(); }},
            {"solve-effort", [this] { return solve_effort(); }},
            {"nodraw", [this] { return nodraw(); }},
            {"puzzles", [this] { return puzzles(); }},
            {"gonnect", [this] { return gonnect(); }}};
  }

  // Writes the figures; returns their paths.
  std::vector<std::string> figures(const std::string& out) const {
    fs::create_directories(out);
    std::vector<std::string> written;
    for (const PieReport& r : reports(0)) {
      const std::string path = (fs::path(out) / opening_map_file(r.size)).string();
      write_file_atomically(path, render_svg(opening_map_svg(r)));
      written.push_back(path);
    }
    for (const PuzzleSet& set : puzzle_sets()) {
      const PuzzleEntry* h = hardest_puzzle(set);
      if (!h) continue;
      SvgBoard b;
      b.n = set.size;
      b.cells = parse_position(h->position).cells;
      b.title = nxn(set.size) + " puzzle " + std::to_string(h->id) + ": " + capital(h->to_move) +
                " to move and win in " + std::to_string(h->moves_to_win()) + " moves";
      b.notes.push_back("One winning move; remoteness " + std::to_string(h->remoteness) + ".");
      b.notes.push_back(h->position);
      const std::string path = (fs::path(out) / ("puzzle-" + nxn(set.size) + "-hardest.svg")).string();
      write_file_atomically(path, render_svg(b));
      written.push_back(path);
    }
    return written;
  }
};

const std::string kBegin = "<!-- BEGIN GENERATED: ", kEnd = "<!-- END GENERATED: ", kClose = " -->";

struct Span {
  std::string name;
  size_t from, to;  // the text between the BEGIN line and the END line
};

std::vector<Span> find_blocks(const std::string& text, const std::string& file) {
  std::vector<Span> spans;
  size_t at = 0;
  while ((at = text.find(kBegin, at)) != std::string::npos) {
    const size_t name_at = at + kBegin.size();
    const size_t close = text.find(kClose, name_at);
    const size_t eol = text.find('\n', name_at);
    if (close == std::string::npos || eol == std::string::npos || close > eol)
      throw std::runtime_error(file + ": a BEGIN GENERATED marker is not closed on its line");
    const std::string name = text.substr(name_at, close - name_at);
    const std::string end_marker = kEnd + name + kClose;
    const size_t end = text.find(end_marker, eol);
    if (end == std::string::npos)
      throw std::runtime_error(file + ": block '" + name + "' has no END GENERATED marker");
    spans.push_back({name, eol + 1, end});
    at = end + end_marker.size();
  }
  return spans;
}

}  // namespace

int cmd_paper(const Args& args) {
  po::options_description opts("paper options");
  std::string dir, block, update, check, figures;
  bool list = false;
  // clang-format off
  opts.add_options()
    ("results", po::value<std::string>(&dir)->default_value("results"), "the results folder")
    ("list", po::bool_switch(&list), "name the generated blocks")
    ("block", po::value<std::string>(&block), "print one generated block")
    ("update", po::value<std::string>(&update), "rewrite the generated blocks of this Markdown file (atomically)")
    ("check", po::value<std::string>(&check), "exit 1 unless this Markdown file's generated blocks are up to date")
    ("figures", po::value<std::string>(&figures), "write the SVG figures into this folder");
  // clang-format on
  po::variables_map vm;
  if (parse_command_line(
          "paper", "[--results DIR] (--list | --block NAME | --update FILE | --check FILE | --figures DIR)",
          args, opts, vm))
    return 0;
  if (int(list) + !block.empty() + !update.empty() + !check.empty() + !figures.empty() == 0)
    throw UsageError("give --list, --block NAME, --update FILE, --check FILE or --figures DIR");
  const Generator gen{dir};
  const auto blocks = gen.blocks();
  if (list)
    for (const auto& b : blocks) std::cout << b.first << "\n";
  if (!block.empty()) {
    auto it = std::find_if(blocks.begin(), blocks.end(), [&](const auto& b) { return b.first == block; });
    if (it == blocks.end()) throw UsageError("no generated block '" + block + "' (see --list)");
    std::cout << it->second();
  }
  int status = 0;
  for (const bool updating : {true, false}) {
    const std::string& file = updating ? update : check;
    if (file.empty()) continue;
    const std::string text = read_file(file);
    const auto spans = find_blocks(text, file);
    std::string out;
    size_t last = 0;
    std::set<std::string> seen;
    for (const Span& sp : spans) {
      out += text.substr(last, sp.from - last);
      last = sp.to;
      auto it = std::find_if(blocks.begin(), blocks.end(), [&](const auto& b) { return b.first == sp.name; });
      if (it == blocks.end()) {
        std::cerr << "konobi paper: " << file << ": block '" << sp.name
                  << "' is not generated here; left alone\n";
        out += text.substr(sp.from, sp.to - sp.from);
        continue;
      }
      seen.insert(sp.name);
      const std::string now = it->second();
      if (now != text.substr(sp.from, sp.to - sp.from)) {
        if (!updating)
          std::cerr << "konobi paper: " << file << ": block '" << sp.name << "' is out of date\n";
        status = updating ? status : 1;
      }
      out += now;
    }
    out += text.substr(last);
    for (const auto& b : blocks)
      if (!seen.count(b.first)) {
        std::cerr << "konobi paper: " << file << ": no block '" << b.first << "'\n";
        status = 1;
      }
    if (updating && out != text) write_file_atomically(file, out);
  }
  if (!figures.empty())
    for (const std::string& path : gen.figures(figures)) std::cout << "wrote " << path << "\n";
  return status;
}

}  // namespace konobi
