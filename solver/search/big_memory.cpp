#include "big_memory.h"

#include <cstdio>
#include <fstream>
#include <new>
#include <stdexcept>
#include <string>

#include <sys/mman.h>

namespace konobi {

void BigMemoryFree::operator()(void* p) const {
  if (p) munmap(p, bytes);
}

size_t available_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  unsigned long long kib = 0;
  for (std::string line; std::getline(in, line);)
    if (std::sscanf(line.c_str(), "MemAvailable: %llu kB", &kib) == 1) return size_t(kib) * 1024;
  return 0;
}

void throw_not_enough_memory(double bytes) {
  char msg[200];
  if (const size_t avail = available_memory_bytes(); avail != 0)
    std::snprintf(msg, sizeof msg,
                  "a table of %.0f MiB needs more memory than this system has available (%.0f MiB); give a "
                  "smaller --tt-mb",
                  bytes / (1 << 20), double(avail) / (1 << 20));
  else
    std::snprintf(msg, sizeof msg,
                  "a table of %.0f MiB needs more memory than this system has; give a smaller --tt-mb",
                  bytes / (1 << 20));
  throw std::runtime_error(msg);
}

BigMemory allocate_big_zeroed(size_t bytes) {
  if (bytes == 0) bytes = 1;
  if (const size_t avail = available_memory_bytes(); avail != 0 && bytes > avail)
    throw_not_enough_memory(double(bytes));
  void* mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  if (bytes >= (size_t(2) << 20)) madvise(mem, bytes, MADV_HUGEPAGE);
#endif
  return BigMemory(mem, BigMemoryFree{bytes});
}

}  // namespace konobi
