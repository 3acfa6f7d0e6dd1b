// Which file of the page's folder a request target names, if any. The only
// way a path from the network reaches the file system: everything not
// plainly a known file inside the folder is refused, before and after the
// path is resolved (docs/SERVER.md, "Security").
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace konobi {

struct StaticFile {
  int status = 404;            // 200: found; 400: a malformed target; 404: not served
  std::filesystem::path path;  // the canonical path (no links left in it), when found
  std::string content_type;
};

// root: the page's folder, already canonical. target: the request target as
// sent ("/", "/app.js?game=x"); the query string is ignored, "/" names
// index.html. Only files of known types inside root, not hidden, reached
// through no link that leads out of root.
StaticFile find_static_file(const std::filesystem::path& root, std::string_view target);

// The Content-Type of a file name by its extension, or "" for a type not served.
std::string content_type_of(std::string_view name);

}  // namespace konobi
