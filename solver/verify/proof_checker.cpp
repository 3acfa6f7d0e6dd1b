#include "proof_checker.h"

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

class Checker {
 public:
  Checker(std::unordered_map<std::string, std::string> moves, char winner, ProofCheck& out)
      : moves_(std::move(moves)), winner_(winner), out_(out) {}

  void winner_node(const RefBoard& b) {
    const std::string key = ref_to_string(b);
    if (!done_.insert(key).second) return;
    ++out_.positions;
    const std::vector<int> legal = ref_legal(b);
    auto it = moves_.find(key);
    if (it == moves_.end()) {
      // Positions the winner wins at once carry no entry.
      for (int p : legal) {
        RefBoard next = b;
        next.cell[p] = b.to_move;
        if (ref_has_winning_chain(next, winner_)) return;
      }
      fail(b, "the proof has no move for the winner here, and no move wins at once");
    }
    RefBoard next = b;
    if (it->second == "pass") {
      if (!legal.empty()) fail(b, "the proof passes, but the winner has legal placements");
      next.to_move = ref_other(b.to_move);
      path_.push_back("pass");
      loser_node(next);
      path_.pop_back();
      return;
    }
    int p = -1;
    try {
      p = ref_parse_point(b.n, it->second);
    } catch (const std::exception&) { fail(b, "the proof's move '" + it->second + "' is not a point"); }
    if (!ref_is_legal(b, p)) fail(b, "the proof's move " + it->second + " is illegal");
    next.cell[p] = b.to_move;
    next.to_move = ref_other(b.to_move);
    path_.push_back(it->second);
    if (!ref_has_winning_chain(next, winner_)) loser_node(next);
    path_.pop_back();
  }

  void loser_node(const RefBoard& b) {
    const std::string key = ref_to_string(b);
    if (!done_.insert(key).second) return;
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
  [[noreturn]] void fail(const RefBoard& b, const std::string& why) {
    std::string moves;
    for (const auto& m : path_) moves += (moves.empty() ? "" : " ") + m;
    throw Failure{why + "\n  position: " + ref_to_string(b) +
                  "\n  reached from the start by: " + (moves.empty() ? "(the start itself)" : moves)};
  }

  std::unordered_map<std::string, std::string> moves_;
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
    ProofFile file;
    try {
      file = read_proof_file(text, "konobi-proof 1", "a konobi proof file", {"size", "start", "winner"});
    } catch (const ProofFormatError& e) { throw Failure{e.what()}; }
    const std::string& size = file.field("size");
    out.start = file.field("start");
    out.winner = file.field("winner");
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
    for (size_t i = 0; i < file.entries.size(); ++i) {
      const std::string& line = file.entries[i];
      const std::string where = "line " + std::to_string(file.entry_line(i)) + ": ";
      const size_t cut = line.rfind(' ');
      if (cut == std::string::npos) throw Failure{where + "expected a position and a move"};
      try {
        const RefBoard b = ref_from_string(line.substr(0, cut));
        if (b.n != start.n) throw std::invalid_argument("wrong board size");
        moves[ref_to_string(b)] = line.substr(cut + 1);
      } catch (const std::exception& e) { throw Failure{where + e.what()}; }
    }
    out.entries = file.entries.size();
    const char winner = out.winner == "black" ? 'B' : 'W';
    Checker checker(std::move(moves), winner, out);
    if (start.to_move == winner) checker.winner_node(start);
    else checker.loser_node(start);
    out.ok = true;
    out.message = "the proof holds: " + out.winner + " wins from " + out.start;
  } catch (const Failure& f) {
    out.ok = false;
    out.message = f.what;
  }
  return out;
}

}  // namespace konobi
