// Wormhole router with virtual channels of the direct networks of seed001
// §1.1–1.5 (Robinson): k-ary n-cube tori, meshes and hypercubes.
//
// The subset of the reference router's policies (router_policies.h) it
// implements, fast: the deterministic routing functions of DirectRouting
// (one candidate, so any routing.selection), the rotating lowest-free VC
// allocator and the round-robin link arbiter. An adaptive routing.function
// is refused by the network (topo::fast_router_refusal names
// router.impl: reference).
//
// Channels. External port 2d + dir (topo::DirectTopology::port_index) exists
// for every (dimension, direction) of the network: n ports in a
// unidirectional torus, 2n otherwise (unbound where the channel does not
// exist). Every external port has `vcs` virtual channels, carried by one
// physical link per direction (rtl::VcLink: one wire, per-VC credit
// counters, flits tagged with their VC), bound with connect_in/connect_out.
// After the external ports come the internal (processor) channel pairs: one
// (one-port) or one per external port (all-port, §1.4), one VC each, each an
// rtl::Link pair to the node on local_in / local_out.
//
// Per evaluated cycle, in this order:
//  1. Receive: flits that have arrived on each input VC enter its buffer
//     (`buffer` flits per VC, credit flow control); a flit is readable from
//     the cycle after it is written (with route_delay 0, in the cycle it is
//     written: the router routes and forwards in a flit's arrival cycle).
//     (With sim.streams on, a flit sent on an empty wire is put in the
//     buffer at its send and counted, as of its arrival, when the VC is
//     next read: deposit / absorb. The router is then evaluated at a
//     header's routing end, not at every arrival.)
//  2. Route: the header at the front of an idle input VC is routed by the
//     routing function (topo::DirectRouting::next_hop, with the class of the
//     VC it arrived on), ready `route_delay` cycles after it was written,
//     `turn_delay` more if it changes dimension (external in, external out
//     of another dimension: SCI's X-to-Y internal bus, spec seed004 §6).
//     At its destination it goes to the ejection channel. (A plain unicast
//     header is routed as it is received, in the same cycle: route_now.)
//  3. VC allocation: a routed header takes a free VC of the class the
//     routing chose on its output (with vcs = m x the routing's classes,
//     class i owns VCs [i*m, (i+1)*m); the lowest-numbered free one) and
//     holds it until its tail has passed (blocking in place: a blocked
//     header keeps every VC behind it). Requests are served round-robin,
//     starting at input channel (cycle mod channels).
//  4. Link allocation and traversal: per physical output, one flit per
//     cycle, round-robin among the VCs that hold the output, have a readable
//     flit and a downstream credit (§1.5: one active VC gets the whole
//     bandwidth, two get half each). The flit reaches the next router after
//     crossbar_delay + link latency cycles; its buffer slot is credited
//     upstream at once. (With router.link_hold packet and sim.streams on,
//     a packet whose flits can all leave one per cycle from its header's
//     send leaves in one step, with the same cycles for every flit: the
//     worm-level hop, try_run.)
// Intermediate reception (seed001 Fig. 5.10): a worm with a multicast header
// (HeaderKind::multicast, header.dests in visiting order) carries one
// address per header flit, the last one twice as terminator. At a
// destination that is not the last, the router strips the first header flit
// and sends it to the local processor, followed by a copy of every body flit
// (the local copy: 1 header flit + the body, a unicast packet to this node);
// the remaining header and the body continue as a new packet one header flit
// shorter, routed with the class of the VC it arrived on. Body flits go to
// both outputs in the same cycle. At the last destination the worm ejects.
// A compound header (Fig. 6.2, header.compound) strips the destination's
// whole block (address, count, later-phase list) into the local copy instead
// of the address alone. Options: link_sharing "bidirectional" (seed001 §5.2
// "3-way": a SharedLink arbiter lets the VCs of both directions of a router
// pair take turns on one wire) and replication (tree-shaped worms, §1.6: the
// worm takes every branch's VC at once and each flit leaves on all branches
// in one cycle; not deadlock-free, off by default, refused when off).
// Zero-load, a head costs route_delay + crossbar_delay + link.latency cycles
// per router, plus turn_delay per dimension change; body flits follow one
// per cycle (docs/direct_networks.md). The least is one cycle per hop
// (0 + 0 + 1), seed001's "one flit time" per hop.
//
// Storage is per packet segment (packet reference, first index, count),
// never per buffer slot, so memory follows traffic, not buffer depth. The
// router is evaluated in the cycles that link activity and pending route
// completions ask for: by the network's CycleScheduler (SimContext::scheduler,
// one activity list per clock, docs/performance.md) when the run has one,
// otherwise by its own SC_METHOD. An idle router costs nothing.
//
// Invariants the fast paths rely on. Those marked (checked build) are
// tested by WORMCAST_INVARIANT (rtl_models/core/checked.h) in a build with
// -DWORMCAST_CHECKED=ON, as CI's sanitizer pass is; the others are tested
// in every build, because a violation there would go unnoticed otherwise.
//  1. An input VC never holds more flits than router.buffer: the arrived
//     ones plus those deposited and not yet counted (checked build).
//  2. At most one flit leaves an input VC per cycle; after a worm-level
//     hop, none before the cycle of its last flit (checked build).
//  3. At most one flit per cycle leaves a physical output, a run's flits
//     included: a send there comes after its last flit (checked build).
//  4. An output VC has at most one owner: a header takes only a free one
//     or one it holds already (a replicating worm's first branch is also
//     its `out`) (checked build).
//  5. A port's mask of held VCs (OutputPort::owned) has exactly the bits of
//     its output VCs that have an owner (checked build).
//  6. Deposits into a VC come in arrival order: none for a cycle at or
//     before one already deposited or counted (checked build; overlapping
//     runs are refused in every build).
//  7. Routing at a router's cached coordinates (topo::Here) decides as
//     routing at its node id does (checked build).
//  8. A header routed at its deposit (InputVc::pre_out) goes where routing
//     it at the front of its VC would send it (checked build).
//  9. With router.link_hold: packet, a held physical output sends only the
//     holding VC's flits (checked build).
// 10. Every unreleased run's tail lies within 31 cycles after run_due_, so
//     run_tails_ can keep its low byte (every build: bad_run_tail).
// 11. A run whose release matters to the cycle after its tail is released
//     by then (every build: late_release).
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "rtl_models/core/channel_set.h"
#include "rtl_models/core/cycle_scheduler.h"
#include "rtl_models/core/link.h"
#include "rtl_models/direct/router_probe.h"
#include "rtl_models/direct/shared_link.h"
#include "rtl_models/direct/vc_link.h"
#include "rtl_models/core/sim_context.h"
#include "topologies/direct_routing.h"

namespace wormcast::rtl {

struct VcRouterParams {
  int vcs = 0;                 // VCs per external channel; 0 = what the routing function needs
  int buffer_flits = 2;        // flit buffer per VC
  Cycle route_delay = 1;
  Cycle turn_delay = 0;        // extra routing cycles for a header that changes dimension
  Cycle crossbar_delay = 1;
  std::string ports = "one_port";   // internal channels: one_port | all_port
  std::string ejection = "per_link";   // all_port: one ejection channel per external link | per external VC
  std::string link_sharing = "per_direction";   // per_direction | bidirectional ("3-way")
  bool replication = false;    // accept tree-shaped (replicating) worms; not deadlock-free
  std::string link_hold = "flit";   // flit | packet: VCs share a physical output flit by flit, or a packet holds it
  void visit(ParamVisitor& v) {
    v.count("vcs", vcs,
            "virtual channels per external channel: 0 = as many as routing.function has classes, else a multiple "
            "m of that; each class gets m VCs and a header takes the lowest-numbered free VC of its class", 0, 16);
    v.flits("buffer", buffer_flits, "flit buffer per virtual channel (credits of the upstream VC)", 1);
    v.cycles("route_delay", route_delay,
             "routing of a header flit (cycles); 0: the router routes and forwards in the cycle a flit arrives "
             "(every flit, header or body, readable in the cycle it is written; with crossbar_delay 0 and "
             "link.latency 1 a hop costs one cycle, seed001's one flit time per hop)",
             0, 65535);   // the router keeps a 16-bit copy (VcRouter::route_delay_)
    v.cycles("turn_delay", turn_delay,
             "extra routing cycles for a header that changes dimension (leaves on an external channel of another "
             "dimension than it came in on), e.g. SCI's internal bus between its X and Y link controllers; "
             "0: a turn costs what a hop costs",
             0, 65535);   // the router keeps a 16-bit copy (VcRouter::turn_delay_)
    v.cycles("crossbar_delay", crossbar_delay, "input VC buffer to output link (cycles)", 0,
             65535);   // the router keeps a 16-bit copy in its head line (VcRouterHead::crossbar_)
    v.choice("ports", ports, {"one_port", "all_port"},
             "internal (processor) channel pairs: one, or one per external channel (seed001 §1.4)");
    v.choice("ejection", ejection, {"per_link", "per_vc"},
             "with ports all_port, the ejection channels: per_link, one per external link, shared by its VCs (an "
             "IR worm's local copy waits while a worm of another VC of its link holds it; concurrent IR worms can "
             "deadlock there); per_vc, one per external VC, so every arriving worm copies to its processor at "
             "once, as seed001 Fig. 5.10's router does (the extra channel pairs only eject)");
    v.choice("link_sharing", link_sharing, {"per_direction", "bidirectional"},
             "per_direction: each direction between two routers is its own physical link shared by its VCs; "
             "bidirectional: the VCs of both directions share one link flit by flit (seed001 §5.2 \"3-way\")");
    v.choice("link_hold", link_hold, {"flit", "packet"},
             "flit: the VCs holding a physical output share its link flit by flit, round-robin (seed001 §1.5); "
             "packet: once a packet's first flit has left on a physical output, only that packet's VC sends on it "
             "until its tail has left (the link allocated per packet, as CNSim does and BookSim2's "
             "hold_switch_for_packet); meshes and hypercubes only (refused on tori, where the dateline VC classes "
             "need the VCs to share each link), not with link_sharing bidirectional or replication");
    v.boolean("replication", replication,
              "accept tree-shaped worms replicated at routers (seed001 §1.6); for comparison only, NOT "
              "deadlock-free: off, such worms are refused");
  }
};

namespace detail {
// The VC router's first cache line: the scheduler's client vtable pointer
// with what every evaluation reads first and the deposits' summary. As
// VcRouter's first base it is at offset 0 and its Client the primary base:
// the scheduler's call reads the vtable pointer from a line the evaluation
// reads anyway, and needs no this-adjusting thunk. It also holds everything
// else a deposit and an arrival read of the router object (the channel
// table, the context, the scheduler, the VC count, the peak, the trace
// flag), so each reads this line and the input VC's only: on large meshes a
// router's lines are gone from the L2 between two visits, and every other
// line read would be a miss per deposit and per arrival. The input links'
// active set is in the third line (maybe_busy_ says when it may be non-empty).
struct alignas(64) VcRouterHead : CycleScheduler::Client {
  explicit VcRouterHead(SimContext& ctx) : ctx_(&ctx), sched_(ctx.scheduler) {}
  // Deposited flits not yet counted (they are counted lazily): the input
  // channels (0..63) with one (each VC's own cycles are in
  // InputVc::arr_mask). A bit mask in this line rather than a queue in a
  // block of its own, whose lines no other step would read.
  std::uint64_t arriving_ = 0;
  // The end of the routing delay of the earliest deposited header flit not
  // yet counted (InputVc::hdr_mask; UINT64_MAX: none), where its VC
  // allocation can start: the router is evaluated there (a traced router at
  // every deposited flit's arrival, for its VCD).
  Cycle header_due_ = UINT64_MAX;
  void* chans_ = nullptr;      // VcRouter::chan_.data() (Channel is VcRouter's private type)
  SimContext* ctx_;
  CycleScheduler* sched_;      // SimContext::scheduler, when the run has one
  int peak_ = 0;
  int sched_id_ = -1;
  // p_.crossbar_delay, read per send: here, not in the cold line of the
  // parameters, which a send would otherwise miss (at most 65,535: checked).
  std::uint16_t crossbar_ = 1;
  std::int8_t ext_ports_ = 0;  // 2 per dimension, at most 62 (a node count fits an int), checked
  // Cycles from a flit's arrival until it can leave its input VC, read per
  // send: 1 (the buffer write stage, which a header's routing overlaps), or
  // 0 with route_delay 0 (routed and forwarded in the arrival cycle).
  std::uint8_t read_delay_ = 1;
  std::uint8_t vcs_ = 0;       // at most 16 (VcRouterParams), checked
  // Which of the active sets unrouted_, waiting_, owned_ports_, rx_pending_
  // (bits 0, 1, 2, 3) may be non-empty: set at every insert, cleared by the
  // evaluation that finds the set empty. The evaluation tests this byte, in
  // the line it reads first, and reads a set's line only when its bit is
  // set.
  std::uint8_t maybe_busy_ = 0;
  // Traced (VCD) or probed (attach_probe): every flit's send and arrival
  // is seen in a cycle of its own, so the deposits' worm-level paths are off.
  bool traced_ = false;
  // shared_ is not empty: tested per traversal in this line, not through the
  // vector's header in a cold line (which would be a miss per traversal).
  bool any_shared_ = false;
};
static_assert(sizeof(VcRouterHead) == 64, "VcRouterHead: one cache line");
}  // namespace detail

class VcRouter : private detail::VcRouterHead,
                 public sc_core::sc_module,
                 private LinkClient,
                 private SharedLinkClient {
 public:
  SC_HAS_PROCESS(VcRouter);
  // `local_ports` internal channel pairs; `vcs` VCs per external channel.
  VcRouter(sc_core::sc_module_name name, NodeId id, std::shared_ptr<const topo::DirectRouting> routing, int vcs,
           int local_ports, const VcRouterParams& p, SimContext& ctx);

  // Channel c: external port c / vcs, VC c % vcs for c < external_channels();
  // then one channel per internal port. External port p has one physical
  // link per direction (link_in[p], link_out[p]) carrying all its VCs;
  // internal port l one rtl::Link per direction (local_in[l], local_out[l]).
  std::vector<std::unique_ptr<VcLinkInPort>> link_in;
  std::vector<std::unique_ptr<VcLinkOutPort>> link_out;
  std::vector<std::unique_ptr<FlitInPort>> local_in;
  std::vector<std::unique_ptr<FlitOutPort>> local_out;
  // Bind external port `port` to a physical link (during elaboration).
  void connect_in(int port, VcLink& link);
  void connect_out(int port, VcLink& link);
  // Does channel c exist (its port bound and, external, its VC on the link)?
  bool in_connected(int c) const;
  bool out_connected(int c) const;
  bool port_connected(int port) const;   // any of its output channels (not a unidirectional torus's minus port)

  int vcs() const { return vcs_; }
  int external_ports() const { return ext_ports_; }
  int external_channels() const { return ext_ports_ * vcs_; }
  int channel(int port, int vc) const { return port * vcs_ + vc; }
  int local_channel(int l) const { return external_channels() + l; }
  int num_channels() const { return external_channels() + local_ports_; }
  NodeId id() const { return id_; }

  // "3-way": external port `port` shares one bidirectional wire with the
  // neighbour's opposite port through `link` (this router is `side` 0 or 1).
  // Call during elaboration.
  void share_port(int port, SharedLink* link, int side);

  std::uint64_t buffered_flits() const;
  // The largest input VC occupancy up to cycle `now` (deposited flits that
  // have arrived by then included, counted or not).
  int peak_occupancy(Cycle now) const;
  // Flits sent per output channel (VC multiplexing measurements).
  std::uint64_t flits_sent(int out_channel) const { return out_vc(out_channel).sent; }
  // One line per non-empty input VC: its packets and what the front waits for.
  std::vector<std::string> describe_blocked(Cycle now) const;
  void trace(sc_core::sc_trace_file* tf);
  // Reports every flit that leaves this router to `probe` (owned by the
  // caller, alive for the run). Call during elaboration.
  // A probed router sends flit by flit, as a traced one does (no
  // worm-level hops), so each flit's send is reported at its own cycle;
  // results are the same either way. An unprobed router pays nothing.
  void attach_probe(RouterProbe* probe);

 private:
  // waiting_vc: routed (in waiting_), ready at InputVc::ready, then waiting for its output VC.
  enum class InState : std::uint8_t { idle, waiting_vc, active };
  struct Segment {
    PacketPtr pkt;
    int first = 0, count = 0;
  };
  // Three cache lines (docs/performance.md):
  // the first holds what a flit's deposit, arrival and send read, with the
  // front segment of the buffer and the link end its credits go to; the
  // second the segments behind the front (a ring, a heap block only when a
  // VC holds more than two packets' flits), routing's ready cycle and an
  // internal channel's credit end; the third the IR / replication / trace
  // fields, read only when local_out or tree says they are in use.
  struct alignas(64) InputVc {
    // Front segment of the buffer (count 0: the buffer is empty); the others
    // follow in `rest`, in order. Flits deposited at their send (deposit)
    // are at the back until they arrive.
    Segment head;
    Cycle last_write = UINT64_MAX;
    Cycle last_sent = UINT64_MAX;   // at most one flit leaves an input VC per cycle
    VcLink* rx_link = nullptr;      // credits go to VC rx_vc of this link (external) or to rx_local
    int flits = 0;              // arrived flits: the first `flits` of the buffer
    // Deposited flits not yet counted: bit i for the flit arriving at cycle
    // arr_base + i (in the second line). A VC's flits come one per cycle on
    // one link, so the bits are distinct; a deposit that does not fit the
    // 32 cycles from arr_base is refused (the flit goes on the wire). They
    // are counted lazily, where they are read (absorb): the router is
    // evaluated at a header's routing end (header_due_), and a VC that
    // waits for a flit asks for the cycle after its arrival (docs/performance.md, "The worm-level
    // hop"). Here, not in a ring of the router: deposit and arrive read this
    // line anyway.
    std::uint32_t arr_mask = 0;
    std::int16_t out = -1;      // output channel requested / held (channel indices fit 16 bits: checked)
    // Intermediate reception (IR) at this node: the local copy leaves on
    // ejection channel local_out, the worm continues as fwd (one header flit
    // shorter) on `out`.
    std::int16_t local_out = -1;
    InState state = InState::idle;
    bool tree = false;          // a replicating worm: branches is not empty
    bool more = false;          // rest is not empty
    std::uint8_t rx_vc = 0;
    // Second line.
    Cycle ready = 0;            // routing done
    Link* rx_local = nullptr;
    Ring<Segment> rest;
    // The routing class of this VC (class_of), here because routing reads
    // this line for `ready` anyway: class_by_vc_'s header and block are
    // cold lines, which a routed header would miss.
    topo::VcClass vc_class = topo::VcClass::local;
    // A worm-level hop (try_run) from this VC: its run_len (at most 32)
    // flits leave one per cycle from run_start; the output is released at
    // the last one's cycle (run_step). run_len 0: none. Kept after the
    // release too: the occupancy of later arrivals counts the run's flits
    // not yet gone.
    std::uint8_t run_len = 0;
    // The output channel of the header at the front, routed when it was
    // deposited (deposited_header: a pure function of the header, the node
    // and this VC), or -1: route_header takes it instead of routing. The
    // deposit, a few cycles ahead, then prefetches the lines the header's
    // allocation and send read (prefetch_route).
    std::int16_t pre_out = -1;
    std::uint32_t hdr_mask = 0;   // the bits of arr_mask that are a packet's first flit
    Cycle arr_base = 0;         // the cycle of arr_mask's bit 0
    Cycle run_start = 0;
    // Cold line.
    int strip = 1;              // leading header flits for the local copy only (compound: its block)
    // Message replication: one (output channel, packet copy) per branch, the
    // first on `out`; every flit leaves on all branches in the same cycle.
    std::vector<std::pair<int, PacketPtr>> branches;
    PacketPtr fwd, copy;

    bool empty() const { return head.count == 0; }
    Segment& back() { return more ? rest.back() : head; }
    // Inlined for the common case, a segment into an empty VC: a call would
    // cost more than the body, on every hop.
    __attribute__((always_inline)) void push(Segment&& s) {
      if (empty()) head = std::move(s);
      else push_behind(std::move(s));
    }
    __attribute__((noinline)) void push_behind(Segment&& s) {
      rest.push_back(std::move(s));
      more = true;
    }
    // Drops the front segment, whose flits have all left (count 0) and whose
    // packet reference has been moved out.
    void pop_front() {
      if (!more) return;
      head = std::move(rest.front());
      rest.pop_front();
      more = !rest.empty();
    }
    template <class F> void for_each_segment(F f) const {
      if (empty()) return;
      f(head);
      rest.for_each(f);
    }
  };
  static_assert(offsetof(InputVc, ready) == 64, "InputVc: the first line holds the hot fields");
  // The cold part (IR, replication) starts the third line; fields added
  // there cost no hot line. State no fast path reads belongs in
  // ChannelExtension instead.
  static_assert(offsetof(InputVc, strip) == 128, "InputVc: two hot lines, then the cold part");
  // An output channel, with where its flits go: VC tx_vc of a physical
  // link (external) or an internal channel's rtl::Link (tx_local).
  // Its physical port and that port's first channel are stored: a
  // packet's set_owner / release then finds the port's record
  // without the two divisions by vcs_ (channel counts fit 16 bits: checked).
  struct alignas(32) OutputVc {
    std::int16_t owner = -1;    // input channel holding it
    std::int16_t port = 0;      // physical output port
    std::int16_t first = 0;     // that port's first channel (its block holds the port's record)
    std::uint8_t tx_vc = 0;
    bool local = false;         // an internal channel: tx_local, else tx_link
    std::uint64_t sent = 0;
    union {
      VcLink* tx_link = nullptr;   // !local (null: the port is unbound)
      Link* tx_local;              // local (null: unbound)
    };
    // Where the next router writes a flit of this VC first (its input VC:
    // VcFoldFns::locate), or null: prefetched with the link's lines when a
    // header takes this VC (set_owner), so that the misses a worm-level hop
    // meets there overlap instead of following one another (the link's line
    // and the next input VC's are among a large mesh's costliest misses).
    const void* rx_hint = nullptr;
  };
  // OutputVc and OutputPort fill the line after the input VC, so a send on
  // VC 0 reads one line for both. A field added to either still builds and
  // runs; it moves the port's record to a line of its own (one more line
  // read per send, measured by `wormcast bench`).
  struct alignas(32) OutputPort {
    Cycle used = UINT64_MAX;    // cycle a flit last left (one per cycle, replication sends on several)
    int rr = 0;                 // round-robin pointer among its VCs
    // Its output VCs held by a worm: bit v for the port's VC v (channel
    // first + v; at most 16 VCs). send_one visits only these, not every
    // VC's output line from rr on (on a large mesh each other VC's line
    // visited would be an L2 miss).
    std::uint16_t owned = 0;
    // Do two or more of its VCs have an owner?
    bool shared() const { return (owned & (owned - 1)) != 0; }
    bool hold_packets = false;  // router.link_hold: packet
    std::int8_t hold = -1;      // with it: the VC whose packet has started on this output and keeps it, or -1
    bool run = false;           // hold's packet leaves as a run (try_run): released by release_run
  };
  // Channel c's state in one block of four cache lines: input
  // VC c, output channel c and, when c is a port's first channel (VC 0 of
  // an external port, or an internal one), that physical output port, in
  // the output VC's line: a send on VC 0 reads one line for both. One
  // table, so a flit's move reads one pointer of the router object.
  struct alignas(64) Channel {
    InputVc in;
    OutputVc out;
    OutputPort port;
  };
  // Per-channel state that no fast path reads, in a table of its own so
  // that it costs the hot lines nothing: the VCD's values (written only by
  // a traced router), and the place for new per-channel counters and
  // probes' data. The port fields are used in a port's first channel's entry.
  struct ChannelExtension {
    int traced_occupancy = 0;   // VCD: the input VC's occupancy
    int vc = -1, packet = 0;    // VCD of the port: the VC and packet of the flit that left
    int header_flits = 0;       // VCD of the port: header length of the packet sent (shrinks along an IR worm)
    bool valid = false;         // VCD of the port: a flit left this cycle
    bool head = false, tail = false;   // VCD of the port: that flit was its packet's first / last
  };
  ChannelExtension& ext(int c) { return ext_[static_cast<std::size_t>(c)]; }
  // Channel c's block, through the head line's pointer (not chan_'s header).
  Channel& chan(int c) { return static_cast<Channel*>(chans_)[c]; }
  const Channel& chan(int c) const { return static_cast<const Channel*>(chans_)[c]; }
  InputVc& in_vc(int c) { return chan(c).in; }
  const InputVc& in_vc(int c) const { return chan(c).in; }
  OutputVc& out_vc(int c) { return chan(c).out; }
  const OutputVc& out_vc(int c) const { return chan(c).out; }
  // Physical output port p's record (in its first channel's block).
  OutputPort& out_port(int p) { return chan(first_channel(p)).port; }
  // ... from any of its channels' index oc.
  OutputPort& port_of_channel(int oc) { return chan(port_first_channel(oc)).port; }
  int port_first_channel(int oc) const { return oc < external_channels() ? oc - oc % vcs_ : oc; }
  // router.link_hold: packet: the output channel whose packet holds oc's
  // physical output, and whether that is another VC than oc (deadlock reports).
  int link_holder(int oc) const {
    const int first = port_first_channel(oc);
    const std::int8_t h = chan(first).port.hold;
    return h < 0 ? -1 : first + h;
  }
  bool held_by_other(int oc) const { return link_holder(oc) >= 0 && link_holder(oc) != oc; }

  void end_of_elaboration() override;
  void start_of_simulation() override;   // rx_hint (every router's folds attached)
  void tick();                                // the SC_METHOD without a scheduler
  Cycle evaluate_cycle(Cycle now) override;   // one evaluated cycle; the next one it asks for
  // The scheduler's hint (CycleScheduler::Client::prefetch): the two hot
  // lines of the input VCs with deposited flits (arrive reads them first)
  // and the hot block (the active sets, the runs, routing, the link hints).
  void prefetch() const override {
    for (std::uint64_t w = arriving_; w != 0; w &= w - 1)   // both hot lines (arr_mask, arr_base)
      prefetch_two_lines(&chan(__builtin_ctzll(w)).in);
    prefetch_hot_block();
  }
  // The hot block's two lines and the link hints' line.
  void prefetch_hot_block() const {
    __builtin_prefetch(&unrouted_);
    __builtin_prefetch(&id_);
    __builtin_prefetch(&rx_pending_);
  }
  enum : std::uint8_t { kUnrouted = 1, kWaiting = 2, kOwned = 4, kRx = 8 };   // maybe_busy_'s bits
  // Member i joins active set s, whose bit in maybe_busy_ is `bit`.
  void add(ChannelSet& s, std::uint8_t bit, int i) {
    s.insert(i);
    maybe_busy_ |= bit;
  }
  // Is active set s (bit `bit`) non-empty? Clears the bit when it is empty.
  bool busy(const ChannelSet& s, std::uint8_t bit) {
    if ((maybe_busy_ & bit) == 0) return false;
    if (!s.empty()) return true;
    maybe_busy_ &= static_cast<std::uint8_t>(~bit);
    return false;
  }
  __attribute__((always_inline)) void wake_at(Cycle c) {
    if (sched_ != nullptr) sched_->at(sched_id_, c);
    else wake_.at(c);
  }
  void link_activity(Cycle at) override { wake_at(at); }   // a credit on an output link
  // A flit on the link of input port `port` (physical), arriving at `at`.
  void input_activity(int port, Cycle at) {
    Cycle& due = in_due_[static_cast<std::size_t>(port)];
    if (at < due) due = at;
    add(rx_pending_, kRx, port);
    wake_at(at);
  }
  struct InputClient final : LinkClient {
    VcRouter* router = nullptr;
    int port = -1;
    void link_activity(Cycle at) override { router->input_activity(port, at); }
  };
  // The link's fold (VcFold: receiver = this router, key = the input port),
  // with the router's deposit inlined.
  static bool fold_deposit(void* router, int port, int vc, Flit f, Cycle arrival);
  static bool fold_deposit_run(void* router, int port, int vc, PacketPtr& pkt, int first, int n, Cycle arrival);
  static bool fold_local_run(void* router, int ch, PacketPtr& pkt, int first, int n, Cycle arrival);
  static const void* fold_locate(void* router, int port, int vc);
  // The fold table of every VcRouter: a link whose fold has it delivers to
  // a VcRouter (set_owner's hint below may then read its type).
  static const VcFoldFns kFoldFns;
  // What a deposit here reads besides the input VC (deposit_run, the
  // routing at the deposit, routed): the head line, the hot block's two
  // lines and the link hints' line. An upstream router prefetches them when
  // a header takes an output VC towards this router (set_owner), so they
  // overlap its other misses instead of following them (route_plain reads
  // the link hints' line at the deposit).
  void prefetch_for_deposit() const {
    __builtin_prefetch(static_cast<const VcRouterHead*>(this));
    prefetch_hot_block();
  }
  bool deposit(int port, int vc, Flit f, Cycle arrival);
  bool deposit_run(int ch, PacketPtr& pkt, int first, int n, Cycle arrival);
  __attribute__((noinline)) void deposit_rest(InputVc& iv, Flit f, Cycle arrival, bool wake);
  void take_ahead(int ch, Link& rx, Cycle now);
  bool arrive(Cycle now);
  // Lazy arrivals: what counting iv's deposited flits that arrive by `now`
  // gives (count_due: the count, the largest occupancy on the way, the last
  // arrival; absorb applies it).
  struct Due {
    int flits = 0, peak = 0;
    Cycle last = 0;
  };
  static Due count_due(const InputVc& iv, Cycle now);
  bool absorb(InputVc& iv, Cycle now) {
    if (iv.arr_mask == 0 || iv.arr_base > now) return false;
    return absorb_due(iv, now);
  }
  bool absorb_due(InputVc& iv, Cycle now);
  bool take_arrivals(int ch, Cycle now);
  static int arrived_by(const InputVc& iv, Cycle now) {
    return iv.arr_mask == 0 || iv.arr_base > now ? iv.flits : count_due(iv, now).flits;
  }
  void wait_flit(const InputVc& iv, Cycle now, Cycle& next) const;
  // The arrival of iv's first deposited flit not yet counted (arr_mask != 0).
  static Cycle first_pending(const InputVc& iv) { return iv.arr_base + static_cast<Cycle>(__builtin_ctz(iv.arr_mask)); }
  // The cycle the last flit of iv's run (try_run) leaves.
  static Cycle run_tail(const InputVc& iv) { return iv.run_start + static_cast<Cycle>(iv.run_len) - 1; }
  void deposited_header(InputVc& iv, Cycle arrival);
  void attach_folds();
  __attribute__((always_inline)) int credits(int oc, Cycle now) const {
    const OutputVc& e = out_vc(oc);
    return e.local ? e.tx_local->credits(now) : e.tx_link->credits(e.tx_vc, now);
  }
  Cycle next_credit_arrival(int oc) const {
    const OutputVc& e = out_vc(oc);
    return e.local ? e.tx_local->next_credit_arrival() : e.tx_link->next_credit_arrival(e.tx_vc);
  }
  __attribute__((always_inline)) void put(int oc, Flit f, Cycle now) {
    const OutputVc& e = out_vc(oc);
    if (e.local) e.tx_local->send(f, now, crossbar_);
    else e.tx_link->send(e.tx_vc, f, now, crossbar_);
  }
  // Inlined with the link's return_credits: a call of its own costs more
  // instructions per hop than the body.
  __attribute__((always_inline)) static void return_credit(InputVc& iv, Cycle now) {
    if (iv.rx_link) iv.rx_link->return_credits(iv.rx_vc, 1, now);
    else iv.rx_local->return_credits(1, now);
  }
  void accept(int ch, Flit f, Cycle now);
  static void append(InputVc& iv, Flit f);
  void count_arrival(InputVc& iv, Cycle now);
  void end_receive(int ch, Cycle now);
  void route_now(InputVc& iv, int c, Cycle now);
  void routed(InputVc& iv, int c, Cycle now);
  void set_owner(int oc, int in_ch);
  [[noreturn]] void not_connected(int oc, int in_ch) const;
  void release(int oc);
  bool receive(Cycle now, Cycle& next);
  // s.for_each_from(start, f) for a set that f only erases from, with the
  // common case of one member (one header to route, one request for a VC)
  // without the scan: the first member the scan would meet, then the scan
  // of the others only when the set is not empty after it.
  template <class F> static void visit_from(ChannelSet& s, int start, F f) {
    const int first = s.first_from(start);
    f(first);
    if (s.empty()) return;
    s.for_each_from(start, [&](int c) {
      if (c != first) f(c);
    });
  }
  bool route(Cycle now);
  bool allocate_vcs(Cycle now, Cycle& next);
  bool take_vcs(InputVc& iv, int c);
  bool take_more_vcs(InputVc& iv, int c, int vc);
  bool traverse(Cycle now, Cycle& next);
  bool send_one(int first_ch, int nch, Cycle now, Cycle& next);
  bool send_held(OutputPort& op, int first_ch, int nch, Cycle now, Cycle& next);
  bool send_on(OutputPort& op, int v, int nch, int oc, Cycle now, Cycle& next);
  bool try_run(int oc, Cycle now);
  bool run_step(OutputPort& op, int oc, Cycle now, Cycle& next);
  bool run_watched(const OutputPort& op, const InputVc& iv, Cycle tail);
  bool release_run(OutputPort& op, int oc, Cycle tail, Cycle now);
  [[noreturn]] __attribute__((noinline, cold)) void late_release(int oc, const InputVc& iv, Cycle tail, Cycle now) const;
  void settle_runs(Cycle now);
  [[noreturn]] void bad_run_tail(int port, Cycle tail) const;
  void watch_run(const InputVc& iv, Cycle arrival);
  bool can_send(int oc, Cycle now, Cycle& next);
  bool offer_shared(int port, Cycle now, Cycle& next);
  void shared_link_grant(int port, int vc, Cycle now) override;
  int output_for(int in_ch, const topo::DirectHop& hop) const;
  int output_port(int in_ch, const topo::DirectHop& hop) const;
  int port_channel(int port, const topo::DirectHop& hop) const;
  int free_vc(int first) const;
  // The input port a header on input channel `ch` arrived through (-1: internal).
  int in_port_of(int ch) const { return ch < external_channels() ? ch / vcs_ : -1; }
  void route_header(InputVc& iv, int c);
  int route_plain(const InputVc& iv, int c) const;
  // Input VC iv's channel (its block's index).
  int channel_of(const InputVc& iv) const {
    return static_cast<int>(static_cast<std::size_t>(reinterpret_cast<const char*>(&iv) -
                                                     static_cast<const char*>(chans_)) / sizeof(Channel));
  }
  bool turns(const InputVc& iv, int c) const;
  void route_special(InputVc& iv, int c);
  [[noreturn]] void bad_destination(const Packet& pk, NodeId dst) const;
  void start_ir(InputVc& iv, int c);
  void start_tree(InputVc& iv, int c);
  bool tree_can_send(const InputVc& iv, Cycle now, Cycle& next);
  int port_of(int ch) const { return ch < external_channels() ? ch / vcs_ : ext_ports_ + ch - external_channels(); }
  int first_channel(int port) const { return port < ext_ports_ ? port * vcs_ : external_channels() + port - ext_ports_; }
  void send_flit(int oc, Cycle now);   // the front flit of oc's owner
  void emit(int ch, Flit g, Cycle now);
  void emit_copy(int ch, Flit g, Cycle now);
  void emit_copies(InputVc& iv, Flit f, Cycle now);
  topo::VcClass class_of(int in_ch) const;
  std::string channel_name(int ch) const;
  std::string port_name(int port) const;
  void make_ports();
  template <class If> Link* as_link(If* channel, int l) const;

  std::shared_ptr<const topo::DirectRouting> routing_;   // owns route_fn_'s object
  // The hot block, two lines from a cache-line boundary: after the head
  // line, the first holds the active sets an evaluation reads (only when
  // maybe_busy_ says a set may be non-empty) and the cycles it compares with
  // its own (the allocation's and the runs' next one); the second what
  // routing reads besides the head (id_, the routing function, the delays)
  // and the runs' record. An evaluation reads few lines of the object: on
  // large meshes a router's lines leave the L2 between two of its
  // evaluations, so each line read is a miss.
  // Active sets: a cycle looks only at these channels or ports.
  alignas(64) ChannelSet unrouted_;        // input VCs with a header to route or being routed
  ChannelSet waiting_;                     // input VCs whose routed header waits for its output VC
  ChannelSet owned_ports_;                 // physical outputs with OutputPort::owned > 0
  // The first cycle in which allocate_vcs can serve a member of waiting_
  // (0: a blocked header, try in every evaluated cycle; UINT64_MAX: none).
  Cycle alloc_due_ = UINT64_MAX;
  // The earliest tail's cycle of a run (try_run) not yet released, or a
  // cycle before it (a run released by run_step leaves it behind; UINT64_MAX:
  // none): a passed one makes the next evaluation release the runs whose
  // tail has passed (settle_runs), which sets it exactly.
  Cycle run_due_ = UINT64_MAX;
  // Second line.
  NodeId id_;                              // read per routed header, with route_fn_
  int local_ports_;
  // routing_.get(): routing reads it per header, here rather than in the
  // cold line that holds routing_.
  const topo::DirectRouting* route_fn_;
  // This node's coordinates: the routing function divides only the
  // destination's address per header.
  topo::Here here_;
  // VCs per routing class (vcs_ / routing_->num_vcs(), at most 16 VCs): read
  // per routed header, so in this line, not in the cold part.
  std::uint8_t per_class_ = 1;
  // Per VcClass: its first VC among a port's (vc_index * per_class_), so a
  // routed header's output needs no call of vc_index.
  std::int8_t class_first_[topo::kVcClassCount] = {};
  // p_.turn_delay and p_.route_delay (each at most 65,535: checked), read
  // per routed header.
  std::uint16_t turn_delay_ = 0;
  std::uint16_t route_delay_ = 1;
  // The physical outputs whose packet left as a run not yet released (a bit
  // per port), and each one's tail cycle: settle_runs reads these, not a
  // chain of port, output VC and input VC lines per owned port (dependent
  // loads, each waiting for the one before). Runs only on ports below
  // kRunPorts (try_run; a 2-D mesh's one-port router has 5, an all-port
  // one 8). A tail is kept as its low byte: every unreleased run's tail is
  // in run_due_ .. run_due_ + 31, so run_tail_at rebuilds it from run_due_.
  // (run_due_ is at most every unreleased tail: send_on takes the minimum,
  // settle_runs sets the exact one, a release leaves it below the others.
  // A run starts in an evaluation at cycle e with its tail at most e + 31,
  // and run_due_ was set in an evaluation at or before e, at a cycle at or
  // after it, else the evaluation at e would have settled the runs and set
  // it anew: so every tail is at most run_due_ + 31.)
  static constexpr int kRunPorts = 8;
  std::uint8_t run_ports_ = 0;
  std::array<std::uint8_t, kRunPorts> run_tails_{};
  Cycle run_tail_at(int port) const {
    return run_due_ + static_cast<std::uint8_t>(run_tails_[static_cast<std::size_t>(port)] -
                                                static_cast<std::uint8_t>(run_due_));
  }
  // Input ports whose link has flits in flight: only flits that are not
  // deposited (a flit behind another on the wire), rare on meshes with
  // router.link_hold packet, so in the line after the hot block.
  ChannelSet rx_pending_;
  // Per physical output port below kLinkHints, the first of the two lines
  // its link's send reads (VcLink::send_lines, Link::send_lines; null: none):
  // prefetched when a header is routed to the port (prefetch_route), with
  // the output VC's line, so that they arrive during its allocation rather
  // than one after the other in it (otherwise set_owner waits for the link's
  // line). In this line, which
  // the scheduler's hint prefetches with the hot block's two.
  static constexpr int kLinkHints = 6;
  std::array<const void*, kLinkHints> link_lines_{};
  // The lines a routed header's allocation and send read next: the output
  // VC's and its port's link's (link_lines_).
  void prefetch_route(int oc, int port) const {
    __builtin_prefetch(&chan(oc).out);
    if (port < kLinkHints && link_lines_[static_cast<std::size_t>(port)] != nullptr)
      prefetch_two_lines(link_lines_[static_cast<std::size_t>(port)]);
  }
  // The line at p and the one after it (an input VC's two hot lines, a
  // link's send and credit lines).
  static void prefetch_two_lines(const void* p) {
    __builtin_prefetch(p);
    __builtin_prefetch(static_cast<const char*>(p) + 64);
  }
  VcRouterParams p_;
  // Cold from here.
  std::vector<Channel> chan_;              // per channel (and physical output port); chans_ = its data
  std::vector<ChannelExtension> ext_;      // per channel, beside chan_ (never resized after construction)
  RouterProbe* probe_ = nullptr;           // attach_probe
  std::vector<topo::VcClass> class_by_vc_;
  // The links, per physical port (null: unbound): external ones set by
  // connect_in/connect_out, internal ones resolved after elaboration.
  std::vector<VcLink*> in_link_, out_link_;
  // The internal channels' links: always rtl::Link (as_link checks), held
  // as Link* so that their per-flit calls are direct, not virtual.
  std::vector<Link*> local_rx_;
  std::vector<Cycle> in_due_;              // per input port: arrival of the first flit on its link
  std::vector<InputClient> in_clients_;    // per input port: the receiver its link calls
  std::vector<SharedLink*> shared_;  // per external port: its "3-way" arbiter, or null
  std::vector<int> shared_side_;
  Wakeup wake_;
};

}  // namespace wormcast::rtl
