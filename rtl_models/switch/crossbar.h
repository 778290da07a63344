// k x k crossbar of an input-buffered switch (seed000 §2.1, §7.2): one
// arbiter per output port chooses among the inputs requesting it; the winner
// keeps the output until its tail passes. An input may be connected to
// several outputs at once (replication). Traversal takes `delay` cycles.
#pragma once

#include <string>
#include <systemc>
#include <vector>

#include "rtl_models/core/params.h"

namespace wormcast::rtl {

enum class Arbitration {
  round_robin,      // rotate priority past the last winner (default)
  fixed_priority,   // lowest input index wins
};

class Crossbar : public sc_core::sc_module {
 public:
  Crossbar(sc_core::sc_module_name name, int ports, Arbitration policy, Cycle delay);

  int ports() const { return k_; }
  Cycle delay() const { return delay_; }
  // Choose one of the requesting inputs (req[i] != 0) for `out`; -1 if none.
  int arbitrate(int out, const std::vector<char>& req);
  // The arbitration for `out` when `in` is its only request: arbitrate()
  // would return `in` under either policy and remember it as the last
  // winner; this does the same without a request vector.
  void grant_only(int out, int in) { last_[static_cast<std::size_t>(out)] = in; }
  // The input the next arbitration for `out` looks at first: arbitrate()
  // scans from here (the last winner + 1 round, or input 0) and grants the
  // first request it meets. A caller that keeps the requests as a set
  // takes the first member from here and grants it with grant_only(), which
  // leaves the arbiter as arbitrate() with all of them would.
  int first_ranked(int out) const {
    if (policy_ == Arbitration::fixed_priority) return 0;
    const int start = last_[static_cast<std::size_t>(out)] + 1;   // <= k_
    return start == k_ ? 0 : start;
  }
  // Connection bookkeeping (for statistics and VCD).
  void connect(int in, int out) { conn_[static_cast<std::size_t>(out)] = in; ++grants_[idx(in, out)]; }
  void disconnect(int out) { conn_[static_cast<std::size_t>(out)] = -1; }
  int connected_input(int out) const { return conn_[static_cast<std::size_t>(out)]; }
  std::uint64_t grants(int in, int out) const { return grants_[idx(in, out)]; }

 private:
  std::size_t idx(int in, int out) const { return static_cast<std::size_t>(in * k_ + out); }
  int k_;
  Arbitration policy_;
  Cycle delay_;
  std::vector<int> last_;      // last winner per output
  std::vector<int> conn_;      // input connected to each output, -1 if none
  std::vector<std::uint64_t> grants_;
};

}  // namespace wormcast::rtl
