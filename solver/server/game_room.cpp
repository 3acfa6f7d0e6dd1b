#include "game_room.h"

#include "core/game.h"
#include "solver/engine/record.h"
#include "solver/io/game_json.h"

namespace konobi {

namespace {

template <class Rules, int W>
class RulesGame final : public PlayedGame {
 public:
  // start: the game at ply 0 (the empty board or a set-up position).
  RulesGame(const GameSpec& spec, const Game<Rules, W>& start) : spec_(spec), start_(start), game_(start) {}

  const GameSpec& spec() const override { return spec_; }
  const std::vector<Move>& moves() const override { return game_.moves(); }
  std::string why_illegal(Move m) const override { return game_.why_illegal(m); }
  void play(Move m) override { game_.play(m); }
  void truncate(size_t ply) override {
    if (ply >= game_.moves().size()) return;
    const std::vector<Move> keep(game_.moves().begin(), game_.moves().begin() + long(ply));
    game_ = start_;
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
      Rules::winning_chain(game_.state(), Color(game_.winner())).for_each([&](int p) {
        chain.push_back(point_name(n, p));
      });
  }

 private:
  GameSpec spec_;
  Game<Rules, W> start_;  // for undo: the game replays from here
  Game<Rules, W> game_;
};

}  // namespace

std::unique_ptr<PlayedGame> PlayedGame::make(const GameSpec& spec) { return from_position(spec, "", {}); }

std::unique_ptr<PlayedGame> PlayedGame::from_position(const GameSpec& spec, const std::string& start,
                                                      const std::vector<Move>& moves) {
  check_size(spec.size);
  // The engine's replay of a record (the same checks, the same messages),
  // here of the start alone: the room keeps that game for undo.
  std::unique_ptr<PlayedGame> g = dispatch_game(spec, [&](auto rules, const auto& variant, auto w) {
    using Rules = decltype(rules);
    constexpr int W = decltype(w)::value;
    return std::unique_ptr<PlayedGame>(
        std::make_unique<RulesGame<Rules, W>>(spec, replay<Rules, W>(GameRecord{spec, start, {}}, variant)));
  });
  for (size_t i = 0; i < moves.size(); ++i) {
    if (const std::string why = g->why_illegal(moves[i]); !why.empty())
      throw RuleError("move " + std::to_string(i + 1) + " (" + move_name(spec.size, moves[i]) + "): " + why);
    g->play(moves[i]);
  }
  return g;
}

}  // namespace konobi
