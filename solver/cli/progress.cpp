#include "progress.h"

#include <csignal>
#include <cstdio>
#include <iostream>

#include <unistd.h>

namespace konobi {

std::atomic<bool>& stop_requested() {
  static std::atomic<bool> flag{false};
  return flag;
}

namespace {
extern "C" void on_signal(int) { stop_requested().store(true); }
}  // namespace

void install_stop_handler() {
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
}

size_t resident_bytes() {
  long pages = 0, resident = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return size_t(resident) * size_t(sysconf(_SC_PAGESIZE));
}

std::string human_count(double v) {
  char buf[32];
  const char* unit = "";
  if (v >= 1e9) v /= 1e9, unit = "G";
  else if (v >= 1e6) v /= 1e6, unit = "M";
  else if (v >= 1e3) v /= 1e3, unit = "k";
  std::snprintf(buf, sizeof buf, *unit ? "%.1f%s" : "%.0f%s", v, unit);
  return buf;
}

std::string human_bytes(double v) {
  char buf[32];
  if (v >= 1 << 30) std::snprintf(buf, sizeof buf, "%.2f GiB", v / (1 << 30));
  else std::snprintf(buf, sizeof buf, "%.0f MiB", v / (1 << 20));
  return buf;
}

std::string human_duration(double seconds) {
  char buf[32];
  if (seconds < 90) std::snprintf(buf, sizeof buf, "%.0f s", seconds);
  else if (seconds < 90 * 60) std::snprintf(buf, sizeof buf, "%.0f min", seconds / 60);
  else if (seconds < 48 * 3600) std::snprintf(buf, sizeof buf, "%.1f h", seconds / 3600);
  else std::snprintf(buf, sizeof buf, "%.1f d", seconds / 86400);
  return buf;
}

ProgressReporter::ProgressReporter(std::function<std::string()> line, bool enabled,
                                   std::chrono::milliseconds period)
    : line_(std::move(line)) {
  if (!enabled) return;
  thread_ = std::thread([this, period] {
    std::unique_lock lock(mu_);
    while (!cv_.wait_for(lock, period, [this] { return done_; }))
      if (const std::string l = line_(); !l.empty()) std::cerr << l << std::endl;
  });
}

ProgressReporter::~ProgressReporter() {
  {
    std::lock_guard lock(mu_);
    done_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace konobi
