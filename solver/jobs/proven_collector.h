// The store of an MPI worker: it has no database of its own (the manager's
// process keeps the one store), so what its searches add is buffered and
// goes out with the worker's next report, for the manager to add to the
// store; what they look up is answered from what this worker itself proved,
// kept in a bounded table (one entry per slot, a newer position replacing
// an older one), so memory stays fixed however long the worker runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include "solver/search/proven_source.h"

namespace konobi {

class ProvenCollector final : public ProvenSource {
 public:
  // `slots`: entries find() can answer from; `max_buffered`: positions kept
  // for the next report (past it, add() still remembers a position here but
  // drops it from the report: the store is an optimisation, never needed
  // for a value).
  explicit ProvenCollector(size_t slots = size_t(1) << 18, size_t max_buffered = size_t(1) << 20);

  std::optional<ProvenPosition> find(uint64_t key) override;
  void add(const ProvenPosition& p) override;

  // The positions added since the last take(), to send.
  std::vector<ProvenPosition> take();
  // Positions not sent because the buffer was full.
  uint64_t dropped() const;

 private:
  mutable std::mutex mutex_;
  std::vector<ProvenPosition> table_;  // by key modulo its size; key 0 marks an empty slot
  std::vector<ProvenPosition> buffer_;
  size_t max_buffered_;
  uint64_t dropped_ = 0;
};

}  // namespace konobi
