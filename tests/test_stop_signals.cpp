// The stop flags of long work (solver/cli/progress.h): a first Ctrl-C asks
// for a stop that lets a proof part in hand finish; a second, SIGTERM or
// the memory guard asks for one at once.
#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <thread>

#include "solver/cli/progress.h"

namespace {

void reset_stop_flags() {
  konobi::stop_requested().store(false);
  konobi::stop_at_once().store(false);
}

}  // namespace

TEST_CASE("a first SIGINT asks for a stop, a second or SIGTERM for a stop at once", "[cli]") {
  konobi::install_stop_handler();
  reset_stop_flags();
  std::raise(SIGINT);
  CHECK(konobi::stop_requested().load());
  CHECK_FALSE(konobi::stop_at_once().load());
  std::raise(SIGINT);
  CHECK(konobi::stop_requested().load());
  CHECK(konobi::stop_at_once().load());
  reset_stop_flags();
  std::raise(SIGTERM);
  CHECK(konobi::stop_requested().load());
  CHECK(konobi::stop_at_once().load());
  reset_stop_flags();
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
}

TEST_CASE("the memory guard asks for a stop at once", "[cli]") {
  REQUIRE(konobi::available_memory() > 0);  // Linux: /proc/meminfo
  reset_stop_flags();
  {
    // More than any machine has: the guard trips at its first look.
    const konobi::MemoryGuard guard("test", size_t(1) << 62);
    for (int i = 0; i < 100 && !konobi::stop_at_once().load(); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  CHECK(konobi::stop_requested().load());
  CHECK(konobi::stop_at_once().load());
  reset_stop_flags();
}
