// Fuzz target: the .xz and .gz readers (solver/io/compressed_file.*), which
// verify-proof reads compressed proofs with. The first byte picks the
// format, the rest is the file. Output is capped at 1 MiB, as verify-proof
// caps it at its --max-mb, so a bomb is a rejection, not a memory blow-up;
// std::runtime_error is the documented rejection (corrupt, truncated, too
// large). What an accepted .xz unpacks to must pack and unpack to itself.
#include <stdexcept>

#include "fuzz_support.h"
#include "solver/io/compressed_file.h"

using namespace konobi;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1 || size > 65536) return 0;
  const Compression kind = data[0] & 1 ? Compression::Gzip : Compression::Xz;
  const std::string_view file(reinterpret_cast<const char*>(data + 1), size - 1);
  std::string text;
  try {
    text = decompress(file, kind, "fuzz input", size_t(1) << 20);
  } catch (const std::runtime_error&) { return 0; }
  try {
    if (decompress(compress_xz(text), Compression::Xz, "the repacked file", size_t(1) << 20) != text)
      konobi_fuzz::finding("an unpacked file changes when packed and unpacked again");
  } catch (const std::runtime_error& e) {
    konobi_fuzz::finding(std::string("an unpacked file does not survive packing: ") + e.what());
  }
  return 0;
}
