// One run of `konobi solve`: the results file it starts from or carries on,
// the classes it searches, and what it records as each class ends. The steps
// have names (load or start, plan, progress, class ended: proven or
// unproven, save, finish), so that what drives the searches can change (a
// job manager, workers elsewhere) without the file handling changing with it.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <charconv>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <oneapi/tbb/task_arena.h>

#include "command.h"
#include "game_input.h"
#include "core/notation.h"
#include "core/openings.h"
#include "core/types.h"
#include "fall_estimate.h"
#include "progress.h"
#include "provenance.h"
#include "solver/io/atomic_file.h"
#include "solver/io/compressed_file.h"
#include "solver/io/results.h"
#include "solver/io/results_merge.h"
#include "solver/jobs/checkpoint.h"
#include "solver/jobs/local_pool.h"
#include "solver/jobs/manager.h"
#include "solver/jobs/mpi_pool.h"
#include "solver/jobs/mpi_worker.h"
#include "solver/jobs/piece_files.h"
#include "solver/search/parallel_dfpn.h"
#include "solver/store/proven_store.h"
#include "solver/search/proof.h"
#include "solver/search/pv.h"
#include "solver/search/table_seed.h"

namespace konobi {

// --hint: in the tree of the class of `opening`, at the node after `path`
// less its last move, that move is searched first (JobManager::add_hint).
struct SolveHint {
  int opening = -1;
  std::vector<Move> path;
};

struct SolveConfig {
  int size = 0, threads = 1;
  GameChoice game;
  bool strict_ghi = false;  // gonnect: the set of earlier boards in every key
  double tt_mb = 1024;
  double class_limit = 0;  // seconds per symmetry class, 0 = none
  std::string out, proof_dir, command;
  std::vector<int> openings;  // points whose classes to solve, in this order; empty: all
  bool resume = false, overwrite = false, quiet = false;
  DfpnOptions dfpn;
  // The job manager (docs/JOBS.md): on from 6x6 up unless told.
  bool manager = false;
  uint64_t job_nodes = 2'000'000;
  std::string checkpoint;  // its file (the results file's name, .checkpoint.xz)
  double checkpoint_every = 300;
  std::string store;         // the store of proven positions; empty: none
  bool proof_pieces = true;  // with a proof folder: the proven nodes' pieces beside the checkpoint
  bool seed_table = true;    // Konobi: the pieces' positions go into the table as proven (table_seed.h)
  // A Konobi proof in parts: the largest node budget a missing part is
  // proven within on the table, at a class's end; the parts left after that
  // round go back to the job manager, whose tree the checkpoints keep.
  uint64_t part_budget_max = uint64_t(1) << 28;
  double store_mb = 4096;
  std::vector<SolveHint> hints;
  // --easiest-first: classes whose roots' replies the jobs take easiest
  // first (JobManager::easiest_replies_first), for roots that look lost.
  std::vector<int> easiest_first;
  MpiRuntime* mpi = nullptr;  // under mpirun with more than one rank: rank 0 manages, the others search
};

// The table solve prints at the end: each opening's value, the effort on
// classes still open, the empty board and the pie verdict.
inline void print_results_table(const Results& r, std::ostream& out) {
  const int n = r.size;
  if (r.game == "gonnect") out << "Gonnect (ko rule " << r.ko_rule << ", edges " << r.edges << ") ";
  else out << "Konobi ";
  out << n << "x" << n << ": value of each Black first move, White to move, no swap\n"
      << "(B: Black wins, so White should swap; W: White wins; ?: not proven)\n\n";
  out << "     ";
  for (int c = 0; c < n; ++c) out << char('a' + c) << ' ';
  out << "\n";
  for (int row = n - 1; row >= 0; --row) {
    out << std::setw(3) << row + 1 << "  ";
    for (int c = 0; c < n; ++c) {
      const auto& o = r.openings[row * n + c];
      out << (!o.solved ? '?' : o.winner == "black" ? 'B' : 'W') << ' ';
    }
    out << "\n";
  }
  out << "\n";
  // What the open classes cost so far, and how near each looked.
  for (const auto& o : r.openings)
    if (o.searched_unproven() && o.point == o.representative)
      out << "Not proven: " << o.point << " after " << human_count(double(o.nodes)) << " nodes, "
          << std::fixed << std::setprecision(0) << o.seconds << " s (root pn " << o.pn << ", dn " << o.dn
          << ")\n";
  const std::string eb = r.empty_board_winner();
  out << "Empty board without the pie rule: "
      << (eb.empty()      ? "not known yet"
          : eb == "black" ? "Black (first player) wins"
                          : "White (second player) wins")
      << "\n";
  if (r.complete())
    out << "Pie rule: White swaps after every winning opening and replies to every losing one, "
           "so the second player wins with perfect play.\n";
  out << "Nodes " << r.nodes << ", " << std::fixed << std::setprecision(2) << r.seconds << " s\n";
}

// The classes of `points`, in their order, each once: a point names its
// whole class.
template <int W>
std::vector<int> chosen_classes(const Geometry<W>& g, const std::vector<int>& points) {
  std::vector<int> reps;
  for (int p : points)
    if (const int rep = opening_representative(g, p); std::find(reps.begin(), reps.end(), rep) == reps.end())
      reps.push_back(rep);
  return reps;
}

// Visited sets for proof extraction, one per extraction under way (two
// classes may end together); each keeps its memory for the next class,
// since clearing a set beats faulting in fresh pages.
class KeySetPool {
 public:
  // A set on loan, given back when the lease ends (by an exception too).
  class Lease {
   public:
    explicit Lease(KeySetPool& pool) : pool_(pool), set_(pool.take()) {}
    ~Lease() { pool_.give_back(std::move(set_)); }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    KeySet* get() const { return set_.get(); }

   private:
    KeySetPool& pool_;
    std::unique_ptr<KeySet> set_;
  };

 private:
  std::unique_ptr<KeySet> take() {
    std::lock_guard lock(mutex_);
    if (idle_.empty()) return std::make_unique<KeySet>();
    auto set = std::move(idle_.back());
    idle_.pop_back();
    return set;
  }
  void give_back(std::unique_ptr<KeySet> set) {
    std::lock_guard lock(mutex_);
    idle_.push_back(std::move(set));
  }

  std::mutex mutex_;
  std::vector<std::unique_ptr<KeySet>> idle_;
};

template <class Game, int W>
requires SearchedGame<Game, W>
class SolveSession {
  using Rules = typename Game::Rules;
  using State = typename Game::template State<W>;
  static constexpr bool kGonnect = std::is_same_v<Rules, GonnectRules>;

 public:
  SolveSession(const SolveConfig& cfg, const typename Rules::Variant& variant)
      : cfg_(cfg), variant_(variant), g_(Rules::template geometry<W>(cfg.size, variant)), n_(cfg.size) {}

  // The whole run; the exit status (130 when interrupted).
  int run() {
    if (cluster()) {
      if (!cfg_.manager)
        throw UsageError(
            "under mpirun with more than one rank, solve runs the job manager: drop --no-manager");
      channel_ = std::make_unique<MpiChannel>(*cfg_.mpi);
      if (cfg_.mpi->rank() != 0) return run_worker();
    }
    load_or_start();  // before the table takes its memory: a refusal comes at once
    if (cfg_.manager) load_checkpoint();
    results_.provenance = make_provenance(cfg_.command, cfg_.threads, cfg_.tt_mb, cfg_.dfpn);
    if constexpr (!std::is_same_v<Game, KonobiSearch>) results_.provenance.must_play = 0;  // Konobi's alone
    if (!cfg_.proof_dir.empty()) std::filesystem::create_directories(cfg_.proof_dir);
    tt_ = std::make_unique<TranspositionTable>(cfg_.tt_mb);
    install_stop_handler();
    t_start_ = std::chrono::steady_clock::now();
    plan();
    drop_proven_from_checkpoint();
    open_pieces();
    // --resume with every class asked for proven: the file stays as it is,
    // unless it was read re-grouped, when it gains the openings of merged classes.
    if (todo_.empty() && !results_.regrouped_on_read) {
      if (!cfg_.quiet)
        std::cerr << "nothing left to do: every class asked for is proven in " << cfg_.out << "\n";
      if (saved_ && saved_->classes.empty()) std::filesystem::remove(cfg_.checkpoint);
      print_results_table(results_, std::cout);
      return 0;
    }
    search();
    return finish();
  }

 private:
  // --- load or start -------------------------------------------------------

  void load_or_start() {
    if (cfg_.resume && std::filesystem::exists(cfg_.out)) resume_from_file();
    else start_fresh();
    seconds_before_ = results_.seconds;
    nodes_before_ = results_.nodes;
    hazards_before_ = results_.ghi_hazards;
  }

  void resume_from_file() {
    results_ = Results::from_json(read_file(cfg_.out), cfg_.out);
    if (results_.size != n_ || results_.game != Rules::name)
      throw UsageError(cfg_.out + " holds a " + results_.game + " " + nxn(results_.size) + " solve, not " +
                       Rules::name + " " + nxn(n_));
    if constexpr (kGonnect)
      if (results_.ko_rule != ko_rule_name(variant_.ko) || results_.edges != edge_rule_name(variant_.edges) ||
          results_.ghi != ghi_name())
        throw UsageError(cfg_.out + " was solved with ko rule " + results_.ko_rule + ", edges " +
                         results_.edges + ", ghi " + results_.ghi + "; resume it with the same options");
    if (cfg_.quiet) return;
    std::string before;
    for (const auto& o : results_.openings)
      if (o.searched_unproven() && o.point == o.representative)
        before += (before.empty() ? "" : ", ") + o.point + " " + human_count(double(o.nodes)) + " nodes";
    std::cerr << "resuming from " << cfg_.out;
    if (!before.empty()) std::cerr << " (searched before without a proof: " << before << ")";
    std::cerr << "\n";
  }

  void start_fresh() {
    // Proven openings are hours of work: a fresh solve does not write over
    // them unless told to, and says so before it takes the table's memory.
    if (!cfg_.overwrite && std::filesystem::exists(cfg_.out)) {
      const std::string text = read_file(cfg_.out);  // a clear error for a directory, a device or a FIFO
      int held = 0;
      try {
        held = proven_openings(Results::from_json(text, cfg_.out));
      } catch (const std::exception&) {
        // not a results file: nothing proven in it
      }
      if (held > 0)
        throw UsageError(
            cfg_.out + " holds " + std::to_string(held) + " proven opening" + (held == 1 ? "" : "s") +
            "; add --resume to carry on from them, --overwrite to replace them, or give another --out");
    }
    results_.size = n_;
    results_.game = Rules::name;
    if constexpr (kGonnect) {
      results_.ko_rule = ko_rule_name(variant_.ko);
      results_.edges = edge_rule_name(variant_.edges);
      results_.ghi = ghi_name();
    }
    for (int p = 0; p < g_.cells; ++p) {
      OpeningResult o;
      o.point = point_name(n_, p);
      o.representative = point_name(n_, opening_representative(g_, p));
      results_.openings.push_back(o);
    }
  }

  // --- plan ----------------------------------------------------------------

  // Unproven classes, in point order (corners, often the hardest, first),
  // or those of --openings in the order given, each with its position.
  void plan() {
    classes_ = opening_classes(g_);
    for (int rep : classes_)
      if (results_.openings[rep].solved) ++proven_;
    for (int rep : cfg_.openings.empty() ? classes_ : chosen_classes(g_, cfg_.openings))
      if (!results_.openings[rep].solved) todo_.push_back(rep), jobs_.push_back(opening(rep));
  }

  // The position after Black's first stone at p, White to move, no swap.
  State opening(int p) const {
    State s = Rules::start(Position<W>::empty(g_), variant_);
    Game::play(s, p);
    if constexpr (kGonnect) s.pos.swap_available = false;
    else s.swap_available = false;
    return s;
  }

  // --- search and progress -------------------------------------------------

  void search() {
    if constexpr (kGonnect) {
      GonnectSearch::hazards = 0;
      GonnectSearch::merge_before_capture = !cfg_.strict_ghi;
    }
    replace_pending_ = cfg_.overwrite;
    if (cfg_.manager) return search_with_manager();
    runner_ = std::make_unique<JobRunner<Game, W>>(*tt_, cfg_.dfpn, cfg_.threads);
    runner_->set_progress(&nodes_);
    runner_->set_job_seconds(cfg_.class_limit);
    ProgressReporter reporter([this] { return progress_line(); }, !cfg_.quiet);
    runner_->run(jobs_, &stop_requested(), [this](const JobResult& r) { class_ended(r); });
  }

  std::string progress_line() const {
    const double secs = elapsed();
    std::ostringstream s;
    s << "[" << nxn(n_) << " " << std::fixed << std::setprecision(0) << secs << "s] " << proven_.load() << "/"
      << classes_.size() << " classes proven";
    for (const JobStatus& js : runner_->status()) {
      const auto f = tt_->probe(Game::key(jobs_[js.job], cfg_.dfpn.symmetry));
      s << " | " << point_name(n_, todo_[js.job]) << " pn " << number(f.pn) << " dn " << number(f.dn);
      if (js.searches > 1) s << " x" << js.searches;
    }
    s << " | nodes " << human_count(double(nodes_.load())) << " ("
      << human_count(nodes_.load() / std::max(secs, 1e-9)) << "/s) | table " << std::setprecision(0)
      << tt_->fill() * 100 << "% of " << human_bytes(double(tt_->bytes())) << " | mem "
      << human_bytes(double(resident_bytes()));
    return s.str();
  }

  // --- the job manager (docs/JOBS.md) ---------------------------------------

  bool cluster() const { return cfg_.mpi && cfg_.mpi->active() && cfg_.mpi->size() > 1; }

  // What every rank must agree on, or rank 0 refuses the worker: the game,
  // the keying and the search's options.
  std::string mpi_setup() const {
    std::ostringstream s;
    s << store_identity().game << " symmetry " << cfg_.dfpn.symmetry << " eval " << cfg_.dfpn.evaluate
      << " simulation " << cfg_.dfpn.simulation << " must-play " << cfg_.dfpn.must_play << " depth "
      << cfg_.dfpn.must_play_depth;
    return s.str();
  }

  // A rank other than 0: its own table and threads, jobs from rank 0 until
  // it says the run is over (solver/jobs/mpi_worker.h).
  int run_worker() {
    if constexpr (kGonnect) GonnectSearch::merge_before_capture = !cfg_.strict_ghi;
    results_.game = Rules::name;  // store_identity() reads these
    if constexpr (kGonnect) {
      results_.ko_rule = ko_rule_name(variant_.ko);
      results_.edges = edge_rule_name(variant_.edges);
      results_.ghi = ghi_name();
    }
    classes_ = opening_classes(g_);
    for (int rep : classes_) todo_.push_back(rep), jobs_.push_back(opening(rep));
    tt_ = std::make_unique<TranspositionTable>(cfg_.tt_mb);
    return run_mpi_worker<Game, W>(*channel_, *tt_, cfg_.dfpn, cfg_.threads, root_of(), mpi_setup());
  }

  std::function<const State&(int)> root_of() const {
    return [this](int rep) -> const State& {
      for (size_t i = 0; i < todo_.size(); ++i)
        if (todo_[i] == rep) return jobs_[i];
      throw std::invalid_argument("a job for a class this solve does not search");
    };
  }

  // What a checkpoint and a store belong to: this game, size, rules and keying.
  Checkpoint checkpoint_identity() const {
    Checkpoint c;
    c.game = Rules::name;
    c.size = n_;
    if constexpr (kGonnect)
      c.variant = "ko " + results_.ko_rule + ", edges " + results_.edges + ", ghi " + results_.ghi;
    c.symmetry = cfg_.dfpn.symmetry;
    c.job_nodes = cfg_.job_nodes;
    return c;
  }

  // Before the table takes its memory: the lock, and with --resume the
  // trees to carry on from. A checkpoint left by an unfinished solve is
  // not started over without --overwrite.
  void load_checkpoint() {
    lock_ = std::make_unique<CheckpointLock>(cfg_.checkpoint);
    if (!std::filesystem::exists(cfg_.checkpoint)) return;
    if (!cfg_.resume && !cfg_.overwrite)
      throw UsageError(cfg_.checkpoint +
                       " holds the checkpoint of an unfinished solve; add --resume to carry on from it, "
                       "--overwrite to start over, or give another --checkpoint");
    if (!cfg_.resume) return;
    saved_ = read_checkpoint(cfg_.checkpoint);
    const Checkpoint id = checkpoint_identity();
    if (saved_->game != id.game || saved_->size != id.size || saved_->variant != id.variant ||
        saved_->symmetry != id.symmetry)
      throw UsageError(cfg_.checkpoint + " is a checkpoint of " + saved_->game + " " + nxn(saved_->size) +
                       (saved_->variant.empty() ? "" : " (" + saved_->variant + ")") +
                       (saved_->symmetry ? "" : " without symmetry") + ", not of this solve");
    if (!cfg_.quiet) {
      uint64_t nodes = 0;
      for (const CheckpointClass& c : saved_->classes) nodes += c.nodes_list.size();
      std::cerr << "resuming the job trees of " << saved_->classes.size() << " class"
                << (saved_->classes.size() == 1 ? "" : "es") << " (" << nodes << " tree nodes) from "
                << cfg_.checkpoint << "\n";
    }
  }

  // A kill -9 between saving the results and replacing the checkpoint
  // leaves a checkpoint older than the results: the classes the results
  // hold proven are no longer carried (nor kept in the checkpoint for ever).
  void drop_proven_from_checkpoint() {
    if (!saved_) return;
    auto& cs = saved_->classes;
    cs.erase(std::remove_if(cs.begin(), cs.end(),
                            [&](const CheckpointClass& c) { return results_.openings[c.opening].solved; }),
             cs.end());
  }

  StoreIdentity store_identity() const {
    const Checkpoint c = checkpoint_identity();
    StoreIdentity id;
    id.game = c.game + " " + nxn(n_) + (c.variant.empty() ? "" : " " + c.variant);
    id.symmetry = cfg_.dfpn.symmetry;
    // The key of a fixed position: a store keyed by other Zobrist numbers
    // (another program version) is refused rather than misread.
    id.key_check = Game::key(opening(0), cfg_.dfpn.symmetry);
    return id;
  }

  // The classes as one tree each over jobs in a pool of threads on the
  // shared table (or MPI ranks), the trees written to the checkpoint every
  // few minutes and at the end.
  void search_with_manager() {
    if (!cfg_.store.empty())
      store_ = std::make_unique<ProvenStore>(cfg_.store, store_identity(), cfg_.store_mb);
    const DfpnOptions opt = store_options();
    const auto root_of = this->root_of();
    if (cluster()) {
      if (!cfg_.quiet) std::cerr << "waiting for " << cfg_.mpi->size() - 1 << " worker ranks\n";
      pool_ = std::make_unique<MpiPool>(*channel_, mpi_setup());
    } else {
      pool_ = std::make_unique<LocalPool<Game, W>>(*tt_, opt, cfg_.threads, root_of);
    }
    ManagerOptions mo;
    mo.job_nodes = cfg_.job_nodes;
    mo.checkpoint_every = cfg_.checkpoint_every;
    // A job's round trip: microseconds to a thread of this process, about a
    // millisecond to another rank (measured: on a 5x5 test with threshold-
    // bounded jobs of ~100 nodes, 2 worker ranks took 133 s where threads
    // took 7 s). Jobs search at least ~50 ms over MPI, 2 ms here.
    mo.min_job_nodes = cluster() ? 50'000 : 2'000;
    mo.symmetry = cfg_.dfpn.symmetry;
    manager_ = std::make_unique<JobManager<Game, W>>(*pool_, tt_.get(), store_.get(), mo, root_of,
                                                     checkpoint_identity());
    keep_pieces();
    for (int rep : todo_) {
      const CheckpointClass* from = nullptr;
      if (saved_)
        for (const CheckpointClass& c : saved_->classes)
          if (c.opening == rep) from = &c;
      if (from) resumed_.insert(rep);
      std::optional<CheckpointClass> begun;
      if constexpr (!kGonnect)
        if (from && !from->nodes_list.empty() && from->nodes_list[0].value == CheckpointNode::Value::Open &&
            parts_begun(rep)) {
          // An earlier run proved its root (parts are written only then)
          // and handed the parts left to the manager, or stopped before its
          // checkpoints kept a proven root: the tree searches them on,
          // the replies whose parts are written settled.
          int left = 0;
          std::vector<std::pair<Move, Move>> reopened;  // each reply, and the move that won it (or -1)
          from = &(begun = with_parts_settled(*from, rep, &left, &reopened)).value();
          handed_over_.insert(rep);
          if (!cfg_.quiet) {
            std::cerr << point_name(n_, rep)
                      << ": an earlier run proved its root and began its proof in parts ("
                      << class_parts_folder(rep) << "); the job manager searches the " << left
                      << (left == 1 ? " reply" : " replies") << " left";
            if (!reopened.empty()) {
              std::cerr << " (";
              for (size_t i = 0; i < reopened.size(); ++i)
                std::cerr << (i ? ", " : "") << move_name(n_, reopened[i].first);
              const std::string first = replies_and_moves(reopened);
              std::cerr << (reopened.size() == 1 ? ", which its tree had proven, is"
                                                 : ", which its tree had proven, are")
                        << " searched again, since the table that proved "
                        << (reopened.size() == 1 ? "it" : "them") << " is gone";
              if (!first.empty()) std::cerr << "; the move that won before is searched first: " << first;
              std::cerr << ")";
            }
            std::cerr << "\n";
          }
        }
      try {
        manager_->add_class(rep, from);
      } catch (const std::exception& e) { throw std::runtime_error(cfg_.checkpoint + ": " + e.what()); }
      // Its root is known lost for its mover: the parts go easiest first.
      if (handed_over_.count(rep)) manager_->easiest_replies_first(rep);
    }
    add_hints();
    add_easiest_first();
    ProgressReporter reporter([this] { return manager_progress_line(); }, !cfg_.quiet);
    try {
      for (bool again = true; again;) {
        again = false;
        try {
          manager_->run(
              &stop_requested(),
              [this](int rep, bool mover_wins, const ClassTotals& t) {
                class_proven_by_manager(rep, mover_wins, t);
              },
              [this](const Checkpoint& c) { write_manager_checkpoint(c); });
        } catch (const PartsToManager& left) {
          if constexpr (!kGonnect) {  // (only Konobi writes proofs in parts)
            // The class's tree again, its covered replies settled: the jobs
            // go on with the parts left, kept in the checkpoints, each from
            // the move that won it when the tree that proved the root (or
            // the checkpoint it left) names one.
            CheckpointClass reopened;
            reopened.opening = left.rep;
            reopened.nodes_list.assign(1, CheckpointNode{});
            reopened.nodes_list[0].expanded = true;
            for (const auto& [reply, move] : manager_->replies_won(left.rep)) {
              CheckpointNode won;
              won.path = {reply};
              won.value = CheckpointNode::Value::MoverWins;
              won.best = move;
              reopened.nodes_list.push_back(won);
            }
            std::vector<std::pair<Move, Move>> hinted;
            manager_->reopen(left.rep, with_parts_settled(reopened, left.rep, nullptr, &hinted));
            manager_->easiest_replies_first(left.rep);
            add_hints(left.rep);
            handed_over_.insert(left.rep);
            {
              std::lock_guard lock(proof_status_mutex_);
              proof_status_.reset();
            }
            if (!cfg_.quiet) {
              std::cerr << point_name(n_, left.rep) << ": " << left.parts
                        << " parts of its proof are left past the rounds on the table (up to "
                        << human_count(double(cfg_.part_budget_max))
                        << " nodes a part); the job manager searches them, its tree kept in the checkpoint";
              const std::string first = replies_and_moves(hinted);
              if (!first.empty())
                std::cerr << "; the moves that won them before are searched first: " << first;
              std::cerr << "\n";
            }
          }
          again = true;
        }
      }
    } catch (const ProofCutShort& cut) {
      // No last checkpoint is needed: the one written when the class's
      // root fell keeps the class as its proven root, and the manager's
      // thread, busy with the proof, has written none since.
      std::cerr << "stopped while building the proof of " << point_name(n_, cut.rep) << ": "
                << (cut.one_file ? std::string("a proof in one file keeps nothing of a build cut short")
                    : kGonnect
                        ? "the replies' pieces built so far are in " + PieceFiles::folder_for(cfg_.checkpoint)
                        : "the parts written so far are in " + class_parts_folder(cut.rep))
                << "; the checkpoint holds the class's root proven, and --resume goes straight back to its "
                   "proof"
                << (cut.one_file ? "" : " and on from them") << "\n";
    }
    // The classes still open keep their effort and root numbers on record.
    const auto view = manager_->view();
    std::lock_guard lock(results_mutex_);
    for (const auto& c : view.classes)
      for (int p : opening_class_points(g_, c.opening)) {
        OpeningResult& o = results_.openings[p];
        o.nodes = c.totals.nodes;
        o.seconds = c.totals.seconds;
        o.pn = c.pn;
        o.dn = c.dn;
      }
  }

  // --hint: each on its class's tree, before the first job. A hint names
  // its class by the class's own point and its moves from that position.
  void add_hints(int only = -1) {
    for (const SolveHint& h : cfg_.hints) {
      if (only >= 0 && h.opening != only) continue;
      const std::string name = point_name(n_, h.opening) + ":" + format_path(h.path);
      if (!open_class_of_run("--hint " + name, h.opening, " and give the moves from its position")) continue;
      const auto r = manager_->add_hint(h.opening, h.path);
      const std::vector<Move> to(h.path.begin(), h.path.begin() + std::ptrdiff_t(r.depth));
      const std::string at = to.empty() ? "the class's root" : "the position after " + format_path(to);
      using R = typename JobManager<Game, W>::HintResult;
      if (r.kind == R::NotAMove)
        throw UsageError(
            "--hint " + name + ": " + move_name(n_, h.path[r.depth]) + " is not a move the search makes at " +
            at + " (illegal there, or left out as losing at once, or the same as another by symmetry)");
      if (r.kind == R::Proven || r.kind == R::Refuted) {
        if (!cfg_.quiet)
          std::cerr << "note: --hint " << name << " is passed over: "
                    << (r.kind == R::Proven ? at + " is proven already"
                                            : move_name(n_, h.path.back()) + " is proven to lose at " + at)
                    << "\n";
        continue;
      }
      if (!cfg_.quiet) std::cerr << "hint: " << name << " is searched first while it is open\n";
    }
  }
  // A class that an option ordering the jobs names (`what`, such as
  // "--hint b2:c3"): it must be named by its own point and be searched in
  // this run; false, with a note, when it is proven already.
  bool open_class_of_run(const std::string& what, int p, const std::string& rename_more = "") const {
    if (opening_representative(g_, p) != p)
      throw UsageError(what + ": " + point_name(n_, p) + " is in the class of " +
                       point_name(n_, opening_representative(g_, p)) + "; name the class by that point" +
                       rename_more);
    if (results_.openings[p].solved) {
      if (!cfg_.quiet) std::cerr << "note: " << what << " is passed over: its class is proven\n";
      return false;
    }
    if (std::find(todo_.begin(), todo_.end(), p) == todo_.end())
      throw UsageError(what + ": the class " + point_name(n_, p) +
                       " is not searched in this run (see --openings)");
    return true;
  }

  // --easiest-first: each class checked as above, then set on its tree.
  void add_easiest_first() {
    for (const int p : cfg_.easiest_first) {
      const std::string name = point_name(n_, p);
      if (!open_class_of_run("--easiest-first " + name, p)) continue;
      manager_->easiest_replies_first(p);
      if (!cfg_.quiet)
        std::cerr << "easiest first: " << name
                  << "'s jobs take its open replies nearest to refutation first\n";
    }
  }

  // "c6 f4, d6 e5": the replies that have a move (the move that won them).
  std::string replies_and_moves(const std::vector<std::pair<Move, Move>>& list) const {
    std::string s;
    for (const auto& [reply, move] : list)
      if (move >= 0) s += (s.empty() ? "" : ", ") + move_name(n_, reply) + " " + move_name(n_, move);
    return s;
  }
  std::string format_path(const std::vector<Move>& path) const {
    std::string s;
    for (Move m : path) s += (s.empty() ? "" : ",") + move_name(n_, m);
    return s;
  }

  // With --proof, each node the manager proves gets its proof piece at
  // once, from the table that just proved it, and the pieces go to disk
  // with each checkpoint (solver/jobs/piece_files.h): a class's proof is
  // then assembled from them at its end, however many runs it took, where
  // the table of the last run alone would have to prove again every
  // subtree that earlier runs proved. Under MPI the jobs' tables are on
  // the workers, so rank 0 keeps no pieces.
  //
  // The pieces' positions also go into the table as proven (table_seed.h):
  // the open nodes of a class reach many of them again by other move
  // orders, and a run would otherwise search them again on its empty table.
  void keep_pieces() {
    if (!pieces_) return;
    size_t loaded = 0;
    std::atomic<size_t> seeded{0};
    // Called by the load on several threads at once (the table's buckets
    // have their own locks).
    std::function<void(const std::string&)> seed;
    if constexpr (!kGonnect)
      if (cfg_.seed_table)
        seed = [&](const std::string& line) {
          if (seed_proven_line(*tt_, g_, line, cfg_.dfpn.symmetry))
            seeded.fetch_add(1, std::memory_order_relaxed);
        };
    const auto t0 = std::chrono::steady_clock::now();
    bool whole = true;
    // A Ctrl-C while they are read (minutes for 6x6 b3) stops the reading,
    // and the run then stops with its save as it would in a search. A
    // proof built from fewer pieces is still whole: a node without its
    // piece is proven again (build_piece, "Proof pieces" in docs/JOBS.md).
    // In an arena of the run's --threads, as its search is.
    oneapi::tbb::task_arena arena(cfg_.threads);
    arena.execute([&] {
      for (int rep : todo_) {
        whole = whole && pieces_->load(point_name(n_, rep), seed, &stop_requested());
        loaded += pieces_->pieces(point_name(n_, rep)).size();
      }
    });
    piece_entries_ = loaded;
    if (!whole && !cfg_.quiet)
      std::cerr << "reading the proof pieces was cut short by the stop after " << loaded
                << " entries; they all stay on disk for the next run\n";
    else if (loaded && !cfg_.quiet) {
      std::cerr << "read " << loaded << " proof piece entries from "
                << PieceFiles::folder_for(cfg_.checkpoint);
      if (seeded.load())
        std::cerr << "; " << seeded.load()
                  << " positions written into the table as proven (reading and writing took "
                  << human_duration(
                         std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count())
                  << ")";
      std::cerr << "\n";
    }
    manager_->on_node_proven([this](int rep, const std::vector<Move>& path, bool mover_wins) {
      build_piece(rep, path, mover_wins);
    });
  }

  // Before anything is searched: the pieces' folder, without the pieces of
  // classes the results hold proven (a stop between a class's proof and
  // their removal leaves them; nothing needs them now).
  void open_pieces() {
    if (!cfg_.manager || cfg_.proof_dir.empty() || !cfg_.proof_pieces || cluster()) return;
    const Checkpoint id = checkpoint_identity();
    pieces_ =
        std::make_unique<PieceFiles>(PieceFiles::folder_for(cfg_.checkpoint),
                                     id.game + " " + nxn(n_) + (id.variant.empty() ? "" : " " + id.variant));
    for (int rep : classes_)
      if (results_.openings[rep].solved) pieces_->remove(point_name(n_, rep));
  }

  // During the run a piece may search at most one job's budget to prove
  // again what the table lost: the manager's thread builds it while the
  // jobs wait for it. A dearer one (a node proven through children that
  // an earlier run proved) is left to the class's end, where the replies'
  // pieces are built without a limit and kept as they come.
  //
  // A class handed back to the manager (proof_in_parts) has its root proven
  // already, lost by its mover: its proof is the opener's strategy alone,
  // so the nodes its tree proves for the other side (the opener's moves
  // refuted) get no piece. On 6x6 c3 every piece built after the hand-over
  // had been of that kind, 3.1 M entries that no part reads. A reply it
  // proves for the opener is a part of that proof, written at once
  // (write_reply_parts) rather than as a piece.
  void build_piece(int rep, const std::vector<Move>& path, bool mover_wins) {
    const State root = root_of()(rep);
    const State pos = job_leaf<Game, W>(root, path);
    const Color mover = Game::board(pos).to_move;
    const Color winner = mover_wins ? mover : other(mover);
    if (handed_over_.count(rep)) {
      if (winner == Game::board(root).to_move) return;
      if constexpr (!kGonnect)
        if (path.size() == 1 && write_reply_parts(rep, root, path[0], winner)) return;
    }
    try {
      add_piece(rep, pos, winner, path, cfg_.job_nodes);
    } catch (const SearchLimitReached&) { ++pieces_left_; } catch (const std::exception& e) {
      // A piece only saves work later: without it the class's proof is
      // built as before. Say so once.
      if (!piece_warned_ && !cfg_.quiet)
        std::cerr << "a proof piece of " << point_name(n_, rep) << " was not built (" << e.what()
                  << "); the class's proof will search for it\n";
      piece_warned_ = true;
    }
  }

  // In a class handed back to the manager, the parts of a reply its tree
  // has just proven for the class's winner, and of the replies that the
  // root's symmetry makes the same position: built now, from the table
  // that proved it and the pieces, with no budget (the manager's jobs wait
  // meanwhile). At the class's end, perhaps runs later, the table would
  // have lost the reply and its part would be proven again: on 6x6 c3 the
  // tree proved c4, whose piece did not fit a job's budget, and a part
  // for c4 had failed a round of 1.07 G nodes before. A first Ctrl-C lets
  // the part finish (it polls stop_at_once(): on c3 a part took 4 minutes,
  // and one cut short costs the reply's proof again at the next resume),
  // the progress line saying so. False when a part was not written.
  bool write_reply_parts(int rep, const State& root, Move reply, Color winner) {
    const uint64_t key = Game::child_key(root, reply, cfg_.dfpn.symmetry);
    const std::string point = point_name(n_, rep);
    bool whole = true;
    Rules::placements(root).for_each([&](int m) {
      if (!whole || Game::child_key(root, m, cfg_.dfpn.symmetry) != key) return;
      const State child = Game::child(root, Move(m));
      const std::string path = class_part_path(rep, Move(m));
      if (whole_part(path, child, winner)) return;
      BuildProgress progress;
      const ProofStatusLine status(*this,
                                   "building the proof of " + point + ": part " + move_name(n_, Move(m)) +
                                       ", which the job manager's tree proved",
                                   false, true, &progress);
      uint64_t rebuilt = 0;
      try {
        const size_t count = write_part(child, winner, rep, path, &rebuilt, &stop_at_once(), &progress);
        if (!cfg_.quiet)
          std::cerr << "proof of " << point << ": part " << move_name(n_, Move(m))
                    << " written as the job manager's tree proved it (" << count << " entries, " << rebuilt
                    << " nodes to prove again what the table lost)\n";
      } catch (const ProofCutShort&) {
        whole = false;
      } catch (const std::exception& e) {  // as a piece would be: the class's end tries again
        std::cerr << "the part " << move_name(n_, Move(m)) << " of " << point << "'s proof was not written ("
                  << e.what() << "); the class's end will build it\n";
        whole = false;
      }
    });
    return whole;
  }

  // A builder that met wrong claims of the table (a false hit, or a proof
  // resting on one) repaired them and proved its start again
  // (ProofBuilder::repair): said always, since the search that proved the
  // class read the same table, and its value rests on verify-proof.
  static void say_repairs(const ProofBuilder<W, Game>& b, const std::string& what) {
    if (!b.repairs()) return;
    std::cerr << "note: " << what << ": " << b.repairs() << (b.repairs() == 1 ? " claim" : " claims")
              << " of the table found wrong and repaired, the first where " << b.repair_log().front() << "\n";
  }

  // Adds to class rep's pieces what they lack of the proof that `winner`
  // wins pos, reached from the class root by `path`; returns the nodes
  // searched to prove again what the table had lost.
  uint64_t add_piece(int rep, const State& pos, Color winner, const std::vector<Move>& path,
                     uint64_t search_limit = 0, const std::atomic<bool>* stop = nullptr) {
    const std::string point = point_name(n_, rep);
    const KeySetPool::Lease visited(key_sets_);
    ProofBuilder<W, Game> builder(*tt_, store_options(), visited.get());
    builder.use_pieces(&pieces_->pieces(point), true);
    builder.set_search_limit(search_limit);
    builder.set_stop(stop);
    builder.set_threads(proof_threads());
    Proof piece;
    if constexpr (kGonnect) {
      std::vector<Move> game{Move(rep)};
      game.insert(game.end(), path.begin(), path.end());
      piece = builder.build(pos, winner, game);
    } else {
      piece = builder.build(pos, winner);
    }
    say_repairs(builder, "a proof piece of " + point);
    piece_entries_ += pieces_->add(point, piece.entries);
    return builder.searched();
  }

  // Ctrl-C while build_reply_pieces works: what it built is on disk. Or
  // while a class's proof is built as one file: nothing of it is kept.
  struct ProofCutShort {
    int rep;
    bool one_file = false;
  };
  // proof_in_parts: parts are left after the round at part_budget_max.
  struct PartsToManager {
    int rep;
    size_t parts;  // left
  };

  // Gonnect (Konobi writes such a proof in parts: proof_in_parts).
  // A class root lost by its mover (White) needs the proof of every reply.
  // Where earlier runs proved replies whose pieces were never written, each
  // may take long to prove again: build them one by one, each kept on disk
  // once a minute has passed since the last write, so that a stop in the
  // middle (kill -9 included: the class is not recorded proven until its
  // proof is written, and the checkpoint still holds its tree) loses at
  // most a minute of this. Ctrl-C stops it between two replies, with what
  // it built written.
  uint64_t build_reply_pieces(const State& root, Color winner, int rep) {
    uint64_t searched = 0;
    const auto t0 = std::chrono::steady_clock::now();
    auto last = t0;
    const Bitboard<W> replies = Rules::placements(root);
    const int total = replies.count();
    int done = 0;
    replies.for_each([&](int m) {
      try {
        if (stop_requested().load()) throw BuildStopped{};
        searched += add_piece(rep, Game::child(root, Move(m)), winner, {Move(m)}, 0, &stop_requested());
      } catch (const BuildStopped&) {
        pieces_->flush();
        throw ProofCutShort{rep};
      }
      ++done;
      const auto now = std::chrono::steady_clock::now();
      if (std::chrono::duration<double>(now - last).count() >= 60) {
        pieces_->flush();
        last = now;
        if (!cfg_.quiet)
          std::cerr << "proof of " << point_name(n_, rep) << ": " << done << " of " << total
                    << " replies' pieces built (" << std::fixed << std::setprecision(0)
                    << std::chrono::duration<double>(now - t0).count() << " s, " << searched
                    << " nodes to prove again what the table lost)\n";
      }
    });
    return searched;
  }

  void class_proven_by_manager(int rep, bool mover_wins, const ClassTotals& t) {
    JobResult r;
    for (size_t i = 0; i < todo_.size(); ++i)
      if (todo_[i] == rep) r.job = int(i);
    r.end = JobEnd::Proven;
    r.mover_wins = mover_wins;
    r.nodes = t.nodes;
    r.seconds = t.seconds;
    record_proven(r);
  }

  // The checkpoint: the trees of this run's open classes, and those of the
  // loaded checkpoint that this run did not search (--openings). With none
  // left, the file goes: nothing is left to carry on.
  void write_manager_checkpoint(Checkpoint c) {
    if (saved_)
      for (const CheckpointClass& old : saved_->classes)
        if (std::find(todo_.begin(), todo_.end(), old.opening) == todo_.end()) c.classes.push_back(old);
    if (store_) store_->flush();
    if (pieces_) pieces_->flush();
    if (c.classes.empty()) {
      std::error_code ec;
      std::filesystem::remove(cfg_.checkpoint, ec);
      return;
    }
    write_checkpoint(cfg_.checkpoint, c);
  }

  std::string manager_progress_line() const {
    const double secs = elapsed();
    std::ostringstream s;
    s << "[" << nxn(n_) << " " << std::fixed << std::setprecision(0) << secs << "s] " << proven_.load() << "/"
      << classes_.size() << " classes proven | ";
    {
      // At a class's end the manager's numbers stand still (its search
      // waits for the proof), and a fitted estimate of them would mislead.
      std::lock_guard lock(proof_status_mutex_);
      if (proof_status_) {
        const double for_secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - proof_status_->since).count();
        s << proof_status_->what << ", for " << for_secs << " s";
        if (proof_status_->searching) {
          const double nodes = double(proof_nodes_.load());
          s << ", " << human_count(nodes) << " nodes (" << human_count(nodes / std::max(for_secs, 1e-9))
            << "/s)";
        }
        if (const BuildProgress* b = proof_status_->build) {
          s << ": " << human_count(double(b->entries.load())) << " entries, "
            << human_count(double(b->searched.load())) << " nodes proven again";
          if (const uint64_t r = b->repairs.load())
            s << ", " << r << (r == 1 ? " claim" : " claims") << " repaired";
        }
        if (proof_status_->finishes && stop_requested().load() && !stop_at_once().load())
          s << "; stopping once it is written (Ctrl-C again stops now, and the reply is proven again next "
               "run)";
        s << " | mem " << human_bytes(double(resident_bytes()));
        return s.str();
      }
    }
    const auto v = manager_->view();
    s << "jobs " << v.jobs_done << " (" << std::setprecision(1) << v.jobs_done / std::max(secs / 60, 1e-9)
      << "/min), " << v.in_flight << "/" << v.slots << " running";
    const bool sample = secs - last_trend_sample_ >= 30;
    if (sample) last_trend_sample_ = secs;
    for (const auto& c : v.classes) {
      s << " | " << point_name(n_, c.opening) << " pn " << number(c.pn) << " dn " << number(c.dn) << ", tree "
        << c.tree_nodes << ", replies " << c.replies_settled << "/" << c.replies;
      for (size_t i = 0; i < c.open_replies.size(); ++i)
        s << (i ? " + " : " (dn = ") << move_name(n_, c.open_replies[i].first) << " "
          << number(c.open_replies[i].second) << (i + 1 == c.open_replies.size() ? ")" : "");
      // The sooner of the two numbers' fitted falls to zero, when either falls.
      auto& [pn_fall, dn_fall] = trends_[c.opening];
      if (sample) pn_fall.add(secs, c.pn), dn_fall.add(secs, c.dn);
      std::optional<double> left = pn_fall.seconds_left();
      if (const auto d = dn_fall.seconds_left(); d && (!left || *d < *left)) left = d;
      if (left) s << ", ~" << human_duration(*left) << " at this rate";
    }
    const uint64_t nodes = pool_->nodes();
    s << " | nodes " << human_count(double(nodes)) << " (" << human_count(nodes / std::max(secs, 1e-9))
      << "/s) | table " << std::setprecision(0) << tt_->fill() * 100 << "% of "
      << human_bytes(double(tt_->bytes()));
    if (store_) {
      const auto st = store_->stats();
      s << " | store " << human_count(double(st.entries)) << " (" << human_bytes(double(st.bytes)) << ", "
        << (st.finds ? 100 * st.hits / st.finds : 0) << "% hits)";
    }
    if (pieces_)
      s << " | proof pieces " << human_count(double(piece_entries_.load())) << " (" << pieces_left_.load()
        << " left)";
    s << " | mem " << human_bytes(double(resident_bytes()));
    return s.str();
  }

  // --- a class ended ---------------------------------------------------------

  // May run on two threads at once (two classes ending together): the
  // results, the counts and the file change under results_mutex_, and only
  // briefly, while proofs are extracted outside it.
  void class_ended(const JobResult& r) {
    if (r.end == JobEnd::Proven) record_proven(r);
    else record_unproven(r);
  }

  // Given up (--class-limit) or interrupted: the effort is kept on record.
  void record_unproven(const JobResult& r) {
    const int rep = todo_[r.job];
    // Every search on the class has left, so its root entry holds the
    // numbers it stopped at (unless a tiny table lost it).
    const auto f = tt_->probe(Game::key(jobs_[r.job], cfg_.dfpn.symmetry));
    std::lock_guard lock(results_mutex_);
    exact_nodes_ += r.nodes;  // given-up and interrupted searches count too
    for (int p : opening_class_points(g_, rep)) {
      OpeningResult& o = results_.openings[p];
      o.nodes += r.nodes;
      o.seconds += r.seconds;
      o.pn = f.hit ? f.pn : 0;
      o.dn = f.hit ? f.dn : 0;
    }
    if (r.end == JobEnd::GaveUp) {
      ++skipped_;
      std::cerr << "gave up on " << point_name(n_, rep) << " after " << std::fixed << std::setprecision(0)
                << r.seconds << " s (--class-limit); it stays unproven\n";
    }
  }

  // Runs on the thread that ended the class, while the other threads search
  // on: the principal variation and the proof come from the shared table.
  void record_proven(const JobResult& r) {
    const int rep = todo_[r.job];
    const Color winner = r.mover_wins ? White : Black;
    const std::vector<Move> pv =
        game_principal_variation<Game, W>(jobs_[r.job], *tt_, cfg_.dfpn.symmetry, 4 * g_.cells);
    const auto t_proof = std::chrono::steady_clock::now();
    uint64_t searched = 0;
    const uint64_t proof_size = extract_proof(jobs_[r.job], winner, rep, &searched);
    const double proof_secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t_proof).count();
    std::lock_guard lock(results_mutex_);
    exact_nodes_ += r.nodes;
    // Every point of the class, with moves mapped by the symmetry that takes
    // rep to it (not always its own inverse: a quarter turn is a transpose
    // after a mirror). It keeps the colours, so the line keeps its players.
    for (int p : opening_class_points(g_, rep)) {
      const int s = opening_symmetry_between(g_, rep, p);
      OpeningResult& o = results_.openings[p];
      o.solved = true;
      o.winner = winner == Black ? "black" : "white";
      o.continuation.clear();
      for (Move m : pv) o.continuation.push_back(move_name(n_, symmetric_move(g_, s, m)));
      o.nodes = r.nodes;
      o.proof_size = proof_size;
      o.seconds = r.seconds;
    }
    ++proven_;
    save();
    if (!cfg_.quiet)
      std::cerr << "proved " << point_name(n_, rep) << ": " << color_name(winner) << " wins (" << r.nodes
                << " nodes, " << std::fixed << std::setprecision(2) << r.seconds << " s; proof " << proof_size
                << " positions, " << proof_secs << " s"
                << (searched ? ", " + std::to_string(searched) + (searched == 1 ? " node" : " nodes") +
                                   " to prove again what the table lost"
                             : "")
                << ")\n";
  }

  // Threads for the searches of proofs and proof pieces. The job manager
  // builds them on its own thread and starts no job until it is done, so
  // its threads would sit idle: a proof's re-proofs take them all. The
  // plain search ends a class on one of its threads while the others
  // search on, so its proofs keep to that one.
  int proof_threads() const { return manager_ ? cfg_.threads : 1; }

  // The proof's size, and with --proof its file (`.proof.xz`, docs/PROOFS.md).
  uint64_t extract_proof(const State& pos, Color winner, int rep, uint64_t* searched) {
    uint64_t searched_for_pieces = 0;
    // Only for a class carried over from an earlier run: within one run
    // the table holds most of what the proof needs, and the walk of the
    // replies' pieces would only double the proof's walk (9% of a 5x5
    // manager solve with proofs).
    if (pieces_ && resumed_.count(rep)) {
      if constexpr (!kGonnect)
        if (!cfg_.proof_dir.empty()) {
          if (Game::board(pos).to_move != winner) return proof_in_parts(pos, winner, rep, searched);
          if (const std::optional<Move> m = winning_move_at(rep, pos))
            return proof_below_move(pos, winner, rep, *m, searched);
        }
      if (Game::board(pos).to_move != winner) searched_for_pieces = build_reply_pieces(pos, winner, rep);
    }
    const KeySetPool::Lease visited(key_sets_);
    ProofBuilder<W, Game> builder(*tt_, store_options(), visited.get());
    builder.set_threads(proof_threads());
    if (pieces_) builder.use_pieces(&pieces_->pieces(point_name(n_, rep)), false);
    // Under the manager a Ctrl-C ends the build (on 6x6 b3 it went on
    // for minutes, its re-proofs deaf to it); the checkpoint keeps the
    // root proven. The plain search's classes end on its worker threads,
    // which would not catch the cut, so its proofs run to their end.
    if (manager_) builder.set_stop(&stop_requested());
    BuildProgress progress;
    builder.set_progress(&progress);
    // The manager's numbers stand still meanwhile: on 6x6 c2 this took 29
    // minutes, with the root's last numbers and "~5 s" on the line.
    const ProofStatusLine status(*this,
                                 std::string(cfg_.proof_dir.empty() ? "measuring" : "building") +
                                     " the proof of " + point_name(n_, rep) + " (" + color_name(winner) +
                                     " wins)",
                                 false, false, &progress);
    uint64_t size = 0;
    if (cfg_.proof_dir.empty()) {
      try {
        size = builder.size(pos, winner);
      } catch (const BuildStopped&) { throw ProofCutShort{rep, true}; }
    } else {
      Proof proof;
      try {
        if constexpr (kGonnect) proof = builder.build(pos, winner, {rep});
        else proof = builder.build(pos, winner, KonobiProofFormat::Moves);
      } catch (const BuildStopped&) { throw ProofCutShort{rep, true}; }
      say_repairs(builder, "the proof of " + point_name(n_, rep));
      size = proof.entry_count();
      set_aside_disputed_parts(pos, rep, winner);
      write_file_atomically(class_proof_path(rep), compress_xz(proof.to_text()));
      std::error_code ec;  // parts of an earlier proof of this class, now stale
      std::filesystem::remove_all(class_parts_folder(rep), ec);
      drop_pieces(rep);
    }
    *searched = searched_for_pieces + builder.searched();
    return size;
  }

  // Parts are written only for a class whose mover loses, so parts on disk
  // and a new proof that the mover wins disagree: one of the two searches
  // (an earlier run's tree, or this one) is wrong. Neither is thrown away:
  // the parts and their index go to a `disputed` folder beside the proofs,
  // and the message says so, for verify-proof to settle.
  void set_aside_disputed_parts(const State& root, int rep, Color winner) {
    namespace fs = std::filesystem;
    const fs::path folder = class_parts_folder(rep);
    if (winner != Game::board(root).to_move || !fs::is_directory(folder)) return;
    size_t parts = 0;
    for (const auto& e : fs::directory_iterator(folder)) parts += e.path().string().ends_with(".proof.xz");
    if (parts == 0) return;  // only an earlier run's rounds: nothing proven
    fs::path aside = fs::path(cfg_.proof_dir) / "disputed";
    for (int i = 2; fs::exists(aside / folder.filename()); ++i)
      aside = fs::path(cfg_.proof_dir) / ("disputed-" + std::to_string(i));
    fs::create_directories(aside);
    fs::rename(folder, aside / folder.filename());
    const fs::path index = class_proof_path(rep);
    if (fs::exists(index)) fs::rename(index, aside / index.filename());
    const Color earlier = winner == Black ? White : Black;
    std::cerr << "warning: " << point_name(n_, rep) << ": this run proves " << color_name(winner)
              << " wins, but an earlier run proved " << color_name(earlier) << " wins and wrote " << parts
              << (parts == 1 ? " part" : " parts")
              << " of that proof: one of the two searches is wrong. The earlier parts and their index are "
                 "kept in "
              << aside.string() << "; the new proof goes to " << index.string()
              << ". Check both with konobi verify-proof before trusting either.\n";
  }

  // The class's proof file, and beside it the folder of a proof in parts
  // (konobi-6x6-c3.proof.xz, konobi-6x6-c3.parts/).
  std::string class_proof_path(int rep) const { return class_proof_stem(rep) + ".proof.xz"; }
  std::string class_parts_folder(int rep) const { return class_proof_stem(rep) + ".parts"; }
  std::string class_part_path(int rep, Move m) const { return class_parts_folder(rep) + "/" + part_file(m); }
  std::string part_file(Move reply) const { return move_name(n_, reply) + ".proof.xz"; }
  std::string class_proof_stem(int rep) const {
    return cfg_.proof_dir + "/" + Rules::name + "-" + nxn(n_) + "-" + point_name(n_, rep);
  }

  // Once the class's proof is written, it holds what its pieces held.
  void drop_pieces(int rep) {
    if (!pieces_) return;
    piece_entries_ -= pieces_->pieces(point_name(n_, rep)).size();
    pieces_->remove(point_name(n_, rep));
  }

  // The proof of a class carried over from earlier runs whose root its
  // mover loses, in parts (format 3, docs/PROOFS.md): one format-2 proof
  // per reply in `<class file>.parts/`, each written as soon as it is
  // built, then the class file naming them. Earlier runs proved the replies
  // with tables that are gone, so each is proven again here, which on 6x6
  // c3 takes hours and, as one proof, more memory than the machine has. In
  // parts, a stop (Ctrl-C, the memory guard, kill -9) loses only the part
  // in hand: the next run keeps every part on disk that is whole and builds
  // the rest; and the builder holds one reply's strategy at a time.
  //
  // The replies go in rounds, easiest first: each round proves every part
  // still missing within a node budget (kFirstPartBudget, four times more
  // each round) and builds those it proved, so that the parts a run can
  // finish are on disk before it spends hours on the hardest. Work a round
  // gives up on stays in the table for the next. The next round's budget
  // is kept in the folder (`rounds`, a line `budget N`), so that a run
  // carrying on after a stop starts where the last left off rather than
  // spending rounds again on parts that have failed them (on 6x6 c3 the
  // five parts left after three rounds: 1.75 G nodes, about 40 minutes).
  //
  // A part's search on the table is lost at a stop, and the hardest parts
  // need more than a run. So the rounds end at part_budget_max (268 M
  // nodes, about 10 minutes of two cores, unless told): the parts left then go
  // back to the job manager (PartsToManager), which opens the class's tree
  // again with the replies whose parts are written settled, and searches
  // the others by jobs, kept in every checkpoint and in proof pieces. When
  // the root falls again, the parts it proved are written from the table.
  // (On 6x6 c3 a round of 1.07 G took half an hour a part and did not
  // prove c1 or c4, where the manager's tree, given c4 afresh, proved it
  // in 8 and in 12 minutes: so the rounds stop a round earlier.)
  static constexpr uint64_t kFirstPartBudget = uint64_t(16) << 20;
  static constexpr uint64_t kMaxPartBudget = uint64_t(1) << 50;
  uint64_t proof_in_parts(const State& root, Color winner, int rep, uint64_t* searched) {
    const uint64_t entries = replies_in_parts(
        root, winner, rep, {class_proof_path(rep), class_parts_folder(rep), "", true}, searched);
    drop_pieces(rep);
    return entries;
  }

  // The proof of a class carried over from earlier runs whose root its
  // mover wins by m, in parts below that move (format 3 nested, docs/PROOFS.md):
  // the class file's one entry is m, naming `<class>.parts/<m>.proof.xz`,
  // itself a proof in parts over the loser's replies to m, one format-2
  // part each in `<class>.parts/<m>.parts/`. So, as for a root the mover
  // loses, a stop keeps every part written: on 6x6 b3 (White wins by c6)
  // a proof in one file built for two hours without finishing and kept
  // nothing. The rounds are proof_in_parts', without the hand-over to the
  // job manager, whose tree is the class root's and no longer searches.
  uint64_t proof_below_move(const State& root, Color winner, int rep, Move m, uint64_t* searched) {
    namespace fs = std::filesystem;
    const fs::path folder = class_parts_folder(rep);
    const std::string move = move_name(n_, m);
    const PartsPlace below{(folder / part_file(m)).string(), folder / (move + ".parts"), move + " ", false};
    if (!cfg_.quiet)
      std::cerr << "proof of " << point_name(n_, rep) << ": " << color_name(winner) << " wins by " << move
                << "; its proof is written in parts, one for each reply to " << move << " ("
                << below.folder.string() << ")\n";
    const uint64_t entries = replies_in_parts(Game::child(root, m), winner, rep, below, searched);
    Proof index = parts_index(root, winner);
    index.entries = {move + " " + folder.filename().string() + "/" + part_file(m)};
    // What an earlier run began below another move is not part of it.
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(folder, ec))
      if (e.path() != below.folder && e.path() != fs::path(below.file)) fs::remove_all(e.path(), ec);
    write_file_atomically(class_proof_path(rep), compress_xz(index.to_text()));
    drop_pieces(rep);
    return entries;
  }

  // The move by which class rep's mover wins its root, as the run knows it:
  // the checkpoint's root (a class proven by an earlier run keeps only
  // that), else a move whose position the table holds lost for its mover
  // (not the principal variation's first move, which without such a child
  // is the reply that cost the most). None when neither names one, or the
  // mover wins at once (its proof is the one file's, empty): the proof is
  // then one file.
  std::optional<Move> winning_move_at(int rep, const State& root) const {
    const Bitboard<W> legal = Rules::placements(root);
    if (Rules::winning(root, legal).any()) return std::nullopt;
    if (saved_)
      for (const CheckpointClass& c : saved_->classes)
        if (c.opening == rep && !c.nodes_list.empty() &&
            c.nodes_list[0].value == CheckpointNode::Value::MoverWins && c.nodes_list[0].best >= 0 &&
            legal.test(c.nodes_list[0].best))
          return c.nodes_list[0].best;
    std::optional<Move> won;
    legal.for_each([&](int m) {
      if (won) return;
      const auto f = tt_->probe(Game::child_key(root, m, cfg_.dfpn.symmetry));
      if (f.hit && f.dn == 0) won = Move(m);
    });
    return won;
  }

  // A format-3 index proving that `winner` wins `root`, without its entries.
  Proof parts_index(const State& root, Color winner) const {
    Proof index;
    index.format = "konobi-proof 3";
    index.fields = {{"size", std::to_string(n_)},
                    {"start", format_position(to_text(root))},
                    {"winner", winner == Black ? "black" : "white"}};
    return index;
  }

  // Where replies_in_parts writes: its index (format 3), the folder of its
  // parts beside it, the move that led there (for the messages: "c6 "),
  // and whether the parts the rounds leave go back to the job manager,
  // whose tree is the class's (so only for the class's own root).
  struct PartsPlace {
    std::string file;
    std::filesystem::path folder;
    std::string through;
    bool hand_over;
  };

  uint64_t replies_in_parts(const State& root, Color winner, int rep, const PartsPlace& at,
                            uint64_t* searched) {
    const std::string point = point_name(n_, rep), &file = at.file;
    const std::filesystem::path& folder = at.folder;
    const std::string folder_name = folder.filename().string();
    std::filesystem::create_directories(folder);
    std::vector<Move> replies;
    Rules::placements(root).for_each([&](int m) { replies.push_back(Move(m)); });
    if (replies.empty()) replies.push_back(kPass);
    Proof index = parts_index(root, winner);
    uint64_t entries = 0;
    int written = 0;
    std::vector<Move> missing;
    auto part_path = [&](Move m) { return (folder / part_file(m)).string(); };
    for (Move m : replies) {
      index.entries.push_back(move_name(n_, m) + " " + folder_name + "/" + part_file(m));
      if (const auto whole = whole_part(part_path(m), Game::child(root, m), winner)) {
        entries += *whole;
        ++written;
      } else {
        missing.push_back(m);
      }
    }
    const auto t0 = std::chrono::steady_clock::now();
    std::map<Move, uint64_t> proving;  // nodes each part's proof on the table took, over the rounds
    const std::string rounds = (folder / "rounds").string();
    for (uint64_t budget = first_part_budget(rounds, missing.size()); !missing.empty();) {
      const uint64_t next = std::min(budget * 4, kMaxPartBudget);
      // Past the rounds on the table, only the parts the table holds proven
      // (the job manager's, after a hand-over) are written here; the rest
      // go to the manager, once a run (a part that its tree proved and the
      // table then lost goes on in rounds).
      const bool table_only = at.hand_over && budget > cfg_.part_budget_max && !handed_over_.count(rep);
      std::vector<Move> open;
      for (Move m : missing) {
        if (stop_requested().load()) throw ProofCutShort{rep};
        const State child = Game::child(root, m);
        const std::string part = "part " + at.through + move_name(n_, m) + " (" +
                                 std::to_string(written + 1) + " of " + std::to_string(replies.size()) + ")";
        {
          const ProofStatusLine status(*this,
                                       table_only ? "looking up " + point + "'s " + part + " in the table"
                                                  : "proving " + point + "'s " + part + " within " +
                                                        human_count(double(budget)) + " nodes",
                                       !table_only);
          const uint64_t before = *searched;
          const bool proven = table_only ? held_proven(child, winner, rep)
                                         : prove_on_table(child, winner, budget, rep, searched);
          proving[m] += *searched - before;
          if (!proven) {
            open.push_back(m);
            continue;
          }
        }
        BuildProgress progress;
        const ProofStatusLine status(*this, "building the proof of " + point + ": " + part, false, false,
                                     &progress);
        uint64_t rebuilt = 0;
        const size_t count =
            write_part(child, winner, rep, part_path(m), &rebuilt, &stop_requested(), &progress);
        *searched += rebuilt;
        entries += count;
        ++written;
        if (!cfg_.quiet)
          std::cerr << "proof of " << point << ": part " << at.through << move_name(n_, m) << " written ("
                    << written << " of " << replies.size() << ", " << count << " entries; " << std::fixed
                    << std::setprecision(0)
                    << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()
                    << " s in all; " << proving[m] << " nodes to prove it, " << rebuilt
                    << " to prove again what the table lost)\n";
      }
      if (!open.empty() && table_only) {
        write_file_atomically(rounds, "budget " + std::to_string(budget) + "\n");
        throw PartsToManager{rep, open.size()};
      }
      if (!open.empty()) {
        if (!cfg_.quiet)
          std::cerr << "proof of " << point << ": " << open.size() << " part" << (open.size() == 1 ? "" : "s")
                    << " not proven within " << human_count(double(budget)) << " nodes; next round "
                    << human_count(double(next)) << "\n";
        write_file_atomically(rounds, "budget " + std::to_string(next) + "\n");
      }
      missing = std::move(open);
      if (!table_only) budget = next;
    }
    write_file_atomically(file, compress_xz(index.to_text()));
    std::error_code ec;
    std::filesystem::remove(rounds, ec);
    return entries;
  }

  // Builds the format-2 proof that `winner` wins `child` (proven on the
  // table) and writes it to `path`; its entries. *searched gets the nodes
  // proven again where the table had lost them, also when `stop` cuts the
  // build short (ProofCutShort, nothing written); `progress`, if given, follows the build.
  size_t write_part(const State& child, Color winner, int rep, const std::string& path, uint64_t* searched,
                    const std::atomic<bool>* stop = &stop_requested(), BuildProgress* progress = nullptr) {
    const KeySetPool::Lease visited(key_sets_);
    ProofBuilder<W, Game> builder(*tt_, store_options(), visited.get());
    builder.set_progress(progress);
    builder.set_threads(proof_threads());
    builder.use_pieces(&pieces_->pieces(point_name(n_, rep)), false);
    builder.set_stop(stop);
    struct Count {
      const ProofBuilder<W, Game>& b;
      uint64_t* total;
      ~Count() { *total += b.searched(); }
    } count{builder, searched};
    Proof proof;
    try {
      proof = builder.build(child, winner, KonobiProofFormat::Moves);
    } catch (const BuildStopped&) { throw ProofCutShort{rep}; }
    say_repairs(builder, "a part of the proof of " + point_name(n_, rep));
    write_file_atomically(path, compress_xz(proof.to_text()));
    return proof.entry_count();
  }

  // The searches' options, with the store: where the table forgot, the
  // store may still know.
  DfpnOptions store_options() const {
    DfpnOptions o = cfg_.dfpn;
    o.store = store_.get();
    return o;
  }

  // The first round's budget: the one an earlier run's `rounds` file names
  // when it is readable, kFirstPartBudget otherwise (a file that does not
  // read is said so and passed over: it only saves time).
  uint64_t first_part_budget(const std::string& rounds, size_t missing) const {
    if (!missing || !std::filesystem::exists(rounds)) return kFirstPartBudget;
    if (const std::optional<uint64_t> budget = rounds_budget(rounds)) {
      if (!cfg_.quiet)
        std::cerr << "the parts' rounds go on from an earlier run's: " << human_count(double(*budget))
                  << " nodes a part\n";
      return *budget;
    }
    std::cerr << rounds << " does not read as `budget N` (N from " << kFirstPartBudget << " to "
              << kMaxPartBudget << "); the rounds start from " << human_count(double(kFirstPartBudget))
              << " nodes\n";
    return kFirstPartBudget;
  }

  // The budget a rounds file names, if it is there and reads as `budget N`
  // with N from kFirstPartBudget to kMaxPartBudget.
  static std::optional<uint64_t> rounds_budget(const std::string& rounds) {
    try {
      if (!std::filesystem::exists(rounds)) return std::nullopt;
      const std::string text = read_file(rounds);
      const std::string_view prefix = "budget ";
      uint64_t budget = 0;
      const char* end = text.data() + text.size();
      const auto r = text.starts_with(prefix)
                         ? std::from_chars(text.data() + prefix.size(), end, budget)
                         : std::from_chars_result{text.data(), std::errc::invalid_argument};
      if (r.ec == std::errc() && std::string_view(r.ptr, end) == "\n" && budget >= kFirstPartBudget &&
          budget <= kMaxPartBudget)
        return budget;
    } catch (const std::exception&) {}
    return std::nullopt;
  }

  // Proves pos on the table with the proof threads, unless the table holds
  // it proven already: true once `winner` wins it, false when `budget`
  // nodes (0: no limit) ran out first. A stop throws ProofCutShort; a
  // position the other side wins throws, as a proof of it cannot be built.
  bool prove_on_table(const State& pos, Color winner, uint64_t budget, int rep, uint64_t* searched) {
    const bool mover_should_win = Game::board(pos).to_move == winner;
    const auto f = tt_->probe(Game::key(pos, cfg_.dfpn.symmetry));
    bool settled = f.hit && (f.pn == 0 || f.dn == 0), mover_wins = f.hit && f.pn == 0;
    if (!settled) {
      DfpnOptions o = store_options();
      if (budget) o.max_nodes = std::max<uint64_t>(1, budget / uint64_t(proof_threads()));
      proof_nodes_ = 0;  // for the progress line
      try {
        const SolveOutcome out =
            solve_game_position<Game, W>(pos, *tt_, o, proof_threads(), &stop_requested(), &proof_nodes_);
        *searched += out.nodes;
        mover_wins = out.mover_wins;
      } catch (const SearchStopped&) {
        *searched += proof_nodes_.load();
        if (stop_requested().load()) throw ProofCutShort{rep};
        return false;
      }
    }
    if (mover_wins != mover_should_win)
      throw std::runtime_error("the position " + format_position(to_text(pos)) + " is won by " +
                               color_name(other(winner)) + ", not by " + color_name(winner) +
                               " as the proof of " + point_name(n_, rep) +
                               " needs; if it came from a parts folder (" + class_parts_folder(rep) +
                               "), remove the folder and run again");
    return true;
  }

  // Whether class rep's parts folder holds a whole part: proof_in_parts
  // writes them only once the class's root is proven lost for its mover,
  // so an earlier run proved it (before checkpoints kept a proven root,
  // which is how a proof in parts was first carried over). The claim costs
  // nothing to trust: the class counts as proven only when every part is
  // written, and each part is proven before it is.
  bool parts_begun(int rep) const {
    if (cfg_.proof_dir.empty() || !std::filesystem::is_directory(class_parts_folder(rep))) return false;
    const State& root = root_of()(rep);
    const Color winner = other(Game::board(root).to_move);
    bool any = false;
    Rules::placements(root).for_each([&](int m) {
      if (!any)
        any = whole_part(class_part_path(rep, Move(m)), Game::child(root, Move(m)), winner).has_value();
    });
    return any;
  }

  // c's tree with its root open and expanded, each reply whose part is on
  // disk whole settled (its winner wins it) and its subtree dropped, the
  // other replies' subtrees kept as they are; *open (if given) gets the
  // number of those others.
  //
  // A reply the saved tree holds proven but whose part is not on disk (a
  // stop cut its part short, or it fell before parts were written as the
  // tree proves them) is opened again, as a fresh leaf: the table that
  // proved it is gone, and proving it again by jobs, kept in every
  // checkpoint, writes its part the moment it falls (write_reply_parts).
  // Kept proven, it would wait for the class's end, where its part is
  // proven again on the table alone, in rounds that a stop loses. Its moves
  // go to *reopened (if given).
  CheckpointClass with_parts_settled(const CheckpointClass& c, int rep, int* open,
                                     std::vector<std::pair<Move, Move>>* reopened = nullptr) const {
    const State& root = root_of()(rep);
    const Color winner = other(Game::board(root).to_move);
    CheckpointClass r = c;
    r.nodes_list.clear();
    CheckpointNode top = c.nodes_list.empty() ? CheckpointNode{} : c.nodes_list[0];
    top.path.clear();
    top.value = CheckpointNode::Value::Open;
    top.expanded = true;
    r.nodes_list.push_back(top);
    // The replies the manager's tree has.
    std::set<Move> settled;
    int others = 0;
    for (const auto& [key, m] : JobManager<Game, W>::children(root, cfg_.dfpn.symmetry)) {
      if (!whole_part(class_part_path(rep, m), Game::child(root, m), winner)) {
        ++others;
        continue;
      }
      settled.insert(m);
      CheckpointNode n;
      n.path = {m};
      n.value = CheckpointNode::Value::MoverWins;
      r.nodes_list.push_back(n);
    }
    // The saved subtrees of the others, in their order (parents first).
    if (!c.nodes_list.empty() && c.nodes_list[0].expanded &&
        c.nodes_list[0].value == CheckpointNode::Value::Open)
      for (size_t i = 1; i < c.nodes_list.size(); ++i) {
        const CheckpointNode& n = c.nodes_list[i];
        if (settled.count(n.path[0])) continue;
        // (A proven node's subtree is not saved: the reply alone goes.)
        // Its winning move, when known, is its hint: the jobs try it first.
        if (n.path.size() == 1 && n.value != CheckpointNode::Value::Open) {
          const bool won = n.value == CheckpointNode::Value::MoverWins && n.best >= 0;
          if (reopened) reopened->push_back({n.path[0], won ? n.best : Move(-1)});
          if (won) {
            CheckpointNode leaf;
            leaf.path = n.path;
            leaf.best = n.best;
            r.nodes_list.push_back(leaf);
          }
          continue;
        }
        r.nodes_list.push_back(n);
      }
    if (open) *open = others;
    return r;
  }

  // Whether the table holds pos proven for `winner` (throws as
  // prove_on_table when it holds it proven for the other side).
  bool held_proven(const State& pos, Color winner, int rep) {
    const auto f = tt_->probe(Game::key(pos, cfg_.dfpn.symmetry));
    if (!f.hit || (f.pn != 0 && f.dn != 0)) return false;
    return prove_on_table(pos, winner, 0, rep, nullptr);
  }

  // What the progress line says while a proof is built (manager_progress_line).
  struct ProofStatus {
    std::string what;
    std::chrono::steady_clock::time_point since;
    bool searching = false;                // proof_nodes_ counts its search's nodes
    bool finishes = false;                 // a first Ctrl-C waits for it (stop_at_once)
    const BuildProgress* build = nullptr;  // the builder's, when it keeps one
  };
  std::atomic<uint64_t> proof_nodes_{0};
  mutable std::mutex proof_status_mutex_;
  std::optional<ProofStatus> proof_status_;
  // Sets it for a scope.
  class ProofStatusLine {
   public:
    ProofStatusLine(SolveSession& s, std::string what, bool searching = false, bool finishes = false,
                    const BuildProgress* build = nullptr)
        : s_(s) {
      std::lock_guard lock(s_.proof_status_mutex_);
      s_.proof_status_ =
          ProofStatus{std::move(what), std::chrono::steady_clock::now(), searching, finishes, build};
    }
    ~ProofStatusLine() {
      std::lock_guard lock(s_.proof_status_mutex_);
      s_.proof_status_.reset();
    }
    ProofStatusLine(const ProofStatusLine&) = delete;
    ProofStatusLine& operator=(const ProofStatusLine&) = delete;

   private:
    SolveSession& s_;
  };

  // The entries of the part at `path` when it is a whole format-2 proof
  // that `winner` wins `child` (the checker's verdict is verify-proof's;
  // this only tells a part a stopped run finished from one it did not).
  std::optional<uint64_t> whole_part(const std::string& path, const State& child, Color winner) const {
    if (!std::filesystem::exists(path)) return std::nullopt;
    try {
      const std::string text = read_maybe_compressed(path);
      ProofReader in(text, {"konobi-proof 2"}, "a konobi proof file", {"size", "start", "winner"});
      if (in.field("size") != std::to_string(n_) || in.field("start") != format_position(to_text(child)) ||
          in.field("winner") != (winner == Black ? "black" : "white"))
        return std::nullopt;
      while (in.next()) {}
      in.finish();
      return in.count();
    } catch (const std::exception&) { return std::nullopt; }
  }

  // --- save and finish -------------------------------------------------------

  // Under the writers' lock: the file as it is now, perhaps written by
  // another run meanwhile; what it holds proven is kept (only the first save
  // of --overwrite replaces it outright).
  void save() {
    results_.seconds = seconds_before_ + elapsed();
    // The manager's classes carry their nodes across runs in the
    // checkpoint; the file's total counts this run's once.
    results_.nodes = nodes_before_ + (pool_ ? pool_->nodes() : exact_nodes_);
    if constexpr (kGonnect) results_.ghi_hazards = hazards_before_ + GonnectSearch::hazards.load();
    update_file_atomically(cfg_.out, [&](const std::optional<std::string>& old) {
      if (replace_pending_) {
        replace_pending_ = false;
        return results_.to_json();
      }
      std::string text = results_over(results_, old, cfg_.out);
      int now = 0;
      for (int rep : classes_) now += results_.openings[rep].solved;
      proven_ = now;
      return text;
    });
  }

  int finish() {
    save();
    if (stop_requested().load()) {
      std::cerr << "interrupted: " << proven_.load() << " of " << classes_.size()
                << " classes proven and saved in " << cfg_.out << "; run again with --resume to continue\n";
      return 130;
    }
    print_results_table(results_, std::cout);
    if (skipped_ > 0)
      std::cout << skipped_ << " class" << (skipped_ == 1 ? " was" : "es were") << " given up after "
                << cfg_.class_limit << " s (--class-limit); run again with --resume to retry them\n";
    std::cout << "Results written to " << cfg_.out << "\n";
    return 0;
  }

  // --- small helpers ---------------------------------------------------------

  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start_).count();
  }
  std::string ghi_name() const { return cfg_.strict_ghi ? "strict" : "merge-before-capture"; }
  static std::string nxn(int n) { return std::to_string(n) + "x" + std::to_string(n); }
  static std::string number(uint32_t v) { return v >= kInf ? std::string("inf") : std::to_string(v); }

  const SolveConfig& cfg_;
  const typename Rules::Variant variant_;
  const Geometry<W>& g_;
  const int n_;

  Results results_;
  double seconds_before_ = 0;
  unsigned long long nodes_before_ = 0, hazards_before_ = 0;

  std::vector<int> classes_, todo_;  // every class; those searched, in order
  std::vector<State> jobs_;          // the position of each of todo_

  std::unique_ptr<TranspositionTable> tt_;
  std::unique_ptr<JobRunner<Game, W>> runner_;
  // The manager's run (docs/JOBS.md): its lock, the checkpoint it resumed
  // from, the store, the pool and the manager.
  std::unique_ptr<CheckpointLock> lock_;
  std::optional<Checkpoint> saved_;
  std::unique_ptr<ProvenStore> store_;
  std::unique_ptr<MpiChannel> channel_;  // before the pool: it outlives it
  std::unique_ptr<WorkerPool> pool_;
  std::unique_ptr<JobManager<Game, W>> manager_;
  std::unique_ptr<PieceFiles> pieces_;  // with --proof: the proven nodes' proof pieces
  std::set<int> handed_over_;           // classes whose parts left went back to the manager in this run
  std::set<int> resumed_;               // classes whose trees came from the checkpoint
  bool piece_warned_ = false;
  // For the progress line (its thread alone): each open class's pn and dn
  // over time, for an estimate of what is left.
  mutable std::map<int, std::pair<FallEstimate, FallEstimate>> trends_;
  mutable double last_trend_sample_ = -1e9;
  // For the progress line: entries held, and nodes whose pieces were left
  // to the class's end (dearer than a job).
  std::atomic<uint64_t> piece_entries_{0}, pieces_left_{0};
  KeySetPool key_sets_;
  std::chrono::steady_clock::time_point t_start_;

  std::atomic<uint64_t> nodes_{0};  // running count for the progress line
  std::atomic<int> proven_{0};      // read by the progress line
  std::mutex results_mutex_;        // guards what follows, and results_
  uint64_t exact_nodes_ = 0;        // summed from ended searches
  int skipped_ = 0;
  bool replace_pending_ = false;
};

}  // namespace konobi
