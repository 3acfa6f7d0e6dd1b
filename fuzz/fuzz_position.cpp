// Fuzz target: a position string and the moves played from it, the way
// `konobi show -p POSITION MOVE...` reads them (solver/cli/game_input.*):
// the first line is the position, the rest the moves. The position is set
// up and the moves played for Konobi and for two Gonnect variants, and
// every illegal point is explained as `show` would. ParseError, RuleError
// and UsageError are the expected rejections.
#include <stdexcept>

#include "core/game.h"
#include "fuzz_support.h"
#include "solver/cli/game_input.h"

using namespace konobi;
using konobi_fuzz::finding;

namespace {

template <int W>
void konobi_game(const GameInput& input) {
  const auto game = input.build<W>();
  const Position<W>& pos = game.position();
  const Bitboard<W> legal = game.placements();
  (void)game.legal_moves();
  (void)format_position(to_text(pos));
  if (game.over()) return;
  // `show` explains every empty point that is not legal; a verdict of
  // "legal" there would print a wrong reason.
  pos.empty_points().minus(legal).for_each([&](int p) {
    if (explain_point(pos, pos.to_move, p).kind == PointVerdict::Legal)
      finding("an illegal point of " + format_position(to_text(pos)) +
              " is explained as legal: " + point_name(pos.size(), p));
    (void)explain_illegal(pos, p);
  });
}

template <int W>
void gonnect_game(const GameInput& input, const GonnectVariant& v) {
  const auto game = input.build_game<GonnectRules, W>(v);
  const Bitboard<W> legal = game.placements();
  (void)game.legal_moves();
  (void)format_position(to_text(game.position()));
  if (game.over() && !game.ended_without_move()) return;
  game.position().empty_points().minus(legal).for_each(
      [&](int p) { (void)gonnect_explain_illegal(game.state(), p); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;  // a 19x19 position and a full game fit many times over
  const std::string text = konobi_fuzz::as_text(data, size);
  const size_t eol = text.find('\n');
  GameInput input;
  input.given_position = true;
  input.position = text.substr(0, eol);
  if (eol != std::string::npos) input.moves = split_words(std::string_view(text).substr(eol + 1));

  // The text form survives a round trip.
  try {
    const PositionText t = parse_position(input.position);
    const std::string again = format_position(t);
    const PositionText u = parse_position(again);
    if (u.n != t.n || u.cells != t.cells || u.to_move != t.to_move || u.swap_available != t.swap_available ||
        format_position(u) != again)
      finding("position '" + input.position + "' does not survive format_position: '" + again + "'");
  } catch (const ParseError&) {}

  try {
    with_words(input.board_size(), [&](auto w) {
      constexpr int W = decltype(w)::value;
      try {
        konobi_game<W>(input);
      } catch (const RuleError&) {}
      for (const GonnectVariant v : {GonnectVariant{KoRule::Superko, EdgeRule::Either},
                                     GonnectVariant{KoRule::Simple, EdgeRule::Own}}) {
        try {
          gonnect_game<W>(input, v);
        } catch (const RuleError&) {}
      }
    });
  } catch (const ParseError&) {
  } catch (const UsageError&) {}
  return 0;
}
