#include "tree_view.h"

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "solver/search/tt.h"

namespace konobi {

CheckpointTree::CheckpointTree(const CheckpointClass& c)
    : nodes_(c.nodes_list),
      children_(nodes_.size()),
      nodes_below_(nodes_.size()),
      jobs_below_(nodes_.size()),
      size_below_(nodes_.size(), 1) {
  if (nodes_.empty() || !nodes_[0].path.empty())
    throw std::invalid_argument("a class's tree starts with its root");
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const std::vector<Move>& p = nodes_[i].path;
    if (!index_.emplace(p, int(i)).second)
      throw std::invalid_argument("a node stands twice in a class's tree");
    if (i == 0) continue;
    // Checkpoint::from_text has already refused a child before its parent.
    const auto parent = index_.find(std::vector<Move>(p.begin(), p.end() - 1));
    if (parent == index_.end())
      throw std::invalid_argument("a node of a class's tree comes before its parent");
    children_[size_t(parent->second)].push_back(int(i));
  }
  // Parents come before their children: sums from the last node back.
  for (size_t i = nodes_.size(); i-- > 0;) {
    nodes_below_[i] += nodes_[i].job_nodes;
    jobs_below_[i] += nodes_[i].jobs;
    if (i == 0) break;
    const int parent = index_.at(std::vector<Move>(nodes_[i].path.begin(), nodes_[i].path.end() - 1));
    nodes_below_[size_t(parent)] += nodes_below_[i];
    jobs_below_[size_t(parent)] += jobs_below_[i];
    size_below_[size_t(parent)] += size_below_[i];
  }
}

int CheckpointTree::find(const std::vector<Move>& path) const {
  const auto it = index_.find(path);
  return it == index_.end() ? -1 : it->second;
}

int CheckpointTree::deepest(const std::vector<Move>& path) const {
  for (size_t k = path.size();; --k) {
    const int i = find(std::vector<Move>(path.begin(), path.begin() + std::ptrdiff_t(k)));
    if (i >= 0 || k == 0) return std::max(i, 0);
  }
}

TreeMove CheckpointTree::as_move(int i) const {
  const CheckpointNode& n = nodes_[size_t(i)];
  TreeMove m;
  m.move = n.path.empty() ? -1 : n.path.back();
  m.nodes = nodes_below_[size_t(i)];
  m.jobs = jobs_below_[size_t(i)];
  m.tree_nodes = size_below_[size_t(i)];
  m.expanded = n.expanded;
  switch (n.value) {
    case CheckpointNode::Value::MoverLoses:
      m.verdict = TreeMove::Verdict::Wins, m.pn = 0, m.dn = kInf;
      break;
    case CheckpointNode::Value::MoverWins:
      m.verdict = TreeMove::Verdict::Loses, m.pn = kInf, m.dn = 0, m.answer = n.best;
      break;
    case CheckpointNode::Value::Open:
      m.verdict = TreeMove::Verdict::Open, m.pn = n.dn, m.dn = n.pn;
      break;
  }
  return m;
}

std::vector<TreeMove> CheckpointTree::moves(int i) const {
  std::vector<TreeMove> out;
  for (int c : children_[size_t(i)]) out.push_back(as_move(c));
  // Within a verdict the tree's own order (the order the program made
  // the moves in) breaks ties: stable_sort keeps it.
  std::stable_sort(out.begin(), out.end(), [](const TreeMove& a, const TreeMove& b) {
    const auto key = [](const TreeMove& m) {
      const int rank = m.verdict == TreeMove::Verdict::Wins   ? 0
                       : m.verdict == TreeMove::Verdict::Open ? 1
                                                              : 2;
      return rank == 1 ? std::make_tuple(rank, m.pn, m.dn) : std::make_tuple(rank, 0u, 0u);
    };
    return key(a) < key(b);
  });
  return out;
}

std::vector<Move> CheckpointTree::cheapest_line(int i) const {
  std::vector<Move> line;
  while (nodes_[size_t(i)].value == CheckpointNode::Value::Open && !children_[size_t(i)].empty()) {
    int next = -1;
    for (int c : children_[size_t(i)]) {
      const CheckpointNode& n = nodes_[size_t(c)];
      if (n.value != CheckpointNode::Value::Open) continue;
      if (nodes_[size_t(i)].best >= 0 && n.path.back() == nodes_[size_t(i)].best) {
        next = c;
        break;
      }
      if (next < 0 || n.dn < nodes_[size_t(next)].dn) next = c;
    }
    if (next < 0) break;
    line.push_back(nodes_[size_t(next)].path.back());
    i = next;
  }
  return line;
}

}  // namespace konobi
