// konobi bench: a fixed set of solves and a perft. The total node count is a
// fingerprint of search behaviour (it changes only when the search does);
// nodes per second measure speed. Single-threaded and with a fresh table per
// position, so the fingerprint is reproducible.
#include <chrono>
#include <iomanip>
#include <iostream>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "command.h"
#include "core/game.h"
#include "core/perft.h"
#include "game_input.h"
#include "solver/search/alphabeta.h"
#include "solver/search/parallel_dfpn.h"
#include "solver/search/proof.h"

namespace konobi {

namespace {
// Positions: every 4x4 opening class, two 5x5 openings, and 5x5 middle
// games small enough for alpha-beta too.
const char* const kBenchPositions[] = {
    "..../..../..../B... w",           "..../..../..../.B.. w",           "..../..../B.../.... w",
    "..../..../.B../.... w",           "...../...../..B../...../..... w", "...../...../...../...../..B.. w",
    "...../...../.WB../.BBW./..... w", "...../...W./.WB../.BBW./..... b", "...../...B./..W../.BWB./..... w",
};
// Gonnect (superko, either pair of edges): every 4x4 opening class and two
// of the 5x5 middle games above, each started as a diagram (no earlier
// boards); the third takes minutes in Gonnect.
const char* const kGonnectBenchPositions[] = {
    "..../..../..../B... w", "..../..../..../.B.. w",           "..../..../B.../.... w",
    "..../..../.B../.... w", "...../...../.WB../.BBW./..... w", "...../...W./.WB../.BBW./..... b",
};

template <class Game>
int bench(const std::vector<std::string>& positions, const typename Game::Rules::Variant& variant,
          DfpnOptions opt, double tt_mb, double zone_mb, int threads, bool alphabeta, bool proofs = false) {
  // zone_mb: Konobi's zone table per position (0: none); proofs: Konobi only
  using Rules = typename Game::Rules;
  uint64_t total = 0, ab_total = 0, proof_total = 0, rebuilt_total = 0;
  double secs = 0, ab_secs = 0, proof_secs = 0;
  int disagreements = 0;
  for (const std::string& text : positions) {
    const PositionText t = parse_position(text);
    if (t.n > 8)
      throw UsageError("bench solves boards up to 8x8, not " + std::to_string(t.n) + "x" +
                       std::to_string(t.n));
    const auto pos = Rules::start(from_text<1>(t, &Rules::template geometry<1>(t.n, variant)), variant);
    // A finished game is not searched (the search takes its position to be
    // in play): the same referee as analyze says who has won.
    if (const konobi::Game<Rules, 1> game(pos); game.over()) {
      std::cout << std::left << std::setw(34) << text << color_name(Color(game.winner()))
                << " has already won" << std::right
                << (game.ended_without_move()
                        ? " (" + std::string(color_name(Color(t.to_move))) + " cannot move)"
                        : "")
                << "\n";
      continue;
    }
    TranspositionTable tt(tt_mb);
    // A fresh zone table per position, like the transposition table.
    std::unique_ptr<ZoneTable> zones;
    if (zone_mb > 0 && std::is_same_v<Game, KonobiSearch>) {
      zones = std::make_unique<ZoneTable>(zone_mb);
      opt.zones = zones.get();
    }
    const auto t0 = std::chrono::steady_clock::now();
    const SolveOutcome r = solve_game_position<Game, 1>(pos, tt, opt, threads, nullptr);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    total += r.nodes;
    secs += s;
    std::cout << std::left << std::setw(34) << text << (r.mover_wins ? "mover wins " : "mover loses")
              << std::right << std::setw(12) << r.nodes << " nodes " << std::fixed << std::setprecision(3)
              << std::setw(8) << s << " s";
    if constexpr (std::is_same_v<Game, KonobiSearch>)
      if (proofs) {
        // The walk that writes a proof, on the table as the solve left it:
        // what a small table costs the proof builder, which proves again
        // what the table forgot (entries counted, not formatted).
        ProofBuilder<1, Game> builder(tt, opt);
        builder.set_threads(threads);
        const Color mover = Game::board(pos).to_move;
        const auto p0 = std::chrono::steady_clock::now();
        const size_t entries = builder.size(pos, r.mover_wins ? mover : other(mover));
        const double ps = std::chrono::duration<double>(std::chrono::steady_clock::now() - p0).count();
        proof_total += entries;
        rebuilt_total += builder.searched();
        proof_secs += ps;
        std::cout << " | proof " << std::setw(10) << entries << " entries " << std::setw(8) << ps << " s, "
                  << builder.searched() << " nodes proven again";
      }
    if (alphabeta) {
      AlphaBeta<1, Game> ab(22);
      // Gonnect's alpha-beta keys carry the history and so miss most
      // transpositions; it gets a node budget and may give up.
      if (std::is_same_v<Rules, GonnectRules>) ab.set_node_limit(5'000'000);
      const auto a0 = std::chrono::steady_clock::now();
      int wins = -1;
      try {
        wins = ab.wins(pos);
      } catch (const SearchStopped&) {}
      const double as = std::chrono::duration<double>(std::chrono::steady_clock::now() - a0).count();
      ab_total += ab.nodes();
      ab_secs += as;
      disagreements += wins >= 0 && wins != r.mover_wins;
      std::cout << " | alpha-beta "
                << (wins < 0               ? "gave up"
                    : wins == r.mover_wins ? "agrees"
                                           : "DISAGREES")
                << std::setw(12) << ab.nodes() << " nodes " << std::setw(8) << as << " s";
    }
    std::cout << "\n";
  }
  // Konobi: perft 5x5 depth 5; Gonnect: 4x4 depth 6 (captures and ko begin there).
  const int pn_size = std::is_same_v<Rules, GonnectRules> ? 4 : 5,
            pn_depth = std::is_same_v<Rules, GonnectRules> ? 6 : 5;
  const auto t0 = std::chrono::steady_clock::now();
  const auto counts = perft<Rules>(
      Rules::start(Position<1>::empty(Rules::template geometry<1>(pn_size, variant)), variant), pn_depth);
  const double ps = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  uint64_t pn = 0;
  for (uint64_t c : counts) pn += c;
  std::cout << "df-pn nodes " << total << " (fingerprint), " << std::setprecision(0)
            << (secs > 0 ? double(total) / secs : 0.0) << " nodes/s, " << std::setprecision(3) << secs
            << " s\n"
            << std::fixed << "perft " << pn_size << "x" << pn_size << " depth " << pn_depth << ": " << pn
            << " nodes, " << std::setprecision(0) << double(pn) / ps << " nodes/s\n";
  if (proofs)
    std::cout << "proof entries " << proof_total << ", " << std::setprecision(3) << proof_secs << " s, "
              << rebuilt_total << " nodes proven again\n";
  if (alphabeta)
    std::cout << "alpha-beta nodes " << ab_total << ", " << std::setprecision(3) << ab_secs << " s, "
              << disagreements << " disagreements\n";
  return disagreements ? 1 : 0;
}
}  // namespace

int cmd_bench(const Args& args) {
  po::options_description opts("bench options");
  double tt_mb = 64, zone_mb = 16;
  bool zones_on = false;
  bool alphabeta = false, proofs = false, no_symmetry = false, no_eval = false, no_must_play = false;
  int threads = 1;
  std::vector<std::string> positions;
  DfpnOptions opt;
  GameChoice choice;
  choice.add_options(opts, "superko");
  // clang-format off
  opts.add_options()
    ("epsilon", po::value<double>(&opt.epsilon)->default_value(opt.epsilon), "df-pn's 1+epsilon threshold slack (for measurements)")
    ("tt-mb", po::value<double>(&tt_mb)->default_value(64), "table size per position in MiB")
    ("threads,t", po::value<int>(&threads)->default_value(1), "df-pn threads (the fingerprint is for 1)")
    ("no-symmetry", po::bool_switch(&no_symmetry), "df-pn without symmetry reduction")
    ("no-eval", po::bool_switch(&no_eval), "df-pn with 1/1 initial proof numbers")
    ("simulation", po::value<int>(&opt.simulation)->default_value(opt.simulation),
     "positions a replay of a refuted sibling's refutation may visit (0: no replays)")
    ("no-must-play", po::bool_switch(&no_must_play), "konobi: df-pn over every move, without must-play regions")
    ("must-play-depth", po::value<int>(&opt.must_play_depth)->default_value(opt.must_play_depth),
     "konobi: the threats in a row (1 to 4) a null-move win of the opponent may make to narrow the moves searched")
    ("zones", po::bool_switch(&zones_on), "konobi: relevance zones (a proven position matched inside its zone elsewhere)")
    ("zone-mb", po::value<double>(&zone_mb)->default_value(zone_mb), "with --zones: zone table size per position in MiB")
    ("alphabeta", po::bool_switch(&alphabeta), "also solve each position with boolean alpha-beta and compare")
    ("proof", po::bool_switch(&proofs),
     "konobi: also walk each position's proof as a solve writes it, on the table the solve left, and report "
     "its entries, the time and the nodes proven again where the table forgot (a small --tt-mb shows what a "
     "full table costs the proof builder)")
    ("position,p", po::value<std::vector<std::string>>(&positions)->composing(),
     "solve these positions (up to 8x8; repeatable) instead of the fixed set");
  // clang-format on
  po::variables_map vm;
  if (parse_command_line("bench",
                         "[--game G] [--tt-mb MB] [--threads T] [--no-symmetry] [--no-eval] [--simulation N] "
                         "[--no-must-play] [--zones [--zone-mb MB]] "
                         "[--alphabeta] [--proof] [-p POSITION]...",
                         args, opts, vm))
    return 0;
  if (threads < 1 || threads > 256) throw UsageError("--threads must be from 1 to 256");
  if (!(opt.epsilon >= 0 && opt.epsilon <= 10)) throw UsageError("--epsilon must be from 0 to 10");
  opt.symmetry = !no_symmetry;
  opt.evaluate = !no_eval;
  opt.must_play = !no_must_play;
  if (opt.must_play_depth < 1 || opt.must_play_depth > 4)
    throw UsageError("--must-play-depth must be from 1 to 4");
  check_simulation(opt.simulation);
  if (!(zone_mb >= 0.015625 && zone_mb <= 1e6)) throw UsageError("--zone-mb must be from 1/64 to 1e6");
  choice.check(vm);
  if (choice.gonnect()) {
    if (choice.variant().ko != KoRule::Superko)
      throw UsageError(
          "bench needs --ko superko for Gonnect: under the simple ko rule positions have no proven value");
    if (positions.empty())
      positions.assign(std::begin(kGonnectBenchPositions), std::end(kGonnectBenchPositions));
    if (proofs)
      throw UsageError(
          "bench --proof is for Konobi: a Gonnect proof names the game that reaches each position");
    return bench<GonnectSearch>(positions, choice.variant(), opt, tt_mb, 0, threads, alphabeta);
  }
  if (positions.empty()) positions.assign(std::begin(kBenchPositions), std::end(kBenchPositions));
  if (!zones_on) zone_mb = 0;
  return bench<KonobiSearch>(positions, {}, opt, tt_mb, zone_mb, threads, alphabeta, proofs);
}

}  // namespace konobi
