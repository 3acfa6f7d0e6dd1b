// The text layout every proof file shares (docs/PROOFS.md), whatever the
// game: a first line naming the format and its version, named header fields
// one per line in a fixed order, `entries K`, K entry lines and `end`. The
// games differ only in their fields and in what an entry line says, so the
// writer (solver/search/proof.h) and the checkers read and write the layout
// here. It includes nothing from core/.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace konobi {

struct ProofFile {
  std::string format;                                       // the first line, e.g. "konobi-proof 1"
  std::vector<std::pair<std::string, std::string>> fields;  // header fields, in order
  std::vector<std::string> entries;                         // the entry lines

  std::string to_text() const;
  // The file's line number of entry i (after the format line, the fields
  // and `entries K`), for messages.
  size_t entry_line(size_t i) const { return fields.size() + 3 + i; }
  // The value of a header field; throws std::out_of_range when absent.
  const std::string& field(const std::string& name) const;
};

// A file that does not have the layout: the message names the line.
struct ProofFormatError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The first line of `text` (the format name), or "" for an empty text.
std::string proof_format_of(const std::string& text);

// Reads the layout, expecting first line `format` (what it says when that
// line differs: `format_name`, e.g. "a konobi proof file") and exactly the
// header fields `names` in that order. A missing `end` or fewer entry lines
// than announced is reported as truncated. Throws ProofFormatError.
ProofFile read_proof_file(const std::string& text, const std::string& format, const std::string& format_name,
                          const std::vector<std::string>& names);

}  // namespace konobi
