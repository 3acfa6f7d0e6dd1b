// The options every command that takes a position shares: the game and its
// variant, a size, a position string, and moves played from it (or from the
// empty board).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "command.h"
#include "core/game.h"

namespace konobi {

// --game konobi|gonnect with Gonnect's --ko and --edges.
struct GameChoice {
  std::string game = "konobi";
  std::string ko, edges = "either";
  const char* default_ko = "superko";

  // default_ko: the ko rule when --ko is not given, per command.
  void add_options(po::options_description& opts, const char* default_ko);
  bool gonnect() const;  // throws UsageError on an unknown game
  // Gonnect's variant from --ko and --edges; throws UsageError.
  GonnectVariant variant() const;
  // Rejects --ko / --edges given with --game konobi.
  void check(const po::variables_map& vm) const;

  // Calls f(Rules{}, variant) for the chosen game: the one place where the
  // run-time game choice becomes a compile-time rules type.
  template <class F>
  decltype(auto) dispatch(F&& f) const {
    if (gonnect()) return f(GonnectRules{}, variant());
    return f(KonobiRules{}, KonobiRules::Variant{});
  }
};

struct GameInput {
  int size = 0;  // --size when given_size; else from the position, or missing
  std::string position;
  std::vector<std::string> moves;
  bool given_position = false;  // --position was on the command line, even if empty
  bool given_size = false;      // --size was on the command line, even as 0

  void add_options(po::options_description& opts, po::positional_options_description& pos);
  int board_size() const;  // throws UsageError / ParseError
  // Sets up the start position and plays the moves; throws on bad input. A
  // Gonnect position given as a diagram starts a game: its history (for ko)
  // is empty.
  template <class Rules, int W>
  Game<Rules, W> build_game(const typename Rules::Variant& v) const {
    using G = Game<Rules, W>;
    G game =
        !given_position
            ? G::new_game(board_size(), v)
            : G(Rules::start(
                  from_text<W>(parse_position(position), &Rules::template geometry<W>(board_size(), v)), v));
    std::string record;
    for (const auto& m : moves) record += m + " ";
    game.play_record(parse_record(board_size(), record));
    return game;
  }
  template <int W>
  Game<KonobiRules, W> build() const {
    return build_game<KonobiRules, W>({});
  }
};

}  // namespace konobi
