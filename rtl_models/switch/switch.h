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
// One evaluation per cycle sequences the submodules; it runs only in cycles
// where a flit arrives, a credit returns, a decode completes, or the previous
// cycle did something (activity-driven). When the run has a CycleScheduler
// (SimContext::scheduler, set by the network elaborator) the switch is one of
// its clients; otherwise it owns an SC_METHOD and a Wakeup.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "rtl_models/switch/crossbar.h"
#include "rtl_models/core/channel_set.h"
#include "rtl_models/core/cycle_scheduler.h"
#include "rtl_models/switch/decoder.h"
#include "rtl_models/switch/input_buffer.h"
#include "rtl_models/core/link.h"
#include "rtl_models/core/sim_context.h"

namespace wormcast::rtl {

struct SwitchParams {
  int buffer_flits = 640;        // input buffer per port
  int chunk_flits = 8;           // replication chunk (seed000 §10.1)
  Cycle route_delay = 1;
  Cycle crossbar_delay = 1;
  Cycle pass_interval = 0;       // 0: grants in parallel; else one input->output connection per this many cycles
  std::string pass_scope = "switch";   // with pass_interval: one connection at a time per switch or per input
  std::string arbitration = "round_robin";
  std::string next_header = "after_drain";
  std::string admission = "cut_through";
  // Virtual cut-through and store-and-forward: a head leaves only with room
  // for its whole packet downstream (the rule senders into the switch follow too).
  bool whole_packet_admission() const { return admission == "virtual_cut_through" || admission == "store_and_forward"; }
  void visit(ParamVisitor& v) {
    v.flits("buffer", buffer_flits, "input buffer size per port (single FIFO)", 1);
    v.flits("chunk", chunk_flits, "replication chunk size; a chunk is freed when all its readers have read it", 1);
    v.cycles("route_delay", route_delay, "routing/decoding latency of a header (cycles)", 1);
    v.cycles("crossbar_delay", crossbar_delay, "input buffer to output traversal (cycles)", 1);
    v.cycles("pass_interval", pass_interval,
             "0: the crossbar connects any number of input->output pairs per cycle; else the switch sets up one "
             "connection (a unicast, or one copy of a multicast) at a time, at most one per this many cycles "
             "(seed003 §10's 100 ns 'from one input port to one output port' taken as serial: a what-if)",
             0);
    v.choice("pass_scope", pass_scope, {"switch", "input"},
             "with pass_interval > 0: switch (the whole switch sets up one connection at a time) or input (each "
             "input does: a multicast's copies leave an input one per pass_interval, inputs in parallel; "
             "seed003's serial replication)");
    v.choice("arbitration", arbitration, {"round_robin", "fixed_priority"},
             "per-output crossbar arbitration among requesting inputs");
    v.choice("next_header", next_header, {"after_grant", "after_drain"},
             "when the packet behind the FIFO head may be decoded: after all branches of the "
             "packet ahead hold their outputs, or after it has fully drained");
    v.choice("admission", admission, {"cut_through", "virtual_cut_through", "store_and_forward"},
             "flow control: cut_through lets a head advance with one free downstream slot "
             "(seed000 §2.2); virtual_cut_through needs room for the whole packet; store_and_forward "
             "also decodes a packet only after its tail is in (route_delay after the tail's write; "
             "seed003 §12)");
  }
};

class Switch : public sc_core::sc_module, private OutputPortState, private CycleScheduler::Client {
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
    Cycle stream_tail = 0;          // streaming (sim.streams): cycle of its last read, else 0
    int stream_flits = 0;           // flits the stream moves
    // Found without credits: no flit can move before this cycle (the next
    // pending credit return's arrival, lowered to the arrival of a return
    // its link reports later; UINT64_MAX until one does); stale otherwise.
    Cycle credit_at = 0;
  };
  void end_of_elaboration() override;
  template <class If> Link* as_link(If* channel, int port) const;
  void tick();                                // the SC_METHOD without a scheduler
  Cycle evaluate_cycle(Cycle now) override;   // one cycle of work; the next one it asks for
  void accept_flits(Cycle now, bool& active, Cycle& next);
  void accept_port(int i, Cycle now, bool& active, Cycle& next);   // its flit due by now
  void settle_input(InputBuffer& buf, Cycle now);
  void receive_stream(InputBuffer& buf, Link& rx);
  void decode_headers(Cycle now, bool& decoded, Cycle& next);
  void decode_input(int i, Cycle now, bool& decoded, Cycle& next);
  // Step 3 is one of these, chosen at construction from pass_interval and
  // pass_scope; each returns whether it granted an output.
  bool grant_parallel(Cycle now);
  bool grant_serial_switch(Cycle now);
  bool grant_serial_input(Cycle now);
  bool (Switch::*arbitrate_)(Cycle) = &Switch::grant_parallel;
  void choose_passes(const SwitchParams& p);
  void grant_output(int o, Cycle now);
  void grant_to(int o, int input, Cycle now);
  void connect_branch(int o, int input, BufferEntry& e, int branch, Cycle now);
  void traverse(Cycle now, bool& active, Cycle& next);
  void traverse_output(int o, Cycle now, bool& active, Cycle& next);
  // The stream step (docs/performance.md): start one for output o over the
  // flits nothing can stop (up to the tail, or fewer under contention);
  // finish it at its last flit's cycle.
  bool try_stream(int o, OutputState& os, BufferEntry& e, Branch& b, int credits, Cycle now);
  bool finish_stream(int o, OutputState& os, Cycle now);   // true: short of the tail, the output still held
  void release_output(int o, OutputState& os);
  void check_branches(const BufferEntry& e) const;
  // A credit return on output link `port`, arriving at cycle `at` (its link
  // reports one to a sender that found no credits, or every one under
  // virtual cut-through).
  void output_activity(int port, Cycle at) {
    Cycle& c = outputs_[static_cast<std::size_t>(port)].credit_at;
    if (at < c) c = at;
    wake_at(at);
  }
  // A flit on input link `port`, visible at cycle `at`.
  void input_activity(int port, Cycle at) {
    Cycle& due = in_due_[static_cast<std::size_t>(port)];
    if (at < due) due = at;
    in_waiting_.insert(port);
    wake_at(at);
  }
  struct InputClient final : LinkClient {
    Switch* sw = nullptr;
    int port = -1;
    void link_activity(Cycle at) override { sw->input_activity(port, at); }
  };
  struct OutputClient final : LinkClient {
    Switch* sw = nullptr;
    int port = -1;
    void link_activity(Cycle at) override { sw->output_activity(port, at); }
  };
  void wake_at(Cycle c) {
    if (sched_) sched_->at(sched_id_, c);
    else wake_.at(c);
  }
  int free_credits(int o) const override;
  bool busy(int o) const override { return outputs_[static_cast<std::size_t>(o)].entry != nullptr; }

  void release_decode(int input) {
    decode_check_.insert(input);
    released_ = true;
  }
  // Input `input`'s decoded packet has an ungranted branch to output o.
  void want_output(int o, int input) {
    wanters_[static_cast<std::size_t>(o)].insert(input);
    if (!outputs_[static_cast<std::size_t>(o)].entry && !wanted_free_.contains(o)) {
      wanted_free_.insert(o);
      ++wanted_free_n_;
    }
  }

  // Cold members first (set-up, arbitration passes, the SystemC wake-up).
  int id_, k_;
  SwitchParams p_;
  bool vct_;   // a head leaves only with room for the whole packet downstream
  bool saf_;   // store-and-forward: decode after the tail (implies vct_)
  std::unique_ptr<Decoder> decoder_;
  std::vector<char> in_bound_, out_bound_;
  std::vector<InputClient> in_clients_;       // per port: the receiver its input link calls
  std::vector<OutputClient> out_clients_;     // per port: the sender its output link calls
  Wakeup wake_;

  // What an evaluation reads, from a line boundary, in as few lines as
  // possible (in a saturated network each line of the object an
  // evaluation reads is a miss).
  alignas(64) CycleScheduler* sched_ = nullptr;
  SimContext& ctx_;
  int sched_id_ = -1;
  // Work counters that let a cycle skip a step with nothing to do (the step
  // would find nothing): entries not yet decoded, branches not yet granted,
  // outputs held by a packet.
  int undecoded_ = 0, connected_ = 0;
  // Members of wanted_free_: the per-evaluation tests read this count (one
  // compare) rather than the set's words.
  int wanted_free_n_ = 0;
  // pass_interval > 0: the first cycle step 3 has anything to do (per
  // switch: its next connection; per input: the earliest input waiting for
  // its next pass), and the output the switch's turn starts from
  // (round-robin over outputs); per input, each input's next free cycle.
  Cycle pass_free_ = 0, pass_wake_ = 0;
  int pass_next_ = 0;
  std::vector<Cycle> input_pass_free_;
  bool traced_ = false;
  // A decode position was released in this evaluation (after its decode
  // step: by a grant, a tail read or a stream's end).
  bool released_ = false;
  std::vector<std::unique_ptr<InputBuffer>> buffers_;
  // The inputs whose link holds a flit and the outputs held by a packet, so
  // a cycle visits only those.
  ChannelSet in_waiting_, out_held_;
  // Inputs whose decode position may hold a decodable header (decode_headers).
  ChannelSet decode_check_;
  // The free outputs some ungranted branch wants: an arbitration pass
  // visits these and grants each (none: no pass).
  ChannelSet wanted_free_;
  std::vector<OutputState> outputs_;
  std::unique_ptr<Crossbar> xbar_;
  std::vector<Cycle> in_due_;                 // per port: arrival of the first flit on its input link
  // Per port, nullptr when unbound. The links are rtl::Link (checked at the
  // end of elaboration), called directly rather than through the interface.
  std::vector<Link*> rx_;
  std::vector<Link*> tx_;
  // Per input: its decoded packet with branches waiting for grants, if any
  // (set at its decode, cleared at its last grant).
  std::vector<BufferEntry*> pending_;
  // Per output, the inputs whose pending packet has an ungranted branch to
  // it (its requests).
  std::vector<ChannelSet> wanters_;
};

}  // namespace wormcast::rtl
