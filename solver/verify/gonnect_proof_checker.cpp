// The Gonnect proof checker (docs/PROOFS.md, "Gonnect proofs"). A Gonnect
// position's legal moves depend on the boards before it, so entries are
// keyed by the game from the empty board, and the checker replays every line
// with its whole history using simple_gonnect.h, which shares no code with
// core/. The strategy is a tree of move sequences: every node is checked once
// and no two histories are ever taken for one.
#include <unordered_map>
#include <vector>

#include "proof_checker.h"
#include "proof_file.h"
#include "simple_gonnect.h"
#include "simple_rules.h"

namespace konobi {

namespace {

using namespace konobi_ref;

struct Failure {
  std::string what;
};

// A point name exactly as the notation writes it, or -1.
int parse_point_strictly(int n, const std::string& name) {
  try {
    const int p = ref_parse_point(n, name);
    return ref_point_name(n, p) == name ? p : -1;
  } catch (const std::exception&) { return -1; }
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    const size_t j = s.find(' ', i);
    const size_t e = j == std::string::npos ? s.size() : j;
    if (e > i) out.push_back(s.substr(i, e - i));
    i = e + 1;
  }
  return out;
}

class GonnectChecker {
 public:
  GonnectChecker(std::unordered_map<std::string, std::string> moves, char winner,
                 std::vector<std::string> path, ProofCheck& out)
      : moves_(std::move(moves)), winner_(winner), path_(std::move(path)), out_(out) {}

  void winner_node(const RefGo& g) {
    ++out_.positions;
    const std::vector<int> legal = ref_go_legal(g);
    if (legal.empty()) fail(g, "the winner has no legal move here, and so loses");
    auto it = moves_.find(joined());
    if (it == moves_.end()) {
      // Positions the winner wins at once carry no entry.
      for (int p : legal)
        if (ref_go_has_winning_chain(ref_go_play(g, p), winner_)) return;
      fail(g, "the proof has no move for the winner here, and no move wins at once");
    }
    ++used_;
    const int p = parse_point_strictly(g.n, it->second);
    if (p < 0) fail(g, "the proof's move '" + it->second + "' is not a point (Gonnect has no passing)");
    bool is_legal = false;
    for (int q : legal) is_legal = is_legal || q == p;
    if (!is_legal)
      fail(g, "the proof's move " + it->second +
                  " is illegal (occupied, suicide, or a board repeated under " +
                  (g.superko ? "superko" : "the ko rule") + ")");
    const RefGo next = ref_go_play(g, p);
    if (ref_go_has_winning_chain(next, winner_)) return;
    path_.push_back(it->second);
    loser_node(next);
    path_.pop_back();
  }

  void loser_node(const RefGo& g) {
    ++out_.positions;
    // Without a legal placement the loser loses: Gonnect has no passing.
    for (int p : ref_go_legal(g)) {
      const RefGo next = ref_go_play(g, p);
      path_.push_back(ref_point_name(g.n, p));
      if (ref_go_has_winning_chain(next, g.to_move)) fail(g, "the loser wins here by " + path_.back());
      winner_node(next);
      path_.pop_back();
    }
  }

  uint64_t used() const { return used_; }

 private:
  std::string joined() const {
    std::string s;
    for (const std::string& m : path_) s += (s.empty() ? "" : " ") + m;
    return s;
  }

  [[noreturn]] void fail(const RefGo& g, const std::string& why) {
    const std::string moves = joined();
    throw Failure{why + "\n  reached by the game: " + (moves.empty() ? "(the empty board)" : moves) + "\n" +
                  ref_go_diagram(g)};
  }

  std::unordered_map<std::string, std::string> moves_;
  char winner_;
  std::vector<std::string> path_;
  ProofCheck& out_;
  uint64_t used_ = 0;
};

}  // namespace

ProofCheck check_gonnect_proof(const std::string& text) {
  ProofCheck out;
  out.game = "gonnect";
  try {
    ProofFile file;
    try {
      file = read_proof_file(text, "gonnect-proof 1", "a gonnect proof file",
                             {"ko", "edges", "size", "start", "winner"});
    } catch (const ProofFormatError& e) { throw Failure{e.what()}; }
    const std::string& ko = file.field("ko");
    const std::string& edges = file.field("edges");
    if (ko != "simple" && ko != "superko") throw Failure{"ko must be simple or superko, not '" + ko + "'"};
    if (edges != "either" && edges != "own")
      throw Failure{"edges must be either or own, not '" + edges + "'"};
    out.ko = ko;
    out.edges = edges;
    int n = 0;
    try {
      size_t used = 0;
      n = std::stoi(file.field("size"), &used);
      if (used != file.field("size").size()) n = 0;
    } catch (const std::exception&) {}
    if (n < 3 || n > 19)
      throw Failure{"size must be a board size from 3 to 19, not '" + file.field("size") + "'"};
    out.start = file.field("start");
    out.winner = file.field("winner");
    if (out.winner != "black" && out.winner != "white") throw Failure{"winner must be black or white"};
    const char winner = out.winner == "black" ? 'B' : 'W';

    // The start: a game from the empty board, every move legal, nobody won.
    RefGo start = ref_go_empty(n, ko == "superko", edges == "own");
    std::vector<std::string> path;
    if (out.start != "-") {
      for (const std::string& m : split(out.start)) {
        const int p = parse_point_strictly(n, m);
        bool legal = false;
        if (p >= 0)
          for (int q : ref_go_legal(start)) legal = legal || q == p;
        if (!legal) throw Failure{"the start's move '" + m + "' is not a legal placement there"};
        const char mover = start.to_move;
        start = ref_go_play(start, p);
        path.push_back(m);
        if (ref_go_has_winning_chain(start, mover))
          throw Failure{"the start is a finished game: " + m + " wins"};
      }
    }

    // Entries: the game from the empty board to a position where the winner
    // moves, then the winner's move.
    std::unordered_map<std::string, std::string> moves;
    for (size_t i = 0; i < file.entries.size(); ++i) {
      const std::string where = "line " + std::to_string(file.entry_line(i)) + ": ";
      std::vector<std::string> tokens = split(file.entries[i]);
      if (tokens.empty()) throw Failure{where + "expected the moves of a game and the winner's move"};
      for (const std::string& t : tokens)
        if (parse_point_strictly(n, t) < 0) throw Failure{where + "'" + t + "' is not a point of the board"};
      const std::string move = tokens.back();
      tokens.pop_back();
      std::string key;
      for (const std::string& t : tokens) key += (key.empty() ? "" : " ") + t;
      if (!moves.emplace(key, move).second)
        throw Failure{where + "a second entry for the game '" + key + "'"};
    }
    out.entries = file.entries.size();
    GonnectChecker checker(std::move(moves), winner, path, out);
    if (start.to_move == winner) checker.winner_node(start);
    else checker.loser_node(start);
    out.ok = true;
    out.message = "the proof holds: " + out.winner + " wins from " + out.start + " (ko " + ko + ", edges " +
                  edges + ")";
    if (checker.used() < out.entries)
      out.message += "; " + std::to_string(out.entries - checker.used()) + " entries are never reached";
  } catch (const Failure& f) {
    out.ok = false;
    out.message = f.what;
  }
  return out;
}

ProofCheck check_any_proof(const std::string& text, const ProofParts* parts) {
  if (proof_format_of(text) == "gonnect-proof 1") return check_gonnect_proof(text);
  return check_proof(text, parts);
}

}  // namespace konobi
