// konobi analyze: the proven value of a position for the side to move and of
// every legal move, with remoteness on request and a principal variation.
#include <iomanip>
#include <iostream>

#include "command.h"
#include "game_input.h"
#include "progress.h"
#include "solver/io/atomic_file.h"
#include "solver/io/json_writer.h"
#include "solver/io/svg.h"
#include "solver/search/alphabeta.h"
#include "solver/search/pv.h"

namespace konobi {

namespace {

struct MoveValue {
  Move move;
  bool wins;
  int remoteness;  // -1 unless asked for
};

int analyze(const GameInput& input, bool remoteness, bool json, double tt_mb, int threads, const std::string& svg) {
  const auto game = input.build<1>();
  const Position<1>& pos = game.position();
  const int n = pos.size();
  if (game.over()) {
    if (json) {
      JsonWriter j(std::cout);
      j.begin_object().field("position", format_position(to_text(pos))).field("winner", game.winner() == Black ? "black" : "white").end_object().finish();
    } else {
      std::cout << color_name(Color(game.winner())) << " has already won.\n";
    }
    return 0;
  }
  TranspositionTable tt(tt_mb);
  DfpnOptions opt;
  install_stop_handler();
  AlphaBeta<1> ab(20, &stop_requested());
  std::vector<MoveValue> values;
  auto solve_child = [&](const Position<1>& child, Move m) {
    MoveValue v{m, !solve_position(child, tt, opt, threads, &stop_requested()).mover_wins, -1};
    if (remoteness) v.remoteness = remoteness_of(ab.score(child)) + 1;
    values.push_back(v);
  };
  const Bitboard<1> legal = game.placements();
  try {
    if (legal.none()) {
      Position<1> q = pos;
      q.pass();
      solve_child(q, kPass);
    }
    legal.for_each([&](int m) {
      if (konobi_wins_by(pos, m)) return values.push_back({m, true, remoteness ? 1 : -1});
      Position<1> q = pos;
      q.place(m);
      solve_child(q, m);
    });
  } catch (const SearchStopped&) {
    std::cerr << "konobi analyze: interrupted\n";
    return 130;
  }
  bool wins = false;
  int best_remote = -1;
  for (const MoveValue& v : values) wins |= v.wins;
  // The winner hurries, the loser delays.
  for (const MoveValue& v : values)
    if (v.wins == wins && v.remoteness >= 0)
      best_remote = best_remote < 0 ? v.remoteness : wins ? std::min(best_remote, v.remoteness) : std::max(best_remote, v.remoteness);
  std::sort(values.begin(), values.end(), [&](const MoveValue& a, const MoveValue& b) {
    if (a.wins != b.wins) return a.wins;
    if (a.remoteness != b.remoteness) return a.wins ? a.remoteness < b.remoteness : a.remoteness > b.remoteness;
    return a.move < b.move;
  });
  Position<1> root = pos;
  root.swap_available = false;
  solve_position(root, tt, opt, threads, &stop_requested());
  const std::vector<Move> pv = principal_variation(root, tt, opt.symmetry, pos.g->cells);
  const char* side = pos.to_move == Black ? "black" : "white";
  if (!svg.empty()) {
    // Each legal point tinted by the colour that wins after the move there,
    // labelled W (the mover wins) or L, with the remoteness when known.
    SvgBoard b;
    b.n = n;
    for (int p = 0; p < pos.g->cells; ++p) b.cells.push_back(pos.at(p));
    b.values.resize(pos.g->cells);
    for (const MoveValue& v : values) {
      if (v.move < 0) continue;
      const Color winner = v.wins ? pos.to_move : Color(1 - pos.to_move);
      b.values[v.move].side = winner == Black ? SvgValue::Black : SvgValue::White;
      b.values[v.move].text = std::string(v.wins ? "W" : "L") + (v.remoteness >= 0 ? std::to_string(v.remoteness) : "");
    }
    b.title = std::string(color_name(pos.to_move)) + " to move " + (wins ? "wins" : "loses") +
              (remoteness ? " in " + std::to_string(best_remote) + " plies" : "");
    b.notes.push_back("Each legal point: W the move wins, L it loses" +
                      std::string(remoteness ? ", with the plies to the end" : "") + ".");
    b.notes.push_back("Tint: the colour that wins after the move.");
    if (values.size() == 1 && values[0].move == kPass) b.notes.push_back("No legal placement: the mover passes.");
    b.notes.push_back(format_position(to_text(pos)));
    write_file_atomically(svg, render_svg(b));
  }
  if (json) {
    JsonWriter j(std::cout);
    j.begin_object().field("game", "konobi").field("size", n).field("position", format_position(to_text(pos)));
    j.field("to_move", side).field("value", wins ? "win" : "loss");
    if (remoteness) j.field("remoteness", best_remote);
    j.key("moves").begin_array();
    for (const MoveValue& v : values) {
      j.begin_object().field("move", move_name(n, v.move)).field("value", v.wins ? "win" : "loss");
      if (remoteness) j.field("remoteness", v.remoteness);
      j.end_object();
    }
    j.end_array();
    j.key("pv").begin_array();
    for (Move m : pv) j.value(move_name(n, m));
    j.end_array();
    j.end_object().finish();
    return 0;
  }
  std::cout << "Position: " << format_position(to_text(pos)) << "\n"
            << color_name(pos.to_move) << " to move " << (wins ? "wins" : "loses");
  if (remoteness) std::cout << " in " << best_remote << " plies with best play";
  std::cout << ".\n";
  if (pos.swap_available)
    std::cout << "(White may also swap: that is right exactly when White to move loses here.)\n";
  std::cout << "Moves:\n";
  for (const MoveValue& v : values) {
    std::cout << "  " << std::setw(5) << move_name(n, v.move) << "  " << (v.wins ? "win " : "loss");
    if (remoteness) std::cout << "  (game ends after " << v.remoteness << " plies)";
    std::cout << "\n";
  }
  std::cout << "Principal variation: " << format_record(n, pv) << "\n";
  return 0;
}

}  // namespace

int cmd_analyze(const Args& args) {
  po::options_description opts("analyze options");
  po::positional_options_description positional;
  GameInput input;
  bool remoteness = false, json = false;
  std::string svg;
  double tt_mb = 256;
  int threads = 1;
  input.add_options(opts, positional);
  opts.add_options()
    ("remoteness,r", po::bool_switch(&remoteness), "also compute plies to the end under perfect play (alpha-beta)")
    ("tt-mb", po::value<double>(&tt_mb)->default_value(256), "transposition table size in MiB")
    ("threads,t", po::value<int>(&threads)->default_value(1), "search threads")
    ("json", po::bool_switch(&json), "print JSON")
    ("svg", po::value<std::string>(&svg), "also draw the analysis to this SVG file: each legal point's value");
  po::variables_map vm;
  if (parse_command_line("analyze", "[--size N | --position P] [MOVE...] [--remoteness] [--json] [--svg FILE]", args, opts, vm, &positional))
    return 0;
  if (input.board_size() > 8) throw UsageError("analyze searches boards up to 8x8");
  if (threads < 1 || threads > 256) throw UsageError("--threads must be from 1 to 256");
  return analyze(input, remoteness, json, tt_mb, threads, svg);
}

}  // namespace konobi
