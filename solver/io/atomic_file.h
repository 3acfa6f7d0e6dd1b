// Writing a file so that readers see the old version or the new one, never
// half of one: write a temporary beside it, flush it to disk, rename.
#pragma once

#include <string>

namespace konobi {

// Throws std::runtime_error naming the path on any failure.
void write_file_atomically(const std::string& path, const std::string& contents);
// Throws std::runtime_error naming the path when it cannot be read.
std::string read_file(const std::string& path);

}  // namespace konobi
