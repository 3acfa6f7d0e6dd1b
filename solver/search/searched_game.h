// SearchedGame: what a game provides to the searches (df-pn, its threads,
// alpha-beta, the proof builder, the principal variation, move choice),
// written down as a C++20 concept. KonobiSearch and GonnectSearch
// (game_search.h) model it, and every search template is constrained by it,
// so a third game's search struct is checked where a search is instantiated
// and a missing or mistyped member is named by the compiler. Its rule set
// must model GameRules (core/rules.h) with the same states.
//
// A searched game G provides, for boards of W words:
//   G::Rules                  its rule set (GameRules), whose State<W> is G's
//   G::State<W>               the state searched
//   G::kLoseNowPlies          plies to the loss at a LoseNow node (Konobi 2:
//                             every move lets the opponent win; Gonnect 0)
//   G::kFastestLaterWin       plies of the fastest win without an immediate
//                             one (Konobi 3, Gonnect 1), for remoteness
//   G::moves(s)               NodeMoves<W>: WinNow with a winning move,
//                             LoseNow, PassOnly, or the placements to search
//                             (movegen.h's exact shortcuts may prune them)
//   G::play(s, m), G::pass(s) make a placement or a pass in place
//   G::child(s, m)            the state after m (a placement, or kPass when
//                             moves() said PassOnly); it may share data with
//                             s, which the searches keep alive meanwhile
//   G::key(s, symmetry)       the table key; with symmetry, the same for all
//                             images of s that the key treats as one
//   G::child_key(s, m, sym)   key(child(s, m), sym), without building it
//   G::key_symmetry(s, sym)   the symmetry whose image key() hashed, so that
//                             moves are stored as that image sees them
//   G::evaluate(s)            Estimate: initial proof and disproof numbers,
//                             each at least 1 (only the speed depends on them)
//   G::ChildEstimates<W>      built from s, called with a placement m: the
//                             evaluate() of child(s, m), cheaper in bulk
//   G::board(s)               the state's board, a Position<W>
#pragma once

#include <concepts>
#include <cstdint>

#include "core/rules.h"
#include "eval.h"
#include "movegen.h"

namespace konobi {

template <class G, int W>
concept SearchedGame = GameRules<typename G::Rules, W> && std::same_as < typename G::template State<W>,
typename G::Rules::template State < W >> &&requires(const typename G::template State<W>& s,
                                                    typename G::template State<W>& t, int m, bool symmetry,
                                                    const typename G::template ChildEstimates<W>& estimates) {
  { G::kLoseNowPlies } -> std::convertible_to<int>;
  { G::kFastestLaterWin } -> std::convertible_to<int>;
  { G::moves(s) } -> std::same_as<NodeMoves<W>>;
  { G::play(t, m) } -> std::same_as<void>;
  { G::pass(t) } -> std::same_as<void>;
  { G::child(s, m) } -> std::same_as<typename G::template State<W>>;
  { G::key(s, symmetry) } -> std::same_as<uint64_t>;
  { G::child_key(s, m, symmetry) } -> std::same_as<uint64_t>;
  { G::key_symmetry(s, symmetry) } -> std::same_as<int>;
  { G::evaluate(s) } -> std::same_as<Estimate>;
  requires std::constructible_from < typename G::template ChildEstimates<W>,
  const typename G::template State<W>& > ;
  { estimates(m) } -> std::same_as<Estimate>;
  { G::board(s) } -> std::same_as<const Position<W>&>;
};

}  // namespace konobi
