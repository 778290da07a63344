// The processor of a direct-network node (seed001 §1.4, §1.8, §7.1–7.2;
// seed004 §6 "host model"): one CPU running a program as an SC_THREAD, and
// one packet port (an Endpoint: injection queue + sink) per internal channel
// pair of its router: one port (one-port) or one per external channel
// (all-port). There is no NI: the processor's DMA puts a message on its
// channel as one wormhole packet (header flits + 1 flit per byte), or with
// processor.packet_bytes > 0 a unicast as packets of that many bytes, each
// with its header, back to back (seed004's SCI moves 64-byte packets); the
// message is complete when its last packet has arrived.
//
// Software overheads, charged on the one CPU, so sends and receptions
// serialise on it (seed001 §1.8: the k-th send enters the network k·t_S
// after the program starts sending; a relay's forward starts after
// t_S + t_N + t_R + t_S):
//  * t_S per message sent (also per IR worm, whatever its destinations),
//  * t_R per message received (the receive() call, as host_ni's t_hr).
// Send models (seed001 §7.1, `processor.send_model`):
//  * per_channel (model A, default): after its t_S a send is queued on its
//    channel and the CPU goes on; a send never waits for a send on another
//    channel, sends on one channel leave in order;
//  * in_order (model B): after its t_S a send whose channel is still busy
//    with an earlier send holds the CPU until that channel is free, so it
//    also delays every later send (on any channel).
// One-port nodes have one channel: their sends and receptions are sequential
// on it. On an all-port node a send uses the internal channel paired with
// the external channel of the route's first hop (the network's pair
// selector: the router's routing function for the destination, or the first
// address of an IR worm); that is the only channel on which the router's
// crossbar can take it without competing for the port with another send.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "algorithms/compound_header.h"
#include "rtl_models/node/endpoint.h"
#include "rtl_models/node/host_processor.h"
#include "rtl_models/node/program_cpu.h"
#include "rtl_models/core/sim_context.h"

namespace wormcast::rtl {

struct ProcessorParams {
  Cycle t_s = 20;                        // seed001 §5.3 "low": 10 us at 0.5 us/flit
  Cycle t_r = 16;                        // 8 us
  std::string send_model = "per_channel";
  int header_flits = 1;                  // of a unicast message
  int rx_buffer_flits = 4;               // sink buffer per internal channel (credits toward the router)
  int packet_bytes = 0;                  // 0: one packet per message; else unicasts split into packets of this size
  void visit(ParamVisitor& v);
};

// One send of a batch: a unicast (one destination) or an IR worm
// (several, in visiting order).
struct DirectSend {
  std::vector<NodeId> dests;
  int bytes = 0;
};

// What software on a direct-network processor can do besides HostApi.
class DirectHostApi : public ProgramHost {
 public:
  // One multi-destination worm for intermediate reception (seed001 Fig.
  // 5.10): dests in visiting order, one header flit per address plus the
  // terminator; t_S once. Every destination is registered in the message
  // ledger. Throws std::invalid_argument for an empty list, a node that does
  // not exist, this node, a destination twice or zero bytes.
  virtual std::uint64_t send_ir(const std::vector<NodeId>& dests, int bytes) = 0;
  // One IR worm with the compound header of seed001 Fig. 6.2
  // (algorithms/compound_header.h): its destinations are the blocks' in
  // visiting order, each block carrying the nodes that destination serves in
  // later phases; the header has one flit per address, count and list entry
  // plus the terminator; t_S once. A destination's receive() gets its block
  // (ReceivedMessage::header). Throws as send_ir, and for a later-phase node
  // that does not exist.
  virtual std::uint64_t send_compound(const std::vector<algo::CompoundBlock>& blocks, int bytes) = 0;
  // Issue several sends (t_S each, in order); returns their message ids.
  virtual std::vector<std::uint64_t> send_all(const std::vector<DirectSend>& sends) = 0;
  // Wait until every send issued so far has left the node (tail injected).
  virtual void wait_sends() = 0;
  virtual int sends_in_progress() const = 0;
  virtual int ports() const = 0;
};

class DirectProcessor : public sc_core::sc_module, public DirectHostApi {
 public:
  SC_HAS_PROCESS(DirectProcessor);
  DirectProcessor(sc_core::sc_module_name name, NodeId id, int num_nodes, int num_ports, const ProcessorParams& p,
                  SimContext& ctx);

  Endpoint& port(int i) { return *ports_.at(static_cast<std::size_t>(i)); }
  const Endpoint& port(int i) const { return *ports_.at(static_cast<std::size_t>(i)); }
  void set_pair_selector(std::function<int(NodeId)> f) { selector_ = std::move(f); }
  // Background traffic (Packet::background): a unicast packet (header and
  // length set) created at cycle `at` (Endpoint::inject_created_at) on the port
  // of its destination's route, as the processor's own unicasts, without
  // t_S; arriving ones go to the ports' on_background, not to the program.
  void inject_background(PacketPtr p, Cycle at);
  std::size_t messages_waiting() const { return completions_.size(); }
  const ProcessorParams& params() const { return p_; }

  // ProgramHost / HostApi
  void set_program(HostProgram program) override { program_ = std::move(program); }
  Cycle busy_cycles() const override { return cpu_.busy_cycles(); }
  void interrupt() override { arrival_event_.notify(sc_core::SC_ZERO_TIME); }
  NodeId node() const override { return id_; }
  int num_nodes() const override { return num_nodes_; }
  Cycle now() const override { return ctx_.clock.now(); }
  std::uint64_t send(NodeId dest, int bytes) override;
  std::uint64_t send_multicast(const std::vector<NodeId>&, unsigned, int, int) override;
  std::uint64_t send_worm(const WormSend&) override;
  ReceivedMessage receive() override;
  bool message_waiting() const override { return !completions_.empty(); }
  bool wait_for_message(Cycle until) override;
  void compute(Cycle cycles) override { busy_for(cycles); }
  // DirectHostApi
  std::uint64_t send_ir(const std::vector<NodeId>& dests, int bytes) override;
  std::uint64_t send_compound(const std::vector<algo::CompoundBlock>& blocks, int bytes) override;
  std::vector<std::uint64_t> send_all(const std::vector<DirectSend>& sends) override;
  void wait_sends() override;
  int sends_in_progress() const override { return in_progress_; }
  int ports() const override { return static_cast<int>(ports_.size()); }

 private:
  struct Arrival {
    std::uint64_t message = 0;
    NodeId src = -1;
    int bytes = 0;
    Cycle injected = 0, arrived = 0, posted = 0;
    std::shared_ptr<const std::vector<NodeId>> header;   // a compound worm's block for this node
  };
  void end_of_elaboration() override;
  void program_thread();
  void busy_for(Cycle c) { cpu_.busy_for(c); }
  void check_dests(const std::vector<NodeId>& dests, int bytes) const;
  std::uint64_t post(HeaderKind kind, NodeId first, int header_flits, int bytes);
  void on_packet(const Packet& p, Cycle at);

  NodeId id_;
  int num_nodes_;
  ProcessorParams p_;
  SimContext& ctx_;
  std::vector<std::unique_ptr<Endpoint>> ports_;
  std::function<int(NodeId)> selector_;
  HostProgram program_;
  std::deque<Arrival> completions_;
  std::map<std::uint64_t, std::pair<int, Cycle>> partial_;   // message -> packets arrived, first one's injection
  Arrival receiving_;
  ProgramCpu cpu_;   // busy time and the same-cycle rule (program_cpu.h)
  int in_progress_ = 0;
  // Members, not locals of the program thread (rtl_models/core/kernel.h): the
  // message being sent and the ids of a batch.
  std::vector<NodeId> sending_dests_;
  std::shared_ptr<const std::vector<NodeId>> sending_compound_;   // the compound header being sent, or null
  std::vector<std::uint64_t> batch_ids_;
  sc_core::sc_event arrival_event_, sent_event_;
};

}  // namespace wormcast::rtl
