#include "game_input.h"

namespace konobi {

void GameInput::add_options(po::options_description& opts, po::positional_options_description& pos) {
  // clang-format off
  opts.add_options()
    ("size,n", po::value<int>(&size)->notifier([this](int) { given_size = true; }),
     "board size, 3 to 19 (taken from --position when given)")
    ("position,p", po::value<std::string>(&position)->notifier([this](const std::string&) { given_position = true; }),
     "start position: rows from the top separated by '/', then b or w (see docs/NOTATION.md)")
    ("moves", po::value<std::vector<std::string>>(&moves)->multitoken(),
     "moves played from the start: points like c3, pass, swap");
  // clang-format on
  pos.add("moves", -1);
}

int GameInput::board_size() const {
  if (given_position) {
    const int n = parse_position(position).n;
    if (given_size && size != n)
      throw UsageError("--size " + std::to_string(size) + " disagrees with the position, which is " +
                       std::to_string(n) + "x" + std::to_string(n));
    return n;
  }
  if (!given_size) throw UsageError("give the board size with --size N (or a --position)");
  check_size(size);
  return size;
}

}  // namespace konobi

namespace konobi {

void GameChoice::add_options(po::options_description& opts, const char* dko) {
  default_ko = dko;
  // clang-format off
  opts.add_options()
    ("game", po::value<std::string>(&game)->default_value("konobi"), "the game: konobi or gonnect")
    ("ko", po::value<std::string>(&ko),
     (std::string("gonnect: 'simple' (no recreating the board after the mover's previous move) or "
                  "'superko' (no recreating any earlier board); default ") + dko).c_str())
    ("edges", po::value<std::string>(&edges)->default_value("either"),
     "gonnect: 'either' (either pair of opposite edges wins for either colour) or 'own' "
     "(Black top-bottom, White left-right)");
  // clang-format on
}

bool GameChoice::gonnect() const {
  if (game == "konobi") return false;
  if (game == "gonnect") return true;
  throw UsageError("--game must be 'konobi' or 'gonnect', not " + quote_token(game));
}

GonnectVariant GameChoice::variant() const {
  GonnectVariant v;
  const std::string k = ko.empty() ? default_ko : ko;
  const auto ko_rule = parse_ko_rule(k);
  if (!ko_rule) throw UsageError("--ko must be 'simple' or 'superko', not " + quote_token(k));
  const auto edge_rule = parse_edge_rule(edges);
  if (!edge_rule) throw UsageError("--edges must be 'either' or 'own', not " + quote_token(edges));
  v.ko = *ko_rule;
  v.edges = *edge_rule;
  return v;
}

void GameChoice::check(const po::variables_map& vm) const {
  if (!gonnect() && (vm.count("ko") || !vm["edges"].defaulted()))
    throw UsageError("--ko and --edges are Gonnect options; add --game gonnect");
  if (gonnect()) variant();
}

}  // namespace konobi
