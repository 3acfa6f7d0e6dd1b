// The transposition table shared by every search thread: 64-byte buckets of
// four 16-byte entries, each keeping 32 bits of the canonical key (the bucket
// index stands for the low bits, as in Pons' Connect Four table), the proof and
// disproof numbers, and a log-scale measure of the work spent. Replacement
// keeps expensive entries: a new entry evicts the cheapest unproven one.
// Threads lock a bucket through a spin-lock byte inside the bucket itself,
// so the table holds only consistent entries and taking the lock touches no
// cache line but the bucket's: with a separate array of locks, every probe
// pulled a lock line away from the other core.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "big_memory.h"
#include "core/assert.h"

namespace konobi {

// Proof numbers saturate here: a value this large means "proven impossible".
constexpr uint32_t kInf = 0x3fffffff;

// The check is 35 bits of the key: the high 31 in `check` and 4 low ones
// in the two top bits of pn and dn, which proof numbers (at most kInf,
// 30 bits) leave free. The bucket stands for about 27 more on a 10 GiB
// table. With 31 bits alone a probe of an absent key matched one of its
// bucket's four entries once in 5e8, so a 6x6 run of 1e11 probes read
// about 200 other positions' numbers as its own (a 6x6 b3 proof build
// met a claim that the rules refute); 4 more bits make that 16 times rarer.
struct TTEntry {
  uint32_t check = 0;  // key bits 32..62 with the lowest bit set; 0 means empty
  uint32_t pn = 0;     // cost to prove that the side to move wins (low 30 bits), key bits 0..1 (top 2)
  uint32_t dn = 0;     // cost to prove that the side to move loses (low 30 bits), key bits 2..3 (top 2)
  uint8_t work = 0;    // ~ 2 * log2(nodes spent on this position), at most 128
  int8_t best = -1;    // once proven, a winning move as the keyed image sees it (table_move); else -1
  uint8_t busy = 0;    // threads inside this position now (parallel search)
  uint8_t lock = 0;    // e[0]'s is the bucket's lock; the others are unused
  bool empty() const { return check == 0; }
  static constexpr uint32_t kNumbers = 0x3fffffff;  // the bits of pn and dn that hold numbers
  uint32_t proof() const { return pn & kNumbers; }
  uint32_t disproof() const { return dn & kNumbers; }
};
static_assert(sizeof(TTEntry) == 16);

struct alignas(64) TTBucket {
  TTEntry e[4];
};

class TranspositionTable {
 public:
  // Throws std::invalid_argument when `megabytes` cannot hold one bucket and
  // std::runtime_error or std::bad_alloc when the memory is not there
  // (allocate_big_zeroed).
  explicit TranspositionTable(double megabytes);

  struct Found {
    bool hit = false;
    uint32_t pn = 1, dn = 1;
    uint16_t work = 0;
    int8_t best = -1;
    uint8_t busy = 0;
  };

  Found probe(uint64_t key) const {
    TTBucket& b = bucket(key);
    Lock lock(b);
    for (const TTEntry& e : b.e)
      if (holds(e, key)) {
        KONOBI_ASSERT(e.proof() <= kInf && e.disproof() <= kInf);
        return {true, e.proof(), e.disproof(), e.work, e.best, e.busy};
      }
    return {};
  }

  // Starts loading key's bucket so that a later probe finds it in cache.
  void prefetch(uint64_t key) const { __builtin_prefetch(&bucket(key)); }

  // Writes pn/dn/best for key, adding `work_nodes` to its effort.
  void store(uint64_t key, uint32_t pn, uint32_t dn, int8_t best, uint64_t work_nodes) {
    // Both 0 would read as an empty entry; above kInf is no proof number.
    KONOBI_ASSERT(pn <= kInf && dn <= kInf && (pn != 0 || dn != 0));
    TTBucket& b = bucket(key);
    Lock lock(b);
    TTEntry* slot = find_or_replace(b, key);
    if (!holds(*slot, key)) slot->work = 0;  // a replaced entry's work is not ours
    set_key(*slot, key, pn, dn);
    slot->best = best;
    slot->work = std::max<uint8_t>(slot->work, work_code(work_nodes));
    if (pn == 0 || dn == 0) slot->busy = 0;
    KONOBI_ASSERT(entries_for(b, key) == 1);
  }

  // Empties key's entry, if the table holds one: the proof builder's
  // repair of a proven value that a check of the rules showed wrong (a
  // false hit, or a proof built on one). Forgetting, not storing numbers,
  // since the entry may be another position's whose check bits match.
  void forget(uint64_t key) {
    TTBucket& b = bucket(key);
    Lock lock(b);
    for (TTEntry& e : b.e)
      if (holds(e, key)) {
        // Field by field: a whole-entry copy would overwrite e[0]'s lock.
        e.check = e.pn = e.dn = 0;
        e.work = e.busy = 0;
        e.best = -1;
      }
  }

  // Marks (delta +1) or unmarks (-1) a position as being searched by a
  // thread; others read it to steer elsewhere.
  void add_busy(uint64_t key, int delta) {
    TTBucket& b = bucket(key);
    Lock lock(b);
    for (TTEntry& e : b.e)
      if (holds(e, key)) {
        e.busy = uint8_t(std::clamp(int(e.busy) + delta, 0, 255));
        return;
      }
    if (delta > 0) {
      TTEntry* slot = find_or_replace(b, key);
      // Field by field: a whole-entry copy would overwrite e[0]'s lock.
      set_key(*slot, key, 1, 1);
      slot->work = 0;
      slot->best = -1;
      slot->busy = uint8_t(delta);
    }
    KONOBI_ASSERT(entries_for(b, key) <= 1);
  }

  void clear();
  size_t buckets() const { return nbuckets_; }
  size_t bytes() const { return nbuckets_ * sizeof(TTBucket); }
  // Share of the entries in use, sampled.
  double fill() const;

  static uint8_t work_code(uint64_t nodes) { return nodes == 0 ? 0 : uint8_t(2 * std::bit_width(nodes)); }

 private:
  struct Lock {
    explicit Lock(TTBucket& b) : f_(b.e[0].lock) {
      while (f_.exchange(1, std::memory_order_acquire))
        while (f_.load(std::memory_order_relaxed)) {}
    }
    ~Lock() { f_.store(0, std::memory_order_release); }
    std::atomic_ref<uint8_t> f_;
  };

  static uint32_t check(uint64_t key) { return uint32_t(key >> 32) | 1; }  // never 0
  // Key bits 0..3 in the top bits of pn and dn (TTEntry): the bucket is
  // chosen by the low half's high bits, so these are free of it.
  static uint32_t pn_tag(uint64_t key) { return uint32_t(key & 3) << 30; }
  static uint32_t dn_tag(uint64_t key) { return uint32_t(key >> 2 & 3) << 30; }
  static bool holds(const TTEntry& e, uint64_t key) {
    return e.check == check(key) && (e.pn & ~TTEntry::kNumbers) == pn_tag(key) &&
           (e.dn & ~TTEntry::kNumbers) == dn_tag(key);
  }
  static void set_key(TTEntry& e, uint64_t key, uint32_t pn, uint32_t dn) {
    e.check = check(key);
    e.pn = pn | pn_tag(key);
    e.dn = dn | dn_tag(key);
  }
  // The entries of b that carry key's check bits: one at most, or a probe
  // could read a stale one.
  static int entries_for(const TTBucket& b, uint64_t key) {
    int n = 0;
    for (const TTEntry& e : b.e) n += holds(e, key);
    return n;
  }
  __extension__ typedef unsigned __int128 uint128;  // GCC's and Clang's, quiet under -Wpedantic
  // The bucket scales the key, low half first, to the table (Lemire's
  // multiply-shift), so any number of buckets works: `--tt-mb 12288` gets
  // 12 GiB, where a power of two would leave 8. Up to 2^32 buckets (256
  // GiB) the low 32 bits decide it and the check is the high 32, so the two
  // stay independent.
  TTBucket& bucket(uint64_t key) const {
    const uint64_t low_first = key << 32 | key >> 32;
    return table_[size_t((static_cast<uint128>(low_first) * nbuckets_) >> 64)];
  }

  static TTEntry* find_or_replace(TTBucket& b, uint64_t key) {
    TTEntry* victim = nullptr;
    for (TTEntry& e : b.e) {
      if (holds(e, key)) return &e;
      if (e.empty()) return &e;
    }
    // Evict the least work, sparing proven entries and positions in use.
    auto cost = [](const TTEntry& x) {
      return int(x.work) + ((x.proof() == 0 || x.disproof() == 0) ? 8 : 0) + (x.busy ? 64 : 0);
    };
    for (TTEntry& e : b.e)
      if (!victim || cost(e) < cost(*victim)) victim = &e;
    return victim;
  }

  size_t nbuckets_ = 0;
  BigMemory memory_;
  TTBucket* table_ = nullptr;
};

}  // namespace konobi
