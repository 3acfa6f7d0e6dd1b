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
#include "solver/search/parallel_dfpn.h"

namespace konobi {

namespace {
// Positions: every 4x4 opening class and three 5x5 openings of varied cost.
const char* const kBenchPositions[] = {
    "..../..../..../B... w", "..../..../..../.B.. w", "..../..../B.../.... w", "..../..../.B../.... w",
    "...../...../..B../...../..... w", "...../...../...../...../..B.. w", "...../...../...../...../.B... w",
};
}  // namespace

int cmd_bench(const Args& args) {
  po::options_description opts("bench options");
  double tt_mb = 64;
  opts.add_options()("tt-mb", po::value<double>(&tt_mb)->default_value(64), "table size per position in MiB");
  po::variables_map vm;
  if (parse_command_line("bench", "[--tt-mb MB]", args, opts, vm)) return 0;
  uint64_t total = 0;
  double secs = 0;
  for (const char* text : kBenchPositions) {
    const Position<1> pos = from_text<1>(parse_position(text));
    TranspositionTable tt(tt_mb);
    const auto t0 = std::chrono::steady_clock::now();
    const SolveOutcome r = solve_position(pos, tt, DfpnOptions{}, 1, nullptr);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    total += r.nodes;
    secs += s;
    std::cout << std::left << std::setw(34) << text << (r.mover_wins ? "mover wins " : "mover loses") << std::right
              << std::setw(12) << r.nodes << " nodes " << std::fixed << std::setprecision(3) << std::setw(8) << s << " s\n";
  }
  const auto t0 = std::chrono::steady_clock::now();
  const auto counts = perft<KonobiRules>(Position<1>::empty(Geometry<1>::get(5)), 5);
  const double ps = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  uint64_t pn = 0;
  for (uint64_t c : counts) pn += c;
  std::cout << "df-pn nodes " << total << " (fingerprint), " << std::setprecision(0) << double(total) / secs
            << " nodes/s, " << std::setprecision(3) << secs << " s\n"
            << "perft 5x5 depth 5: " << pn << " nodes, " << std::setprecision(0) << double(pn) / ps << " nodes/s\n";
  return 0;
}

}  // namespace konobi
