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

}  // namespace konobi
