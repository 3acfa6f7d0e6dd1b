// konobi show: a position or game record for people (diagram, turn, legal
// points, the reason for every illegal one) or for scripts (--json).
#include <iostream>

#include "command.h"
#include "diagram.h"
#include "game_input.h"
#include "solver/io/atomic_file.h"
#include "solver/io/game_json.h"
#include "solver/io/json.h"
#include "solver/io/svg.h"

namespace konobi {

namespace {

// The picture: stones, the last move, and the illegal empty points.
template <int W, class G>
std::string show_svg(const G& game, const std::vector<std::pair<int, PointVerdict>>& illegal) {
  const Position<W>& pos = game.position();
  const int n = pos.size();
  SvgBoard b;
  b.n = n;
  for (int p = 0; p < pos.g->cells; ++p) b.cells.push_back(pos.at(p));
  b.marks.assign(pos.g->cells, SvgMark::None);
  for (const auto& [p, v] : illegal)
    b.marks[p] = v.kind == PointVerdict::Crosscut ? SvgMark::Crosscut : SvgMark::WeakIllegal;
  if (!game.moves().empty() && game.moves().back() >= 0) b.marks[game.moves().back()] = SvgMark::LastMove;
  b.title = "Konobi " + std::to_string(n) + "x" + std::to_string(n) + ": " +
            (game.over() ? std::string(color_name(Color(game.winner()))) + " has won"
                         : std::string(color_name(pos.to_move)) + " to move");
  if (!game.moves().empty()) b.notes.push_back("Moves: " + format_record(n, game.moves()));
  b.notes.push_back(format_position(to_text(pos)));
  if (!illegal.empty()) b.notes.push_back("Bar: illegal by the weak-connection rule; cross: crosscut.");
  return render_svg(b);
}

template <int W>
int show(const GameInput& input, bool json, const std::string& svg) {
  const auto game = input.build<W>();
  const Position<W>& pos = game.position();
  const int n = pos.size();
  const Bitboard<W> legal = game.placements();
  std::vector<std::pair<int, PointVerdict>> illegal;
  if (!game.over())
    pos.empty_points().minus(legal).for_each(
        [&](int p) { illegal.emplace_back(p, explain_point(pos, pos.to_move, p)); });
  if (!svg.empty()) write_file_atomically(svg, show_svg<W>(game, illegal));

  if (json) {
    Json j = {{"game", "konobi"}, {"size", n}};
    add_game_fields(j, game, n);
    j["must_pass"] = game.must_pass();
    add_legal(j, legal, n);
    add_illegal(j, game, false);
    std::cout << json_text(j);
    return 0;
  }

  std::vector<char> marks(pos.g->cells, 0);
  for (const auto& [p, v] : illegal) marks[p] = v.kind == PointVerdict::Crosscut ? 'x' : '-';
  if (!game.moves().empty()) {
    const Move last = game.moves().back();
    if (last >= 0) marks[last] = pos.at(last) == Black ? 'b' : 'w';
  }
  std::cout << render_board(pos, marks);
  std::cout << "Black joins the top and bottom (=), White the left and right (|).\n";
  if (!game.moves().empty()) std::cout << "Moves: " << format_record(n, game.moves()) << "\n";
  std::cout << "Position: " << format_position(to_text(pos)) << "\n";
  if (game.swapped()) std::cout << "The players swapped colours: the first player now holds White.\n";
  if (game.over()) {
    std::cout << color_name(Color(game.winner())) << " has won.\n";
    return 0;
  }
  std::cout << color_name(pos.to_move) << " to move";
  if (pos.swap_available) std::cout << " (may swap: pie rule)";
  std::cout << ".\n";
  if (legal.none()) {
    std::cout << color_name(pos.to_move) << " has no legal placement and must pass.\n";
  } else {
    std::cout << "Legal (" << legal.count() << "):";
    legal.for_each([&](int p) { std::cout << ' ' << point_name(n, p); });
    std::cout << "\n";
  }
  if (!illegal.empty()) {
    std::cout << "Illegal empty points ('-' weak-connection rule, 'x' crosscut):\n";
    for (const auto& [p, v] : illegal) std::cout << "  " << explain_illegal(pos, p) << "\n";
  }
  return 0;
}

// Gonnect: illegal empty points are suicide or repetitions (ko, superko).
template <int W>
int show_gonnect(const GameInput& input, const GonnectVariant& v, bool json) {
  const auto game = input.build_game<GonnectRules, W>(v);
  const GonnectState<W>& st = game.state();
  const Position<W>& pos = game.position();
  const int n = pos.size();
  const Bitboard<W> legal = game.placements();
  const GonnectLegality<W> L = gonnect_legality(st);
  const bool open = !game.over() || game.ended_without_move();
  const Bitboard<W> illegal = open ? pos.empty_points().minus(legal) : Bitboard<W>();

  if (json) {
    Json j = {{"game", "gonnect"},
              {"ko_rule", ko_rule_name(v.ko)},
              {"edges", edge_rule_name(v.edges)},
              {"size", n}};
    add_game_fields(j, game, n);
    j["no_legal_move"] = game.ended_without_move();
    add_legal(j, legal, n);
    add_illegal(j, game, false);
    std::cout << json_text(j);
    return 0;
  }

  std::vector<char> marks(pos.g->cells, 0);
  illegal.for_each([&](int p) { marks[p] = L.suicide.test(p) ? '-' : 'k'; });
  if (!game.moves().empty()) {
    const Move last = game.moves().back();
    if (last >= 0) marks[last] = pos.at(last) == Black ? 'b' : 'w';
  }
  std::cout << render_board(pos, marks);
  std::cout << "Gonnect: a chain joining "
            << (v.edges == EdgeRule::Either ? "either pair of opposite edges wins for either colour"
                                            : "Black's top and bottom (=) or White's left and right (|) wins")
            << "; ko rule: " << ko_rule_name(v.ko) << ".\n";
  if (!game.moves().empty()) std::cout << "Moves: " << format_record(n, game.moves()) << "\n";
  std::cout << "Position: " << format_position(to_text(pos)) << "\n";
  if (game.swapped()) std::cout << "The players swapped colours: the first player now holds White.\n";
  if (game.over()) {
    if (game.ended_without_move()) std::cout << color_name(pos.to_move) << " has no legal move and loses: ";
    std::cout << color_name(Color(game.winner())) << " has won.\n";
    if (!game.ended_without_move()) return 0;
  } else {
    std::cout << color_name(pos.to_move) << " to move";
    if (pos.swap_available) std::cout << " (may swap: pie rule)";
    std::cout << ".\n";
    std::cout << "Legal (" << legal.count() << "):";
    legal.for_each([&](int p) { std::cout << ' ' << point_name(n, p); });
    std::cout << "\n";
  }
  if (illegal.any()) {
    std::cout << "Illegal empty points ('-' suicide, 'k' " << (v.ko == KoRule::Simple ? "ko" : "superko")
              << "):\n";
    illegal.for_each([&](int p) { std::cout << "  " << gonnect_explain_illegal(st, p) << "\n"; });
  }
  return 0;
}

}  // namespace

int cmd_show(const Args& args) {
  po::options_description opts("show options");
  po::positional_options_description positional;
  GameInput input;
  GameChoice choice;
  bool json = false;
  std::string svg;
  input.add_options(opts, positional);
  choice.add_options(opts, "superko");
  // clang-format off
  opts.add_options()("json", po::bool_switch(&json), "print JSON instead of a diagram")
    ("svg", po::value<std::string>(&svg), "also draw the position to this SVG file: stones, the last move, illegal points");
  // clang-format on
  po::variables_map vm;
  if (parse_command_line("show", "[--game G] [--size N | --position P] [MOVE...] [--json] [--svg FILE]", args,
                         opts, vm, &positional))
    return 0;
  choice.check(vm);
  if (choice.gonnect()) {
    if (!svg.empty()) throw UsageError("--svg draws Konobi positions only; leave it out with --game gonnect");
    return with_words(input.board_size(), [&](auto w) {
      return show_gonnect<decltype(w)::value>(input, choice.variant(), json);
    });
  }
  return with_words(input.board_size(), [&](auto w) { return show<decltype(w)::value>(input, json, svg); });
}

}  // namespace konobi
