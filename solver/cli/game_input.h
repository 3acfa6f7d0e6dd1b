// The options every command that takes a position shares: a size, a position
// string, and moves played from it (or from the empty board).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "command.h"
#include "core/game.h"

namespace konobi {

struct GameInput {
  int size = 0;  // 0: from the position, else required
  std::string position;
  std::vector<std::string> moves;
  bool given_position = false;  // --position was on the command line, even if empty

  void add_options(po::options_description& opts, po::positional_options_description& pos);
  int board_size() const;  // throws UsageError / ParseError
  // Sets up the start position and plays the moves; throws on bad input.
  template <int W>
  Game<KonobiRules, W> build() const {
    Game<KonobiRules, W> game = !given_position ? Game<KonobiRules, W>::new_game(board_size())
                                                 : Game<KonobiRules, W>(from_text<W>(parse_position(position)));
    std::string record;
    for (const auto& m : moves) record += m + " ";
    game.play_record(parse_record(board_size(), record));
    return game;
  }
};

}  // namespace konobi
