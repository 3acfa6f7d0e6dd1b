#include "proof_file.h"

#include <stdexcept>

namespace konobi {

std::string ProofFile::to_text() const {
  // Sized first: a big proof's text is gigabytes, and growing it by
  // doubling would hold up to three times that at once.
  size_t bytes = format.size() + 64;
  for (const auto& [name, value] : fields) bytes += name.size() + value.size() + 2;
  for (const std::string& e : entries) bytes += e.size() + 1;
  bytes += packed.size();
  std::string s;
  s.reserve(bytes);
  s += format + "\n";
  for (const auto& [name, value] : fields) s += name + " " + value + "\n";
  s += "entries " + std::to_string(entry_count()) + "\n";
  for (const std::string& e : entries) (s += e) += '\n';
  s += packed;
  s += "end\n";
  return s;
}

const std::string& ProofFile::field(const std::string& name) const {
  for (const auto& [n, v] : fields)
    if (n == name) return v;
  throw std::out_of_range("no '" + name + "' field");
}

std::string proof_format_of(const std::string& text) { return text.substr(0, text.find('\n')); }

ProofReader::ProofReader(std::string_view text, const std::vector<std::string>& formats,
                         const std::string& format_name, const std::vector<std::string>& names)
    : text_(text) {
  auto field = [&](const std::string& name) {
    const std::string_view line = next_line("the '" + name + "' line");
    if (line.substr(0, name.size() + 1) != name + " ")
      throw ProofFormatError(at() + "expected '" + name + " ...'");
    return std::string(line.substr(name.size() + 1));
  };
  format_ = std::string(next_line("the header"));
  bool known = false;
  for (const std::string& f : formats) known = known || format_ == f;
  if (!known) {
    std::string expected;
    for (const std::string& f : formats) expected += (expected.empty() ? "'" : " or '") + f + "'";
    throw ProofFormatError(at() + "not " + format_name + " (expected " + expected + ")");
  }
  for (const std::string& name : names) fields_.emplace_back(name, field(name));
  const std::string count_text = field("entries");
  try {
    size_t used = 0;
    count_ = std::stoul(count_text, &used);
    if (used != count_text.size() || count_text[0] == '-') throw std::invalid_argument("trailing text");
  } catch (const std::exception&) { throw ProofFormatError(at() + "bad entry count"); }
}

const std::string& ProofReader::field(const std::string& name) const {
  for (const auto& [n, v] : fields_)
    if (n == name) return v;
  throw std::out_of_range("no '" + name + "' field");
}

std::string_view ProofReader::next_line(const std::string& what) {
  if (pos_ >= text_.size()) throw ProofFormatError("the file ends before " + what + " (truncated?)");
  size_t end = text_.find('\n', pos_);
  if (end == std::string_view::npos) end = text_.size();
  const std::string_view line = text_.substr(pos_, end - pos_);
  pos_ = end + 1;
  ++line_no_;
  return line;
}

std::optional<std::string_view> ProofReader::next() {
  if (read_ == count_) return std::nullopt;
  ++read_;
  return next_line("entry " + std::to_string(read_) + " of " + std::to_string(count_));
}

void ProofReader::finish() {
  if (read_ != count_) throw std::logic_error("ProofReader::finish before the last entry");
  if (next_line("the 'end' line") != "end")
    throw ProofFormatError(at() + "expected 'end' after " + std::to_string(count_) + " entries");
}

ProofFile read_proof_file(const std::string& text, const std::string& format, const std::string& format_name,
                          const std::vector<std::string>& names) {
  ProofReader in(text, {format}, format_name, names);
  ProofFile out;
  out.format = in.format();
  out.fields = in.fields();
  while (const auto e = in.next()) out.entries.emplace_back(*e);
  in.finish();
  return out;
}

}  // namespace konobi
