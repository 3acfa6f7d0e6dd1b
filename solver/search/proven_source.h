// What the searches see of a persistent store of proven positions: a map
// from a position's table key to its value and a winning move, kept across
// jobs, runs and processes (solver/store holds the database behind it; an
// MPI worker's stand-in collects what it proves for the manager instead).
// df-pn reads it only near a job's root and feeds it only positions whose
// proof cost many nodes, so one virtual call per such node is cheap next to
// what a hit saves; the proof builder reads it where the table forgot.
#pragma once

#include <cstdint>
#include <optional>

namespace konobi {

struct ProvenPosition {
  uint64_t key = 0;         // Game::key(s, symmetry): the table's key
  bool mover_wins = false;  // for the side to move in that position
  int8_t best = -1;         // mover_wins: a winning move as the table keeps it (table_move), else -1
  uint8_t work = 0;         // TranspositionTable::work_code of the nodes its proof cost
};

class ProvenSource {
 public:
  virtual ~ProvenSource() = default;
  // Both may be called from any thread at once.
  virtual std::optional<ProvenPosition> find(uint64_t key) = 0;
  // May be buffered: a position added is found by this process at once,
  // and by others once it is written out.
  virtual void add(const ProvenPosition& p) = 0;
};

}  // namespace konobi
