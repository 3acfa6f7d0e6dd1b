// konobi analyze: the proven value of a position for the side to move and of
// every legal move, with remoteness on request and a principal variation.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <type_traits>
#include <utility>
#include <vector>

#include "command.h"
#include "game_input.h"
#include "progress.h"
#include "solver/io/atomic_file.h"
#include "solver/io/json.h"
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

// The mover's value (a win if any move wins) and its best remoteness (the
// winner hurries, the loser delays; -1 unless asked for); sorts the moves
// wins first, the best first within each value.
std::pair<bool, int> order_moves(std::vector<MoveValue>& values) {
  bool wins = false;
  int best_remote = -1;
  for (const MoveValue& v : values) wins |= v.wins;
  for (const MoveValue& v : values)
    if (v.wins == wins && v.remoteness >= 0)
      best_remote = best_remote < 0 ? v.remoteness
                    : wins          ? std::min(best_remote, v.remoteness)
                                    : std::max(best_remote, v.remoteness);
  std::sort(values.begin(), values.end(), [&](const MoveValue& a, const MoveValue& b) {
    if (a.wins != b.wins) return a.wins;
    if (a.remoteness != b.remoteness)
      return a.wins ? a.remoteness < b.remoteness : a.remoteness > b.remoteness;
    return a.move < b.move;
  });
  return {wins, best_remote};
}

// The analysis as a picture: each legal point tinted by the colour that wins
// after the move there, labelled W (the mover wins) or L, with the
// remoteness when known.
SvgBoard analysis_svg(const Position<1>& pos, const std::vector<MoveValue>& values, bool wins,
                      bool remoteness, int best_remote) {
  SvgBoard b;
  b.n = pos.size();
  for (int p = 0; p < pos.g->cells; ++p) b.cells.push_back(pos.at(p));
  b.values.resize(pos.g->cells);
  for (const MoveValue& v : values) {
    if (v.move < 0) continue;
    const Color winner = v.wins ? pos.to_move : Color(1 - pos.to_move);
    b.values[v.move].side = winner == Black ? SvgValue::Black : SvgValue::White;
    b.values[v.move].text =
        std::string(v.wins ? "W" : "L") + (v.remoteness >= 0 ? std::to_string(v.remoteness) : "");
  }
  b.title = std::string(color_name(pos.to_move)) + " to move " + (wins ? "wins" : "loses") +
            (remoteness ? " in " + std::to_string(best_remote) + " plies" : "");
  b.notes.push_back("Each legal point: W the move wins, L it loses" +
                    std::string(remoteness ? ", with the plies to the end" : "") + ".");
  b.notes.push_back("Tint: the colour that wins after the move.");
  if (values.size() == 1 && values[0].move == kPass)
    b.notes.push_back("No legal placement: the mover passes.");
  b.notes.push_back(format_position(to_text(pos)));
  return b;
}

template <class Game>
int analyze(const GameInput& input, const typename Game::Rules::Variant& variant, bool remoteness, bool json,
            double tt_mb, int threads, const std::string& svg) {
  using Rules = typename Game::Rules;
  using State = typename Game::template State<1>;
  constexpr bool gonnect = std::is_same_v<Rules, GonnectRules>;
  const auto game = input.build_game<Rules, 1>(variant);
  const Position<1>& pos = game.position();
  const State& state = game.state();
  const int n = pos.size();
  auto game_fields = [&] {
    Json j = {{"game", Rules::name}};
    if constexpr (gonnect) {
      j["ko_rule"] = ko_rule_name(variant.ko);
      j["edges"] = edge_rule_name(variant.edges);
    }
    return j;
  };
  if (game.over()) {
    if (json) {
      Json j = game_fields();
      j["position"] = format_position(to_text(pos));
      j["winner"] = game.winner() == Black ? "black" : "white";
      std::cout << json_text(j);
    } else {
      if (game.ended_without_move()) std::cout << color_name(pos.to_move) << " has no legal move and loses: ";
      std::cout << color_name(Color(game.winner())) << " has already won.\n";
    }
    return 0;
  }
  TranspositionTable tt(tt_mb);
  DfpnOptions opt;
  install_stop_handler();
  AlphaBeta<1, Game> ab(20, &stop_requested());
  std::vector<MoveValue> values;
  auto solve_child = [&](const State& child, Move m) {
    MoveValue v{m, !solve_game_position<Game, 1>(child, tt, opt, threads, &stop_requested()).mover_wins, -1};
    if (remoteness) v.remoteness = remoteness_of(ab.score(child)) + 1;
    values.push_back(v);
  };
  const Bitboard<1> legal = game.placements();
  try {
    if (legal.none() && Rules::can_pass) {
      State q = state;
      Game::pass(q);
      solve_child(q, kPass);
    }
    legal.for_each([&](int m) {
      if (Rules::wins_by(state, m)) return values.push_back({m, true, remoteness ? 1 : -1});
      State q = state;
      Game::play(q, m);
      solve_child(q, m);
    });
  } catch (const SearchStopped&) {
    std::cerr << "konobi analyze: interrupted\n";
    return 130;
  }
  const auto [wins, best_remote] = order_moves(values);
  State root = state;
  if constexpr (gonnect) root.pos.swap_available = false;
  else root.swap_available = false;
  solve_game_position<Game, 1>(root, tt, opt, threads, &stop_requested());
  const std::vector<Move> pv = game_principal_variation<Game, 1>(root, tt, opt.symmetry, 4 * pos.g->cells);
  const char* side = pos.to_move == Black ? "black" : "white";
  if (!svg.empty())
    write_file_atomically(svg, render_svg(analysis_svg(pos, values, wins, remoteness, best_remote)));
  if (json) {
    Json j = game_fields();
    j["size"] = n;
    j["position"] = format_position(to_text(pos));
    j["to_move"] = side;
    j["value"] = wins ? "win" : "loss";
    if (remoteness) j["remoteness"] = best_remote;
    Json& moves = j["moves"] = Json::array();
    for (const MoveValue& v : values) {
      Json m = {{"move", move_name(n, v.move)}, {"value", v.wins ? "win" : "loss"}};
      if (remoteness) m["remoteness"] = v.remoteness;
      moves.push_back(std::move(m));
    }
    Json& line = j["pv"] = Json::array();
    for (Move m : pv) line.push_back(move_name(n, m));
    std::cout << json_text(j);
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
  GameChoice choice;
  bool remoteness = false, json = false;
  std::string svg;
  double tt_mb = 256;
  int threads = 1;
  input.add_options(opts, positional);
  choice.add_options(opts, "superko");
  // clang-format off
  opts.add_options()
    ("remoteness,r", po::bool_switch(&remoteness), "also compute plies to the end under perfect play (alpha-beta)")
    ("tt-mb", po::value<double>(&tt_mb)->default_value(256), "transposition table size in MiB")
    ("threads,t", po::value<int>(&threads)->default_value(1), "search threads")
    ("json", po::bool_switch(&json), "print JSON")
    ("svg", po::value<std::string>(&svg), "also draw the analysis to this SVG file: each legal point's value");
  // clang-format on
  po::variables_map vm;
  if (parse_command_line(
          "analyze", "[--game G] [--size N | --position P] [MOVE...] [--remoteness] [--json] [--svg FILE]",
          args, opts, vm, &positional))
    return 0;
  if (input.board_size() > 8) throw UsageError("analyze searches boards up to 8x8");
  if (threads < 1 || threads > 256) throw UsageError("--threads must be from 1 to 256");
  choice.check(vm);
  if (choice.gonnect()) {
    if (choice.variant().ko != KoRule::Superko)
      throw UsageError(
          "analyze needs --ko superko for Gonnect: under the simple ko rule a game can cycle for ever "
          "and the rules give no result for an endless game, so positions have no proven value");
    return analyze<GonnectSearch>(input, choice.variant(), remoteness, json, tt_mb, threads, svg);
  }
  return analyze<KonobiSearch>(input, {}, remoteness, json, tt_mb, threads, svg);
}

}  // namespace konobi
