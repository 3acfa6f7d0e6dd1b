#include "proof_file.h"

#include <sstream>

namespace konobi {

std::string ProofFile::to_text() const {
  // Sized first: a big proof's text is gigabytes, and growing it by
  // doubling would hold up to three times that at once.
  size_t bytes = format.size() + 64;
  for (const auto& [name, value] : fields) bytes += name.size() + value.size() + 2;
  for (const std::string& e : entries) bytes += e.size() + 1;
  std::string s;
  s.reserve(bytes);
  s += format + "\n";
  for (const auto& [name, value] : fields) s += name + " " + value + "\n";
  s += "entries " + std::to_string(entries.size()) + "\n";
  for (const std::string& e : entries) (s += e) += '\n';
  s += "end\n";
  return s;
}

const std::string& ProofFile::field(const std::string& name) const {
  for (const auto& [n, v] : fields)
    if (n == name) return v;
  throw std::out_of_range("no '" + name + "' field");
}

std::string proof_format_of(const std::string& text) { return text.substr(0, text.find('\n')); }

ProofFile read_proof_file(const std::string& text, const std::string& format, const std::string& format_name,
                          const std::vector<std::string>& names) {
  ProofFile out;
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  auto at = [&] { return "line " + std::to_string(line_no) + ": "; };
  auto next_line = [&](const std::string& what) {
    if (!std::getline(in, line)) throw ProofFormatError("the file ends before " + what + " (truncated?)");
    ++line_no;
  };
  auto field = [&](const std::string& name) {
    next_line("the '" + name + "' line");
    if (line.rfind(name + " ", 0) != 0) throw ProofFormatError(at() + "expected '" + name + " ...'");
    return line.substr(name.size() + 1);
  };
  next_line("the header");
  if (line != format) throw ProofFormatError(at() + "not " + format_name + " (expected '" + format + "')");
  out.format = line;
  for (const std::string& name : names) out.fields.emplace_back(name, field(name));
  const std::string count_text = field("entries");
  size_t count = 0;
  try {
    size_t used = 0;
    count = std::stoul(count_text, &used);
    if (used != count_text.size()) throw std::invalid_argument("trailing text");
  } catch (const std::exception&) { throw ProofFormatError(at() + "bad entry count"); }
  for (size_t i = 0; i < count; ++i) {
    next_line("entry " + std::to_string(i + 1) + " of " + std::to_string(count));
    out.entries.push_back(line);
  }
  next_line("the 'end' line");
  if (line != "end")
    throw ProofFormatError(at() + "expected 'end' after " + std::to_string(count) + " entries");
  return out;
}

}  // namespace konobi
