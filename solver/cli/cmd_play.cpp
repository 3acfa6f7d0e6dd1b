// konobi play: a console game. Each side is a person, the random mover, the
// solver (boards up to 8x8) or the engine (every board); the board is drawn after every move, White is asked
// about the pie swap, forced passes are played and announced, illegal input is explained.
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <type_traits>

#include "command.h"
#include "diagram.h"
#include "game_input.h"
#include "solver/engine/engine.h"
#include "solver/search/move_choice.h"

namespace konobi {

namespace {

enum class Player { Human, Random, Solver, Engine };

Player parse_player(const std::string& s, const char* which) {
  if (s == "human") return Player::Human;
  if (s == "random") return Player::Random;
  if (s == "solver") return Player::Solver;
  if (s == "engine") return Player::Engine;
  throw UsageError(std::string("--") + which + " must be 'human', 'random', 'solver' or 'engine', not " +
                   quote_token(s));
}

struct SolverSettings {
  double seconds = 10, table_mb = 256;
  int threads = 1;
};

bool read_line(std::istream& in, std::string& line) {
  std::cout << std::flush;
  return bool(std::getline(in, line));
}

// A person's answer to the pie rule's question; nothing when the input ends.
std::optional<bool> ask_swap(const std::string& seat) {
  while (true) {
    std::cout << "White (" << seat << "): swap colours and take Black's stone? [y/n] ";
    std::string line;
    if (!read_line(std::cin, line))
      return std::cout << "\nInput ended; game left unfinished.\n", std::nullopt;
    if (line == "y" || line == "yes" || line == "swap") return true;
    if (line == "n" || line == "no") return false;
    std::cout << "Please answer y or n.\n";
  }
}

// A person's legal move, asked until one comes ('moves' lists the legal
// points); nothing when the person quits or the input ends.
template <class Rules, int W>
std::optional<Move> ask_move(const Game<Rules, W>& game, const std::string& who) {
  const int n = game.position().size();
  while (true) {
    std::cout << who << " to move: ";
    std::string line;
    if (!read_line(std::cin, line))
      return std::cout << "\nInput ended; game left unfinished.\n", std::nullopt;
    const auto words = split_words(line);
    if (words.empty()) continue;
    if (words[0] == "quit" || words[0] == "q") return std::cout << "Game left unfinished.\n", std::nullopt;
    if (words[0] == "moves") {
      std::cout << "Legal:";
      game.placements().for_each([&](int p) { std::cout << ' ' << point_name(n, p); });
      std::cout << "\n";
      continue;
    }
    Move m;
    try {
      m = parse_move(n, words[0]);
    } catch (const ParseError& e) {
      std::cout << e.what() << ". Try again.\n";
      continue;
    }
    if (const std::string why = game.why_illegal(m); !why.empty()) {
      std::cout << "Illegal: " << why << ". Try again.\n";
      continue;
    }
    return m;
  }
}

// What the solver says about its move: a proven win once per seat, a
// proven loss, or no proof within its time.
void announce_solver_move(const MoveChoice& choice, bool& announced_win, double seconds) {
  if (choice.knowledge == MoveChoice::ProvenWin && !announced_win) {
    announced_win = true;
    std::cout << " and has a proven win";
  } else if (choice.knowledge == MoveChoice::ProvenLoss) {
    std::cout << " (it knows it has lost and resists as long as it can)";
  } else if (choice.knowledge == MoveChoice::Unproven) {
    std::cout << " (no proof within " << seconds << " s: the evaluation's choice)";
  }
  std::cout << ".\n";
}

// What the engine says about its move, after the move's name.
void announce_engine_move(const EngineChoice& choice) { std::cout << " (" << choice.said << ").\n"; }

template <class Rules, int W>
int play(const GameInput& input, const typename Rules::Variant& variant, Player players[2], uint64_t seed,
         const SolverSettings& ss) {
  constexpr bool gonnect = std::is_same_v<Rules, GonnectRules>;
  auto game = input.build_game<Rules, W>(variant);
  const int n = game.position().size();
  std::mt19937_64 rng(seed);
  std::unique_ptr<SolverPlayer<W, std::conditional_t<gonnect, GonnectSearch, KonobiSearch>>> solver;
  if (players[0] == Player::Solver || players[1] == Player::Solver)
    solver = std::make_unique<SolverPlayer<W, std::conditional_t<gonnect, GonnectSearch, KonobiSearch>>>(
        ss.table_mb, ss.seconds, ss.threads);
  bool announced_win[2] = {false, false};
  // The engine's view of the game: the start and every move since.
  auto engine_choice = [&] {
    GameRecord record;
    record.spec.gonnect = gonnect;
    record.spec.size = n;
    if constexpr (gonnect) record.spec.ko = variant.ko, record.spec.edges = variant.edges;
    if (input.given_position) record.start = input.position;
    record.moves = game.moves();
    EngineLimits limits;
    limits.seconds = ss.seconds;
    limits.table_mb = ss.table_mb;
    limits.seed = seed + game.moves().size();
    return engine_move(record, limits);
  };
  std::optional<EngineChoice> engine_pending;  // the engine's move when it declined the swap
  auto show = [&] {
    std::vector<char> marks(n * n, 0);
    if (!game.moves().empty() && game.moves().back() >= 0) {
      const Move last = game.moves().back();
      marks[last] = game.position().at(last) == Black ? 'b' : 'w';
    }
    std::cout << "\n" << render_board(game.position(), marks);
  };
  // Colours are fixed to players until a swap exchanges them.
  auto player_of = [&](Color c) { return players[game.swapped() ? other(c) : c]; };
  auto seat = [&](Color c) {
    return std::string(game.swapped() ? (c == Black ? "second player" : "first player")
                                      : (c == Black ? "first player" : "second player"));
  };
  if constexpr (gonnect)
    std::cout << "Gonnect " << n << "x" << n << " (ko rule: " << ko_rule_name(variant.ko) << "). "
              << (variant.edges == EdgeRule::Either ? "A chain joining either pair of opposite edges wins; "
                                                    : "Black joins top and bottom, White left and right; ")
              << "no passing: a player without a legal move loses.\n";
  else std::cout << "Konobi " << n << "x" << n << ". Black joins top and bottom, White left and right.\n";
  std::cout << "Type a point (like c3), 'moves' for the legal points, 'quit' to stop.\n";
  show();
  while (!game.over()) {
    const Position<W>& pos = game.position();
    const Color c = pos.to_move;
    if (game.must_pass()) {
      std::cout << color_name(c) << " has no legal placement and passes.\n";
      game.play(kPass);
      continue;
    }
    if (pos.swap_available) {
      bool swap = false;
      if (player_of(c) == Player::Random) {
        swap = std::uniform_int_distribution<int>(0, 1)(rng) == 1;
      } else if (player_of(c) == Player::Solver) {
        swap = solver->should_swap(game.state());
        if (!swap) std::cout << "White (solver) keeps White.\n";
      } else if (player_of(c) == Player::Engine) {
        const EngineChoice choice = engine_choice();
        swap = choice.move == kSwap;
        if (swap) std::cout << "White (engine) swaps (" << choice.said << ").\n";
        else std::cout << "White (engine) keeps White.\n", engine_pending = choice;
      } else {
        const std::optional<bool> answer = ask_swap(seat(c));
        if (!answer) return 1;
        swap = *answer;
      }
      if (swap) {
        game.play(kSwap);
        std::cout << "Swap: the players exchange colours. The first player now holds White and moves next.\n";
        continue;
      }
    }
    Move m;
    if (player_of(c) == Player::Engine) {
      const EngineChoice choice = engine_pending ? *engine_pending : engine_choice();
      engine_pending.reset();
      m = choice.move;
      std::cout << color_name(c) << " (engine) plays " << move_name(n, m);
      announce_engine_move(choice);
    } else if (player_of(c) == Player::Solver) {
      const MoveChoice choice = solver->choose(game.state());
      m = choice.move;
      std::cout << color_name(c) << " (solver) plays " << point_name(n, m);
      const int seat_index = (c == Black) != game.swapped() ? 0 : 1;
      announce_solver_move(choice, announced_win[seat_index], ss.seconds);
    } else if (player_of(c) == Player::Random) {
      const std::vector<Move> moves = game.legal_moves();
      std::vector<Move> placements;
      for (Move x : moves)
        if (x >= 0) placements.push_back(x);
      m = placements[std::uniform_int_distribution<size_t>(0, placements.size() - 1)(rng)];
      std::cout << color_name(c) << " (random) plays " << point_name(n, m) << ".\n";
    } else {
      const std::optional<Move> chosen = ask_move(game, std::string(color_name(c)) + " (" + seat(c) + ")");
      if (!chosen) return 1;
      m = *chosen;
    }
    game.play(m);
    show();
  }
  const Color w = Color(game.winner());
  if (game.ended_without_move())
    std::cout << color_name(other(w)) << " has no legal move and loses. " << color_name(w) << " (" << seat(w)
              << ") wins.\n";
  else if (gonnect) std::cout << color_name(w) << " (" << seat(w) << ") wins, joining two opposite edges.\n";
  else
    std::cout << color_name(w) << " (" << seat(w) << ") wins, joining both "
              << (w == Black ? "top and bottom" : "left and right") << " edges.\n";
  std::cout << "Record: " << format_record(n, game.moves()) << "\n";
  return 0;
}

}  // namespace

int cmd_play(const Args& args) {
  po::options_description opts("play options");
  po::positional_options_description positional;
  GameInput input;
  GameChoice choice;
  std::string black = "human", white = "human", vs;
  SolverSettings ss;
  uint64_t seed = std::random_device{}();
  input.add_options(opts, positional);
  choice.add_options(opts, "superko");
  // clang-format off
  opts.add_options()
    ("black", po::value<std::string>(&black)->default_value("human"), "first player, who starts as Black: human, random, solver or engine")
    ("white", po::value<std::string>(&white)->default_value("human"), "second player, who starts as White: human, random, solver or engine")
    ("vs", po::value<std::string>(&vs), "the same as --white: your opponent (you play first)")
    ("think", po::value<double>(&ss.seconds)->default_value(10), "the solver's or the engine's time per move in seconds")
    ("tt-mb", po::value<double>(&ss.table_mb)->default_value(256), "the solver's table in MiB (the engine's too)")
    ("threads,t", po::value<int>(&ss.threads)->default_value(1), "the solver's threads")
    ("seed", po::value<uint64_t>(&seed), "seed for the random mover and the engine");
  // clang-format on
  po::variables_map vm;
  if (parse_command_line("play",
                         "[--game G] --size N [--black human|random|solver|engine] [--white ...|--vs engine]",
                         args, opts, vm, &positional))
    return 0;
  if (vm.count("vs")) {
    if (!vm["white"].defaulted()) throw UsageError("give --vs or --white, not both");
    white = vs;
  }
  // The deadline waits on a clock counting nanoseconds, which overflows
  // past about 292 years; a million seconds (11 days) is already beyond use.
  if (!(ss.seconds > 0 && ss.seconds <= 1e6))
    throw UsageError("--think must be a positive number of seconds, up to 1e6");
  if (ss.threads < 1 || ss.threads > 256) throw UsageError("--threads must be from 1 to 256");
  Player players[2] = {parse_player(black, "black"), parse_player(white, "white")};
  if ((players[0] == Player::Solver || players[1] == Player::Solver) && input.board_size() > 8)
    throw UsageError("the solver plays on boards up to 8x8, like solve and analyze");
  choice.check(vm);
  if (choice.gonnect() && (players[0] == Player::Solver || players[1] == Player::Solver) &&
      choice.variant().ko != KoRule::Superko)
    throw UsageError(
        "the solver plays Gonnect only under --ko superko: under the simple ko rule a game can cycle for "
        "ever, so positions have no proven value");
  return with_words(input.board_size(), [&](auto w) {
    return choice.dispatch([&](auto rules, const auto& v) {
      return play<decltype(rules), decltype(w)::value>(input, v, players, seed, ss);
    });
  });
}

}  // namespace konobi
