#include "piece_files.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_invoke.h>

#include "solver/io/atomic_file.h"
#include "solver/io/compressed_file.h"
#include "solver/verify/proof_file.h"

namespace konobi {

namespace {

constexpr const char* kFormat = "pieces 1";
constexpr const char* kSuffix = ".checkpoint.xz";

// "c3-0007.xz" for class "c3": 7; anything else (a temporary of an atomic
// write, another class's segment): -1.
int segment_number(const std::string& name, const std::string& point) {
  const std::string head = point + "-";
  if (name.size() <= head.size() + 3 || name.compare(0, head.size(), head) != 0) return -1;
  if (name.compare(name.size() - 3, 3, ".xz") != 0) return -1;
  const std::string digits = name.substr(head.size(), name.size() - head.size() - 3);
  if (digits.empty() || digits.size() > 9 || !std::all_of(digits.begin(), digits.end(), ::isdigit)) return -1;
  return std::stoi(digits);
}

}  // namespace

PieceFiles::PieceFiles(std::string folder, std::string identity)
    : folder_(std::move(folder)), identity_(std::move(identity)) {}

std::string PieceFiles::folder_for(const std::string& checkpoint_path) {
  const std::string suffix = kSuffix;
  if (checkpoint_path.size() > suffix.size() &&
      checkpoint_path.compare(checkpoint_path.size() - suffix.size(), suffix.size(), suffix) == 0)
    return checkpoint_path.substr(0, checkpoint_path.size() - suffix.size()) + ".pieces";
  return checkpoint_path + ".pieces";
}

std::vector<std::pair<int, std::string>> PieceFiles::segments(const std::string& point) const {
  std::vector<std::pair<int, std::string>> out;
  std::error_code ec;
  if (!std::filesystem::is_directory(folder_, ec)) return out;
  for (const auto& e : std::filesystem::directory_iterator(folder_)) {
    const int k = segment_number(e.path().filename().string(), point);
    if (k >= 0) out.push_back({k, e.path().string()});
  }
  std::sort(out.begin(), out.end());
  return out;
}

void PieceFiles::scan(const std::string& point, Class& c) {
  if (c.scanned) return;
  c.scanned = true;
  for (const auto& [k, path] : segments(point)) c.next_segment = std::max(c.next_segment, k + 1);
}

bool PieceFiles::load(const std::string& point, const std::function<void(const std::string&)>& each,
                      const std::atomic<bool>* stop) {
  Class& c = classes_[point];
  // Numbered past every segment before any is read: a load stopped half
  // way must not let the next flush write over the segments it left.
  scan(point, c);
  const auto stopped = [stop] { return stop && stop->load(std::memory_order_relaxed); };
  for (const auto& [k, path] : segments(point)) {
    if (stopped()) return false;
    const std::string data = read_file(path);
    static const char xz_magic[6] = {'\xfd', '7', 'z', 'X', 'Z', '\0'};
    if (data.size() < sizeof xz_magic || data.compare(0, sizeof xz_magic, std::string(xz_magic, 6)) != 0)
      throw std::runtime_error("proof pieces " + path + " are not xz-compressed (damaged, or not pieces)");
    ProofFile f;
    try {
      f = read_proof_file(decompress(data, Compression::Xz, path), kFormat, "a proof pieces file",
                          {"game", "class"});
    } catch (const std::exception& e) { throw std::runtime_error("proof pieces " + path + ": " + e.what()); }
    if (f.field("game") != identity_ || f.field("class") != point)
      throw std::runtime_error("proof pieces " + path + " belong to " + f.field("game") + ", class " +
                               f.field("class") + ", not to this solve (" + identity_ + ", class " + point +
                               ")");
    // The pieces' map takes the lines one by one while the other threads
    // hand them to `each` (the table's seeding: a parse and a store per
    // line, most of a run's start on 6x6 b3): both are bound by memory
    // latency, so they overlap rather than wait on each other.
    const auto add_all = [&] {
      for (const std::string& line : f.entries) {
        if (stopped()) return;
        c.pieces.add(line);
      }
    };
    const auto hand_all = [&] {
      oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<size_t>(0, f.entries.size(), 4096),
                                [&](const oneapi::tbb::blocked_range<size_t>& r) {
                                  for (size_t i = r.begin(); i != r.end() && !stopped(); ++i)
                                    each(f.entries[i]);
                                });
    };
    try {
      if (each) oneapi::tbb::parallel_invoke(add_all, hand_all);
      else add_all();
    } catch (const std::exception& e) { throw std::runtime_error("proof pieces " + path + ": " + e.what()); }
    if (stopped()) return false;
  }
  return true;
}

size_t PieceFiles::add(const std::string& point, const std::vector<std::string>& lines) {
  Class& c = classes_[point];
  size_t added = 0;
  for (const std::string& line : lines)
    if (c.pieces.add(line)) c.unsaved.push_back(line), ++added;
  return added;
}

void PieceFiles::flush() {
  for (auto& [point, c] : classes_) {
    if (c.unsaved.empty()) continue;
    scan(point, c);
    std::filesystem::create_directories(folder_);
    ProofFile f;
    f.format = kFormat;
    f.fields = {{"game", identity_}, {"class", point}};
    // Moved, not copied (a class's end may flush tens of millions of
    // lines), and moved back if the write fails, to be tried again.
    f.entries = std::move(c.unsaved);
    c.unsaved.clear();
    char name[32];
    std::snprintf(name, sizeof name, "-%04d.xz", c.next_segment);
    try {
      write_file_atomically(folder_ + "/" + point + name, compress_xz(f.to_text()));
    } catch (...) {
      c.unsaved = std::move(f.entries);
      throw;
    }
    ++c.next_segment;
  }
}

void PieceFiles::remove(const std::string& point) {
  for (const auto& [k, path] : segments(point)) std::filesystem::remove(path);
  // And the temporaries that a write killed half-way left of them.
  std::error_code ec;
  if (std::filesystem::is_directory(folder_, ec))
    for (const auto& e : std::filesystem::directory_iterator(folder_)) {
      const std::string name = e.path().filename().string();
      const size_t tmp = name.find(".xz.tmp-");
      if (tmp != std::string::npos && segment_number(name.substr(0, tmp + 3), point) >= 0)
        std::filesystem::remove(e.path(), ec);
    }
  classes_.erase(point);
  if (std::filesystem::is_empty(folder_, ec) && !ec) std::filesystem::remove(folder_, ec);
}

size_t PieceFiles::pending() const {
  size_t n = 0;
  for (const auto& [point, c] : classes_) n += c.unsaved.size();
  return n;
}

}  // namespace konobi
