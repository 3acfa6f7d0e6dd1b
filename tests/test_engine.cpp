// The playing engine (solver/engine): legal moves over whole games on every
// board type, immediate wins taken and immediate threats blocked, perfect
// play where the solver proves (checked by alpha-beta), reproducible moves,
// cancellation, move analysis against alpha-beta, and the GTP interpreter
// in-process and through `konobi gtp`. Every search here is bounded by a
// playout count, never by time.
#include <atomic>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/game.h"
#include "solver/engine/baseline.h"
#include "solver/engine/engine.h"
#include "solver/engine/gtp.h"
#include "solver/search/alphabeta.h"
#include "support.h"

using namespace konobi;

namespace {

EngineLimits fixed(long playouts, uint64_t seed = 1) {
  EngineLimits l;
  l.seconds = 1000;  // never reached: the playout count stops the search
  l.playouts = playouts;
  l.seed = seed;
  l.table_mb = 8;
  return l;
}

GameSpec konobi_spec(int n) { return {false, n, KoRule::Superko, EdgeRule::Either}; }
GameSpec gonnect_spec(int n, KoRule ko = KoRule::Superko, EdgeRule e = EdgeRule::Either) {
  return {true, n, ko, e};
}

// A start position with the given stones, as a position string.
std::string start(int n, const std::vector<std::string>& black, const std::vector<std::string>& white,
                  Color to_move) {
  PositionText t;
  t.n = n;
  t.cells.assign(n * n, -1);
  for (const auto& p : black) t.cells[parse_point(n, p)] = Black;
  for (const auto& p : white) t.cells[parse_point(n, p)] = White;
  t.to_move = to_move;
  return format_position(t);
}

// Plays the record's game through the checked game and calls f(game).
template <class F>
void with_game(const GameRecord& r, F&& f) {
  with_words(r.spec.size, [&](auto w) {
    constexpr int W = decltype(w)::value;
    auto build = [&](auto rules, const auto& v) {
      using Rules = decltype(rules);
      using G = Game<Rules, W>;
      const Geometry<W>& g = Rules::template geometry<W>(r.spec.size, v);
      G game = r.start.empty() ? G::new_game(r.spec.size, v)
                               : G(Rules::start(from_text<W>(parse_position(r.start), &g), v));
      game.play_record(r.moves);
      f(game);
    };
    if (r.spec.gonnect) build(GonnectRules{}, GonnectVariant{r.spec.ko, r.spec.edges});
    else build(KonobiRules{}, KonobiRules::Variant{});
  });
}

bool over(const GameRecord& r) {
  bool o = false;
  with_game(r, [&](const auto& g) { o = g.over(); });
  return o;
}

template <class G>
struct RulesOf;
template <class R, int W>
struct RulesOf<Game<R, W>> {
  using type = R;
};

// Whether the side to move in r has a placement that wins at once.
bool can_win_now(const GameRecord& r) {
  bool any = false;
  with_game(r, [&](const auto& g) {
    using Rules = typename RulesOf<std::decay_t<decltype(g)>>::type;
    any = !g.over() && Rules::winning(g.state(), g.placements()).any();
  });
  return any;
}

// A whole game between two engines (or an engine and a baseline), every
// move checked by the game; returns the number of moves.
int play_out(GameRecord r, long playouts, bool baseline_white, int max_moves) {
  int made = 0;
  while (!over(r) && made < max_moves) {
    Move m;
    const bool white = int(r.moves.size()) % 2 == 1;  // good enough to alternate who decides
    if (baseline_white && white) m = baseline_move(r, Baseline::Random, made);
    else m = engine_move(r, fixed(playouts, made)).move;
    r.moves.push_back(m);
    REQUIRE_NOTHROW(with_game(r, [](const auto&) {}));
    ++made;
  }
  return made;
}

}  // namespace

TEST_CASE("engine plays only legal moves through whole games", "[engine]") {
  for (int n : {3, 4, 6, 9}) {
    INFO("konobi " << n);
    GameRecord r{konobi_spec(n), "", {}};
    const int made = play_out(r, 20, false, 4 * n * n);
    CHECK(made > 0);
  }
  for (int n : {4, 7, 10}) {
    INFO("gonnect " << n);
    GameRecord r{gonnect_spec(n), "", {}};
    CHECK(play_out(r, 20, false, 4 * n * n) > 0);
  }
  {
    INFO("gonnect simple ko, own edges, against random");
    GameRecord r{gonnect_spec(5, KoRule::Simple, EdgeRule::Own), "", {}};
    CHECK(play_out(r, 40, true, 200) > 0);
  }
  {
    INFO("konobi 13x13 and 17x17 against random");
    CHECK(play_out(GameRecord{konobi_spec(13), "", {}}, 20, true, 400) > 0);
    CHECK(play_out(GameRecord{konobi_spec(17), "", {}}, 10, true, 600) > 0);
  }
}

TEST_CASE("engine takes a one-move win on 9x9 and 13x13", "[engine]") {
  for (int n : {9, 13}) {
    for (bool gonnect : {false, true}) {
      INFO(n << "x" << n << (gonnect ? " gonnect" : " konobi"));
      // Black's column e1..e(n-1) lacks its top point; White's stones are
      // scattered far from connecting.
      std::vector<std::string> black, white;
      for (int y = 1; y < n; ++y) black.push_back("e" + std::to_string(y));
      for (int y = 1; y < n; y += 2) white.push_back(std::string(1, char('a' + n - 1)) + std::to_string(y));
      for (int y = 2; y < n; y += 4) white.push_back("a" + std::to_string(y));
      GameRecord r{gonnect ? gonnect_spec(n) : konobi_spec(n), start(n, black, white, Black), {}};
      const EngineChoice c = engine_move(r, fixed(50));
      CHECK(c.knowledge == EngineChoice::ProvenWin);
      CHECK(c.remoteness == 1);
      r.moves.push_back(c.move);
      with_game(r, [&](const auto& g) {
        CHECK(g.over());
        CHECK(g.winner() == Black);
      });
    }
  }
}

TEST_CASE("engine blocks the opponent's one-move win", "[engine]") {
  // Gonnect: White's column a1..a(n-1) threatens a(n); Black must take it
  // (the chain has liberties to spare, so no capture helps).
  for (int n : {9, 13}) {
    INFO("gonnect " << n);
    std::vector<std::string> black, white;
    for (int y = 1; y < n; ++y) white.push_back("a" + std::to_string(y));
    for (int y = 1; y < n; y += 2) black.push_back(std::string(1, char('a' + n - 2)) + std::to_string(y));
    black.push_back("f" + std::to_string(n));
    GameRecord r{gonnect_spec(n), start(n, black, white, Black), {}};
    REQUIRE_FALSE(can_win_now(r));
    const EngineChoice c = engine_move(r, fixed(300));
    CHECK(move_name(n, c.move) == "a" + std::to_string(n));
    r.moves.push_back(c.move);
    CHECK_FALSE(can_win_now(r));
  }
  // Konobi: White's row a5..h5 on 9x9 threatens i5.
  {
    std::vector<std::string> white, black = {"b1", "d1", "f1", "h1", "b9", "d9", "f9", "h9"};
    for (char x = 'a'; x <= 'h'; ++x) white.push_back(std::string(1, x) + "5");
    GameRecord r{konobi_spec(9), start(9, black, white, Black), {}};
    REQUIRE_FALSE(can_win_now(r));
    const EngineChoice c = engine_move(r, fixed(300));
    r.moves.push_back(c.move);
    CHECK_FALSE(can_win_now(r));
  }
}

TEST_CASE("engine plays a proven win where alpha-beta finds one", "[engine]") {
  // Positions a few random moves into 4x4 and 5x5 games.
  int checked = 0;
  for (int n : {4, 5}) {
    for (uint64_t seed = 1; seed <= 12; ++seed) {
      GameRecord r{konobi_spec(n), "", {}};
      // Far enough into the game for alpha-beta to settle it quickly.
      const int stones = (n == 4 ? 3 : 9) + int(seed % 3);
      for (int i = 0; i < stones && !over(r); ++i)
        r.moves.push_back(baseline_move(r, Baseline::Random, seed * 31 + i));
      if (over(r) || can_win_now(r)) continue;
      bool wins = false;
      with_game(r, [&](const auto& g) {
        if constexpr (std::is_same_v<std::decay_t<decltype(g)>, Game<KonobiRules, 1>>) {
          Position<1> p = g.position();
          p.swap_available = false;
          wins = AlphaBeta<1>(18).wins(p);
        }
      });
      if (!wins || r.moves.size() == 1) continue;  // after one stone the engine may swap instead
      const EngineChoice c = engine_move(r, fixed(1000));
      INFO(format_record(n, r.moves) << " -> " << move_name(n, c.move));
      CHECK(c.knowledge == EngineChoice::ProvenWin);
      CHECK(c.said.rfind("proven win", 0) == 0);
      REQUIRE(c.move >= 0);
      r.moves.push_back(c.move);
      with_game(r, [&](const auto& g) {
        if constexpr (std::is_same_v<std::decay_t<decltype(g)>, Game<KonobiRules, 1>>) {
          if (g.over()) {
            CHECK(g.winner() != int(g.position().to_move));
            return;
          }
          Position<1> p = g.position();
          p.swap_available = false;
          CHECK_FALSE(AlphaBeta<1>(18).wins(p));  // the opponent, to move, loses
          // The remoteness the engine gave is alpha-beta's.
          if (c.remoteness > 0) CHECK(remoteness_of(AlphaBeta<1>(18).score(p)) + 1 == c.remoteness);
        }
      });
      ++checked;
    }
  }
  CHECK(checked >= 5);
}

TEST_CASE("engine moves are reproducible with a playout limit and a seed", "[engine]") {
  const GameRecord records[] = {
      {konobi_spec(9), "", {parse_point(9, "e5"), parse_point(9, "d4")}},
      {gonnect_spec(13), "", {parse_point(13, "g7"), parse_point(13, "f6"), parse_point(13, "h8")}},
      {konobi_spec(6), "", {parse_point(6, "c3")}},
  };
  for (const GameRecord& r : records) {
    const EngineChoice a = engine_move(r, fixed(150, 9)), b = engine_move(r, fixed(150, 9));
    CHECK(a.move == b.move);
    CHECK(a.said == b.said);
  }
}

TEST_CASE("engine stops when cancelled", "[engine]") {
  std::atomic<bool> cancel{true};
  EngineLimits l;
  l.seconds = 1e5;  // only the cancel flag can end this search in time
  l.table_mb = 8;
  for (const GameSpec& spec : {konobi_spec(11), konobi_spec(7), gonnect_spec(15)}) {
    GameRecord r{spec, "", {}};
    r.moves.push_back(spec.size * spec.size / 2);
    const EngineChoice c = engine_move(r, l, &cancel);
    r.moves.push_back(c.move);
    CHECK_NOTHROW(with_game(r, [](const auto&) {}));
  }
  // The first stone of a game, stopped before any playout (it once read a
  // null pointer there): still a legal placement.
  for (const GameSpec& spec : {konobi_spec(5), konobi_spec(9), gonnect_spec(9)}) {
    GameRecord r{spec, "", {}};
    const EngineChoice c = engine_move(r, l, &cancel);
    CHECK(c.move >= 0);
    r.moves.push_back(c.move);
    CHECK_NOTHROW(with_game(r, [](const auto&) {}));
  }
  GameRecord r{konobi_spec(6), "", {14}};
  CHECK(analyze_moves(r, l, &cancel).size() > 0);
  CHECK(winning_line(r, l, &cancel).empty());
}

TEST_CASE("engine: forced pass, finished game, bad records", "[engine]") {
  // Konobi: a forced pass, the first one a depth-first walk of 4x4 games meets.
  std::vector<Move> path;
  std::function<bool(Game<KonobiRules, 1>&)> find = [&](Game<KonobiRules, 1>& g) {
    if (g.must_pass()) return true;
    if (g.over()) return false;
    bool hit = false;
    g.placements().for_each([&](int m) {
      if (hit) return;
      Game<KonobiRules, 1> next = g;
      next.play(m);
      path.push_back(m);
      if (find(next)) hit = true;
      else path.pop_back();
    });
    return hit;
  };
  auto root = Game<KonobiRules, 1>::new_game(4);
  REQUIRE(find(root));
  const EngineChoice c = engine_move(GameRecord{konobi_spec(4), "", path}, fixed(10));
  CHECK(c.move == kPass);
  CHECK(c.said.find("forced pass") != std::string::npos);
  GameRecord done{konobi_spec(3),
                  "",
                  {parse_point(3, "b1"), parse_point(3, "a1"), parse_point(3, "b2"), parse_point(3, "c1"),
                   parse_point(3, "b3")}};
  if (over(done)) CHECK_THROWS_AS(engine_move(done, fixed(10)), std::invalid_argument);
  GameRecord bad{konobi_spec(5), "", {3, 3}};
  CHECK_THROWS_AS(engine_move(bad, fixed(10)), RuleError);
  GameRecord bad_start{konobi_spec(5), "nonsense", {}};
  CHECK_THROWS_AS(engine_move(bad_start, fixed(10)), ParseError);
  GameRecord bad_size{konobi_spec(25), "", {}};
  CHECK_THROWS_AS(engine_move(bad_size, fixed(10)), std::invalid_argument);
}

TEST_CASE("analyze_moves agrees with alpha-beta on small boards", "[engine]") {
  for (int n : {3, 4}) {
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      GameRecord r{konobi_spec(n), "", {}};
      for (int i = 0; i < 2 + int(seed % 3) && !over(r); ++i)
        r.moves.push_back(baseline_move(r, Baseline::Random, seed * 7 + i));
      if (over(r)) continue;
      with_game(r, [&](const auto& g) {
        if constexpr (std::is_same_v<std::decay_t<decltype(g)>, Game<KonobiRules, 1>>) {
          Position<1> p = g.position();
          p.swap_available = false;
          AlphaBeta<1> ab(18);
          const auto expected = ab.score_moves(p);
          const auto got = analyze_moves(r, fixed(2000));
          REQUIRE(got.size() == expected.size());
          for (size_t i = 0; i < got.size(); ++i) {
            INFO(format_record(n, r.moves) << " move " << move_name(n, got[i].move));
            CHECK(got[i].move == expected[i].first);
            CHECK(got[i].value == (expected[i].second > 0 ? 1 : -1));
            CHECK(got[i].remoteness == remoteness_of(expected[i].second));
          }
          // The winning line, when there is a win, is legal and wins.
          const std::vector<Move> line = winning_line(r, fixed(2000));
          if (ab.wins(p)) {
            REQUIRE_FALSE(line.empty());
            GameRecord played = r;
            played.moves.insert(played.moves.end(), line.begin(), line.end());
            with_game(played, [&](const auto& end) {
              CHECK(end.over());
              CHECK(end.winner() == int(p.to_move));
            });
          }
        }
      });
    }
  }
  // Past the solver's boards: only immediate wins are known.
  GameRecord big{konobi_spec(11), "", {60}};
  for (const MoveAnalysis& a : analyze_moves(big, fixed(10))) CHECK(a.value == 0);
}

TEST_CASE("GTP session: boardsize, play, genmove, errors, undo, showboard", "[engine][gtp]") {
  GtpOptions o;
  o.playouts = 50;
  GtpSession s(o);
  CHECK(s.execute("protocol_version") == "= 2");
  CHECK(s.execute("1 name") == "=1 konobi");
  CHECK(s.execute("known_command genmove") == "= true");
  CHECK(s.execute("known_command fly") == "= false");
  CHECK(s.execute("boardsize 7") == "=");
  CHECK(s.execute("# a comment") == "");
  CHECK(s.execute("play b d4") == "=");
  CHECK(s.execute("play b d5").rfind("? it is White's turn", 0) == 0);
  CHECK(s.execute("play w d4").rfind("? illegal move: d4 is occupied", 0) == 0);
  CHECK(s.execute("play w z9").rfind("?", 0) == 0);
  CHECK(s.execute("play purple d4").rfind("? invalid color", 0) == 0);
  CHECK(s.execute("2 genmove w").rfind("=2 ", 0) == 0);
  CHECK(s.record().moves.size() == 2);
  CHECK(s.execute("undo") == "=");
  CHECK(s.record().moves.size() == 1);
  CHECK(s.execute("play w swap") == "=");
  const std::string board = s.execute("showboard");
  CHECK(board.find(" 4 . . . X . . . 4") != std::string::npos);
  CHECK(board.find("White to move") != std::string::npos);
  CHECK(s.execute("boardsize 20").rfind("? unacceptable size", 0) == 0);
  CHECK(s.execute("boardsize").rfind("? syntax error", 0) == 0);
  CHECK(s.execute("komi 6.5") == "=");
  CHECK(s.execute("time_settings 60 0 0") == "=");
  CHECK(s.execute("time_left w 5 0") == "=");
  CHECK(s.execute("konobi-winner") == "= none");
  CHECK(s.execute("final_score").rfind("? the game is not over", 0) == 0);
  CHECK(s.execute("fly away").rfind("? unknown command", 0) == 0);
  CHECK(s.execute("undo") == "=");
  CHECK(s.execute("undo") == "=");
  CHECK(s.execute("undo").rfind("? cannot undo", 0) == 0);
  // A quick game to its end: the winner and the score agree.
  CHECK(s.execute("boardsize 3") == "=");
  for (const char* m : {"play b b1", "play w a1", "play b b2", "play w c1", "play b b3"})
    CHECK(s.execute(m) == "=");
  CHECK(s.execute("konobi-winner") == "= black");
  CHECK(s.execute("final_score") == "= B+");
  CHECK(s.execute("genmove w").rfind("? the game is over", 0) == 0);
  CHECK(s.execute("konobi-game gonnect simple own") == "=");
  CHECK(s.execute("konobi-game chess").rfind("? unknown game", 0) == 0);
  CHECK(s.execute("genmove b").rfind("= ", 0) == 0);
  CHECK(s.execute("quit") == "=");
  CHECK(s.quit());
}

TEST_CASE("GTP run: replies end with a blank line and stop at quit", "[engine][gtp]") {
  GtpOptions o;
  o.player = GtpOptions::Player::Greedy;
  GtpSession s(o);
  std::istringstream in("boardsize 5\ngenmove b\nquit\nname\n");
  std::ostringstream out;
  s.run(in, out);
  const std::string text = out.str();
  CHECK(text.rfind("=\n\n= ", 0) == 0);
  REQUIRE(text.size() >= 4);
  CHECK(text.substr(text.size() - 4) == "\n=\n\n");
  CHECK(text.find("konobi") == std::string::npos);  // nothing answered after quit
}

TEST_CASE("konobi gtp through the program: bad options and bad input", "[engine][gtp][cli]") {
  auto r = konobi_test::run_konobi({"gtp", "--player", "wizard"});
  CHECK(r.exited);
  CHECK(r.status == 2);
  CHECK(r.err.find("--player must be") != std::string::npos);
  r = konobi_test::run_konobi({"gtp", "--size", "2"});
  CHECK(r.status == 2);
  r = konobi_test::run_konobi({"gtp", "--ko", "simple"});
  CHECK(r.status == 2);
  konobi_test::TempDir dir;
  const std::string input = dir / "in.txt";
  {
    std::ofstream f(input, std::ios::binary);
    f << "boardsize 5\n\x01\x02garbage \xff\xfe\nplay b\nplay b q99\n"
      << std::string(5000, 'x') << "\nboardsize -3\ngenmove b\nquit\n";
  }
  r = konobi_test::run_konobi({"gtp", "--player", "random", "--seed", "3"}, "", input);
  CHECK(r.exited);
  CHECK(r.status == 0);
  CHECK(r.out.find("? unknown command") != std::string::npos);
  CHECK(r.out.find("? syntax error: usage play COLOR VERTEX") != std::string::npos);
  CHECK(r.out.find("? unacceptable size -3") != std::string::npos);
  int questions = 0;
  for (size_t i = 0; (i = r.out.find("\n?", i)) != std::string::npos; ++i) ++questions;
  CHECK(questions >= 4);
}

TEST_CASE("konobi play with the engine: whole games on 9x9, Konobi and Gonnect", "[engine][cli]") {
  for (const char* game : {"konobi", "gonnect"}) {
    INFO(game);
    const auto r = konobi_test::run_konobi({"play", "--game", game, "--size", "9", "--black", "engine",
                                            "--white", "random", "--think", "0.01", "--seed", "4"});
    CHECK(r.exited);
    CHECK(r.status == 0);
    CHECK(r.out.find("(engine) plays") != std::string::npos);
    CHECK(r.out.find(" wins") != std::string::npos);
    CHECK(r.out.find("Record: ") != std::string::npos);
  }
  const auto bad = konobi_test::run_konobi({"play", "--size", "9", "--vs", "engines"});
  CHECK(bad.status == 2);
  CHECK(bad.err.find("'engine'") != std::string::npos);
}
