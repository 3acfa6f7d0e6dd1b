// A class's tree from a checkpoint, read for people (konobi tree): where an
// unfinished solve stands, node by node, without running it. A checkpoint
// keeps each node's numbers from its own mover's side; a person looking at
// a position judges its moves from the side that plays them, so a move's
// numbers here are its child's swapped: its pn is what proving a win for
// the player making it would take (the child's dn), its dn what refuting
// it would take (the child's pn). The node's pn is then the least of its
// open moves' pns and its dn their sum, as the manager keeps them.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "checkpoint.h"
#include "core/types.h"

namespace konobi {

// One move of a node of the tree, judged for the player who makes it.
struct TreeMove {
  Move move = -1;
  enum class Verdict : uint8_t { Wins, Loses, Open } verdict = Verdict::Open;
  uint32_t pn = 0, dn = 0;  // Open: from the mover's side (see above); Wins 0/inf, Loses inf/0
  Move answer = -1;         // Loses: the reply that refutes it, when the checkpoint knows one
  uint64_t nodes = 0;       // df-pn nodes the jobs spent on it and below it
  uint64_t jobs = 0;        // jobs run on it and below it
  int tree_nodes = 1;       // nodes of the tree at and below it
  bool expanded = false;    // its own moves are in the tree
};

class CheckpointTree {
 public:
  explicit CheckpointTree(const CheckpointClass& c);

  // The node reached by path from the class root; -1 when the tree does
  // not hold it (a leaf's moves are not in the tree, nor a proven node's).
  int find(const std::vector<Move>& path) const;
  // The longest start of path that the tree holds, as a node (the root at
  // least).
  int deepest(const std::vector<Move>& path) const;
  const CheckpointNode& node(int i) const { return nodes_[size_t(i)]; }
  int size() const { return int(nodes_.size()); }
  // Black's first stone is the class root: White moves at even depths.
  static Color mover(const std::vector<Move>& path) { return path.size() % 2 == 0 ? White : Black; }

  // Node i as a move of its parent (the root as if it were one).
  TreeMove as_move(int i) const;
  // Node i's moves in the tree: the winning ones first, then the open
  // ones, cheapest to prove first (pn, then dn, then move order), then the
  // losing ones, in move order.
  std::vector<TreeMove> moves(int i) const;
  // From node i, the moves that the numbers point to: at each expanded
  // open node its hint while that is open, else its open move of least pn
  // (the first in move order on a tie), down to a leaf. Empty when node i
  // is proven or a leaf.
  std::vector<Move> cheapest_line(int i) const;

 private:
  std::vector<CheckpointNode> nodes_;
  std::vector<std::vector<int>> children_;
  std::vector<uint64_t> nodes_below_, jobs_below_;
  std::vector<int> size_below_;
  std::map<std::vector<Move>, int> index_;
};

}  // namespace konobi
