// A search's stop flag raised from outside: once a deadline passes, or once
// a caller's own cancel flag is raised (the web board's undo, the server
// closing), for as long as the relay lives. The searches poll one flag;
// this joins the two reasons to stop into it.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace konobi {

// Lowers `flag`, then raises it once `seconds` have passed (unless
// seconds <= 0) or `cancel` is raised, until destroyed.
class StopRelay {
 public:
  StopRelay(double seconds, const std::atomic<bool>* cancel, std::atomic<bool>& flag) : flag_(flag) {
    flag_ = false;
    thread_ = std::thread([this, seconds, cancel] {
      using Clock = std::chrono::steady_clock;
      const auto t0 = Clock::now();
      std::unique_lock lock(mu_);
      while (!done_) {
        const double left = seconds - std::chrono::duration<double>(Clock::now() - t0).count();
        if ((cancel && cancel->load()) || (seconds > 0 && left <= 0)) {
          flag_ = true;
          break;
        }
        // A cancel flag is polled (nobody signals us when it rises); a bare
        // deadline is simply waited for.
        if (cancel || seconds <= 0) cv_.wait_for(lock, std::chrono::milliseconds(2));
        else cv_.wait_for(lock, std::chrono::duration<double>(left));
      }
    });
  }
  ~StopRelay() {
    {
      std::lock_guard lock(mu_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  StopRelay(const StopRelay&) = delete;
  StopRelay& operator=(const StopRelay&) = delete;

 private:
  std::atomic<bool>& flag_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace konobi
