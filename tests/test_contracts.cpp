// The game contracts (core/rules.h, solver/search/searched_game.h) are
// checked by the compiler: both games model them, and a game that leaves a
// member out does not.
#include <catch2/catch.hpp>

#include "core/gonnect.h"
#include "core/konobi.h"
#include "solver/search/game_search.h"

namespace {
using namespace konobi;

static_assert(GameRules<KonobiRules, 1> && GameRules<GonnectRules, 1>);
static_assert(SearchedGame<KonobiSearch, 1> && SearchedGame<GonnectSearch, 1>);

// Konobi's search without an evaluation: not a searched game.
struct NoEvaluation : KonobiSearch {
  template <int W>
  static void evaluate(const State<W>&) = delete;
};
static_assert(!SearchedGame<NoEvaluation, 1>);

// Rules whose placements return the wrong type.
struct BadPlacements : KonobiRules {
  template <int W>
  static int placements(const State<W>&) {
    return 0;
  }
};
static_assert(!GameRules<BadPlacements, 1>);
// ... and a search over them, though complete itself, is not one either.
struct SearchOverBadRules : KonobiSearch {
  using Rules = BadPlacements;
};
static_assert(!SearchedGame<SearchOverBadRules, 1>);
}  // namespace

TEST_CASE("the game contracts hold for Konobi and Gonnect and reject an incomplete game", "[contracts]") {
  // The checks are the static_asserts above; here, the concepts as values.
  CHECK(SearchedGame<GonnectSearch, 1>);
  CHECK_FALSE(SearchedGame<NoEvaluation, 1>);
}
