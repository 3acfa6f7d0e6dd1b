#include "static_files.h"

#include <system_error>
#include <vector>

namespace konobi {

namespace fs = std::filesystem;

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Percent-decodes one path; false for a malformed escape or one that hides
// a separator, a backslash, NUL or a control character (which no file name
// of the page has, and which could change how the path is split).
bool decode_path(std::string_view in, std::string& out) {
  out.clear();
  for (size_t i = 0; i < in.size(); ++i) {
    char c = in[i];
    if (c == '%') {
      if (i + 2 >= in.size()) return false;
      const int hi = hex_digit(in[i + 1]), lo = hex_digit(in[i + 2]);
      if (hi < 0 || lo < 0) return false;
      c = char(hi * 16 + lo);
      if (c == '/') return false;
      i += 2;
    }
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f || c == '\\') return false;
    out += c;
  }
  return true;
}

// Whether path lies inside root (both canonical), by whole components.
bool inside(const fs::path& root, const fs::path& path) {
  auto r = root.begin(), p = path.begin();
  for (; r != root.end(); ++r, ++p)
    if (p == path.end() || *r != *p) return false;
  return p != path.end();
}

}  // namespace

std::string content_type_of(std::string_view name) {
  const size_t dot = name.rfind('.');
  if (dot == std::string_view::npos) return "";
  const std::string_view ext = name.substr(dot);
  // clang-format off
  static const std::pair<std::string_view, std::string_view> kTypes[] = {
    {".html", "text/html; charset=utf-8"},
    {".css",  "text/css; charset=utf-8"},
    {".js",   "text/javascript; charset=utf-8"},
    {".svg",  "image/svg+xml"},
    {".png",  "image/png"},
    {".ico",  "image/x-icon"},
    {".json", "application/json"},
    {".txt",  "text/plain; charset=utf-8"},
  };
  // clang-format on
  for (const auto& [e, type] : kTypes)
    if (ext == e) return std::string(type);
  return "";
}

StaticFile find_static_file(const fs::path& root, std::string_view target) {
  StaticFile result;
  target = target.substr(0, target.find('?'));
  // Only origin-form targets ("/x"): an absolute URL or "*" is not a file.
  if (target.empty() || target[0] != '/') return result.status = 400, result;
  std::string path;
  if (!decode_path(target, path)) return result.status = 400, result;
  if (path == "/") path = "/index.html";

  std::vector<std::string> parts;
  size_t start = 1;
  while (true) {
    const size_t slash = path.find('/', start);
    std::string part = path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    // Empty parts ("//"), ".", ".." and hidden files: none of them names a
    // file of the page.
    if (part.empty() || part[0] == '.') return result;
    parts.push_back(std::move(part));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  result.content_type = content_type_of(parts.back());
  if (result.content_type.empty()) return result;

  fs::path file = root;
  for (const std::string& part : parts) file /= part;
  std::error_code ec;
  fs::path canonical = fs::canonical(file, ec);
  // A link may point anywhere: what counts is where it lands.
  if (ec || !inside(root, canonical) || !fs::is_regular_file(canonical, ec) || ec) return result;
  if (content_type_of(canonical.filename().string()) != result.content_type) return result;
  result.status = 200;
  result.path = std::move(canonical);
  return result;
}

}  // namespace konobi
