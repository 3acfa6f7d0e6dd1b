// Gonnect's rules on the shared board: Go's placement, capture and suicide
// rules with a connection goal, no passing, and the pie rule. See
// docs/GONNECT.md for the reading of the rule text this implements.
//
// Unlike Konobi, a Gonnect position does not determine the legal moves: ko
// needs the board after the mover's previous move, positional superko every
// earlier board. GonnectState carries that history with the board, so perft,
// the game layer and the searches can treat it as "the position".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "notation.h"
#include "position.h"
#include "rules.h"

namespace konobi {

// Simple: a move may not recreate the board after the mover's own previous
// move (the rule text). Superko: a move may not recreate any earlier board.
enum class KoRule : uint8_t { Simple, Superko };
// Either: a chain joining either pair of opposite edges wins for either
// colour (the rule text). Own: Black needs top-bottom, White left-right.
enum class EdgeRule : uint8_t { Either, Own };

struct GonnectVariant {
  KoRule ko = KoRule::Superko;
  EdgeRule edges = EdgeRule::Either;
};

inline const char* ko_rule_name(KoRule k) { return k == KoRule::Simple ? "simple" : "superko"; }
inline const char* edge_rule_name(EdgeRule e) { return e == EdgeRule::Either ? "either" : "own"; }
// The rule these names give, or nothing for any other word: every reader of
// a rule's name (options, checkpoints, GTP, the server) goes through here so
// that a name means one thing everywhere.
inline std::optional<KoRule> parse_ko_rule(std::string_view s) {
  for (KoRule k : {KoRule::Simple, KoRule::Superko})
    if (s == ko_rule_name(k)) return k;
  return std::nullopt;
}
inline std::optional<EdgeRule> parse_edge_rule(std::string_view s) {
  for (EdgeRule e : {EdgeRule::Either, EdgeRule::Own})
    if (s == edge_rule_name(e)) return e;
  return std::nullopt;
}

// A splitmix finaliser: the set hash of earlier boards is the xor of this
// over their keys. Xor of raw Zobrist keys would not do: the keys of boards
// are themselves xors of stone keys, so distinct sets could cancel.
constexpr uint64_t mix_board_key(uint64_t k) { return mix64(k + 0x9e3779b97f4a7c15ull); }

// One earlier board in a chain of them, newest first: how the states a
// search builds share one history per search path (see GonnectState).
struct GonnectLink {
  uint64_t key = 0;
  const GonnectLink* prev = nullptr;
};

template <int W>
struct GonnectState {
  Position<W> pos;
  GonnectVariant variant;
  // Board key (pos.keys[0]) after the mover's own previous move, for simple
  // ko; 0 when there is none (the empty board, key 0, can never recur).
  uint64_t ko_key = 0;
  // Superko: keys of every earlier board of the game. Kept for both ko rules
  // so that the search can key positions by their history. A state owns
  // them in `history`, oldest first, unless it was made by gonnect_child()
  // (the searches): then it shares them with the states up its search path
  // and copies nothing. Its newest earlier board (its parent's board) is
  // `link.key`, the older ones follow `link.prev` through its ancestors'
  // links, and the oldest are `*base`, the search root's owned history.
  // Such a state is valid while those ancestors live, as they do on a
  // depth-first search's call stack.
  std::vector<uint64_t> history;
  const std::vector<uint64_t>* base = nullptr;  // set: the earlier boards are shared
  GonnectLink link;                             // with base: the newest earlier board
  uint64_t history_hash = 0;                    // xor of mix_board_key over all earlier boards
  // Whether a capture has happened in this game. Before the first capture
  // every earlier board has fewer stones than the current one, so no
  // repetition is possible and ko checks are skipped.
  bool captured = false;
  // The board just before the game's first capture (the search's history
  // hazard check, docs/GONNECT.md); empty until then.
  Bitboard<W> precapture[2];

  const Geometry<W>& geometry() const { return *pos.g; }
  uint64_t board_key() const { return pos.keys[0]; }
  bool repeats(uint64_t board) const {
    if (variant.ko == KoRule::Simple) return board == ko_key;
    if (base)
      for (const GonnectLink* l = &link; l; l = l->prev)
        if (l->key == board) return true;
    for (uint64_t k : base ? *base : history)
      if (k == board) return true;
    return false;
  }
  // Every earlier board, oldest first.
  std::vector<uint64_t> earlier_boards() const {
    if (!base) return history;
    std::vector<uint64_t> r;
    for (const GonnectLink* l = &link; l; l = l->prev) r.push_back(l->key);
    r.insert(r.end(), base->rbegin(), base->rend());
    return {r.rbegin(), r.rend()};
  }
};

template <int W>
struct StateWords<GonnectState<W>> {
  static constexpr int value = W;
};

// The geometry a variant keys its positions with: transposes keep the
// colours when either pair of edges wins for either colour.
template <int W>
const Geometry<W>& gonnect_geometry(int n, const GonnectVariant& v) {
  return Geometry<W>::get(n, v.edges == EdgeRule::Own);
}

// Stones of `stones` 4-connected to the set `seed`.
template <int W>
Bitboard<W> flood4(const Geometry<W>& g, const Bitboard<W>& stones, const Bitboard<W>& seed) {
  return g.flood(stones, seed, [&](const Bitboard<W>& b) { return b | g.orth_neighbours(b); });
}

// The opponent stones a c stone at empty p captures: the chains beside p
// whose only liberty is p.
template <int W>
Bitboard<W> gonnect_captures(const Position<W>& pos, Color c, int p) {
  const Geometry<W>& g = *pos.g;
  const Bitboard<W>& O = pos.stones[other(c)];
  const Bitboard<W> pb = Bitboard<W>::single(p);
  const Bitboard<W> empty_after = pos.empty_points().minus(pb);
  Bitboard<W> beside = g.orth_neighbours(pb) & O, captured;
  while (beside.any()) {
    const Bitboard<W> chain = flood4(g, O, Bitboard<W>::single(beside.first()));
    beside = beside.minus(chain);
    if ((g.orth_neighbours(chain) & empty_after).none()) captured |= chain;
  }
  return captured;
}

template <int W>
struct GonnectLegality {
  Bitboard<W> legal;
  Bitboard<W> suicide;  // empty points where the stone's chain would have no liberty
  Bitboard<W> repeat;   // otherwise legal points barred by ko or superko
  // Points (suicide aside, ko ignored) after which the board would be a
  // proper subset of the board before the game's first capture, with the
  // stone counts of a capture-free game: the only boards that can equal an
  // earlier board of one capture-free move order and not of another. The
  // search counts them (solver/search/game_search.h).
  Bitboard<W> precapture_subset;
};

// The board key after the mover plays p (with its captures).
template <int W>
uint64_t gonnect_key_after(const Position<W>& pos, int p, const Bitboard<W>& captured) {
  const Color c = pos.to_move, o = other(c);
  uint64_t k = pos.keys[0] ^ pos.g->zob[c][p][0];
  captured.for_each([&](int q) { k ^= pos.g->zob[o][q][0]; });
  return k;
}

// A placement at empty p is not suicide when p keeps an empty neighbour,
// joins an own chain that has a liberty besides p, or takes the last
// liberty of an opponent chain (the capture frees a liberty). One flood per
// chain on the board classifies every point at once.
template <int W>
GonnectLegality<W> gonnect_legality(const GonnectState<W>& s) {
  const Position<W>& pos = s.pos;
  const Geometry<W>& g = *pos.g;
  const Color c = pos.to_move;
  const Bitboard<W> E = pos.empty_points();
  Bitboard<W> ok = E & g.orth_neighbours(E);
  for (int side = 0; side < 2; ++side) {
    const Bitboard<W>& S = pos.stones[side == 0 ? c : other(c)];
    Bitboard<W> rest = S;
    while (rest.any()) {
      const Bitboard<W> chain = flood4(g, S, Bitboard<W>::single(rest.first()));
      rest = rest.minus(chain);
      const Bitboard<W> libs = g.orth_neighbours(chain) & E;
      const int nl = libs.count();
      if (side == 0 ? nl >= 2 : nl == 1) ok |= libs;
    }
  }
  GonnectLegality<W> r;
  r.suicide = E.minus(ok);
  r.legal = ok;
  if (s.captured) {
    const Color o = other(c);
    ok.for_each([&](int p) {
      const Bitboard<W> cap = gonnect_captures(pos, c, p);
      if (s.repeats(gonnect_key_after(pos, p, cap))) r.repeat.set(p);
      const Bitboard<W> mine = pos.stones[c] | Bitboard<W>::single(p), theirs = pos.stones[o].minus(cap);
      // A capture-free board has as many black stones as white, or one more.
      const int nb = (c == Black ? mine : theirs).count(), nw = (c == Black ? theirs : mine).count();
      if ((nb == nw || nb == nw + 1) && mine.minus(s.precapture[c]).none() &&
          theirs.minus(s.precapture[o]).none() && (mine != s.precapture[c] || theirs != s.precapture[o]))
        r.precapture_subset.set(p);
    });
    r.legal = ok.minus(r.repeat);
  }
  return r;
}

// The pairs of edges colour c may join under the variant.
template <int W, class F>
void for_each_goal(const Geometry<W>& g, Color c, EdgeRule edges, F&& f) {
  if (edges == EdgeRule::Own) {
    f(g.edge_lo[c], g.edge_hi[c]);
  } else {
    f(g.edge_lo[Black], g.edge_hi[Black]);  // bottom and top rows
    f(g.edge_lo[White], g.edge_hi[White]);  // left and right columns
  }
}

// Empty points where a c stone would complete a chain joining a goal pair.
// Captures remove only the opponent's stones, so the new stone's chain is p
// with the own chains beside it, whatever the move captures.
template <int W>
Bitboard<W> gonnect_connecting_points(const Position<W>& pos, Color c, EdgeRule edges) {
  const Geometry<W>& g = *pos.g;
  const Bitboard<W>& C = pos.stones[c];
  Bitboard<W> r;
  for_each_goal(g, c, edges, [&](const Bitboard<W>& lo, const Bitboard<W>& hi) {
    r |= (lo | g.orth_neighbours(flood4(g, C, lo))) & (hi | g.orth_neighbours(flood4(g, C, hi)));
  });
  return r & pos.empty_points();
}

template <int W>
bool gonnect_has_winning_chain(const Position<W>& pos, Color c, EdgeRule edges) {
  const Geometry<W>& g = *pos.g;
  bool won = false;
  for_each_goal(g, c, edges, [&](const Bitboard<W>& lo, const Bitboard<W>& hi) {
    won = won || (flood4(g, pos.stones[c], lo) & hi).any();
  });
  return won;
}

// The stones of c's chains that join a goal pair of edges (empty while c
// has not won), with the floods of gonnect_has_winning_chain.
template <int W>
Bitboard<W> gonnect_winning_chain(const Position<W>& pos, Color c, EdgeRule edges) {
  const Geometry<W>& g = *pos.g;
  Bitboard<W> chain;
  for_each_goal(g, c, edges, [&](const Bitboard<W>& lo, const Bitboard<W>& hi) {
    chain |= flood4(g, pos.stones[c], lo) & flood4(g, pos.stones[c], hi);
  });
  return chain;
}

// The move itself, all but recording the board before it in the history.
template <int W>
Bitboard<W> gonnect_apply(GonnectState<W>& s, int p) {
  Position<W>& pos = s.pos;
  const Color o = other(pos.to_move);
  const Bitboard<W> captured = gonnect_captures(pos, pos.to_move, p);
  const uint64_t before = pos.keys[0];
  if (captured.any() && !s.captured) {
    s.captured = true;
    s.precapture[0] = pos.stones[0];
    s.precapture[1] = pos.stones[1];
  }
  s.ko_key = before;  // the next mover's own previous move made this board
  s.history_hash ^= mix_board_key(before);
  pos.place(p);
  captured.for_each([&](int q) { pos.toggle_stone(o, q); });
  return captured;
}

// Plays p for the mover, which must be legal; returns the captured stones.
// A state that shared its history owns it afterwards.
template <int W>
Bitboard<W> gonnect_play(GonnectState<W>& s, int p) {
  if (s.base) {
    s.history = s.earlier_boards();
    s.base = nullptr;
    s.link = {};
  }
  s.history.push_back(s.pos.keys[0]);
  return gonnect_apply(s, p);
}

// The state after the mover plays legal p, sharing `parent`'s history
// rather than copying it: it stays valid while `parent` (and the states
// parent shares with) live. What the searches build at every node.
template <int W>
GonnectState<W> gonnect_child(const GonnectState<W>& parent, int p) {
  GonnectState<W> s;
  s.pos = parent.pos;
  s.variant = parent.variant;
  s.ko_key = parent.ko_key;
  s.history_hash = parent.history_hash;
  s.captured = parent.captured;
  s.precapture[0] = parent.precapture[0];
  s.precapture[1] = parent.precapture[1];
  s.base = parent.base ? parent.base : &parent.history;
  s.link = {parent.pos.keys[0], parent.base ? &parent.link : nullptr};
  gonnect_apply(s, p);
  return s;
}

// Why an empty point is not open to the mover, for people.
template <int W>
std::string gonnect_explain_illegal(const GonnectState<W>& s, int p) {
  const int n = s.pos.size();
  if (s.pos.at(p) >= 0) return point_name(n, p) + " is occupied";
  const GonnectLegality<W> L = gonnect_legality(s);
  if (L.suicide.test(p)) return point_name(n, p) + " would be suicide (its chain would have no liberty)";
  if (L.repeat.test(p))
    return point_name(n, p) + (s.variant.ko == KoRule::Simple
                                   ? " would recreate the board after the mover's previous move (ko)"
                                   : " would recreate an earlier board (positional superko)");
  return point_name(n, p) + " is legal for " + color_name(s.pos.to_move);
}

// The rule set as a type with KonobiRules' members (core/konobi.h).
struct GonnectRules {
  static constexpr const char* name = "gonnect";
  static constexpr bool can_pass = false;  // no passing: a player without a move loses
  using Variant = GonnectVariant;
  template <int W>
  using State = GonnectState<W>;

  template <int W>
  static State<W> start(const Position<W>& pos, const Variant& v) {
    State<W> s;
    s.pos = pos;
    s.variant = v;
    return s;
  }
  template <int W>
  static const Geometry<W>& geometry(int n, const Variant& v) {
    return gonnect_geometry<W>(n, v);
  }
  template <int W>
  static const Position<W>& board(const State<W>& s) {
    return s.pos;
  }
  template <int W>
  static Bitboard<W> placements(const State<W>& s) {
    return gonnect_legality(s).legal;
  }
  template <int W>
  static bool wins_by(const State<W>& s, int p) {
    return gonnect_connecting_points(s.pos, s.pos.to_move, s.variant.edges).test(p);
  }
  template <int W>
  static Bitboard<W> winning(const State<W>& s, const Bitboard<W>& legal) {
    return legal & gonnect_connecting_points(s.pos, s.pos.to_move, s.variant.edges);
  }
  template <int W>
  static void play(State<W>& s, int p) {
    gonnect_play(s, p);
  }
  template <int W>
  static void swap(State<W>& s) {
    s.pos.swap();
  }
  template <int W>
  static void pass(State<W>&) {}  // never called: can_pass is false
  template <int W>
  static bool has_winning_chain(const State<W>& s, Color c) {
    return gonnect_has_winning_chain(s.pos, c, s.variant.edges);
  }
  template <int W>
  static Bitboard<W> winning_chain(const State<W>& s, Color c) {
    return gonnect_winning_chain(s.pos, c, s.variant.edges);
  }
  template <int W>
  static std::string explain_illegal(const State<W>& s, int p) {
    return gonnect_explain_illegal(s, p);
  }
};

static_assert(GameRules<GonnectRules, 1>);  // the contract of rules.h

}  // namespace konobi
