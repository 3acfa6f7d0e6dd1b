#include "game_room.h"

#include <optional>

#include "core/game.h"
#include "solver/io/game_json.h"

namespace konobi {

namespace {

template <class Rules, int W>
class RulesGame final : public PlayedGame {
 public:
  RulesGame(const GameSpec& spec, const typename Rules::Variant& v)
      : spec_(spec), variant_(v), game_(Game<Rules, W>::new_game(spec.size, v)) {}
  RulesGame(const GameSpec& spec, const typename Rules::Variant& v, const PositionText& start)
      : spec_(spec),
        variant_(v),
        start_(start),
        game_(Rules::start(from_text<W>(start, &Rules::template geometry<W>(spec.size, v)), v)) {}

  const GameSpec& spec() const override { return spec_; }
  const std::vector<Move>& moves() const override { return game_.moves(); }
  std::string why_illegal(Move m) const override { return game_.why_illegal(m); }
  void play(Move m) override { game_.play(m); }
  void truncate(size_t ply) override {
    if (ply >= game_.moves().size()) return;
    const std::vector<Move> keep(game_.moves().begin(), game_.moves().begin() + long(ply));
    game_ = start_ ? Game<Rules, W>(Rules::start(
                         from_text<W>(*start_, &Rules::template geometry<W>(spec_.size, variant_)), variant_))
                   : Game<Rules, W>::new_game(spec_.size, variant_);
    game_.play_record(keep);
  }
  bool over() const override { return game_.over(); }
  int winner() const override { return game_.winner(); }
  bool ended_without_move() const override { return game_.ended_without_move(); }
  bool must_pass() const override { return game_.must_pass(); }
  Color to_move() const override { return game_.position().to_move; }
  bool swapped() const override { return game_.swapped(); }
  bool swap_available() const override { return !game_.over() && game_.position().swap_available; }

  void write_state(Json& j) const override {
    const int n = spec_.size;
    const Position<W>& pos = game_.position();
    add_game_fields(j, game_, n);
    Json& list = j["moves"] = Json::array();
    for (Move m : game_.moves()) list.push_back(move_name(n, m));
    j["ply"] = game_.moves().size();
    j["must_pass"] = game_.must_pass();
    add_legal(j, game_.placements(), n);
    add_illegal(j, game_, true);
    j["last_move"] = game_.moves().empty() ? Json(nullptr) : Json(move_name(n, game_.moves().back()));
    // Captures: the opponent's stones on the board before the last move and
    // gone after it (only Gonnect's moves take stones).
    Json& captured = j["captured"] = Json::array();
    if (!game_.moves().empty()) {
      const auto& states = game_.states();
      const Position<W>& before = Rules::board(states[states.size() - 2]);
      const Color victim = pos.to_move;  // the side that did not just move
      before.stones[victim].minus(pos.stones[victim]).for_each([&](int p) {
        captured.push_back(point_name(n, p));
      });
    }
    Json& chain = j["winning_chain"] = Json::array();
    if (game_.over() && !game_.ended_without_move())
      winning_stones(Color(game_.winner())).for_each([&](int p) { chain.push_back(point_name(n, p)); });
  }

 private:
  Bitboard<W> winning_stones(Color c) const {
    if constexpr (std::is_same_v<Rules, GonnectRules>)
      return gonnect_winning_chain(game_.position(), c, spec_.edges);
    else return winning_chain(game_.position(), c);
  }

  GameSpec spec_;
  typename Rules::Variant variant_;
  std::optional<PositionText> start_;  // a game from a position rather than the empty board
  Game<Rules, W> game_;
};

}  // namespace

std::unique_ptr<PlayedGame> PlayedGame::make(const GameSpec& spec) {
  check_size(spec.size);
  return with_words(spec.size, [&](auto w) -> std::unique_ptr<PlayedGame> {
    constexpr int W = decltype(w)::value;
    if (spec.gonnect)
      return std::make_unique<RulesGame<GonnectRules, W>>(spec, GonnectVariant{spec.ko, spec.edges});
    return std::make_unique<RulesGame<KonobiRules, W>>(spec, KonobiRules::Variant{});
  });
}

}  // namespace konobi

namespace konobi {

std::unique_ptr<PlayedGame> PlayedGame::from_position(const GameSpec& spec, const std::string& start,
                                                      const std::vector<Move>& moves) {
  check_size(spec.size);
  std::unique_ptr<PlayedGame> g;
  if (start.empty()) {
    g = make(spec);
  } else {
    const PositionText t = parse_position(start);
    if (t.n != spec.size)
      throw ParseError("the position is " + std::to_string(t.n) + "x" + std::to_string(t.n) + ", not " +
                       std::to_string(spec.size) + "x" + std::to_string(spec.size));
    g = with_words(spec.size, [&](auto w) -> std::unique_ptr<PlayedGame> {
      constexpr int W = decltype(w)::value;
      if (spec.gonnect)
        return std::make_unique<RulesGame<GonnectRules, W>>(spec, GonnectVariant{spec.ko, spec.edges}, t);
      return std::make_unique<RulesGame<KonobiRules, W>>(spec, KonobiRules::Variant{}, t);
    });
  }
  for (size_t i = 0; i < moves.size(); ++i) {
    if (const std::string why = g->why_illegal(moves[i]); !why.empty())
      throw RuleError("move " + std::to_string(i + 1) + " (" + move_name(spec.size, moves[i]) + "): " + why);
    g->play(moves[i]);
  }
  return g;
}

}  // namespace konobi
