// A class's tree read for people (solver/jobs/tree_view.h, `konobi tree`):
// nodes found by their paths, a move's numbers swapped to the side that
// plays it, moves sorted wins / open by cost / losses, subtree sums, the
// line the numbers point to, and trees that cannot be read refused.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <vector>

#include "checkpoint_node.h"
#include "solver/jobs/tree_view.h"
#include "solver/search/tt.h"

using konobi::CheckpointClass;
using konobi::CheckpointNode;
using konobi::CheckpointTree;
using konobi::Move;
using konobi::TreeMove;
using V = CheckpointNode::Value;

namespace {

CheckpointNode node(std::vector<Move> path, V value, uint32_t pn, uint32_t dn, uint64_t job_nodes = 0,
                    uint32_t jobs = 0, bool expanded = false, Move best = -1) {
  return konobi_test::checkpoint_node(std::move(path), value, pn, dn, job_nodes, jobs, expanded, best);
}

// Root (White to move) with four moves: 3 refuted (its mover, Black,
// wins there, answered by 9), 5 and 7 open, 8 open but cheaper than 7 on
// dn; under 5 Black's moves 11 (wins for Black) and 12, 13 open.
CheckpointClass sample() {
  CheckpointClass c;
  c.opening = 14;
  c.nodes_list = {
      node({}, V::Open, 40, 900, 0, 0, true),    node({3}, V::MoverWins, 0, 0, 5000, 2, false, 9),
      node({5}, V::Open, 700, 40, 100, 1, true), node({7}, V::Open, 300, 60, 2000, 3),
      node({8}, V::Open, 300, 50, 4000, 4),      node({5, 11}, V::MoverLoses, 0, 0, 700, 1),
      node({5, 12}, V::Open, 45, 500, 800, 2),   node({5, 13}, V::Open, 40, 200, 900, 3),
  };
  return c;
}

}  // namespace

TEST_CASE("a checkpoint tree finds its nodes by path and falls back to the deepest one it holds", "[tree]") {
  const CheckpointTree t(sample());
  CHECK(t.size() == 8);
  CHECK(t.find({}) == 0);
  CHECK(t.find({5, 12}) == 6);
  CHECK(t.find({5, 14}) == -1);
  CHECK(t.find({9}) == -1);
  CHECK(t.deepest({5, 12, 20, 21}) == 6);
  CHECK(t.deepest({9, 1}) == 0);
  CHECK(t.deepest({}) == 0);
  CHECK(CheckpointTree::mover({}) == konobi::White);
  CHECK(CheckpointTree::mover({5}) == konobi::Black);
}

TEST_CASE("a tree move's numbers are its child's from the side that plays it", "[tree]") {
  const CheckpointTree t(sample());
  const TreeMove open = t.as_move(t.find({7}));
  CHECK(open.verdict == TreeMove::Verdict::Open);
  CHECK(open.pn == 60);  // the child's dn: what proving the move wins would take
  CHECK(open.dn == 300);
  const TreeMove refuted = t.as_move(t.find({3}));
  CHECK(refuted.verdict == TreeMove::Verdict::Loses);
  CHECK(refuted.answer == 9);
  CHECK(refuted.pn == konobi::kInf);
  CHECK(refuted.dn == 0);
  const TreeMove won = t.as_move(t.find({5, 11}));
  CHECK(won.verdict == TreeMove::Verdict::Wins);
  CHECK(won.pn == 0);
}

TEST_CASE("a tree node's moves come wins first, then open by pn and dn, then losses", "[tree]") {
  const CheckpointTree t(sample());
  const auto root = t.moves(0);
  REQUIRE(root.size() == 4);
  CHECK(root[0].move == 5);  // pn 40
  CHECK(root[1].move == 8);  // pn 50
  CHECK(root[2].move == 7);  // pn 60
  CHECK(root[3].move == 3);  // refuted
  const auto under5 = t.moves(t.find({5}));
  REQUIRE(under5.size() == 3);
  CHECK(under5[0].move == 11);
  CHECK(under5[0].verdict == TreeMove::Verdict::Wins);
  CHECK(under5[1].move == 13);  // pn 200
  CHECK(under5[2].move == 12);  // pn 500
  CHECK(t.moves(t.find({7})).empty());
}

TEST_CASE("a tree node counts the nodes, jobs and tree nodes at and below it", "[tree]") {
  const CheckpointTree t(sample());
  const TreeMove five = t.as_move(t.find({5}));
  CHECK(five.nodes == 100 + 700 + 800 + 900);
  CHECK(five.jobs == 1 + 1 + 2 + 3);
  CHECK(five.tree_nodes == 4);
  CHECK(five.expanded);
  const TreeMove root = t.as_move(0);
  CHECK(root.move == -1);
  CHECK(root.nodes == 5000 + 2500 + 2000 + 4000);
  CHECK(root.jobs == 2 + 7 + 3 + 4);
  CHECK(root.tree_nodes == 8);
  // The root as a move: its numbers swapped as for any other node.
  CHECK(root.pn == 900);
  CHECK(root.dn == 40);
}

TEST_CASE("the line the numbers point to follows the least pn, or the hint while it is open", "[tree]") {
  CheckpointClass c = sample();
  CHECK(CheckpointTree(c).cheapest_line(0) == std::vector<Move>{5, 13});
  // A hint (the node's best move) is followed while it is open...
  c.nodes_list[0].best = 7;
  CHECK(CheckpointTree(c).cheapest_line(0) == std::vector<Move>{7});
  // ...and passed over once it is proven.
  c.nodes_list[0].best = 3;
  CHECK(CheckpointTree(c).cheapest_line(0) == std::vector<Move>{5, 13});
  // None from a proven node or a leaf.
  const CheckpointTree t(sample());
  CHECK(t.cheapest_line(t.find({3})).empty());
  CHECK(t.cheapest_line(t.find({8})).empty());
}

TEST_CASE("a tree that does not start at its root, repeats a node or has an orphan is refused", "[tree]") {
  CheckpointClass c = sample();
  c.nodes_list.erase(c.nodes_list.begin());
  CHECK_THROWS_AS(CheckpointTree(c), std::invalid_argument);
  c = sample();
  c.nodes_list.push_back(c.nodes_list[3]);
  CHECK_THROWS_AS(CheckpointTree(c), std::invalid_argument);
  c = sample();
  c.nodes_list.push_back(node({6, 1}, V::Open, 1, 1));
  CHECK_THROWS_AS(CheckpointTree(c), std::invalid_argument);
  CHECK_THROWS_AS(CheckpointTree(CheckpointClass{}), std::invalid_argument);
}
