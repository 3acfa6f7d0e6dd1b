// The proof pieces of a manager's solve on disk (solver/search/proof_pieces.h):
// a folder beside the checkpoint (results/konobi-6x6.pieces/ for
// results/konobi-6x6.checkpoint.xz) with, per open class, numbered segment
// files `POINT-NNNN.xz`. Each checkpoint adds one segment per class holding
// the entries built since the last one, so writing costs what is new, and
// every segment is written atomically: a stop at any moment leaves whole
// segments, of which the last ones may be missing (their nodes' proofs are
// then built again at the class's end, from the table or by search). A
// class's segments go once its proof file is written. Only solves that
// write proofs (--proof) keep pieces.
//
// A segment is a proof file's layout (solver/verify/proof_file.h) with
// first line `pieces 1`, fields `game` (the checkpoint's identity: game,
// size, rules) and `class`, then entry lines as in a proof. A segment that
// cannot be read, or is of another solve, is refused with its path named.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "solver/search/proof_pieces.h"

namespace konobi {

class PieceFiles {
 public:
  // `identity` names the solve (checkpoint_identity's game, size, rules);
  // segments saying anything else are refused.
  PieceFiles(std::string folder, std::string identity);

  // The folder beside a checkpoint file: its name without ".checkpoint.xz"
  // (or with ".pieces" added when it does not end so) plus ".pieces".
  static std::string folder_for(const std::string& checkpoint_path);

  // Reads every segment of class `point` (such as "c3") into its pieces,
  // handing each entry line to `each` too when given (the pieces keep only
  // a hash of the position). `each` is called from the threads of the
  // caller's TBB arena, several at once and in no set order, so it must be
  // safe to call concurrently. Throws std::runtime_error naming the file
  // when one is damaged or of another solve. Reading 6x6 b3's 46 M entries
  // into the table takes minutes, so a raised `stop` (Ctrl-C) ends it
  // early: returns false then, with the class holding part of its pieces
  // and part of them handed to `each`; the segments stay on disk and a
  // flush still numbers on after all of them.
  bool load(const std::string& point, const std::function<void(const std::string&)>& each = {},
            const std::atomic<bool>* stop = nullptr);

  // The pieces of a class (empty when none were loaded or added).
  const ProofPieces& pieces(const std::string& point) { return classes_[point].pieces; }

  // Adds entry lines to a class; the new ones are written by the next
  // flush. Returns how many were new.
  size_t add(const std::string& point, const std::vector<std::string>& lines);

  // Writes one new segment for each class with lines not yet on disk.
  void flush();

  // Forgets a class and removes its segments (its proof is written), and
  // the temporaries of segment writes that a kill -9 cut short; then the
  // folder, when that leaves it empty.
  void remove(const std::string& point);

  // Entries not yet on disk, for all classes.
  size_t pending() const;

 private:
  struct Class {
    ProofPieces pieces;
    std::vector<std::string> unsaved;
    int next_segment = 1;
    bool scanned = false;
  };
  std::vector<std::pair<int, std::string>> segments(const std::string& point) const;  // number, path
  void scan(const std::string& point, Class& c);

  std::string folder_, identity_;
  std::map<std::string, Class> classes_;
};

}  // namespace konobi
