#include "compressed_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>

#include <lzma.h>
#include <unistd.h>
#include <zlib.h>

#include "atomic_file.h"

namespace konobi {

namespace {

constexpr size_t kChunk = 1 << 16;

std::string mib(size_t bytes) {
  return bytes % (1 << 20) == 0 ? std::to_string(bytes >> 20) + " MiB" : std::to_string(bytes) + " bytes";
}

[[noreturn]] void too_big(const std::string& where, size_t limit) {
  throw std::runtime_error(where + " unpacks to more than " + mib(limit) +
                           ", the limit on a decompressed file (a corrupt file or a decompression bomb?)");
}

// Input arrives through `more` (false at the end of the input); output is
// appended to `out`, never past the limit.
using Source = std::function<bool(std::string_view&)>;

// Appends a decoder's `got` bytes to `out` within `limit`. Past it: throws,
// or with `prefix` keeps the first `limit` bytes and returns true (done).
bool append_within(std::string& out, const char* buf, size_t got, size_t limit, bool prefix,
                   const std::string& where) {
  if (out.size() + got > limit) {
    if (!prefix) too_big(where, limit);
    out.append(buf, limit - out.size());
    return true;
  }
  out.append(buf, got);
  return false;
}

const char* lzma_reason(lzma_ret r) {
  switch (r) {
    case LZMA_FORMAT_ERROR:
      return "not in the .xz format";
    case LZMA_DATA_ERROR:
      return "the compressed data are corrupt";
    case LZMA_BUF_ERROR:
      return "the compressed data end too early (truncated?)";
    case LZMA_MEM_ERROR:
      return "out of memory";
    case LZMA_MEMLIMIT_ERROR:
      return "it needs more memory to unpack than allowed";
    case LZMA_OPTIONS_ERROR:
      return "it uses unsupported options";
    case LZMA_UNSUPPORTED_CHECK:
      return "it uses an unsupported integrity check";
    default:
      return "liblzma failed";
  }
}

std::string unxz(const Source& more, const std::string& where, size_t limit, bool prefix) {
  lzma_stream s = LZMA_STREAM_INIT;
  // 256 MiB is far above what any preset needs (preset 9 asks for 65 MiB);
  // LZMA_CONCATENATED accepts files made by appending .xz streams, as xz does.
  if (lzma_stream_decoder(&s, 256u << 20, LZMA_CONCATENATED) != LZMA_OK)
    throw std::runtime_error(where + ": cannot start the .xz decoder");
  std::unique_ptr<lzma_stream, void (*)(lzma_stream*)> guard(&s, lzma_end);
  std::string out;
  char buf[kChunk];
  std::string_view in;
  bool end = false;
  for (;;) {
    if (s.avail_in == 0 && !end) {
      in = {};
      end = !more(in);
      s.next_in = reinterpret_cast<const uint8_t*>(in.data());
      s.avail_in = in.size();
    }
    s.next_out = reinterpret_cast<uint8_t*>(buf);
    s.avail_out = sizeof buf;
    const lzma_ret r = lzma_code(&s, end ? LZMA_FINISH : LZMA_RUN);
    const size_t got = sizeof buf - s.avail_out;
    if (append_within(out, buf, got, limit, prefix, where)) return out;
    if (r == LZMA_STREAM_END) return out;
    if (r != LZMA_OK) throw std::runtime_error(where + " is not a valid .xz file: " + lzma_reason(r));
  }
}

std::string gunzip(const Source& more, const std::string& where, size_t limit, bool prefix) {
  z_stream s{};
  if (inflateInit2(&s, 15 + 16) != Z_OK) throw std::runtime_error(where + ": cannot start the gzip decoder");
  std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&s, inflateEnd);
  std::string out;
  char buf[kChunk];
  std::string_view in;
  bool end = false;
  for (;;) {
    if (s.avail_in == 0 && !end) {
      in = {};
      end = !more(in);
      s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
      s.avail_in = uInt(in.size());
    }
    s.next_out = reinterpret_cast<Bytef*>(buf);
    s.avail_out = sizeof buf;
    const int r = inflate(&s, Z_NO_FLUSH);
    const size_t got = sizeof buf - s.avail_out;
    if (append_within(out, buf, got, limit, prefix, where)) return out;
    if (r == Z_STREAM_END) {
      // gzip allows members one after another; anything else after the end is not gzip.
      if (s.avail_in == 0 && end) return out;
      if (s.avail_in == 0) {
        if (!more(in) || in.empty()) return out;
        s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
        s.avail_in = uInt(in.size());
      }
      if (inflateReset(&s) != Z_OK) throw std::runtime_error(where + ": gzip decoder failed");
      continue;
    }
    if (r == Z_BUF_ERROR && end && s.avail_in == 0)
      throw std::runtime_error(where +
                               " is not a valid .gz file: the compressed data end too early (truncated?)");
    if (r != Z_OK && r != Z_BUF_ERROR)
      throw std::runtime_error(where + " is not a valid .gz file: " +
                               (r == Z_MEM_ERROR
                                    ? std::string("out of memory")
                                    : std::string(s.msg ? s.msg : "the compressed data are corrupt")));
  }
}

std::string decode(const Source& more, Compression kind, const std::string& where, size_t limit,
                   bool prefix) {
  return kind == Compression::Xz ? unxz(more, where, limit, prefix) : gunzip(more, where, limit, prefix);
}

}  // namespace

Compression compression_of(const std::string& path) {
  auto ends = [&](const char* s) {
    const size_t k = std::strlen(s);
    return path.size() > k && path.compare(path.size() - k, k, s) == 0;
  };
  return ends(".xz") ? Compression::Xz : ends(".gz") ? Compression::Gzip : Compression::None;
}

std::string decompress(std::string_view data, Compression kind, const std::string& where, size_t limit,
                       bool prefix) {
  if (kind == Compression::None) {
    if (data.size() > limit && !prefix) too_big(where, limit);
    return std::string(data.substr(0, limit));
  }
  // zlib counts input in 32-bit units: hand it over in pieces.
  return decode(
      [&](std::string_view& in) {
        if (data.empty()) return false;
        in = data.substr(0, size_t(1) << 30);
        data.remove_prefix(in.size());
        return true;
      },
      kind, where, limit, prefix);
}

std::string read_maybe_compressed(const std::string& path, size_t limit, bool prefix) {
  const Compression kind = compression_of(path);
  const int fd = open_input_file(path);
  std::unique_ptr<FILE, int (*)(FILE*)> f(::fdopen(fd, "rb"), std::fclose);
  if (!f) {
    ::close(fd);
    throw std::runtime_error("cannot read " + path + ": " + std::strerror(errno));
  }
  char buf[kChunk];
  if (kind == Compression::None) {
    std::string out;
    size_t got;
    while ((got = std::fread(buf, 1, sizeof buf, f.get())) > 0) {
      if (out.size() + got > limit) {
        if (!prefix) too_big(path, limit);
        out.append(buf, limit - out.size());
        return out;
      }
      out.append(buf, got);
    }
    if (std::ferror(f.get())) throw std::runtime_error("cannot read " + path + ": " + std::strerror(errno));
    return out;
  }
  return decode(
      [&](std::string_view& in) {
        const size_t got = std::fread(buf, 1, sizeof buf, f.get());
        if (std::ferror(f.get()))
          throw std::runtime_error("cannot read " + path + ": " + std::strerror(errno));
        in = std::string_view(buf, got);
        return got > 0;
      },
      kind, path, limit, prefix);
}

std::string compress_xz(std::string_view text) {
  // Preset 6's 8 MiB dictionary makes its encoder take about 94 MiB, which
  // is allocated and touched on every call. A dictionary larger than the
  // text finds no more matches, so it is cut to the text's size (rounded up
  // to a power of two, at least liblzma's 4 KiB minimum): the same
  // compression, and a checkpoint written many times a second (the resume
  // tests) costs a few MiB of memory each time instead of 94.
  lzma_options_lzma opt;
  if (lzma_lzma_preset(&opt, 6)) throw std::runtime_error("cannot start the .xz encoder");
  uint32_t dict = LZMA_DICT_SIZE_MIN;
  while (dict < opt.dict_size && dict < text.size()) dict *= 2;
  opt.dict_size = dict;
  const lzma_filter filters[] = {{LZMA_FILTER_LZMA2, &opt}, {LZMA_VLI_UNKNOWN, nullptr}};
  lzma_stream s = LZMA_STREAM_INIT;
  if (lzma_stream_encoder(&s, filters, LZMA_CHECK_CRC64) != LZMA_OK)
    throw std::runtime_error("cannot start the .xz encoder");
  std::unique_ptr<lzma_stream, void (*)(lzma_stream*)> guard(&s, lzma_end);
  std::string out;
  char buf[kChunk];
  s.next_in = reinterpret_cast<const uint8_t*>(text.data());
  s.avail_in = text.size();
  for (;;) {
    s.next_out = reinterpret_cast<uint8_t*>(buf);
    s.avail_out = sizeof buf;
    const lzma_ret r = lzma_code(&s, LZMA_FINISH);
    out.append(buf, sizeof buf - s.avail_out);
    if (r == LZMA_STREAM_END) return out;
    if (r != LZMA_OK) throw std::runtime_error(std::string("xz compression failed: ") + lzma_reason(r));
  }
}

}  // namespace konobi
