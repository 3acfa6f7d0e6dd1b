#include "checkpoint.h"

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <unordered_map>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <xxhash.h>

#include "core/notation.h"
#include "solver/io/atomic_file.h"
#include "solver/io/compressed_file.h"
#include "solver/search/tt.h"

namespace konobi {

namespace {

constexpr std::string_view kMagic = "konobi-checkpoint";

const char* value_name(CheckpointNode::Value v) {
  switch (v) {
    case CheckpointNode::Value::Open:
      return "open";
    case CheckpointNode::Value::MoverWins:
      return "win";
    case CheckpointNode::Value::MoverLoses:
      return "loss";
  }
  return "?";
}

std::string path_text(int n, const std::vector<Move>& path) {
  if (path.empty()) return "-";
  std::string s;
  for (Move m : path) {
    if (!s.empty()) s += ',';
    s += move_name(n, m);
  }
  return s;
}

std::string double_text(double x) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);  // shortest form that reads back the same
  return std::string(buf, r.ptr);
}

uint64_t checksum_of(std::string_view text) { return XXH64(text.data(), text.size(), 0); }

std::string hex16(uint64_t x) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(x));
  return buf;
}

// Reads one checkpoint's text line by line; every refusal names the file,
// the line and what is wrong there.
class Reader {
 public:
  Reader(std::string_view text, const std::string& name) : text_(text), name_(name) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("checkpoint " + name_ + ": line " + std::to_string(line_no_) + ": " + what);
  }

  bool next_line() {
    if (pos_ >= text_.size()) return false;
    const size_t end = text_.find('\n', pos_);
    ++line_no_;
    if (end == std::string_view::npos) fail("the line does not end (the file is cut short)");
    line_ = text_.substr(pos_, end - pos_);
    pos_ = end + 1;
    words_.clear();
    size_t i = 0;
    while (i < line_.size()) {
      const size_t j = line_.find(' ', i);
      const size_t e = j == std::string_view::npos ? line_.size() : j;
      if (e == i) fail("two spaces in a row, or a space at an end of the line");
      words_.push_back(line_.substr(i, e - i));
      i = e + 1;
      if (j != std::string_view::npos && i == line_.size()) fail("a space at the end of the line");
    }
    return true;
  }

  std::string_view line() const { return line_; }
  const std::vector<std::string_view>& words() const { return words_; }
  size_t count() const { return words_.size(); }
  std::string_view word(size_t i) const { return words_[i]; }

  uint64_t number(std::string_view field, std::string_view t, uint64_t max) const {
    uint64_t v = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (r.ec == std::errc::result_out_of_range ||
        (r.ec == std::errc() && r.ptr == t.data() + t.size() && v > max))
      fail(std::string(field) + " " + quote_token(t) + " is out of range (at most " + std::to_string(max) +
           ")");
    if (r.ec != std::errc() || r.ptr != t.data() + t.size())
      fail(std::string(field) + " " + quote_token(t) + " is not a whole number");
    return v;
  }

  double seconds(std::string_view t) const {
    double v = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (r.ec != std::errc() || r.ptr != t.data() + t.size() || !std::isfinite(v) || v < 0)
      fail("seconds " + quote_token(t) + " is not a number of seconds");
    return v;
  }

  Move move(int n, std::string_view field, std::string_view t) const {
    try {
      return parse_move(n, t);
    } catch (const ParseError& e) { fail(std::string(field) + ": " + e.what()); }
  }

  // "key value": the header's fields, in their order.
  std::string_view field(std::string_view key) {
    if (!next_line()) fail("the header ends before its field '" + std::string(key) + "'");
    if (count() == 0) fail("an empty line where the field '" + std::string(key) + "' belongs");
    if (word(0) != key)
      fail("unknown field " + quote_token(word(0)) + " (expected '" + std::string(key) + "')");
    const std::string_view rest =
        line_.size() > key.size() ? line_.substr(key.size() + 1) : std::string_view();
    return rest;
  }

  size_t offset() const { return pos_; }

 private:
  std::string_view text_;
  const std::string& name_;
  size_t pos_ = 0;
  int line_no_ = 0;
  std::string_view line_;
  std::vector<std::string_view> words_;
};

// A path as the bytes of its moves, for the set of nodes seen so far.
std::string path_key(const std::vector<Move>& path) {
  return std::string(reinterpret_cast<const char*>(path.data()), path.size() * sizeof(Move));
}

}  // namespace

std::string Checkpoint::to_text() const {
  check_size(size);
  if (game.empty() || game.find_first_of(" \n") != std::string::npos)
    throw std::invalid_argument("a checkpoint's game must be one word");
  if (variant.find('\n') != std::string::npos || variant.find("  ") != std::string::npos ||
      (!variant.empty() && (variant.front() == ' ' || variant.back() == ' ')))
    throw std::invalid_argument("a checkpoint's variant must be one line of words with single spaces");
  std::string t;
  t += std::string(kMagic) + " " + std::to_string(kCheckpointVersion) + "\n";
  t += "game " + game + "\n";
  t += "size " + std::to_string(size) + "\n";
  t += variant.empty() ? std::string("variant\n") : "variant " + variant + "\n";
  t += std::string("symmetry ") + (symmetry ? "1" : "0") + "\n";
  t += "job-nodes " + std::to_string(job_nodes) + "\n";
  for (const CheckpointClass& c : classes) {
    t += "class " + point_name(size, c.opening) + " jobs " + std::to_string(c.jobs) + " nodes " +
         std::to_string(c.nodes) + " seconds " + double_text(c.seconds) + "\n";
    for (const CheckpointNode& node : c.nodes_list) {
      t += path_text(size, node.path);
      t += ' ';
      t += value_name(node.value);
      t += ' ' + std::to_string(node.pn) + ' ' + std::to_string(node.dn) + ' ' +
           std::to_string(node.job_nodes) + ' ' + std::to_string(node.jobs) + ' ' +
           (node.best == -1 ? std::string("-") : move_name(size, node.best)) + ' ' +
           (node.expanded ? '1' : '0') + '\n';
    }
  }
  t += "checksum " + hex16(checksum_of(t)) + "\n";
  return t;
}

Checkpoint Checkpoint::from_text(const std::string& text, const std::string& name) {
  // The checksum first: a file altered anywhere is refused as such, not by
  // whatever the alteration happens to break first.
  {
    const std::string where = "checkpoint " + name + ": ";
    if (text.empty() || text.back() != '\n')
      throw std::runtime_error(where + "no checksum line at the end (cut short?)");
    const size_t start = text.rfind('\n', text.size() - 2);
    const size_t line_start = start == std::string::npos ? 0 : start + 1;
    const std::string_view last(text.data() + line_start, text.size() - 1 - line_start);
    if (last.substr(0, 9) != "checksum ")
      throw std::runtime_error(where + "no checksum line at the end (cut short?)");
    const std::string_view hex = last.substr(9);
    uint64_t want = 0;
    const auto r = std::from_chars(hex.data(), hex.data() + hex.size(), want, 16);
    if (hex.size() != 16 || r.ec != std::errc() || r.ptr != hex.data() + hex.size())
      throw std::runtime_error(where + "the checksum " + quote_token(hex) + " is not 16 hex digits");
    const uint64_t got = checksum_of(std::string_view(text.data(), line_start));
    if (got != want)
      throw std::runtime_error(where + "the checksum does not match (the file holds " + std::string(hex) +
                               ", its contents give " + hex16(got) + "): it was altered or damaged");
  }

  Reader in(std::string_view(text).substr(0, text.rfind('\n', text.size() - 2) + 1), name);
  Checkpoint c;
  if (!in.next_line() || in.count() != 2 || in.word(0) != kMagic)
    in.fail("not a konobi checkpoint (the first line must be '" + std::string(kMagic) + " " +
            std::to_string(kCheckpointVersion) + "')");
  const uint64_t version = in.number("version", in.word(1), UINT32_MAX);
  if (version > uint64_t(kCheckpointVersion))
    in.fail("version " + std::to_string(version) + " is newer than this program reads (" +
            std::to_string(kCheckpointVersion) + "); update konobi");
  if (version != uint64_t(kCheckpointVersion)) in.fail("version " + std::to_string(version) + " is unknown");

  const std::string_view game = in.field("game");
  if (in.count() != 2) in.fail("the game must be one word");
  c.game = std::string(game);
  const std::string_view size = in.field("size");
  if (in.count() != 2) in.fail("the size must be one number");
  c.size = int(in.number("size", size, kMaxSize));
  if (c.size < kMinSize) in.fail("size " + std::to_string(c.size) + " is out of range (3 to 19)");
  c.variant = std::string(in.field("variant"));
  const std::string_view symmetry = in.field("symmetry");
  if (symmetry != "0" && symmetry != "1") in.fail("symmetry " + quote_token(symmetry) + " is not 0 or 1");
  c.symmetry = symmetry == "1";
  const std::string_view job_nodes = in.field("job-nodes");
  if (in.count() != 2) in.fail("job-nodes must be one number");
  c.job_nodes = in.number("job-nodes", job_nodes, UINT64_MAX);

  const int n = c.size;
  // Per class, every path listed so far and whether it was expanded.
  std::unordered_map<std::string, bool> seen;
  std::vector<bool> opening_seen(size_t(n) * size_t(n), false);
  while (in.next_line()) {
    if (in.count() > 0 && in.word(0) == "class") {
      if (in.count() != 8 || in.word(2) != "jobs" || in.word(4) != "nodes" || in.word(6) != "seconds")
        in.fail("a class line is 'class POINT jobs J nodes N seconds S'");
      CheckpointClass k;
      try {
        k.opening = parse_point(n, in.word(1));
      } catch (const ParseError& e) { in.fail(std::string("class opening: ") + e.what()); }
      if (opening_seen[size_t(k.opening)]) in.fail("class " + std::string(in.word(1)) + " is listed twice");
      opening_seen[size_t(k.opening)] = true;
      k.jobs = in.number("jobs", in.word(3), UINT64_MAX);
      k.nodes = in.number("nodes", in.word(5), UINT64_MAX);
      k.seconds = in.seconds(in.word(7));
      c.classes.push_back(std::move(k));
      seen.clear();
      continue;
    }
    if (c.classes.empty()) in.fail("unknown field " + quote_token(in.count() ? in.word(0) : in.line()));
    if (in.count() != 8) in.fail("a node line is 'PATH VALUE PN DN JOB-NODES JOBS BEST EXPANDED'");
    CheckpointNode node;
    if (in.word(0) != "-") {
      const std::string_view p = in.word(0);
      size_t i = 0;
      while (true) {
        const size_t j = p.find(',', i);
        const std::string_view m = p.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i);
        if (m.empty()) in.fail("path " + quote_token(p) + " has an empty move");
        node.path.push_back(in.move(n, "path", m));
        if (j == std::string_view::npos) break;
        i = j + 1;
      }
    }
    const std::string_view v = in.word(1);
    if (v == "open") {
      node.value = CheckpointNode::Value::Open;
    } else if (v == "win") {
      node.value = CheckpointNode::Value::MoverWins;
    } else if (v == "loss") {
      node.value = CheckpointNode::Value::MoverLoses;
    } else {
      in.fail("value " + quote_token(v) + " is not open, win or loss");
    }
    node.pn = uint32_t(in.number("pn", in.word(2), kInf));
    node.dn = uint32_t(in.number("dn", in.word(3), kInf));
    node.job_nodes = in.number("job nodes", in.word(4), UINT64_MAX);
    node.jobs = uint32_t(in.number("jobs", in.word(5), UINT32_MAX));
    node.best = in.word(6) == "-" ? -1 : in.move(n, "best", in.word(6));
    if (in.word(7) != "0" && in.word(7) != "1")
      in.fail("expanded " + quote_token(in.word(7)) + " is not 0 or 1");
    node.expanded = in.word(7) == "1";

    const std::string key = path_key(node.path);
    if (seen.count(key)) in.fail("node " + std::string(in.word(0)) + " is listed twice");
    if (!node.path.empty()) {
      const std::vector<Move> parent(node.path.begin(), node.path.end() - 1);
      const auto it = seen.find(path_key(parent));
      if (it == seen.end())
        in.fail("node " + std::string(in.word(0)) + " comes before its parent " + path_text(n, parent));
      if (!it->second)
        in.fail("node " + std::string(in.word(0)) + " has a parent, " + path_text(n, parent) +
                ", not expanded");
    }
    seen.emplace(key, node.expanded);
    c.classes.back().nodes_list.push_back(std::move(node));
  }
  return c;
}

void write_checkpoint(const std::string& path, const Checkpoint& c) {
  const std::string text = c.to_text();
  try {
    Checkpoint::from_text(text, path);
  } catch (const std::runtime_error& e) {
    throw std::invalid_argument(std::string("not writing a checkpoint that could not be read back: ") +
                                e.what());
  }
  write_file_atomically(path, compress_xz(text));
}

Checkpoint read_checkpoint(const std::string& path, size_t max_text_bytes) {
  const std::string data = read_file(path, kMaxCheckpointFileBytes);
  static const char xz_magic[6] = {'\xfd', '7', 'z', 'X', 'Z', '\0'};
  if (data.size() < sizeof xz_magic || std::memcmp(data.data(), xz_magic, sizeof xz_magic) != 0)
    throw std::runtime_error("checkpoint " + path + " is not xz-compressed (not a checkpoint, or damaged)");
  std::string text;
  try {
    text = decompress(data, Compression::Xz, path, max_text_bytes);
  } catch (const std::runtime_error& e) { throw std::runtime_error(std::string("checkpoint ") + e.what()); }
  return Checkpoint::from_text(text, path);
}

CheckpointLock::CheckpointLock(const std::string& checkpoint_path) {
  const std::string lock = checkpoint_path + ".lock";
  fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::runtime_error("cannot open the lock file " + lock + ": " + std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    if (err != EWOULDBLOCK) {
      ::close(fd_);
      throw std::runtime_error("cannot lock " + lock + ": " + std::strerror(err));
    }
    // The holder writes its pid just after it gets the lock: wait a moment
    // for it when the file is still empty.
    std::string pid;
    for (int i = 0; i < 50 && pid.empty(); ++i) {
      if (i) std::this_thread::sleep_for(std::chrono::milliseconds(2));
      char buf[32];
      const ssize_t got = ::pread(fd_, buf, sizeof buf - 1, 0);
      if (got > 0) pid.assign(buf, size_t(got));
      while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
    }
    ::close(fd_);
    fd_ = -1;
    throw std::runtime_error("another solve is using " + checkpoint_path + " (process " +
                             (pid.empty() ? std::string("unknown") : pid) +
                             "); wait for it to end or give another --checkpoint");
  }
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, pid.data(), pid.size(), 0) != ssize_t(pid.size())) {
    const int err = errno;
    ::close(fd_);
    throw std::runtime_error("cannot write the lock file " + lock + ": " + std::strerror(err));
  }
}

CheckpointLock::~CheckpointLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the flock
}

}  // namespace konobi
