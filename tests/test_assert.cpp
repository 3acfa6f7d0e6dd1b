// KONOBI_ASSERT (core/assert.h): live where KONOBI_ASSERTS is defined (the
// sanitizer build), free and unevaluated elsewhere.
#include <catch2/catch.hpp>

#include <csignal>
#include <cstdio>

#include <sys/wait.h>
#include <unistd.h>

#include "core/assert.h"
#include "core/geometry.h"
#include "core/position.h"

namespace {
// Runs f in a child process with stderr thrown away; true when it aborted.
template <class F>
bool aborts(F f) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    if (!std::freopen("/dev/null", "w", stderr)) _exit(3);
    f();
    _exit(0);
  }
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}
}  // namespace

TEST_CASE("KONOBI_ASSERT checks invariants exactly when KONOBI_ASSERTS is on", "[assert]") {
  int evaluated = 0;
  KONOBI_ASSERT(++evaluated > 0);
  CHECK(evaluated == (konobi::kAssertsEnabled ? 1 : 0));
  CHECK(aborts([] { KONOBI_ASSERT(1 + 1 == 3); }) == konobi::kAssertsEnabled);
  // A real one: a stone on an occupied point.
  const konobi::Geometry<1> g(3);
  CHECK(aborts([&] {
          auto pos = konobi::Position<1>::empty(g);
          pos.place(4);
          pos.place(4);
        }) == konobi::kAssertsEnabled);
#ifdef KONOBI_SANITIZE_BUILD
  CHECK(konobi::kAssertsEnabled);  // the sanitizer build has them on
#endif
}
