// Writing a file so that readers see the old version or the new one, never
// half of one: write a uniquely named temporary beside it, flush it to disk,
// rename. Only a regular file (or a missing one) is ever replaced: a device,
// a FIFO, a socket or a directory given as an output is refused, and a
// symbolic link is followed, so the file it points to is replaced and the
// link stays. Reading takes regular files only, up to a size limit.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace konobi {

// Throws std::runtime_error naming the path on any failure.
void write_file_atomically(const std::string& path, const std::string& contents);

// Like write_file_atomically, but `make` gets what the file holds now (none
// when it does not exist) and returns the new contents. Writers that go
// through here are serialised by a lock on the file's directory, so `make`
// sees the last writer's file and can refuse to lose what it holds (solve
// keeps every proven opening; docs/RESULTS.md). `make` may throw to leave the
// file as it is.
void update_file_atomically(const std::string& path,
                            const std::function<std::string(const std::optional<std::string>& old)>& make);

// The most read_file takes by default: far more than any results, puzzle or
// plain proof file, far less than a mistake such as a disk image.
constexpr uint64_t kMaxInputFileBytes = uint64_t(4) << 30;

// Opens a regular file for reading and returns its descriptor, which the
// caller closes; *size gets its size. Throws std::runtime_error naming the
// path when it cannot be opened, is a directory or not a regular file (a
// device or a FIFO, which could be endless). Every input file is opened so.
int open_input_file(const std::string& path, uint64_t* size = nullptr);

// The whole of a regular file. Throws std::runtime_error naming the path
// when it cannot be read, is a directory or not a regular file (a device or
// a FIFO, which could be endless), or is bigger than max_bytes.
std::string read_file(const std::string& path, uint64_t max_bytes = kMaxInputFileBytes);

}  // namespace konobi
