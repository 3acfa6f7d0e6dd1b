// A job: one df-pn search of one leaf of the manager's tree, with a node
// budget. The leaf is named by its class (the Black first stone whose
// position is the tree's root) and the moves from there, so that a worker
// in another process rebuilds it from the same command line's game, and a
// Gonnect leaf comes with its history. A report gives the leaf's value, or
// its root numbers when the budget ran out.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/types.h"
#include "solver/search/proven_source.h"

namespace konobi {

struct Job {
  uint64_t id = 0;         // unique within a run
  int opening = -1;        // the class's representative point: its root is Black's stone there, White to move
  std::vector<Move> path;  // from the class root to the leaf: placements, or kPass where the mover must pass
  uint64_t max_nodes = 0;  // the job's budget, counted over all its searches; 0: none
  // The leaf's thresholds, as df-pn would give it from the manager's tree:
  // the job ends (Open) once its pn reaches th_pn or its dn th_dn, where
  // the tree's numbers would send df-pn to another leaf. kInf (0x3fffffff):
  // none, the job runs until its value or its budget.
  uint32_t th_pn = 0x3fffffff, th_dn = 0x3fffffff;
  // Below this many nodes a job goes on past its thresholds: a job must
  // search more than its round trip costs (microseconds in-process, about
  // a millisecond over MPI).
  uint64_t min_nodes = 0;
};

enum class JobOutcome : uint8_t {
  MoverWins,   // the leaf's side to move wins
  MoverLoses,  // it loses
  Open,        // the budget ran out: pn and dn say how near it looked
  Stopped,     // told to stop (Ctrl-C, or the manager no longer needs it)
};

struct JobReport {
  uint64_t id = 0;
  JobOutcome outcome = JobOutcome::Stopped;
  // The leaf's numbers from its mover's side; 0/kInf or kInf/0 when
  // proven; 0/0 when the job has none (it stopped with no table entry).
  uint32_t pn = 0, dn = 0;
  Move best = -1;      // MoverWins: a winning move in the leaf's own orientation, when known; else -1
  uint64_t nodes = 0;  // nodes the job's searches visited
  double seconds = 0;
  // Workers in other processes: positions proven on the way that are worth
  // keeping (ProvenSource::add), for the manager's store. Empty in-process,
  // where jobs feed the store themselves.
  std::vector<ProvenPosition> proven;
};

}  // namespace konobi
