// konobi solve: proves every Black first move on an N x N board (N <= 8),
// one per symmetry class, with White to move and no swap; from those the
// empty board's value and the pie verdict follow. Writes the results file
// after every proven class, reports progress every second, stops cleanly on
// Ctrl-C, and --resume carries on from the file. This file reads the
// options; the run itself is a SolveSession (solve_session.h).
#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "command.h"
#include "core/notation.h"
#include "core/types.h"
#include "game_input.h"
#include "solve_session.h"
#include "solver/jobs/mpi_channel.h"

namespace konobi {

namespace {

// The points of --openings' comma-separated list, checked before any
// memory is taken.
std::vector<int> parse_openings(int n, const std::string& list, const std::string& option = "--openings") {
  std::vector<int> points;
  std::stringstream in(list);
  for (std::string name; std::getline(in, name, ',');) {
    try {
      points.push_back(parse_point(n, name));
    } catch (const ParseError& e) { throw UsageError(option + ": " + std::string(e.what())); }
  }
  if (points.empty()) throw UsageError(option + " needs at least one point, such as c3 or a1,b2");
  return points;
}

// --hint CLASS:MOVES, such as c3:c6,f4: the class's point and the moves
// from its position, the last one the move to search first.
SolveHint parse_hint(int n, const std::string& text) {
  const auto fail = [&](const std::string& why) {
    throw UsageError(
        "--hint " + quote_token(text) + ": " + why +
        " (the form is CLASS:MOVES, such as c3:c6,f4: at the position after c3 c6, search f4 first)");
  };
  const size_t colon = text.find(':');
  if (colon == std::string::npos) fail("no ':' between the class and the moves");
  SolveHint h;
  try {
    h.opening = parse_point(n, text.substr(0, colon));
  } catch (const ParseError& e) { fail(e.what()); }
  std::stringstream in(text.substr(colon + 1));
  for (std::string name; std::getline(in, name, ',');) {
    try {
      const Move m = parse_move(n, name);
      if (m == kSwap) fail("swap is not a move of a class's tree (the swap is settled before it)");
      h.path.push_back(m);
    } catch (const ParseError& e) { fail(e.what()); }
  }
  if (h.path.empty()) fail("no moves after the class");
  return h;
}

}  // namespace

int cmd_solve(const Args& args) {
  po::options_description opts("solve options");
  SolveConfig cfg;
  bool no_symmetry = false, no_eval = false, no_must_play = false, manager = false, no_manager = false,
       no_store = false, no_pieces = false, cold_table = false, zones_on = false;
  double zone_mb = -1, memory_floor_mb = 0;
  double job_nodes = double(cfg.job_nodes), part_budget_max = double(cfg.part_budget_max);
  std::string ghi = "strict", openings, easiest_first;
  std::vector<std::string> hints;
  cfg.game.add_options(opts, "superko");
  // clang-format off
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
    ("zones", po::bool_switch(&zones_on),
     "konobi up to 8x8: keep proven positions with their relevance zones and match new positions against "
     "them (measured not to pay, so off; docs/SOLVER.md)")
    ("zone-mb", po::value<double>(&zone_mb),
     "with --zones: the zone table's size in MiB (default an eighth of --tt-mb)")
    ("no-must-play", po::bool_switch(&no_must_play),
     "konobi: search every move, not only those inside the must-play region of the opponent's null-move wins (for measurements)")
    ("must-play-depth", po::value<int>(&cfg.dfpn.must_play_depth)->default_value(cfg.dfpn.must_play_depth),
     "konobi: the threats in a row (1 to 4) a null-move win of the opponent may make to narrow the moves searched")
    ("manager", po::bool_switch(&manager),
     "search through the job manager: jobs of --job-nodes on the leaves of a tree kept in a checkpoint (default from 6x6 up; docs/JOBS.md)")
    ("no-manager", po::bool_switch(&no_manager), "one df-pn search per class, as up to 5x5 (no checkpoint, no store)")
    ("job-nodes", po::value<double>(&job_nodes)->default_value(job_nodes, "2000000"),
     "manager: the node budget of one job")
    ("checkpoint", po::value<std::string>(&cfg.checkpoint),
     "manager: the checkpoint file (default: the --out file with .checkpoint.xz for .json)")
    ("checkpoint-every", po::value<double>(&cfg.checkpoint_every)->default_value(cfg.checkpoint_every),
     "manager: seconds between checkpoints (one is also written on Ctrl-C and at the end)")
    ("store", po::value<std::string>(&cfg.store),
     "manager: the store of proven positions (default konobi-store/GAME-NxN.sqlite)")
    ("no-store", po::bool_switch(&no_store), "manager: no store of proven positions")
    ("no-pieces", po::bool_switch(&no_pieces),
     "manager with --proof: build no proof pieces of proven nodes (kept beside the checkpoint so that a "
     "class's proof needs no search after a restart; for measurements)")
    ("cold-table", po::bool_switch(&cold_table),
     "manager with --proof: start on an empty table instead of writing the proof pieces' positions into "
     "it as proven (for measurements)")
    ("part-budget-max", po::value<double>(&part_budget_max)->default_value(part_budget_max, "268435456"),
     "manager with --proof: the largest node budget a part of a proof in parts is proven within on the "
     "table at a class's end; the parts left after it are searched by the job manager, its tree kept in "
     "the checkpoint (docs/JOBS.md)")
    ("hint", po::value<std::vector<std::string>>(&hints)->composing(),
     "manager: CLASS:MOVES, such as c3:c6,f4: in that class's tree, at the position after the moves but "
     "the last, search the last first while it is open (a winning move an earlier search found); kept in "
     "the checkpoint; changes no value (docs/JOBS.md); may be given more than once")
    ("easiest-first", po::value<std::string>(&easiest_first),
     "manager: CLASSES, such as a2 or a2,a3: in each class's tree the jobs take the open replies to its "
     "first move easiest first, the one nearest to being refuted, instead of df-pn's best hope for the "
     "mover; for a class that looks lost for its mover (docs/JOBS.md); changes no value; for this run only")
    ("store-mb", po::value<double>(&cfg.store_mb)->default_value(cfg.store_mb),
     "manager: the most the store may hold on disk, in MiB; past it, the positions cheapest to prove again go")
    ("memory-floor-mb", po::value<double>(&memory_floor_mb),
     "stop as on Ctrl-C, saving what is done, once less memory than this (MiB) is left to the machine "
     "(default a tenth of it, at least 1024, at most half of what is free at the start besides the tables; "
     "0: never)")
    ("quiet,q", po::bool_switch(&cfg.quiet), "no progress on stderr");
  // clang-format on
  po::variables_map vm;
  if (parse_command_line("solve", "[--game G] --size N [--threads T] [--tt-mb MB] [--resume] [--proof DIR]",
                         args, opts, vm))
    return 0;
  cfg.game.check(vm);
  const bool gonnect = cfg.game.gonnect();
  if (gonnect && cfg.game.variant().ko != KoRule::Superko)
    throw UsageError(
        "solve needs --ko superko for Gonnect: under the simple ko rule a game can cycle for ever and "
        "the rules give no result for an endless game, so positions have no proven value");
  if (ghi != "merge" && ghi != "strict")
    throw UsageError("--ghi must be 'merge' or 'strict', not " + quote_token(ghi));
  if (!gonnect && !vm["ghi"].defaulted()) throw UsageError("--ghi is a Gonnect option; add --game gonnect");
  cfg.strict_ghi = ghi == "strict";
  if (cfg.size < kMinSize || cfg.size > 8)
    throw UsageError("--size " + std::to_string(cfg.size) +
                     " is out of range: solve works on boards from 3x3 to 8x8");
  if (cfg.threads < 1 || cfg.threads > 256) throw UsageError("--threads must be from 1 to 256");
  // Up to about 30 years: a limit no solve meets, and a number a clock holds.
  if (!(cfg.class_limit >= 0 && cfg.class_limit <= 1e9))
    throw UsageError("--class-limit must be 0 (no limit) or a number of seconds up to 1e9");
  if (cfg.resume && cfg.overwrite)
    throw UsageError(
        "--resume carries on from the results file and --overwrite replaces it: give one of them");
  if (vm.count("openings")) cfg.openings = parse_openings(cfg.size, openings);
  for (const std::string& h : hints) cfg.hints.push_back(parse_hint(cfg.size, h));
  if (vm.count("easiest-first"))
    cfg.easiest_first = parse_openings(cfg.size, easiest_first, "--easiest-first");
  if (manager && no_manager) throw UsageError("--manager and --no-manager: give one of them");
  cfg.manager = manager || (cfg.size >= 6 && !no_manager);
  if (!cfg.manager) {
    for (const char* o :
         {"job-nodes", "checkpoint", "checkpoint-every", "store", "store-mb", "part-budget-max"})
      if (vm.count(o) && !vm[o].defaulted())
        throw UsageError(std::string("--") + o + " is an option of the job manager; add --manager");
    if (no_store) throw UsageError("--no-store is an option of the job manager; add --manager");
    if (no_pieces) throw UsageError("--no-pieces is an option of the job manager; add --manager");
    if (cold_table) throw UsageError("--cold-table is an option of the job manager; add --manager");
    if (!hints.empty()) throw UsageError("--hint is an option of the job manager; add --manager");
    if (vm.count("easiest-first"))
      throw UsageError("--easiest-first is an option of the job manager; add --manager");
  } else {
    // A limit per class has no meaning when classes share the slots job by
    // job; a run ends with Ctrl-C (or `timeout -s INT`) and --resume goes on.
    if (cfg.class_limit > 0)
      throw UsageError(
          "--class-limit is for the plain search; with the job manager stop with Ctrl-C or "
          "timeout -s INT, and carry on with --resume");
    if (!(job_nodes >= 1 && job_nodes <= 1e15)) throw UsageError("--job-nodes must be from 1 to 1e15");
    cfg.job_nodes = uint64_t(job_nodes);
    if (!(part_budget_max >= 0 && part_budget_max <= 1e15))
      throw UsageError("--part-budget-max must be from 0 to 1e15 nodes");
    cfg.part_budget_max = uint64_t(part_budget_max);
    if (!(cfg.checkpoint_every > 0 && cfg.checkpoint_every <= 1e7))
      throw UsageError("--checkpoint-every must be a number of seconds above 0, up to 1e7");
    if (!(cfg.store_mb >= 1 && cfg.store_mb <= 1e8)) throw UsageError("--store-mb must be from 1 to 1e8 MiB");
    if (no_store && vm.count("store")) throw UsageError("--store and --no-store: give one of them");
  }
  if (cfg.out.empty())
    cfg.out = "results/" + cfg.game.game + "-" + std::to_string(cfg.size) + "x" + std::to_string(cfg.size) +
              ".json";
  // A big table costs its first touch of every page, which dominates a
  // solve that takes a fraction of a second, and on 5x5 costs more than
  // the nodes a smaller table loses: 512 MiB, two thirds full at the end,
  // took 14.2 s on average against 16.0 s for 1 GiB (five alternated
  // pairs, two threads), the kernel clearing pages 0.1 to 0.4 s against
  // 1.4 to 3.1 s.
  if (!vm.count("tt-mb")) cfg.tt_mb = cfg.size <= 4 ? 64 : cfg.size == 5 ? 512 : 1024;
  cfg.dfpn.symmetry = !no_symmetry;
  cfg.dfpn.evaluate = !no_eval;
  cfg.dfpn.must_play = !no_must_play;
  if (cfg.dfpn.must_play_depth < 1 || cfg.dfpn.must_play_depth > 4)
    throw UsageError("--must-play-depth must be from 1 to 4");
  check_simulation(cfg.dfpn.simulation);
  cfg.command = command_line("solve", args);
  // Said now rather than at the first save, perhaps hours into the search.
  if (std::error_code ec;
      std::filesystem::exists(cfg.out, ec) && !std::filesystem::is_regular_file(cfg.out, ec))
    throw UsageError("--out " + cfg.out +
                     " is not a regular file: results are written only to a regular file or a new one");
  if (const auto dir = std::filesystem::path(cfg.out).parent_path(); !dir.empty())
    std::filesystem::create_directories(dir);
  if (cfg.manager) {
    const std::string base =
        cfg.out.size() > 5 && cfg.out.ends_with(".json") ? cfg.out.substr(0, cfg.out.size() - 5) : cfg.out;
    if (cfg.checkpoint.empty()) cfg.checkpoint = base + ".checkpoint.xz";
    if (std::filesystem::absolute(cfg.checkpoint) == std::filesystem::absolute(cfg.out))
      throw UsageError("--checkpoint must not be the results file " + cfg.out);
    if (!no_store && cfg.store.empty())
      cfg.store = "konobi-store/" + cfg.game.game + "-" + std::to_string(cfg.size) + "x" +
                  std::to_string(cfg.size) +
                  (gonnect ? "-" + std::string(edge_rule_name(cfg.game.variant().edges)) + "-" + ghi : "") +
                  (no_symmetry ? "-plain-keys" : "") + ".sqlite";
    if (no_store) cfg.store.clear();
    cfg.proof_pieces = !no_pieces;
    cfg.seed_table = !cold_table;
    // A managed class is proven after hours, and its tree leaves the
    // checkpoint at once: a proof not written then can only be had by
    // solving the class again.
    if (cfg.proof_dir.empty() && !cfg.quiet)
      std::cerr << "note: no --proof folder: a class proven in this run gets its value but no proof, "
                   "and its tree leaves the checkpoint (add --proof results/proofs-"
                << (gonnect ? "gonnect-" : "") << cfg.size << "x" << cfg.size << ")\n";
  }
  // Under mpirun every rank runs this with the same options; rank 0
  // manages and the others search (docs/JOBS.md). Without mpirun, MPI is
  // never started.
  MpiRuntime mpi;
  cfg.mpi = &mpi;
  // Zones serve Konobi's one-word boards; the table lives as long as the run.
  std::unique_ptr<ZoneTable> zones;
  if (vm.count("zone-mb") && !zones_on) throw UsageError("--zone-mb needs --zones");
  if (zones_on && (gonnect || cfg.size > 8)) throw UsageError("--zones serves Konobi up to 8x8");
  if (zones_on) {
    if (zone_mb < 0) zone_mb = cfg.tt_mb / 8;
    if (!(zone_mb >= 0.015625 && zone_mb <= 1e7)) throw UsageError("--zone-mb must be from 1/64 to 1e7");
    zones = std::make_unique<ZoneTable>(zone_mb);
    cfg.dfpn.zones = zones.get();
  }
  if (!(memory_floor_mb >= 0 && memory_floor_mb <= 1e9))
    throw UsageError("--memory-floor-mb must be from 0 to 1e9");
  // For the whole run. The default floor leaves out the tables about to be
  // taken, so that a run given most of the memory on purpose is not
  // stopped as soon as its table fills.
  const double tables = (cfg.tt_mb + (zones_on ? zone_mb : 0)) * 1024 * 1024;
  const MemoryGuard guard("konobi solve", vm.count("memory-floor-mb")
                                              ? size_t(memory_floor_mb * 1024 * 1024)
                                              : MemoryGuard::default_floor(size_t(std::min(tables, 1e18))));
  if (gonnect) return SolveSession<GonnectSearch, 1>(cfg, cfg.game.variant()).run();
  return SolveSession<KonobiSearch, 1>(cfg, {}).run();
}

}  // namespace konobi
