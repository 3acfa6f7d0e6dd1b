// Proven positions with their relevance zones (zones.h), for the boards of
// the one-word fast path (up to 8x8): df-pn matches a position against the
// entries of positions that lack one stone of each colour, so a result
// proven once holds wherever the same zone reappears with other stones
// around it (issue 21's zone-aware table; docs/SOLVER.md, "Relevance
// zones and the zone table").
//
// Entries are keyed by the position's plain key (not the canonical one the
// transposition table uses): a zone is a set of points of the board as it
// stands, and the lookups build their keys by removing two stones' Zobrist
// numbers from a plain key. Threads read and write without locks: each slot
// is two words, the zone and a tag holding the key's high bits and the
// result, stored xor the zone, so that a slot read half old and half new
// fails its check instead of pairing a key with another position's zone.
#pragma once

#include <atomic>
#include <cstdint>

#include "big_memory.h"

namespace konobi {

class ZoneTable {
 public:
  // Throws as the transposition table does for a size that cannot hold a
  // slot or that the system lacks.
  explicit ZoneTable(double megabytes);

  struct Hit {
    bool mover_wins;
    int move;       // mover_wins: the winning move, in the board's own orientation
    uint64_t zone;  // the points the result depends on
  };

  bool find(uint64_t key, Hit& out) const {
    const Slot& s = slot(key);
    const uint64_t zone = s.zone.load(std::memory_order_relaxed);
    const uint64_t tag = s.tag.load(std::memory_order_relaxed) ^ zone;
    if ((tag & kValid) == 0 || (tag & ~kMeta) != (key & ~kMeta)) return false;
    out = {bool(tag & kWins), int((tag >> 2) & 0x7f) - 1, zone};
    return true;
  }

  // move: -1 for a loss, else 0 to 63.
  void store(uint64_t key, bool mover_wins, int move, uint64_t zone) {
    Slot& s = slot(key);
    const uint64_t tag =
        (key & ~kMeta) | kValid | (mover_wins ? kWins : 0) | (uint64_t(move + 1) & 0x7f) << 2;
    s.zone.store(zone, std::memory_order_relaxed);
    s.tag.store(tag ^ zone, std::memory_order_relaxed);
  }

  void prefetch(uint64_t key) const { __builtin_prefetch(&slot(key)); }

 private:
  // The tag's low 16 bits hold the result; the index uses the key's low
  // bits too, so a table of 2^16 slots or more loses no key bits to them.
  static constexpr uint64_t kMeta = 0xffff, kValid = 1, kWins = 2;
  struct Slot {
    std::atomic<uint64_t> tag, zone;
  };
  static_assert(sizeof(Slot) == 16);
  Slot& slot(uint64_t key) const { return table_[(key >> 16) & (nslots_ - 1)]; }

  size_t nslots_ = 0;
  BigMemory memory_;
  Slot* table_ = nullptr;
};

}  // namespace konobi
