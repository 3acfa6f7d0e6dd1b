// Text forms (docs/NOTATION.md): points, moves, records, position strings,
// and the errors for malformed text (ParseError) and illegal moves
// (RuleError), which must say what is wrong.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "core/game.h"
#include "core/notation.h"

using namespace konobi;
using Catch::Contains;

namespace {

int pt(int n, int col, int row) { return (row - 1) * n + col; }  // col 0 = a, row 1 = bottom

using Game5 = Game<KonobiRules, 1>;

Game5 game_from(const std::string& text) { return Game5(from_text<1>(parse_position(text))); }

}  // namespace

TEST_CASE("notation: points round-trip on every size", "[notation]") {
  for (int n = kMinSize; n <= kMaxSize; ++n) {
    for (int p = 0; p < n * n; ++p) {
      const std::string name = point_name(n, p);
      INFO("size " << n << ", point " << p << " = " << name);
      REQUIRE(parse_point(n, name) == p);
      REQUIRE(parse_move(n, name) == p);
      REQUIRE(move_name(n, p) == name);
      // Upper-case column letters are accepted too.
      std::string upper = name;
      upper[0] = char(upper[0] - 'a' + 'A');
      REQUIRE(parse_point(n, upper) == p);
    }
  }
  // a1 is the bottom-left corner; columns from the left, rows from the bottom.
  REQUIRE(point_name(5, 0) == "a1");
  REQUIRE(point_name(5, 4) == "e1");
  REQUIRE(point_name(5, 5) == "a2");
  REQUIRE(point_name(5, 24) == "e5");
  REQUIRE(point_name(19, 360) == "s19");
  REQUIRE(point_name(19, 18) == "s1");
  REQUIRE(point_name(19, 342) == "a19");
  REQUIRE(parse_point(5, "c2") == pt(5, 2, 2));
  REQUIRE(parse_point(13, "m13") == 168);
  REQUIRE(parse_point(10, "j10") == 99);
}

TEST_CASE("notation: moves and records round-trip", "[notation]") {
  REQUIRE(move_name(5, kPass) == "pass");
  REQUIRE(move_name(5, kSwap) == "swap");
  REQUIRE(parse_move(5, "pass") == kPass);
  REQUIRE(parse_move(5, "swap") == kSwap);
  REQUIRE(parse_move(5, "PASS") == kPass);
  REQUIRE(parse_move(5, "Swap") == kSwap);

  const std::vector<Move> rec = {pt(5, 2, 3), kSwap, pt(5, 1, 2), pt(5, 2, 4)};
  REQUIRE(parse_record(5, "c3 swap b2 c4") == rec);
  REQUIRE(parse_record(5, "c3,swap,b2,c4") == rec);
  REQUIRE(parse_record(5, "  c3 ,  swap\tb2\n,c4 ") == rec);
  REQUIRE(format_record(5, rec) == "c3 swap b2 c4");
  REQUIRE(parse_record(5, "").empty());
  REQUIRE(parse_record(5, " , ").empty());
  REQUIRE(format_record(5, {}).empty());
  REQUIRE(parse_record(5, "a1 pass e5") == std::vector<Move>{0, kPass, 24});

  // Every record of random moves survives a round trip, on every size.
  std::mt19937 rng(7);
  for (int n = kMinSize; n <= kMaxSize; ++n) {
    std::vector<Move> moves;
    for (int i = 0; i < 40; ++i) {
      const int r = int(rng() % (n * n + 2));
      moves.push_back(r == n * n ? kPass : r == n * n + 1 ? kSwap : r);
    }
    const std::string text = format_record(n, moves);
    INFO(text);
    REQUIRE(parse_record(n, text) == moves);
    REQUIRE(format_record(n, parse_record(n, text)) == text);
  }
}

TEST_CASE("notation: position strings", "[notation]") {
  SECTION("the designer's positions") {
    for (const std::string text : {"...../W.W../B.W.B/..B../..BW. b", "...../...../..W../W.B../B.... b"}) {
      const PositionText t = parse_position(text);
      REQUIRE(t.n == 5);
      REQUIRE(t.to_move == Black);
      REQUIRE_FALSE(t.swap_available);
      REQUIRE(format_position(t) == text);
    }
    const PositionText t = parse_position("...../W.W../B.W.B/..B../..BW. b");
    // Rows are listed from the top: the last row of the string is row 1.
    REQUIRE(t.cells[pt(5, 0, 4)] == White);  // a4
    REQUIRE(t.cells[pt(5, 0, 3)] == Black);  // a3
    REQUIRE(t.cells[pt(5, 2, 1)] == Black);  // c1
    REQUIRE(t.cells[pt(5, 3, 1)] == White);  // d1
    REQUIRE(t.cells[pt(5, 4, 5)] == -1);     // e5
    int stones = 0;
    for (int v : t.cells) stones += v >= 0;
    REQUIRE(stones == 8);
  }
  SECTION("run-length digits") {
    const PositionText t = parse_position("5/5/2B2/5/5 w");
    REQUIRE(t.n == 5);
    REQUIRE(t.to_move == White);
    for (int p = 0; p < 25; ++p) REQUIRE(t.cells[p] == (p == pt(5, 2, 3) ? Black : -1));
    REQUIRE(format_position(t) == "...../...../..B../...../..... w");

    std::string rows19;
    for (int r = 0; r < 19; ++r) rows19 += (r ? "/" : "") + std::string(r == 9 ? "9B9" : "19");
    const PositionText big = parse_position(rows19 + " w");
    REQUIRE(big.n == 19);
    REQUIRE(big.cells[pt(19, 9, 10)] == Black);  // j10, the centre
    int stones = 0;
    for (int v : big.cells) stones += v >= 0;
    REQUIRE(stones == 1);
    REQUIRE(parse_position(format_position(big)).cells == big.cells);

    // Digits and letters mix; two-digit runs.
    const PositionText ten = parse_position("10/10/10/10/10/10/10/10/10/W8B b");
    REQUIRE(ten.n == 10);
    REQUIRE(ten.cells[0] == White);
    REQUIRE(ten.cells[9] == Black);
  }
  SECTION("alternative characters") {
    const PositionText a = parse_position("X-O/.x./o.. b");
    const PositionText b = parse_position("B.W/.B./W.. b");
    REQUIRE(a.cells == b.cells);
    REQUIRE(format_position(a) == "B.W/.B./W.. b");
    REQUIRE(parse_position("3/.b./..w B").cells == parse_position("3/.B./..W b").cells);
    REQUIRE(parse_position("3/3/3 white").to_move == White);
    REQUIRE(parse_position("3/3/3 black").to_move == Black);
    REQUIRE(parse_position("3/3/3 W").to_move == White);
  }
  SECTION("default side to move follows the stone count") {
    REQUIRE(parse_position("3/3/3").to_move == Black);
    REQUIRE(parse_position("3/1B1/3").to_move == White);
    REQUIRE(parse_position("3/WB1/3").to_move == Black);
    REQUIRE(parse_position("3/WB1/B2").to_move == White);
  }
  SECTION("the swap field") {
    const PositionText t = parse_position(".B./.../... w swap");
    REQUIRE(t.swap_available);
    REQUIRE(t.to_move == White);
    REQUIRE(format_position(t) == ".B./.../... w swap");
    REQUIRE_FALSE(parse_position(".B./.../... w").swap_available);
  }
  SECTION("round trips of positions from random play") {
    std::mt19937 rng(11);
    for (int n : {3, 5, 8, 9, 13, 19}) {
      with_words(n, [&](auto w) {
        constexpr int W = decltype(w)::value;
        Game<KonobiRules, W> game = Game<KonobiRules, W>::new_game(n);
        while (!game.over()) {
          const auto moves = game.legal_moves();
          game.play(moves[rng() % moves.size()]);
          const Position<W>& pos = game.position();
          const std::string text = format_position(to_text(pos));
          INFO(text);
          const PositionText back = parse_position(text);
          REQUIRE(from_text<W>(back) == pos);
          REQUIRE(format_position(back) == text);
          // The keys of a position built from text are complete.
          REQUIRE(from_text<W>(back).keys == pos.keys);
        }
        // The record round-trips too, and replays to the same game.
        const std::string rec = format_record(n, game.moves());
        REQUIRE(parse_record(n, rec) == game.moves());
        Game<KonobiRules, W> replay = Game<KonobiRules, W>::new_game(n);
        replay.play_record(parse_record(n, rec));
        REQUIRE(replay.position() == game.position());
        REQUIRE(replay.winner() == game.winner());
      });
    }
  }
}

TEST_CASE("notation: malformed text throws ParseError naming the problem", "[notation]") {
  SECTION("sizes out of range") {
    REQUIRE_THROWS_WITH(check_size(2), Contains("board size 2 is out of range"));
    REQUIRE_THROWS_WITH(check_size(20), Contains("board size 20 is out of range"));
    REQUIRE_THROWS_AS(check_size(0), ParseError);
    REQUIRE_NOTHROW(check_size(3));
    REQUIRE_NOTHROW(check_size(19));
    REQUIRE_THROWS_WITH(parse_record(2, "a1"), Contains("out of range"));
    REQUIRE_THROWS_WITH(parse_record(20, "a1"), Contains("out of range"));
    REQUIRE_THROWS_AS(parse_position("../.. b"), ParseError);
    REQUIRE_THROWS_WITH(parse_position("../.. b"), Contains("position has 2 rows"));
    std::string rows20;
    for (int r = 0; r < 20; ++r) rows20 += (r ? "/" : "") + std::string("19");
    REQUIRE_THROWS_WITH(parse_position(rows20 + " b"), Contains("position has 20 rows"));
    REQUIRE_THROWS_WITH(parse_position(". b"), Contains("position has 1 rows"));
  }
  SECTION("unequal row lengths") {
    REQUIRE_THROWS_AS(parse_position("5/4/5/5/5 b"), ParseError);
    REQUIRE_THROWS_WITH(parse_position("5/4/5/5/5 b"),
                        Contains("row 2 from the top") && Contains("has 4 points"));
    REQUIRE_THROWS_WITH(parse_position("..../.../... b"),
                        Contains("row 1 from the top") && Contains("has 4 points"));
    REQUIRE_THROWS_WITH(parse_position("3//3 b"), Contains("row 2 from the top") && Contains("has 0 points"));
    REQUIRE_THROWS_WITH(parse_position("3/3//3 b"), Contains("4 rows needs 4"));
  }
  SECTION("bad characters") {
    REQUIRE_THROWS_AS(parse_position("..z/.../... b"), ParseError);
    REQUIRE_THROWS_WITH(parse_position("..z/.../... b"),
                        Contains("'z' is not a point") && Contains("character 3"));
    REQUIRE_THROWS_WITH(parse_position(".../.?./... b"), Contains("'?'") && Contains("row 2 from the top"));
    REQUIRE_THROWS_WITH(parse_position("0.../.../... b"), Contains("run of 0"));
    REQUIRE_THROWS_WITH(parse_position("3/3/20 b"), Contains("run of 20"));
    // The message names where the run starts, not where reading it ended.
    REQUIRE_THROWS_WITH(parse_position("3/3/20 b"), Contains("character 5 (row 3 from the top)"));
  }
  SECTION("bad side to move") {
    REQUIRE_THROWS_AS(parse_position("3/3/3 x"), ParseError);
    REQUIRE_THROWS_WITH(parse_position("3/3/3 x"), Contains("side to move 'x'"));
    REQUIRE_THROWS_WITH(parse_position("3/3/3 bw"), Contains("side to move 'bw'"));
  }
  SECTION("the swap field when the swap is impossible") {
    const char* bad[] = {"3/3/3 w swap", "3/1B1/3 b swap", "3/1W1/3 w swap", "B2/1B1/3 w swap",
                         "W2/1B1/3 w swap"};
    for (const char* text : bad) {
      INFO(text);
      REQUIRE_THROWS_AS(parse_position(text), ParseError);
      REQUIRE_THROWS_WITH(parse_position(text), Contains("'swap' is only possible with one Black stone"));
    }
    REQUIRE_THROWS_WITH(parse_position("3/1B1/3 w pie"), Contains("third position field 'pie'"));
    REQUIRE_THROWS_WITH(parse_position("3/1B1/3 w swap now"), Contains("position has 4 fields"));
    REQUIRE_THROWS_WITH(parse_position(""), Contains("position is empty"));
    REQUIRE_THROWS_WITH(parse_position("   "), Contains("position is empty"));
  }
  SECTION("points off the board") {
    REQUIRE_THROWS_AS(parse_point(5, "f3"), ParseError);
    REQUIRE_THROWS_WITH(parse_point(5, "f3"), Contains("'f3' is off the 5x5 board") && Contains("a to e"));
    REQUIRE_THROWS_WITH(parse_point(5, "a0"), Contains("'a0' is off the 5x5 board") && Contains("1 to 5"));
    REQUIRE_THROWS_WITH(parse_point(5, "a6"), Contains("'a6' is off the 5x5 board") && Contains("1 to 5"));
    REQUIRE_THROWS_WITH(parse_point(19, "t1"), Contains("off the 19x19 board"));
    REQUIRE_THROWS_WITH(parse_point(19, "a20"), Contains("off the 19x19 board"));
    REQUIRE_THROWS_WITH(parse_point(3, "z99"), Contains("off the 3x3 board"));
  }
  SECTION("garbage tokens") {
    const char* bad[] = {"", "c", "3", "3c", "c3x", "c-1", "c+1", "foo", "?1", "c 3", "c100", "pas"};
    for (const char* text : bad) {
      INFO("'" << text << "'");
      REQUIRE_THROWS_AS(parse_point(5, text), ParseError);
      REQUIRE_THROWS_WITH(parse_move(5, text), Contains("is not a point"));
    }
    REQUIRE_THROWS_WITH(parse_move(5, "passs"), Contains("'passs' is not a point"));
  }
  SECTION("moves in a record: the message names the move number") {
    REQUIRE_THROWS_AS(parse_record(5, "c3 d4 zz e5"), ParseError);
    REQUIRE_THROWS_WITH(parse_record(5, "c3 d4 zz e5"), Contains("move 3") && Contains("'zz'"));
    REQUIRE_THROWS_WITH(parse_record(5, "f1"), Contains("move 1") && Contains("off the 5x5 board"));
    REQUIRE_THROWS_WITH(parse_record(5, "a1,b2,c3,d4,e5,a6"), Contains("move 6") && Contains("'a6'"));
  }
}

// Run-length digits must be bounded while they are read, or a long run
// overflows and wraps (4294967301 = 2^32 + 5 once read as a run of 5).
TEST_CASE("notation: huge run-length numbers are rejected", "[notation]") {
  REQUIRE_THROWS_AS(parse_position("4294967301/5/5/5/5 b"), ParseError);
  REQUIRE_THROWS_AS(parse_position("99999999999999999999/3/3 b"), ParseError);
}

TEST_CASE("notation: Game rejects illegal moves with RuleError saying why", "[notation]") {
  SECTION("occupied point") {
    Game5 game = Game5::new_game(5);
    game.play(parse_point(5, "c3"));
    REQUIRE_THROWS_AS(game.play(parse_point(5, "c3")), RuleError);
    REQUIRE_THROWS_WITH(game.play(parse_point(5, "c3")), Contains("c3 is occupied") && Contains("White"));
    REQUIRE(game.moves().size() == 1);  // the failed move changed nothing
  }
  SECTION("weak-connection rule: names the stone and the alternative") {
    // Designer's example 2: b2 weakly connects to a3 while a2 is free.
    Game5 game = game_from("...../W.W../B.W.B/..B../..BW. b");
    REQUIRE_THROWS_AS(game.play(parse_point(5, "b2")), RuleError);
    REQUIRE_THROWS_WITH(game.play(parse_point(5, "b2")), Contains("b2 would weakly connect to a3") &&
                                                             Contains("a2 is a strong connection to a3") &&
                                                             Contains("weak-connection rule"));
    REQUIRE_NOTHROW(game.play(parse_point(5, "b3")));  // example 1 is legal

    // Designer's example 4: b1 weakly connects to c2; c1 and d2 are free.
    Game5 game2 = game_from("...../...../..W../W.B../B.... b");
    REQUIRE_THROWS_WITH(game2.play(parse_point(5, "b1")),
                        Contains("b1 would weakly connect to c2") &&
                            (Contains("c1 is a strong connection") || Contains("d2 is a strong connection")));
    REQUIRE_NOTHROW(game2.play(parse_point(5, "b2")));  // example 3 is legal
  }
  SECTION("crosscut") {
    // Black at b2 would complete  W B / B W  in the corner.
    Game5 game = Game5(from_text<1>(parse_position("...../...../...../W..../BW... b")));
    REQUIRE_THROWS_AS(game.play(parse_point(5, "b2")), RuleError);
    REQUIRE_THROWS_WITH(game.play(parse_point(5, "b2")), Contains("b2 would form a crosscut"));
    // The same for White: White at b2 next to a1 W with B at a2 and b1.
    Game5 game_w = Game5(from_text<1>(parse_position("...../...../...../B..../WB... w")));
    REQUIRE_THROWS_WITH(game_w.play(parse_point(5, "b2")),
                        Contains("b2 would form a crosscut") && Contains("White"));
  }
  SECTION("pass while placements exist") {
    Game5 game = Game5::new_game(5);
    REQUIRE_THROWS_AS(game.play(kPass), RuleError);
    REQUIRE_THROWS_WITH(game.play(kPass),
                        Contains("pass is not allowed") && Contains("Black has 25 legal placements"));
    game.play(parse_point(5, "c3"));
    game.play(parse_point(5, "b2"));
    REQUIRE_THROWS_WITH(game.play(kPass), Contains("pass is not allowed") && Contains("Black has"));
  }
  SECTION("swap anywhere but White's first turn") {
    Game5 game = Game5::new_game(5);
    REQUIRE_THROWS_AS(game.play(kSwap), RuleError);
    REQUIRE_THROWS_WITH(game.play(kSwap), Contains("swap is only allowed on White's first turn"));
    REQUIRE_THROWS_WITH(game.play_record(parse_record(5, "swap")), Contains("move 1 (swap)"));
    REQUIRE_THROWS_WITH(game.play_record(parse_record(5, "c3 b2 swap")),
                        Contains("move 3 (swap)") && Contains("swap is only allowed on White's first turn"));
    Game5 twice = Game5::new_game(5);
    REQUIRE_THROWS_WITH(twice.play_record(parse_record(5, "c3 swap swap")), Contains("move 3 (swap)"));
    // The swap itself, on White's first turn.
    Game5 ok = Game5::new_game(5);
    ok.play_record(parse_record(5, "c3 swap"));
    REQUIRE(ok.swapped());
    REQUIRE(ok.position().to_move == White);
    REQUIRE_FALSE(ok.position().swap_available);
    REQUIRE(ok.position().stones[Black].test(parse_point(5, "c3")));
    REQUIRE(ok.position().stone_count() == 1);
    REQUIRE_NOTHROW(ok.play(parse_point(5, "b2")));
  }
  SECTION("moving after the game is won") {
    // Black a1 completes column a from row 1 to row 3 on 3x3.
    Game<KonobiRules, 1> game(from_text<1>(parse_position("B../B../... b")));
    REQUIRE_FALSE(game.over());
    game.play(parse_point(3, "a1"));
    REQUIRE(game.over());
    REQUIRE(game.winner() == Black);
    REQUIRE(game.legal_moves().empty());
    REQUIRE_THROWS_AS(game.play(parse_point(3, "c3")), RuleError);
    REQUIRE_THROWS_WITH(game.play(parse_point(3, "c3")), Contains("the game is over: Black has won"));
    REQUIRE_THROWS_WITH(game.play(kPass), Contains("game is over"));
    // A diagram of a finished game starts over.
    Game<KonobiRules, 1> done(from_text<1>(parse_position("B../B../B.. w")));
    REQUIRE(done.over());
    REQUIRE_THROWS_WITH(done.play(parse_point(3, "c1")), Contains("the game is over"));
  }
  SECTION("records name the failing move") {
    Game5 game = Game5::new_game(5);
    REQUIRE_THROWS_AS(game.play_record(parse_record(5, "c3 c3")), RuleError);
    Game5 again = Game5::new_game(5);
    REQUIRE_THROWS_WITH(again.play_record(parse_record(5, "c3 c3")),
                        Contains("move 2 (c3)") && Contains("occupied"));
  }
}

TEST_CASE("notation: a row number with a leading zero is not a point", "[notation]") {
  REQUIRE_THROWS_AS(parse_point(5, "c03"), ParseError);
  REQUIRE_THROWS_AS(parse_point(5, "c0"), ParseError);
  REQUIRE(parse_point(19, "c10") == 9 * 19 + 2);
}
