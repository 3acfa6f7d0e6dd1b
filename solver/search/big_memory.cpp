#include "big_memory.h"

#include <new>

#include <sys/mman.h>

namespace konobi {

void BigMemoryFree::operator()(void* p) const {
  if (p) munmap(p, bytes);
}

BigMemory allocate_big_zeroed(size_t bytes) {
  if (bytes == 0) bytes = 1;
  void* mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  if (bytes >= (size_t(2) << 20)) madvise(mem, bytes, MADV_HUGEPAGE);
#endif
  return BigMemory(mem, BigMemoryFree{bytes});
}

}  // namespace konobi
