#include "testbenches/app/atomic_file.h"

#include <ostream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

namespace wormcast::tb {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what, int err) {
  throw FileWriteError(path + ": cannot write: " + what + (err ? std::string(": ") + std::strerror(err) : ""));
}

void write_all(int fd, const std::string& text, const std::string& path) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail(path, "write", n < 0 ? errno : ENOSPC);
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

void write_file_atomic(const std::string& path, const std::string& text) {
  const fs::path target(path);
  const fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (fs::is_directory(target, ec)) fail(path, "it is a directory", 0);
  // Special files (/dev/null, /dev/stdout, a FIFO) cannot be replaced by a
  // rename: write to them directly, still checking every write.
  if (fs::exists(target, ec) && !fs::is_regular_file(target, ec)) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC);
    if (fd < 0) fail(path, "open", errno);
    write_all(fd, text, path);
    if (::close(fd) != 0) fail(path, "close", errno);
    return;
  }
  std::string tmpl = (dir / ("." + target.filename().string() + ".tmp.XXXXXX")).string();
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) fail(path, "cannot create a temporary file in " + dir.string(), errno);
  const std::string tmp(name.data());
  try {
    write_all(fd, text, path);
    if (::fchmod(fd, 0644) != 0) fail(path, "chmod", errno);
    if (::fsync(fd) != 0) fail(path, "fsync", errno);
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail(path, "close", err);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail(path, "rename", err);
  }
}

void AtomicFile::commit() { write_file_atomic(path_, buf_.str()); }

void check_writable_dir(const std::string& dir) {
  // The reason is create_directories' (a read-only file system, a file in
  // the way, no permission), not is_directory's "no such file".
  std::error_code create_error, probe;
  const fs::path d(dir.empty() ? "." : dir);
  fs::create_directories(d, create_error);
  if (!fs::is_directory(d, probe))
    throw FileWriteError(dir + ": cannot create the output folder" +
                         (create_error ? ": " + create_error.message() : std::string()));
  if (::access(d.c_str(), W_OK | X_OK) != 0)
    throw FileWriteError(dir + ": output folder is not writable: " + std::strerror(errno));
}

void check_written(std::ostream& os, const std::string& what) {
  os.flush();
  if (!os) throw FileWriteError(what + ": cannot write");
}

}  // namespace wormcast::tb
