// Compressed files through liblzma and zlib, streaming, never through a
// shell pipe: the proofs ship as .xz, verify-proof also reads .gz, and
// solve --proof writes .xz. Decompression stops at a limit on the output,
// so a small file that unpacks to gigabytes (a "bomb") is refused while
// it holds no more than the limit in memory.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace konobi {

enum class Compression { None, Xz, Gzip };

// By the name: ".xz", ".gz", anything else is plain.
Compression compression_of(const std::string& path);

// The default limit on a decompressed file: seven times the largest shipped
// proof (140 MiB), and far below what would exhaust a machine.
constexpr size_t kMaxDecompressedBytes = size_t(1) << 30;

// Decompresses `data` (the bytes of a .xz or .gz file named `where`). More
// than `limit` bytes of output throw std::runtime_error naming `where` and
// the limit, unless `prefix` is set: then the first `limit` bytes are
// returned (a header without unpacking a whole proof). Corrupt or
// truncated input throws std::runtime_error naming `where` and the reason.
std::string decompress(std::string_view data, Compression kind, const std::string& where,
                       size_t limit = kMaxDecompressedBytes, bool prefix = false);

// Reads a file, plain or compressed by its name (see compression_of),
// streaming the compressed ones from disk under the same limit.
std::string read_maybe_compressed(const std::string& path, size_t limit = kMaxDecompressedBytes,
                                  bool prefix = false);

// The .xz form of `text`: preset 6 and CRC64, as `xz` writes by default,
// with the dictionary no larger than the text needs.
std::string compress_xz(std::string_view text);

}  // namespace konobi
