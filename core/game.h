// A game in progress: the positions so far, the moves that led to them, the
// winner once there is one, and whether the players have swapped colours.
// Every move is checked; an illegal one throws RuleError saying why, so the
// console game, the record parser and the analysis tools share one referee.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "konobi.h"
#include "notation.h"

namespace konobi {

struct RuleError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

template <int W>
std::string explain_illegal(const Position<W>& pos, int p) {
  const int n = pos.size();
  const std::string who = color_name(pos.to_move);
  const PointVerdict v = explain_point(pos, pos.to_move, p);
  switch (v.kind) {
    case PointVerdict::Occupied:
      return point_name(n, p) + " is occupied";
    case PointVerdict::Crosscut:
      return point_name(n, p) + " would form a crosscut";
    case PointVerdict::WeakConnection:
      return point_name(n, p) + " would weakly connect to " + point_name(n, v.stone) + " while " +
             point_name(n, v.alternative) + " is a strong connection to " + point_name(n, v.stone) +
             " with no weak connection (weak-connection rule)";
    case PointVerdict::Legal:
      break;
  }
  return point_name(n, p) + " is legal for " + who;
}

template <class Rules, int W>
class Game {
 public:
  explicit Game(const Position<W>& start) : positions_{start} { detect_finished_start(); }
  static Game new_game(int n) {
    Position<W> p = Position<W>::empty(Geometry<W>::get(n));
    return Game(p);
  }

  const Position<W>& position() const { return positions_.back(); }
  const std::vector<Move>& moves() const { return moves_; }
  const std::vector<Position<W>>& positions() const { return positions_; }
  bool over() const { return winner_ >= 0; }
  int winner() const { return winner_; }  // -1 while the game goes on
  // True after a swap: the player who moved first now holds White.
  bool swapped() const { return swapped_; }

  Bitboard<W> placements() const { return over() ? Bitboard<W>() : Rules::placements(position()); }
  bool must_pass() const { return !over() && placements().none(); }

  // All legal moves: placements, then swap if open, or pass when forced.
  std::vector<Move> legal_moves() const {
    std::vector<Move> out;
    if (over()) return out;
    const Bitboard<W> pl = placements();
    pl.for_each([&](int p) { out.push_back(p); });
    if (position().swap_available) out.push_back(kSwap);
    if (pl.none()) out.push_back(kPass);
    return out;
  }

  // Why m is not legal now, or "" if it is.
  std::string why_illegal(Move m) const {
    const Position<W>& pos = position();
    if (over()) return std::string("the game is over: ") + color_name(Color(winner_)) + " has won";
    if (m == kSwap)
      return pos.swap_available ? "" : "swap is only allowed on White's first turn, right after Black's first stone";
    const Bitboard<W> pl = placements();
    if (m == kPass)
      return pl.none() ? ""
                       : std::string("pass is not allowed: ") + color_name(pos.to_move) + " has " +
                             std::to_string(pl.count()) + " legal placement" + (pl.count() == 1 ? "" : "s");
    if (m < 0 || m >= pos.g->cells) return "move is off the board";
    if (pl.test(m)) return "";
    return explain_illegal(pos, m) + ", so " + color_name(pos.to_move) + " may not play there";
  }

  void play(Move m) {
    if (std::string why = why_illegal(m); !why.empty()) throw RuleError(why);
    Position<W> next = position();
    if (m == kSwap) {
      next.swap();
      swapped_ = true;
    } else if (m == kPass) {
      next.pass();
    } else {
      const bool wins = Rules::wins_by(next, m);
      const Color mover = next.to_move;
      Rules::play(next, m);
      if (wins) winner_ = mover;
    }
    positions_.push_back(next);
    moves_.push_back(m);
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
    const Position<W>& p = positions_.back();
    // A diagram may show a finished game; the side that just moved won.
    if (has_winning_chain(p, other(p.to_move))) winner_ = other(p.to_move);
    else if (has_winning_chain(p, p.to_move)) winner_ = p.to_move;
  }

  std::vector<Position<W>> positions_;
  std::vector<Move> moves_;
  int winner_ = -1;
  bool swapped_ = false;
};

// A Position from its text form (see notation.h).
template <int W>
Position<W> from_text(const PositionText& t) {
  Position<W> pos = Position<W>::empty(Geometry<W>::get(t.n));
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
