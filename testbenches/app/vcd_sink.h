// A VCD waveform written with every write checked. SystemC's VCD writer
// (sc_create_vcd_trace_file) writes through its own FILE and never reports
// a failed write: onto a full disk the waveform ends early and the run
// still succeeds. So SystemC writes into a named pipe in a private
// temporary folder, and a thread copies what arrives to the destination,
// checking each write; finish() says whether the whole waveform arrived.
#pragma once

#include <memory>
#include <string>
#include <thread>

namespace wormcast::tb {

class VcdSink {
 public:
  // `dest` is the file the user asked for (created, or truncated, now).
  // Throws FileWriteError when it or the pipe cannot be made.
  explicit VcdSink(std::string dest);
  ~VcdSink();
  VcdSink(const VcdSink&) = delete;
  VcdSink& operator=(const VcdSink&) = delete;

  // The name to give sc_create_vcd_trace_file (it appends ".vcd").
  const std::string& systemc_base() const { return base_; }
  // Once SystemC has closed its trace file: waits for the copy to end and
  // throws FileWriteError naming the destination and the reason if any
  // write failed. Idempotent.
  void finish();

 private:
  void copy();
  void cleanup();   // closes what is open, removes the pipe and its folder

  std::string dest_, dir_, base_, fifo_;
  int out_ = -1, in_ = -1, keep_ = -1;
  std::thread reader_;
  int error_ = 0;          // errno of the first failed write (the copy goes on draining the pipe)
  bool finished_ = false;
};

}  // namespace wormcast::tb
