// How long a falling, noisy number may take to reach zero: the progress
// line's "at this rate" for a class's root numbers under the job manager.
// df-pn's numbers jump as jobs report (6x6 c3's dn moved between 29 k and
// 41 k within minutes while falling over hours), so the estimate is the
// least-squares line through the samples of the last half hour, given only
// when they span ten minutes or more and the line falls, and the time is
// the number as it is now over that line's rate. It says how long
// the trend would take, not how long the proof will: a number can stall or
// climb again, and then no estimate is shown.
#pragma once

#include <deque>
#include <optional>
#include <utility>

namespace konobi {

class FallEstimate {
 public:
  explicit FallEstimate(double window_seconds = 1800, double min_span_seconds = 600)
      : window_(window_seconds), min_span_(min_span_seconds) {}

  // A sample: `value` at `t` seconds (t not decreasing).
  void add(double t, double value) {
    samples_.emplace_back(t, value);
    while (samples_.size() > 2 && samples_.front().first < t - window_) samples_.pop_front();
  }

  // Seconds until the last sample's value reaches zero at the fitted
  // line's rate, or nothing when the samples are too few or too close, or
  // do not fall, or would take more than kMaxSpans times the samples' span:
  // a line fitted on half an hour says nothing of weeks, and a number that
  // stands still can fit a slope of rounding error (6x6 c3's pn, unchanged
  // for an hour, once gave "~24026164154018.4 d").
  std::optional<double> seconds_left() const {
    if (samples_.size() < 3 || samples_.back().first - samples_.front().first < min_span_)
      return std::nullopt;
    const double t0 = samples_.front().first;
    double n = 0, st = 0, sv = 0, stt = 0, stv = 0;
    for (const auto& [t, v] : samples_) {
      const double x = t - t0;
      n += 1, st += x, sv += v, stt += x * x, stv += x * v;
    }
    const double det = n * stt - st * st;
    if (det <= 0) return std::nullopt;
    const double slope = (n * stv - st * sv) / det;
    if (!(slope < 0)) return std::nullopt;
    // From the number as it is now, at the fitted rate: the line's own
    // value at the end can lie far below it after a steep fall.
    const double now = samples_.back().second;
    if (now <= 0) return 0.0;
    const double left = now / -slope;
    if (left > kMaxSpans * (samples_.back().first - t0)) return std::nullopt;
    return left;
  }

  static constexpr double kMaxSpans = 100;

 private:
  double window_, min_span_;
  std::deque<std::pair<double, double>> samples_;
};

}  // namespace konobi
