// KONOBI_ASSERT(cond): a check of an invariant of the engine or the search
// (a move on the board, a child array within its bound, proof numbers within
// [0, kInf], a table entry's check bits). Compiled in when KONOBI_ASSERTS is
// defined, which the sanitizer build does (CMake option KONOBI_ASSERTS, on by
// default with KONOBI_SANITIZE); otherwise it costs nothing and does not
// evaluate its argument. Independent of NDEBUG, which RelWithDebInfo, the
// sanitizer build's type, defines. A failure names the condition and the
// place, then aborts, so that the sanitizer prints the stack.
#pragma once

#ifdef KONOBI_ASSERTS
#include <cstdio>
#include <cstdlib>

namespace konobi {
[[noreturn]] inline void assert_failed(const char* cond, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: KONOBI_ASSERT(%s) failed\n", file, line, cond);
  std::abort();
}
inline constexpr bool kAssertsEnabled = true;
}  // namespace konobi

#define KONOBI_ASSERT(cond) ((cond) ? void(0) : ::konobi::assert_failed(#cond, __FILE__, __LINE__))
#else
namespace konobi {
inline constexpr bool kAssertsEnabled = false;
}  // namespace konobi
   // sizeof: the condition still has to compile, but is never evaluated.
#define KONOBI_ASSERT(cond) static_cast<void>(sizeof(static_cast<bool>(cond)))
#endif
