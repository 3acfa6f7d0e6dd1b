// The job manager: job-level proof-number search (Wu et al., "Job-Level
// Proof-Number Search", 2013) over df-pn jobs. It keeps the top of each
// class's proof tree in memory with proof and disproof numbers, in the
// negamax form of dfpn.h: a node's pn is the least dn of its children, its
// dn the sum of their pns. A leaf is searched by a job, a df-pn search with
// a node budget run by a WorkerPool; a job that ends unproven hands back the
// leaf's root numbers, and a leaf whose jobs have cost a whole budget is
// expanded, so that the next jobs go one ply deeper, where the tree's
// numbers pick the most proving child. A leaf with a job in flight is not
// chosen again (and neither is a node whose open leaves are all in flight),
// so the slots spread over different leaves without changing any number.
//
// The trees are what a checkpoint holds (checkpoint.h): written every few
// minutes and on a stop, small next to the table, and read back by
// --resume on any machine. Proven nodes are written to the table (the proof
// builder walks them) and to the persistent store.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "checkpoint.h"
#include "run_job.h"
#include "worker_pool.h"

namespace konobi {

struct ManagerOptions {
  uint64_t job_nodes = 2'000'000;  // one job's budget
  double checkpoint_every = 300;   // seconds
  bool symmetry = true;
  double epsilon = 0.25;       // the thresholds' slack, as df-pn's
  uint64_t min_job_nodes = 0;  // Job::min_nodes: what a job searches at least (unless it proves its leaf)
  // OnNodeProven is called for proven nodes at most this many moves below
  // their class root. Deeper, most proven nodes are refuted moves of a
  // node that another move wins, whose proofs no class proof uses: on 6x6
  // c3 the pieces of every proven node grew by 5.7 M entries in the first
  // five minutes, far more than a class's whole proof.
  int piece_depth = 2;
};

// What the manager tells its caller: a class proven, a checkpoint to write.
struct ClassTotals {
  uint64_t jobs = 0, nodes = 0;
  double seconds = 0;  // the jobs' seconds, summed (thread-seconds)
};

template <class Game, int W>
requires SearchedGame<Game, W>
class JobManager {
 public:
  using State = typename Game::template State<W>;
  using RootOf = std::function<const State&(int opening)>;
  // Called on the manager's thread when a class's root is proven; the
  // caller extracts its proof from the table (and the store) there.
  using OnProven = std::function<void(int opening, bool mover_wins, const ClassTotals&)>;
  // Called on the manager's thread for each node below a class root that
  // this run proves (by a job, or through its children), with its path from
  // the class root, while the table still holds what proved it: the caller
  // may write its proof piece there (solver/jobs/piece_files.h). Not called
  // for nodes read proven from a checkpoint.
  using OnNodeProven = std::function<void(int opening, const std::vector<Move>& path, bool mover_wins)>;
  // Called with the trees of the classes still open, every checkpoint_every
  // seconds and when the run ends (the caller writes the file).
  using OnCheckpoint = std::function<void(const Checkpoint&)>;

  JobManager(WorkerPool& pool, TranspositionTable* tt, ProvenSource* store, const ManagerOptions& opt,
             RootOf root_of, Checkpoint identity)
      : pool_(pool),
        tt_(tt),
        store_(store),
        opt_(opt),
        root_of_(std::move(root_of)),
        identity_(std::move(identity)) {}

  // Adds a class to solve; its tree starts from `saved` when the checkpoint
  // has one (throws std::runtime_error when it does not fit this game).
  void add_class(int opening, const CheckpointClass* saved = nullptr) {
    Tree t;
    t.opening = opening;
    const State& root = root_of_(opening);
    t.nodes.push_back(make_node(-1, kPass, Game::key(root, opt_.symmetry)));
    settle_from_knowledge(t, 0, root);
    if (saved) restore(t, *saved);
    trees_.push_back(std::move(t));
  }

  void on_node_proven(OnNodeProven f) { on_node_proven_ = std::move(f); }

  // The class's root is known lost for its mover (an earlier run proved it
  // and the caller is writing its proof one reply at a time): its replies
  // are taken easiest first, the open one of least pn (the cost of its
  // winner's proof), rather than df-pn's child of least dn, which chases
  // the mover's best hope of a win that is known not to exist. Each reply
  // it proves is then a part written and kept (6x6 c3: the tree had spent
  // its jobs on c1, the hardest of the three replies left). The caller may
  // also ask for it on a root still open that looks lost (--easiest-first):
  // the order of the jobs changes, never a value.
  void easiest_replies_first(int opening) {
    for (Tree& t : trees_)
      if (t.opening == opening) t.easiest_first = true;
  }

  // A hint: at the node reached by `path` less its last move, that move is
  // searched first, before the node's other moves, for as long as it is
  // open. It is for a winning move that an earlier search found and whose
  // proof was lost (6x6 c3's reply c6: an earlier tree proved it with f4,
  // and a search that chose afresh spread its jobs over five moves of
  // nearly equal numbers). A hint changes only the order of
  // the jobs, never a value: a hinted move that loses is refuted like any
  // other, and the node's other moves then get the jobs. Nodes on the way
  // that are leaves are expanded, the hinted node too, so that the next job
  // goes to the hinted move. Called before run(); the caller words
  // what went wrong, by the moves of the path.
  struct HintResult {
    enum Kind { Set, Proven, NotAMove, Refuted } kind = Set;
    // Proven: the moves of the path to the proven node; NotAMove: path[depth]
    // is not a move there; Refuted: the hinted move is proven to lose.
    size_t depth = 0;
  };
  HintResult add_hint(int opening, const std::vector<Move>& path) {
    if (path.empty()) throw std::invalid_argument("a hint needs at least one move");
    for (Tree& t : trees_) {
      if (t.opening != opening) continue;
      int i = 0;
      for (size_t d = 0;; ++d) {
        if (t.nodes[i].value != Value::Open) return {HintResult::Proven, d};
        if (!t.nodes[i].expanded) {
          expand(t, i);
          update_up(t, i);
          if (t.nodes[i].value != Value::Open) return {HintResult::Proven, d};
        }
        const int c = child_by_move(t, i, path[d]);
        if (c < 0) return {HintResult::NotAMove, d};
        if (d + 1 == path.size()) {
          if (t.nodes[c].value == Value::MoverWins) return {HintResult::Refuted, d};
          break;
        }
        i = c;
      }
      t.nodes[i].hint = path.back();
      update_up(t, i);
      return {};
    }
    throw std::invalid_argument("add_hint: no such class");
  }

  // A class whose root is proven lost for its mover: each reply its tree
  // proved won by the class's winner with a known winning move, and that
  // move (from the tree in memory, or as the checkpoint kept them). A
  // class whose proof in parts hands replies back to the jobs gives them
  // these as hints: the proof of the reply may be lost, the move is not.
  std::vector<std::pair<Move, Move>> replies_won(int opening) const {
    for (const Tree& t : trees_) {
      if (t.opening != opening) continue;
      if (t.nodes[0].value != Value::MoverLoses) return {};
      if (!t.nodes[0].expanded) return t.saved_replies_won;
      std::vector<std::pair<Move, Move>> out;
      for (int c : t.nodes[0].children)
        if (t.nodes[c].value == Value::MoverWins && t.nodes[c].best >= 0)
          out.push_back({t.nodes[c].move, t.nodes[c].best});
      return out;
    }
    return {};
  }

  // The children a node of the tree gets for position s, in move order,
  // with their keys: the moves df-pn searches (or the pass it must make),
  // one per key on a symmetric position, the lowest move of each.
  static std::vector<std::pair<uint64_t, Move>> children(const State& s, bool symmetry) {
    const NodeMoves<W> nm = Game::moves(s);
    std::vector<std::pair<uint64_t, Move>> kids;
    if (nm.kind == NodeKind::PassOnly) kids.push_back({Game::key(Game::child(s, kPass), symmetry), kPass});
    else if (nm.kind == NodeKind::Search)
      nm.moves.for_each([&](int m) { kids.push_back({Game::child_key(s, m, symmetry), Move(m)}); });
    if (symmetry && Game::board(s).is_symmetric()) {
      std::stable_sort(kids.begin(), kids.end(), [](auto& a, auto& b) { return a.first < b.first; });
      kids.erase(std::unique(kids.begin(), kids.end(), [](auto& a, auto& b) { return a.first == b.first; }),
                 kids.end());
      std::stable_sort(kids.begin(), kids.end(), [](auto& a, auto& b) { return a.second < b.second; });
    }
    return kids;
  }

  // Opens again a class whose root was proven but whose proof the caller
  // has not finished (a Konobi proof in parts whose hardest replies are
  // left to jobs, so that their search is kept in the checkpoints): its
  // tree becomes `saved`, whose root is open and whose replies already
  // covered are settled. Jobs still in flight on the old tree are let run
  // out and their reports passed over. Called between two run()s.
  void reopen(int opening, const CheckpointClass& saved) {
    for (size_t k = 0; k < trees_.size(); ++k) {
      Tree& t = trees_[k];
      if (t.opening != opening) continue;
      for (auto it = flights_.begin(); it != flights_.end();)
        if (it->second.tree == int(k)) stale_.insert(it->first), it = flights_.erase(it);
        else ++it;
      Tree fresh;
      fresh.opening = opening;
      // Not settled from the table, which holds the root proven.
      fresh.nodes.push_back(make_node(-1, kPass, Game::key(root_of_(opening), opt_.symmetry)));
      restore(fresh, saved);
      fresh.totals = t.totals;  // the class's effort goes on (saved's totals are not used)
      fresh.easiest_first = t.easiest_first;
      t = std::move(fresh);
      return;
    }
    throw std::logic_error("reopen: no such class");
  }

  // Runs until every class is proven or `stop` is raised; then stops the
  // jobs in flight, takes their reports and calls on_checkpoint a last time.
  // Returns true when every class was proven.
  bool run(const std::atomic<bool>* stop, const OnProven& on_proven, const OnCheckpoint& on_checkpoint) {
    on_proven_ = &on_proven;
    on_checkpoint_ = &on_checkpoint;
    for (size_t c = 0; c < trees_.size(); ++c) announce_if_proven(c);
    auto last = Clock::now();
    while (!halted(stop) && open_classes() > 0) {
      fill_slots();
      // Taken after the refill: taken between a job's report and its
      // slot's next job, the view showed that slot idle until the next
      // report, though its thread never was.
      refresh_view();
      if (in_flight_ == 0 && !any_selectable()) break;  // cannot happen with open classes; kept as a guard
      if (auto r = pool_.next(std::chrono::milliseconds(50))) apply(*r);
      if (seconds_since(last) >= opt_.checkpoint_every) {
        on_checkpoint(checkpoint());
        last = Clock::now();
      }
    }
    if (in_flight_ > 0) pool_.stop_all();
    while (in_flight_ > 0)
      if (auto r = pool_.next(std::chrono::milliseconds(200))) apply(*r);
    refresh_view();  // with the last jobs' reports: the caller records the open classes' figures from it
    on_checkpoint(checkpoint());
    on_proven_ = nullptr, on_checkpoint_ = nullptr;  // the caller's, alive only during run
    return open_classes() == 0;
  }

  // The trees of the open classes, parents before children, without the
  // subtrees of proven nodes; and the root alone of a class whose proof is
  // being built.
  Checkpoint checkpoint() const {
    Checkpoint c = identity_;
    c.job_nodes = opt_.job_nodes;
    c.classes.clear();
    for (const Tree& t : trees_) {
      if (t.nodes[0].value != Value::Open && !t.proof_pending) continue;
      CheckpointClass cc;
      cc.opening = t.opening;
      cc.jobs = t.totals.jobs, cc.nodes = t.totals.nodes, cc.seconds = t.totals.seconds;
      std::vector<Move> path;
      write_subtree(t, 0, path, cc.nodes_list);
      // A proven lost root keeps its replies' winning moves (for hints, if
      // its proof in parts hands replies back to the jobs in a later run).
      if (t.proof_pending && t.nodes[0].value == Value::MoverLoses) {
        const auto won = replies_won(t.opening);
        cc.nodes_list[0].expanded = !won.empty();
        for (const auto& [reply, move] : won) {
          CheckpointNode r;
          r.path = {reply};
          r.value = Value::MoverWins;
          r.pn = 0, r.dn = kInf;
          r.best = move;
          cc.nodes_list.push_back(r);
        }
      }
      c.classes.push_back(std::move(cc));
    }
    return c;
  }

  // --- for progress lines (read on the manager's thread or under the caller's care) ---
  struct ClassView {
    int opening;
    uint32_t pn, dn;
    int tree_nodes, replies, replies_settled, in_flight;
    ClassTotals totals;
    // When at most kFewOpenReplies are left: the open replies in move
    // order, each with its pn, its share of the root's dn (their sum), so
    // that a person following a long run sees which is close to falling.
    std::vector<std::pair<Move, uint32_t>> open_replies;
  };
  static constexpr int kFewOpenReplies = 6;
  // A copy of the last snapshot: safe from any thread.
  struct View {
    std::vector<ClassView> classes;
    uint64_t jobs_done = 0;
    int in_flight = 0, slots = 0;
  };
  View view() const {
    std::lock_guard lock(view_mutex_);
    return view_;
  }

 private:
  void refresh_view() {
    View v;
    v.classes = class_views();
    v.jobs_done = jobs_done_;
    v.in_flight = in_flight_;
    v.slots = pool_.slots();
    std::lock_guard lock(view_mutex_);
    view_ = std::move(v);
  }
  std::vector<ClassView> class_views() const {
    std::vector<ClassView> out;
    for (const Tree& t : trees_) {
      const Node& r = t.nodes[0];
      if (r.value != Value::Open) continue;
      ClassView v{t.opening,   r.pn,     r.dn, int(t.nodes.size()), int(r.children.size()), 0,
                  t.in_flight, t.totals, {}};
      for (int c : r.children) v.replies_settled += t.nodes[c].value != Value::Open;
      if (v.replies - v.replies_settled <= kFewOpenReplies)
        for (int c : r.children)
          if (t.nodes[c].value == Value::Open) v.open_replies.push_back({t.nodes[c].move, t.nodes[c].pn});
      out.push_back(std::move(v));
    }
    return out;
  }

  using Clock = std::chrono::steady_clock;
  using Value = CheckpointNode::Value;

  struct Node {
    int parent = -1;
    Move move = kPass;  // from the parent
    uint64_t key = 0;
    Value value = Value::Open;
    uint32_t pn = 1, dn = 1;
    uint64_t job_nodes = 0;
    uint32_t jobs = 0;
    Move best = -1;
    // A move of this node's mover to search first while it is open (a
    // hint: a move an earlier search proved winning here); -1 for none.
    Move hint = -1;
    bool expanded = false, in_flight = false;
    std::vector<int> children;
  };
  struct Tree {
    int opening = -1;
    std::vector<Node> nodes;
    ClassTotals totals;
    int in_flight = 0;
    bool announced = false;
    bool easiest_first = false;  // easiest_replies_first()
    // The node of the reply that easiest-first gave the last job (-1 for
    // none): run state that only orders jobs, so select() may set it and
    // checkpoints leave it out.
    mutable int focus = -1;
    // Its root is proven and the caller is building its proof: checkpoints
    // keep it, as its root (with a lost root's replies' winning moves), so
    // that a stop then does not cost the root's proof again (the next run
    // goes straight to the proof).
    bool proof_pending = false;
    // A proven lost root read from a checkpoint: its replies' winning moves
    // as the checkpoint kept them (replies_won()).
    std::vector<std::pair<Move, Move>> saved_replies_won;
  };
  struct Flight {
    int tree, node;
  };

  static double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  }
  static bool halted(const std::atomic<bool>* stop) { return stop && stop->load(); }
  static uint32_t sat(uint64_t v) { return v >= kInf ? kInf : uint32_t(v); }

  Node make_node(int parent, Move m, uint64_t key) const {
    Node n;
    n.parent = parent;
    n.move = m;
    n.key = key;
    return n;
  }

  int open_classes() const {
    int n = 0;
    for (const Tree& t : trees_) n += t.nodes[0].value == Value::Open;
    return n;
  }

  // The position of node i, replayed from the class root.
  State position(const Tree& t, int i) const { return job_leaf<Game, W>(root_of_(t.opening), path_of(t, i)); }
  // Node i's child by move m, or -1 when the search makes no such move there.
  int child_by_move(const Tree& t, int i, Move m) const {
    for (int c : t.nodes[i].children)
      if (t.nodes[c].move == m) return c;
    return -1;
  }
  // Whether m is a move the search makes at node i (a leaf's are its
  // position's, as expand() would give them).
  bool makes_move(const Tree& t, int i, Move m) const {
    if (t.nodes[i].expanded) return child_by_move(t, i, m) >= 0;
    for (const auto& kid : children(position(t, i), opt_.symmetry))
      if (kid.second == m) return true;
    return false;
  }
  std::vector<Move> path_of(const Tree& t, int i) const {
    std::vector<Move> path;
    for (; t.nodes[i].parent >= 0; i = t.nodes[i].parent) path.push_back(t.nodes[i].move);
    std::reverse(path.begin(), path.end());
    return path;
  }

  // A node's value from what is known without a job: an immediate win or
  // loss, the table, the store.
  void settle_from_knowledge(Tree& t, int i, const State& s) {
    Node& n = t.nodes[i];
    const NodeMoves<W> nm = Game::moves(s);
    if (nm.kind == NodeKind::WinNow) return set_value(n, Value::MoverWins, nm.win);
    if (nm.kind == NodeKind::LoseNow) return set_value(n, Value::MoverLoses, -1);
    if (tt_) {
      const auto f = tt_->probe(n.key);
      if (f.hit && f.pn == 0)
        return set_value(n, Value::MoverWins, board_move<Game, W>(s, f.best, opt_.symmetry));
      if (f.hit && f.dn == 0) return set_value(n, Value::MoverLoses, -1);
      if (f.hit) {
        n.pn = f.pn, n.dn = f.dn;
        return;
      }
    }
    if (store_)
      if (const auto p = store_->find(n.key))
        return set_value(n, p->mover_wins ? Value::MoverWins : Value::MoverLoses,
                         p->mover_wins ? board_move<Game, W>(s, p->best, opt_.symmetry) : -1);
    const Estimate e = Game::evaluate(s);
    n.pn = e.pn, n.dn = e.dn;
  }

  static void set_value(Node& n, Value v, Move best) {
    n.value = v;
    n.pn = v == Value::MoverWins ? 0 : kInf;
    n.dn = v == Value::MoverWins ? kInf : 0;
    n.best = v == Value::MoverWins ? best : -1;
  }

  // Gives node i its children: the moves df-pn would search (movegen.h's
  // exact shortcuts), one per symmetry class on a symmetric position.
  void expand(Tree& t, int i) {
    const State s = position(t, i);
    const auto kids = children(s, opt_.symmetry);
    t.nodes[i].expanded = true;
    for (const auto& [key, m] : kids) {
      const int c = int(t.nodes.size());
      t.nodes.push_back(make_node(i, m, key));
      t.nodes[i].children.push_back(c);
      settle_from_knowledge(t, c, Game::child(s, m));
    }
    if (kids.empty()) {  // settled above, but a node we expand is open: a guard
      throw std::logic_error("the manager expanded a position without moves");
    }
  }

  // Recomputes the numbers from node i up to the root; a node proven on
  // the way is written to the table and the store.
  void update_up(Tree& t, int i) {
    for (; i >= 0; i = t.nodes[i].parent) {
      Node& n = t.nodes[i];
      if (n.expanded && n.value == Value::Open) {
        uint64_t sum_pn = 0;
        uint32_t min_dn = kInf;
        Move win = -1;
        for (int c : n.children) {
          const Node& k = t.nodes[c];
          sum_pn += k.pn;
          min_dn = std::min(min_dn, k.dn);
          if (k.value == Value::MoverLoses && win < 0) win = k.move;
        }
        // A node committed to its hint is as near a proof as the hinted
        // move, so that the thresholds above it (and the choice between it
        // and its siblings) follow the move its jobs go to.
        const int h = hinted_child(t, i);
        if (win >= 0) set_value(n, Value::MoverWins, win);
        else if (sat(sum_pn) == 0) set_value(n, Value::MoverLoses, -1);
        else n.pn = h >= 0 ? t.nodes[h].dn : min_dn, n.dn = sat(sum_pn);
        if (n.value != Value::Open) record_proven(t, i);
      }
    }
  }

  // A proven node goes into the table (the proof builder follows it) and
  // the store (other runs skip it).
  void record_proven(const Tree& t, int i) {
    const Node& n = t.nodes[i];
    const bool wins = n.value == Value::MoverWins;
    uint64_t work = n.job_nodes;
    for (int c : n.children) work += t.nodes[c].job_nodes;
    int8_t best = -1;
    if (wins && n.best >= 0) best = int8_t(table_move<Game, W>(position(t, i), n.best, opt_.symmetry));
    if (tt_) tt_->store(n.key, wins ? 0 : kInf, wins ? kInf : 0, best, std::max<uint64_t>(work, 1));
    if (store_) store_->add({n.key, wins, best, TranspositionTable::work_code(std::max<uint64_t>(work, 1))});
    // (A job that ends after its class was proven proves nothing needed.)
    if (on_node_proven_ && i != 0 && !restoring_ && t.nodes[0].value == Value::Open) {
      const std::vector<Move> path = path_of(t, i);
      if (int(path.size()) <= opt_.piece_depth) on_node_proven_(t.opening, path, wins);
    }
  }

  // --- choosing jobs ----------------------------------------------------------

  bool selectable(const Tree& t, int i) const {
    const Node& n = t.nodes[i];
    if (n.value != Value::Open) return false;
    if (!n.expanded) return !n.in_flight;
    if (const int h = hinted_child(t, i); h >= 0) return selectable(t, h);
    for (int c : n.children)
      if (selectable(t, c)) return true;
    return false;
  }
  bool any_selectable() const {
    for (const Tree& t : trees_)
      if (selectable(t, 0)) return true;
    return false;
  }

  // The most proving open leaf under node i that has no job in flight, and
  // its thresholds: down the child of least dn among those that have a free
  // leaf, with the thresholds df-pn would give it (the 1+epsilon trick, the
  // runner-up being the next such child), so that a job stops where df-pn
  // would turn to another leaf. The thresholds are above the leaf's
  // numbers, so a job always has room.
  struct Pick {
    int leaf = -1;
    uint32_t th_pn = kInf, th_dn = kInf;
  };
  Pick select(const Tree& t, int i, uint32_t th_pn, uint32_t th_dn) const {
    const Node& n = t.nodes[i];
    if (n.value != Value::Open) return {};
    if (!n.expanded) return n.in_flight ? Pick{} : Pick{i, th_pn, th_dn};
    // A hint: its move while it is open, with no runner-up to turn to. (At
    // a root whose replies go easiest first too, the hint comes first: it
    // is the caller's own choice.)
    if (const int h = hinted_child(t, i); h >= 0) {
      const Node& c = t.nodes[h];
      const uint32_t child_th_pn = th_dn > n.dn ? sat(uint64_t(th_dn) - n.dn + c.pn) : c.pn + 1;
      return select(t, h, std::max(child_th_pn, c.pn + 1), std::max(th_pn, c.dn + 1));
    }
    if (i == 0 && t.easiest_first) return select_easiest(t);
    const auto [best, second_dn] = least_child(t, i, &Node::dn);
    if (best < 0) return {};
    const Node& c = t.nodes[best];
    const uint32_t child_th_dn = std::min(th_pn, slack(second_dn));
    const uint32_t child_th_pn = th_dn > n.dn ? sat(uint64_t(th_dn) - n.dn + c.pn) : c.pn + 1;
    return select(t, best, std::max(child_th_pn, c.pn + 1), std::max(child_th_dn, c.dn + 1));
  }

  // df-pn's threshold for a child whose runner-up has number x: the
  // 1+epsilon trick, at most kInf.
  uint32_t slack(uint32_t x) const {
    return uint32_t(std::min<uint64_t>(uint64_t(double(x) * (1.0 + opt_.epsilon)) + 1, kInf));
  }

  // Node i's hinted child while it is open, else -1.
  int hinted_child(const Tree& t, int i) const {
    const Node& n = t.nodes[i];
    if (n.hint < 0 || !n.expanded) return -1;
    for (int c : n.children)
      if (t.nodes[c].move == n.hint) return t.nodes[c].value == Value::Open ? c : -1;
    return -1;
  }

  // Of node i's children with a free leaf, the first of least `number`
  // (&Node::dn or &Node::pn), or -1, and the least number of the others
  // (kInf if none).
  std::pair<int, uint32_t> least_child(const Tree& t, int i, uint32_t Node::*number) const {
    int best = -1;
    uint32_t second = kInf;
    for (int c : t.nodes[i].children) {
      if (!selectable(t, c)) continue;
      if (best < 0 || t.nodes[c].*number < t.nodes[best].*number) {
        if (best >= 0) second = std::min(second, t.nodes[best].*number);
        best = c;
      } else {
        second = std::min(second, t.nodes[c].*number);
      }
    }
    return {best, second};
  }

  // easiest_replies_first(): down the open reply of least pn with a free
  // leaf, as an AND node of df-pn for the root's winner chooses, its job
  // stopping once the reply's pn passes the runner-up's (1+epsilon).
  // The reply the last job took keeps the jobs while its pn stays within
  // that slack of the least: df-pn's rule inside one search, kept across
  // jobs, which each choose afresh. Without it, replies of nearly equal pn
  // (6x6 a2's d1, e1 and c6, all near 24 k) could take turns job by job,
  // each turn finding the full table holding the others' positions.
  Pick select_easiest(const Tree& t) const {
    auto [best, second_pn] = least_child(t, 0, &Node::pn);
    if (best < 0) return {};
    // (focus is -1 or one of this tree's replies: a tree that reopen()
    // replaces starts with none.)
    if (const int f = t.focus;
        f >= 0 && f != best && selectable(t, f) && t.nodes[f].pn <= slack(t.nodes[best].pn))
      second_pn = t.nodes[best].pn, best = f;
    t.focus = best;
    const Node& c = t.nodes[best];
    return select(t, best, std::max(slack(second_pn), c.pn + 1), kInf);
  }

  // The class to give the next job: of those with a free leaf, the one
  // whose root looks nearest to a proof either way.
  int pick_tree() const {
    int best = -1;
    uint32_t best_cost = 0;
    for (size_t k = 0; k < trees_.size(); ++k) {
      const Tree& t = trees_[k];
      if (!selectable(t, 0)) continue;
      const uint32_t cost = std::min(t.nodes[0].pn, t.nodes[0].dn);
      if (best < 0 || cost < best_cost) best = int(k), best_cost = cost;
    }
    return best;
  }

  void fill_slots() {
    while (pool_.idle_slots() > 0) {
      const int k = pick_tree();
      if (k < 0) return;
      Tree& t = trees_[size_t(k)];
      Pick pick = select(t, 0, kInf, kInf);
      // A leaf whose jobs have spent a whole budget is expanded, and the
      // job goes to its most proving child instead.
      while (pick.leaf >= 0 && t.nodes[pick.leaf].job_nodes >= opt_.job_nodes) {
        expand(t, pick.leaf);
        update_up(t, pick.leaf);
        if (t.nodes[0].value != Value::Open) break;
        pick = select(t, 0, kInf, kInf);
      }
      if (announce_if_proven(size_t(k))) continue;
      const int leaf = pick.leaf;
      if (leaf < 0) continue;
      Job job;
      job.id = ++last_id_;
      job.opening = t.opening;
      job.path = path_of(t, leaf);
      job.max_nodes = opt_.job_nodes;
      job.th_pn = pick.th_pn;
      job.th_dn = pick.th_dn;
      job.min_nodes = std::min(opt_.min_job_nodes, opt_.job_nodes);
      t.nodes[leaf].in_flight = true;
      ++t.in_flight, ++in_flight_;
      flights_[job.id] = {k, leaf};
      pool_.submit(job);
    }
  }

  // --- a job ended ------------------------------------------------------------

  void apply(const JobReport& r) {
    if (stale_.erase(r.id)) {  // a job on a tree that reopen() replaced
      --in_flight_;
      return;
    }
    const auto it = flights_.find(r.id);
    if (it == flights_.end()) throw std::logic_error("a report for a job the manager did not send");
    const auto [k, i] = it->second;
    flights_.erase(it);
    Tree& t = trees_[size_t(k)];
    Node& n = t.nodes[i];
    n.in_flight = false;
    --t.in_flight, --in_flight_;
    ++jobs_done_;
    ++n.jobs;
    n.job_nodes += r.nodes;
    t.totals.jobs += 1, t.totals.nodes += r.nodes, t.totals.seconds += r.seconds;
    if (store_)
      for (const ProvenPosition& p : r.proven) store_->add(p);
    if (n.value != Value::Open) return;  // settled meanwhile from above (a proven ancestor)
    if (r.outcome == JobOutcome::MoverWins) set_value(n, Value::MoverWins, r.best);
    else if (r.outcome == JobOutcome::MoverLoses) set_value(n, Value::MoverLoses, -1);
    else if (r.pn > 0 && r.dn > 0) n.pn = r.pn, n.dn = r.dn;
    if (n.value != Value::Open) record_proven(t, i);
    update_up(t, n.parent);
    announce_if_proven(size_t(k));
  }

  bool announce_if_proven(size_t k) {
    Tree& t = trees_[k];
    if (t.announced || t.nodes[0].value == Value::Open) return t.announced;
    t.announced = true;
    // The root's value on disk before the proof is built: a proof that
    // takes hours may be stopped (if on_proven throws, the flag stays set
    // and no later checkpoint drops the class).
    t.proof_pending = true;
    if (on_checkpoint_) (*on_checkpoint_)(checkpoint());
    if (on_proven_) (*on_proven_)(t.opening, t.nodes[0].value == Value::MoverWins, t.totals);
    t.proof_pending = false;
    return true;
  }

  // --- checkpoints --------------------------------------------------------------

  void write_subtree(const Tree& t, int i, std::vector<Move>& path, std::vector<CheckpointNode>& out) const {
    const Node& n = t.nodes[i];
    CheckpointNode c;
    c.path = path;
    c.value = n.value;
    c.pn = n.pn, c.dn = n.dn;
    c.job_nodes = n.job_nodes;
    c.jobs = n.jobs;
    // An open node's BEST is its hint (docs/JOBS.md, "The format").
    c.best = n.value == Value::Open ? n.hint : n.best;
    c.expanded = n.expanded && n.value == Value::Open;
    out.push_back(c);
    if (!c.expanded) return;
    for (int k : n.children) {
      path.push_back(t.nodes[k].move);
      write_subtree(t, k, path, out);
      path.pop_back();
    }
  }

  // Rebuilds a tree from a checkpoint: each expanded node is expanded again
  // here (so the children are exactly what this program searches), then
  // given the saved numbers and values. A saved node that is not a child
  // here means the checkpoint is of another game or program.
  void restore(Tree& t, const CheckpointClass& saved) {
    restoring_ = true;
    struct Done {
      bool& flag;
      ~Done() { flag = false; }
    } done{restoring_};
    t.totals = {saved.jobs, saved.nodes, saved.seconds};
    std::map<std::vector<Move>, int> index{{{}, 0}};
    // Nodes under one that this run already knows proven (the store, the
    // table) are not needed: their subtrees are skipped.
    std::set<std::vector<Move>> skipped;
    for (const CheckpointNode& c : saved.nodes_list) {
      if (!c.path.empty() && skipped.count(std::vector<Move>(c.path.begin(), c.path.end() - 1))) {
        skipped.insert(c.path);
        // The replies of a root proven lost, with their winning moves.
        if (c.path.size() == 1 && c.value == Value::MoverWins && c.best >= 0 &&
            t.nodes[0].value == Value::MoverLoses)
          t.saved_replies_won.push_back({c.path[0], c.best});
        continue;
      }
      const auto it = index.find(c.path);
      if (it == index.end())
        throw std::runtime_error("the checkpoint's node " + path_text(c.path) +
                                 " is not a position this program's tree of " + std::to_string(t.opening) +
                                 " reaches; it belongs to another game or version");
      const int i = it->second;
      Node& n = t.nodes[i];
      n.job_nodes = c.job_nodes;
      n.jobs = c.jobs;
      if (c.value != Value::Open) {
        set_value(n, c.value, c.best);
        record_proven(t, i);
      } else if (n.value == Value::Open) {
        // 1/1 on a node that jobs searched is what a job stopped before it
        // could leave its leaf reported until 2026-12 (run_job.h), not
        // numbers: the node keeps those its expansion gave it.
        if (!(c.pn == 1 && c.dn == 1 && c.jobs > 0))
          n.pn = std::max<uint32_t>(c.pn, 1), n.dn = std::max<uint32_t>(c.dn, 1);
        if (c.best >= 0 && !makes_move(t, i, c.best))
          throw std::runtime_error("the checkpoint's node " + path_text(c.path) + " has a hint, " +
                                   std::to_string(c.best) +
                                   ", that is not a move of this program's tree of " +
                                   std::to_string(t.opening) + "; it belongs to another game or version");
        if (c.best >= 0) n.hint = c.best;
      }
      if (c.expanded && t.nodes[i].value != Value::Open) skipped.insert(c.path);
      if (c.expanded && t.nodes[i].value == Value::Open) {
        expand(t, i);
        for (int k : t.nodes[i].children) {
          std::vector<Move> p = c.path;
          p.push_back(t.nodes[k].move);
          index[p] = k;
        }
      }
    }
    // Numbers up the tree from every leaf, deepest first.
    for (int i = int(t.nodes.size()) - 1; i >= 0; --i)
      if (!t.nodes[i].expanded) update_up(t, t.nodes[i].parent);
  }

  static std::string path_text(const std::vector<Move>& path) {
    if (path.empty()) return "(the root)";
    std::string s;
    for (Move m : path) s += (s.empty() ? "" : " ") + std::to_string(m);
    return s;
  }

  WorkerPool& pool_;
  TranspositionTable* tt_;
  ProvenSource* store_;
  ManagerOptions opt_;
  RootOf root_of_;
  Checkpoint identity_;
  std::vector<Tree> trees_;
  std::map<uint64_t, Flight> flights_;
  std::set<uint64_t> stale_;  // jobs in flight on trees that reopen() replaced
  const OnProven* on_proven_ = nullptr;
  const OnCheckpoint* on_checkpoint_ = nullptr;
  OnNodeProven on_node_proven_;
  bool restoring_ = false;  // restore() records the saved values: no pieces to build for them
  uint64_t last_id_ = 0, jobs_done_ = 0;
  int in_flight_ = 0;
  mutable std::mutex view_mutex_;
  View view_;
};

}  // namespace konobi
