// The job manager (solver/jobs/manager.h) over the in-process pool: the
// values it proves against alpha-beta, proofs from the table it leaves,
// and a run stopped half-way and carried on from its checkpoint's trees
// on a fresh table, as on another machine.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>

#include "solver/jobs/local_pool.h"
#include "solver/jobs/manager.h"
#include "solver/search/alphabeta.h"
#include "solver/search/proof.h"
#include "solver/verify/proof_checker.h"
#include "solver_support.h"

using namespace solver_test;
using konobi::KonobiSearch;

namespace {

using Manager = konobi::JobManager<KonobiSearch, 1>;
using Pool = konobi::LocalPool<KonobiSearch, 1>;

// Roots by id: the manager names a class by an int, here an index.
struct Roots {
  std::vector<Pos> roots;
  const Pos& operator()(int id) const { return roots.at(size_t(id)); }
};

konobi::Checkpoint identity(int n) {
  konobi::Checkpoint c;
  c.game = "konobi";
  c.size = n;
  return c;
}

// Runs the manager over every root; the values by id.
std::map<int, bool> run_manager(const Roots& roots, konobi::TranspositionTable& tt, int threads,
                                uint64_t job_nodes, const konobi::Checkpoint* from = nullptr,
                                const std::atomic<bool>* stop = nullptr, konobi::Checkpoint* last = nullptr,
                                int stop_after_checkpoints = 0) {
  Pool pool(tt, konobi::DfpnOptions{}, threads, [&](int id) -> const Pos& { return roots(id); });
  konobi::ManagerOptions mo;
  mo.job_nodes = job_nodes;
  mo.checkpoint_every = stop_after_checkpoints ? 0 : 1e9;
  Manager manager(
      pool, &tt, nullptr, mo, [&](int id) -> const Pos& { return roots(id); },
      identity(roots.roots[0].size()));
  for (int id = 0; id < int(roots.roots.size()); ++id) {
    const konobi::CheckpointClass* saved = nullptr;
    if (from)
      for (const auto& c : from->classes)
        if (c.opening == id) saved = &c;
    manager.add_class(id, saved);
  }
  std::map<int, bool> values;
  std::atomic<bool> own_stop{false};
  int checkpoints = 0;
  manager.run(
      stop_after_checkpoints ? &own_stop : stop,
      [&](int id, bool wins, const konobi::ClassTotals&) { CHECK(values.emplace(id, wins).second); },
      [&](const konobi::Checkpoint& c) {
        if (last) *last = c;
        if (++checkpoints == stop_after_checkpoints) own_stop.store(true);
      });
  return values;
}

// A 5x5 middle game lost by its mover with at least four replies: its
// root needs every reply, as a proof in parts does.
Pos lost_middle_game() {
  for (const Pos& p : random_positions(5, 40, 6, 8, 777u))
    if (!konobi::AlphaBeta<1>(20).wins(p) && konobi::NodeMoves<1>(KonobiSearch::moves(p)).moves.count() >= 4)
      return p;
  FAIL("no such position among the samples");
  return {};
}

// The root, expanded, with the replies `settle` picks settled as won by
// the mover after them, as a proof in parts settles the replies on disk.
template <class Pick>
konobi::CheckpointClass with_settled(const Pos& root, Pick settle, std::vector<konobi::Move>& settled) {
  konobi::CheckpointClass c;
  c.opening = 0;
  c.nodes_list.assign(1, konobi::CheckpointNode{});
  c.nodes_list[0].expanded = true;
  int i = 0;
  KonobiSearch::moves(root).moves.for_each([&](int m) {
    if (!settle(i++)) return;
    settled.push_back(konobi::Move(m));
    konobi::CheckpointNode n;
    n.path = {konobi::Move(m)};
    n.value = konobi::CheckpointNode::Value::MoverWins;
    c.nodes_list.push_back(n);
  });
  return c;
}

// The root expanded, no reply settled.
konobi::CheckpointClass expanded_root(const Pos& root) {
  std::vector<konobi::Move> none;
  const konobi::CheckpointClass c = with_settled(
      root, [](int) { return false; }, none);
  REQUIRE(none.empty());
  return c;
}

// Runs the manager to its end, checking that it proves its one class lost
// for its mover exactly once.
void run_to_a_loss(Manager& manager, const Manager::OnCheckpoint& on_checkpoint) {
  int announced = 0;
  manager.run(
      nullptr,
      [&](int, bool wins, const konobi::ClassTotals&) {
        ++announced;
        CHECK_FALSE(wins);
      },
      on_checkpoint);
  CHECK(announced == 1);
}

}  // namespace

TEST_CASE("the job manager proves every 4x4 opening and middle-game positions with alpha-beta's values",
          "[jobs]") {
  Roots roots{opening_classes4()};
  const std::vector<Pos> mid = random_positions(5, kSanitize ? 3 : 12, 8, 12, 777u);
  roots.roots.insert(roots.roots.end(), mid.begin(), mid.end());
  std::vector<bool> expected;
  for (const Pos& p : roots.roots) expected.push_back(konobi::AlphaBeta<1>(16).wins(p));
  for (int threads : {1, 2})
    for (uint64_t budget : {uint64_t(40), uint64_t(400), uint64_t(1) << 40}) {
      konobi::TranspositionTable tt(16);
      const auto values = run_manager(roots, tt, threads, budget);
      INFO("threads " << threads << ", job budget " << budget);
      REQUIRE(values.size() == roots.roots.size());
      for (size_t i = 0; i < roots.roots.size(); ++i) {
        INFO(show(roots.roots[i]));
        CHECK(values.at(int(i)) == expected[i]);
      }
      // The table the jobs and the manager leave proves each one: a proof
      // the independent checker accepts.
      for (size_t i = 0; i < roots.roots.size(); ++i) {
        const Pos& p = roots.roots[i];
        const konobi::Color winner = expected[i] ? p.to_move : konobi::other(p.to_move);
        konobi::ProofBuilder<1> builder(tt, konobi::DfpnOptions{});
        const auto check = konobi::check_proof(builder.build(p, winner).to_text());
        INFO(show(p) << ": " << check.message);
        CHECK(check.ok);
      }
    }
}

TEST_CASE("a manager stopped half-way carries on from its checkpoint on a fresh table", "[jobs]") {
  Roots roots{random_positions(5, kSanitize ? 2 : 6, 6, 8, 4242u)};
  std::vector<bool> expected;
  for (const Pos& p : roots.roots) expected.push_back(konobi::AlphaBeta<1>(20).wins(p));
  konobi::Checkpoint saved;
  std::map<int, bool> first;
  {
    // A checkpoint every turn of the manager's loop, and a stop at the
    // fortieth: some classes are still open, their trees a few plies deep.
    konobi::TranspositionTable tt(16);
    first = run_manager(roots, tt, 2, 100, nullptr, nullptr, &saved, 40);
  }
  CHECK(saved.classes.size() + first.size() == roots.roots.size());
  CHECK(!saved.classes.empty());  // stopped with work left: the test is of a resume
  size_t expanded = 0;
  for (const auto& c : saved.classes)
    for (const auto& n : c.nodes_list) expanded += n.expanded;
  INFO("open classes " << saved.classes.size() << ", expanded nodes " << expanded);
  CHECK(expanded > 0);
  konobi::TranspositionTable fresh(16);
  auto second = run_manager(roots, fresh, 2, 100, &saved);
  for (const auto& [id, wins] : first) second.emplace(id, wins);
  REQUIRE(second.size() == roots.roots.size());
  for (size_t i = 0; i < roots.roots.size(); ++i) CHECK(second.at(int(i)) == expected[i]);
}

TEST_CASE(
    "a class whose proof is cut short stays in the checkpoint as its proven root, and is not searched again",
    "[jobs]") {
  // One opening whose value alpha-beta knows; the caller's proof (on_proven)
  // is stopped by an exception, as Ctrl-C stops a proof in parts.
  Roots roots{{opening_classes4()[0]}};
  const bool expected = konobi::AlphaBeta<1>(16).wins(roots.roots[0]);
  struct Stopped {};
  konobi::Checkpoint last;
  {
    konobi::TranspositionTable tt(16);
    Pool pool(tt, konobi::DfpnOptions{}, 2, [&](int id) -> const Pos& { return roots(id); });
    konobi::ManagerOptions mo;
    mo.job_nodes = 100;
    mo.checkpoint_every = 1e9;
    Manager manager(
        pool, &tt, nullptr, mo, [&](int id) -> const Pos& { return roots(id); }, identity(4));
    manager.add_class(0);
    CHECK_THROWS_AS(manager.run(
                        nullptr, [&](int, bool, const konobi::ClassTotals&) { throw Stopped{}; },
                        [&](const konobi::Checkpoint& c) { last = c; }),
                    Stopped);
  }
  REQUIRE(last.classes.size() == 1);
  const auto& saved = last.classes[0];
  CHECK(saved.nodes > 0);  // the effort stays on record
  REQUIRE(saved.nodes_list.size() == 1);
  CHECK(saved.nodes_list[0].path.empty());
  CHECK(saved.nodes_list[0].value ==
        (expected ? konobi::CheckpointNode::Value::MoverWins : konobi::CheckpointNode::Value::MoverLoses));
  // Through the file's text, as the next run reads it.
  const konobi::Checkpoint read = konobi::Checkpoint::from_text(last.to_text(), "test");
  konobi::TranspositionTable fresh(16);
  Pool pool(fresh, konobi::DfpnOptions{}, 2, [&](int id) -> const Pos& { return roots(id); });
  konobi::ManagerOptions mo;
  mo.job_nodes = 100;
  Manager manager(
      pool, &fresh, nullptr, mo, [&](int id) -> const Pos& { return roots(id); }, identity(4));
  manager.add_class(0, &read.classes[0]);
  int announced = 0;
  konobi::Checkpoint at_end;
  manager.run(
      nullptr,
      [&](int id, bool wins, const konobi::ClassTotals& t) {
        ++announced;
        CHECK(id == 0);
        CHECK(wins == expected);
        CHECK(t.nodes == saved.nodes);  // no job ran
      },
      [&](const konobi::Checkpoint& c) { at_end = c; });
  CHECK(announced == 1);
  CHECK(pool.nodes() == 0);
  CHECK(at_end.classes.empty());  // proven and its proof built: nothing left to carry
}

TEST_CASE(
    "a class reopened with some replies settled searches the others, keeps them in its checkpoints, "
    "and proves its root again",
    "[jobs]") {
  // The caller's proof is cut short (on_proven throws), and the class is
  // opened again with half its replies settled.
  const Pos root = lost_middle_game();
  Roots roots{{root}};
  std::vector<konobi::Move> settled;
  const konobi::CheckpointClass reopened = with_settled(
      root, [](int i) { return i % 2 == 0; }, settled);
  konobi::ManagerOptions mo;
  mo.job_nodes = 100;
  mo.checkpoint_every = 0;  // a checkpoint every turn of the loop
  struct Stopped {};
  // A fresh table, pool and manager for each section (Catch runs the case
  // once a section).
  konobi::TranspositionTable tt(16);
  Pool pool(tt, konobi::DfpnOptions{}, 2, [&](int id) -> const Pos& { return roots(id); });
  Manager manager(
      pool, &tt, nullptr, mo, [&](int id) -> const Pos& { return roots(id); }, identity(5));
  manager.add_class(0);
  SECTION("on the same manager and table, jobs of the old tree still in flight") {
    CHECK_THROWS_AS(manager.run(
                        nullptr, [&](int, bool, const konobi::ClassTotals&) { throw Stopped{}; },
                        [](const konobi::Checkpoint&) {}),
                    Stopped);
    manager.reopen(0, reopened);
    int announced = 0;
    konobi::Checkpoint at_end;
    manager.run(
        nullptr,
        [&](int, bool wins, const konobi::ClassTotals& t) {
          ++announced;
          CHECK_FALSE(wins);
          CHECK(t.nodes > 0);  // the class's effort is kept
        },
        [&](const konobi::Checkpoint& c) { at_end = c; });
    CHECK(announced == 1);
    CHECK(at_end.classes.empty());
  }
  SECTION("on a fresh table: the open replies are searched, and the checkpoints keep the settled ones") {
    manager.reopen(0, reopened);
    std::optional<konobi::Checkpoint> first;
    run_to_a_loss(manager, [&](const konobi::Checkpoint& c) {
      if (!first) first = c;
    });
    CHECK(pool.nodes() > 0);
    REQUIRE(first);
    REQUIRE(first->classes.size() == 1);
    const auto& list = first->classes[0].nodes_list;
    REQUIRE(!list.empty());
    CHECK(list[0].value == konobi::CheckpointNode::Value::Open);
    CHECK(list[0].expanded);
    for (konobi::Move m : settled) {
      INFO("reply " << m);
      const auto it = std::find_if(list.begin(), list.end(), [&](const konobi::CheckpointNode& n) {
        return n.path == std::vector<konobi::Move>{m};
      });
      REQUIRE(it != list.end());
      CHECK(it->value == konobi::CheckpointNode::Value::MoverWins);
    }
    CHECK(list.size() > settled.size() + 1);  // the open replies are in it too
  }
}

TEST_CASE("with few replies open, the manager's view names each with its share of the root's numbers",
          "[jobs]") {
  // All but three replies settled: the view lists the three open ones in
  // move order, their pns adding up to the root's dn, until it falls.
  const Pos root = lost_middle_game();
  Roots roots{{root}};
  const int replies = KonobiSearch::moves(root).moves.count();
  std::vector<konobi::Move> settled;
  const konobi::CheckpointClass reopened = with_settled(
      root, [&](int i) { return i >= 3; }, settled);
  REQUIRE(int(settled.size()) == replies - 3);
  konobi::TranspositionTable tt(16);
  Pool pool(tt, konobi::DfpnOptions{}, 2, [&](int id) -> const Pos& { return roots(id); });
  konobi::ManagerOptions mo;
  mo.job_nodes = 100;
  mo.checkpoint_every = 0;  // a checkpoint, and so a look at the view, every turn of the loop
  Manager manager(
      pool, &tt, nullptr, mo, [&](int id) -> const Pos& { return roots(id); }, identity(5));
  manager.add_class(0, &reopened);
  int views = 0;
  run_to_a_loss(manager, [&](const konobi::Checkpoint&) {
    for (const auto& v : manager.view().classes) {
      ++views;
      REQUIRE(v.replies == replies);
      CHECK(int(v.open_replies.size()) == v.replies - v.replies_settled);
      CHECK(v.open_replies.size() <= 3);
      uint64_t sum = 0;
      konobi::Move last = -1;
      for (const auto& [m, pn] : v.open_replies) {
        CHECK(std::find(settled.begin(), settled.end(), m) == settled.end());
        CHECK(m > last);
        last = m, sum += pn;
      }
      CHECK(sum == v.dn);
    }
  });
  CHECK(views > 0);
}

namespace {
// A pool that passes everything to another; the test pools below watch
// what goes through it.
class ForwardingPool : public konobi::WorkerPool {
 public:
  explicit ForwardingPool(konobi::WorkerPool& inner) : inner_(inner) {}
  int slots() const override { return inner_.slots(); }
  int idle_slots() const override { return inner_.idle_slots(); }
  void submit(const konobi::Job& job) override { inner_.submit(job); }
  std::optional<konobi::JobReport> next(std::chrono::milliseconds timeout) override {
    return inner_.next(timeout);
  }
  void stop_all() override { inner_.stop_all(); }
  uint64_t nodes() const override { return inner_.nodes(); }

 private:
  konobi::WorkerPool& inner_;
};

// The in-process pool, recording the jobs it is given.
class RecordingPool final : public ForwardingPool {
 public:
  using ForwardingPool::ForwardingPool;
  void submit(const konobi::Job& job) override {
    jobs.push_back(job);
    ForwardingPool::submit(job);
  }
  std::vector<konobi::Job> jobs;
};

// The in-process pool with one slot, calling `before` with each job before
// it passes it on, and showing its slot idle only once the manager has
// taken the last job's report: the in-process pool frees a slot as its job
// ends, and a job the manager sends before it takes that report may find
// the last job's leaf still marked in flight.
class WatchingPool final : public ForwardingPool {
 public:
  using ForwardingPool::ForwardingPool;
  int idle_slots() const override { return busy_ ? 0 : ForwardingPool::idle_slots(); }
  void submit(const konobi::Job& job) override {
    before(job);
    busy_ = true;
    ForwardingPool::submit(job);
  }
  std::optional<konobi::JobReport> next(std::chrono::milliseconds timeout) override {
    auto r = ForwardingPool::next(timeout);
    if (r) busy_ = false;
    return r;
  }
  std::function<void(const konobi::Job&)> before;

 private:
  bool busy_ = false;
};
}  // namespace

TEST_CASE("a class whose root is known lost takes its replies easiest first", "[jobs]") {
  // The root expanded, no reply settled. df-pn sends the first job to the
  // reply of least dn (the mover's best hope); told that the root is lost,
  // the manager sends it to the reply of least pn (the nearest proof), and
  // still proves the root's value.
  const Pos root = lost_middle_game();
  Roots roots{{root}};
  const konobi::CheckpointClass expanded = expanded_root(root);
  konobi::ManagerOptions mo;
  mo.job_nodes = 100;
  mo.checkpoint_every = 1e9;
  auto first_job = [&](bool easiest, konobi::Move* least_pn, konobi::Move* least_dn) {
    konobi::TranspositionTable tt(16);
    Pool inner(tt, konobi::DfpnOptions{}, 1, [&](int id) -> const Pos& { return roots(id); });
    RecordingPool pool(inner);
    Manager manager(
        pool, &tt, nullptr, mo, [&](int id) -> const Pos& { return roots(id); }, identity(5));
    manager.add_class(0, &expanded);
    if (easiest) manager.easiest_replies_first(0);
    // The replies' numbers before any job, from the tree as a checkpoint.
    const konobi::Checkpoint before = manager.checkpoint();
    REQUIRE(before.classes.size() == 1);
    uint32_t min_pn = konobi::kInf + 1u, min_dn = konobi::kInf + 1u;
    for (const auto& n : before.classes[0].nodes_list) {
      if (n.path.size() != 1) continue;
      REQUIRE(n.value == konobi::CheckpointNode::Value::Open);
      if (n.pn < min_pn) min_pn = n.pn, *least_pn = n.path[0];
      if (n.dn < min_dn) min_dn = n.dn, *least_dn = n.path[0];
    }
    run_to_a_loss(manager, [](const konobi::Checkpoint&) {});
    REQUIRE(!pool.jobs.empty());
    REQUIRE(!pool.jobs[0].path.empty());
    return pool.jobs[0].path[0];
  };
  konobi::Move least_pn = -1, least_dn = -1;
  const konobi::Move plain = first_job(false, &least_pn, &least_dn);
  CHECK(plain == least_dn);
  REQUIRE(least_pn != least_dn);  // the position tells the two rules apart
  const konobi::Move easiest = first_job(true, &least_pn, &least_dn);
  CHECK(easiest == least_pn);
}

TEST_CASE("easiest first keeps the jobs on a reply while its pn is within the slack of the least", "[jobs]") {
  // Each job chooses afresh; df-pn's 1+epsilon rule, kept across jobs,
  // turns from the last job's reply only once its pn passes the least
  // (times 1+epsilon, plus one), so replies of nearly equal pn do not take
  // turns job by job.
  const Pos root = lost_middle_game();
  Roots roots{{root}};
  // The replies expanded too, so that a reply has a free leaf while a job
  // is on another of its leaves (as on 6x6, where they are deep trees).
  konobi::CheckpointClass expanded = expanded_root(root);
  KonobiSearch::moves(root).moves.for_each([&](int m) {
    konobi::CheckpointNode n;
    n.path = {konobi::Move(m)};
    n.expanded = true;
    expanded.nodes_list.push_back(n);
  });
  konobi::ManagerOptions mo;
  mo.job_nodes = 100;
  mo.checkpoint_every = 1e9;
  const auto slack = [&](uint32_t pn) { return uint64_t(double(pn) * (1.0 + mo.epsilon)) + 1; };
  konobi::TranspositionTable tt(16);
  Pool inner(tt, konobi::DfpnOptions{}, 1, [&](int id) -> const Pos& { return roots(id); });
  WatchingPool pool(inner);
  Manager manager(
      pool, &tt, nullptr, mo, [&](int id) -> const Pos& { return roots(id); }, identity(5));
  manager.add_class(0, &expanded);
  manager.easiest_replies_first(0);
  REQUIRE(pool.slots() == 1);
  konobi::Move last = -1;
  int jobs = 0, kept = 0, turned = 0;
  pool.before = [&](const konobi::Job& job) {
    REQUIRE(!job.path.empty());
    // The open replies' pn as the job is sent (no other job is in flight).
    std::map<konobi::Move, uint32_t> pn;
    const konobi::Checkpoint now = manager.checkpoint();
    for (const auto& n : now.classes.at(0).nodes_list)
      if (n.path.size() == 1 && n.value == konobi::CheckpointNode::Value::Open) pn[n.path[0]] = n.pn;
    REQUIRE(pn.count(job.path[0]) == 1);
    uint32_t least = konobi::kInf;
    for (const auto& [m, v] : pn) least = std::min(least, v);
    const konobi::Move move = job.path[0];
    CHECK(pn[move] <= slack(least));
    // A turn away from the last job's reply, while it is open, comes once
    // its pn passes the slack.
    if (last >= 0 && move != last && pn.count(last)) {
      CHECK(pn[last] > slack(least));
      ++turned;
    }
    if (move == last && pn[move] > least) ++kept;
    last = move, ++jobs;
  };
  run_to_a_loss(manager, [](const konobi::Checkpoint&) {});
  INFO("jobs " << jobs << ", turned " << turned << ", kept above the least " << kept);
  // The position makes the rule matter: some job stayed on a reply whose
  // pn was no longer the least, and the jobs did turn between replies.
  CHECK(kept > 0);
  CHECK(turned > 0);
}

TEST_CASE("a hint sends the jobs to its move first, is kept in checkpoints and changes no value", "[jobs]") {
  // A 5x5 middle game won by its mover, with several moves to search and
  // none that settles it at once (so that the tree's root stays open when
  // it is expanded).
  auto searched = [](const Pos& p) { return KonobiSearch::moves(p).kind == konobi::NodeKind::Search; };
  std::optional<Pos> found;
  for (const Pos& p : random_positions(5, 60, 6, 8, 4242u)) {
    if (!searched(p) || KonobiSearch::moves(p).moves.count() < 4 || !konobi::AlphaBeta<1>(20).wins(p))
      continue;
    bool all = true;
    KonobiSearch::moves(p).moves.for_each([&](int m) { all = all && searched(KonobiSearch::child(p, m)); });
    if (all) {
      found = p;
      break;
    }
  }
  REQUIRE(found);
  const Pos root = *found;
  Roots roots{{root}};
  std::vector<konobi::Move> moves;
  KonobiSearch::moves(root).moves.for_each([&](int m) { moves.push_back(konobi::Move(m)); });
  konobi::ManagerOptions mo;
  mo.job_nodes = 100;
  mo.checkpoint_every = 1e9;
  // Runs the class to its end with the hints given; the jobs sent, and the
  // checkpoint the manager would write before its first job.
  auto run = [&](const std::vector<std::vector<konobi::Move>>& hints, const konobi::CheckpointClass* saved,
                 konobi::Checkpoint* before) {
    konobi::TranspositionTable tt(16);
    Pool inner(tt, konobi::DfpnOptions{}, 1, [&](int id) -> const Pos& { return roots(id); });
    RecordingPool pool(inner);
    Manager manager(
        pool, &tt, nullptr, mo, [&](int id) -> const Pos& { return roots(id); }, identity(5));
    manager.add_class(0, saved);
    for (const auto& h : hints) REQUIRE(manager.add_hint(0, h).kind == Manager::HintResult::Set);
    if (before) *before = manager.checkpoint();
    int announced = 0;
    manager.run(
        nullptr,
        [&](int, bool wins, const konobi::ClassTotals&) {
          ++announced;
          CHECK(wins);  // alpha-beta's value, whatever the hint
        },
        [](const konobi::Checkpoint&) {});
    CHECK(announced == 1);
    REQUIRE(!pool.jobs.empty());
    return pool.jobs;
  };
  // Every move as the hint, winning or losing: the first job goes to it,
  // and the class is proven won.
  for (konobi::Move m : moves) {
    const auto jobs = run({{m}}, nullptr, nullptr);
    CHECK(jobs[0].path == std::vector<konobi::Move>{m});
  }
  // A hint two moves deep (the first move hinted too): the first job goes
  // down both.
  const Pos after = KonobiSearch::child(root, moves[1]);
  std::vector<konobi::Move> replies;
  if (KonobiSearch::moves(after).kind == konobi::NodeKind::Search)
    KonobiSearch::moves(after).moves.for_each([&](int m) { replies.push_back(konobi::Move(m)); });
  REQUIRE(replies.size() >= 2);
  const std::vector<konobi::Move> deep{moves[1], replies.back()};
  CHECK(run({{moves[1]}, deep}, nullptr, nullptr)[0].path == deep);

  // The hint is the open node's BEST in the checkpoint, read back as a hint.
  konobi::Checkpoint saved;
  run({{moves[2]}}, nullptr, &saved);
  REQUIRE(saved.classes.size() == 1);
  const auto& list = saved.classes[0].nodes_list;
  REQUIRE(!list.empty());
  CHECK(list[0].value == konobi::CheckpointNode::Value::Open);
  CHECK(list[0].best == moves[2]);
  const konobi::Checkpoint read = konobi::Checkpoint::from_text(saved.to_text(), "test");
  CHECK(read.classes[0].nodes_list[0].best == moves[2]);
  CHECK(run({}, &read.classes[0], nullptr)[0].path == std::vector<konobi::Move>{moves[2]});

  // A hint that is not a move there: refused by add_hint, and in a checkpoint.
  konobi::Move taken = -1;
  for (int p = 0; p < 25 && taken < 0; ++p)
    if (root.at(p) >= 0) taken = konobi::Move(p);
  REQUIRE(taken >= 0);
  {
    konobi::TranspositionTable tt(16);
    Pool inner(tt, konobi::DfpnOptions{}, 1, [&](int id) -> const Pos& { return roots(id); });
    Manager manager(
        inner, &tt, nullptr, mo, [&](int id) -> const Pos& { return roots(id); }, identity(5));
    manager.add_class(0);
    const auto r = manager.add_hint(0, {moves[0], taken});
    CHECK(r.kind == Manager::HintResult::NotAMove);
    CHECK(r.depth == 1);
    CHECK(manager.add_hint(0, {taken}).kind == Manager::HintResult::NotAMove);
    konobi::CheckpointClass bad = read.classes[0];
    bad.nodes_list[0].best = taken;
    Manager again(
        inner, &tt, nullptr, mo, [&](int id) -> const Pos& { return roots(id); }, identity(5));
    CHECK_THROWS_WITH(again.add_class(0, &bad), Catch::Contains("has a hint"));
  }
}

TEST_CASE("a root proven lost keeps its replies' winning moves in the checkpoint, for hints", "[jobs]") {
  // The caller's proof is cut short, as a stop in a proof in parts: the
  // checkpoint holds the proven root and, for each reply, the move that
  // won it, which a manager resumed from the file hands back.
  const Pos root = lost_middle_game();
  Roots roots{{root}};
  // The root expanded, so that each reply is a node of the tree.
  const konobi::CheckpointClass expanded = expanded_root(root);
  struct Stopped {};
  konobi::Checkpoint last;
  std::vector<std::pair<konobi::Move, konobi::Move>> won;
  {
    konobi::TranspositionTable tt(16);
    Pool pool(tt, konobi::DfpnOptions{}, 1, [&](int id) -> const Pos& { return roots(id); });
    konobi::ManagerOptions mo;
    mo.job_nodes = 100;
    mo.checkpoint_every = 1e9;
    Manager manager(
        pool, &tt, nullptr, mo, [&](int id) -> const Pos& { return roots(id); }, identity(5));
    manager.add_class(0, &expanded);
    CHECK_THROWS_AS(manager.run(
                        nullptr, [&](int, bool, const konobi::ClassTotals&) { throw Stopped{}; },
                        [&](const konobi::Checkpoint& c) { last = c; }),
                    Stopped);
    won = manager.replies_won(0);
  }
  REQUIRE(!won.empty());
  REQUIRE(last.classes.size() == 1);
  const auto& list = last.classes[0].nodes_list;
  REQUIRE(list.size() == won.size() + 1);
  CHECK(list[0].value == konobi::CheckpointNode::Value::MoverLoses);
  CHECK(list[0].expanded);
  for (size_t i = 0; i < won.size(); ++i) {
    const auto [reply, move] = won[i];
    INFO("reply " << reply << ", won by " << move);
    CHECK(list[i + 1].path == std::vector<konobi::Move>{reply});
    CHECK(list[i + 1].value == konobi::CheckpointNode::Value::MoverWins);
    CHECK(list[i + 1].best == move);
    // The move wins: alpha-beta finds the position after it lost for its mover.
    const Pos after = KonobiSearch::child(KonobiSearch::child(root, reply), move);
    CHECK_FALSE(konobi::AlphaBeta<1>(20).wins(after));
  }
  // Through the file's text: the root is proven, no job runs, and the
  // replies' moves come back.
  const konobi::Checkpoint read = konobi::Checkpoint::from_text(last.to_text(), "test");
  konobi::TranspositionTable fresh(16);
  Pool pool(fresh, konobi::DfpnOptions{}, 1, [&](int id) -> const Pos& { return roots(id); });
  konobi::ManagerOptions mo;
  mo.job_nodes = 100;
  Manager manager(
      pool, &fresh, nullptr, mo, [&](int id) -> const Pos& { return roots(id); }, identity(5));
  manager.add_class(0, &read.classes[0]);
  CHECK(manager.replies_won(0) == won);
  run_to_a_loss(manager, [](const konobi::Checkpoint&) {});
  CHECK(pool.nodes() == 0);
}

// A job whose budget runs out inside its leaf's first visit (every job on a
// fresh 6x6 leaf: df-pn leaves the root only when it is proven or past its
// thresholds) used to report 1/1, which the manager kept: a leaf that had
// cost the whole budget then looked the cheapest of its tree. df-pn now
// leaves a stopped node's numbers in the table on its way up.
TEST_CASE("a job stopped by its budget inside its leaf's first visit reports the numbers it reached",
          "[jobs]") {
  const Pos root = opening(6, konobi::parse_point(6, "c2"));
  for (const uint32_t th : {konobi::kInf - 1, konobi::kInf}) {  // search_within, then solve
    INFO("thresholds " << th);
    konobi::TranspositionTable tt(16);
    konobi::Job job;
    job.id = 1;
    job.opening = 0;
    job.max_nodes = 20000;
    job.th_pn = job.th_dn = th;
    const konobi::JobReport r =
        konobi::run_job<KonobiSearch, 1>(job, root, tt, konobi::DfpnOptions{}, nullptr);
    REQUIRE(r.outcome == konobi::JobOutcome::Open);
    CHECK(r.nodes >= job.max_nodes);
    CHECK(r.pn > 1);
    CHECK(r.dn > 1);
    CHECK(r.pn < konobi::kInf);
    CHECK(r.dn < konobi::kInf);
    const auto f = tt.probe(KonobiSearch::key(root, true));
    REQUIRE(f.hit);
    CHECK(f.pn == r.pn);
    CHECK(f.dn == r.dn);
  }
}

// ... and a checkpoint written before that holds 1/1 on such leaves: a
// resume gives them the numbers of their expansion instead, as if the
// checkpoint had not named them, while 1/1 on a leaf no job has searched
// is kept.
TEST_CASE("a resume passes over the 1/1 that stopped jobs left on searched leaves", "[jobs]") {
  const Roots roots{{opening(5, konobi::parse_point(5, "b1"))}};  // no symmetry: every move a child
  konobi::TranspositionTable tt(16);
  Pool pool(tt, konobi::DfpnOptions{}, 1, [&](int id) -> const Pos& { return roots(id); });
  const konobi::CheckpointClass bare = expanded_root(roots(0));
  std::vector<konobi::Move> replies;
  KonobiSearch::moves(roots(0)).moves.for_each([&](int m) { replies.push_back(konobi::Move(m)); });
  REQUIRE(replies.size() > 2);
  const konobi::Move leaf = replies[1];
  // The leaf's numbers after a resume from `saved`.
  const auto resumed = [&](const konobi::CheckpointClass& saved) {
    Manager manager(
        pool, &tt, nullptr, konobi::ManagerOptions{}, [&](int id) -> const Pos& { return roots(id); },
        identity(5));
    manager.add_class(0, &saved);
    const konobi::Checkpoint now = manager.checkpoint();
    for (const konobi::CheckpointNode& n : now.classes.at(0).nodes_list)
      if (n.path == std::vector<konobi::Move>{leaf}) return std::make_pair(n.pn, n.dn);
    FAIL("the leaf is not in the checkpoint");
    return std::make_pair(0u, 0u);
  };
  const auto expansion = resumed(bare);  // the leaf not named: its expansion's numbers
  INFO("expansion " << expansion.first << "/" << expansion.second);
  REQUIRE(expansion != std::make_pair(1u, 1u));
  const auto with_leaf = [&](uint32_t pn, uint32_t dn, uint32_t jobs) {
    konobi::CheckpointClass c = bare;
    konobi::CheckpointNode n;
    n.path = {leaf};
    n.pn = pn, n.dn = dn, n.jobs = jobs, n.job_nodes = jobs * 2000000ull;
    c.nodes_list.push_back(n);
    return c;
  };
  CHECK(resumed(with_leaf(1, 1, 1)) == expansion);
  CHECK(resumed(with_leaf(1, 1, 0)) == std::make_pair(1u, 1u));
  CHECK(resumed(with_leaf(7, 9, 1)) == std::make_pair(7u, 9u));
}

namespace {
// The in-process pool, looking at the manager's view each time the manager
// waits for a report: the slots are full then, and the view should say so.
class ViewCheckingPool final : public ForwardingPool {
 public:
  ViewCheckingPool(konobi::WorkerPool& inner, std::atomic<bool>& stop, int stop_after)
      : ForwardingPool(inner), stop_(stop), stop_after_(stop_after) {}
  void submit(const konobi::Job& job) override {
    ++in_flight;
    ForwardingPool::submit(job);
  }
  std::optional<konobi::JobReport> next(std::chrono::milliseconds timeout) override {
    if (manager && !stop_.load()) {  // (the stop's drain takes the last reports without a refill)
      ++looks;
      if (manager->view().in_flight != in_flight) ++wrong;
    }
    auto r = ForwardingPool::next(timeout);
    if (r) {
      --in_flight;
      if (++reports == stop_after_) stop_.store(true);
    }
    return r;
  }
  const Manager* manager = nullptr;
  int in_flight = 0, reports = 0, looks = 0, wrong = 0;

 private:
  std::atomic<bool>& stop_;
  int stop_after_;
};
}  // namespace

TEST_CASE("the manager's view counts the jobs of the refilled slots, and ends with the checkpoint's figures",
          "[jobs]") {
  // 5x5 c3 with jobs of 100 nodes: open long after 40 jobs.
  Roots roots{{opening(5, 12)}};
  konobi::TranspositionTable tt(16);
  Pool inner(tt, konobi::DfpnOptions{}, 2, [&](int id) -> const Pos& { return roots(id); });
  std::atomic<bool> stop{false};
  ViewCheckingPool pool(inner, stop, 40);
  konobi::ManagerOptions mo;
  mo.job_nodes = 100;
  mo.checkpoint_every = 1e9;
  Manager manager(
      pool, &tt, nullptr, mo, [&](int id) -> const Pos& { return roots(id); }, identity(5));
  pool.manager = &manager;
  manager.add_class(0);
  konobi::Checkpoint last;
  bool proven = false;
  manager.run(
      &stop, [&](int, bool, const konobi::ClassTotals&) { proven = true; },
      [&](const konobi::Checkpoint& c) { last = c; });
  REQUIRE_FALSE(proven);
  CHECK(pool.reports >= 40);
  CHECK(pool.looks >= 40);
  // Each wait for a report found the view taken after the slots' refill:
  // both jobs in flight, never a slot shown idle between two jobs.
  CHECK(pool.wrong == 0);
  // The run's last view has the reports of the jobs drained at the stop,
  // as the checkpoint has: the caller records the open class's figures from it.
  const auto view = manager.view();
  REQUIRE(view.classes.size() == 1);
  REQUIRE(last.classes.size() == 1);
  CHECK(view.in_flight == 0);
  CHECK(view.classes[0].totals.jobs == last.classes[0].jobs);
  CHECK(view.classes[0].totals.nodes == last.classes[0].nodes);
  CHECK(view.classes[0].totals.jobs == uint64_t(pool.reports));
}
