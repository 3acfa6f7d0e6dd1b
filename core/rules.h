// GameRules: what a rule set provides, written down as a C++20 concept.
// KonobiRules (konobi.h) and GonnectRules (gonnect.h) model it; the checked
// game (game.h), perft and, through SearchedGame (solver/search/
// searched_game.h), every search are templates over it, so a third game
// supplies one struct of static members and the compiler says which one is
// missing. W is the number of 64-bit words of a board (bitboard.h).
//
// A rule set R provides:
//   R::name                    the game's name, as `--game` spells it
//   R::can_pass                whether a player without a placement passes
//                              (Konobi) rather than loses (Gonnect)
//   R::Variant                 the rule options (Gonnect: ko rule, edges);
//                              default-constructible
//   R::State<W>                everything that decides the game from here
//                              (a Position, or a Position and its history)
//   R::start(pos, variant)     the state of a game started from pos
//   R::geometry<W>(n, variant) the shared per-size tables for an n x n board
//   R::board(s)                the state's board, a Position<W>
//   R::placements(s)           the legal placements of the side to move
//   R::wins_by(s, p)           whether placing at p wins at once
//   R::winning(s, legal)       of those legal placements, the ones that win
//   R::play(s, p)              the mover places at p (p legal)
//   R::pass(s)                 the mover passes (only called if can_pass)
//   R::swap(s)                 the pie swap: the players exchange colours
//   R::has_winning_chain(s, c) whether colour c has won
//   R::explain_illegal(s, p)   why placing at p is illegal, for people
#pragma once

#include <concepts>
#include <string>

#include "position.h"

namespace konobi {

template <class R, int W>
concept GameRules = requires(const typename R::template State<W>& s, typename R::template State<W>& t,
                             const Position<W>& pos, const typename R::Variant& v, const Bitboard<W>& legal,
                             int p, Color c) {
  { R::name } -> std::convertible_to<const char*>;
  { R::can_pass } -> std::convertible_to<bool>;
  requires std::default_initializable<typename R::Variant>;
  requires std::copyable<typename R::template State<W>>;
  { R::start(pos, v) } -> std::same_as<typename R::template State<W>>;
  { R::template geometry<W>(p, v) } -> std::same_as<const Geometry<W>&>;
  { R::board(s) } -> std::same_as<const Position<W>&>;
  { R::placements(s) } -> std::same_as<Bitboard<W>>;
  { R::wins_by(s, p) } -> std::same_as<bool>;
  { R::winning(s, legal) } -> std::same_as<Bitboard<W>>;
  { R::play(t, p) } -> std::same_as<void>;
  { R::pass(t) } -> std::same_as<void>;
  { R::swap(t) } -> std::same_as<void>;
  { R::has_winning_chain(s, c) } -> std::same_as<bool>;
  { R::explain_illegal(s, p) } -> std::same_as<std::string>;
};

}  // namespace konobi
