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

// Throws std::bad_alloc when the memory is not there.
BigMemory allocate_big_zeroed(size_t bytes);

}  // namespace konobi
