// konobi solve: proves every Black first move on an N x N board (N <= 8),
// one per symmetry class, with White to move and no swap; from those the
// empty board's value and the pie verdict follow. Writes the results file
// after every proven class, reports progress every second, stops cleanly on
// Ctrl-C, and --resume carries on from the file.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>
#include <type_traits>

#include "command.h"
#include "game_input.h"
#include "core/types.h"
#include "core/notation.h"
#include "core/openings.h"
#include "progress.h"
#include "provenance.h"
#include "solver/io/atomic_file.h"
#include "solver/io/compressed_file.h"
#include "solver/io/results.h"
#include "solver/io/results_merge.h"
#include "solver/search/parallel_dfpn.h"
#include "solver/search/proof.h"
#include "solver/search/pv.h"

namespace konobi {

namespace {

struct SolveConfig {
  int size = 0, threads = 1;
  GameChoice game;
  bool strict_ghi = false;  // gonnect: the set of earlier boards in every key
  double tt_mb = 1024;
  double class_limit = 0;  // seconds per symmetry class, 0 = none
  std::string out, proof_dir, command;
  std::vector<int> openings;  // points whose classes to solve, in this order; empty: all
  bool resume = false, overwrite = false, quiet = false;
  DfpnOptions dfpn;
};

void print_table(const Results& r, std::ostream& out) {
  const int n = r.size;
  if (r.game == "gonnect")
    out << "Gonnect (ko rule " << r.ko_rule << ", edges " << r.edges << ") ";
  else
    out << "Konobi ";
  out << n << "x" << n << ": value of each Black first move, White to move, no swap\n"
      << "(B: Black wins, so White should swap; W: White wins; ?: not proven)\n\n";
  out << "     ";
  for (int c = 0; c < n; ++c) out << char('a' + c) << ' ';
  out << "\n";
  for (int row = n - 1; row >= 0; --row) {
    out << std::setw(3) << row + 1 << "  ";
    for (int c = 0; c < n; ++c) {
      const auto& o = r.openings[row * n + c];
      out << (!o.solved ? '?' : o.winner == "black" ? 'B' : 'W') << ' ';
    }
    out << "\n";
  }
  out << "\n";
  // What the open classes cost so far, and how near each looked.
  for (const auto& o : r.openings)
    if (o.searched_unproven() && o.point == o.representative)
      out << "Not proven: " << o.point << " after " << human_count(double(o.nodes)) << " nodes, " << std::fixed
          << std::setprecision(0) << o.seconds << " s (root pn " << o.pn << ", dn " << o.dn << ")\n";
  const std::string eb = r.empty_board_winner();
  out << "Empty board without the pie rule: "
      << (eb.empty() ? "not known yet" : eb == "black" ? "Black (first player) wins" : "White (second player) wins")
      << "\n";
  if (r.complete())
    out << "Pie rule: White swaps after every winning opening and replies to every losing one, "
           "so the second player wins with perfect play.\n";
  out << "Nodes " << r.nodes << ", " << std::fixed << std::setprecision(2) << r.seconds << " s\n";
}

// The points of --openings' comma-separated list, checked before any
// memory is taken.
std::vector<int> parse_openings(int n, const std::string& list) {
  std::vector<int> points;
  std::stringstream in(list);
  for (std::string name; std::getline(in, name, ',');) {
    try {
      points.push_back(parse_point(n, name));
    } catch (const ParseError& e) {
      throw UsageError("--openings: " + std::string(e.what()));
    }
  }
  if (points.empty()) throw UsageError("--openings needs at least one point, such as c3 or a1,b2");
  return points;
}

// The classes of `points`, in their order, each once: a point names its
// whole class.
template <int W>
std::vector<int> chosen_classes(const Geometry<W>& g, const std::vector<int>& points) {
  std::vector<int> reps;
  for (int p : points)
    if (const int rep = opening_representative(g, p); std::find(reps.begin(), reps.end(), rep) == reps.end())
      reps.push_back(rep);
  return reps;
}

template <class Game, int W>
int run_solve(const SolveConfig& cfg, const typename Game::Rules::Variant& variant) {
  using Rules = typename Game::Rules;
  using State = typename Game::template State<W>;
  constexpr bool gonnect = std::is_same_v<Rules, GonnectRules>;
  const Geometry<W>& g = Rules::template geometry<W>(cfg.size, variant);
  const int n = cfg.size;
  // The position after Black's first stone at p, White to move, no swap.
  auto opening = [&](int p) {
    State s = Rules::start(Position<W>::empty(g), variant);
    Game::play(s, p);
    if constexpr (gonnect) s.pos.swap_available = false;
    else s.swap_available = false;
    return s;
  };
  Results results;
  if (cfg.resume && std::filesystem::exists(cfg.out)) {
    results = Results::from_json(read_file(cfg.out), cfg.out);
    if (results.size != n || results.game != Rules::name)
      throw UsageError(cfg.out + " holds a " + results.game + " " + std::to_string(results.size) + "x" +
                       std::to_string(results.size) + " solve, not " + Rules::name + " " + std::to_string(n) + "x" +
                       std::to_string(n));
    if constexpr (gonnect)
      if (results.ko_rule != ko_rule_name(variant.ko) || results.edges != edge_rule_name(variant.edges) ||
          results.ghi != (cfg.strict_ghi ? "strict" : "merge-before-capture"))
        throw UsageError(cfg.out + " was solved with ko rule " + results.ko_rule + ", edges " + results.edges +
                         ", ghi " + results.ghi + "; resume it with the same options");
    if (!cfg.quiet) {
      std::string before;
      for (const auto& o : results.openings)
        if (o.searched_unproven() && o.point == o.representative)
          before += (before.empty() ? "" : ", ") + o.point + " " + human_count(double(o.nodes)) + " nodes";
      std::cerr << "resuming from " << cfg.out;
      if (!before.empty()) std::cerr << " (searched before without a proof: " << before << ")";
      std::cerr << "\n";
    }
  } else {
    // Proven openings are hours of work: a fresh solve does not write over
    // them unless told to, and says so before it takes the table's memory.
    if (!cfg.overwrite && std::filesystem::exists(cfg.out)) {
      const std::string text = read_file(cfg.out);  // a clear error for a directory, a device or a FIFO
      int held = 0;
      try {
        held = proven_openings(Results::from_json(text, cfg.out));
      } catch (const std::exception&) {
        // not a results file: nothing proven in it
      }
      if (held > 0)
        throw UsageError(cfg.out + " holds " + std::to_string(held) + " proven opening" + (held == 1 ? "" : "s") +
                         "; add --resume to carry on from them, --overwrite to replace them, or give another --out");
    }
    results.size = n;
    results.game = Rules::name;
    if constexpr (gonnect) {
      results.ko_rule = ko_rule_name(variant.ko);
      results.edges = edge_rule_name(variant.edges);
      results.ghi = cfg.strict_ghi ? "strict" : "merge-before-capture";
    }
    for (int p = 0; p < g.cells; ++p) {
      OpeningResult o;
      o.point = point_name(n, p);
      o.representative = point_name(n, opening_representative(g, p));
      results.openings.push_back(o);
    }
  }
  results.provenance = make_provenance(cfg.command, cfg.threads, cfg.tt_mb, cfg.dfpn);
  if (!cfg.proof_dir.empty()) std::filesystem::create_directories(cfg.proof_dir);

  TranspositionTable tt(cfg.tt_mb);
  install_stop_handler();
  std::atomic<uint64_t> nodes{0};  // running count for the progress line
  uint64_t exact_nodes = 0;        // summed from ended searches
  const auto t_start = std::chrono::steady_clock::now();
  const std::vector<int> classes = opening_classes(g);
  std::atomic<int> proven{0};  // read by the progress line
  int skipped = 0;             // changed only under results_mutex (below)
  for (int rep : classes)
    if (results.openings[rep].solved) ++proven;
  // Unproven classes, in point order (corners, often the hardest, first),
  // or those of --openings in the order given.
  std::vector<int> todo;
  std::vector<State> jobs;
  for (int rep : cfg.openings.empty() ? classes : chosen_classes(g, cfg.openings))
    if (!results.openings[rep].solved) todo.push_back(rep), jobs.push_back(opening(rep));
  JobRunner<Game, W> runner(tt, cfg.dfpn, cfg.threads);
  runner.set_progress(&nodes);
  runner.set_job_seconds(cfg.class_limit);

  ProgressReporter reporter(
      [&] {
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
        std::ostringstream s;
        s << "[" << n << "x" << n << " " << std::fixed << std::setprecision(0) << secs << "s] " << proven.load()
          << "/" << classes.size() << " classes proven";
        for (const JobStatus& js : runner.status()) {
          const int c = todo[js.job];
          const auto f = tt.probe(Game::key(jobs[js.job], cfg.dfpn.symmetry));
          s << " | " << point_name(n, c) << " pn " << (f.pn >= kInf ? std::string("inf") : std::to_string(f.pn)) << " dn "
            << (f.dn >= kInf ? std::string("inf") : std::to_string(f.dn));
          if (js.searches > 1) s << " x" << js.searches;
        }
        s << " | nodes " << human_count(double(nodes.load())) << " (" << human_count(nodes.load() / std::max(secs, 1e-9))
          << "/s) | table " << std::setprecision(0) << tt.fill() * 100 << "% of " << human_bytes(double(tt.bytes()))
          << " | mem " << human_bytes(double(resident_bytes()));
        return s.str();
      },
      !cfg.quiet);

  // --resume with every class asked for proven: the file stays as it is,
  // unless it was read re-grouped, when it gains the openings of merged classes.
  if (todo.empty() && !results.regrouped_on_read) {
    if (!cfg.quiet) std::cerr << "nothing left to do: every class asked for is proven in " << cfg.out << "\n";
    print_table(results, std::cout);
    return 0;
  }

  const double seconds_before = results.seconds;
  const unsigned long long nodes_before = results.nodes;
  const unsigned long long hazards_before = results.ghi_hazards;
  if constexpr (gonnect) {
    GonnectSearch::hazards = 0;
    GonnectSearch::merge_before_capture = !cfg.strict_ghi;
  }
  bool replace_pending = cfg.overwrite;
  auto save = [&] {
    results.seconds = seconds_before + std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
    results.nodes = nodes_before + exact_nodes;
    if constexpr (gonnect) results.ghi_hazards = hazards_before + GonnectSearch::hazards.load();
    // Under the writers' lock: the file as it is now, perhaps written by
    // another run meanwhile; what it holds proven is kept (only the first
    // save of --overwrite replaces it outright).
    update_file_atomically(cfg.out, [&](const std::optional<std::string>& old) {
      if (replace_pending) {
        replace_pending = false;
        return results.to_json();
      }
      std::string text = results_over(results, old, cfg.out);
      int now = 0;
      for (int rep : classes) now += results.openings[rep].solved;
      proven = now;
      return text;
    });
  };

  // on_end may run on two threads at once (two classes ending together):
  // the results, the counts and the file are changed under this lock, and
  // only briefly, while the proofs are extracted outside it.
  std::mutex results_mutex;
  // Visited sets for proof extraction, one per extraction under way; each
  // keeps its memory for the next class (clearing beats fresh pages).
  std::mutex sets_mutex;
  std::vector<std::unique_ptr<KeySet>> idle_sets;
  auto take_set = [&] {
    std::lock_guard lock(sets_mutex);
    if (idle_sets.empty()) return std::make_unique<KeySet>();
    auto set = std::move(idle_sets.back());
    idle_sets.pop_back();
    return set;
  };
  auto give_back_set = [&](std::unique_ptr<KeySet> set) {
    std::lock_guard lock(sets_mutex);
    idle_sets.push_back(std::move(set));
  };
  // The points of a class, whose results are written together.
  auto class_points = [&](int rep) { return opening_class_points(g, rep); };
  // Runs on the thread that ended the class, while the other threads search
  // on: the principal variation and the proof come from the shared table.
  auto on_end = [&](const JobResult& r) {
    const int rep = todo[r.job];
    if (r.end != JobEnd::Proven) {
      // Every search on the class has left, so its root entry holds the
      // numbers it stopped at (unless a tiny table lost it).
      const auto f = tt.probe(Game::key(jobs[r.job], cfg.dfpn.symmetry));
      std::lock_guard lock(results_mutex);
      exact_nodes += r.nodes;  // given-up and interrupted searches count too
      for (int p : class_points(rep)) {
        OpeningResult& o = results.openings[p];
        o.nodes += r.nodes;
        o.seconds += r.seconds;
        o.pn = f.hit ? f.pn : 0;
        o.dn = f.hit ? f.dn : 0;
      }
      if (r.end == JobEnd::GaveUp) {
        ++skipped;
        std::cerr << "gave up on " << point_name(n, rep) << " after " << std::fixed << std::setprecision(0) << r.seconds
                  << " s (--class-limit); it stays unproven\n";
      }
      return;
    }
    const State& pos = jobs[r.job];
    const Color winner = r.mover_wins ? White : Black;
    std::vector<Move> pv = game_principal_variation<Game, W>(pos, tt, cfg.dfpn.symmetry, 4 * g.cells);
    const auto t_proof = std::chrono::steady_clock::now();
    uint64_t proof_size = 0;
    std::unique_ptr<KeySet> visited = take_set();
    ProofBuilder<W, Game> builder(tt, cfg.dfpn, visited.get());
    if (cfg.proof_dir.empty()) {
      proof_size = builder.size(pos, winner);
    } else {
      Proof proof;
      if constexpr (gonnect) proof = builder.build(pos, winner, {rep});
      else proof = builder.build(pos, winner);
      proof_size = proof.entries.size();
      write_file_atomically(cfg.proof_dir + "/" + Rules::name + "-" + std::to_string(n) + "x" + std::to_string(n) + "-" +
                                point_name(n, rep) + ".proof.xz",
                            compress_xz(proof.to_text()));
    }
    give_back_set(std::move(visited));
    const double proof_secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_proof).count();
    std::lock_guard lock(results_mutex);
    exact_nodes += r.nodes;
    // Every point of the class, with moves mapped by the symmetry that takes
    // rep to it (not always its own inverse: a quarter turn is a transpose
    // after a mirror). It keeps the colours, so the line keeps its players.
    for (int p : class_points(rep)) {
      const int s = opening_symmetry_between(g, rep, p);
      OpeningResult& o = results.openings[p];
      o.solved = true;
      o.winner = winner == Black ? "black" : "white";
      o.continuation.clear();
      for (Move m : pv) o.continuation.push_back(move_name(n, m >= 0 ? g.sym[s][m] : m));
      o.nodes = r.nodes;
      o.proof_size = proof_size;
      o.seconds = r.seconds;
    }
    ++proven;
    save();
    if (!cfg.quiet)
      std::cerr << "proved " << point_name(n, rep) << ": " << color_name(winner) << " wins (" << r.nodes << " nodes, "
                << std::fixed << std::setprecision(2) << r.seconds << " s; proof " << proof_size << " positions, "
                << proof_secs << " s)\n";
  };
  runner.run(jobs, &stop_requested(), on_end);
  if (stop_requested().load()) {
    save();
    std::cerr << "interrupted: " << proven.load() << " of " << classes.size() << " classes proven and saved in " << cfg.out
              << "; run again with --resume to continue\n";
    return 130;
  }
  save();
  print_table(results, std::cout);
  if (skipped > 0)
    std::cout << skipped << " class" << (skipped == 1 ? " was" : "es were") << " given up after "
              << cfg.class_limit << " s (--class-limit); run again with --resume to retry them\n";
  std::cout << "Results written to " << cfg.out << "\n";
  return 0;
}

}  // namespace

int cmd_solve(const Args& args) {
  po::options_description opts("solve options");
  SolveConfig cfg;
  bool no_symmetry = false, no_eval = false;
  std::string ghi = "strict", openings;
  cfg.game.add_options(opts, "superko");
  opts.add_options()
    ("ghi", po::value<std::string>(&ghi)->default_value("strict"),
     "gonnect: 'merge' (positions merge by board before the first capture, checked by a hazard count) or "
     "'strict' (the set of earlier boards in every key); see docs/GONNECT.md")
    ("size,n", po::value<int>(&cfg.size)->required(), "board size, 3 to 8")
    ("threads,t", po::value<int>(&cfg.threads)->default_value(int(std::max(1u, std::thread::hardware_concurrency()))),
     "search threads; they take openings side by side, and join the last ones running")
    ("tt-mb", po::value<double>(&cfg.tt_mb),
     "transposition table size in MiB (default 64 up to 4x4, 512 for 5x5, 1024 above; give 6x6 and larger all you can)")
    ("out,o", po::value<std::string>(&cfg.out), "results file (default results/GAME-NxN.json)")
    ("class-limit", po::value<double>(&cfg.class_limit)->default_value(0),
     "give up on a symmetry class after this many seconds and go on (0: no limit)")
    ("openings", po::value<std::string>(&openings),
     "solve only the classes of these points, in this order (comma-separated, such as c3,b2); the others stay as they are")
    ("resume", po::bool_switch(&cfg.resume), "continue from the results file, skipping proven openings")
    ("overwrite", po::bool_switch(&cfg.overwrite),
     "replace a results file that holds proven openings (without it solve refuses; see docs/RESULTS.md)")
    ("proof", po::value<std::string>(&cfg.proof_dir), "write each opening's proof into this folder")
    ("no-symmetry", po::bool_switch(&no_symmetry), "key the table by the plain position (for measurements)")
    ("no-eval", po::bool_switch(&no_eval), "start proof numbers at 1/1 instead of the evaluation (for measurements)")
    ("simulation", po::value<int>(&cfg.dfpn.simulation)->default_value(cfg.dfpn.simulation),
     "positions a replay of a refuted sibling's refutation may visit before a move is searched (0: no replays)")
    ("quiet,q", po::bool_switch(&cfg.quiet), "no progress on stderr");
  po::variables_map vm;
  if (parse_command_line("solve", "[--game G] --size N [--threads T] [--tt-mb MB] [--resume] [--proof DIR]", args,
                         opts, vm))
    return 0;
  cfg.game.check(vm);
  const bool gonnect = cfg.game.gonnect();
  if (gonnect && cfg.game.variant().ko != KoRule::Superko)
    throw UsageError("solve needs --ko superko for Gonnect: under the simple ko rule a game can cycle for ever and "
                     "the rules give no result for an endless game, so positions have no proven value");
  if (ghi != "merge" && ghi != "strict") throw UsageError("--ghi must be 'merge' or 'strict', not " + quote_token(ghi));
  if (!gonnect && !vm["ghi"].defaulted()) throw UsageError("--ghi is a Gonnect option; add --game gonnect");
  cfg.strict_ghi = ghi == "strict";
  if (cfg.size < kMinSize || cfg.size > 8)
    throw UsageError("--size " + std::to_string(cfg.size) + " is out of range: solve works on boards from 3x3 to 8x8");
  if (cfg.threads < 1 || cfg.threads > 256) throw UsageError("--threads must be from 1 to 256");
  // Up to about 30 years: a limit no solve meets, and a number a clock holds.
  if (!(cfg.class_limit >= 0 && cfg.class_limit <= 1e9))
    throw UsageError("--class-limit must be 0 (no limit) or a number of seconds up to 1e9");
  if (cfg.resume && cfg.overwrite)
    throw UsageError("--resume carries on from the results file and --overwrite replaces it: give one of them");
  if (vm.count("openings")) cfg.openings = parse_openings(cfg.size, openings);
  if (cfg.out.empty()) cfg.out = "results/" + cfg.game.game + "-" + std::to_string(cfg.size) + "x" + std::to_string(cfg.size) + ".json";
  // A big table costs its first touch of every page, which dominates a
  // solve that takes a fraction of a second, and on 5x5 costs more than
  // the nodes a smaller table loses: 512 MiB, two thirds full at the end,
  // took 14.2 s on average against 16.0 s for 1 GiB (five alternated
  // pairs, two threads), the kernel clearing pages 0.1 to 0.4 s against
  // 1.4 to 3.1 s.
  if (!vm.count("tt-mb")) cfg.tt_mb = cfg.size <= 4 ? 64 : cfg.size == 5 ? 512 : 1024;
  cfg.dfpn.symmetry = !no_symmetry;
  cfg.dfpn.evaluate = !no_eval;
  check_simulation(cfg.dfpn.simulation);
  cfg.command = command_line("solve", args);
  // Said now rather than at the first save, perhaps hours into the search.
  if (std::error_code ec; std::filesystem::exists(cfg.out, ec) && !std::filesystem::is_regular_file(cfg.out, ec))
    throw UsageError("--out " + cfg.out + " is not a regular file: results are written only to a regular file or a new one");
  if (const auto dir = std::filesystem::path(cfg.out).parent_path(); !dir.empty()) std::filesystem::create_directories(dir);
  if (gonnect) return run_solve<GonnectSearch, 1>(cfg, cfg.game.variant());
  return run_solve<KonobiSearch, 1>(cfg, {});
}

}  // namespace konobi
