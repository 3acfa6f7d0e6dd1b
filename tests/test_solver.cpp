// The solver checked against itself and against an independent search:
// df-pn agrees with alpha-beta on every reachable 3x3 position, every 4x4
// opening and a sample of 5x5 middle games; df-pn's verdict does not depend
// on threads, symmetry keys, evaluation or table size; the proofs it builds
// pass the independent checker, and tampered proofs do not; bad table sizes
// and bad results files are refused.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "core/game.h"
#include "core/notation.h"
#include "core/openings.h"
#include "solver/io/results.h"
#include "solver/search/alphabeta.h"
#include "solver/search/dfpn.h"
#include "solver/search/parallel_dfpn.h"
#include "solver/search/proof.h"
#include "solver/search/tt.h"
#include "solver/verify/proof_checker.h"

using Catch::Contains;

namespace {

using Pos = konobi::Position<1>;

#ifdef KONOBI_SANITIZE_BUILD
constexpr bool kSanitize = true;
#else
constexpr bool kSanitize = false;
#endif

// Each position here takes well under a second; a search that runs for this
// long is stuck (a livelock), which must fail the test rather than hang it.
constexpr double kSolveSeconds = kSanitize ? 120 : 15;

std::string show(const Pos& pos) { return konobi::format_position(konobi::to_text(pos)); }

// Black's stone at p on an empty n x n board, White to move, no swap.
Pos opening(int n, int p) {
  Pos pos = Pos::empty(konobi::Geometry<1>::get(n));
  pos.place(p);
  pos.swap_available = false;
  return pos;
}

std::string join(const std::vector<std::string>& lines, size_t max = 20) {
  std::string s;
  for (size_t i = 0; i < lines.size() && i < max; ++i) s += lines[i] + "\n";
  if (lines.size() > max) s += "... and " + std::to_string(lines.size() - max) + " more\n";
  return s;
}

// Every position reachable from the empty n x n board by placements and
// forced passes (no swap), stopping at wins, once each (by key).
// `draws` counts positions where neither side can place, which the rules say
// cannot occur.
std::vector<Pos> reachable_positions(int n, int& draws) {
  std::vector<Pos> out;
  std::unordered_set<uint64_t> seen;
  std::vector<Pos> stack{Pos::empty(konobi::Geometry<1>::get(n))};
  draws = 0;
  while (!stack.empty()) {
    const Pos pos = stack.back();
    stack.pop_back();
    if (!seen.insert(pos.key()).second) continue;
    const auto legal = konobi::konobi_legal_placements(pos);
    if (legal.none()) {
      if (konobi::konobi_legality(pos, konobi::other(pos.to_move)).legal.none()) {
        ++draws;
        continue;
      }
      out.push_back(pos);
      Pos q = pos;
      q.pass();
      stack.push_back(q);
      continue;
    }
    out.push_back(pos);
    legal.for_each([&](int m) {
      if (konobi::konobi_wins_by(pos, m)) return;  // the game ends here
      Pos q = pos;
      q.place(m);
      q.swap_available = false;
      stack.push_back(q);
    });
  }
  return out;
}

// Positions with `lo` to `hi` stones from random legal play on an n x n board
// (winning placements avoided, forced passes played), distinct by key.
std::vector<Pos> random_positions(int n, int count, int lo, int hi, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Pos> out;
  std::unordered_set<uint64_t> seen;
  int attempts = 0;
  while (int(out.size()) < count && attempts++ < count * 50) {
    const int target = std::uniform_int_distribution<int>(lo, hi)(rng);
    Pos pos = Pos::empty(konobi::Geometry<1>::get(n));
    bool ok = true;
    while (ok && pos.stone_count() < target) {
      const auto legal = konobi::konobi_legal_placements(pos);
      if (legal.none()) {
        if (konobi::konobi_legality(pos, konobi::other(pos.to_move)).legal.none()) ok = false;
        else pos.pass();
        continue;
      }
      std::vector<int> quiet;
      legal.for_each([&](int m) {
        if (!konobi::konobi_wins_by(pos, m)) quiet.push_back(m);
      });
      if (quiet.empty()) {
        ok = false;
        break;
      }
      pos.place(quiet[std::uniform_int_distribution<size_t>(0, quiet.size() - 1)(rng)]);
      pos.swap_available = false;
    }
    if (!ok || konobi::has_winning_chain(pos, konobi::Black) || konobi::has_winning_chain(pos, konobi::White))
      continue;
    if (seen.insert(pos.key()).second) out.push_back(pos);
  }
  return out;
}

// Raises `stop` after `seconds` unless destroyed first.
class Deadline {
 public:
  explicit Deadline(double seconds)
      : thread_([this, seconds] {
          std::unique_lock<std::mutex> lock(mutex_);
          if (!cv_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return done_; })) stop = true;
        }) {}
  ~Deadline() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  std::atomic<bool> stop{false};

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

// df-pn's verdict for the side to move, or nothing if it did not finish in
// kSolveSeconds.
std::optional<bool> dfpn_wins(const Pos& pos, konobi::TranspositionTable& tt, const konobi::DfpnOptions& opt,
                              int threads) {
  Deadline deadline(kSolveSeconds);
  try {
    return konobi::solve_position<1>(pos, tt, opt, threads, &deadline.stop).mover_wins;
  } catch (const konobi::SearchStopped&) {
    return std::nullopt;
  }
}

std::string verdict(std::optional<bool> v) {
  return !v ? "no answer within " + std::to_string(int(kSolveSeconds)) + " s" : *v ? "win" : "loss";
}

struct Reference {
  bool wins;  // alpha-beta's null-window verdict
  int score;  // exact score
};

// What is wrong with an alpha-beta score, or "".
std::string score_problem(int score, bool wins) {
  std::ostringstream why;
  const int r = konobi::remoteness_of(score);
  if (wins != (score > 0)) why << " AlphaBeta::wins says " << (wins ? "win" : "loss") << " but score is " << score;
  if (score == 0) why << " score 0 (a draw)";
  if (std::abs(score) > konobi::kWinScore - 1) why << " score " << score << " is out of range";
  // The mover wins on one of its own plies: an odd number of plies away.
  else if (score != 0 && (r % 2 == 1) != (score > 0)) why << " remoteness " << r << " has the wrong parity for score " << score;
  return why.str();
}

// Compares df-pn (with `opt`, `threads`, on `tt`) with alpha-beta (a fresh
// table of 2^log2 entries per position) on each position; returns one line
// per disagreement. `refs` receives alpha-beta's answers when given.
std::vector<std::string> compare_with_alphabeta(const std::vector<Pos>& positions, konobi::TranspositionTable& tt,
                                                const konobi::DfpnOptions& opt, int threads, int log2,
                                                std::vector<Reference>* refs = nullptr) {
  std::vector<std::string> bad;
  for (const Pos& pos : positions) {
    const std::optional<bool> dfpn = dfpn_wins(pos, tt, opt, threads);
    // Separate tables: the exact search must not lean on the null-window one.
    const bool abw = konobi::AlphaBeta<1>(log2).wins(pos);
    const int score = konobi::AlphaBeta<1>(log2).score(pos);
    if (refs) refs->push_back({abw, score});
    std::string why;
    if (dfpn != abw) why += " df-pn says " + verdict(dfpn) + ", AlphaBeta::wins says " + (abw ? "win" : "loss");
    why += score_problem(score, abw);
    if (!why.empty()) bad.push_back(show(pos) + ":" + why);
  }
  return bad;
}

std::vector<Pos> openings4() {
  std::vector<Pos> v;
  for (int p = 0; p < 16; ++p) v.push_back(opening(4, p));
  return v;
}

// One 4x4 opening per symmetry class.
std::vector<Pos> opening_classes4() {
  std::vector<Pos> v;
  for (int p : konobi::opening_classes(konobi::Geometry<1>::get(4))) v.push_back(opening(4, p));
  return v;
}

}  // namespace

TEST_CASE("the searched moves are exactly the placements that do not let the opponent win at once", "[solver]") {
  // node_moves drops a placement when the opponent could then complete a
  // chain; df-pn, alpha-beta and the proofs rely on it dropping nothing else.
  int positions = 0, dropped = 0, lost = 0;
  for (int n = 3; n <= 7; ++n) {
    for (const Pos& pos : random_positions(n, 150, 2, n * n * 3 / 4, 500u + uint32_t(n))) {
      const auto nm = konobi::node_moves(pos);
      if (nm.kind == konobi::NodeKind::WinNow || nm.kind == konobi::NodeKind::PassOnly) continue;
      ++positions;
      if (nm.kind == konobi::NodeKind::LoseNow) ++lost;
      konobi::konobi_legal_placements(pos).for_each([&](int m) {
        Pos child = pos;
        child.place(m);
        const bool opponent_wins_at_once =
            (konobi::konobi_legal_placements(child) & konobi::connecting_points(child, child.to_move)).any();
        const bool kept = nm.kind == konobi::NodeKind::Search && nm.moves.test(m);
        INFO(show(pos) << " then " << konobi::point_name(n, m));
        REQUIRE(kept == !opponent_wins_at_once);
        if (!kept) ++dropped;
      });
    }
  }
  CHECK(positions > 300);
  CHECK(dropped > 100);
  CHECK(lost > 0);
}

TEST_CASE("the per-parent child estimates equal the evaluation of each child", "[solver]") {
  // df-pn seeds every new child from ChildEstimates; it must give exactly
  // estimate() of the child (the bench fingerprint relies on it too), on
  // open boards, crowded ones and ones where a side is cut off.
  int checked = 0, critical = 0;
  for (int n = 3; n <= 8; ++n) {
    const int hi = n * n * 3 / 4;
    for (const Pos& pos : random_positions(n, 120, 0, hi, 1000u + uint32_t(n))) {
      const konobi::ChildEstimates<1> estimates(pos);
      const int before = konobi::connection_distance(pos, konobi::other(pos.to_move));
      pos.empty_points().for_each([&](int m) {
        Pos child = pos;
        child.place(m);
        const konobi::Estimate want = konobi::estimate(child);
        const konobi::Estimate got = estimates(m);
        INFO(show(pos) << " then " << konobi::point_name(n, m));
        REQUIRE(got.pn == want.pn);
        REQUIRE(got.dn == want.dn);
        if (konobi::connection_distance(child, child.to_move) != before) ++critical;
        ++checked;
      });
    }
  }
  CHECK(checked > 5000);
  CHECK(critical > 100);  // the recomputed case was exercised
}

TEST_CASE("df-pn agrees with alpha-beta on every reachable 3x3 position", "[solver]") {
  int draws = -1;
  const std::vector<Pos> all = reachable_positions(3, draws);
  INFO(all.size() << " positions");
  CHECK(draws == 0);
  REQUIRE(all.size() > 100);
  konobi::TranspositionTable tt(16);
  std::vector<Reference> refs;
  const auto bad = compare_with_alphabeta(all, tt, konobi::DfpnOptions{}, 1, 10, &refs);
  INFO(join(bad));
  CHECK(bad.empty());
  // The empty 3x3 board (no pie rule) is a first-player win.
  REQUIRE(all.front().stone_count() == 0);
  CHECK(refs.front().wins);
}

TEST_CASE("df-pn agrees with alpha-beta on every 4x4 opening", "[solver]") {
  konobi::TranspositionTable tt(32);
  std::vector<Reference> refs;
  const auto bad = compare_with_alphabeta(openings4(), tt, konobi::DfpnOptions{}, 1, 18, &refs);
  INFO(join(bad));
  CHECK(bad.empty());
  // Symmetric openings have the same value and the same remoteness.
  const auto& g = konobi::Geometry<1>::get(4);
  for (int p = 0; p < 16; ++p) {
    const int rep = konobi::opening_representative(g, p);
    INFO("opening " << konobi::point_name(4, p) << " class " << konobi::point_name(4, rep));
    CHECK(refs[p].score == refs[rep].score);
  }
}

TEST_CASE("df-pn agrees with alpha-beta on every 4x4 position with two stones", "[solver]") {
  std::vector<Pos> positions;
  int index = 0;
  for (const Pos& o : openings4())
    konobi::konobi_legal_placements(o).for_each([&](int m) {
      if (konobi::konobi_wins_by(o, m)) return;
      // Under the sanitizers, every fourth.
      if (kSanitize && index++ % 4 != 0) return;
      Pos q = o;
      q.place(m);
      positions.push_back(q);
    });
  REQUIRE(positions.size() > (kSanitize ? 50u : 200u));
  konobi::TranspositionTable tt(32);
  const auto bad = compare_with_alphabeta(positions, tt, konobi::DfpnOptions{}, 1, 16);
  INFO(bad.size() << " of " << positions.size() << " disagree:\n" << join(bad));
  CHECK(bad.empty());
}

TEST_CASE("df-pn agrees with alpha-beta on random 5x5 positions with 8 to 14 stones", "[solver]") {
  const int count = kSanitize ? 30 : 300;
  const std::vector<Pos> sample = random_positions(5, count, 8, 14, 20240601u);
  REQUIRE(int(sample.size()) == count);
  konobi::TranspositionTable tt(64);
  std::vector<Reference> refs;
  const auto bad = compare_with_alphabeta(sample, tt, konobi::DfpnOptions{}, 1, 16, &refs);
  INFO(join(bad));
  CHECK(bad.empty());
  // The sample is not one-sided.
  int wins = 0;
  for (const auto& r : refs) wins += r.wins;
  CHECK(wins > 0);
  CHECK(wins < int(refs.size()));
}

TEST_CASE("alpha-beta gives the same exact scores when its table is reused", "[solver]") {
  SECTION("the smallest case found: two 3x3 positions in a row") {
    const Pos first = konobi::from_text<1>(konobi::parse_position("..B/.../... w"));
    const Pos second = konobi::from_text<1>(konobi::parse_position("BWB/.W./..B w"));
    const int expected = konobi::AlphaBeta<1>(10).score(second);
    CHECK(expected == -(konobi::kWinScore - 4));  // White loses in 4 plies
    konobi::AlphaBeta<1> shared(18);
    CHECK(shared.score(first) < 0);
    const int got = shared.score(second);
    CHECK(got == expected);
    CHECK(shared.wins(second) == (expected > 0));
  }
  SECTION("a fresh table: 4x4 positions that White wins, as a checked proof shows") {
    for (const char* text : {"B.../..../..../.W.. b", "...B/..../..../..W. b"}) {
      const Pos pos = konobi::from_text<1>(konobi::parse_position(text));
      INFO(text);
      // Ground truth from the independent checker.
      konobi::TranspositionTable tt(16);
      const std::optional<bool> black_wins = dfpn_wins(pos, tt, konobi::DfpnOptions{}, 1);
      REQUIRE(black_wins == false);
      const std::string proof = konobi::ProofBuilder<1>(tt, konobi::DfpnOptions{}).build(pos, konobi::White).to_text();
      REQUIRE(konobi::check_proof(proof).ok);
      CHECK_FALSE(konobi::AlphaBeta<1>(18).wins(pos));
      const int score = konobi::AlphaBeta<1>(18).score(pos);
      CHECK(score < 0);
      CHECK(score_problem(score, false).empty());
    }
  }
  SECTION("every reachable 3x3 position, one table for all") {
    int draws = -1;
    const std::vector<Pos> all = reachable_positions(3, draws);
    konobi::AlphaBeta<1> shared(18);
    std::vector<std::string> bad;
    for (const Pos& pos : all) {
      const int expected = konobi::AlphaBeta<1>(10).score(pos);
      const int got = shared.score(pos);
      if (got != expected || !score_problem(got, got > 0).empty())
        bad.push_back(show(pos) + ": score " + std::to_string(got) + " with the shared table, " +
                      std::to_string(expected) + " with a fresh one");
    }
    INFO(bad.size() << " of " << all.size() << " positions differ:\n" << join(bad, 8));
    CHECK(bad.empty());
  }
  SECTION("score_moves on the 4x4 openings") {
    std::vector<std::string> bad;
    for (const Pos& pos : kSanitize ? opening_classes4() : openings4()) {
      konobi::AlphaBeta<1> ab(18);
      for (const auto& [m, score] : ab.score_moves(pos)) {
        REQUIRE(m >= 0);
        Pos q = pos;
        q.place(m);
        const bool wins = konobi::konobi_wins_by(pos, m) || !konobi::AlphaBeta<1>(16).wins(q);
        if ((score > 0) != wins || std::abs(score) > konobi::kWinScore - 1)
          bad.push_back(show(pos) + " move " + konobi::point_name(4, m) + ": score " + std::to_string(score) +
                        ", but the move " + (wins ? "wins" : "loses"));
      }
    }
    INFO(join(bad));
    CHECK(bad.empty());
  }
}

TEST_CASE("df-pn's verdict does not depend on threads, symmetry, evaluation, simulation or table size", "[solver]") {
  std::vector<Pos> positions = kSanitize ? opening_classes4() : openings4();
  const std::vector<Pos> mid = random_positions(5, kSanitize ? 6 : 40, 10, 14, 777u);
  REQUIRE(!mid.empty());
  positions.insert(positions.end(), mid.begin(), mid.end());

  std::vector<bool> expected;
  for (const Pos& p : positions) expected.push_back(konobi::AlphaBeta<1>(16).wins(p));

  for (int threads : {1, 2})
    for (bool symmetry : {true, false})
      for (bool evaluate : {true, false})
        for (double mb : {0.01, 256.0})
          for (int simulation : {konobi::DfpnOptions{}.simulation, 0}) {
          konobi::DfpnOptions opt;
          opt.symmetry = symmetry;
          opt.evaluate = evaluate;
          opt.simulation = simulation;
          // A tiny table of 0.01 MB (128 buckets): fresh for every position,
          // so every search runs under heavy replacement. The large one is
          // shared by all positions of a configuration.
          std::unique_ptr<konobi::TranspositionTable> shared;
          if (mb > 1) shared = std::make_unique<konobi::TranspositionTable>(mb);
          std::vector<std::string> bad;
          for (size_t i = 0; i < positions.size(); ++i) {
            std::unique_ptr<konobi::TranspositionTable> own;
            if (!shared) own = std::make_unique<konobi::TranspositionTable>(mb);
            konobi::TranspositionTable& tt = shared ? *shared : *own;
            const std::optional<bool> got = dfpn_wins(positions[i], tt, opt, threads);
            if (got != expected[i])
              bad.push_back(show(positions[i]) + ": df-pn says " + verdict(got) + ", alpha-beta " +
                            (expected[i] ? "win" : "loss"));
          }
          INFO("threads " << threads << ", symmetry " << symmetry << ", evaluation " << evaluate << ", simulation "
                          << simulation << ", table " << mb << " MB");
          INFO(join(bad));
          CHECK(bad.empty());
        }
}

TEST_CASE("the job runner proves many positions side by side with the single-thread verdicts", "[solver]") {
  std::vector<Pos> jobs = openings4();
  const std::vector<Pos> mid = random_positions(5, kSanitize ? 4 : 24, 10, 14, 4242u);
  jobs.insert(jobs.end(), mid.begin(), mid.end());
  std::vector<bool> expected;
  for (const Pos& p : jobs) expected.push_back(konobi::AlphaBeta<1>(16).wins(p));

  for (int threads : {1, 2, 3}) {
    konobi::TranspositionTable tt(64);
    konobi::JobRunner<konobi::KonobiSearch, 1> runner(tt, konobi::DfpnOptions{}, threads);
    std::vector<int> ended(jobs.size(), 0);
    std::vector<std::string> bad;
    std::mutex m;  // reports may come on two threads at once
    runner.run(jobs, nullptr, [&](const konobi::JobResult& r) {
      std::lock_guard lock(m);
      ++ended[r.job];
      if (r.end != konobi::JobEnd::Proven) bad.push_back(show(jobs[r.job]) + ": not proven");
      else if (r.mover_wins != expected[r.job]) bad.push_back(show(jobs[r.job]) + ": wrong verdict");
    });
    INFO("threads " << threads << "\n" << join(bad));
    CHECK(bad.empty());
    CHECK(std::count(ended.begin(), ended.end(), 1) == int(jobs.size()));  // each job reported once
  }
}

TEST_CASE("the job runner gives up a job past its time limit and reports nothing after a stop", "[solver]") {
  // The 5x5 corner opening takes far longer than 0.2 s.
  Pos hard = Pos::empty(konobi::Geometry<1>::get(5));
  hard.place(0);
  hard.swap_available = false;
  for (int threads : {1, 2}) {
    konobi::TranspositionTable tt(16);
    konobi::JobRunner<konobi::KonobiSearch, 1> runner(tt, konobi::DfpnOptions{}, threads);
    runner.set_job_seconds(0.2);
    std::vector<konobi::JobResult> results;
    std::mutex m;
    runner.run({hard, hard}, nullptr, [&](const konobi::JobResult& r) {
      std::lock_guard lock(m);
      results.push_back(r);
    });
    REQUIRE(results.size() == 2);
    for (const auto& r : results) {
      CHECK(r.end == konobi::JobEnd::GaveUp);
      CHECK(r.nodes > 0);
    }

    std::atomic<bool> stop{true};  // raised before the start: no job starts
    results.clear();
    runner.run({hard}, &stop, [&](const konobi::JobResult& r) { results.push_back(r); });
    CHECK(results.empty());
  }
}

TEST_CASE("the job runner reports two jobs ending together at once, on their own threads", "[solver]") {
  // Each report waits (up to 10 s) for another to begin: reports
  // serialized one after the other would never overlap, and time out.
  const std::vector<Pos> jobs = openings4();
  konobi::TranspositionTable tt(16);
  konobi::JobRunner<konobi::KonobiSearch, 1> runner(tt, konobi::DfpnOptions{}, 2);
  std::atomic<int> inside{0}, most{0}, reports{0};
  runner.run(jobs, nullptr, [&](const konobi::JobResult&) {
    const int now = ++inside;
    int seen = most.load();
    while (now > seen && !most.compare_exchange_weak(seen, now)) {
    }
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    // The last report has nobody left to wait for.
    while (most.load() < 2 && reports.load() + 1 < int(jobs.size()) && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ++reports;
    --inside;
  });
  CHECK(reports.load() == int(jobs.size()));
  CHECK(most.load() == 2);
}

namespace {

std::string build_proof(const Pos& pos, bool* mover_wins = nullptr, size_t* entries = nullptr) {
  konobi::TranspositionTable tt(16);
  konobi::DfpnOptions opt;
  const std::optional<bool> solved = dfpn_wins(pos, tt, opt, 1);
  REQUIRE(solved.has_value());
  const bool wins = *solved;
  const konobi::Color winner = wins ? pos.to_move : konobi::other(pos.to_move);
  const konobi::Proof proof = konobi::ProofBuilder<1>(tt, opt).build(pos, winner);
  if (mover_wins) *mover_wins = wins;
  if (entries) *entries = proof.entries.size();
  return proof.to_text();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) v.push_back(line);
  return v;
}

std::string text_of(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

// Header lines before the entries: konobi-proof, size, start, winner, entries.
constexpr size_t kHeaderLines = 5;

// A placement for the side to move in `pos` that alpha-beta says loses, or -1.
int losing_move(const Pos& pos) {
  int found = -1;
  konobi::konobi_legal_placements(pos).for_each([&](int m) {
    if (found >= 0 || konobi::konobi_wins_by(pos, m)) return;
    Pos q = pos;
    q.place(m);
    if (konobi::AlphaBeta<1>(14).wins(q)) found = m;
  });
  return found;
}

// Replaces the move of entry line `i` (after the last space) by `move`.
std::string with_move(std::vector<std::string> lines, size_t i, const std::string& move) {
  const size_t cut = lines[i].rfind(' ');
  lines[i] = lines[i].substr(0, cut + 1) + move;
  return text_of(lines);
}

void check_tampering_rejected(const std::string& text, int n) {
  const auto lines = lines_of(text);
  REQUIRE(lines.size() > kHeaderLines + 1);
  REQUIRE(lines[0] == "konobi-proof 1");
  REQUIRE(lines[3].rfind("winner ", 0) == 0);
  REQUIRE(lines.back() == "end");
  const size_t entries = lines.size() - kHeaderLines - 1;
  REQUIRE(lines[4] == "entries " + std::to_string(entries));

  SECTION("a winning move replaced by a losing one") {
    // Find an entry whose position has a losing legal move for the winner.
    bool done = false;
    for (size_t i = kHeaderLines; i < lines.size() - 1 && !done; ++i) {
      const std::string& line = lines[i];
      const Pos pos = konobi::from_text<1>(konobi::parse_position(line.substr(0, line.rfind(' '))));
      const int m = losing_move(pos);
      if (m < 0) continue;
      const auto c = konobi::check_proof(with_move(lines, i, konobi::point_name(n, m)));
      INFO("entry " << line << " -> " << konobi::point_name(n, m));
      CHECK_FALSE(c.ok);
      CHECK(!c.message.empty());
      done = true;
    }
    CHECK(done);
  }
  SECTION("a winning move replaced by an occupied point") {
    for (size_t i = kHeaderLines; i < lines.size() - 1; ++i) {
      const std::string& line = lines[i];
      const Pos pos = konobi::from_text<1>(konobi::parse_position(line.substr(0, line.rfind(' '))));
      if (pos.stone_count() == 0) continue;
      const int occupied = pos.occupied().first();
      const auto c = konobi::check_proof(with_move(lines, i, konobi::point_name(n, occupied)));
      CHECK_FALSE(c.ok);
      CHECK_THAT(c.message, Contains("illegal"));
      break;
    }
  }
  SECTION("a move that is not a point") {
    const auto c = konobi::check_proof(with_move(lines, kHeaderLines, "z99"));
    CHECK_FALSE(c.ok);
  }
  SECTION("a missing entry, with the count fixed") {
    for (size_t drop : {kHeaderLines, kHeaderLines + entries / 2, lines.size() - 2}) {
      auto v = lines;
      v.erase(v.begin() + long(drop));
      v[4] = "entries " + std::to_string(entries - 1);
      const auto c = konobi::check_proof(text_of(v));
      INFO("dropped line " << drop << ": " << lines[drop]);
      CHECK_FALSE(c.ok);
      CHECK_THAT(c.message, Contains("no move"));
    }
  }
  SECTION("a missing entry, count left as it was") {
    auto v = lines;
    v.erase(v.begin() + long(kHeaderLines + entries / 2));
    CHECK_FALSE(konobi::check_proof(text_of(v)).ok);
  }
  SECTION("a truncated file") {
    for (size_t cut : {text.size() / 2, text.size() - 5, size_t(10)}) {
      INFO("cut at " << cut);
      CHECK_FALSE(konobi::check_proof(text.substr(0, cut)).ok);
    }
    CHECK_FALSE(konobi::check_proof("").ok);
  }
  SECTION("a wrong header") {
    auto v = lines;
    v[0] = "konobi-proof 2";
    CHECK_FALSE(konobi::check_proof(text_of(v)).ok);
    v[0] = "gonnect-proof 1";
    CHECK_FALSE(konobi::check_proof(text_of(v)).ok);
  }
  SECTION("the wrong winner") {
    auto v = lines;
    v[3] = v[3] == "winner white" ? "winner black" : "winner white";
    const auto c = konobi::check_proof(text_of(v));
    CHECK_FALSE(c.ok);
    v[3] = "winner nobody";
    CHECK_FALSE(konobi::check_proof(text_of(v)).ok);
  }
  SECTION("a wrong size line") {
    auto v = lines;
    v[1] = "size " + std::to_string(n + 1);
    CHECK_FALSE(konobi::check_proof(text_of(v)).ok);
  }
  SECTION("garbage after the last entry instead of 'end'") {
    auto v = lines;
    v.back() = "the end";
    CHECK_FALSE(konobi::check_proof(text_of(v)).ok);
  }
}

}  // namespace

TEST_CASE("proofs of the 4x4 openings pass the independent checker", "[solver]") {
  for (int p = 0; p < 16; ++p) {
    const Pos pos = opening(4, p);
    bool wins = false;
    size_t entries = 0;
    const std::string text = build_proof(pos, &wins, &entries);
    const auto c = konobi::check_proof(text);
    INFO("opening " << konobi::point_name(4, p) << ": " << c.message);
    CHECK(c.ok);
    CHECK(c.entries == entries);
    CHECK(c.start == show(pos));
    CHECK(c.winner == (wins ? "white" : "black"));
    CHECK(c.positions >= entries);
  }
}

TEST_CASE("proofs of 5x5 middle games pass the independent checker", "[solver]") {
  const auto sample = random_positions(5, kSanitize ? 2 : 6, 10, 13, 4242u);
  REQUIRE(!sample.empty());
  int black = 0, white = 0;
  for (const Pos& pos : sample) {
    bool wins = false;
    const std::string text = build_proof(pos, &wins);
    const auto c = konobi::check_proof(text);
    const konobi::Color winner = wins ? pos.to_move : konobi::other(pos.to_move);
    (winner == konobi::Black ? black : white)++;
    INFO(show(pos) << ": " << c.message);
    CHECK(c.ok);
    CHECK(c.winner == (winner == konobi::Black ? "black" : "white"));
  }
  CHECK(black + white == int(sample.size()));
}

TEST_CASE("a move stored in the table means the same move through every image of the position", "[solver]") {
  // Entries are shared by the 8 images of a position; table_move stores a
  // move as the keyed image sees it and board_move reads it back. Through
  // any image the move read back must lead to the same child up to
  // symmetry, and through the writer's own orientation to the same point.
  // (From one stone on: on the empty board the first stone opens the pie
  // swap for Black only, so the colour-swapping images are not the same.)
  int checked = 0;
  for (int n = 3; n <= 8; ++n)
    for (const Pos& pos : random_positions(n, 30, 1, n * n / 2, 4242u + uint32_t(n))) {
      for (int s = 0; s < konobi::kSymmetries; ++s) {
        const Pos img = pos.transformed(s);
        REQUIRE(img.canonical_key() == pos.canonical_key());
        pos.empty_points().for_each([&](int m) {
          const int stored = konobi::table_move<konobi::KonobiSearch, 1>(pos, m, true);
          const int read = konobi::board_move<konobi::KonobiSearch, 1>(img, stored, true);
          INFO(show(pos) << " move " << konobi::point_name(n, m) << " symmetry " << s);
          REQUIRE(konobi::board_move<konobi::KonobiSearch, 1>(pos, stored, true) == m);
          REQUIRE(img.empty_points().test(read));
          REQUIRE(img.canonical_key_after(read) == pos.canonical_key_after(m));
          // Without symmetry reduction moves are stored as they are.
          REQUIRE(konobi::table_move<konobi::KonobiSearch, 1>(pos, m, false) == m);
          ++checked;
        });
      }
      REQUIRE(konobi::table_move<konobi::KonobiSearch, 1>(pos, konobi::kPass, true) == konobi::kPass);
    }
  CHECK(checked > 10000);
}

TEST_CASE("simulation proves moves by a sibling's refutation, in fewer nodes", "[solver]") {
  // The 4x4 opening classes and random 5x5 middle games, each from an empty
  // table, with replays and without: the same verdicts (the test above
  // checks them against alpha-beta), children proven by replay, fewer
  // nodes in all, and proofs that use the replayed positions pass the
  // independent checker.
  std::vector<Pos> positions = opening_classes4();
  const std::vector<Pos> mid = random_positions(5, kSanitize ? 4 : 20, 8, 12, 9090u);
  positions.insert(positions.end(), mid.begin(), mid.end());
  uint64_t nodes_with = 0, nodes_without = 0, simulated = 0;
  for (const Pos& pos : positions) {
    konobi::DfpnOptions with, without;
    without.simulation = 0;
    REQUIRE(with.simulation > 0);
    konobi::TranspositionTable tt_with(16), tt_without(16);
    konobi::Dfpn<1> a(tt_with, with), b(tt_without, without);
    const bool wins = a.solve(pos);
    INFO(show(pos));
    CHECK(wins == b.solve(pos));
    CHECK(b.simulated() == 0);
    nodes_with += a.nodes(), nodes_without += b.nodes(), simulated += a.simulated();
    const konobi::Color winner = wins ? pos.to_move : konobi::other(pos.to_move);
    const auto c = konobi::check_proof(konobi::ProofBuilder<1>(tt_with, with).build(pos, winner).to_text());
    INFO(c.message);
    CHECK(c.ok);
  }
  INFO(nodes_with << " nodes with simulation, " << nodes_without << " without, " << simulated << " replays proved a move");
  CHECK(simulated > 100);
  CHECK(nodes_with < nodes_without);
}

TEST_CASE("a proof is built even when the table has lost the solve", "[solver][proof]") {
  // Cleared after solving: every winning move is found again by the
  // builder's budgeted re-searches. A table of a few buckets: most of the
  // solve is lost along the way and proven again piece by piece.
  for (const double mb : {16.0, 0.01}) {
    for (const char* name : {"a1", "b2"}) {
      const Pos pos = opening(4, konobi::parse_point(4, name));
      konobi::TranspositionTable tt(mb);
      const konobi::DfpnOptions opt;
      const std::optional<bool> solved = dfpn_wins(pos, tt, opt, 1);
      REQUIRE(solved.has_value());
      if (mb > 1) tt.clear();
      const konobi::Color winner = *solved ? pos.to_move : konobi::other(pos.to_move);
      const konobi::Proof proof = konobi::ProofBuilder<1>(tt, opt).build(pos, winner);
      const auto c = konobi::check_proof(proof.to_text());
      INFO(name << " with " << mb << " MB: " << c.message);
      CHECK(c.ok);
      CHECK(c.winner == (winner == konobi::Black ? "black" : "white"));
      CHECK(c.entries == proof.entries.size());
    }
  }
}

TEST_CASE("tampered 4x4 proofs are rejected", "[solver]") {
  // b2: an interior opening, so the proof has many entries.
  const std::string text = build_proof(opening(4, konobi::parse_point(4, "b2")));
  REQUIRE(konobi::check_proof(text).ok);
  check_tampering_rejected(text, 4);
}

TEST_CASE("tampered 5x5 proofs are rejected", "[solver]") {
  // The first of a few middle games whose proof has some substance.
  std::string text, where;
  for (const Pos& pos : random_positions(5, 20, 10, 12, 99u)) {
    size_t entries = 0;
    text = build_proof(pos, nullptr, &entries);
    where = show(pos);
    if (entries >= 6) break;
  }
  INFO(where);
  REQUIRE(konobi::check_proof(text).ok);
  check_tampering_rejected(text, 5);
}

TEST_CASE("a transposition table too small for one bucket is refused", "[solver]") {
  CHECK_THROWS_AS(konobi::TranspositionTable(0.00001), std::invalid_argument);
  CHECK_THROWS_AS(konobi::TranspositionTable(0), std::invalid_argument);
  CHECK_THROWS_AS(konobi::TranspositionTable(-1), std::invalid_argument);
  CHECK_THROWS_AS(konobi::TranspositionTable(std::numeric_limits<double>::quiet_NaN()), std::invalid_argument);
  // One bucket (64 bytes) is enough.
  konobi::TranspositionTable one(64.0 / (1024 * 1024));
  CHECK(one.buckets() == 1);
  konobi::TranspositionTable small(0.01);
  CHECK(small.buckets() == 128);
  CHECK(small.bytes() == 128 * 64);
}

namespace {

konobi::Results sample_results() {
  konobi::Results r;
  r.size = 3;
  r.provenance.program = "konobi test";
  r.provenance.command = "konobi solve --size 3";
  r.provenance.threads = 2;
  r.provenance.tt_mb = 0.5;
  r.provenance.simulation = 16;
  r.seconds = 1.25;
  r.nodes = 1234;
  for (int p = 0; p < 9; ++p) {
    konobi::OpeningResult o;
    o.point = konobi::point_name(3, p);
    o.representative = konobi::point_name(3, konobi::opening_representative(konobi::Geometry<1>::get(3), p));
    o.solved = p % 3 != 2;
    if (o.solved) {
      o.winner = p == 4 ? "black" : "white";
      o.continuation = {"b2", "pass", "a1"};
      o.nodes = 10 + p;
      o.proof_size = 5;
      o.seconds = 0.5;
    } else if (p == 2) {  // searched and stopped: its effort is kept
      o.nodes = 70000;
      o.seconds = 12.5;
      o.pn = 35;
      o.dn = 226;
    }
    r.openings.push_back(o);
  }
  return r;
}

}  // namespace

TEST_CASE("results files survive a round trip", "[solver]") {
  const konobi::Results r = sample_results();
  const std::string json = r.to_json();
  const konobi::Results back = konobi::Results::from_json(json, "test");
  CHECK(back.size == 3);
  CHECK(back.game == "konobi");
  CHECK(back.nodes == r.nodes);
  CHECK(back.seconds == Approx(r.seconds));
  CHECK(back.provenance.threads == 2);
  CHECK(back.provenance.tt_mb == Approx(0.5));
  CHECK(back.provenance.command == r.provenance.command);
  CHECK(back.provenance.simulation == r.provenance.simulation);
  REQUIRE(back.openings.size() == 9);
  for (int p = 0; p < 9; ++p) {
    INFO("opening " << p);
    CHECK(back.openings[p].point == r.openings[p].point);
    CHECK(back.openings[p].representative == r.openings[p].representative);
    CHECK(back.openings[p].solved == r.openings[p].solved);
    CHECK(back.openings[p].winner == r.openings[p].winner);
    CHECK(back.openings[p].continuation == r.openings[p].continuation);
    CHECK(back.openings[p].nodes == r.openings[p].nodes);
    CHECK(back.openings[p].seconds == Approx(r.openings[p].seconds));
    CHECK(back.openings[p].pn == r.openings[p].pn);
    CHECK(back.openings[p].dn == r.openings[p].dn);
  }
  // An unsolved class that was never searched has no effort fields.
  CHECK(back.openings[5].nodes == 0);
  CHECK(back.openings[2].nodes == 70000);
  CHECK_FALSE(back.complete());
  CHECK(back.empty_board_winner() == "black");
  CHECK(back.to_json() == json);
  // Files written before replays existed have no "simulation": they read as 0.
  std::string old = json;
  const size_t at = old.find("\"simulation\"");
  REQUIRE(at != std::string::npos);
  const size_t from = old.rfind(',', at), to = old.find_first_of(",}", at);
  old.erase(from, to - from);
  CHECK(konobi::Results::from_json(old, "old.json").provenance.simulation == 0);
}

TEST_CASE("corrupt results files are refused", "[solver]") {
  const std::string json = sample_results().to_json();
  SECTION("not JSON") {
    CHECK_THROWS_AS(konobi::Results::from_json("this is not json", "x.json"), std::runtime_error);
    CHECK_THROWS_AS(konobi::Results::from_json("", "x.json"), std::runtime_error);
    CHECK_THROWS_AS(konobi::Results::from_json(std::string("\0\1\2garbage", 10), "x.json"), std::runtime_error);
  }
  SECTION("truncated") {
    for (size_t cut : {json.size() / 3, json.size() / 2, json.size() - 2}) {
      INFO("cut at " << cut);
      CHECK_THROWS_AS(konobi::Results::from_json(json.substr(0, cut), "x.json"), std::runtime_error);
    }
  }
  SECTION("wrong schema") {
    std::string bad = json;
    const size_t at = bad.find("konobi-results/1");
    REQUIRE(at != std::string::npos);
    bad.replace(at, 16, "konobi-results/9");
    CHECK_THROWS_WITH(konobi::Results::from_json(bad, "x.json"), Contains("x.json") && Contains("schema"));
  }
  SECTION("trailing garbage") {
    CHECK_THROWS_AS(konobi::Results::from_json(json + "}", "x.json"), std::runtime_error);
  }
  SECTION("a bad winner") {
    std::string bad = json;
    const size_t at = bad.find("\"winner\": \"white\"", bad.find("\"openings\": ["));
    REQUIRE(at != std::string::npos);
    bad.replace(at, 17, "\"winner\": \"grey\"");
    CHECK_THROWS_WITH(konobi::Results::from_json(bad, "x.json"), Contains("grey"));
  }
  SECTION("a negative count") {
    for (const char* field : {"\"nodes\": 70000", "\"pn\": 35", "\"proof_size\": 5"}) {
      std::string bad = json;
      const size_t at = bad.find(field);
      REQUIRE(at != std::string::npos);
      const size_t colon = bad.find(':', at);
      bad.insert(colon + 2, "-");
      INFO(bad.substr(at, 20));
      CHECK_THROWS_WITH(konobi::Results::from_json(bad, "x.json"), Contains("negative"));
    }
  }
  SECTION("the wrong number of openings") {
    konobi::Results r = sample_results();
    r.openings.pop_back();
    CHECK_THROWS_WITH(konobi::Results::from_json(r.to_json(), "x.json"), Contains("openings"));
  }
  SECTION("the message names the file") {
    CHECK_THROWS_WITH(konobi::Results::from_json("{", "results/konobi-5x5.json"), Contains("results/konobi-5x5.json"));
  }
}

TEST_CASE("a proof has one entry per position of the winner and none where the winner wins at once",
          "[solver][proof]") {
  // The walk tests for an immediate win before it consults its visited set
  // (proof.h): such a position must still get no entry, and every other
  // position of the winner exactly one.
  std::vector<Pos> positions = openings4();
  const std::vector<Pos> mid = random_positions(5, kSanitize ? 3 : 12, 8, 12, 4242u);
  positions.insert(positions.end(), mid.begin(), mid.end());
  size_t entries = 0;
  for (const Pos& pos : positions) {
    INFO(show(pos));
    const auto lines = lines_of(build_proof(pos));
    REQUIRE(lines.size() > kHeaderLines);
    const std::string winner = lines[3].substr(std::string("winner ").size());
    std::unordered_set<std::string> seen;
    for (size_t i = kHeaderLines; i + 1 < lines.size(); ++i) {
      const std::string at = lines[i].substr(0, lines[i].rfind(' '));
      INFO(lines[i]);
      CHECK(seen.insert(at).second);
      const Pos p = konobi::from_text<1>(konobi::parse_position(at));
      CHECK(p.to_move == (winner == "black" ? konobi::Black : konobi::White));
      CHECK(konobi::KonobiRules::winning(p, konobi::KonobiRules::placements(p)).none());
      ++entries;
    }
  }
  CHECK(entries > 0);
}

TEST_CASE("a proof's size without its text is the number of entries build() writes", "[solver][proof]") {
  std::vector<Pos> positions = openings4();
  const std::vector<Pos> mid = random_positions(5, kSanitize ? 3 : 12, 10, 14, 777u);
  positions.insert(positions.end(), mid.begin(), mid.end());
  // The counting builders share one visited set, as a solve's classes do:
  // each must start from an empty one, or it would skip what the last saw.
  konobi::KeySet visited;
  for (const Pos& pos : positions) {
    // Two tables solved alike, one each: building may re-solve children the
    // table lost, which changes the table.
    konobi::TranspositionTable tt(16), tt2(16);
    const konobi::DfpnOptions opt;
    const std::optional<bool> solved = dfpn_wins(pos, tt, opt, 1);
    REQUIRE(solved.has_value());
    REQUIRE(dfpn_wins(pos, tt2, opt, 1) == solved);
    const konobi::Color winner = *solved ? pos.to_move : konobi::other(pos.to_move);
    const size_t counted = konobi::ProofBuilder<1>(tt2, opt, &visited).size(pos, winner);
    konobi::ProofBuilder<1> builder(tt, opt);
    const konobi::Proof proof = builder.build(pos, winner);
    INFO(show(pos));
    CHECK(counted == proof.entries.size());
    // A builder remembers what it wrote, so a second walk would skip it.
    CHECK_THROWS_AS(builder.size(pos, winner), std::logic_error);
  }
}
