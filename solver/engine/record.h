// A GameRecord (engine.h) as a checked game: the run-time game and size
// become the compile-time rules type and board word count here, and the
// record is replayed through core/game.h, so every move is judged by the
// one referee and a bad record throws RuleError or ParseError naming it.
#pragma once

#include <stdexcept>
#include <string>
#include <type_traits>

#include "core/game.h"
#include "engine.h"

namespace konobi {

// Calls f(Rules{}, variant, std::integral_constant<int, W>{}) for the
// record's game and size. Throws std::invalid_argument for a size off the
// supported range.
template <class F>
decltype(auto) dispatch_game(const GameSpec& spec, F&& f) {
  if (spec.size < kMinSize || spec.size > kMaxSize)
    throw std::invalid_argument("board size must be from " + std::to_string(kMinSize) + " to " +
                                std::to_string(kMaxSize) + ", not " + std::to_string(spec.size));
  return with_words(spec.size, [&](auto w) -> decltype(auto) {
    if (spec.gonnect) return f(GonnectRules{}, GonnectVariant{spec.ko, spec.edges}, w);
    return f(KonobiRules{}, KonobiRules::Variant{}, w);
  });
}

// The game the record describes, every move played and checked.
template <class Rules, int W>
Game<Rules, W> replay(const GameRecord& record, const typename Rules::Variant& v) {
  using G = Game<Rules, W>;
  const Geometry<W>& g = Rules::template geometry<W>(record.spec.size, v);
  G game = G::new_game(record.spec.size, v);
  if (!record.start.empty()) {
    const PositionText t = parse_position(record.start);
    if (t.n != record.spec.size)
      throw ParseError("the position is " + std::to_string(t.n) + "x" + std::to_string(t.n) + ", not " +
                       std::to_string(record.spec.size) + "x" + std::to_string(record.spec.size));
    game = G(Rules::start(from_text<W>(t, &g), v));
  }
  game.play_record(record.moves);
  return game;
}

// The board inside a rules state, writable (the engine turns the pie swap
// off in the states it searches).
template <int W>
Position<W>& board_of(Position<W>& s) {
  return s;
}
template <int W>
Position<W>& board_of(GonnectState<W>& s) {
  return s.pos;
}

}  // namespace konobi
