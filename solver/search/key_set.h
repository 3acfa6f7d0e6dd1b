// A flat hash set of 64-bit keys, for the visited sets of big traversals
// (the reachable-position census, proof extraction) where std::unordered_set
// spent most of its time allocating nodes.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include <oneapi/tbb/parallel_sort.h>

#include "core/types.h"

namespace konobi {

// An open-addressing set of 64-bit keys: either filled by many threads at
// once within a capacity reserved beforehand (insert), or by one thread
// that lets it grow (insert_growing). One key value, kEmpty, marks free
// slots; insert_growing keeps it aside, so any key can be stored there.
class KeySet {
 public:
  // Free slots. The census packs states so that none has every bit set.
  static constexpr uint64_t kEmpty = ~uint64_t{0};

  size_t size() const { return count_.load(std::memory_order_relaxed); }
  size_t capacity() const { return slots_.size(); }
  double megabytes() const { return double(slots_.size()) * 8 / (1 << 20); }
  static double megabytes_for(size_t cap) { return double(cap) * 8 / (1 << 20); }

  // Capacity (a power of two) keeping the load under 3/4 with `entries`.
  static size_t capacity_for(size_t entries) {
    size_t cap = 1024;
    while (cap * 3 / 4 < entries) cap *= 2;
    return cap;
  }
  // Not thread-safe: called between batches.
  void reserve(size_t entries) {
    const size_t cap = capacity_for(entries);
    if (cap <= slots_.size()) return;
    std::vector<uint64_t> old = std::move(slots_);
    slots_.assign(cap, kEmpty);
    for (uint64_t k : old)
      if (k != kEmpty) place(k);
  }
  bool insert(uint64_t key) {
    const size_t mask = slots_.size() - 1;
    for (size_t h = mix64(key) & mask;; h = (h + 1) & mask) {
      std::atomic_ref<uint64_t> slot(slots_[h]);
      uint64_t seen = slot.load(std::memory_order_relaxed);
      if (seen == kEmpty) {
        if (slot.compare_exchange_strong(seen, key, std::memory_order_relaxed)) {
          count_.fetch_add(1, std::memory_order_relaxed);
          return true;
        }
        // another thread took the slot first: `seen` is what it wrote
      }
      if (seen == key) return false;
    }
  }
  // Empties the set but keeps its memory, for the next traversal of a
  // similar size: growing again from nothing costs fresh pages and rehashes.
  void clear() {
    std::fill(slots_.begin(), slots_.end(), kEmpty);
    count_ = 0;
    has_empty_key_ = false;
  }
  // Starts loading the slot where `key` would go.
  void prefetch(uint64_t key) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[mix64(key) & (slots_.size() - 1)]);
  }
  // Single-threaded: grows the table as it fills.
  bool insert_growing(uint64_t key) {
    if (key == kEmpty) {
      if (has_empty_key_) return false;
      return has_empty_key_ = true;
    }
    if ((size() + 1) * 4 > capacity() * 3) reserve(std::max<size_t>(size() * 2, 1024));
    return insert(key);
  }
  // The states, sorted; empties the set.
  std::vector<uint64_t> take_sorted() {
    std::vector<uint64_t> out;
    out.reserve(size());
    for (uint64_t k : slots_)
      if (k != kEmpty) out.push_back(k);
    std::vector<uint64_t>().swap(slots_);
    count_ = 0;
    oneapi::tbb::parallel_sort(out.begin(), out.end());
    return out;
  }

 private:
  void place(uint64_t key) {
    const size_t mask = slots_.size() - 1;
    size_t h = mix64(key) & mask;
    while (slots_[h] != kEmpty) h = (h + 1) & mask;
    slots_[h] = key;
    count_.fetch_add(1, std::memory_order_relaxed);
  }
  std::vector<uint64_t> slots_;
  std::atomic<size_t> count_{0};
  bool has_empty_key_ = false;
};

}  // namespace konobi
