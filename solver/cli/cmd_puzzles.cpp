// konobi puzzles: mines positions from random games where the side to move
// has exactly one winning move (proven by df-pn and re-proven by
// alpha-beta), graded by remoteness, no two alike up to symmetry; or shows
// a collection mined before (--from). Text, JSON and a results file.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <mutex>

#include "command.h"
#include "diagram.h"
#include "progress.h"
#include "provenance.h"
#include "core/game.h"
#include "solver/io/atomic_file.h"
#include "solver/io/puzzle_file.h"
#include "solver/io/svg.h"
#include "solver/research/puzzles.h"

namespace konobi {

namespace {

struct PuzzleConfig {
  int size = 0;
  PuzzleOptions opt;
  std::string out, from, command, svg_dir;
  bool svg_solutions = false;
  bool json = false, quiet = false;
};

const char* side_name(Color c) { return c == Black ? "black" : "white"; }

PuzzleEntry to_entry(int n, const Position<1>& pos, const FoundPuzzle& f) {
  PuzzleEntry e;
  e.position = format_position(to_text(pos));
  e.to_move = side_name(pos.to_move);
  e.solution = move_name(n, f.solution);
  e.remoteness = f.remoteness;
  for (Move m : f.record) e.record.push_back(move_name(n, m));
  e.game = f.game;
  e.dfpn_nodes = f.dfpn_nodes;
  e.alphabeta_nodes = f.alphabeta_nodes;
  return e;
}

void print_text(const PuzzleSet& set, std::ostream& out) {
  const int n = set.size;
  out << "Konobi " << n << "x" << n << " puzzles: the side to move has exactly one winning move.\n"
      << "Remoteness counts plies to the win with best play, the solution included.\n\n";
  for (const PuzzleEntry& p : set.puzzles) {
    const PositionText t = parse_position(p.position);
    out << "Puzzle " << p.id << ": " << (p.to_move == "black" ? "Black" : "White") << " to move and win in "
        << p.moves_to_win() << " move" << (p.moves_to_win() == 1 ? "" : "s") << " (remoteness "
        << p.remoteness << ")\n";
    out << render_board(n, t.cells);
    out << "Position: " << p.position << "\n\n";
  }
  if (set.puzzles.empty()) return;
  out << "Solutions:\n";
  for (const PuzzleEntry& p : set.puzzles) out << "  " << std::setw(3) << p.id << ". " << p.solution << "\n";
  std::map<int, int> by_r;
  for (const PuzzleEntry& p : set.puzzles) ++by_r[p.remoteness];
  out << "\nPuzzles by remoteness:";
  for (const auto& [r, c] : by_r) out << "  " << r << ": " << c;
  out << "\n";
}

// One picture per puzzle, DIR/puzzle-ID.svg, written atomically.
void write_svgs(const PuzzleSet& set, const std::string& dir, bool solutions) {
  std::filesystem::create_directories(dir);
  const int n = set.size;
  for (const PuzzleEntry& p : set.puzzles) {
    const PositionText t = parse_position(p.position);
    SvgBoard b;
    b.n = n;
    b.cells = t.cells;
    if (solutions) {
      b.marks.assign(n * n, SvgMark::None);
      b.marks[parse_point(n, p.solution)] = SvgMark::Solution;
    }
    b.title = "Puzzle " + std::to_string(p.id) + ": " + (p.to_move == "black" ? "Black" : "White") +
              " to move and win in " + std::to_string(p.moves_to_win()) +
              (p.moves_to_win() == 1 ? " move" : " moves");
    b.notes.push_back("Remoteness " + std::to_string(p.remoteness) + "; one winning move" +
                      (solutions ? " (marked): " + p.solution : "") + ".");
    b.notes.push_back(p.position);
    write_file_atomically((std::filesystem::path(dir) / ("puzzle-" + std::to_string(p.id) + ".svg")).string(),
                          render_svg(b));
  }
}

int run_puzzles(const PuzzleConfig& cfg) {
  const int n = cfg.size;
  PuzzleSet set;
  set.size = n;
  set.provenance = make_provenance(cfg.command, 1, cfg.opt.tt_mb);
  set.seed = cfg.opt.seed;
  set.min_remoteness = cfg.opt.min_remoteness;
  set.min_stones = cfg.opt.min_stones;
  set.max_per_remoteness = cfg.opt.max_per_remoteness;
  set.dfpn_nodes = cfg.opt.dfpn_nodes;
  set.alphabeta_nodes = cfg.opt.alphabeta_nodes;

  install_stop_handler();
  PuzzleStats stats;
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  std::vector<FoundPuzzle> found;
  {
    ProgressReporter progress(
        [&] {
          const double s = elapsed();
          return "puzzles: " + std::to_string(stats.found.load()) + "/" + std::to_string(cfg.opt.count) +
                 " found, " + std::to_string(stats.games.load()) + " games, " +
                 human_count(double(stats.positions.load())) + " positions, " +
                 human_count(double(stats.candidates.load())) + " solved, " +
                 std::to_string(stats.skipped.load()) + " over budget, " +
                 human_count(double(stats.nodes.load())) + " nodes (" +
                 human_count(double(stats.nodes.load()) / std::max(s, 1e-9)) + "/s), " +
                 human_bytes(double(resident_bytes()));
        },
        !cfg.quiet);
    found = find_puzzles<1>(n, cfg.opt, stats, &stop_requested());
  }
  const Geometry<1>& g = Geometry<1>::get(n);
  for (const FoundPuzzle& f : found) {
    Position<1> pos = Position<1>::empty(g);
    for (Move m : f.record) m == kPass ? pos.pass() : pos.place(m);
    pos.swap_available = false;
    set.puzzles.push_back(to_entry(n, pos, f));
  }
  // Easiest first; ties in the order they were found.
  std::stable_sort(set.puzzles.begin(), set.puzzles.end(),
                   [](const PuzzleEntry& a, const PuzzleEntry& b) { return a.remoteness < b.remoteness; });
  for (size_t i = 0; i < set.puzzles.size(); ++i) set.puzzles[i].id = int(i + 1);
  set.games = stats.games, set.positions = stats.positions, set.candidates = stats.candidates;
  set.skipped = stats.skipped;
  set.seconds = elapsed();

  const bool interrupted = stop_requested().load();
  if (!cfg.out.empty()) {
    if (const auto dir = std::filesystem::path(cfg.out).parent_path(); !dir.empty())
      std::filesystem::create_directories(dir);
    write_file_atomically(cfg.out, set.to_json());
  }
  if (!cfg.svg_dir.empty()) write_svgs(set, cfg.svg_dir, cfg.svg_solutions);
  if (cfg.json) std::cout << set.to_json();
  else print_text(set, std::cout);
  if (!cfg.quiet)
    std::cerr << set.puzzles.size() << " puzzle" << (set.puzzles.size() == 1 ? "" : "s") << " from "
              << set.games << " games in " << std::fixed << std::setprecision(1) << set.seconds << " s"
              << (cfg.out.empty() ? "" : ", written to " + cfg.out) << "\n";
  if (interrupted) {
    std::cerr << "konobi puzzles: interrupted; the puzzles found so far are kept\n";
    return 130;
  }
  if (int(set.puzzles.size()) < cfg.opt.count)
    std::cerr << "konobi puzzles: only " << set.puzzles.size() << " of " << cfg.opt.count << " found in "
              << cfg.opt.max_games << " games (raise --max-games or the node budgets)\n";
  return 0;
}

int show_collection(const PuzzleConfig& cfg) {
  const PuzzleSet set = PuzzleSet::from_json(read_file(cfg.from), cfg.from);
  if (!cfg.svg_dir.empty()) write_svgs(set, cfg.svg_dir, cfg.svg_solutions);
  if (cfg.json) std::cout << set.to_json();
  else print_text(set, std::cout);
  return 0;
}

}  // namespace

int cmd_puzzles(const Args& args) {
  po::options_description opts("puzzles options");
  PuzzleConfig cfg;
  PuzzleOptions& o = cfg.opt;
  // clang-format off
  opts.add_options()
    ("size,n", po::value<int>(&cfg.size), "board size, 3 to 8")
    ("count,k", po::value<int>(&o.count)->default_value(10), "how many puzzles to find")
    ("seed", po::value<uint64_t>(&o.seed)->default_value(1), "seed of the random games (same seed, same puzzles)")
    ("min-remoteness", po::value<int>(&o.min_remoteness)->default_value(3),
     "only puzzles whose win takes at least this many plies (1: a win at once)")
    ("max-per-remoteness", po::value<int>(&o.max_per_remoteness)->default_value(0),
     "at most this many puzzles of one remoteness, for a spread of difficulty (0: no cap)")
    ("min-stones", po::value<int>(&o.min_stones)->default_value(4), "only positions with at least this many stones")
    ("dfpn-nodes", po::value<uint64_t>(&o.dfpn_nodes)->default_value(200000),
     "df-pn node budget per solve; harder positions are skipped")
    ("ab-nodes", po::value<uint64_t>(&o.alphabeta_nodes)->default_value(2000000),
     "alpha-beta node budget for the second proof and the remoteness")
    ("max-games", po::value<int>(&o.max_games)->default_value(100000), "stop after this many random games")
    ("tt-mb", po::value<double>(&o.tt_mb)->default_value(256), "transposition table size in MiB")
    ("out,o", po::value<std::string>(&cfg.out), "also write the collection to this JSON file (atomically)")
    ("from", po::value<std::string>(&cfg.from), "show a collection written before instead of mining")
    ("json", po::bool_switch(&cfg.json), "print JSON instead of text")
    ("svg-dir", po::value<std::string>(&cfg.svg_dir), "also draw each puzzle to DIR/puzzle-ID.svg")
    ("svg-solutions", po::bool_switch(&cfg.svg_solutions), "mark the solution in those pictures")
    ("quiet,q", po::bool_switch(&cfg.quiet), "no progress on stderr");
  // clang-format on
  po::variables_map vm;
  if (parse_command_line("puzzles",
                         "--size N [--count K] [--seed S] [--out FILE] | --from FILE  [--svg-dir DIR]", args,
                         opts, vm))
    return 0;
  if (!cfg.from.empty()) return show_collection(cfg);
  if (!vm.count("size"))
    throw UsageError("give the board size with --size N (or a collection with --from FILE)");
  if (cfg.size < kMinSize || cfg.size > 8)
    throw UsageError("--size " + std::to_string(cfg.size) +
                     " is out of range: puzzles are mined on boards from 3x3 to 8x8");
  if (o.count < 1 || o.count > 100000) throw UsageError("--count must be from 1 to 100000");
  if (o.min_remoteness < 1) throw UsageError("--min-remoteness must be at least 1");
  if (o.max_per_remoteness < 0) throw UsageError("--max-per-remoteness must not be negative");
  if (o.min_stones < 0) throw UsageError("--min-stones must not be negative");
  if (o.dfpn_nodes < 1000 || o.alphabeta_nodes < 1000) throw UsageError("node budgets must be at least 1000");
  if (o.max_games < 1) throw UsageError("--max-games must be at least 1");
  cfg.command = command_line("puzzles", args);
  return run_puzzles(cfg);
}

}  // namespace konobi
