// The fields of a game as JSON, written once for every reader: `konobi show
// --json` and the web board's state message (solver/server) both call these,
// so the position, the turn, the legal points and the reason for every
// illegal one can never disagree between them. The rule decisions are the
// core's (explain_point, gonnect_legality); this only names them.
#pragma once

#include <string>

#include "core/game.h"
#include "json.h"

namespace konobi {

inline const char* verdict_name(PointVerdict::Kind k) {
  switch (k) {
    case PointVerdict::Occupied:
      return "occupied";
    case PointVerdict::Crosscut:
      return "crosscut";
    case PointVerdict::WeakConnection:
      return "weak-connection";
    default:
      return "legal";
  }
}

inline const char* color_key(Color c) { return c == Black ? "black" : "white"; }

// The fields both games share, in their order: the position, the record,
// whose turn ("none" once over), the pie rule, the winner.
template <class G>
void add_game_fields(Json& j, const G& game, int n) {
  j["position"] = format_position(to_text(game.position()));
  j["moves"] = format_record(n, game.moves());
  j["to_move"] = game.over() ? "none" : color_key(game.position().to_move);
  j["swap_available"] = !game.over() && game.position().swap_available;
  j["swapped"] = game.swapped();
  j["winner"] = game.over() ? Json(color_key(Color(game.winner()))) : Json(nullptr);
}

// The legal points, by name.
template <int W>
void add_legal(Json& j, const Bitboard<W>& legal, int n) {
  Json& points = j["legal"] = Json::array();
  legal.for_each([&](int p) { points.push_back(point_name(n, p)); });
}

// Konobi: every empty point that is not legal while the game goes on, with
// the reason (crosscut, weak-connection and its stone and free alternative)
// and, when with_text, the sentence `show` prints.
template <int W>
void add_illegal(Json& j, const Game<KonobiRules, W>& game, bool with_text) {
  const Position<W>& pos = game.position();
  const int n = pos.size();
  Json& banned = j["illegal"] = Json::array();
  if (game.over()) return;
  pos.empty_points().minus(game.placements()).for_each([&](int p) {
    const PointVerdict v = explain_point(pos, pos.to_move, p);
    Json x = {{"point", point_name(n, p)}, {"reason", verdict_name(v.kind)}};
    if (v.kind == PointVerdict::WeakConnection) {
      x["stone"] = point_name(n, v.stone);
      x["alternative"] = point_name(n, v.alternative);
    }
    if (with_text) x["text"] = explain_illegal(pos, p);
    banned.push_back(std::move(x));
  });
}

// Gonnect: suicide, or a repetition named by the ko rule; also listed when
// the game ended because the mover had no legal move (all are illegal then).
template <int W>
void add_illegal(Json& j, const Game<GonnectRules, W>& game, bool with_text) {
  const GonnectState<W>& st = game.state();
  const Position<W>& pos = game.position();
  const int n = pos.size();
  Json& banned = j["illegal"] = Json::array();
  if (game.over() && !game.ended_without_move()) return;
  const GonnectLegality<W> L = gonnect_legality(st);
  pos.empty_points().minus(game.placements()).for_each([&](int p) {
    Json x = {{"point", point_name(n, p)},
              {"reason", L.suicide.test(p)                 ? "suicide"
                         : st.variant.ko == KoRule::Simple ? "ko"
                                                           : "superko"}};
    if (with_text) x["text"] = gonnect_explain_illegal(st, p);
    banned.push_back(std::move(x));
  });
}

}  // namespace konobi
