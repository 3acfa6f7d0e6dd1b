// A once-a-second status line on standard error for long work, and the
// Ctrl-C flag that long work polls so it can save and stop cleanly.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace konobi {

// Raised by SIGINT/SIGTERM once install_stop_handler() has run.
std::atomic<bool>& stop_requested();
// Raised, with stop_requested(), by a second SIGINT, by SIGTERM and by the
// memory guard. Work that is worth finishing before a stop (a proof part
// whose reply the job manager's tree has just proven: minutes of building
// that hold what may have taken hours to prove) polls this one, so that a
// first Ctrl-C lets it finish and a second stops it at once.
std::atomic<bool>& stop_at_once();
void install_stop_handler();

// Resident memory of this process in bytes (0 if unknown).
size_t resident_bytes();
std::string human_count(double v);           // 12.3M
std::string human_bytes(double v);           // 1.2 GiB
std::string human_duration(double seconds);  // 45 s, 12 min, 3.4 h, 5.1 d

// Calls `line()` every `period` on a thread of its own and prints the result
// to stderr (unless empty) until destroyed; an empty line makes it a watchdog.
class ProgressReporter {
 public:
  ProgressReporter(std::function<std::string()> line, bool enabled,
                   std::chrono::milliseconds period = std::chrono::milliseconds(1000));
  ~ProgressReporter();

 private:
  std::function<std::string()> line_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

// Bytes the machine can still give this process: the kernel's
// MemAvailable, or what is left under this process's cgroup limit where
// that is less; 0 when neither can be read.
size_t available_memory();

// Raises stop_requested() once available_memory() falls under `floor`
// bytes, saying why once on stderr: long work then saves and stops as on
// Ctrl-C, where the kernel's out-of-memory killer would end it at once
// (a 6x6 class's proof pieces outgrew 24 GiB so). Looks twice a second.
class MemoryGuard {
 public:
  MemoryGuard(std::string program, size_t floor);
  // A tenth of the machine's memory, at least 1 GiB, and at most half of
  // what is available now besides `reserved` bytes about to be taken (the
  // tables), so that a run given most of the memory does not stop at once.
  static size_t default_floor(size_t reserved);

 private:
  std::atomic<bool> tripped_{false};
  ProgressReporter watch_;  // last: its thread reads the members above
};

}  // namespace konobi
