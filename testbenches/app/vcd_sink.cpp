#include "testbenches/app/vcd_sink.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "testbenches/app/atomic_file.h"

namespace wormcast::tb {

VcdSink::VcdSink(std::string dest) : dest_(std::move(dest)) {
  out_ = ::open(dest_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out_ < 0) throw FileWriteError("--vcd " + dest_ + ": cannot create the file: " + std::strerror(errno));
  std::string tmpl = (std::filesystem::temp_directory_path() / "wormcast_vcd_XXXXXX").string();
  if (::mkdtemp(tmpl.data()) == nullptr) {
    const int err = errno;
    ::close(out_);
    throw FileWriteError("--vcd " + dest_ + ": cannot make a temporary folder: " + std::strerror(err));
  }
  dir_ = tmpl;
  base_ = dir_ + "/trace";
  fifo_ = base_ + ".vcd";
  if (::mkfifo(fifo_.c_str(), 0600) != 0) {
    const int err = errno;
    cleanup();
    throw FileWriteError("--vcd " + dest_ + ": cannot make a pipe in " + dir_ + ": " + std::strerror(err));
  }
  // Both ends opened here, so nothing waits on the other: the read end (for
  // the copy), and a write end of our own, held until finish(), so that the
  // copy sees the end only once SystemC has closed its file (or never
  // opened it).
  in_ = ::open(fifo_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  keep_ = in_ < 0 ? -1 : ::open(fifo_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (in_ < 0 || keep_ < 0 || ::fcntl(in_, F_SETFL, 0) != 0) {
    const int err = errno;
    cleanup();
    throw FileWriteError("--vcd " + dest_ + ": cannot open a pipe in " + dir_ + ": " + std::strerror(err));
  }
  reader_ = std::thread([this] { copy(); });
}

// Copies until every writer has closed the pipe, checking each write; after
// a failed write it goes on reading, so that SystemC is never blocked.
void VcdSink::copy() {
  char buf[1 << 16];
  while (true) {
    const ssize_t n = ::read(in_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (ssize_t done = 0; done < n && error_ == 0;) {
      const ssize_t w = ::write(out_, buf + done, static_cast<std::size_t>(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) error_ = w < 0 ? errno : ENOSPC;
      else done += w;
    }
  }
}

void VcdSink::cleanup() {
  for (int* fd : {&in_, &keep_, &out_})
    if (*fd >= 0) ::close(*fd), *fd = -1;
  ::unlink(fifo_.c_str());
  ::rmdir(dir_.c_str());
}

void VcdSink::finish() {
  if (finished_) return;
  finished_ = true;
  ::close(keep_);   // the last writer but SystemC's, closed already
  keep_ = -1;
  reader_.join();
  if (error_ == 0 && ::fsync(out_) != 0 && errno != EINVAL && errno != EROFS) error_ = errno;
  if (::close(out_) != 0 && error_ == 0) error_ = errno;
  out_ = -1;
  cleanup();
  if (error_ != 0) throw FileWriteError("--vcd " + dest_ + ": cannot write the waveform: " + std::strerror(error_));
}

VcdSink::~VcdSink() {
  try {
    finish();
  } catch (const FileWriteError&) {   // reported by the caller's finish(); a destructor must not throw
  }
}

}  // namespace wormcast::tb
