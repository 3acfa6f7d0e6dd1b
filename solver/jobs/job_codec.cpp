#include "job_codec.h"

#include <bit>
#include <cmath>
#include <stdexcept>

#include "solver/search/tt.h"

namespace konobi {

namespace {

// Limits that no honest message comes near, so that a corrupt length can
// not make the reader allocate gigabytes.
constexpr uint32_t kMaxPath = 4096;
constexpr uint32_t kMaxText = 1 << 16;

class Writer {
 public:
  explicit Writer(MessageKind kind) { bytes_ = {kJobCodecVersion, uint8_t(kind)}; }
  void u8(uint8_t v) { bytes_.push_back(v); }
  void u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes_.push_back(uint8_t(v >> (8 * i)));
  }
  void u64(uint64_t v) {
    for (int i = 0; i < 8; ++i) bytes_.push_back(uint8_t(v >> (8 * i)));
  }
  void i32(int32_t v) { u32(uint32_t(v)); }
  void f64(double v) { u64(std::bit_cast<uint64_t>(v)); }
  void text(const std::string& s) {
    if (s.size() > kMaxText) throw std::runtime_error("message text longer than " + std::to_string(kMaxText));
    u32(uint32_t(s.size()));
    bytes_.insert(bytes_.end(), s.begin(), s.end());
  }
  std::vector<uint8_t> take() { return std::move(bytes_); }

 private:
  std::vector<uint8_t> bytes_;
};

class Reader {
 public:
  Reader(const std::vector<uint8_t>& bytes, MessageKind kind, const char* name) : b_(bytes), name_(name) {
    if (message_kind(bytes) != kind) fail("it is a message of another kind");
    at_ = 2;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(std::string("malformed ") + name_ + " message (" + std::to_string(b_.size()) +
                             " bytes): " + what);
  }
  void need(size_t n, const char* field) const {
    if (b_.size() - at_ < n) fail(std::string("it ends inside ") + field);
  }
  uint8_t u8(const char* field) {
    need(1, field);
    return b_[at_++];
  }
  uint32_t u32(const char* field) {
    need(4, field);
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t(b_[at_++]) << (8 * i);
    return v;
  }
  uint64_t u64(const char* field) {
    need(8, field);
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= uint64_t(b_[at_++]) << (8 * i);
    return v;
  }
  int32_t i32(const char* field) { return int32_t(u32(field)); }
  double f64(const char* field) { return std::bit_cast<double>(u64(field)); }
  // A count of items of `item_bytes` each that must fit in what is left.
  uint32_t count(const char* field, size_t item_bytes, uint32_t max) {
    const uint32_t n = u32(field);
    if (n > max) fail(std::string(field) + " " + std::to_string(n) + " is over " + std::to_string(max));
    need(size_t(n) * item_bytes, field);
    return n;
  }
  std::string text(const char* field) {
    const uint32_t n = count(field, 1, kMaxText);
    std::string s(b_.begin() + long(at_), b_.begin() + long(at_ + n));
    at_ += n;
    return s;
  }
  void end() const {
    if (at_ != b_.size()) fail(std::to_string(b_.size() - at_) + " bytes left over after its last field");
  }

 private:
  const std::vector<uint8_t>& b_;
  const char* name_;
  size_t at_ = 0;
};

Move read_move(Reader& r, const char* field) {
  const int32_t m = r.i32(field);
  if (m < kPass || m > 255)
    r.fail(std::string(field) + " " + std::to_string(m) + " is not a point or a pass");
  return m;
}

uint32_t read_number(Reader& r, const char* field) {
  const uint32_t v = r.u32(field);
  if (v > kInf) r.fail(std::string(field) + " " + std::to_string(v) + " is over the infinite proof number");
  return v;
}

}  // namespace

MessageKind message_kind(const std::vector<uint8_t>& bytes) {
  if (bytes.size() < 2)
    throw std::runtime_error("malformed message: " + std::to_string(bytes.size()) + " bytes");
  if (bytes[0] != kJobCodecVersion)
    throw std::runtime_error("message of format version " + std::to_string(bytes[0]) + ", not " +
                             std::to_string(kJobCodecVersion) + " (a worker built from other sources?)");
  if (bytes[1] < uint8_t(MessageKind::Hello) || bytes[1] > uint8_t(MessageKind::Bye))
    throw std::runtime_error("message of unknown kind " + std::to_string(bytes[1]));
  return MessageKind(bytes[1]);
}

std::vector<uint8_t> encode_hello(const Hello& h) {
  Writer w(MessageKind::Hello);
  w.i32(h.slots);
  w.text(h.setup);
  return w.take();
}

Hello decode_hello(const std::vector<uint8_t>& bytes) {
  Reader r(bytes, MessageKind::Hello, "hello");
  Hello h;
  h.slots = r.i32("slots");
  if (h.slots < 1 || h.slots > Hello::kMaxSlots) r.fail("slots " + std::to_string(h.slots) + " out of range");
  h.setup = r.text("setup");
  r.end();
  return h;
}

std::vector<uint8_t> encode_job(const Job& j) {
  Writer w(MessageKind::Job);
  w.u64(j.id);
  w.i32(j.opening);
  if (j.path.size() > kMaxPath)
    throw std::runtime_error("a job's path is longer than " + std::to_string(kMaxPath));
  w.u32(uint32_t(j.path.size()));
  for (Move m : j.path) w.i32(m);
  w.u64(j.max_nodes);
  w.u64(j.min_nodes);
  w.u32(j.th_pn);
  w.u32(j.th_dn);
  return w.take();
}

Job decode_job(const std::vector<uint8_t>& bytes) {
  Reader r(bytes, MessageKind::Job, "job");
  Job j;
  j.id = r.u64("id");
  j.opening = r.i32("opening");
  if (j.opening < 0 || j.opening > 255) r.fail("opening " + std::to_string(j.opening) + " is not a point");
  const uint32_t n = r.count("path length", 4, kMaxPath);
  j.path.reserve(n);
  for (uint32_t i = 0; i < n; ++i) j.path.push_back(read_move(r, "path move"));
  j.max_nodes = r.u64("max_nodes");
  j.min_nodes = r.u64("min_nodes");
  j.th_pn = r.u32("th_pn");
  j.th_dn = r.u32("th_dn");
  if (j.th_pn == 0 || j.th_pn > kInf || j.th_dn == 0 || j.th_dn > kInf) r.fail("thresholds out of range");
  r.end();
  return j;
}

std::vector<uint8_t> encode_report(const WorkerReport& wr) {
  const JobReport& rep = wr.report;
  Writer w(MessageKind::Report);
  w.u64(rep.id);
  w.u8(uint8_t(rep.outcome));
  w.u32(rep.pn);
  w.u32(rep.dn);
  w.i32(rep.best);
  w.u64(rep.nodes);
  w.f64(rep.seconds);
  w.u64(wr.worker_nodes);
  if (rep.proven.size() > UINT32_MAX) throw std::runtime_error("a report with too many proven positions");
  w.u32(uint32_t(rep.proven.size()));
  for (const ProvenPosition& p : rep.proven) {
    w.u64(p.key);
    w.u8(p.mover_wins);
    w.u8(uint8_t(p.best));
    w.u8(p.work);
  }
  return w.take();
}

WorkerReport decode_report(const std::vector<uint8_t>& bytes) {
  Reader r(bytes, MessageKind::Report, "report");
  WorkerReport wr;
  JobReport& rep = wr.report;
  rep.id = r.u64("id");
  const uint8_t outcome = r.u8("outcome");
  if (outcome > uint8_t(JobOutcome::Stopped)) r.fail("outcome " + std::to_string(outcome) + " is unknown");
  rep.outcome = JobOutcome(outcome);
  rep.pn = read_number(r, "pn");
  rep.dn = read_number(r, "dn");
  rep.best = read_move(r, "best");
  rep.nodes = r.u64("nodes");
  rep.seconds = r.f64("seconds");
  if (!std::isfinite(rep.seconds) || rep.seconds < 0) r.fail("seconds is not a time");
  wr.worker_nodes = r.u64("worker nodes");
  const bool wins = rep.outcome == JobOutcome::MoverWins, loses = rep.outcome == JobOutcome::MoverLoses;
  if ((wins && (rep.pn != 0 || rep.dn != kInf)) || (loses && (rep.pn != kInf || rep.dn != 0)))
    r.fail("a proven outcome with the numbers of another");
  if (!wins && rep.best != -1) r.fail("a winning move in a report that is not a win");
  const uint32_t n = r.count("proven count", 11, UINT32_MAX);
  rep.proven.resize(n);
  for (ProvenPosition& p : rep.proven) {
    p.key = r.u64("proven key");
    const uint8_t mw = r.u8("proven value");
    if (mw > 1) r.fail("a proven value of " + std::to_string(mw));
    p.mover_wins = mw;
    p.best = int8_t(r.u8("proven move"));
    p.work = r.u8("proven work");
    if (!p.mover_wins && p.best != -1) r.fail("a proven loss with a winning move");
  }
  r.end();
  return wr;
}

std::vector<uint8_t> encode_progress(uint64_t worker_nodes) {
  Writer w(MessageKind::Progress);
  w.u64(worker_nodes);
  return w.take();
}

uint64_t decode_progress(const std::vector<uint8_t>& bytes) {
  Reader r(bytes, MessageKind::Progress, "progress");
  const uint64_t n = r.u64("worker nodes");
  r.end();
  return n;
}

std::vector<uint8_t> encode_control(Control c) {
  Writer w(MessageKind::Control);
  w.u8(uint8_t(c));
  return w.take();
}

Control decode_control(const std::vector<uint8_t>& bytes) {
  Reader r(bytes, MessageKind::Control, "control");
  const uint8_t c = r.u8("command");
  if (c != uint8_t(Control::StopAll) && c != uint8_t(Control::Shutdown))
    r.fail("command " + std::to_string(c) + " is unknown");
  r.end();
  return Control(c);
}

std::vector<uint8_t> encode_error(const std::string& text) {
  Writer w(MessageKind::Error);
  w.text(text.size() > kMaxText ? text.substr(0, kMaxText) : text);
  return w.take();
}

std::string decode_error(const std::vector<uint8_t>& bytes) {
  Reader r(bytes, MessageKind::Error, "error");
  std::string s = r.text("text");
  r.end();
  return s;
}

std::vector<uint8_t> encode_bye() { return Writer(MessageKind::Bye).take(); }

void decode_bye(const std::vector<uint8_t>& bytes) { Reader(bytes, MessageKind::Bye, "bye").end(); }

}  // namespace konobi
