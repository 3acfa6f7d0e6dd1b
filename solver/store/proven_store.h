// The persistent store of proven positions (docs/JOBS.md): every position a
// job proves at some cost, with its value and winning move, kept in an
// embedded database on disk, so that a position proven once is not searched
// again by another job, run or process. Jobs read and feed it through
// ProvenSource (solver/search/proven_source.h); the proof builder reads it
// where the table forgot. Crash-safe: what was written before a crash is
// there after it, and a damaged file is refused, never half used.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "solver/search/proven_source.h"

namespace konobi {

// What the keys of a store mean: positions of one game with one keying. A
// store made for anything else is refused on opening.
struct StoreIdentity {
  std::string game;        // such as "konobi 6x6" or "gonnect 5x5 ko superko edges either ghi strict"
  bool symmetry = true;    // keys canonical over the 8 symmetries
  uint64_t key_check = 0;  // the table key of a fixed position, so that a change of Zobrist keys is noticed
};

class ProvenStore final : public ProvenSource {
 public:
  // Opens the store at `path`, creating it (and its folder) if missing.
  // `max_mb` caps its size on disk (docs/JOBS.md says what it keeps).
  // Throws std::runtime_error naming the path when it is not a store, is
  // damaged, belongs to another identity or a newer version.
  ProvenStore(const std::string& path, const StoreIdentity& id, double max_mb);
  ~ProvenStore() override;  // writes what is buffered
  ProvenStore(const ProvenStore&) = delete;
  ProvenStore& operator=(const ProvenStore&) = delete;

  std::optional<ProvenPosition> find(uint64_t key) override;
  void add(const ProvenPosition& p) override;
  // Writes every buffered position to disk (before a checkpoint, so that
  // what the checkpoint relies on is in the store too).
  void flush();

  struct Stats {
    uint64_t entries = 0, bytes = 0;         // on disk, after the last flush
    uint64_t finds = 0, hits = 0, adds = 0;  // this process's
  };
  Stats stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace konobi
