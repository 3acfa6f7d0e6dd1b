// konobi bench: a fixed set of solves and a perft. The total node count is a
// fingerprint of search behaviour (it changes only when the search does);
// nodes per second measure speed. Single-threaded and with a fresh table per
// position, so the fingerprint is reproducible.
#include <chrono>
#include <iomanip>
#include <iostream>

#include "command.h"
#include "core/perft.h"
#include "game_input.h"
#include "solver/search/alphabeta.h"
#include "solver/search/parallel_dfpn.h"

namespace konobi {

namespace {
// Positions: every 4x4 opening class, two 5x5 openings, and 5x5 middle
// games small enough for alpha-beta too.
const char* const kBenchPositions[] = {
    "..../..../..../B... w", "..../..../..../.B.. w", "..../..../B.../.... w", "..../..../.B../.... w",
    "...../...../..B../...../..... w", "...../...../...../...../..B.. w",
    "...../...../.WB../.BBW./..... w", "...../...W./.WB../.BBW./..... b", "...../...B./..W../.BWB./..... w",
};
}  // namespace

int cmd_bench(const Args& args) {
  po::options_description opts("bench options");
  double tt_mb = 64;
  bool alphabeta = false, no_symmetry = false, no_eval = false;
  int threads = 1;
  std::vector<std::string> positions;
  DfpnOptions opt;
  opts.add_options()
    ("epsilon", po::value<double>(&opt.epsilon)->default_value(opt.epsilon), "df-pn's 1+epsilon threshold slack (for measurements)")
    ("tt-mb", po::value<double>(&tt_mb)->default_value(64), "table size per position in MiB")
    ("threads,t", po::value<int>(&threads)->default_value(1), "df-pn threads (the fingerprint is for 1)")
    ("no-symmetry", po::bool_switch(&no_symmetry), "df-pn without symmetry reduction")
    ("no-eval", po::bool_switch(&no_eval), "df-pn with 1/1 initial proof numbers")
    ("alphabeta", po::bool_switch(&alphabeta), "also solve each position with boolean alpha-beta and compare")
    ("position,p", po::value<std::vector<std::string>>(&positions)->composing(),
     "solve these positions (up to 8x8; repeatable) instead of the fixed set");
  po::variables_map vm;
  if (parse_command_line("bench", "[--tt-mb MB] [--threads T] [--no-symmetry] [--no-eval] [--alphabeta] [-p POSITION]...", args, opts, vm))
    return 0;
  if (threads < 1 || threads > 256) throw UsageError("--threads must be from 1 to 256");
  if (!(opt.epsilon >= 0 && opt.epsilon <= 10)) throw UsageError("--epsilon must be from 0 to 10");
  opt.symmetry = !no_symmetry;
  opt.evaluate = !no_eval;
  uint64_t total = 0, ab_total = 0;
  double secs = 0, ab_secs = 0;
  int disagreements = 0;
  if (positions.empty()) positions.assign(std::begin(kBenchPositions), std::end(kBenchPositions));
  for (const std::string& text : positions) {
    const PositionText parsed = parse_position(text);
    if (parsed.n > 8) throw UsageError("bench solves boards up to 8x8, not " + std::to_string(parsed.n) + "x" + std::to_string(parsed.n));
    const Position<1> pos = from_text<1>(parsed);
    TranspositionTable tt(tt_mb);
    const auto t0 = std::chrono::steady_clock::now();
    const SolveOutcome r = solve_position(pos, tt, opt, threads, nullptr);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    total += r.nodes;
    secs += s;
    std::cout << std::left << std::setw(34) << text << (r.mover_wins ? "mover wins " : "mover loses") << std::right
              << std::setw(12) << r.nodes << " nodes " << std::fixed << std::setprecision(3) << std::setw(8) << s << " s";
    if (alphabeta) {
      AlphaBeta<1> ab(22);
      const auto a0 = std::chrono::steady_clock::now();
      const bool wins = ab.wins(pos);
      const double as = std::chrono::duration<double>(std::chrono::steady_clock::now() - a0).count();
      ab_total += ab.nodes();
      ab_secs += as;
      disagreements += wins != r.mover_wins;
      std::cout << " | alpha-beta " << (wins == r.mover_wins ? "agrees" : "DISAGREES") << std::setw(12) << ab.nodes()
                << " nodes " << std::setw(8) << as << " s";
    }
    std::cout << "\n";
  }
  const auto t0 = std::chrono::steady_clock::now();
  const auto counts = perft<KonobiRules>(Position<1>::empty(Geometry<1>::get(5)), 5);
  const double ps = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  uint64_t pn = 0;
  for (uint64_t c : counts) pn += c;
  std::cout << "df-pn nodes " << total << " (fingerprint), " << std::setprecision(0) << double(total) / secs
            << " nodes/s, " << std::setprecision(3) << secs << " s\n"
            << "perft 5x5 depth 5: " << pn << " nodes, " << std::setprecision(0) << double(pn) / ps << " nodes/s\n";
  if (alphabeta)
    std::cout << "alpha-beta nodes " << ab_total << ", " << std::setprecision(3) << ab_secs << " s, "
              << disagreements << " disagreements\n";
  return disagreements ? 1 : 0;
}

}  // namespace konobi
