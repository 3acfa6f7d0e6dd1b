// The messages between the manager (rank 0) and its MPI workers, as bytes:
// each starts with the format's version and the message's kind (which is
// also its MPI tag), then fixed-width little-endian fields. Decoding checks
// every length and range and refuses a short, long or malformed message
// with std::runtime_error rather than reading past its end; a job's moves
// are checked against the game by job_leaf when it runs. docs/JOBS.md,
// "Workers on other machines", lists the fields.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "job.h"

namespace konobi {

inline constexpr uint8_t kJobCodecVersion = 2;  // 2: jobs carry thresholds

enum class MessageKind : uint8_t {
  Hello = 1,     // worker -> manager, once: its slots and the setup it was started with
  Job = 2,       // manager -> worker: run this job
  Report = 3,    // worker -> manager: a job ended
  Progress = 4,  // worker -> manager, about once a second while it runs jobs: its node count
  Control = 5,   // manager -> worker: STOP_ALL or SHUTDOWN
  Error = 6,     // worker -> manager: the worker failed (its text); it runs nothing more
  Bye = 7,       // worker -> manager, its last: the answer to SHUTDOWN (or after an Error when it ends early)
};

enum class Control : uint8_t { StopAll = 1, Shutdown = 2 };

struct Hello {
  int slots = 0;      // jobs it runs at once (its --threads), 1 to kMaxSlots
  std::string setup;  // what it solves (game, size, options); the manager refuses one unlike its own
  static constexpr int kMaxSlots = 4096;
};

// A report with the worker's running node count (every job it has run,
// those running included), for the manager's progress lines.
struct WorkerReport {
  JobReport report;
  uint64_t worker_nodes = 0;
};

// The kind of an encoded message (its second byte), after checking its
// version; std::runtime_error when it has neither or an unknown kind.
MessageKind message_kind(const std::vector<uint8_t>& bytes);

std::vector<uint8_t> encode_hello(const Hello& h);
std::vector<uint8_t> encode_job(const Job& j);
std::vector<uint8_t> encode_report(const WorkerReport& r);
std::vector<uint8_t> encode_progress(uint64_t worker_nodes);
std::vector<uint8_t> encode_control(Control c);
std::vector<uint8_t> encode_error(const std::string& text);
std::vector<uint8_t> encode_bye();

// Each throws std::runtime_error naming the message and what is wrong.
Hello decode_hello(const std::vector<uint8_t>& bytes);
Job decode_job(const std::vector<uint8_t>& bytes);
WorkerReport decode_report(const std::vector<uint8_t>& bytes);
uint64_t decode_progress(const std::vector<uint8_t>& bytes);
Control decode_control(const std::vector<uint8_t>& bytes);
std::string decode_error(const std::vector<uint8_t>& bytes);
void decode_bye(const std::vector<uint8_t>& bytes);

}  // namespace konobi
