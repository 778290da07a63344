// Files written whole or not at all. The text is collected in memory, then
// commit() writes it to a temporary file in the same folder, checks every
// write, fsyncs, and renames it over the target, so a reader never sees a
// half-written results file and a full disk is an error naming the path,
// never a silent 0-byte file. Without commit() nothing is written.
#pragma once

#include <sstream>
#include <stdexcept>
#include <iosfwd>
#include <string>

namespace wormcast::tb {

// A file or folder that cannot be written: the path and the reason. The
// output place is the user's choice, so the tool exits 1 (bad input).
class FileWriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Flushes `os` and throws FileWriteError ("<what>: cannot write") when a
// write to it has failed (a full disk, a closed pipe): a command whose
// product is its output must not report success for a lost one.
void check_written(std::ostream& os, const std::string& what);

class AtomicFile {
 public:
  explicit AtomicFile(std::string path) : path_(std::move(path)) {}
  template <class T>
  AtomicFile& operator<<(const T& v) {
    buf_ << v;
    return *this;
  }
  // Throws FileWriteError "<path>: cannot write: <reason>".
  void commit();

 private:
  std::string path_;
  std::ostringstream buf_;
};

// Writes `text` to `path` atomically (as AtomicFile).
void write_file_atomic(const std::string& path, const std::string& text);

// Checks up front that files can be created in `dir` (creating it if
// needed), so a long run does not end by losing its results. Throws
// FileWriteError naming the folder and the reason.
void check_writable_dir(const std::string& dir);

}  // namespace wormcast::tb
