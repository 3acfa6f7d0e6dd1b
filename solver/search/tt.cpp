#include "tt.h"

#include <cstring>

namespace konobi {

TranspositionTable::TranspositionTable(double megabytes) {
  const double bytes = megabytes * 1024.0 * 1024.0;
  if (!(bytes >= double(sizeof(TTBucket))))
    throw std::invalid_argument("a transposition table of " + std::to_string(megabytes) +
                                " MB cannot hold one 64-byte bucket");
  // No system has 2^48 bytes (256 TiB), and far beyond that the byte count
  // below would overflow: such a size gets the message a too-big table gets.
  if (!(bytes < 0x1p48)) throw_not_enough_memory(bytes);
  // As many buckets as fit: the index needs no power of two.
  nbuckets_ = size_t(bytes / sizeof(TTBucket));
  memory_ = allocate_big_zeroed(nbuckets_ * sizeof(TTBucket));
  table_ = static_cast<TTBucket*>(memory_.get());
}

void TranspositionTable::clear() { std::memset(static_cast<void*>(table_), 0, nbuckets_ * sizeof(TTBucket)); }

// Keys are hashed, so the first buckets are as fair a sample as any. A
// sample spread over the table instead touched a page every few megabytes:
// the first progress line of a 16 GiB 6x6 solve had the kernel clear 8 GiB
// and came 18 s late.
double TranspositionTable::fill() const {
  const size_t sample = std::min<size_t>(nbuckets_, 4096);
  size_t used = 0;
  for (size_t i = 0; i < sample; ++i)
    for (const TTEntry& e : table_[i].e) used += !e.empty();
  return double(used) / double(sample * 4);
}

}  // namespace konobi
