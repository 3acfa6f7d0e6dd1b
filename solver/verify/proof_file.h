// The text layout every proof file shares (docs/PROOFS.md), whatever the
// game: a first line naming the format and its version, named header fields
// one per line in a fixed order, `entries K`, K entry lines and `end`. The
// games differ only in their fields and in what an entry line says, so the
// writer (solver/search/proof.h) and the checkers read and write the layout
// here. It includes nothing from core/.
#pragma once

#include <stdexcept>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace konobi {

struct ProofFile {
  std::string format;                                       // the first line, e.g. "konobi-proof 1"
  std::vector<std::pair<std::string, std::string>> fields;  // header fields, in order
  std::vector<std::string> entries;                         // the entry lines
  // Entry lines after `entries`, packed one after another, each ending in
  // '\n': `packed_count` of them. A builder of a hundred million format-2
  // entries (a move each) holds them in 300 MB this way, not 3 GB as strings.
  std::string packed;
  size_t packed_count = 0;
  size_t entry_count() const { return entries.size() + packed_count; }

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

// Reads the layout one entry at a time, without holding the entries: a
// format-2 proof is checked as it is read (docs/PROOFS.md), and one of a
// hundred million entries would take gigabytes as a vector of lines. The
// constructor reads the first line, the header fields `names` in order and
// `entries K`; next() gives the entries; finish() wants `end` after the
// K-th. Every error is a ProofFormatError naming the line.
class ProofReader {
 public:
  // `formats`: the first lines accepted (e.g. "konobi-proof 1" and
  // "konobi-proof 2"); what another first line is said not to be:
  // `format_name`, e.g. "a konobi proof file". The text must outlive the reader.
  ProofReader(std::string_view text, const std::vector<std::string>& formats, const std::string& format_name,
              const std::vector<std::string>& names);

  const std::string& format() const { return format_; }
  // The value of a header field; throws std::out_of_range when absent.
  const std::string& field(const std::string& name) const;
  const std::vector<std::pair<std::string, std::string>>& fields() const { return fields_; }
  size_t count() const { return count_; }
  size_t read() const { return read_; }     // entries given so far
  size_t line() const { return line_no_; }  // the line number of the last line read

  // The next entry, or nothing after the K-th; throws when the file ends
  // before it (truncated).
  std::optional<std::string_view> next();
  // After the K-th entry: throws unless the next line is `end`.
  void finish();

 private:
  std::string_view next_line(const std::string& what);
  std::string at() const { return "line " + std::to_string(line_no_) + ": "; }

  std::string_view text_;
  size_t pos_ = 0, line_no_ = 0, count_ = 0, read_ = 0;
  std::string format_;
  std::vector<std::pair<std::string, std::string>> fields_;
};

// Reads the layout, expecting first line `format` (what it says when that
// line differs: `format_name`, e.g. "a konobi proof file") and exactly the
// header fields `names` in that order. A missing `end` or fewer entry lines
// than announced is reported as truncated. Throws ProofFormatError.
ProofFile read_proof_file(const std::string& text, const std::string& format, const std::string& format_name,
                          const std::vector<std::string>& names);

}  // namespace konobi
