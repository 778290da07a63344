// Input-buffered cut-through switch of an irregular network (seed000 §2.1,
// §2.2, §7.2): k ports, each with an input buffer (single FIFO, chunk-count
// replication), a pluggable header decoder (routing/decoding: route_delay
// cycles), and a k x k crossbar (crossbar_delay cycles from input buffer to
// the output link). Output buffers are modelled as the crossbar's output
// register (one flit per output per cycle); the paper gives no depth.
//
// Timing of a packet through an idle switch, head written at cycle t:
// decoded at t + route_delay, granted and read in that cycle, on the output
// link at + crossbar_delay, at the next input after the link latency. Body
// flits follow one per cycle. So a hop costs route + crossbar + link cycles.
//
// One SC_METHOD sequences the submodules; it runs only in cycles where a flit
// arrives, a credit returns, a decode completes, or the previous cycle did
// something (activity-driven).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "rtl_models/crossbar.h"
#include "rtl_models/decoder.h"
#include "rtl_models/input_buffer.h"
#include "rtl_models/link.h"
#include "rtl_models/sim_context.h"

namespace wormcast::rtl {

struct SwitchParams {
  int buffer_flits = 640;        // input buffer per port
  int chunk_flits = 8;           // replication chunk (seed000 §10.1)
  Cycle route_delay = 1;
  Cycle crossbar_delay = 1;
  std::string arbitration = "round_robin";
  std::string next_header = "after_drain";
  std::string admission = "cut_through";
  void visit(ParamVisitor& v) {
    v.flits("buffer", buffer_flits, "input buffer size per port (single FIFO)", 1);
    v.flits("chunk", chunk_flits, "replication chunk size; a chunk is freed when all its readers have read it", 1);
    v.cycles("route_delay", route_delay, "routing/decoding latency of a header (cycles)", 1);
    v.cycles("crossbar_delay", crossbar_delay, "input buffer to output traversal (cycles)", 1);
    v.choice("arbitration", arbitration, {"round_robin", "fixed_priority"},
             "per-output crossbar arbitration among requesting inputs");
    v.choice("next_header", next_header, {"after_grant", "after_drain"},
             "when the packet behind the FIFO head may be decoded: after all branches of the "
             "packet ahead hold their outputs, or after it has fully drained");
    v.choice("admission", admission, {"cut_through", "virtual_cut_through"},
             "flow control: cut_through lets a head advance with one free downstream slot "
             "(seed000 §2.2); virtual_cut_through needs room for the whole packet");
  }
};

class Switch : public sc_core::sc_module, private OutputPortState, private LinkClient {
 public:
  SC_HAS_PROCESS(Switch);
  // Builds the switch's decoder as a child module (called inside the switch's
  // constructor so the decoder is named <switch>.decoder).
  using DecoderFactory = std::function<std::unique_ptr<Decoder>(int switch_id)>;
  Switch(sc_core::sc_module_name name, int id, int ports, const SwitchParams& p, SimContext& ctx,
         const DecoderFactory& make_decoder);

  std::vector<std::unique_ptr<FlitInPort>> in;     // from links (unbound = open port)
  std::vector<std::unique_ptr<FlitOutPort>> out;

  int id() const { return id_; }
  int ports() const { return k_; }
  const InputBuffer& buffer(int port) const { return *buffers_[static_cast<std::size_t>(port)]; }
  const Crossbar& crossbar() const { return *xbar_; }
  std::uint64_t pending_copies() const;
  // One line per non-empty input buffer: packets held, their branches and
  // what each waits for (deadlock reports).
  std::vector<std::string> describe_blocked(Cycle now) const;
  void trace(sc_core::sc_trace_file* tf);

 private:
  struct OutputState {
    BufferEntry* entry = nullptr;   // packet holding the output
    int branch = -1;
    int input = -1;
    // VCD mirrors
    bool valid = false, head = false, tail = false, busy = false;
    std::uint32_t packet = 0;
  };
  void end_of_elaboration() override;
  void tick();
  void link_activity(Cycle at) override { wake_.at(at); }
  int free_credits(int o) const override;
  bool busy(int o) const override { return outputs_[static_cast<std::size_t>(o)].entry != nullptr; }

  int id_, k_;
  SwitchParams p_;
  SimContext& ctx_;
  bool vct_;
  std::vector<std::unique_ptr<InputBuffer>> buffers_;
  std::unique_ptr<Crossbar> xbar_;
  std::unique_ptr<Decoder> decoder_;
  std::vector<OutputState> outputs_;
  std::vector<char> in_bound_, out_bound_;
  std::vector<std::vector<char>> requests_;   // [out][in]
  std::vector<BufferEntry*> pending_;         // per input: packet waiting for grants
  std::vector<Branch> scratch_;
  bool traced_ = false;
  Wakeup wake_;
};

}  // namespace wormcast::rtl
