// Puzzles: every shipped puzzle and every freshly mined one is re-proven
// here by alpha-beta alone (one winning move, the stated one, with the
// stated remoteness), its record replays through the referee to the stated
// position, and no two are alike up to symmetry.
#include <filesystem>
#include <set>

#include "support.h"
#include "core/game.h"
#include "solver/io/atomic_file.h"
#include "solver/io/puzzle_file.h"
#include "solver/search/alphabeta.h"

using namespace konobi;
using konobi_test::run_konobi;

namespace {

void check_puzzle(int n, const PuzzleEntry& p, std::set<uint64_t>& keys) {
  INFO("puzzle " << p.id << ": " << p.position);
  // The record is a legal game from the empty board that reaches the position.
  auto game = Game<KonobiRules, 1>::new_game(n);
  std::vector<Move> record;
  for (const auto& m : p.record) record.push_back(parse_move(n, m));
  REQUIRE_NOTHROW(game.play_record(record));
  REQUIRE_FALSE(game.over());
  Position<1> pos = game.position();
  pos.swap_available = false;
  const Position<1> stated = from_text<1>(parse_position(p.position));
  REQUIRE(pos == stated);
  REQUIRE(p.to_move == (pos.to_move == Black ? "black" : "white"));
  REQUIRE(keys.insert(pos.canonical_key()).second);  // no duplicate up to symmetry

  // Alpha-beta on every legal move: exactly one wins, the stated one.
  AlphaBeta<1> ab(20);
  const Move solution = parse_move(n, p.solution);
  int winners = 0;
  konobi_legal_placements(pos).for_each([&](int m) {
    Position<1> q = pos;
    const bool wins_now = konobi_wins_by(pos, m);
    q.place(m);
    const bool wins = wins_now || !ab.wins(q);
    if (wins) {
      ++winners;
      CHECK(m == solution);
    }
    if (m == solution) {
      REQUIRE(wins);
      const int remoteness = wins_now ? 1 : remoteness_of(ab.score(q)) + 1;
      CHECK(remoteness == p.remoteness);
    }
  });
  CHECK(winners == 1);
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("konobi_test_" + std::to_string(getpid()) + "_" + name))
      .string();
}

}  // namespace

TEST_CASE("shipped puzzle collections: one winning move each, re-proven by alpha-beta", "[puzzles]") {
  for (int n : {5, 6}) {
    const std::string path = std::string(KONOBI_SOURCE_DIR) + "/results/puzzles-" + std::to_string(n) + "x" +
                             std::to_string(n) + ".json";
    INFO(path);
    const PuzzleSet set = PuzzleSet::from_json(read_file(path), path);
    REQUIRE(set.size == n);
    REQUIRE(set.puzzles.size() >= 20);
    std::set<uint64_t> keys;
    for (const PuzzleEntry& p : set.puzzles) {
      CHECK(p.remoteness >= set.min_remoteness);
      check_puzzle(n, p, keys);
    }
  }
}

TEST_CASE("puzzles command: mined puzzles check out, and the same seed gives the same puzzles",
          "[puzzles][cli]") {
  const std::string a = temp_path("a.json"), b = temp_path("b.json");
  for (const auto& out : {a, b}) {
    const auto r = run_konobi(
        {"puzzles", "--size", "5", "--count", "4", "--seed", "7", "--tt-mb", "16", "--quiet", "--out", out});
    REQUIRE(r.exited);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("Solutions:") != std::string::npos);
  }
  const PuzzleSet sa = PuzzleSet::from_json(read_file(a), a), sb = PuzzleSet::from_json(read_file(b), b);
  REQUIRE(sa.puzzles.size() == 4);
  std::set<uint64_t> keys;
  for (const PuzzleEntry& p : sa.puzzles) check_puzzle(5, p, keys);
  REQUIRE(sb.puzzles.size() == sa.puzzles.size());
  for (size_t i = 0; i < sa.puzzles.size(); ++i) {
    CHECK(sa.puzzles[i].position == sb.puzzles[i].position);
    CHECK(sa.puzzles[i].solution == sb.puzzles[i].solution);
  }
  // Sorted easiest first, numbered from 1.
  for (size_t i = 0; i < sa.puzzles.size(); ++i) {
    CHECK(sa.puzzles[i].id == int(i + 1));
    if (i > 0) CHECK(sa.puzzles[i - 1].remoteness <= sa.puzzles[i].remoteness);
  }
  // --from shows the same collection.
  const auto shown = run_konobi({"puzzles", "--from", a, "--json"});
  REQUIRE(shown.status == 0);
  CHECK(PuzzleSet::from_json(shown.out, "stdout").puzzles.size() == sa.puzzles.size());
  std::remove(a.c_str());
  std::remove(b.c_str());
}

TEST_CASE("puzzles command: bad input is refused with a message", "[puzzles][cli]") {
  const std::string corrupt = temp_path("corrupt.json"), truncated = temp_path("truncated.json");
  write_file_atomically(corrupt, "{\"schema\": \"konobi-puzzles/1\", \"game\": ");
  write_file_atomically(truncated, "{\"schema\": \"konobi-results/1\"}");
  const std::vector<std::vector<std::string>> bad = {
      {"puzzles", "--size", "2"},
      {"puzzles", "--size", "9"},
      {"puzzles"},
      {"puzzles", "--size", "5", "--count", "0"},
      {"puzzles", "--size", "5", "--dfpn-nodes", "10"},
      {"puzzles", "--from", "/nonexistent/puzzles.json"},
      {"puzzles", "--from", corrupt},
      {"puzzles", "--from", truncated},
  };
  for (const auto& args : bad) {
    INFO(args.back());
    const auto r = run_konobi(args);
    REQUIRE(r.exited);
    CHECK(r.status == 2);
    CHECK_FALSE(r.err.empty());
    CHECK(r.out.empty());
  }
  std::remove(corrupt.c_str());
  std::remove(truncated.c_str());
}
