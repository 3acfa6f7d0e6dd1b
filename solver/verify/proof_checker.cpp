#include "proof_checker.h"

#include <optional>
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

}  // namespace

ProofCheck check_proof(const std::string& text) {
  ProofCheck out;
  out.game = "konobi";
  try {
    std::optional<ProofReader> in;
    try {
      in.emplace(text, std::vector<std::string>{"konobi-proof 1", "konobi-proof 2"}, "a konobi proof file",
                 std::vector<std::string>{"size", "start", "winner"});
    } catch (const ProofFormatError& e) { throw Failure{e.what()}; }
    const bool stream = in->format() == "konobi-proof 2";
    out.version = stream ? 2 : 1;
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
    const char winner = out.winner == "black" ? 'B' : 'W';
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

}  // namespace konobi
