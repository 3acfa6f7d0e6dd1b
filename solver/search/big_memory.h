// Large zero-filled memory for the search's tables. Every probe lands on a
// random page, so with 4 KiB pages a big table misses the TLB on nearly
// every access: the memory comes straight from mmap (already zero, so no
// second pass to clear it) with a request for 2 MiB pages where the kernel
// grants them. The request is only a hint; nothing breaks without it.
#pragma once

#include <cstddef>
#include <memory>

namespace konobi {

struct BigMemoryFree {
  size_t bytes = 0;
  void operator()(void* p) const;
};
using BigMemory = std::unique_ptr<void, BigMemoryFree>;

// Throws std::runtime_error, saying how much there is, when `bytes` is more
// than the system has available (Linux's MemAvailable): the kernel would
// grant such a mapping and kill the process once the pages were touched,
// hours into a solve. Throws std::bad_alloc when the mapping itself fails.
BigMemory allocate_big_zeroed(size_t bytes);

// Throws allocate_big_zeroed's message for a table of `bytes`, which may be
// more than a size_t holds.
[[noreturn]] void throw_not_enough_memory(double bytes);

// MemAvailable in bytes, or 0 where the system does not tell.
size_t available_memory_bytes();

}  // namespace konobi
