// A node of a checkpoint's class tree in one call, for the tests that build
// trees by hand (the tree view and `konobi tree`).
#pragma once

#include <utility>
#include <vector>

#include "solver/jobs/checkpoint.h"

namespace konobi_test {

inline konobi::CheckpointNode checkpoint_node(std::vector<konobi::Move> path,
                                              konobi::CheckpointNode::Value value, uint32_t pn, uint32_t dn,
                                              uint64_t job_nodes = 0, uint32_t jobs = 0,
                                              bool expanded = false, konobi::Move best = -1) {
  konobi::CheckpointNode n;
  n.path = std::move(path);
  n.value = value;
  n.pn = pn;
  n.dn = dn;
  n.job_nodes = job_nodes;
  n.jobs = jobs;
  n.expanded = expanded;
  n.best = best;
  return n;
}

}  // namespace konobi_test
