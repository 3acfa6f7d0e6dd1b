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
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "command.h"
#include "game_input.h"
#include "core/notation.h"
#include "core/openings.h"
#include "core/types.h"
#include "progress.h"
#include "provenance.h"
#include "solver/io/atomic_file.h"
#include "solver/io/compressed_file.h"
#include "solver/io/results.h"
#include "solver/io/results_merge.h"
#include "solver/search/parallel_dfpn.h"
#include "solver/search/proof.h"
#include "solver/search/pv.h"

namespace konobi {

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

 private:
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
    load_or_start();  // before the table takes its memory: a refusal comes at once
    results_.provenance = make_provenance(cfg_.command, cfg_.threads, cfg_.tt_mb, cfg_.dfpn);
    if (!cfg_.proof_dir.empty()) std::filesystem::create_directories(cfg_.proof_dir);
    tt_ = std::make_unique<TranspositionTable>(cfg_.tt_mb);
    install_stop_handler();
    t_start_ = std::chrono::steady_clock::now();
    plan();
    // --resume with every class asked for proven: the file stays as it is,
    // unless it was read re-grouped, when it gains the openings of merged classes.
    if (todo_.empty() && !results_.regrouped_on_read) {
      if (!cfg_.quiet)
        std::cerr << "nothing left to do: every class asked for is proven in " << cfg_.out << "\n";
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
    const uint64_t proof_size = extract_proof(jobs_[r.job], winner, rep);
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
                << " positions, " << proof_secs << " s)\n";
  }

  // The proof's size, and with --proof its file (`.proof.xz`, docs/PROOFS.md).
  uint64_t extract_proof(const State& pos, Color winner, int rep) {
    std::unique_ptr<KeySet> visited = key_sets_.take();
    ProofBuilder<W, Game> builder(*tt_, cfg_.dfpn, visited.get());
    uint64_t size = 0;
    if (cfg_.proof_dir.empty()) {
      size = builder.size(pos, winner);
    } else {
      Proof proof;
      if constexpr (kGonnect) proof = builder.build(pos, winner, {rep});
      else proof = builder.build(pos, winner);
      size = proof.entries.size();
      write_file_atomically(
          cfg_.proof_dir + "/" + Rules::name + "-" + nxn(n_) + "-" + point_name(n_, rep) + ".proof.xz",
          compress_xz(proof.to_text()));
    }
    key_sets_.give_back(std::move(visited));
    return size;
  }

  // --- save and finish -------------------------------------------------------

  // Under the writers' lock: the file as it is now, perhaps written by
  // another run meanwhile; what it holds proven is kept (only the first save
  // of --overwrite replaces it outright).
  void save() {
    results_.seconds = seconds_before_ + elapsed();
    results_.nodes = nodes_before_ + exact_nodes_;
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
