// konobi gtp: the engine, or a baseline player, over the Go Text Protocol on
// standard input and output (the interpreter is solver/engine/gtp.h).
#include <iostream>

#include "command.h"
#include "core/notation.h"
#include "game_input.h"
#include "konobi_version.h"
#include "solver/engine/gtp.h"

namespace konobi {

int cmd_gtp(const Args& args) {
  po::options_description opts("gtp options");
  GameChoice choice;
  std::string player = "engine";
  GtpOptions g;
  int size = 9;
  choice.add_options(opts, "superko");
  // clang-format off
  opts.add_options()
    ("player", po::value<std::string>(&player)->default_value("engine"),
     "who answers genmove: engine, random (a uniform legal move) or greedy (the one-ply move that best "
     "improves the connection distance)")
    ("size,n", po::value<int>(&size)->default_value(9), "board size until a boardsize command, 3 to 19")
    ("think", po::value<double>(&g.think)->default_value(1), "the engine's seconds per move at most")
    ("playouts", po::value<long>(&g.playouts)->default_value(0),
     "stop the engine's search after this many playouts (reproducible moves); 0: by time")
    ("tt-mb", po::value<double>(&g.table_mb)->default_value(64), "the solver's table in MiB")
    ("seed", po::value<uint64_t>(&g.seed)->default_value(0), "seed for the players' random choices");
  // clang-format on
  po::variables_map vm;
  if (parse_command_line("gtp",
                         "[--player engine|random|greedy] [--game G] [--size N] [--think S] [--seed N]", args,
                         opts, vm))
    return 0;
  if (player == "engine") g.player = GtpOptions::Player::Engine;
  else if (player == "random") g.player = GtpOptions::Player::Random;
  else if (player == "greedy") g.player = GtpOptions::Player::Greedy;
  else throw UsageError("--player must be 'engine', 'random' or 'greedy', not " + quote_token(player));
  if (size < kMinSize || size > kMaxSize) throw UsageError("--size must be from 3 to 19");
  if (!(g.think > 0 && g.think <= 1e6))
    throw UsageError("--think must be a positive number of seconds, up to 1e6");
  if (g.playouts < 0 || g.playouts > 1000000000) throw UsageError("--playouts must be from 0 to 1e9");
  if (!(g.table_mb >= 1 && g.table_mb <= 65536)) throw UsageError("--tt-mb must be from 1 to 65536");
  choice.check(vm);
  g.spec.size = size;
  g.spec.gonnect = choice.gonnect();
  if (g.spec.gonnect) {
    g.spec.ko = choice.variant().ko;
    g.spec.edges = choice.variant().edges;
  }
  g.version = KONOBI_VERSION;
  GtpSession session(g);
  session.run(std::cin, std::cout);
  return 0;
}

}  // namespace konobi
