#include "atomic_file.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace konobi {

namespace {

// What a file that is not a regular one is, for the messages.
const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

[[noreturn]] void throw_errno(const std::string& what, const std::string& path) {
  throw std::runtime_error(what + " " + path + ": " + std::strerror(errno));
}

// The file a write to `path` replaces: `path` itself, or where a symbolic
// link there points (the link stays and its target gets the new contents).
std::string write_target(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return path;
    throw_errno("cannot write", path);
  }
  if (!S_ISLNK(st.st_mode)) return path;
  // realpath resolves the whole chain; a link to a missing file ends in the
  // missing name, which the write then creates.
  std::string target;
  if (char* real = ::realpath(path.c_str(), nullptr)) {
    target = real;
    std::free(real);
    return target;
  }
  if (errno != ENOENT) throw_errno("cannot write", path);
  char buf[PATH_MAX];
  const ssize_t len = ::readlink(path.c_str(), buf, sizeof buf - 1);
  if (len < 0) throw_errno("cannot write", path);
  target.assign(buf, size_t(len));
  if (target.empty() || target[0] != '/') {
    const size_t slash = path.rfind('/');
    if (slash != std::string::npos) target = path.substr(0, slash + 1) + target;
  }
  struct stat tst;
  if (::lstat(target.c_str(), &tst) == 0 || errno != ENOENT)  // a chain of links, one of them dangling
    throw std::runtime_error("cannot write " + path + ": it is a symbolic link that leads nowhere");
  return target;
}

std::string directory_of(const std::string& path) {
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  return dir.empty() ? "." : dir.string();
}

// The process's umask, read once (reading it means setting it).
mode_t file_creation_mode() {
  static const mode_t mode = [] {
    const mode_t mask = ::umask(022);
    ::umask(mask);
    return mode_t(0666 & ~mask);
  }();
  return mode;
}

// Holds an exclusive flock on a directory while a writer reads, writes and
// renames there: two processes updating one file take turns. Best effort: a
// file system without flock gets atomic writes still, unserialised.
class DirectoryLock {
 public:
  explicit DirectoryLock(const std::string& dir)
      : fd_(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
    if (fd_ < 0) return;
    while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {}
  }
  ~DirectoryLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
  }
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;

 private:
  int fd_;
};

void replace_file(const std::string& path, bool read_old,
                  const std::function<std::string(const std::optional<std::string>& old)>& make) {
  if (path.empty()) throw std::runtime_error("cannot write a file with an empty name");
  const std::string target = write_target(path);
  const std::string shown = target == path ? path : path + " (a link to " + target + ")";
  const std::string dir = directory_of(target);
  DirectoryLock lock(dir);

  std::optional<std::string> old;
  mode_t mode = file_creation_mode();
  struct stat st;
  if (::stat(target.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode))
      throw std::runtime_error("cannot write " + shown + ": it is " + kind_of(st.st_mode) +
                               ", and only a regular file is ever replaced");
    mode = st.st_mode & 07777;
    if (read_old) old = read_file(target, UINT64_MAX);
  } else if (errno != ENOENT) {
    throw_errno("cannot write", shown);
  }
  const std::string contents = make(old);

  // A name no other writer can take, so two runs never write one temporary.
  std::string tmp = target + ".tmp-XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) throw_errno("cannot write", shown + ": cannot create a temporary file in " + dir);
  auto fail = [&](const std::string& what) {
    const std::string err = std::strerror(errno);
    std::remove(tmp.c_str());
    throw std::runtime_error("cannot write " + shown + ": " + what + ": " + err);
  };
  if (::fchmod(fd, mode) != 0) {
    ::close(fd);
    fail("chmod");
  }
  size_t done = 0;
  while (done < contents.size()) {
    const ssize_t w = ::write(fd, contents.data() + done, contents.size() - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      fail("write");
    }
    done += size_t(w);
  }
  if (::fsync(fd) != 0) {
    ::close(fd);
    fail("sync");
  }
  if (::close(fd) != 0) fail("close");
  if (std::rename(tmp.c_str(), target.c_str()) != 0) fail("rename");
}

}  // namespace

void update_file_atomically(const std::string& path,
                            const std::function<std::string(const std::optional<std::string>& old)>& make) {
  replace_file(path, true, make);
}

void write_file_atomically(const std::string& path, const std::string& contents) {
  replace_file(path, false, [&](const std::optional<std::string>&) { return contents; });
}

int open_input_file(const std::string& path, uint64_t* size) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);  // a FIFO must not block the open
  if (fd < 0) throw_errno("cannot read", path);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    errno = err;
    throw_errno("cannot read", path);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    if (S_ISDIR(st.st_mode))
      throw std::runtime_error("cannot read " + path + ": it is a directory, not a file");
    throw std::runtime_error("cannot read " + path + ": it is " + kind_of(st.st_mode) +
                             ", not a regular file");
  }
  if (size) *size = uint64_t(st.st_size);
  return fd;
}

std::string read_file(const std::string& path, uint64_t max_bytes) {
  uint64_t size = 0;
  const int fd = open_input_file(path, &size);
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  if (size > max_bytes)
    throw std::runtime_error("cannot read " + path + ": it holds " + std::to_string(size) +
                             " bytes, more than the " + std::to_string(max_bytes) +
                             " an input file may have");
  std::string text;
  text.reserve(size_t(size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd, buf, sizeof buf);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw_errno("cannot read", path);
    }
    if (got == 0) break;
    if (text.size() + size_t(got) > max_bytes)  // it grew while read
      throw std::runtime_error("cannot read " + path + ": it holds more than the " +
                               std::to_string(max_bytes) + " bytes an input file may have");
    text.append(buf, size_t(got));
  }
  return text;
}

}  // namespace konobi
