// Host processor (seed000 §2.3–2.4, §7.2): one CPU running a program as an
// SC_THREAD. Software uses the HostApi; each call charges the modelled
// software overheads on this CPU (t_hs per message sent, t_hr per message
// received), so sending and receiving serialise on the host. The host talks
// to its NI over TLM-2.0: descriptor writes on `ni` (the NI's target
// socket), and the NI's DMA reads/writes host memory through the `memory`
// target socket; a DMA write carrying a CompletionExtension is a message
// arriving (the host's completion queue).
#pragma once

#include <deque>
#include <memory>
#include <functional>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "rtl_models/node/program_cpu.h"
#include "rtl_models/core/sim_context.h"
#include "rtl_models/core/worm_packet.h"
#include "tlm/ni_protocol.h"

namespace wormcast::rtl {

struct HostParams {
  Cycle t_hs = 1000;   // host send overhead per message (includes DMA initiation)
  Cycle t_hr = 1000;   // host receive overhead per message
  // "message" (seed000 §7.3's reading, default) or "packet": t_hs and t_hr
  // are charged once per NI packet of the message, a what-if for seed000
  // Figs. 24-25 (docs/seed000.md).
  std::string overheads = "message";
  int packet_bytes = 0;   // the NI's packet payload (ni.packet_size), set by the node model; not a parameter
  void visit(ParamVisitor& v) {
    v.cycles("t_hs", t_hs, "host send overhead per message, incl. DMA initiation (seed000: 1000 cycles = 5us)");
    v.cycles("t_hr", t_hr, "host receive overhead per message (seed000: t_hr = t_hs)");
    v.choice("overheads", overheads, {"message", "packet"},
             "charge t_hs / t_hr once per message (seed000 §7.3) or once per NI packet of it (a what-if)");
  }
  // t_hs or t_hr for a message of `bytes`.
  Cycle cost(Cycle per_unit, int bytes) const {
    if (overheads != "packet" || packet_bytes <= 0) return per_unit;
    return per_unit * static_cast<Cycle>((bytes + packet_bytes - 1) / packet_bytes);
  }
};

struct ReceivedMessage {
  std::uint64_t id = 0;
  NodeId src = -1;
  int bytes = 0;
  Cycle completed = 0;   // in host memory (before t_hr)
  Cycle received = 0;    // end of t_hr
  std::shared_ptr<const algo::RelayWorm> relay_worm;   // a switch-based worm's relay payload (WormSend::relay_worm)
  // Direct networks: the header flits of a compound IR worm that this node
  // received (its block u, ω, Φ̃^u..., seed001 Fig. 6.2; the last destination
  // gets the terminator too: algo::received_compound_block reads either). Null
  // for any other message.
  std::shared_ptr<const std::vector<NodeId>> header;
};


// What host software can do. Calls block the calling program thread for the
// modelled time.
class HostApi {
 public:
  virtual ~HostApi() = default;
  virtual NodeId node() const = 0;
  virtual int num_nodes() const = 0;
  virtual Cycle now() const = 0;
  // Send `bytes` to `dest` (t_hs); returns the message id. Throws
  // std::invalid_argument for a destination that does not exist, the node
  // itself, or a zero-length message.
  virtual std::uint64_t send(NodeId dest, int bytes) = 0;
  // Send `bytes` to every node of `chain` but the first, which must be this
  // node (t_hs once), as a k-binomial multicast on that chain ordering with
  // fan-out bound k and construction (algo::TreeConstruction as a number):
  // smart NI firmware (fpfs, fcfs) relays it; conventional firmware sends
  // each destination its own copy. Returns the message id. Throws
  // std::invalid_argument for a bad chain (too short, not starting here, a
  // node twice or out of range), k < 1 or a zero length.
  virtual std::uint64_t send_multicast(const std::vector<NodeId>& chain, unsigned k, int construction,
                                       int bytes) = 0;
  // Send one worm (t_hs; the NI charges t_ns per packet). Every destination
  // is registered in the message ledger. Returns the message id. Throws
  // std::invalid_argument for no encoding or header, an empty destination
  // set, a destination that does not exist or is this node, a duplicate,
  // or a zero length.
  virtual std::uint64_t send_worm(const WormSend& w) = 0;
  // The same-cycle rule: when a program resumes at cycle t (after its CPU
  // was busy, or after waiting until t), message_waiting() and receive()
  // see every message completed in cycle t, whichever order the kernel
  // runs the processes of that time step in (the processors yield one delta
  // cycle after each timed wait). Without it, a message completed in the
  // cycle a busy CPU became free was seen at once or not, by the kernel's
  // order, which the speed-only switches sim.streams and sim.run_ahead
  // change (tests/fuzz/oracle_soak.py found it).
  // Next message (waits for one), then t_hr.
  virtual ReceivedMessage receive() = 0;
  virtual bool message_waiting() const = 0;
  // Wait until a message is waiting or cycle `until` (UINT64_MAX: no limit).
  virtual bool wait_for_message(Cycle until) = 0;
  virtual void compute(Cycle cycles) = 0;
};

using HostProgram = std::function<void(HostApi&)>;

// A processor a workload can give a program (host_ni's HostProcessor, the
// direct networks' processor node), with its CPU busy time.
class ProgramHost : public HostApi {
 public:
  virtual void set_program(HostProgram program) = 0;
  virtual Cycle busy_cycles() const = 0;
  // An interrupt from outside the node's software (a user's module asking
  // the program for work, embed/multicast.h): a program waiting in
  // wait_for_message() returns (false if no message came); receive() goes
  // on waiting. Costs the program nothing.
  virtual void interrupt() = 0;
};

class HostProcessor : public sc_core::sc_module, public ProgramHost {
 public:
  SC_HAS_PROCESS(HostProcessor);
  HostProcessor(sc_core::sc_module_name name, NodeId id, int num_nodes, const HostParams& p, SimContext& ctx);

  tlm_utils::simple_initiator_socket<HostProcessor> ni;       // to the NI's target socket
  tlm_utils::simple_target_socket<HostProcessor> memory;      // NI DMA (through the I/O bus)

  void set_program(HostProgram program) override { program_ = std::move(program); }
  Cycle busy_cycles() const override { return cpu_.busy_cycles(); }
  void interrupt() override { arrival_event_.notify(sc_core::SC_ZERO_TIME); }
  std::size_t messages_waiting() const { return completions_.size(); }

  // HostApi
  NodeId node() const override { return id_; }
  int num_nodes() const override { return num_nodes_; }
  Cycle now() const override { return ctx_.clock.now(); }
  std::uint64_t send(NodeId dest, int bytes) override;
  std::uint64_t send_multicast(const std::vector<NodeId>& chain, unsigned k, int construction, int bytes) override;
  std::uint64_t send_worm(const WormSend& w) override;
  ReceivedMessage receive() override;
  bool message_waiting() const override { return !completions_.empty(); }
  bool wait_for_message(Cycle until) override;
  void compute(Cycle cycles) override;

 private:
  void program_thread();
  void memory_b_transport(::tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void busy_for(Cycle c) { cpu_.busy_for(c); }
  void post(tlm::MulticastHeaderExtension* mc);
  void check_multicast(const std::vector<NodeId>& chain, unsigned k, int construction, int bytes) const;
  void check_worm(const WormSend& w) const;

  NodeId id_;
  int num_nodes_;
  HostParams p_;
  SimContext& ctx_;
  HostProgram program_;
  std::deque<tlm::CompletionExtension> completions_;
  std::deque<Cycle> completion_times_;
  ProgramCpu cpu_;   // busy time and the same-cycle rule (program_cpu.h)
  std::uint64_t dma_bytes_ = 0;
  sc_core::sc_event arrival_event_;
  // The doorbell write of send(): a member, as the program thread's stack is
  // discarded, not unwound, when the simulation ends (rtl_models/core/kernel.h).
  tlm::SendDescriptor doorbell_data_;
  ::tlm::tlm_generic_payload doorbell_;
  tlm::MulticastHeaderExtension doorbell_multicast_;
  tlm::CompletionExtension receiving_;   // the message receive() is charging t_hr for
};

}  // namespace wormcast::rtl
