// One game of the web board: the core's checked game (Game<Rules, W>) behind
// a run-time choice of rules and board width, and what the state message
// says about it. Every rule decision (legality, the reason a point is
// illegal, the winner, the winning chain) is the core's; this class only
// chooses the template once, at creation, and names the results.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/types.h"
#include "solver/engine/engine.h"
#include "solver/io/json.h"

namespace konobi {

class PlayedGame {
 public:
  virtual ~PlayedGame() = default;
  // A new game of the spec's rules on the empty board; throws ParseError
  // for a size outside 3..19.
  static std::unique_ptr<PlayedGame> make(const GameSpec& spec);
  // A game from a position string (docs/NOTATION.md; "" for the empty
  // board) and the moves since; throws ParseError or RuleError naming the
  // bad part.
  static std::unique_ptr<PlayedGame> from_position(const GameSpec& spec, const std::string& start,
                                                   const std::vector<Move>& moves);

  virtual const GameSpec& spec() const = 0;
  virtual const std::vector<Move>& moves() const = 0;
  // Why m is illegal now (the core's sentence), or "" when it is legal.
  virtual std::string why_illegal(Move m) const = 0;
  // Plays a legal move; throws RuleError (with why_illegal's reason) else.
  virtual void play(Move m) = 0;
  // Back to the first `ply` moves.
  virtual void truncate(size_t ply) = 0;

  virtual bool over() const = 0;
  virtual int winner() const = 0;  // -1 while the game goes on
  virtual bool ended_without_move() const = 0;
  virtual bool must_pass() const = 0;  // Konobi: the mover has no placement
  virtual Color to_move() const = 0;
  virtual bool swapped() const = 0;
  virtual bool swap_available() const = 0;

  // The state message's board fields (docs/SERVER.md): position, to_move,
  // swap_available, swapped, must_pass, winner, legal, illegal (with the
  // sentences), last_move, captured, winning_chain. `moves` is a list.
  virtual void write_state(Json& j) const = 0;

  int size() const { return spec().size; }
};

}  // namespace konobi
