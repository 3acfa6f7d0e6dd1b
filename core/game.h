// A game in progress: the positions so far, the moves that led to them, the
// winner once there is one, and whether the players have swapped colours.
// Every move is checked; an illegal one throws RuleError saying why, so the
// console game, the record parser and the analysis tools share one referee.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "gonnect.h"
#include "konobi.h"
#include "notation.h"

namespace konobi {

struct RuleError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

template <class Rules, int W>
requires GameRules<Rules, W>
class Game {
 public:
  using State = typename Rules::template State<W>;
  using Variant = typename Rules::Variant;

  explicit Game(const State& start) : states_{start} { detect_finished_start(); }
  static Game new_game(int n, const Variant& v = {}) {
    return Game(Rules::start(Position<W>::empty(Rules::template geometry<W>(n, v)), v));
  }

  const State& state() const { return states_.back(); }
  const Position<W>& position() const { return Rules::board(state()); }
  const std::vector<Move>& moves() const { return moves_; }
  const std::vector<State>& states() const { return states_; }
  bool over() const { return winner_ >= 0; }
  int winner() const { return winner_; }  // -1 while the game goes on
  // True when the game ended because the loser had no legal move (Gonnect).
  bool ended_without_move() const { return no_move_loss_; }
  // True after a swap: the player who moved first now holds White.
  bool swapped() const { return swapped_; }

  Bitboard<W> placements() const { return over() ? Bitboard<W>() : Rules::placements(state()); }
  bool must_pass() const { return Rules::can_pass && !over() && placements().none(); }

  // All legal moves: placements, then swap if open, or pass when forced.
  std::vector<Move> legal_moves() const {
    std::vector<Move> out;
    if (over()) return out;
    const Bitboard<W> pl = placements();
    pl.for_each([&](int p) { out.push_back(p); });
    if (position().swap_available) out.push_back(kSwap);
    if (Rules::can_pass && pl.none()) out.push_back(kPass);
    return out;
  }

  // Why m is not legal now, or "" if it is.
  std::string why_illegal(Move m) const {
    const Position<W>& pos = position();
    if (over()) return std::string("the game is over: ") + color_name(Color(winner_)) + " has won";
    if (m == kSwap)
      return pos.swap_available
                 ? ""
                 : "swap is only allowed on White's first turn, right after Black's first stone";
    const Bitboard<W> pl = placements();
    if (m == kPass) {
      if (!Rules::can_pass) return std::string("pass is not allowed in ") + Rules::name;
      return pl.none() ? ""
                       : std::string("pass is not allowed: ") + color_name(pos.to_move) + " has " +
                             std::to_string(pl.count()) + " legal placement" + (pl.count() == 1 ? "" : "s");
    }
    if (m < 0 || m >= pos.g->cells) return "move is off the board";
    if (pl.test(m)) return "";
    return Rules::explain_illegal(state(), m) + ", so " + color_name(pos.to_move) + " may not play there";
  }

  void play(Move m) {
    if (std::string why = why_illegal(m); !why.empty()) throw RuleError(why);
    State next = state();
    if (m == kSwap) {
      Rules::swap(next);
      swapped_ = true;
    } else if (m == kPass) {
      Rules::pass(next);
    } else {
      const bool wins = Rules::wins_by(next, m);
      const Color mover = Rules::board(next).to_move;
      Rules::play(next, m);
      if (wins) winner_ = mover;
    }
    states_.push_back(next);
    moves_.push_back(m);
    detect_no_move();
  }

  // Plays a whole record, naming the move that fails.
  void play_record(const std::vector<Move>& record) {
    for (size_t i = 0; i < record.size(); ++i) {
      try {
        play(record[i]);
      } catch (const RuleError& e) {
        throw RuleError("move " + std::to_string(moves_.size() + 1) + " (" +
                        move_name(position().size(), record[i]) + "): " + e.what());
      }
    }
  }

 private:
  void detect_finished_start() {
    const State& s = states_.back();
    const Color tm = Rules::board(s).to_move;
    // A diagram may show a finished game; the side that just moved won.
    if (Rules::has_winning_chain(s, other(tm))) winner_ = other(tm);
    else if (Rules::has_winning_chain(s, tm)) winner_ = tm;
    detect_no_move();
  }
  // Without passing, a player with no legal move (the swap counts) loses.
  void detect_no_move() {
    if constexpr (!Rules::can_pass) {
      const Position<W>& pos = position();
      if (!over() && !pos.swap_available && Rules::placements(state()).none()) {
        winner_ = other(pos.to_move);
        no_move_loss_ = true;
      }
    }
  }

  std::vector<State> states_;
  std::vector<Move> moves_;
  int winner_ = -1;
  bool swapped_ = false;
  bool no_move_loss_ = false;
};

// A Position from its text form (see notation.h), keyed with geometry g
// (Geometry<W>::get(t.n) unless given).
template <int W>
Position<W> from_text(const PositionText& t, const Geometry<W>* g = nullptr) {
  Position<W> pos = Position<W>::empty(g ? *g : Geometry<W>::get(t.n));
  for (int p = 0; p < t.n * t.n; ++p)
    if (t.cells[p] >= 0) pos.toggle_stone(Color(t.cells[p]), p);
  pos.to_move = t.to_move;
  pos.swap_available = t.swap_available;
  return pos;
}

template <int W>
PositionText to_text(const Position<W>& pos) {
  PositionText t;
  t.n = pos.size();
  t.cells.resize(t.n * t.n);
  for (int p = 0; p < t.n * t.n; ++p) t.cells[p] = pos.at(p);
  t.to_move = pos.to_move;
  t.swap_available = pos.swap_available;
  return t;
}

}  // namespace konobi
