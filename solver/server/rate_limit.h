// A token bucket: `rate` messages a second on average, bursts of up to
// `burst`. One per WebSocket connection, used only on its strand.
#pragma once

#include <algorithm>
#include <chrono>

namespace konobi {

class TokenBucket {
 public:
  using Clock = std::chrono::steady_clock;

  TokenBucket(double rate, double burst, Clock::time_point now = Clock::now())
      : rate_(rate), burst_(std::max(burst, 1.0)), tokens_(burst_), last_(now) {}

  // Takes one token if there is one: false means the message is over the limit.
  bool take(Clock::time_point now = Clock::now()) {
    const double elapsed = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    tokens_ = std::min(burst_, tokens_ + std::max(elapsed, 0.0) * rate_);
    if (tokens_ < 1) return false;
    tokens_ -= 1;
    return true;
  }

 private:
  double rate_, burst_, tokens_;
  Clock::time_point last_;
};

}  // namespace konobi
