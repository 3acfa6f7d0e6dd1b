// The 8 board symmetries: legality, wins and keys must not depend on how the
// board is turned. The four symmetries that exchange rows and columns move
// Black's edges onto White's, so they also exchange the colours and the side
// to move; Position::transformed does that.
//
// Positions come from random legal play with fixed seeds, so every run checks
// the same positions.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/konobi.h"

namespace {

using namespace konobi;

template <int W>
Bitboard<W> image(const Geometry<W>& g, const Bitboard<W>& b, int s) {
  Bitboard<W> r;
  b.for_each([&](int p) { r.set(g.sym[s][p]); });
  return r;
}

// A description of the position that is equal exactly for equal positions.
template <int W>
std::string describe(const Position<W>& pos) {
  std::string s;
  for (int p = 0; p < pos.g->cells; ++p) s += pos.at(p) < 0 ? '.' : pos.at(p) == Black ? 'B' : 'W';
  s += pos.to_move == Black ? 'b' : 'w';
  s += pos.swap_available ? 's' : '-';
  return s;
}

// The least description over the 8 images: equal exactly for positions that
// are symmetric images of each other.
template <int W>
std::string canonical_description(const Position<W>& pos) {
  std::string best;
  for (int s = 0; s < kSymmetries; ++s) {
    const std::string d = describe(pos.transformed(s));
    if (s == 0 || d < best) best = d;
  }
  return best;
}

// Random legal play from the empty board. Calls visit(pos) on every position
// reached (the empty board included) and check(pos) after every move.
// Returns the number of games that ended with a win.
template <int W, class Visit>
int random_games(int n, uint64_t seed, int games, Visit&& visit) {
  const Geometry<W>& g = Geometry<W>::get(n);
  std::mt19937_64 rng(seed);
  int wins = 0;
  for (int game = 0; game < games; ++game) {
    Position<W> pos = Position<W>::empty(g);
    REQUIRE(pos.recompute_keys() == pos.keys);
    visit(pos);
    for (int ply = 0; ply < 4 * g.cells; ++ply) {
      const uint64_t before = pos.key();
      if (pos.swap_available && rng() % 2 == 0) {
        pos.swap();
        REQUIRE_FALSE(pos.swap_available);
        REQUIRE(pos.key() != before);  // only the swap flag changed
      } else {
        const Bitboard<W> legal = konobi_legal_placements(pos);
        if (legal.none()) {
          pos.pass();
          REQUIRE(pos.key() != before);  // only the side to move changed
        } else {
          std::vector<int> pts;
          legal.for_each([&](int p) { pts.push_back(p); });
          const int p = pts[rng() % pts.size()];
          const bool wins_now = konobi_wins_by(pos, p);
          const Color mover = pos.to_move;
          pos.place(p);
          // The win test agrees with a whole-board chain search.
          REQUIRE(has_winning_chain(pos, mover) == wins_now);
          REQUIRE(pos.key() != before);
          if (wins_now) {
            REQUIRE(pos.keys == pos.recompute_keys());
            visit(pos);
            ++wins;
            break;
          }
        }
      }
      // (c) the incremental keys agree with keys computed from scratch.
      REQUIRE(pos.keys == pos.recompute_keys());
      visit(pos);
    }
  }
  return wins;
}

// (a) and (d) for one position.
template <int W>
void check_images(const Position<W>& pos) {
  const Geometry<W>& g = *pos.g;
  for (int s = 0; s < kSymmetries; ++s) {
    INFO("symmetry " << s << ", position " << describe(pos));
    const Position<W> t = pos.transformed(s);
    REQUIRE(t.stone_count() == pos.stone_count());
    REQUIRE(t.to_move == (sym_swaps_colors(s) ? other(pos.to_move) : pos.to_move));
    REQUIRE(t.swap_available == pos.swap_available);
    // The image's keys are the original's keys seen through s.
    REQUIRE(t.keys == t.recompute_keys());
    REQUIRE(t.keys[0] == pos.keys[s]);

    // (a) The legal set of the image is the image of the legal set.
    REQUIRE(konobi_legal_placements(t) == image(g, konobi_legal_placements(pos), s));
    // ... and so is every part of the legality computation, for both colours.
    for (int c = 0; c < 2; ++c) {
      const Color tc = sym_swaps_colors(s) ? other(Color(c)) : Color(c);
      const Legality<W> a = konobi_legality(pos, Color(c));
      const Legality<W> b = konobi_legality(t, tc);
      REQUIRE(b.legal == image(g, a.legal, s));
      REQUIRE(b.weak_illegal == image(g, a.weak_illegal, s));
      REQUIRE(b.crosscut == image(g, a.crosscut, s));
      REQUIRE(b.free == image(g, a.free, s));
      REQUIRE(b.guarded == image(g, a.guarded, s));
    }

    // (d) A placement wins exactly when its image wins in the image.
    pos.empty_points().for_each([&](int p) {
      INFO("point " << p);
      REQUIRE(konobi_wins_by(t, g.sym[s][p]) == konobi_wins_by(pos, p));
    });
    if (s == 0 && !has_winning_chain(pos, Black) && !has_winning_chain(pos, White)) {
      // wins_by(p) is exactly "a stone at p leaves a chain joining the
      // mover's edges", for every empty point, legal or not.
      pos.empty_points().for_each([&](int p) {
        Position<W> after = pos;
        after.toggle_stone(pos.to_move, p);
        INFO("point " << p);
        REQUIRE(konobi_wins_by(pos, p) == has_winning_chain(after, pos.to_move));
      });
    }
    // Finished positions stay finished, for the mapped colour.
    for (int c = 0; c < 2; ++c) {
      const Color tc = sym_swaps_colors(s) ? other(Color(c)) : Color(c);
      REQUIRE(has_winning_chain(t, tc) == has_winning_chain(pos, Color(c)));
    }
  }
}

// The explanation of each empty point agrees with the legality sets (the CLI
// and RuleError messages rely on it), and a weak-connection verdict names a
// real stone and a real free alternative beside it.
template <int W>
void check_explanations(const Position<W>& pos) {
  const Geometry<W>& g = *pos.g;
  for (int c = 0; c < 2; ++c) {
    const Legality<W> L = konobi_legality(pos, Color(c));
    pos.empty_points().for_each([&](int p) {
      INFO("colour " << c << ", point " << p << ", position " << describe(pos));
      const PointVerdict v = explain_point(pos, Color(c), p);
      if (L.legal.test(p)) {
        REQUIRE(v.kind == PointVerdict::Legal);
      } else if (L.crosscut.test(p)) {
        REQUIRE(v.kind == PointVerdict::Crosscut);
      } else {
        REQUIRE(L.weak_illegal.test(p));
        REQUIRE(v.kind == PointVerdict::WeakConnection);
        REQUIRE(pos.at(v.stone) == c);
        REQUIRE(std::abs(g.col(v.stone) - g.col(p)) == 1);
        REQUIRE(std::abs(g.row(v.stone) - g.row(p)) == 1);
        REQUIRE(L.free.test(v.alternative));
        REQUIRE(std::abs(g.col(v.stone) - g.col(v.alternative)) +
                    std::abs(g.row(v.stone) - g.row(v.alternative)) ==
                1);
      }
    });
    pos.occupied().for_each(
        [&](int p) { REQUIRE(explain_point(pos, Color(c), p).kind == PointVerdict::Occupied); });
  }
}

// (b) The canonical key is the same for all 8 images, and the canonical
// symmetry names an image whose own key it is.
template <int W>
void check_canonical_key(const Position<W>& pos) {
  const uint64_t k = pos.canonical_key();
  REQUIRE(pos.transformed(pos.canonical_symmetry()).key() == k);
  for (int s = 0; s < kSymmetries; ++s) {
    INFO("symmetry " << s << ", position " << describe(pos));
    REQUIRE(pos.transformed(s).canonical_key() == k);
    // sym_inverse undoes the point map.
    for (int p = 0; p < pos.g->cells; ++p) REQUIRE(pos.g->sym[sym_inverse(s)][pos.g->sym[s][p]] == p);
  }
}

template <int W>
void check_side_key(const Position<W>& pos) {
  Position<W> flipped = pos;
  flipped.to_move = other(pos.to_move);
  REQUIRE(flipped.key() != pos.key());
  if (pos.swap_available) {
    Position<W> no_swap = pos;
    no_swap.swap_available = false;
    REQUIRE(no_swap.key() != pos.key());
    REQUIRE(no_swap.canonical_key() != pos.canonical_key());
  }
}

template <int W>
void run_size(int n, uint64_t seed, int games) {
  INFO("size " << n << ", seed " << seed);
  std::map<uint64_t, std::string> by_key;  // canonical key -> canonical description
  std::map<std::string, uint64_t> by_form;
  int positions = 0;
  const int wins = random_games<W>(n, seed, games, [&](const Position<W>& pos) {
    ++positions;
    check_images(pos);
    check_canonical_key(pos);
    check_side_key(pos);
    check_explanations(pos);
    // (b) Equal canonical keys exactly for symmetric images, on this sample.
    const std::string form = canonical_description(pos);
    const uint64_t k = pos.canonical_key();
    const auto [it, fresh] = by_key.emplace(k, form);
    if (!fresh) {
      INFO("canonical key collision between " << it->second << " and " << form);
      REQUIRE(it->second == form);
    }
    const auto [jt, fresh_form] = by_form.emplace(form, k);
    if (!fresh_form) REQUIRE(jt->second == k);
  });
  REQUIRE(wins > 0);  // the win checks saw winning placements
  REQUIRE(by_key.size() == by_form.size());
  // The sample is big enough to mean something.
  REQUIRE(by_form.size() > size_t(positions / 4));
}

}  // namespace

TEST_CASE("symmetry: geometry maps are permutations matching their description", "[symmetry]") {
  for (int n : {3, 4, 5, 8, 9, 13, 19}) {
    with_words(n, [&](auto w) {
      constexpr int W = decltype(w)::value;
      const Geometry<W>& g = Geometry<W>::get(n);
      for (int s = 0; s < kSymmetries; ++s) {
        INFO("size " << n << ", symmetry " << s);
        std::vector<int> seen(g.cells, 0);
        for (int p = 0; p < g.cells; ++p) {
          const int q = g.sym[s][p];
          REQUIRE(q >= 0);
          REQUIRE(q < g.cells);
          ++seen[q];
        }
        for (int q = 0; q < g.cells; ++q) REQUIRE(seen[q] == 1);
        // Each colour's edge pair maps onto the mapped colour's edge pair.
        for (int c = 0; c < 2; ++c) {
          const int tc = sym_swaps_colors(s) ? c ^ 1 : c;
          REQUIRE((image(g, g.edge_lo[c], s) | image(g, g.edge_hi[c], s)) == (g.edge_lo[tc] | g.edge_hi[tc]));
        }
      }
      REQUIRE(g.sym[0][g.point(1, 0)] == g.point(1, 0));      // identity
      REQUIRE(g.sym[1][g.point(0, 0)] == g.point(n - 1, 0));  // column mirror
      REQUIRE(g.sym[2][g.point(0, 0)] == g.point(0, n - 1));  // row mirror
      REQUIRE(g.sym[4][g.point(1, 0)] == g.point(0, 1));      // transpose
    });
  }
}

TEST_CASE("symmetry: random positions on 3x3 to 8x8", "[symmetry]") {
  for (int n = 3; n <= 8; ++n) run_size<1>(n, 1000 + n, n <= 5 ? 40 : 12);
}

TEST_CASE("symmetry: random positions on 9x9 and 13x13", "[symmetry]") {
  run_size<2>(9, 2009, 6);
  run_size<4>(13, 2013, 3);
}

TEST_CASE("symmetry: random positions on 19x19", "[symmetry]") { run_size<6>(19, 2019, 1); }

TEST_CASE("symmetry: designer's example positions", "[symmetry]") {
  // Worked examples from docs/RULES.md: their images keep the verdicts.
  const Geometry<1>& g = Geometry<1>::get(5);
  auto build = [&](std::initializer_list<std::pair<int, Color>> stones) {
    Position<1> pos = Position<1>::empty(g);
    for (auto [p, c] : stones) pos.toggle_stone(c, p);
    return pos;
  };
  auto pt = [&](int col, int row) { return g.point(col, row - 1); };
  // ...../W.W../B.W.B/..B../..BW. b
  const Position<1> first = build({{pt(0, 4), White},
                                   {pt(2, 4), White},
                                   {pt(0, 3), Black},
                                   {pt(2, 3), White},
                                   {pt(4, 3), Black},
                                   {pt(2, 2), Black},
                                   {pt(2, 1), Black},
                                   {pt(3, 1), White}});
  // ...../...../..W../W.B../B.... b
  const Position<1> second =
      build({{pt(2, 3), White}, {pt(0, 2), White}, {pt(2, 2), Black}, {pt(0, 1), Black}});
  struct Case {
    const Position<1>* pos;
    int point;
    bool legal;
  };
  const Case cases[] = {{&first, pt(1, 3), true},
                        {&first, pt(1, 2), false},
                        {&second, pt(1, 2), true},
                        {&second, pt(1, 1), false}};
  for (const Case& c : cases) {
    REQUIRE(konobi_legal_placements(*c.pos).test(c.point) == c.legal);
    for (int s = 0; s < kSymmetries; ++s) {
      INFO("symmetry " << s);
      const Position<1> t = c.pos->transformed(s);
      REQUIRE(konobi_legal_placements(t).test(g.sym[s][c.point]) == c.legal);
    }
    check_images(*c.pos);
    check_canonical_key(*c.pos);
  }
  REQUIRE(first.canonical_key() != second.canonical_key());
}

TEST_CASE("symmetry: keys tell apart near-identical positions", "[symmetry]") {
  const Geometry<1>& g = Geometry<1>::get(5);
  Position<1> pos = Position<1>::empty(g);
  pos.place(g.point(2, 2));  // c3: opens the swap
  REQUIRE(pos.swap_available);
  REQUIRE(pos.keys == pos.recompute_keys());
  Position<1> swapped = pos;
  swapped.swap();
  REQUIRE(swapped.keys == pos.keys);
  REQUIRE(swapped.key() != pos.key());
  REQUIRE(swapped.canonical_key() != pos.canonical_key());

  // The same stone of the other colour, the same stone elsewhere, the same
  // stones with the other side to move: all different keys.
  Position<1> white_stone = Position<1>::empty(g);
  white_stone.toggle_stone(White, g.point(2, 2));
  white_stone.to_move = White;
  REQUIRE(white_stone.key() != swapped.key());
  // A White stone at the centre with White to move is the colour-swapped
  // transpose of a Black stone at the centre with Black to move.
  Position<1> black_stone = Position<1>::empty(g);
  black_stone.toggle_stone(Black, g.point(2, 2));
  black_stone.to_move = Black;
  REQUIRE(white_stone.canonical_key() == black_stone.canonical_key());
  REQUIRE(white_stone.canonical_key() != swapped.canonical_key());

  // Corner stones: a1 and e5 are images (rotation), a1 and b1 are not.
  Position<1> a1 = Position<1>::empty(g), e5 = a1, b1 = a1;
  a1.toggle_stone(Black, g.point(0, 0));
  e5.toggle_stone(Black, g.point(4, 4));
  b1.toggle_stone(Black, g.point(1, 0));
  REQUIRE(a1.canonical_key() == e5.canonical_key());
  REQUIRE(a1.key() != e5.key());
  REQUIRE(a1.canonical_key() != b1.canonical_key());
  // b1 (Black) and a2 (White), side swapped, are images under the transpose.
  Position<1> a2w = Position<1>::empty(g);
  a2w.toggle_stone(White, g.point(0, 1));
  a2w.to_move = White;
  REQUIRE(a2w.canonical_key() == b1.canonical_key());
  // But b1 and a2 both Black are not images of each other (edges differ).
  Position<1> a2b = Position<1>::empty(g);
  a2b.toggle_stone(Black, g.point(0, 1));
  REQUIRE(a2b.canonical_key() != b1.canonical_key());
}

// The search takes every child's key from its parent without building the
// child, and merges a symmetric position's equivalent moves: both shortcuts
// must agree with the plain definitions.
TEST_CASE("symmetry: keys after a move and self-symmetry agree with building the position", "[symmetry]") {
  for (int n = 3; n <= 6; ++n) {
    int symmetric = 0, positions = 0;
    random_games<1>(n, 3000 + n, 30, [&](const Position<1>& pos) {
      ++positions;
      bool self_image = false;
      for (int s = 1; s < kSymmetries; ++s) self_image |= describe(pos.transformed(s)) == describe(pos);
      REQUIRE(pos.is_symmetric() == self_image);
      symmetric += self_image;
      pos.empty_points().for_each([&](int p) {
        Position<1> q = pos;
        q.place(p);
        REQUIRE(pos.key_after(p) == q.key());
        REQUIRE(pos.canonical_key_after(p) == q.canonical_key());
      });
    });
    INFO("size " << n);
    REQUIRE(symmetric > 0);  // the empty board at least
    REQUIRE(symmetric < positions);
  }
}
