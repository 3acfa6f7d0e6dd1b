// Gonnect's rules: captures, suicide, ko and superko, the loss without a
// legal move, wins on either pair of edges, symmetry of the keys, and perft
// and random games against the slow reference of solver/verify/simple_gonnect.
// Expected outcomes come from the rule text (which points are captured, which
// move is barred); counts are only ever compared with the reference's.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "core/game.h"
#include "core/gonnect.h"
#include "core/perft.h"
#include "solver/verify/simple_gonnect.h"

using namespace konobi;

namespace {

using State = GonnectState<1>;
using G = Game<GonnectRules, 1>;

GonnectVariant variant(KoRule ko, EdgeRule edges = EdgeRule::Either) {
  GonnectVariant v;
  v.ko = ko;
  v.edges = edges;
  return v;
}

G from_diagram(const std::string& text, GonnectVariant v = {}) {
  const PositionText t = parse_position(text);
  return G(GonnectRules::start(from_text<1>(t, &gonnect_geometry<1>(t.n, v)), v));
}

int pt(int n, const char* name) { return parse_point(n, name); }

std::string diagram(const Position<1>& pos) { return format_position(to_text(pos)); }

konobi_ref::RefGo to_ref(const State& s) {
  konobi_ref::RefGo r = konobi_ref::ref_go_empty(s.pos.size(), s.variant.ko == KoRule::Superko,
                                                 s.variant.edges == EdgeRule::Own);
  for (int p = 0; p < r.n * r.n; ++p) r.cell[p] = s.pos.at(p) < 0 ? '.' : s.pos.at(p) == Black ? 'B' : 'W';
  r.to_move = s.pos.to_move == Black ? 'B' : 'W';
  return r;
}

std::vector<int> points(const Bitboard<1>& b) {
  std::vector<int> v;
  b.for_each([&](int p) { v.push_back(p); });
  return v;
}

// The keys after moves and captures equal the keys computed from scratch.
void require_keys_consistent(const Position<1>& pos) { REQUIRE(pos.keys == pos.recompute_keys()); }

}  // namespace

TEST_CASE("gonnect: a single stone is captured in the middle, on an edge and in a corner", "[gonnect]") {
  struct Case {
    const char* diagram;
    const char* move;
    const char* captured;
  };
  // Black to move fills the last liberty of the lone white stone.
  const Case cases[] = {
      {"...../..B../.BW../..B../..... b", "d3", "c3"},  // middle
      {"...../...../...../.B.../BW... b", "c1", "b1"},  // edge
      {"...../...../...../...../WB... b", "a2", "a1"},  // corner
  };
  for (const Case& c : cases) {
    G g = from_diagram(c.diagram);
    const int n = g.position().size();
    INFO(c.diagram << " " << c.move);
    const int cap = pt(n, c.captured);
    REQUIRE(g.position().at(cap) == White);
    g.play(pt(n, c.move));
    CHECK(g.position().at(cap) == -1);
    CHECK(g.position().at(pt(n, c.move)) == Black);
    CHECK(g.position().stones[White].none());
    require_keys_consistent(g.position());
  }
}

TEST_CASE("gonnect: a whole chain and several chains are captured by one stone", "[gonnect]") {
  // The white chain b3-c3-d3 has e3 as its last liberty.
  G g1 = from_diagram("...../.BBB./BWWW./.BBB./..... b");
  g1.play(pt(5, "e3"));
  CHECK(g1.position().stones[White].none());
  CHECK(g1.position().stones[Black].count() == 8);
  require_keys_consistent(g1.position());

  // Two white chains, a1-a2 and c1-c2, share their last liberty b1.
  G g2 = from_diagram("...../...../B.B../WBWB./W.WB. b");
  // White chains: a1-a2 (liberty b1 only) and c1-c2 (liberty b1 only).
  const Bitboard<1> before = g2.position().stones[White];
  REQUIRE(before.count() == 4);
  g2.play(pt(5, "b1"));
  CHECK(g2.position().stones[White].none());
  CHECK(g2.position().at(pt(5, "b1")) == Black);
  require_keys_consistent(g2.position());
  // The reference agrees on the board after the capture.
  CHECK(konobi_ref::ref_go_board_after(to_ref(g2.states()[0]), pt(5, "b1")) == to_ref(g2.state()).cell);
}

TEST_CASE("gonnect: suicide is illegal, unless the stone captures", "[gonnect]") {
  // a1 for White: both neighbours black, the black chain has other liberties.
  G g = from_diagram("...../...../...../B..../.B... w");
  const int a1 = pt(5, "a1");
  CHECK_FALSE(g.placements().test(a1));
  CHECK(gonnect_legality(g.state()).suicide.test(a1));
  CHECK(g.why_illegal(a1).find("suicide") != std::string::npos);
  // Filling one's own last liberty is suicide too: White a1 joins a2, and
  // the chain would have no liberty while b1 keeps c1.
  G own = from_diagram("...../...../B..../WB.../.B... w");
  CHECK_FALSE(own.placements().test(a1));
  CHECK(own.placements().test(pt(5, "c1")));
  // The same point, but now the black stone a2 is in atari there: capture saves it.
  G save = from_diagram("...../...../W..../BW.../.B... w");
  // White at a1 would have no liberty (a2 and b1 black), but it takes the
  // last liberty of a2 and captures it, which frees a liberty.
  CHECK(save.placements().test(a1));
  save.play(a1);
  CHECK(save.position().at(pt(5, "a2")) == -1);
  CHECK(save.position().at(a1) == White);
  require_keys_consistent(save.position());
}

TEST_CASE("gonnect: simple ko bars the immediate recapture, superko any repetition", "[gonnect]") {
  // A ko: Black's c3 has b3 as its last liberty; White takes it there, and
  // Black's retake at c3 would capture b3 and restore the earlier board.
  const std::string start = "...../.BW../B.BW./.BW../..... b";
  for (KoRule ko : {KoRule::Simple, KoRule::Superko}) {
    G g = from_diagram(start, variant(ko));
    g.play(pt(5, "d5"));  // Black elsewhere
    g.play(pt(5, "b3"));  // White captures c3
    REQUIRE(g.position().at(pt(5, "c3")) == -1);
    // Black retaking at c3 would recreate the board after Black's previous move.
    CHECK_FALSE(g.placements().test(pt(5, "c3")));
    CHECK(gonnect_legality(g.state()).repeat.test(pt(5, "c3")));
    CHECK(g.why_illegal(pt(5, "c3")).find(ko == KoRule::Simple ? "ko" : "superko") != std::string::npos);
    // After an exchange elsewhere the retake is legal under both rules.
    g.play(pt(5, "a5"));
    g.play(pt(5, "e1"));
    CHECK(g.placements().test(pt(5, "c3")));
  }

  // Superko bars what simple ko allows: a board from further back. Give a
  // state a history holding the board that a capture would recreate.
  for (KoRule ko : {KoRule::Simple, KoRule::Superko}) {
    G g = from_diagram("...../...../...../.B.../BW... b", variant(ko));
    State s = g.state();
    const int c1 = pt(5, "c1");
    const uint64_t target = gonnect_key_after(s.pos, c1, gonnect_captures(s.pos, Black, c1));
    s.captured = true;
    s.history = {target, 12345, 678};  // the target board, then two others
    s.ko_key = 678;                    // the board after Black's previous move
    const bool legal = GonnectRules::placements(s).test(c1);
    CHECK(legal == (ko == KoRule::Simple));
  }
}

TEST_CASE("gonnect: a player without a legal move loses", "[gonnect]") {
  // White's only empty points are suicide for White: a1 and c1 are Black's
  // eyes, c4 is the last liberty of White's own stones and of nothing Black
  // lacks. One pair of edges per colour, so nobody has won yet.
  G g = from_diagram("WW.W/BBBB/BBBB/.B.B w", variant(KoRule::Superko, EdgeRule::Own));
  CHECK(GonnectRules::placements(g.state()).none());
  CHECK(g.over());
  CHECK(g.winner() == Black);
  CHECK(g.ended_without_move());
  CHECK(g.legal_moves().empty());
  CHECK(G::new_game(3).why_illegal(kPass).find("not allowed") != std::string::npos);
  CHECK(perft<GonnectRules>(g.state(), 3) == std::vector<uint64_t>{0, 0, 0});
}

TEST_CASE("gonnect: the mover wins by joining either pair of opposite edges", "[gonnect]") {
  // Black b1 b2 b3 . : b4 joins bottom and top.
  G vert = from_diagram("..../.B../.B.W/.BW. b");
  // Black a2 b2 c2 . : d2 joins left and right.
  G horz = from_diagram("..W./..W./BBB./...W b");
  for (auto* g : {&vert, &horz}) {
    const int m = g == &vert ? pt(4, "b4") : pt(4, "d2");
    CHECK(GonnectRules::wins_by(g->state(), m));
    CHECK(points(GonnectRules::winning(g->state(), g->placements())) == std::vector<int>{m});
    g->play(m);
    CHECK(g->over());
    CHECK(g->winner() == Black);
  }
  // With one pair per colour, Black's left-right chain is not a win.
  G own = from_diagram("..W./..W./BBB./...W b", variant(KoRule::Superko, EdgeRule::Own));
  CHECK_FALSE(GonnectRules::wins_by(own.state(), pt(4, "d2")));
  own.play(pt(4, "d2"));
  CHECK_FALSE(own.over());
  // ... and White's is.
  G ownw = from_diagram("..B./..B./WWW./...B w", variant(KoRule::Superko, EdgeRule::Own));
  CHECK(GonnectRules::wins_by(ownw.state(), pt(4, "d2")));
}

TEST_CASE("gonnect: the rules' names read back as the rules, and no other word does", "[gonnect]") {
  for (KoRule ko : {KoRule::Simple, KoRule::Superko}) CHECK(parse_ko_rule(ko_rule_name(ko)) == ko);
  for (EdgeRule e : {EdgeRule::Either, EdgeRule::Own}) CHECK(parse_edge_rule(edge_rule_name(e)) == e);
  CHECK(parse_ko_rule("simple") == KoRule::Simple);
  CHECK(parse_edge_rule("own") == EdgeRule::Own);
  for (const char* bad : {"", "Superko", "ko", "own", "superko "}) CHECK_FALSE(parse_ko_rule(bad));
  for (const char* bad : {"", "Either", "both", "simple", "own\n"}) CHECK_FALSE(parse_edge_rule(bad));
}

TEST_CASE("gonnect: canonical keys agree on all 8 images; transposes keep colours unless edges are owned",
          "[gonnect]") {
  std::mt19937_64 rng(7);
  for (EdgeRule edges : {EdgeRule::Either, EdgeRule::Own}) {
    const GonnectVariant v = variant(KoRule::Superko, edges);
    for (int n : {3, 4, 5}) {
      const Geometry<1>& geo = gonnect_geometry<1>(n, v);
      CHECK(geo.transposes_swap_colors == (edges == EdgeRule::Own));
      for (int game = 0; game < 20; ++game) {
        G g = G::new_game(n, v);
        for (int ply = 0; ply < 2 * n && !g.over(); ++ply) {
          const std::vector<int> moves = points(g.placements());
          if (moves.empty()) break;
          g.play(moves[rng() % moves.size()]);
          require_keys_consistent(g.position());
          const Position<1>& pos = g.position();
          for (int s = 0; s < kSymmetries; ++s) {
            const Position<1> img = pos.transformed(s);
            CHECK(img.canonical_key() == pos.canonical_key());
            const bool swapped = (s & 4) && edges == EdgeRule::Own;
            CHECK(img.stones[Black].count() == pos.stones[swapped ? White : Black].count());
            // A winning point maps to a winning point of the image.
            const State a = GonnectRules::start(pos, v), b = GonnectRules::start(img, v);
            const Bitboard<1> wa = GonnectRules::winning(a, GonnectRules::placements(a));
            Bitboard<1> mapped;
            wa.for_each([&](int p) { mapped.set(geo.sym[s][p]); });
            CHECK(mapped == GonnectRules::winning(b, GonnectRules::placements(b)));
          }
        }
      }
    }
  }
}

TEST_CASE("gonnect: perft on 3x3 and 4x4 equals the reference", "[gonnect][perft]") {
  // Depths that run in seconds with the slow reference; 3x3 depth 10 reaches
  // captures, ko and losses without a move.
  for (KoRule ko : {KoRule::Simple, KoRule::Superko})
    for (EdgeRule edges : {EdgeRule::Either, EdgeRule::Own}) {
      const bool main_variant = ko == KoRule::Superko && edges == EdgeRule::Either;
      for (auto [n, depth] : {std::pair{3, main_variant ? 10 : 9}, std::pair{4, main_variant ? 5 : 4}}) {
        const GonnectVariant v = variant(ko, edges);
        const State s = GonnectRules::start(Position<1>::empty(gonnect_geometry<1>(n, v)), v);
        const std::vector<uint64_t> eng = perft<GonnectRules>(s, depth);
        const std::vector<uint64_t> ref = konobi_ref::ref_go_perft(to_ref(s), depth);
        INFO(n << "x" << n << " ko " << ko_rule_name(ko) << " edges " << edge_rule_name(edges));
        CHECK(eng == ref);
        CHECK(eng[0] == uint64_t(n * n));
      }
    }
}

TEST_CASE("gonnect: random games agree with the reference move by move", "[gonnect]") {
  std::mt19937_64 rng(2024);
  int captures = 0, barred = 0, no_move = 0;
  for (KoRule ko : {KoRule::Simple, KoRule::Superko})
    for (EdgeRule edges : {EdgeRule::Either, EdgeRule::Own})
      for (int n : {3, 4, 5})
        for (int game = 0; game < 150; ++game) {
          const GonnectVariant v = variant(ko, edges);
          G g = G::new_game(n, v);
          konobi_ref::RefGo ref = to_ref(g.state());
          // Random games rarely end by connection early if moves are uniform;
          // cap the length (games under simple ko may cycle).
          for (int ply = 0; ply < 60; ++ply) {
            const std::vector<int> eng = points(g.placements());
            const std::vector<int> want =
                g.over() && !g.ended_without_move() ? std::vector<int>{} : konobi_ref::ref_go_legal(ref);
            INFO(n << "x" << n << " " << ko_rule_name(ko) << " " << edge_rule_name(edges) << " game " << game
                   << " moves " << format_record(n, g.moves()) << " board " << diagram(g.position()));
            REQUIRE(eng == want);
            barred += gonnect_legality(g.state()).repeat.count();
            if (g.over()) {
              no_move += g.ended_without_move();
              const Color w = Color(g.winner());
              if (!g.ended_without_move())
                CHECK(konobi_ref::ref_go_has_winning_chain(ref, w == Black ? 'B' : 'W'));
              break;
            }
            const int m = eng[rng() % eng.size()];
            const int before = g.position().stone_count();
            g.play(m);
            ref = konobi_ref::ref_go_play(ref, m);
            captures += g.position().stone_count() <= before;
            REQUIRE(to_ref(g.state()).cell == ref.cell);
            require_keys_consistent(g.position());
            CHECK(g.over() == (konobi_ref::ref_go_has_winning_chain(ref, ref.to_move == 'B' ? 'W' : 'B') ||
                               konobi_ref::ref_go_legal(ref).empty()));
          }
        }
  // The games must have exercised what they are meant to check.
  CHECK(captures > 100);
  CHECK(barred > 10);
  INFO("games lost without a move: " << no_move);
}
