// The reference VC wormhole router of the direct networks (router.impl:
// reference): the microarchitecture of VcRouter (vc_router.h, whose header
// states it) written plainly, per cycle and flit by flit, as an oracle for
// the fast router. Same ports, links, parameters, statistics, deadlock
// report and VCD signals; none of the fast router's speed machinery: flits
// are taken off the wire at their arrival (no deposits, no lazy arrivals),
// every flit is sent on its own (no worm-level runs), the state is plain
// containers, and the router is evaluated in every cycle while it holds a
// flit or has done something, and at the arrival of a flit otherwise.
//
// Per evaluated cycle, in this order:
//  1. Receive: every flit that has arrived on an input link enters its VC's
//     buffer (readable from the next cycle; with route_delay 0, at once).
//  2. Route: each idle input VC with a header at its front (ascending
//     channel order) is routed: the routing function's candidates, then the
//     selection (router_policies.h). Ready route_delay cycles later,
//     turn_delay more if the header changes dimension. Intermediate
//     reception (IR), compound headers and replicating worms are decided
//     here, as in VcRouter.
//  3. VC allocation: requests served in the allocator's order (round-robin
//     from input channel cycle mod channels); a header takes the VC the
//     allocator chooses among the free ones of its class (all its outputs
//     at once for IR and replication), or waits in place.
//  4. Link allocation and traversal: per physical output, ascending, one
//     flit per cycle; its arbiter (round robin) picks among the VCs that
//     hold it, have a readable flit (at most one leaves an input VC per
//     cycle) and a downstream credit; with router.link_hold: packet the VC
//     whose packet started on the output keeps it until its tail has left.
//     "3-way" shared ports post their candidates to the SharedLink arbiter,
//     which grants one later in the cycle. The flit arrives crossbar_delay
//     + link latency later; its slot is credited upstream at once.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "rtl_models/core/cycle_scheduler.h"
#include "rtl_models/core/link.h"
#include "rtl_models/core/sim_context.h"
#include "rtl_models/direct/router_policies.h"
#include "rtl_models/direct/shared_link.h"
#include "rtl_models/direct/vc_link.h"
#include "rtl_models/direct/vc_router.h"
#include "topologies/direct_routing.h"

namespace wormcast::rtl {

class ReferenceRouter : public sc_core::sc_module,
                        private CycleScheduler::Client,
                        private LinkClient,
                        private SharedLinkClient {
 public:
  SC_HAS_PROCESS(ReferenceRouter);
  // As VcRouter: `local_ports` internal channel pairs, `vcs` VCs per
  // external channel (a positive multiple of the routing's classes). The
  // policies may name an adaptive routing function whose base() is
  // `routing` (router_policies.h).
  ReferenceRouter(sc_core::sc_module_name name, NodeId id, std::shared_ptr<const topo::DirectRouting> routing,
                  int vcs, int local_ports, const VcRouterParams& p, SimContext& ctx,
                  const RouterPolicies& policies = {});

  // Channel numbering and ports as VcRouter's.
  std::vector<std::unique_ptr<VcLinkInPort>> link_in;
  std::vector<std::unique_ptr<VcLinkOutPort>> link_out;
  std::vector<std::unique_ptr<FlitInPort>> local_in;
  std::vector<std::unique_ptr<FlitOutPort>> local_out;
  void connect_in(int port, VcLink& link);
  void connect_out(int port, VcLink& link);
  void share_port(int port, SharedLink* link, int side);
  bool in_connected(int c) const;
  bool out_connected(int c) const;
  bool port_connected(int port) const;   // any of its output channels (not a unidirectional torus's minus port)

  int vcs() const { return vcs_; }
  int external_ports() const { return ext_ports_; }
  int external_channels() const { return ext_ports_ * vcs_; }
  int num_channels() const { return external_channels() + local_ports_; }
  NodeId id() const { return id_; }

  std::uint64_t buffered_flits() const;
  int peak_occupancy(Cycle) const { return peak_; }
  std::uint64_t flits_sent(int out_channel) const { return outs_.at(static_cast<std::size_t>(out_channel)).sent; }
  std::vector<std::string> describe_blocked(Cycle now) const;
  void trace(sc_core::sc_trace_file* tf);
  // As VcRouter::attach_probe (this router sends flit by flit anyway).
  void attach_probe(RouterProbe* probe) { probe_ = probe; }

 private:
  enum class State { idle, waiting_vc, active };
  // A buffered flit with an owning reference to its packet (a Flit alone
  // does not own it, packet.h).
  struct Slot {
    PacketPtr pkt;
    int index = 0;
    Flit flit() const { return Flit{pkt, index}; }
  };
  struct InputVc {
    std::deque<Slot> buf;
    Cycle last_write = UINT64_MAX;   // the last flit is readable from the cycle after this (route_delay > 0)
    Cycle last_sent = UINT64_MAX;    // at most one flit leaves an input VC per cycle
    State state = State::idle;
    Cycle ready = 0;                 // end of the routing delay
    int out = -1;                    // output channel requested (its class's first VC) or held
    int local_out = -1;              // IR: the local copy's ejection channel
    int strip = 1;                   // IR: leading header flits for the local copy only
    PacketPtr fwd, copy;             // IR: the forwarded worm and the local copy
    std::vector<std::pair<int, PacketPtr>> branches;   // replication: (output channel, packet copy)
    topo::VcClass vc_class = topo::VcClass::local;
    int traced_occupancy = 0;        // VCD
  };
  struct OutputVc {
    int owner = -1;                  // input channel holding it
    std::uint64_t sent = 0;
  };
  struct OutputPort {
    std::unique_ptr<LinkArbiter> arbiter = std::make_unique<RoundRobinArbiter>();
    Cycle used = UINT64_MAX;         // cycle a flit last left
    int hold = -1;                   // router.link_hold: packet: the VC whose packet has the link
    SharedLink* shared = nullptr;    // "3-way" arbiter of this port, or null
    int shared_side = 0;
    bool valid = false;              // VCD: a flit left this cycle
    bool head = false, tail = false; // VCD: that flit was its packet's first / last
    int vc = -1, packet = 0, header_flits = 0;   // VCD
  };

  void make_ports();
  void end_of_elaboration() override;
  void tick();
  Cycle evaluate_cycle(Cycle now) override;
  void link_activity(Cycle at) override { wake_at(at); }
  void shared_link_grant(int port, int vc, Cycle now) override;
  void wake_at(Cycle c);

  bool receive(Cycle now);
  void accept(int ch, Flit f, Cycle now);
  Cycle next_arrival() const;
  bool route(Cycle now);
  void route_header(int c);
  topo::DirectHop decide(const RouteQuery& q) const;
  void start_ir(int c);
  void start_tree(int c);
  bool turns(const InputVc& iv, int c) const;
  bool allocate(Cycle now);
  bool take_vcs(int c);
  int free_vc(int first) const;
  void set_owner(int oc, int in_ch);
  void release(int oc);
  bool traverse(Cycle now);
  bool send_on_port(int port, Cycle now);
  bool offer_shared(int port, Cycle now);
  bool can_send(int oc, Cycle now);
  bool ir_can_send(const InputVc& iv, int oc, Cycle now);
  bool tree_can_send(const InputVc& iv, Cycle now);
  void send_flit(int oc, Cycle now);
  void emit_copies(InputVc& iv, const Flit& f, Cycle now);
  void emit(int oc, const Flit& g, Cycle now);
  void end_of_packet(InputVc& iv);

  int credits(int oc, Cycle now) const;
  int output_channel(int in_ch, const topo::DirectHop& hop) const;
  int output_port(int in_ch, const topo::DirectHop& hop) const;
  int in_port_of(int ch) const { return ch < external_channels() ? ch / vcs_ : -1; }
  int port_of(int ch) const { return ch < external_channels() ? ch / vcs_ : ext_ports_ + ch - external_channels(); }
  int first_channel(int port) const { return port < ext_ports_ ? port * vcs_ : external_channels() + port - ext_ports_; }
  int port_vcs(int port) const { return port < ext_ports_ ? vcs_ : 1; }
  topo::VcClass class_of(int ch) const;
  std::string channel_name(int ch) const;
  std::string port_name(int port) const;
  std::string describe_vc(int c, Cycle now) const;
  [[noreturn]] void bad_destination(const Packet& pk, NodeId dst) const;
  [[noreturn]] void not_connected(int oc, int in_ch) const;

  NodeId id_;
  std::shared_ptr<const topo::DirectRouting> routing_;
  VcRouterParams p_;
  SimContext& ctx_;
  int vcs_ = 0, per_class_ = 1, ext_ports_ = 0, local_ports_ = 0;
  // Policies (router_policies.h).
  std::shared_ptr<const RoutingFunction> routing_fn_;
  std::unique_ptr<Selection> selection_;
  std::unique_ptr<VcAllocator> allocator_;

  std::vector<InputVc> ins_;        // per channel
  std::vector<OutputVc> outs_;      // per channel
  std::vector<OutputPort> ports_;   // per physical port (external, then internal)
  std::vector<VcLink*> in_link_, out_link_;   // per external port (null: unbound)
  std::vector<Link*> local_rx_, local_tx_;    // per internal port (null: unbound)
  int peak_ = 0;
  bool traced_ = false;
  RouterProbe* probe_ = nullptr;
  CycleScheduler* sched_ = nullptr;
  int sched_id_ = -1;
  Wakeup wake_;
};

}  // namespace wormcast::rtl
