// A checkpoint: the manager's trees of the classes not yet proven, small
// enough (megabytes) to be committed with the results, so that a solve
// stopped in any way (Ctrl-C, kill -9, a machine that restarts) carries on
// from it on any machine, losing at most the jobs that were in flight. The
// format (docs/JOBS.md) is versioned text, xz-compressed, ending with a
// checksum of everything before it: a truncated or altered file is refused,
// never used. Written atomically; a lock beside it keeps two solves from
// sharing one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/types.h"

namespace konobi {

// One node of a class's tree, named by its path from the class root.
struct CheckpointNode {
  std::vector<Move> path;  // moves from the class root (empty: the root itself); kPass allowed
  enum class Value : uint8_t { Open, MoverWins, MoverLoses } value = Value::Open;
  uint32_t pn = 1, dn = 1;  // Open: the numbers last known, from the node's mover's side
  uint64_t job_nodes = 0;   // nodes that jobs spent on this node while it was a leaf
  uint32_t jobs = 0;        // jobs run on it
  Move best = -1;           // MoverWins: a winning move when known (the node's own orientation)
  bool expanded = false;    // its children are nodes of the tree too
};

struct CheckpointClass {
  int opening = -1;  // the class's representative point
  uint64_t jobs = 0, nodes = 0;
  double seconds = 0;
  // Parents before their children; every expanded node's children that
  // are still needed follow it (a proven node's subtree is dropped).
  std::vector<CheckpointNode> nodes_list;
};

// The format's version: the first line is "konobi-checkpoint 1". A newer
// version is refused with a message to update the program.
constexpr int kCheckpointVersion = 1;
// Reading is bounded: the compressed file, and the text it unpacks to.
constexpr uint64_t kMaxCheckpointFileBytes = uint64_t(256) << 20;
constexpr size_t kMaxCheckpointTextBytes = size_t(1) << 30;

struct Checkpoint {
  // What the trees belong to; a checkpoint of anything else is refused.
  std::string game;  // "konobi" or "gonnect"
  int size = 0;
  std::string variant;  // Gonnect: "ko superko, edges either, ghi strict"; Konobi: ""
  bool symmetry = true;
  uint64_t job_nodes = 0;  // the budget its jobs ran with
  std::vector<CheckpointClass> classes;

  std::string to_text() const;
  // Throws std::runtime_error naming `name` and what is wrong: the version,
  // a line, a field, a path that is not a move list, the checksum.
  static Checkpoint from_text(const std::string& text, const std::string& name);
};

// xz-compressed and atomic (solver/io/atomic_file.h). The text is read back
// before it is written, so a checkpoint that could not be resumed from (a
// child before its parent, a move off the board) is never written: that
// throws std::invalid_argument and leaves the file as it was.
void write_checkpoint(const std::string& path, const Checkpoint& c);
// Throws std::runtime_error naming the path when it is not a whole, valid
// checkpoint (truncated, corrupt, not xz, a checksum that does not match).
Checkpoint read_checkpoint(const std::string& path, size_t max_text_bytes = kMaxCheckpointTextBytes);

// Held for the whole of a solve: an exclusive, non-blocking lock on
// PATH.lock (flock), which the kernel releases when the process ends in any
// way. A second solve on the same checkpoint gets std::runtime_error saying
// which process holds it.
class CheckpointLock {
 public:
  explicit CheckpointLock(const std::string& checkpoint_path);
  ~CheckpointLock();
  CheckpointLock(const CheckpointLock&) = delete;
  CheckpointLock& operator=(const CheckpointLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace konobi
