// Proofs anyone can check: for every position of the winner's strategy, the
// winner's move, with every reply of the loser covered. Built from the
// solved table (or the store of proven positions, DfpnOptions::store, where
// the table forgot; re-solving any child whose entry was lost), choosing
// immediate wins first and otherwise the winning child that cost the least
// to prove, so proofs stay small. The text formats are in docs/PROOFS.md and
// are read by `konobi verify-proof`, whose rules share no code with this file
// (the two share only the file layout, solver/verify/proof_file.h).
//
// One builder for both games (Game: game_search.h). They differ in what
// names a position. A Konobi position is its board, so an entry is the
// board and positions met twice are written once. A Gonnect position's moves
// depend on the boards before it, so an entry is the whole game from the
// empty board, and the strategy is written as the tree of those games.
#pragma once

#include <atomic>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/assert.h"
#include "core/game.h"
#include "dfpn.h"
#include "parallel_dfpn.h"
#include "key_set.h"
#include "proof_pieces.h"
#include "solver/verify/proof_file.h"

namespace konobi {

using Proof = ProofFile;

// A builder's searches reached the limit set by set_search_limit.
struct SearchLimitReached {};
// The stop flag given to set_stop was raised while the builder searched.
struct BuildStopped {};

// How far a build has come, for a progress line that another thread reads
// (ProofBuilder::set_progress): a class's proof on 6x6 takes an hour or
// more, and its time alone does not tell a build that moves from one that
// is stuck.
struct BuildProgress {
  std::atomic<uint64_t> entries{0};   // written by this walk (a walk started again counts from 0)
  std::atomic<uint64_t> searched{0};  // nodes searched to prove again what the table lost
  std::atomic<uint64_t> repairs{0};   // wrong claims repaired (ProofBuilder::repairs)
};

// Konobi's proof formats (docs/PROOFS.md). Format 1 names each entry's
// position; format 2 is the winner's moves alone, in the order in which the
// checker's walk needs them, which is this builder's walk order (replies in
// increasing point order, positions met before skipped, immediate wins left
// out): about six times smaller compressed, and checked as it is read.
// Pieces (proof_pieces.h) are looked up by position, so they are format 1.
enum class KonobiProofFormat { Positions = 1, Moves = 2 };

template <int W, SearchedGame<W> Game = KonobiSearch>
class ProofBuilder {
 public:
  using State = typename Game::template State<W>;
  using Rules = typename Game::Rules;
  static constexpr bool kGonnect = std::is_same_v<Rules, GonnectRules>;

  // `visited`, if given, is emptied and used for the positions met, so
  // that builders run one after another reuse one set's memory.
  ProofBuilder(TranspositionTable& tt, const DfpnOptions& opt, KeySet* visited = nullptr)
      : tt_(tt), opt_(without_threads(opt)), seen_(visited ? *visited : own_seen_) {
    seen_.clear();
  }

  // Pieces of proofs written before (proof_pieces.h): a winner's position
  // that has one is answered with its move before the table is asked, so a
  // strategy proven in an earlier run is copied, not proven again. With
  // `extend`, the builder writes only what the pieces lack: it stops at a
  // position they hold, whose whole strategy is there already. The builder
  // reads them only while it builds, and only when it writes entries.
  void use_pieces(const ProofPieces* pieces, bool extend) {
    pieces_ = pieces;
    extend_ = extend;
  }

  // Nodes searched to prove again what the table had forgotten.
  uint64_t searched() const { return searched_; }

  // About this many nodes of such searches at most (0: no limit; df-pn
  // looks at its budget between expansions, so it may run a little past
  // it); there build() throws SearchLimitReached, its proof unwritten.
  void set_search_limit(uint64_t nodes) { limit_ = nodes; }

  // A flag (Ctrl-C's) that stops the builder's searches: build() then
  // throws BuildStopped, its proof unwritten.
  void set_stop(const std::atomic<bool>* stop) { stop_ = stop; }

  // Threads for the re-proofs allowed kThreadedNodes or more (or no cap).
  // At the end of a class carried over from earlier runs, every reply
  // proven there is proven again, on one thread for hours while the job
  // manager's other threads have nothing to do. Only the smallest
  // re-proofs (a first try below kThreadedNodes) stay on the calling
  // thread: on 5x5 a2 from an empty table, two threads took 6.9 to 7.4 s
  // from 1024 or 4096 nodes up, 7.7 s from 1, 8.7 s from 2^20 and 9.2 to
  // 9.7 s on one thread (8.3 M nodes). (`from_nodes` moves the bound, for
  // tests.)
  static constexpr uint64_t kThreadedNodes = 2048;
  void set_threads(int threads, uint64_t from_nodes = kThreadedNodes) {
    threads_ = std::max(1, threads);
    threaded_from_ = from_nodes;
  }

  // Konobi. pos must be a proven position; `winner` is the colour that wins it.
  Proof build(const State& pos, Color winner,
              KonobiProofFormat format = KonobiProofFormat::Positions) requires(!kGonnect) {
    if (format == KonobiProofFormat::Moves && extend_)
      throw std::logic_error("pieces are extended in format 1: their entries are looked up by position");
    moves_only_ = format == KonobiProofFormat::Moves;
    Proof proof;
    proof.format = moves_only_ ? "konobi-proof 2" : "konobi-proof 1";
    proof.fields = {{"size", std::to_string(pos.size())},
                    {"start", format_position(to_text(pos))},
                    {"winner", winner == Black ? "black" : "white"}};
    return run(proof, pos, winner);
  }

  // The number of entries build() would write for a proven position, with
  // the same choices, without formatting them: a solve that writes no
  // proofs still reports their size.
  size_t size(const State& s, Color winner) {
    proof_ = nullptr;
    walk(s, winner);
    return count_;
  }

  // Gonnect. s must be a proven position, reached from the empty board by
  // the placements `game` (the proof names it by them, so that the checker
  // knows every earlier board), with no pie swap on offer.
  Proof build(const State& s, Color winner, const std::vector<Move>& game) requires kGonnect {
    const int n = s.pos.size();
    Proof proof;
    proof.format = "gonnect-proof 1";
    for (Move m : game) path_.push_back(move_name(n, m));
    std::string start;
    for (const std::string& m : path_) start += (start.empty() ? "" : " ") + m;
    proof.fields = {{"ko", ko_rule_name(s.variant.ko)},
                    {"edges", edge_rule_name(s.variant.edges)},
                    {"size", std::to_string(n)},
                    {"start", start.empty() ? "-" : start},
                    {"winner", winner == Black ? "black" : "white"}};
    return run(proof, s, winner);
  }

  // Where the builder keeps `progress` up to date as it goes.
  void set_progress(BuildProgress* progress) { progress_ = progress; }

  // Claims found wrong and repaired (repair below): each a winner's
  // position whose move did not win, searched again. The first few say
  // what was met, as an error would have.
  uint64_t repairs() const { return repairs_; }
  const std::vector<std::string>& repair_log() const { return repair_log_; }

 private:
  // A claim of the table, the pieces, a zone or the store (that a position
  // is won, or lost, for its mover) shown wrong by the rules or a search:
  // `what` names the position and the line that led to it (where).
  struct ClaimFailed {
    std::string what;
  };
  // A repair proved its position won again: the walk starts over.
  struct WalkAgain {};

  Proof run(Proof& proof, const State& s, Color winner) {
    proof_ = &proof;
    walk(s, winner);
    return std::move(proof);
  }

  // A builder remembers the positions it has written: it serves one walk.
  // A repaired claim (repair below) starts the walk again from nothing: the
  // entries written since the wrong claim was followed are part of a
  // strategy that does not win, and a proof in format 2 is read in walk
  // order, so none can be kept. Repairs are rare (a false hit in a full
  // table), so forgetting the walk costs less than logging it for an undo.
  void walk(const State& s, Color winner) {
    if (walked_) throw std::logic_error("a proof builder builds one proof");
    walked_ = true;
    while (true) {
      try {
        if (Game::board(s).to_move == winner) winner_node(s);
        else loser_node(s);
        return;
      } catch (const WalkAgain&) {
        seen_.clear();
        count_ = 0;
        publish();
        if (proof_) {
          proof_->entries.clear();
          proof_->packed.clear();
          proof_->packed_count = 0;
        }
      } catch (const ClaimFailed& f) {
        throw std::logic_error("proof extraction: the start is not " +
                               std::string(winner == Black ? "black" : "white") +
                               "'s, as it was proven: " + f.what +
                               (repair_log_.empty() ? "" : "; first shown by: " + repair_log_.front()));
      }
    }
  }

  // Konobi positions met again are skipped; Gonnect has none (a tree).
  bool first_visit(const State& s) {
    if constexpr (kGonnect) return true;
    else return seen_.insert_growing(s.key());
  }

  // `key`, when given, is entry_key(s) already made (for the pieces).
  void record(const State& s, Move m, std::string* key = nullptr) {
    ++count_;
    if (progress_) progress_->entries.store(count_, std::memory_order_relaxed);
    if (!proof_) return;
    if (moves_only_) {
      (proof_->packed += move_name(Game::board(s).size(), m)) += '\n';
      ++proof_->packed_count;
      return;
    }
    std::string line = key ? std::move(*key) : entry_key(s);
    line += ' ';
    line += move_name(Game::board(s).size(), m);
    proof_->entries.push_back(std::move(line));
  }

  // What an entry line says before its move: the position (Konobi) or the
  // game that reaches it (Gonnect; the path is kept only while writing).
  std::string entry_key(const State& s) const {
    if constexpr (kGonnect) {
      std::string line;
      for (const std::string& p : path_) line += (line.empty() ? "" : " ") + p;
      return line;
    } else {
      return format_position(to_text(s));
    }
  }

  // The pieces' move for s (whose entry_key is `key`) into *m, when they
  // hold s and the move is legal here (kPass included); otherwise *m is
  // left alone and the table is asked (the checker would have refused such
  // a piece anyway).
  void piece_move(const State& s, const std::string& key, const Bitboard<W>& legal, Move* m) const {
    const std::optional<std::string_view> text = pieces_->move_of(key);
    if (!text) return;
    try {
      const Move p = parse_move(Game::board(s).size(), *text);
      if (p == kPass ? legal.none() : p >= 0 && legal.test(p)) *m = p;
    } catch (const std::exception&) {}
  }

  static DfpnOptions without_threads(DfpnOptions o) {
    o.parallel = false;
    return o;
  }

  // Shares what it can with s (Gonnect: the history): used only while s lives.
  State child(const State& s, Move m) const { return Game::child(s, m); }

  // Descends into the child after move m (the path names it, for Gonnect).
  template <class F>
  void descend(const State& s, Move m, F&& node) {
    const bool named = kGonnect && proof_;
    if (named) path_.push_back(move_name(Game::board(s).size(), m));
    // Popped on the way out, an exception's too: a message is made where
    // it is thrown, with the line as it stands there, and a repaired walk
    // goes on from where it caught the exception.
    line_.push_back({m, std::exchange(why_, ' ')});
    struct Pop {
      ProofBuilder& b;
      bool named;
      ~Pop() {
        b.line_.pop_back();
        if (named) b.path_.pop_back();
      }
    } pop{*this, named};
    node(child(s, m));
  }

  // For a message about s: its position (or game) and the line from the
  // build's start that reached it, each winner's move tagged with what
  // chose it ([p]iece, the [t]able's own move, [z]one, must-play [h]int,
  // a [c]hild the table holds lost, the [s]tore, [r]e-proof), so that an
  // inconsistency points at the claim that was wrong.
  std::string where(const State& s) const {
    std::string line;
    for (const auto& [m, why] : line_) {
      line += (line.empty() ? "" : " ") + move_name(Game::board(s).size(), m);
      if (why != ' ') (line += '[') += why, line += ']';
    }
    return entry_key(s) + "; reached by " + (line.empty() ? "nothing: the start" : line);
  }

  // hint: a move known to win s, or -1 (a reply the must-play region left
  // out is refuted by the null-move win whose zone it lies outside).
  void winner_node(const State& s, Move hint = -1) {
    // Here too, not only in the searches: a walk of what the table and the
    // pieces hold may go on for minutes without a search of 1024 nodes,
    // the first count at which df-pn looks at the flag.
    if (stop_ && stop_->load(std::memory_order_relaxed)) throw BuildStopped{};
    // An immediate win needs no entry: the checker finds it by itself. It
    // is looked for before the visited set, which it then stays out of:
    // about 40% of the positions met win at once, and the test costs less
    // than the set's cache miss (measured on 5x5 a3: 2.6 M positions met,
    // 1.1 M of them won at once).
    if constexpr (!kGonnect) seen_.prefetch(s.key());
    const Bitboard<W> legal = Rules::placements(s);
    if (Rules::winning(s, legal).any()) return;
    if (!first_visit(s)) return;
    // A position whose move was found wrong is answered by a search alone:
    // its piece, zone, hint and store entry are what chose that move.
    const bool trusted = repaired_.empty() || !repaired_.count(Game::key(s, opt_.symmetry));
    std::string key;  // made once for the pieces and the entry
    Move m = -1;
    if (pieces_ && proof_) {
      constexpr Move kNone = -2;
      Move p = kNone;
      key = entry_key(s);
      if (trusted || extend_) piece_move(s, key, legal, &p);
      if (p != kNone && extend_) return;  // its strategy is in the pieces already
      if (p != kNone) m = p, why_ = 'p';
    }
    if (m == -1) m = choose(s, legal, trusted ? hint : -1, trusted);
    record(s, m, key.empty() ? nullptr : &key);
    try {
      descend(s, m, [&](const State& q) { loser_node(q); });
    } catch (const ClaimFailed& f) { repair(s, m, f); }
  }

  // The winner's move at s, which has no immediate win (the move's tag in why_).
  Move choose(const State& s, const Bitboard<W>& legal, Move hint, bool trusted) {
    // The move the search recorded when it proved s: the winning child that
    // had cost it the least. It is taken only if the table still holds that
    // child as proven (a table too small may have lost it).
    const Move own = own_move(s);
    if (own >= 0 && legal.test(own)) {
      const auto f = tt_.probe(Game::child_key(s, own, opt_.symmetry));
      if (f.hit && f.dn == 0) return why_ = 't', own;
    }
    // A position proven by a zone match (zones.h) names its move in the
    // zone table; its children are matched there in turn.
    if constexpr (!kGonnect && W == 1)
      if (opt_.zones && trusted)
        if (const auto h = match_zone(*opt_.zones, s); h && h->mover_wins && legal.test(h->move))
          return why_ = 'z', h->move;
    if (hint >= 0 && legal.test(hint)) return why_ = 'h', hint;
    const NodeMoves<W> nm = Game::moves(s);
    if (nm.kind == NodeKind::LoseNow) {
      set_value(s, false);  // every move loses at once
      throw ClaimFailed{"the winner has no move in a position proven won (" + where(s) + ")"};
    }
    if (nm.kind == NodeKind::PassOnly) return why_ = ' ', kPass;
    Move best = -1;
    uint32_t best_work = ~0u;
    // From the table first, keys computed without building the children and
    // every bucket fetched before the first is read.
    Move moves[64];
    uint64_t keys[64];
    int count = 0;
    nm.moves.for_each([&](int m) {
      KONOBI_ASSERT(count < 64);
      moves[count] = Move(m);
      keys[count] = Game::child_key(s, m, opt_.symmetry);
      tt_.prefetch(keys[count++]);
    });
    for (int i = 0; i < count; ++i) {
      const auto f = tt_.probe(keys[i]);
      if (f.hit && f.dn == 0 && f.work < best_work) best = moves[i], best_work = f.work;
    }
    why_ = 'c';
    if (best < 0 && trusted) best = stored_move(s, legal), why_ = 's';
    if (best < 0) best = prove_again(s, moves, keys, count), why_ = 'r';
    return best;
  }

  // The claim that the winner's move m wins s was found wrong below it (f
  // says where: a position the rules or a search refute, whose entry now
  // holds its true value). The claims between are forgotten, s's and its
  // child's, and s is searched again. Won, the walk starts again, and s is
  // answered by that search; lost, the claim that s wins is wrong too, and
  // the winner's position above it repairs itself in turn. A claim that
  // keeps coming back (the same position repaired kMaxRepairs times, as a
  // store or zone entry that the search reads again could make it) ends
  // the build with f's message.
  static constexpr int kMaxRepairs = 3;
  void repair(const State& s, Move m, const ClaimFailed& f) {
    int& times = repaired_[Game::key(s, opt_.symmetry)];
    if (++times > kMaxRepairs)
      throw std::logic_error("proof extraction: " + f.what + ", again after " + std::to_string(kMaxRepairs) +
                             " repairs of " + entry_key(s));
    ++repairs_;
    publish();
    if (repair_log_.size() < 16) repair_log_.push_back(f.what);
    tt_.forget(Game::child_key(s, m, opt_.symmetry));
    tt_.forget(Game::key(s, opt_.symmetry));
    if (mover_wins(s, 0)) throw WalkAgain{};
    throw ClaimFailed{"a position proven won was searched again and lost (" + where(s) + ")"};
  }

  // Writes s's value, as the rules or a search have just shown it, over
  // the claim found wrong there (repair): `win` is the winning move.
  void set_value(const State& s, bool mover_wins, Move win = -1) {
    const int8_t best = mover_wins ? int8_t(table_move<Game, W>(s, win, opt_.symmetry)) : -1;
    tt_.store(Game::key(s, opt_.symmetry), mover_wins ? 0 : kInf, mover_wins ? kInf : 0, best, 1);
  }

  // The table lost every winning child of s. The move s's own entry names,
  // if it is still there, is the one the search proved. Otherwise s itself
  // is searched again: df-pn's own order and proof numbers find a cheap
  // win and leave s's entry naming the winning child that cost the least,
  // as the first search did. Trying each child in point order with growing
  // budgets instead took the first child to win, not the cheapest: on a
  // 6x6 c3 part solved on one thread in a 256 MiB table (58.1 M nodes),
  // the proof had 4.66 M entries and took 52 s and 24.7 M nodes proven
  // again; from s itself, 1.39 M entries, 7.5 s and 0.77 M nodes
  // (`konobi bench --proof`). A small first search stays on this thread;
  // what it leaves unproven is carried on with the builder's threads, its
  // work kept in the table.
  Move prove_again(const State& s, const Move* moves, const uint64_t* keys, int count) {
    Move own = own_move(s);
    if (own < 0) {
      // The first try's budget (0: none, the search is the only one).
      const uint64_t first = threads_ > 1 && threaded_from_ > 1 ? threaded_from_ - 1 : 0;
      bool wins = false;
      try {
        wins = mover_wins(s, first);
      } catch (const SearchStopped&) { wins = mover_wins(s, 0); }
      if (!wins) throw ClaimFailed{"a position proven won was searched again and lost (" + where(s) + ")"};
      own = own_move(s);
    }
    for (int i = 0; i < count; ++i)
      if (moves[i] == own) {
        const auto f = tt_.probe(keys[i]);
        if ((f.hit && f.dn == 0) || wins_by(s, own, 0)) return own;
      }
    const Move m = each_child_again(s, moves, keys, count);
    if (m >= 0) return m;
    set_value(s, false);  // every child was searched and won by the loser
    throw ClaimFailed{"no move wins a position proven won, each searched again (" + where(s) + ")"};
  }

  // The last resort, for an entry proven won that names no move the
  // builder can follow: every child searched again with a node budget that
  // grows eightfold, so that a cheap win is found before any costly
  // refutation of a child that does not win.
  Move each_child_again(const State& s, const Move* moves, const uint64_t* keys, int count) {
    bool open[64];
    int left = count;
    for (int i = 0; i < count; ++i) open[i] = true;
    for (uint64_t budget = 256; left > 0; budget *= 8) {
      for (int i = 0; i < count; ++i) {
        if (!open[i]) continue;
        const auto f = tt_.probe(keys[i]);
        if (f.hit && f.dn == 0) return moves[i];
        if (f.hit && f.pn == 0) {
          open[i] = false, --left;
          continue;
        }
        try {
          if (wins_by(s, moves[i], budget)) return moves[i];
          open[i] = false, --left;
        } catch (const SearchStopped&) {}
      }
    }
    return -1;
  }

  // The winning move the store (opt.store) records for s, or -1: the table
  // lost s's proof, an earlier job or run kept it. Keys and moves are the
  // table's, so it is followed as a table hit would be.
  Move stored_move(const State& s, const Bitboard<W>& legal) const {
    if (!opt_.store) return -1;
    const auto p = opt_.store->find(Game::key(s, opt_.symmetry));
    if (!p || !p->mover_wins || p->best < 0) return -1;
    const Move m = board_move<Game, W>(s, p->best, opt_.symmetry);
    return legal.test(m) ? m : -1;
  }

  // The winning move s's own entry names, or -1.
  Move own_move(const State& s) const {
    const auto f = tt_.probe(Game::key(s, opt_.symmetry));
    return f.hit && f.pn == 0 ? board_move<Game, W>(s, f.best, opt_.symmetry) : -1;
  }

  // Whether s's mover wins by m, proven again on the table (mover_wins).
  bool wins_by(const State& s, Move m, uint64_t budget) { return !mover_wins(child(s, m), budget); }

  // Whether pos's mover wins, proven again on the table; throws
  // SearchStopped past `budget` nodes (0: the caller's limit, if any), and
  // SearchLimitReached once this builder's searches reach its limit. A
  // search is a few words, so each re-proof gets its own.
  bool mover_wins(const State& pos, uint64_t budget) {
    DfpnOptions o = opt_;
    uint64_t cap = budget;
    bool at_limit = false;
    struct Publish {  // after the search's count, declared below, has been added
      ProofBuilder& b;
      ~Publish() { b.publish(); }
    } publish_after{*this};
    if (limit_) {
      if (searched_ >= limit_) throw SearchLimitReached{};
      const uint64_t left = limit_ - searched_;
      if (!cap || cap >= left) cap = left, at_limit = true;
    }
    if (threads_ > 1 && (!cap || cap >= threaded_from_)) return wins_with_threads(pos, o, cap, at_limit);
    if (cap) o.max_nodes = cap;
    Dfpn<W, Game> search(tt_, o, stop_);
    struct Count {
      Dfpn<W, Game>& d;
      uint64_t& total;
      ~Count() { total += d.nodes(); }
    } count{search, searched_};
    try {
      return search.solve(pos);
    } catch (const SearchStopped&) { rethrow_stopped(at_limit); }
  }

  void publish() {
    if (!progress_) return;
    progress_->entries.store(count_, std::memory_order_relaxed);
    progress_->searched.store(searched_, std::memory_order_relaxed);
    progress_->repairs.store(repairs_, std::memory_order_relaxed);
  }

  // In a handler of a re-proof's SearchStopped: the stop flag or the
  // builder's limit end the build; a search's own budget is the caller's.
  [[noreturn]] void rethrow_stopped(bool at_limit) const {
    if (stop_ && stop_->load()) throw BuildStopped{};
    if (at_limit) throw SearchLimitReached{};
    throw;
  }

  // mover_wins with threads_ threads, each allowed its share of the cap.
  bool wins_with_threads(const State& pos, DfpnOptions o, uint64_t cap, bool at_limit) {
    if (cap) o.max_nodes = std::max<uint64_t>(1, cap / uint64_t(threads_));
    // Counted in steps of 1024 as the searches go; exact once one ends.
    std::atomic<uint64_t> running{0};
    try {
      const SolveOutcome out = solve_game_position<Game, W>(pos, tt_, o, threads_, stop_, &running);
      searched_ += out.nodes;
      return out.mover_wins;
    } catch (const SearchStopped&) {
      searched_ += running.load();
      rethrow_stopped(at_limit);
    }
  }

  void loser_node(const State& s) {
    if (!first_visit(s)) return;
    const Bitboard<W> legal = Rules::placements(s);
    if (legal.none()) {
      // Konobi: the loser passes. Gonnect: no passing, the loser has lost.
      if constexpr (!kGonnect) descend(s, kPass, [&](const State& q) { winner_node(q); });
      return;
    }
    if (const Bitboard<W> wins = Rules::winning(s, legal); wins.any()) {
      set_value(s, true, wins.first());
      throw ClaimFailed{"the loser wins in a position proven lost (" + where(s) + ")"};
    }
    // Each reply's winning move is read from the table: start every
    // reply's cache miss before the first. (The visited set is fetched by
    // winner_node itself, which needs it only for replies without an
    // immediate win.)
    legal.for_each([&](int m) { tt_.prefetch(Game::child_key(s, m, opt_.symmetry)); });
    // Replies outside the must-play region were never searched: each is
    // refuted by the null-move win whose zone leaves it out, and that
    // line is written out in full for the checker, which knows no zones.
    std::vector<NullWin<W>> null_wins;
    if constexpr (!kGonnect)
      if (opt_.must_play)
        for_each_null_win(
            s, [&](const NullWin<W>& w) { null_wins.push_back(w); }, opt_.must_play_depth);
    legal.for_each([&](int m) {
      Move hint = -1;
      for (const NullWin<W>& w : null_wins)
        if (!w.zone.test(m)) {
          hint = w.move;
          break;
        }
      descend(s, m, [&](const State& q) { winner_node(q, hint); });
    });
  }

  TranspositionTable& tt_;
  DfpnOptions opt_;
  KeySet own_seen_;
  KeySet& seen_;                             // Konobi only
  std::vector<std::string> path_;            // Gonnect: the game from the empty board
  std::vector<std::pair<Move, char>> line_;  // the moves from the build's start, for messages (where)
  char why_ = ' ';                           // what chose the winner's next move (where)
  Proof* proof_ = nullptr;  // null: count only; format 2 packs its entries (ProofFile::packed)
  size_t count_ = 0;
  BuildProgress* progress_ = nullptr;
  uint64_t searched_ = 0, limit_ = 0;
  int threads_ = 1;
  uint64_t threaded_from_ = kThreadedNodes;
  const std::atomic<bool>* stop_ = nullptr;
  std::unordered_map<uint64_t, int> repaired_;  // positions whose move was found wrong: times repaired
  uint64_t repairs_ = 0;
  std::vector<std::string> repair_log_;  // what the first repairs met (ClaimFailed::what)
  bool walked_ = false;
  bool moves_only_ = false;  // format 2: an entry is the move alone
  const ProofPieces* pieces_ = nullptr;
  bool extend_ = false;
};

}  // namespace konobi
