// konobi verify-nodraw: checks the designer's claim that some player can
// always move and so draws are impossible, in two ways (docs/NODRAW.md): a
// census of every reachable position (3x3 to 5x5) and a search of every
// crosscut-free board (3x3 to 7x7). Exit 0: the claim holds where checked;
// 1: a counterexample (printed); 2: bad input; 3: a check stopped early.
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <sys/resource.h>

#include <oneapi/tbb/global_control.h>

#include "command.h"
#include "diagram.h"
#include "progress.h"
#include "provenance.h"
#include "core/game.h"
#include "solver/io/atomic_file.h"
#include "solver/io/json.h"
#include "solver/research/nodraw.h"

namespace konobi {

namespace {

constexpr int kMaxCrosscutFreeSize = 7;

struct NodrawConfig {
  int size = 0;
  std::string mode = "both";
  int max_ply = -1;
  double max_mb = 0, max_seconds = 0;
  int threads = 2;
  bool json = false, quiet = false, no_lemma = false, count_stuck = false, no_full_skip = false,
       no_memo = false;
  std::string out, command;
};

double peak_rss_mb() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return double(ru.ru_maxrss) / 1024;  // kilobytes on Linux
}

std::string diagram_of(int n, uint64_t black, uint64_t white) {
  std::vector<int> cells(n * n, -1);
  for (int p = 0; p < n * n; ++p) cells[p] = (black >> p & 1) ? Black : (white >> p & 1) ? White : -1;
  return render_board(n, cells);
}

std::string position_text(int n, uint64_t black, uint64_t white, Color to_move) {
  PositionText t;
  t.n = n;
  t.cells.resize(n * n);
  for (int p = 0; p < n * n; ++p) t.cells[p] = (black >> p & 1) ? Black : (white >> p & 1) ? White : -1;
  t.to_move = to_move;
  return format_position(t);
}

struct ReachableReport {
  ReachableResult res;
  double seconds = 0;
  std::string record;  // of the first draw, if any
  std::string draw_position;
  bool record_checked = false;  // replayed by the game referee to the draw
};

ReachableReport run_reachable(const NodrawConfig& cfg) {
  constexpr int W = 1;  // boards up to 5x5
  ReachableReport rep;
  ReachableOptions opt;
  opt.max_ply = cfg.max_ply;
  opt.max_mb = cfg.max_mb;
  std::atomic<uint64_t> expanded{0};
  std::atomic<int> ply_now{0};
  opt.progress = &expanded;
  opt.stop = &stop_requested();
  opt.on_ply = [&](const PlyCounts& pc) {
    ply_now = pc.ply + 1;
    if (!cfg.quiet && !cfg.json) std::cerr << "  ply " << pc.ply << ": " << pc.positions << " positions\n";
  };
  const auto t0 = std::chrono::steady_clock::now();
  {
    ProgressReporter progress(
        [&] {
          const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          std::ostringstream o;
          o << "verify-nodraw " << cfg.size << "x" << cfg.size << " reachable: ply " << ply_now.load() << ", "
            << human_count(double(expanded.load())) << " expanded, " << std::fixed << std::setprecision(0)
            << s << " s, " << human_bytes(double(resident_bytes()));
          return o.str();
        },
        !cfg.quiet);
    rep.res = reachable_census<KonobiRules, W>(cfg.size, opt);
  }
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (rep.res.first_draw_ply >= 0) {
    // Again up to the draw, keeping every ply, to walk back to the empty board.
    ReachableOptions again;
    again.max_ply = rep.res.first_draw_ply;
    again.keep_plies = true;
    const ReachableResult kept = reachable_census<KonobiRules, W>(cfg.size, again);
    const std::vector<Move> record =
        reachable_record<KonobiRules, W>(kept, rep.res.first_draw, rep.res.first_draw_ply);
    const StateCodec<W> codec(Geometry<W>::get(cfg.size));
    const Position<W> pos = codec.unpack(rep.res.first_draw, rep.res.first_draw_ply);
    rep.draw_position = format_position(to_text(pos));
    if (int(record.size()) == rep.res.first_draw_ply) {
      rep.record = format_record(cfg.size, record);
      auto game = Game<KonobiRules, W>::new_game(cfg.size);
      game.play_record(record);
      rep.record_checked = !game.over() && game.position().stones[0] == pos.stones[0] &&
                           game.position().stones[1] == pos.stones[1] && game.must_pass();
    }
  }
  return rep;
}

CrosscutFreeResult run_crosscut_free(const NodrawConfig& cfg) {
  CrosscutFreeOptions opt;
  opt.use_lemma = !cfg.no_lemma;
  opt.prune_won = !cfg.count_stuck;
  opt.full_board_skip = !cfg.no_full_skip;
  opt.memo = !cfg.no_memo;
  opt.max_seconds = cfg.max_seconds;
  std::atomic<uint64_t> nodes{0}, tasks{0};
  opt.progress_nodes = &nodes;
  opt.progress_tasks = &tasks;
  opt.stop = &stop_requested();
  const auto t0 = std::chrono::steady_clock::now();
  ProgressReporter progress(
      [&] {
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::ostringstream o;
        o << "verify-nodraw " << cfg.size << "x" << cfg.size << " crosscut-free: " << tasks.load()
          << " tasks done, " << human_count(double(nodes.load())) << " nodes, " << std::fixed
          << std::setprecision(0) << s << " s";
        return o.str();
      },
      !cfg.quiet);
  return crosscut_free_search<KonobiRules, 1>(cfg.size, opt);
}

Json reachable_json(const ReachableReport& rep) {
  const ReachableResult& r = rep.res;
  Json j = {{"complete", r.complete}};
  if (!r.complete) j["stopped"] = r.stopped;
  j["symmetries"] = 4;
  Json& plies = j["plies"] = Json::array();
  for (const PlyCounts& p : r.plies)
    plies.push_back(Json{{"ply", p.ply},
                         {"positions", p.positions},
                         {"must_pass", p.must_pass},
                         {"won", p.won},
                         {"draws", p.draws}});
  j["totals"] = Json{{"positions", r.total(&PlyCounts::positions)},
                     {"must_pass", r.total(&PlyCounts::must_pass)},
                     {"won", r.total(&PlyCounts::won)},
                     {"draws", r.total(&PlyCounts::draws)}};
  j["seconds"] = json_number(rep.seconds);
  j["peak_table_mb"] = json_number(r.peak_table_mb);
  if (r.first_draw_ply >= 0)
    j["counterexample"] = Json{{"ply", r.first_draw_ply},
                               {"position", rep.draw_position},
                               {"record", rep.record},
                               {"record_replayed", rep.record_checked}};
  return j;
}

Json crosscut_json(const CrosscutFreeResult& r) {
  Json j = {{"complete", r.complete},
            {"lemma_pruning", r.lemma},
            {"won_pruning", r.prune_won},
            {"full_board_skip", r.full_board_skip},
            {"frontier_merging", r.memo},
            {"nodes", r.nodes},
            {"boards_checked", r.leaves},
            {"both_stuck", r.stuck},
            {"memo_hits", r.memo_hits},
            {"memo_entries", r.memo_entries},
            {"counterexamples", r.counterexamples},
            {"tasks", r.tasks},
            {"tasks_done", r.tasks_done},
            {"seconds", json_number(r.seconds)}};
  Json& examples = j["examples"] = Json::array();
  for (auto [b, w] : r.examples) examples.push_back(position_text(r.n, b, w, Black));
  return j;
}

void print_reachable(std::ostream& out, const NodrawConfig& cfg, const ReachableReport& rep) {
  const ReachableResult& r = rep.res;
  const int n = cfg.size;
  out << "Reachable positions on " << n << "x" << n
      << " (per ply: placements and passes; distinct up to the 4 colour-preserving symmetries)\n";
  out << "   ply    positions    must-pass          won   draws\n";
  for (const PlyCounts& p : r.plies)
    out << std::setw(6) << p.ply << std::setw(13) << p.positions << std::setw(13) << p.must_pass
        << std::setw(13) << p.won << std::setw(8) << p.draws << "\n";
  out << " total" << std::setw(13) << r.total(&PlyCounts::positions) << std::setw(13)
      << r.total(&PlyCounts::must_pass) << std::setw(13) << r.total(&PlyCounts::won) << std::setw(8)
      << r.total(&PlyCounts::draws) << "\n";
  out << std::fixed << std::setprecision(2) << "time " << rep.seconds << " s, state tables at most "
      << r.peak_table_mb << " MB\n";
  if (!r.complete) out << "INCOMPLETE: " << r.stopped << "\n";
  if (r.first_draw_ply >= 0) {
    out << "COUNTEREXAMPLE: a reachable draw at ply " << r.first_draw_ply << " (" << rep.draw_position
        << "): neither side has a legal placement and nobody has won\n";
    const PositionText t = parse_position(rep.draw_position);
    out << render_board(n, t.cells);
    out << "game record: " << (rep.record.empty() ? "(not found)" : rep.record)
        << (rep.record_checked ? "  (replayed and checked by the game referee)" : "") << "\n";
  } else if (r.complete) {
    out << "No reachable draw: in every reachable position without a winner some player can place a stone.\n";
  }
}

void print_crosscut(std::ostream& out, const NodrawConfig& cfg, const CrosscutFreeResult& r) {
  const int n = cfg.size;
  out << "Crosscut-free boards on " << n << "x" << n << " (any stones, reachable or not)\n";
  out << "  pruning: crosscuts"
      << (r.lemma ? ", empty points that are not crosscut points for both colours" : "")
      << (r.prune_won ? ", boards with a White chain across the decided rows" : "")
      << (r.full_board_skip ? ", boards left with no room for an empty point" : "")
      << (r.memo ? ", partial boards with the frontier of one already expanded" : "") << "\n";
  out << "  nodes " << r.nodes << " (" << r.memo_hits << " more merged), whole boards checked " << r.leaves
      << ", both colours stuck " << r.stuck << ", of those without a winner " << r.counterexamples << "\n";
  out << std::fixed << std::setprecision(2) << "  time " << r.seconds << " s\n";
  if (!r.complete)
    out << "INCOMPLETE: stopped after " << r.tasks_done << " of " << r.tasks
        << " top-level tasks (two-row prefixes)\n";
  for (auto [b, w] : r.examples) {
    out << "COUNTEREXAMPLE (" << position_text(n, b, w, Black)
        << "): neither colour has a legal placement and nobody has a winning chain\n"
        << diagram_of(n, b, w)
        << "game record: none searched for; this search covers boards whether or not a game can reach them "
           "(the reachable census finds reachable ones)\n";
  }
  if (r.complete && r.counterexamples == 0)
    out << (r.prune_won
                ? "No crosscut-free board leaves both colours without a legal placement while nobody has "
                  "won.\n"
                : "Every crosscut-free board where both colours are stuck was counted, won or not; none is "
                  "without a winner.\n");
}

}  // namespace

int cmd_verify_nodraw(const Args& args) {
  po::options_description opts("verify-nodraw options");
  NodrawConfig cfg;
  cfg.command = command_line("verify-nodraw", args);
  // clang-format off
  opts.add_options()
    ("size,s", po::value<int>(&cfg.size)->required(), "board size: 3 to 5 for the reachable census, 3 to 7 for the crosscut-free search")
    ("mode,m", po::value<std::string>(&cfg.mode)->default_value("both"),
     "reachable, crosscut-free, or both (both runs the census only on sizes it supports)")
    ("max-ply", po::value<int>(&cfg.max_ply)->default_value(-1), "reachable: stop after this ply (the run is then incomplete)")
    ("max-mb", po::value<double>(&cfg.max_mb)->default_value(0), "reachable: stop cleanly rather than let the state tables pass this many MB")
    ("max-seconds", po::value<double>(&cfg.max_seconds)->default_value(0), "crosscut-free: stop after this many seconds")
    ("threads,t", po::value<int>(&cfg.threads)->default_value(2), "worker threads")
    ("no-lemma", po::bool_switch(&cfg.no_lemma), "crosscut-free: do not prune with the double-crosscut fact (for cross-checks; slow)")
    ("no-full-board-skip", po::bool_switch(&cfg.no_full_skip), "crosscut-free: check full boards too (for cross-checks)")
    ("no-merge", po::bool_switch(&cfg.no_memo), "crosscut-free: do not merge partial boards with equal frontiers (for cross-checks; slow)")
    ("count-stuck", po::bool_switch(&cfg.count_stuck), "crosscut-free: do not prune won boards; count every board where both colours are stuck")
    ("json", po::bool_switch(&cfg.json), "print JSON")
    ("out,o", po::value<std::string>(&cfg.out), "also write the JSON report to this file (atomically)")
    ("quiet,q", po::bool_switch(&cfg.quiet), "no progress on stderr");
  // clang-format on
  po::variables_map vm;
  if (parse_command_line("verify-nodraw",
                         "--size N [--mode reachable|crosscut-free|both] [--json] [--out FILE]", args, opts,
                         vm))
    return 0;
  const bool want_reach = cfg.mode == "reachable" || cfg.mode == "both";
  const bool want_cf = cfg.mode == "crosscut-free" || cfg.mode == "both";
  if (!want_reach && !want_cf)
    throw UsageError("--mode must be reachable, crosscut-free or both, not " + quote_token(cfg.mode));
  const int n = cfg.size;
  if (n < kMinSize || n > kMaxCrosscutFreeSize || (cfg.mode == "reachable" && n > kMaxReachableSize))
    throw UsageError("--size " + std::to_string(n) +
                     " is out of range: the reachable census runs on 3x3 to " +
                     std::to_string(kMaxReachableSize) + "x" + std::to_string(kMaxReachableSize) +
                     " and the crosscut-free search on 3x3 to " + std::to_string(kMaxCrosscutFreeSize) + "x" +
                     std::to_string(kMaxCrosscutFreeSize));
  if (cfg.threads < 1 || cfg.threads > 1024) throw UsageError("--threads must be from 1 to 1024");
  if (cfg.max_ply < -1) throw UsageError("--max-ply must be 0 or more");
  if (cfg.max_mb < 0 || cfg.max_seconds < 0)
    throw UsageError("--max-mb and --max-seconds must not be negative");
  const bool do_reach = want_reach && n <= kMaxReachableSize;
  oneapi::tbb::global_control limit(oneapi::tbb::global_control::max_allowed_parallelism, cfg.threads);
  install_stop_handler();

  ReachableReport reach;
  CrosscutFreeResult cf;
  if (do_reach) reach = run_reachable(cfg);
  if (want_cf) cf = run_crosscut_free(cfg);

  Json j = {{"check", "no-draw"},
            {"game", "konobi"},
            {"size", n},
            {"program", std::string("konobi ") + KONOBI_VERSION},
            {"commit", KONOBI_COMMIT},
            {"command", cfg.command},
            {"date", now_utc()},
            {"threads", cfg.threads}};
  if (do_reach) j["reachable"] = reachable_json(reach);
  if (want_cf) j["crosscut_free"] = crosscut_json(cf);
  j["peak_rss_mb"] = json_number(peak_rss_mb());
  const bool counter = (do_reach && reach.res.first_draw_ply >= 0) || (want_cf && cf.counterexamples > 0);
  const bool complete = (!do_reach || reach.res.complete) && (!want_cf || cf.complete);
  j["verdict"] = counter ? "counterexample" : complete ? "holds" : "incomplete";
  const std::string text = json_text(j);
  if (!cfg.out.empty()) {
    if (const auto dir = std::filesystem::path(cfg.out).parent_path(); !dir.empty())
      std::filesystem::create_directories(dir);
    write_file_atomically(cfg.out, text);
  }
  if (cfg.json) {
    std::cout << text;
  } else {
    if (want_reach && !do_reach)
      std::cout << "(the reachable census runs on 3x3 to 5x5 only; " << n << "x" << n
                << " gets the crosscut-free search)\n\n";
    if (do_reach) print_reachable(std::cout, cfg, reach);
    if (do_reach && want_cf) std::cout << "\n";
    if (want_cf) print_crosscut(std::cout, cfg, cf);
    std::cout << std::fixed << std::setprecision(0) << "peak memory " << peak_rss_mb() << " MB\n";
  }
  if ((do_reach && reach.res.first_draw_ply >= 0) || (want_cf && cf.counterexamples > 0)) return 1;
  if ((do_reach && !reach.res.complete) || (want_cf && !cf.complete)) return 3;
  return 0;
}

}  // namespace konobi
