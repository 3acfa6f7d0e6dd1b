#include "progress.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include <unistd.h>

namespace konobi {

std::atomic<bool>& stop_requested() {
  static std::atomic<bool> flag{false};
  return flag;
}

std::atomic<bool>& stop_at_once() {
  static std::atomic<bool> flag{false};
  return flag;
}

namespace {
// Lock-free atomics only: this runs as a signal handler.
static_assert(std::atomic<bool>::is_always_lock_free);
extern "C" void on_signal(int signal) {
  if (signal != SIGINT || stop_requested().load()) stop_at_once().store(true);
  stop_requested().store(true);
}
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

namespace {
// The first number of a file (such as cgroup v2's memory.max), if any.
std::optional<uint64_t> read_number(const char* path) {
  std::ifstream in(path);
  uint64_t v = 0;
  if (in >> v) return v;
  return std::nullopt;
}

// A field of /proc/meminfo, in bytes.
std::optional<uint64_t> meminfo(const std::string& field) {
  std::ifstream in("/proc/meminfo");
  std::string name;
  uint64_t kib = 0;
  std::string unit;
  while (in >> name >> kib) {
    std::getline(in, unit);
    if (name == field + ":") return kib * 1024;
  }
  return std::nullopt;
}

// A field of cgroup v2's memory.stat, in bytes.
std::optional<uint64_t> cgroup_stat(const std::string& field) {
  std::ifstream in("/sys/fs/cgroup/memory.stat");
  std::string name;
  uint64_t v = 0;
  while (in >> name >> v)
    if (name == field) return v;
  return std::nullopt;
}
}  // namespace

size_t available_memory() {
  std::optional<uint64_t> avail = meminfo("MemAvailable");
  // cgroup v2: "max" (no limit) reads as no number. Its use counts the
  // page cache, which the kernel gives back before it kills; the inactive
  // part is left out, as MemAvailable leaves it out.
  if (const auto limit = read_number("/sys/fs/cgroup/memory.max"))
    if (auto used = read_number("/sys/fs/cgroup/memory.current")) {
      const uint64_t cache = cgroup_stat("inactive_file").value_or(0);
      *used = *used > cache ? *used - cache : 0;
      const uint64_t left = *limit > *used ? *limit - *used : 0;
      avail = avail ? std::min(*avail, left) : left;
    }
  return avail ? size_t(*avail) : 0;
}

size_t MemoryGuard::default_floor(size_t reserved) {
  constexpr size_t kGiB = size_t(1) << 30;
  const size_t total = size_t(meminfo("MemTotal").value_or(0));
  const size_t avail = available_memory();
  return std::min(std::max(kGiB, total / 10), avail > reserved ? (avail - reserved) / 2 : 0);
}

MemoryGuard::MemoryGuard(std::string program, size_t floor)
    : watch_(
          [this, program = std::move(program), floor]() -> std::string {
            if (tripped_.load()) return "";
            const size_t left = available_memory();
            if (left == 0 || left >= floor) return "";  // 0: unknown, not empty
            tripped_.store(true);
            stop_at_once().store(true);
            stop_requested().store(true);
            return program + ": stopping as on Ctrl-C, since only " + human_bytes(double(left)) +
                   " of memory is left (under --memory-floor-mb, " + human_bytes(double(floor)) +
                   "; this process holds " + human_bytes(double(resident_bytes())) +
                   "): what is done is saved; run again with --resume, with a smaller --tt-mb or more memory";
          },
          floor > 0, std::chrono::milliseconds(500)) {}

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
