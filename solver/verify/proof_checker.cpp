#include "proof_checker.h"

#include <atomic>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "proof_file.h"
#include "simple_rules.h"

namespace konobi {

namespace {

using namespace konobi_ref;

struct Failure {
  std::string what;
};

// A position as a short key for the set of those checked: the side to move,
// then two bits a point. Up to 7x7 it fits a std::string's own buffer, so a
// format-2 proof of a hundred million positions needs no allocation per
// position and half the memory its text would take.
std::string packed(const RefBoard& b) {
  std::string k(1 + (b.cell.size() + 3) / 4, '\0');
  k[0] = b.to_move;
  for (size_t i = 0; i < b.cell.size(); ++i)
    k[1 + i / 4] = char(k[1 + i / 4] | (b.cell[i] == 'B' ? 1 : b.cell[i] == 'W' ? 2 : 0) << (2 * (i % 4)));
  return k;
}

// Replays the winner's strategy against every reply of the loser. The
// winner's moves come from `moves` (format 1: looked up by position) or
// from `stream` (format 2: the next entry, in the order this walk meets
// the positions that need one).
class Checker {
 public:
  Checker(char winner, ProofCheck& out, const std::unordered_map<std::string, std::string>* moves,
          ProofReader* stream)
      : moves_(moves), stream_(stream), winner_(winner), out_(out) {}

  void winner_node(const RefBoard& b) {
    ++out_.positions;
    const std::vector<int> legal = ref_legal(b);
    // Positions the winner wins at once carry no entry. Looked for before
    // the set of positions checked, which they then stay out of (as the
    // builder leaves them out of its own: format 2's order depends on it).
    for (int p : legal) {
      RefBoard next = b;
      next.cell[p] = b.to_move;
      if (ref_has_winning_chain(next, winner_)) return;
    }
    if (!done_.insert(packed(b)).second) {
      --out_.positions;  // met before
      return;
    }
    const std::string move = move_at(b);
    RefBoard next = b;
    if (move == "pass") {
      if (!legal.empty()) fail(b, "the proof passes, but the winner has legal placements");
      next.to_move = ref_other(b.to_move);
      path_.push_back("pass");
      loser_node(next);
      path_.pop_back();
      return;
    }
    int p = -1;
    try {
      p = ref_parse_point(b.n, move);
    } catch (const std::exception&) { fail(b, "the proof's move '" + move + "' is not a point"); }
    if (!ref_is_legal(b, p)) fail(b, "the proof's move " + move + " is illegal");
    next.cell[p] = b.to_move;
    next.to_move = ref_other(b.to_move);
    path_.push_back(move);
    loser_node(next);  // the move cannot win at once: that was looked for above
    path_.pop_back();
  }

  void loser_node(const RefBoard& b) {
    if (!done_.insert(packed(b)).second) return;
    ++out_.positions;
    const std::vector<int> legal = ref_legal(b);
    if (legal.empty()) {
      RefBoard next = b;
      next.to_move = ref_other(b.to_move);
      if (ref_legal(next).empty()) fail(b, "neither side can move: a draw");
      path_.push_back("pass");
      winner_node(next);
      path_.pop_back();
      return;
    }
    for (int p : legal) {
      RefBoard next = b;
      next.cell[p] = b.to_move;
      next.to_move = ref_other(b.to_move);
      path_.push_back(ref_point_name(b.n, p));
      if (ref_has_winning_chain(next, b.to_move)) fail(b, "the loser wins here by " + path_.back());
      winner_node(next);
      path_.pop_back();
    }
  }

 private:
  std::string move_at(const RefBoard& b) {
    if (moves_) {
      const auto it = moves_->find(ref_to_string(b));
      if (it == moves_->end()) fail(b, "the proof has no move for the winner here, and no move wins at once");
      return it->second;
    }
    std::optional<std::string_view> m;
    try {
      m = stream_->next();
    } catch (const ProofFormatError& e) { fail(b, e.what()); }
    if (!m)
      fail(b, "the proof has no move for the winner here (its " + std::to_string(stream_->count()) +
                  " entries are used up), and no move wins at once");
    return std::string(*m);
  }

  [[noreturn]] void fail(const RefBoard& b, const std::string& why) {
    std::string moves;
    for (const auto& m : path_) moves += (moves.empty() ? "" : " ") + m;
    std::string where;
    if (stream_ && stream_->read() > 0)
      where = "\n  at entry " + std::to_string(stream_->read()) + " (line " +
              std::to_string(stream_->line()) + ")";
    throw Failure{why + "\n  position: " + ref_to_string(b) +
                  "\n  reached from the start by: " + (moves.empty() ? "(the start itself)" : moves) + where};
  }

  const std::unordered_map<std::string, std::string>* moves_;
  ProofReader* stream_;
  char winner_;
  ProofCheck& out_;
  std::unordered_set<std::string> done_;
  std::vector<std::string> path_;
};

// Parts within parts are allowed this deep (a class split at its replies
// is one level; two levels split at the replies' replies).
constexpr int kMaxPartDepth = 4;

ProofCheck check_konobi(const std::string& text, const ProofParts* parts, const std::string& folder,
                        int depth, int threads);

// A part's name: a path relative to the file naming it, inside its folder.
bool plain_relative_path(const std::string& path) {
  if (path.empty() || path[0] == '/' || path.find('\\') != std::string::npos) return false;
  size_t from = 0;
  while (from <= path.size()) {
    size_t to = path.find('/', from);
    if (to == std::string::npos) to = path.size();
    const std::string part = path.substr(from, to - from);
    if (part.empty() || part == "." || part == "..") return false;
    from = to + 1;
  }
  return true;
}

// One part named by a format-3 file: its line (for messages), the move and
// path the line gives, and the position after the move.
struct PartEntry {
  std::string where, move, path;
  RefBoard next;
};

// Checks one part: its own check, or what failed (the file unreadable, its
// check failing, another position or winner than the entry's).
ProofCheck check_part(const PartEntry& e, const ProofParts* parts, const std::string& folder, int depth,
                      int threads, const std::string& winner) {
  std::string part_text;
  try {
    part_text = parts->read(folder + e.path);
  } catch (const std::exception& x) { throw Failure{e.where + "part " + e.path + ": " + x.what()}; }
  const size_t slash = e.path.rfind('/');
  const ProofCheck c =
      check_konobi(part_text, parts, folder + (slash == std::string::npos ? "" : e.path.substr(0, slash + 1)),
                   depth + 1, threads);
  if (!c.ok) throw Failure{e.where + "part " + e.path + " fails: " + c.message};
  if (ref_to_string(ref_from_string(c.start)) != ref_to_string(e.next))  // c.start parsed in its check
    throw Failure{e.where + "part " + e.path + " proves " + c.start + ", not the position after " + e.move +
                  ", " + ref_to_string(e.next)};
  if (c.winner != winner) throw Failure{e.where + "part " + e.path + " proves a win for " + c.winner};
  return c;
}

// The parts' checks, `threads` at a time: each thread takes the next part
// not yet begun, and `checked` hears of the parts in the entries' order as
// they hold. After a failure no part is begun, and the one reported is the
// first in that order, as one thread would have found it: every part
// before it had been begun, so its check ended too.
void check_part_list(const std::vector<PartEntry>& entries, const ProofParts* parts,
                     const std::string& folder, int depth, int threads, ProofCheck& out) {
  const size_t n = entries.size();
  std::vector<std::optional<ProofCheck>> done(n);
  std::vector<std::string> failed(n);
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex told_mutex;
  size_t told = 0;  // parts told to `checked`, in order
  auto tell = [&] {
    for (; told < n && (done[told] || !failed[told].empty()); ++told) {
      if (!failed[told].empty()) {
        stop = true;
        return;
      }
      ++out.parts;
      out.entries += done[told]->entries;
      out.positions += done[told]->positions;
      if (parts->checked) parts->checked(folder + entries[told].path, told + 1, n, *done[told]);
    }
  };
  auto work = [&](int inner_threads) {
    for (size_t i; !stop && (i = next++) < n;) {
      std::optional<ProofCheck> c;
      std::string why;
      try {
        c = check_part(entries[i], parts, folder, depth, inner_threads, out.winner);
      } catch (const Failure& f) {
        why = f.what;
      } catch (const std::exception& x) {  // memory, or a thread that would not start
        why = entries[i].where + "part " + entries[i].path + ": " + x.what();
      }
      const std::lock_guard lock(told_mutex);
      if (c) done[i] = std::move(c);
      else failed[i] = why.empty() ? "part " + entries[i].path + " failed" : why;
      tell();
    }
  };
  const int spawned = int(std::min<size_t>(size_t(std::max(threads, 1)), n)) - 1;
  if (spawned <= 0) {
    // One at a time: the parts below may use the threads in turn (6x6 b3's
    // one part below its winning move names the 30 replies).
    work(threads);
  } else {
    std::vector<std::jthread> pool;
    try {
      for (int t = 0; t < spawned; ++t) pool.emplace_back([&] { work(1); });
    } catch (const std::system_error&) {}  // fewer threads then: the calling one works too
    work(1);
  }
  for (size_t i = 0; i < n; ++i)
    if (!failed[i].empty()) throw Failure{failed[i]};
}

// Format 3: at `start`, each entry a move and the file proving the position
// after it. The winner to move names one move; the loser to move, every
// legal reply once (or `pass` when it has none), none of them winning.
void check_parts(ProofReader& in, const RefBoard& start, char winner, const ProofParts* parts,
                 const std::string& folder, int depth, int threads, ProofCheck& out) {
  if (!parts)
    throw Failure{
        "a proof in parts (format 3) is checked from its file, beside the parts it names "
        "(konobi verify-proof FILE)"};
  if (depth >= kMaxPartDepth)
    throw Failure{"parts nested more than " + std::to_string(kMaxPartDepth) + " deep"};
  const std::vector<int> legal = ref_legal(start);
  std::vector<std::string> wanted;  // the moves the entries must name, in any order
  if (start.to_move != winner && !legal.empty())
    for (int p : legal) wanted.push_back(ref_point_name(start.n, p));
  std::set<std::string> named;
  std::vector<PartEntry> entries;
  try {
    while (const auto e = in.next()) {
      const std::string line(*e);
      const std::string where = "line " + std::to_string(in.line()) + ": ";
      const size_t cut = line.find(' ');
      if (cut == std::string::npos) throw Failure{where + "expected a move and the file of its part"};
      const std::string move = line.substr(0, cut), path = line.substr(cut + 1);
      if (!plain_relative_path(path))
        throw Failure{where + "'" + path +
                      "': a part is named by a path relative to this file, without '..'"};
      if (!named.insert(move).second) throw Failure{where + "a second part for " + move};
      RefBoard next = start;
      if (move == "pass") {
        if (!legal.empty()) throw Failure{where + "a pass, but the side to move has legal placements"};
      } else {
        int p = -1;
        try {
          p = ref_parse_point(start.n, move);
        } catch (const std::exception&) { throw Failure{where + "'" + move + "' is not a point"}; }
        if (!ref_is_legal(start, p)) throw Failure{where + "the move " + move + " is illegal"};
        next.cell[p] = start.to_move;
        if (start.to_move != winner && ref_has_winning_chain(next, start.to_move))
          throw Failure{where + "the loser wins at once by " + move};
      }
      next.to_move = ref_other(start.to_move);
      entries.push_back({where, move, path, next});
    }
    in.finish();
  } catch (const ProofFormatError& e) { throw Failure{e.what()}; }
  // The file's own lines are read and checked before any part: a file
  // that is cut short or names a move twice fails at once, not after hours.
  check_part_list(entries, parts, folder, depth, threads, out);
  if (start.to_move == winner) {
    if (named.size() != 1) throw Failure{"the winner moves at the start: a proof in parts names one move"};
  } else if (legal.empty()) {
    if (!named.count("pass"))
      throw Failure{"the loser can only pass at the start, and no part follows the pass"};
  } else {
    for (const std::string& m : wanted)
      if (!named.count(m)) throw Failure{"no part for the loser's reply " + m};
  }
  ++out.positions;  // the start
}

ProofCheck check_konobi(const std::string& text, const ProofParts* parts, const std::string& folder,
                        int depth, int threads) {
  ProofCheck out;
  out.game = "konobi";
  try {
    std::optional<ProofReader> in;
    try {
      in.emplace(text, std::vector<std::string>{"konobi-proof 1", "konobi-proof 2", "konobi-proof 3"},
                 "a konobi proof file", std::vector<std::string>{"size", "start", "winner"});
    } catch (const ProofFormatError& e) { throw Failure{e.what()}; }
    const bool stream = in->format() == "konobi-proof 2";
    const bool in_parts = in->format() == "konobi-proof 3";
    out.version = in_parts ? 3 : stream ? 2 : 1;
    const std::string& size = in->field("size");
    out.start = in->field("start");
    out.winner = in->field("winner");
    if (out.winner != "black" && out.winner != "white") throw Failure{"winner must be black or white"};
    RefBoard start;
    try {
      start = ref_from_string(out.start);
    } catch (const std::exception& e) { throw Failure{"bad start position: " + std::string(e.what())}; }
    if (std::to_string(start.n) != size) throw Failure{"the start position is not " + size + "x" + size};
    // A finished game proves nothing: the checker below would take the
    // winner's chain for a win at once and accept any strategy at all.
    for (const char side : {'B', 'W'})
      if (ref_has_winning_chain(start, side))
        throw Failure{"the start position is already won by " + std::string(side == 'B' ? "black" : "white") +
                      ": a proof starts from a game still in play"};
    const char winner = out.winner == "black" ? 'B' : 'W';
    if (in_parts) {
      check_parts(*in, start, winner, parts, folder, depth, threads, out);
      out.ok = true;
      out.message = "the proof holds: " + out.winner + " wins from " + out.start + " (in " +
                    std::to_string(out.parts) + (out.parts == 1 ? " part)" : " parts)");
      return out;
    }
    std::unordered_map<std::string, std::string> moves;
    try {
      if (!stream) {
        while (const auto e = in->next()) {
          const std::string line(*e);
          const std::string where = "line " + std::to_string(in->line()) + ": ";
          const size_t cut = line.rfind(' ');
          if (cut == std::string::npos) throw Failure{where + "expected a position and a move"};
          try {
            const RefBoard b = ref_from_string(line.substr(0, cut));
            if (b.n != start.n) throw std::invalid_argument("wrong board size");
            moves[ref_to_string(b)] = line.substr(cut + 1);
          } catch (const std::exception& e) { throw Failure{where + e.what()}; }
        }
        in->finish();
      }
    } catch (const ProofFormatError& e) { throw Failure{e.what()}; }
    out.entries = in->count();
    Checker checker(winner, out, stream ? nullptr : &moves, stream ? &*in : nullptr);
    if (start.to_move == winner) checker.winner_node(start);
    else checker.loser_node(start);
    if (stream) {
      // Every move is read where the walk needs it, so one left over means
      // the file and the strategy it was written from part ways.
      if (in->read() < in->count())
        throw Failure{"the strategy is complete after " + std::to_string(in->read()) + " of the " +
                      std::to_string(in->count()) + " entries: the rest are never used"};
      try {
        in->finish();
      } catch (const ProofFormatError& e) { throw Failure{e.what()}; }
    }
    out.ok = true;
    out.message = "the proof holds: " + out.winner + " wins from " + out.start;
  } catch (const Failure& f) {
    out.ok = false;
    out.message = f.what;
  }
  return out;
}

}  // namespace

ProofCheck check_proof(const std::string& text, const ProofParts* parts) {
  return check_konobi(text, parts, "", 0, parts ? parts->threads : 1);
}

}  // namespace konobi
