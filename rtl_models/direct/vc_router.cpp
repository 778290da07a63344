#include "rtl_models/direct/vc_router.h"

#include "rtl_models/core/bound_link.h"
#include "rtl_models/core/checked.h"
#include "rtl_models/direct/ir_split.h"

#include <algorithm>
#include <stdexcept>

namespace wormcast::rtl {

namespace {
// Set bits of x, without the library call __builtin_popcount makes on a
// baseline x86-64 build.
inline int popcount32(std::uint32_t x) {
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  return static_cast<int>((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

// Two routing decisions are the same (invariant 7).
[[maybe_unused]] bool same_hop(const topo::DirectHop& a, const topo::DirectHop& b) {
  return a.arrived == b.arrived && (a.arrived || (a.dim == b.dim && a.dir == b.dir && a.vc == b.vc));
}

// A unicast packet for the routing function alone: no switch-network
// encoding, not a replicating worm (the common case, one test each).
bool plain_unicast(const Packet& p) {
  return p.header.kind == HeaderKind::unicast && p.header.worm == WormEncoding::none && !p.header.direct_tree;
}

}  // namespace

VcRouter::VcRouter(sc_core::sc_module_name name, NodeId id, std::shared_ptr<const topo::DirectRouting> routing,
                   int vcs, int local_ports, const VcRouterParams& p, SimContext& ctx)
    : detail::VcRouterHead(ctx), sc_core::sc_module(name), routing_(std::move(routing)), id_(id),
      local_ports_(local_ports), route_fn_(routing_.get()), here_(routing_->here(id)), p_(p), wake_(ctx.clock) {
  vcs_ = static_cast<std::uint8_t>(vcs);
  crossbar_ = static_cast<std::uint16_t>(p_.crossbar_delay);
  turn_delay_ = static_cast<std::uint16_t>(p_.turn_delay);
  if (turn_delay_ != p_.turn_delay)
    throw std::invalid_argument(std::string(this->name()) + ": turn delay " + std::to_string(p_.turn_delay) +
                                " cycles (at most 65535)");
  route_delay_ = static_cast<std::uint16_t>(p_.route_delay);
  if (route_delay_ != p_.route_delay)
    throw std::invalid_argument(std::string(this->name()) + ": route delay " + std::to_string(p_.route_delay) +
                                " cycles (at most 65535)");
  if (crossbar_ != p_.crossbar_delay)
    throw std::invalid_argument(std::string(this->name()) + ": crossbar delay " + std::to_string(p_.crossbar_delay) +
                                " cycles (at most 65535)");
  ext_ports_ = static_cast<std::int8_t>(routing_->topology().num_ports());
  if (ext_ports_ != routing_->topology().num_ports())
    throw std::invalid_argument(std::string(this->name()) + ": " + std::to_string(routing_->topology().num_ports()) +
                                " external ports (at most 127)");
  read_delay_ = route_delay_ == 0 ? 0 : 1;
  if (vcs != vcs_) throw std::invalid_argument(std::string(this->name()) + ": " + std::to_string(vcs) + " VCs");
  per_class_ = static_cast<std::uint8_t>(vcs_ < 1 ? 0 : routing_->vcs_per_class(vcs_));   // class i owns VCs [i*m, (i+1)*m)
  if (per_class_ == 0)
    throw std::invalid_argument(std::string(this->name()) + ": " + std::to_string(vcs_) + " VCs, but routing " +
                                topo::to_string(routing_->algorithm()) + " needs a positive multiple of " +
                                std::to_string(routing_->num_vcs()));
  if (local_ports_ < 1) throw std::invalid_argument(std::string(this->name()) + ": needs an internal channel");
  for (int v = 0; v < vcs_; ++v) class_by_vc_.push_back(routing_->class_at(v / per_class_));
  for (int k = 0; k < topo::kVcClassCount; ++k)
    class_first_[k] = static_cast<std::int8_t>(routing_->vc_index(static_cast<topo::VcClass>(k)) * per_class_);
  const int n = num_channels();
  if (n > INT16_MAX)   // OutputVc holds channel indices in 16 bits
    throw std::invalid_argument(std::string(this->name()) + ": " + std::to_string(n) + " channels (at most 32767)");
  make_ports();
  chan_.resize(static_cast<std::size_t>(n));   // n >= ports: every port has a VC
  ext_.resize(static_cast<std::size_t>(n));
  chans_ = chan_.data();                        // never resized again
  for (auto& c : chan_) c.port.hold_packets = p_.link_hold == "packet";
  owned_ports_.resize(ext_ports_ + local_ports_);
  unrouted_.resize(n);
  waiting_.resize(n);
}

// One port pair per physical channel: external ports take a VcLink, internal
// ones an rtl::Link. Names as the VCD and errors show them: in_d0p, out_local0.
void VcRouter::make_ports() {
  const int ports = ext_ports_ + local_ports_;
  for (int p = 0; p < ext_ports_; ++p) {
    link_in.push_back(std::make_unique<VcLinkInPort>(("in_" + port_name(p)).c_str()));
    link_out.push_back(std::make_unique<VcLinkOutPort>(("out_" + port_name(p)).c_str()));
  }
  for (int l = 0; l < local_ports_; ++l) {
    local_in.push_back(std::make_unique<FlitInPort>(("in_" + port_name(ext_ports_ + l)).c_str()));
    local_out.push_back(std::make_unique<FlitOutPort>(("out_" + port_name(ext_ports_ + l)).c_str()));
  }
  in_link_.assign(static_cast<std::size_t>(ext_ports_), nullptr);
  out_link_.assign(static_cast<std::size_t>(ext_ports_), nullptr);
  in_due_.assign(static_cast<std::size_t>(ports), UINT64_MAX);
  in_clients_.resize(static_cast<std::size_t>(ports));
  rx_pending_.resize(ports);
}

std::string VcRouter::port_name(int port) const {
  if (port >= ext_ports_) return "local" + std::to_string(port - ext_ports_);
  return std::string("d") + std::to_string(port / 2) + (port % 2 ? "m" : "p");
}

void VcRouter::connect_in(int port, VcLink& link) {
  link_in.at(static_cast<std::size_t>(port))->bind(link);
  in_link_[static_cast<std::size_t>(port)] = &link;
}

void VcRouter::connect_out(int port, VcLink& link) {
  link_out.at(static_cast<std::size_t>(port))->bind(link);
  out_link_[static_cast<std::size_t>(port)] = &link;
}

bool VcRouter::in_connected(int c) const {
  if (c >= external_channels()) return local_in[static_cast<std::size_t>(c - external_channels())]->size() > 0;
  const VcLink* l = in_link_[static_cast<std::size_t>(c / vcs_)];
  return l != nullptr && l->uses_vc(c % vcs_);
}

bool VcRouter::out_connected(int c) const {
  if (c >= external_channels()) return local_out[static_cast<std::size_t>(c - external_channels())]->size() > 0;
  const VcLink* l = out_link_[static_cast<std::size_t>(c / vcs_)];
  return l != nullptr && l->uses_vc(c % vcs_);
}

bool VcRouter::port_connected(int port) const {
  const int first = first_channel(port), n = port < ext_ports_ ? vcs_ : 1;
  for (int c = first; c < first + n; ++c)
    if (out_connected(c)) return true;
  return false;
}

std::string VcRouter::channel_name(int ch) const {
  if (ch >= external_channels()) return "local" + std::to_string(ch - external_channels());
  const int port = ch / vcs_;
  return std::string("d") + std::to_string(port / 2) + (port % 2 ? "m" : "p") + "_vc" + std::to_string(ch % vcs_);
}

// An internal port's channel: the direct network binds an rtl::Link there
// (DirectNetwork::bind_pair); anything else is refused, as by the switch.
template <class If>
Link* VcRouter::as_link(If* channel, int l) const {
  return bound_link(channel, name(), "internal port " + std::to_string(l));
}

void VcRouter::end_of_elaboration() {
  for (int p = 0; p < ext_ports_ + local_ports_; ++p) {
    in_clients_[static_cast<std::size_t>(p)].router = this;
    in_clients_[static_cast<std::size_t>(p)].port = p;
  }
  for (int p = 0; p < ext_ports_; ++p) {
    if (VcLink* l = in_link_[static_cast<std::size_t>(p)]) l->attach_receiver(&in_clients_[static_cast<std::size_t>(p)]);
    if (VcLink* l = out_link_[static_cast<std::size_t>(p)]) l->attach_sender(this);
  }
  for (int l = 0; l < local_ports_; ++l) {
    FlitInPort& i = *local_in[static_cast<std::size_t>(l)];
    local_rx_.push_back(i.size() > 0 ? as_link(i.operator->(), l) : nullptr);
    if (local_rx_.back()) {
      local_rx_.back()->attach_receiver(&in_clients_[static_cast<std::size_t>(ext_ports_ + l)]);
      local_rx_.back()->attach_fold(&VcRouter::fold_local_run, this, local_channel(l));
    }
    FlitOutPort& o = *local_out[static_cast<std::size_t>(l)];
    if (o.size() > 0) o->attach_sender(this);
  }
  for (int c = 0; c < num_channels(); ++c) {
    const bool ext = c < external_channels();
    const std::size_t l = static_cast<std::size_t>(c - external_channels());
    InputVc& iv = in_vc(c);
    iv.rx_link = ext ? in_link_[static_cast<std::size_t>(c / vcs_)] : nullptr;
    iv.rx_local = ext ? nullptr : local_rx_[l];
    iv.rx_vc = static_cast<std::uint8_t>(ext ? c % vcs_ : 0);   // VcLink: at most 31 VCs
    iv.vc_class = class_of(c);
    OutputVc& ov = out_vc(c);
    ov.local = !ext;
    if (ext) ov.tx_link = out_link_[static_cast<std::size_t>(c / vcs_)];
    else ov.tx_local = local_out[l]->size() == 0 ? nullptr : as_link(local_out[l]->operator->(), l);
    ov.tx_vc = static_cast<std::uint8_t>(ext ? c % vcs_ : 0);
    ov.port = static_cast<std::int16_t>(port_of(c));
    ov.first = static_cast<std::int16_t>(first_channel(ov.port));
  }
  attach_folds();
  sched_id_ = start_on_clock(sched_, this, this, wake_.event(), &VcRouter::tick);
}

// The output VCs' prefetch hints: the next router's input VC of each
// external one, once every router has attached its folds; the links' lines
// per output port.
void VcRouter::start_of_simulation() {
  for (int p = 0; p < std::min(kLinkHints, ext_ports_ + local_ports_); ++p) {
    const OutputVc& ov = out_vc(first_channel(p));
    link_lines_[static_cast<std::size_t>(p)] =
        ov.local ? (ov.tx_local ? ov.tx_local->send_lines() : nullptr) : (ov.tx_link ? ov.tx_link->send_lines() : nullptr);
  }
  for (int c = 0; c < external_channels(); ++c) {
    OutputVc& ov = out_vc(c);
    ov.rx_hint = ov.tx_link != nullptr ? ov.tx_link->rx_hint(ov.tx_vc) : nullptr;
  }
}

// The receive folded into the send, on the input links where a VC's
// deposited flits fit InputVc::arriving: a flit arrives crossbar + link
// latency cycles after its send (the sender's crossbar delay is this
// router's: one VcRouterParams per network), so the pending ones span at
// most that + 1 cycles, at most 32. Elsewhere flits travel on the wire.
const VcFoldFns VcRouter::kFoldFns{&VcRouter::fold_deposit, &VcRouter::fold_deposit_run, &VcRouter::fold_locate};

void VcRouter::attach_folds() {
  for (int p = 0; p < ext_ports_; ++p)
    if (VcLink* l = in_link_[static_cast<std::size_t>(p)])
      if (p_.crossbar_delay + l->params().latency <= 31) l->attach_fold(VcFold{&kFoldFns, this, p});
}

topo::VcClass VcRouter::class_of(int in_ch) const {
  return in_ch >= external_channels() ? topo::VcClass::local : class_by_vc_[static_cast<std::size_t>(in_ch % vcs_)];
}

void VcRouter::tick() {
  const Cycle now = ctx_->clock.now();
  if (!wake_.begin_cycle(now)) return;
  const Cycle next = evaluate_cycle(now);
  if (next != UINT64_MAX) wake_at(next);
}

Cycle VcRouter::evaluate_cycle(Cycle now) {
  Cycle next = UINT64_MAX;
  // Each stage works on its active set; testing the set here spares most
  // evaluations the calls of stages with nothing to do (no header to route,
  // none waiting for a VC). traverse also clears the VCD's per-port valid
  // flags, so it runs in every evaluated cycle of a traced router.
  // arrive and traverse (with the whole send path: send_one, can_send,
  // send_flit, the link's send) are inlined here: one call per port
  // visited, not three or four per flit.
  if (run_due_ < now) settle_runs(now);
  bool active = busy(rx_pending_, kRx) && receive(now, next);
  // Counting deposited flits makes no next cycle necessary: a VC that
  // waits for one asks for the cycle it is readable (wait_flit).
  if (arriving_ != 0) arrive(now);
  next = std::min(next, header_due_);
  if (busy(unrouted_, kUnrouted)) active |= route(now);
  if (busy(waiting_, kWaiting)) {
    // A header that takes its VC is tried on its output in this same
    // evaluation (traverse), which asks for what it then waits for.
    if (alloc_due_ <= now) allocate_vcs(now, next);
    else next = std::min(next, alloc_due_);   // the end of a header's routing delay
  }
  if (busy(owned_ports_, kOwned) || traced_) active |= traverse(now, next);   // traced_: a line not read otherwise
  if (active) next = now + 1;
  return next;   // the scheduler's (or tick's) wake-up
}

// Flit f takes its place at the back of iv's buffer.
__attribute__((always_inline)) inline void VcRouter::append(InputVc& iv, Flit f) {
  if (!iv.empty()) {
    Segment& b = iv.back();
    if (b.pkt == f.pkt && b.first + b.count == f.index) {
      ++b.count;
      return;
    }
  }
  iv.push(Segment{f.pkt, f.index, 1});
}

// The flit after iv's arrived ones has arrived.
__attribute__((always_inline)) inline void VcRouter::count_arrival(InputVc& iv, Cycle now) {
  ++iv.flits;
  iv.last_write = now;
  peak_ = std::max(peak_, iv.flits);
  WORMCAST_INVARIANT(name(), 1, iv.flits + popcount32(iv.arr_mask) <= p_.buffer_flits,
                     channel_name(channel_of(iv)) + " holds more flits than router.buffer");
}

// Flit f enters input VC ch's buffer (from the wire: after the VC's
// deposited flits, which arrived before it and are counted first).
__attribute__((always_inline)) inline void VcRouter::accept(int ch, Flit f, Cycle now) {
  InputVc& iv = in_vc(ch);
  if (iv.arr_mask != 0) take_arrivals(ch, now);
  append(iv, f);
  count_arrival(iv, now);
}

// The receive step folded into the send: the flit takes its place in the
// buffer of VC vc of input port `port` when it is sent, and is counted there
// (flits, last_write, the peak) only when something reads the VC after its
// arrival (absorb): lazily. The buffer order is the arrival order because
// the link deposits only while its wire is empty (a flit in flight arrives
// first) and one VC's flits come on one link, one per cycle, one delay after
// their send. Each VC records its pending arrivals (InputVc::arr_mask, 32
// cycles from arr_base); channels from 64 on, and a flit outside that
// window, are refused (they travel on the wire). A plain unicast header is
// routed as of its arrival (end_receive) in the evaluation at the end of its
// routing delay (header_due_), where its VC allocation can start; other
// headers are refused (routing them takes packet ids in the order of the
// cycles they arrive in: they come from the wire, in an evaluation of their
// own). The router is also asked for the arrival of a flit that finds no
// other pending (its VC may be waiting for it); a VC that waits for a flit
// with others pending asks for the cycle after the next one's arrival
// itself (wait_flit). Refused for the per-flit oracle (sim.streams off):
// such flits go on the wire.
__attribute__((always_inline)) inline bool VcRouter::deposit(int port, int vc, Flit f, Cycle arrival) {
  const int ch = channel(port, vc);
  if (!ctx_->streams || ch >= 64) return false;
  if (f.index == 0 && !plain_unicast(*f.pkt)) return false;
  InputVc& iv = in_vc(ch);
  const bool first = iv.arr_mask == 0;
  if (first) iv.arr_base = arrival;
  const Cycle off = arrival - iv.arr_base;
  if (off >= 32) return false;
  WORMCAST_INVARIANT(name(), 6, (iv.arr_mask >> off) == 0 && (iv.last_write == UINT64_MAX || arrival > iv.last_write),
                     channel_name(ch) + ": a flit deposited for cycle " + std::to_string(arrival) +
                         " behind a later one");
  iv.arr_mask |= std::uint32_t{1} << off;
  WORMCAST_INVARIANT(name(), 1, iv.flits + popcount32(iv.arr_mask) <= p_.buffer_flits,
                     channel_name(ch) + " holds more flits than router.buffer");
  arriving_ |= std::uint64_t{1} << ch;
  ++ctx_->received_stream_flits;   // a speed figure: flits written before their arrival
  const bool wake = first || f.index == 0 || traced_;
  if (!wake && !iv.empty()) {   // the common case: a body flit behind its packet's
    Segment& b = iv.back();
    if (b.pkt == f.pkt && b.first + b.count == f.index) {
      ++b.count;
      return true;
    }
  }
  deposit_rest(iv, f, arrival, wake);
  return true;
}

// The deposit's less common part, out of line (a call as its last step):
// the flit after another packet's (a new segment: a packet reference) and
// the router's wake-up. Without them the deposit's common case, on every
// flit hop, saves and restores fewer registers.
void VcRouter::deposit_rest(InputVc& iv, Flit f, Cycle arrival, bool wake) {
  append(iv, f);
  if (traced_) {   // every flit counted at its arrival: the VCD's occupancy (end_receive)
    header_due_ = std::min(header_due_, arrival);
    wake_at(arrival);
  }
  if (f.index == 0) deposited_header(iv, arrival);
  else if (wake) wake_at(arrival);
}

// A header deposited in iv (its bit in arr_mask set): marked, and the router
// asked for the end of its routing delay, where it is routed as of its
// arrival (header_due_), and for the tail of a run ahead of it (watch_run).
// A header that is the VC's front (nothing deposited or buffered ahead of
// it) is routed now (pre_out), its lines prefetched a few cycles before its
// allocation reads them.
__attribute__((always_inline)) inline void VcRouter::deposited_header(InputVc& iv, Cycle arrival) {
  iv.hdr_mask |= std::uint32_t{1} << (arrival - iv.arr_base);
  header_due_ = std::min(header_due_, arrival + route_delay_);
  wake_at(arrival + route_delay_);
  watch_run(iv, arrival);
  if (!iv.more) iv.pre_out = static_cast<std::int16_t>(route_plain(iv, channel_of(iv)));
}

// A header deposited behind a run from its VC, arriving by the run's tail:
// the release matters to the cycle after the tail (run_watched), so the
// router is evaluated in that cycle, which settles the release first
// (settle_runs).
void VcRouter::watch_run(const InputVc& iv, Cycle arrival) {
  if (iv.run_len == 0 || iv.state != InState::active) return;
  if (arrival <= run_tail(iv)) wake_at(run_tail(iv) + 1);
}

bool VcRouter::fold_deposit(void* router, int port, int vc, Flit f, Cycle arrival) {
  return static_cast<VcRouter*>(router)->deposit(port, vc, f, arrival);
}

bool VcRouter::fold_local_run(void* router, int ch, PacketPtr& pkt, int first, int n, Cycle arrival) {
  return static_cast<VcRouter*>(router)->deposit_run(ch, pkt, first, n, arrival);
}

const void* VcRouter::fold_locate(void* router, int port, int vc) {
  auto* r = static_cast<VcRouter*>(router);
  return &r->in_vc(r->channel(port, vc));
}

bool VcRouter::fold_deposit_run(void* router, int port, int vc, PacketPtr& pkt, int first, int n, Cycle arrival) {
  auto* r = static_cast<VcRouter*>(router);
  return r->deposit_run(r->channel(port, vc), pkt, first, n, arrival);
}

// A run (VcLink::send_run, or flits ahead on an internal link): flits
// f.index .. f.index + n - 1 arriving at arrival, arrival + 1, ..., deposited
// as n deposits would be, all or none. Not into a traced router (its VCD
// shows each flit's arrival in an evaluated cycle of its own).
bool VcRouter::deposit_run(int ch, PacketPtr& pkt, int first_index, int n, Cycle arrival) {
  if (!ctx_->streams || ch >= 64 || traced_) return false;
  const Flit f{pkt, first_index};
  if (f.index == 0 && !plain_unicast(*f.pkt)) return false;
  InputVc& iv = in_vc(ch);
  const bool first = iv.arr_mask == 0;
  const Cycle base = first ? arrival : iv.arr_base;
  const Cycle off = arrival - base;   // arrivals come in order: a huge value only for a later one out of reach
  if (n < 1 || off + static_cast<Cycle>(n) > 32) return false;
  const std::uint32_t bits = (n == 32 ? ~std::uint32_t{0} : (std::uint32_t{1} << n) - 1) << off;
  if (iv.arr_mask & bits) throw InvariantViolation(std::string(name()) + ": " + channel_name(ch) +
                                                   ": two flits deposited for one arrival cycle");
  WORMCAST_INVARIANT(name(), 6, (iv.arr_mask >> off) == 0 && (iv.last_write == UINT64_MAX || arrival > iv.last_write),
                     channel_name(ch) + ": a run deposited for cycle " + std::to_string(arrival) +
                         " behind a later flit");
  iv.arr_base = base;
  iv.arr_mask |= bits;
  WORMCAST_INVARIANT(name(), 1, iv.flits + popcount32(iv.arr_mask) <= p_.buffer_flits,
                     channel_name(ch) + " holds more flits than router.buffer");
  arriving_ |= std::uint64_t{1} << ch;
  ctx_->received_stream_flits += static_cast<std::uint64_t>(n);
  Segment* b = iv.empty() ? nullptr : &iv.back();
  if (b != nullptr && b->pkt == f.pkt && b->first + b->count == f.index) b->count += n;
  else iv.push(Segment{std::move(pkt), f.index, n});   // the sender's reference, moved: no count to change
  if (f.index == 0) deposited_header(iv, arrival);
  else if (first) wake_at(arrival);
  return true;
}

// Flits on internal link rx that arrive after `now` (an endpoint's stream)
// join input VC ch as deposits, so that a worm-level hop can send them as a
// run (try_run): the same counts at the same cycles as pops at their
// arrivals. As far as they fit the VC's window.
void VcRouter::take_ahead(int ch, Link& rx, Cycle now) {
  if (!ctx_->streams || ch >= 64 || traced_) return;
  while (rx.flits_in_flight() != 0) {
    const Cycle a = rx.next_flit_arrival();
    if (a <= now) return;   // cannot be: the arrived ones were popped
    InputVc& iv = in_vc(ch);
    if (iv.arr_mask != 0 && a - iv.arr_base >= 32) return;
    const Flit& front = rx.front();
    if (front.index == 0 && !plain_unicast(*front.pkt)) return;
    const Flit f = rx.pop();
    PacketPtr pkt = f.pkt;
    if (!deposit_run(ch, pkt, f.index, 1, a)) throw std::logic_error(std::string(name()) + ": a flit taken ahead was refused");
  }
}

// `at`: the cycle the header at the front arrived, if it is among the flits
// just counted (else now: an idle VC with flits counted before is routed by
// route()).
__attribute__((always_inline)) inline void VcRouter::end_receive(int ch, Cycle at) {
  InputVc& iv = in_vc(ch);
  if (iv.state == InState::idle) route_now(iv, ch, at);
  if (traced_) ext(ch).traced_occupancy = iv.flits;
}

// A header at the front of idle input VC c in an evaluated cycle is routed
// in it (route() would route it later in the same evaluation): a plain
// unicast header here, without a visit of unrouted_. Others
// wait for route(), which routes them in the same cycle in channel order:
// IR and replicating worms take new packet ids when routed, in that order.
void VcRouter::route_now(InputVc& iv, int c, Cycle now) {
  // A header routed at its deposit (a plain unicast one: its packet's line
  // is not read again here) takes that result without a call of
  // route_header (whose entry and exit cost as many instructions as the
  // rest).
  if (iv.pre_out >= 0 && iv.head.first == 0) {
    WORMCAST_INVARIANT(name(), 8, iv.pre_out == route_plain(iv, c),
                       channel_name(c) + ": the header routed at its deposit to " + channel_name(iv.pre_out) +
                           " would now be routed elsewhere");
    iv.out = iv.pre_out;
    iv.pre_out = -1;
  } else if (iv.pre_out < 0 && (iv.head.first != 0 || !plain_unicast(*iv.head.pkt))) {
    return add(unrouted_, kUnrouted, c);
  } else {
    route_header(iv, c);   // (a pre-routed header not at flit 0: its InvariantViolation)
  }
  routed(iv, c, now);
}

// Header of input VC c routed in cycle now: it asks for its VC from the end
// of the routing delay on.
void VcRouter::routed(InputVc& iv, int c, Cycle now) {
  // A header is routed in the cycle it is written, or in the cycle after
  // the tail ahead of it left (both evaluated cycles).
  iv.ready = now + route_delay_;
  if (turn_delay_ != 0 && turns(iv, c)) iv.ready += turn_delay_;
  iv.state = InState::waiting_vc;
  add(waiting_, kWaiting, c);
  alloc_due_ = std::min(alloc_due_, iv.ready);
}

// Deposited flits that have arrived by now are counted as received, in
// every VC that has any; a header among them at the front of an idle VC is
// routed (end_receive: the router is evaluated at every header's arrival,
// header_due_, which this recomputes).
__attribute__((always_inline)) inline bool VcRouter::arrive(Cycle now) {
  bool any = false;
  Cycle header = UINT64_MAX, eager = UINT64_MAX;   // eager: a traced router's next arrival
  for (std::uint64_t w = arriving_; w != 0; w &= w - 1) {
    const int ch = __builtin_ctzll(w);
    InputVc& iv = in_vc(ch);
    any |= take_arrivals(ch, now);
    if (iv.arr_mask == 0) {
      arriving_ &= ~(std::uint64_t{1} << ch);
    } else {
      if (iv.hdr_mask != 0) header = std::min(header, iv.arr_base + static_cast<Cycle>(__builtin_ctz(iv.hdr_mask)));
      if (traced_) eager = std::min(eager, first_pending(iv));
    }
  }
  header_due_ = std::min(eager, header == UINT64_MAX ? header : header + route_delay_);
  return any;
}

// Input VC ch's deposited flits that have arrived by now are counted; an
// idle VC's front header among them is routed as of its arrival (the first
// flit counted, when the VC had none counted before; end_receive).
bool VcRouter::take_arrivals(int ch, Cycle now) {
  InputVc& iv = in_vc(ch);
  if (iv.arr_mask == 0 || iv.arr_base > now) return false;
  const Cycle first = iv.flits == 0 ? first_pending(iv) : now;
  if (!absorb_due(iv, now)) return false;
  end_receive(ch, first);
  return true;
}

// iv's deposited flits arriving at or before now (arr_base <= now, some
// pending): their count, the occupancy's maximum as each arrives (the flits
// of a run from this VC still leaving count: run_start, run_len), and the
// last one's cycle.
VcRouter::Due VcRouter::count_due(const InputVc& iv, Cycle now) {
  const Cycle span = now - iv.arr_base + 1;
  const std::uint32_t due = span >= 32 ? iv.arr_mask : iv.arr_mask & ((std::uint32_t{1} << span) - 1);
  Due d;
  d.flits = iv.flits;
  if (due == 0) return d;
  d.last = iv.arr_base + static_cast<Cycle>(31 - __builtin_clz(due));
  const Cycle run_end = iv.run_start + static_cast<Cycle>(iv.run_len);   // the cycle after its last flit left
  if (iv.run_len == 0 || iv.arr_base + static_cast<Cycle>(__builtin_ctz(due)) >= run_end) {
    d.flits += popcount32(due);
    d.peak = d.flits;
    return d;
  }
  for (std::uint32_t w = due; w != 0; w &= w - 1) {
    const Cycle a = iv.arr_base + static_cast<Cycle>(__builtin_ctz(w));
    ++d.flits;
    // The run's flits leave at run_start, run_start + 1, ...: before cycle
    // a, a - run_start of them have (a > run_start: the VC was read then).
    const int left = a < run_end ? static_cast<int>(run_end - a) : 0;
    d.peak = std::max(d.peak, d.flits + left);
  }
  return d;
}

bool VcRouter::absorb_due(InputVc& iv, Cycle now) {
  const Due d = count_due(iv, now);
  const Cycle span = now - iv.arr_base + 1;
  iv.arr_mask = span >= 32 ? 0 : iv.arr_mask >> span;
  iv.hdr_mask = span >= 32 ? 0 : iv.hdr_mask >> span;
  iv.arr_base = now + 1;
  if (d.flits == iv.flits) return false;
  iv.flits = d.flits;
  iv.last_write = d.last;
  peak_ = std::max(peak_, d.peak);
  return true;
}

int VcRouter::peak_occupancy(Cycle now) const {
  int peak = peak_;
  for (const Channel& c : chan_)
    if (c.in.arr_mask != 0 && c.in.arr_base <= now) peak = std::max(peak, count_due(c.in, now).peak);
  return peak;
}

// Input VC iv holds an output but has no readable flit: its next flit is
// readable read_delay_ cycles after it arrives (the one that arrived now,
// else the first deposited one; one from the wire wakes the router itself).
void VcRouter::wait_flit(const InputVc& iv, Cycle now, Cycle& next) const {
  if (iv.flits > 0) next = std::min(next, now + 1);
  else if (iv.arr_mask != 0) next = std::min(next, first_pending(iv) + read_delay_);
}

// Only input ports whose link holds a flit (rx_pending_); in_due_ is the
// arrival of each one's first flit (the link's next_flit_arrival()). A
// physical link delivers at most one flit per cycle, tagged with its VC.
bool VcRouter::receive(Cycle now, Cycle& next) {
  bool any = false;
  rx_pending_.for_each([&](int port) {
    const auto p = static_cast<std::size_t>(port);
    Cycle& due = in_due_[p];
    if (due <= now) {
      if (port < ext_ports_) {
        VcLink* rx = in_link_[p];
        // due is the front flit's arrival (input_activity for a flit on an
        // empty wire, next_flit_arrival after pops), so a flit has arrived.
        do {
          int vc = 0;
          const Flit f = rx->pop(vc);
          const int ch = channel(port, vc);
          accept(ch, f, now);
          end_receive(ch, now);
        } while (rx->has_flit(now));
        due = rx->next_flit_arrival();
      } else {
        Link* rx = local_rx_[p - static_cast<std::size_t>(ext_ports_)];
        const int ch = local_channel(port - ext_ports_);
        while (rx->has_flit(now)) accept(ch, rx->pop(), now);
        take_ahead(ch, *rx, now);
        end_receive(ch, now);
        due = rx->next_flit_arrival();
      }
      any = true;
      if (due == UINT64_MAX) rx_pending_.erase(port);
    }
    next = std::min(next, due);
  });
  return any;
}

int VcRouter::output_for(int in_ch, const topo::DirectHop& hop) const {
  return port_channel(output_port(in_ch, hop), hop);
}

// The output channel of a hop on physical port `port` (output_port).
int VcRouter::port_channel(int port, const topo::DirectHop& hop) const {
  if (hop.arrived) return local_channel(port - ext_ports_);
  // The first VC of the class; allocate_vcs() takes any free one of it (free_vc).
  return channel(port, class_first_[static_cast<int>(hop.vc)]);
}

// The physical output port of a hop: external 2d + dir, else internal.
int VcRouter::output_port(int in_ch, const topo::DirectHop& hop) const {
  if (hop.arrived) {
    // All-port: a worm leaves on the internal channel paired with the
    // external port it came in on (router.ejection per_vc: with its input
    // VC); local traffic and one-port use channel 0.
    const int l = in_ch < external_channels() && local_ports_ > 1 ? in_ch * local_ports_ / external_channels() : 0;
    return ext_ports_ + l;
  }
  return topo::DirectTopology::port_index(hop.dim, hop.dir);
}

// The lowest-numbered free VC among the per_class_ VCs of the class that
// starts at output channel `first` (internal channels: that one), or -1.
int VcRouter::free_vc(int first) const {
  const int n = first < external_channels() ? per_class_ : 1;
  for (int v = first; v < first + n; ++v)
    if (out_vc(v).owner < 0) return v;
  return -1;
}

namespace {
// A multi-destination worm for intermediate reception: a multicast header
// without a switch-based encoding (SSR / multi-drop / tree worms are for
// switch networks) and without a smart-NI relay block.
bool is_ir_worm(const Packet& p) {
  return p.header.kind == HeaderKind::multicast && p.header.worm == WormEncoding::none && !p.header.relay;
}

NodeId target_of(const Packet& p) {
  return p.header.kind == HeaderKind::multicast && !p.header.dests.empty() ? p.header.dests.front() : p.header.dest;
}
}  // namespace

// Routes the header at the front of input VC c: the routing function for
// the address of the first header flit; IR when this node is a destination
// of a multi-destination worm that goes on. A plain unicast header (the
// common case) takes one test of its kind, encoding and tree flag; the
// others go to route_special, which makes the tests in their old order.
void VcRouter::route_header(InputVc& iv, int c) {
  const Segment& s = iv.head;
  if (s.first != 0)
    throw InvariantViolation(std::string(name()) + ": " + channel_name(c) + ": flit " + std::to_string(s.first) +
                             " of packet " + std::to_string(s.pkt->id) + " at the front of an idle VC (no header)");
  if (iv.pre_out >= 0) {   // routed at its deposit (a plain unicast header)
    iv.out = iv.pre_out;
    iv.pre_out = -1;
    return;
  }
  if (!plain_unicast(*s.pkt)) return route_special(iv, c);
  iv.out = static_cast<std::int16_t>(route_plain(iv, c));
}

// The output channel of the plain unicast header at the front of input VC
// c, with the lines its allocation and send read next prefetched. Whether
// the output exists is checked when it is taken (set_owner), on the output
// VC's line that the allocation reads anyway.
__attribute__((always_inline)) inline int VcRouter::route_plain(const InputVc& iv, int c) const {
  const Packet& pk = *iv.head.pkt;
  const NodeId dst = pk.header.dest;
  if (!route_fn_->topology().valid_node(dst)) bad_destination(pk, dst);
  const topo::DirectHop hop = route_fn_->next_hop(here_, dst, iv.vc_class, in_port_of(c));
  WORMCAST_INVARIANT(name(), 7, same_hop(hop, routing_->next_hop(id_, dst, iv.vc_class, in_port_of(c))),
                     "packet " + std::to_string(pk.id) + ": routing at the cached coordinates differs from routing at node " +
                         std::to_string(id_));
  const int port = output_port(c, hop);
  const int out = port_channel(port, hop);
  prefetch_route(out, port);
  return out;
}

void VcRouter::bad_destination(const Packet& pk, NodeId dst) const {
  throw std::invalid_argument(std::string(name()) + ": packet " + std::to_string(pk.id) + " from node " +
                              std::to_string(pk.src) + " has destination " + std::to_string(dst) +
                              ", outside the network (0.." + std::to_string(routing_->topology().num_nodes() - 1) +
                              ")");
}

// Multicast headers, switch-network worms and replicating worms.
void VcRouter::route_special(InputVc& iv, int c) {
  const Packet& pk = *iv.head.pkt;
  const NodeId dst = target_of(pk);
  if (!route_fn_->topology().valid_node(dst)) bad_destination(pk, dst);
  if (pk.header.worm != WormEncoding::none)
    throw std::invalid_argument(std::string(name()) + ": packet " + std::to_string(pk.id) + " from node " +
                                std::to_string(pk.src) + " is a switch-based multicast worm, which a direct-network "
                                "router cannot decode (it carries unicast packets and IR worms)");
  if (pk.header.direct_tree) return start_tree(iv, c);
  if (is_ir_worm(pk) && dst == id_ && pk.header.dests.size() > 1) return start_ir(iv, c);
  iv.out = output_for(c, route_fn_->next_hop(here_, dst, iv.vc_class, in_port_of(c)));
}

// Intermediate reception: the local copy and the forwarded worm
// (ir_split.h); the worm is routed afresh towards its next address.
void VcRouter::start_ir(InputVc& iv, int c) {
  const PacketPtr& old = iv.head.pkt;
  IrSplit split = split_ir_worm(*old, id_, *ctx_, name());
  iv.strip = split.strip;
  iv.fwd = std::move(split.fwd);
  iv.copy = std::move(split.copy);
  iv.out = output_for(c, routing_->next_hop(id_, iv.fwd->header.dests.front(), class_of(c)));
  topo::DirectHop here;
  here.arrived = true;
  iv.local_out = output_for(c, here);
  if (!out_connected(iv.out) || !out_connected(iv.local_out))
    throw std::logic_error(std::string(name()) + ": IR of packet " + std::to_string(old->id) +
                           " needs an unconnected channel");
}

// Message replication: one branch per output channel that some remaining
// destination routes to; the local node's branch is a unicast copy.
void VcRouter::start_tree(InputVc& iv, int c) {
  const PacketPtr& old = iv.head.pkt;
  if (!p_.replication)
    throw std::invalid_argument(std::string(name()) + ": packet " + std::to_string(old->id) + " from node " +
                                std::to_string(old->src) + " is a replicating (tree-shaped) worm, but "
                                "router.replication is off (it is not deadlock-free; enable it only for comparisons)");
  if (old->header_flits != 1 || old->header.dests.empty())
    throw std::invalid_argument(std::string(name()) + ": replicating worm " + std::to_string(old->id) +
                                " needs 1 header flit and a destination");
  for (NodeId d : old->header.dests) {
    if (!routing_->topology().valid_node(d))
      throw std::invalid_argument(std::string(name()) + ": replicating worm " + std::to_string(old->id) +
                                  " has destination " + std::to_string(d) + ", outside the network");
    const int ch = output_for(c, routing_->next_hop(id_, d, class_of(c), in_port_of(c)));
    auto b = std::find_if(iv.branches.begin(), iv.branches.end(), [ch](const auto& e) { return e.first == ch; });
    if (b == iv.branches.end()) {
      auto pk = std::make_shared<Packet>(*old);
      pk->id = ctx_->new_packet_id();
      pk->header.dests.clear();
      if (d == id_) {
        pk->header.kind = HeaderKind::unicast;
        pk->header.direct_tree = false;
        pk->header.dest = id_;
      }
      iv.branches.emplace_back(ch, std::move(pk));
      b = iv.branches.end() - 1;
    }
    if (d != id_) b->second->header.dests.push_back(d);
    if (!out_connected(ch))
      throw std::logic_error(std::string(name()) + ": replicating worm " + std::to_string(old->id) + " routed to " +
                             channel_name(ch) + ", which is not connected");
  }
  iv.out = iv.branches.front().first;
  iv.tree = true;
}

// Does input VC c's routed header change dimension: in on an external
// channel, out on an external channel of another dimension (external port
// 2d + dir)? A replicating worm turns if any of its branches does. Injection
// and ejection are no turns.
bool VcRouter::turns(const InputVc& iv, int c) const {
  const int in = in_port_of(c);
  if (in < 0) return false;
  const auto other_dimension = [&](int oc) {
    const int out = port_of(oc);
    return out < ext_ports_ && out / 2 != in / 2;
  };
  if (other_dimension(iv.out)) return true;
  if (iv.tree)
    for (const auto& br : iv.branches)
      if (other_dimension(br.first)) return true;
  return false;
}

// A routed header goes straight to the VC-waiting set, ready route_delay
// cycles later; the allocation visits the set only from alloc_due_ on, so
// the routing cycle costs no visit there and a header is not visited again
// here when its delay is over.
bool VcRouter::route(Cycle now) {
  bool any = false;
  visit_from(unrouted_, 0, [&](int c) {   // ascending, as for_each
    InputVc& iv = in_vc(c);
    if (iv.state != InState::idle) return unrouted_.erase(c);   // routed at its arrival (route_now)
    absorb(iv, now);
    if (iv.flits == 0) return;   // the buffer may hold deposited flits only
    route_header(iv, c);
    unrouted_.erase(c);
    routed(iv, c, now);
    any = true;
  });
  return any;
}

// Also the check that output channel oc exists (a routing function that
// sends a worm to a missing channel is a bug), here rather than in routing:
// the output VC holds its link end, in a line the allocation reads anyway,
// and the link's VC mask is read by the send that follows.
void VcRouter::set_owner(int oc, int in_ch) {
  OutputVc& o = out_vc(oc);
  if (o.local ? o.tx_local == nullptr : o.tx_link == nullptr) not_connected(oc, in_ch);
  if (!o.local) {
    // The lines the packet's send reads next, all asked for before the
    // first of them is read (the check below): the link's two, the next
    // router's input VC; then the lines that router's deposit reads (its
    // head, hot block and link hints: known once the link's first line is
    // here).
    o.tx_link->prefetch_send(o.tx_vc);
    if (o.rx_hint != nullptr) prefetch_two_lines(o.rx_hint);
    if (!o.tx_link->uses_vc(o.tx_vc)) not_connected(oc, in_ch);
    if (o.tx_link->fold_fns() == &kFoldFns)   // the receiver is a VcRouter (attach_folds)
      static_cast<const VcRouter*>(o.tx_link->fold_receiver())->prefetch_for_deposit();
  }
  WORMCAST_INVARIANT(name(), 4, o.owner < 0 || o.owner == in_ch,
                     channel_name(oc) + " given to " + channel_name(in_ch) + " while " +
                         (o.owner < 0 ? std::string("free") : channel_name(o.owner)) + " holds it");
  WORMCAST_INVARIANT(name(), 5, (o.owner >= 0) == ((chan(o.first).port.owned >> (oc - o.first) & 1u) != 0),
                     channel_name(oc) + ": its port's held mask disagrees with its owner");
  if (o.owner < 0) {
    OutputPort& op = chan(o.first).port;
    if (op.owned == 0) add(owned_ports_, kOwned, o.port);
    op.owned = static_cast<std::uint16_t>(op.owned | 1u << (oc - o.first));
  }
  o.owner = static_cast<std::int16_t>(in_ch);
}

void VcRouter::not_connected(int oc, int in_ch) const {
  const InputVc& iv = in_vc(in_ch);
  throw std::logic_error(std::string(name()) + ": packet " + std::to_string(iv.head.pkt->id) + " routed to " +
                         channel_name(oc) + ", which is not connected");
}

void VcRouter::release(int oc) {
  OutputVc& o = out_vc(oc);
  WORMCAST_INVARIANT(name(), 5, (o.owner >= 0) == ((chan(o.first).port.owned >> (oc - o.first) & 1u) != 0),
                     channel_name(oc) + ": its port's held mask disagrees with its owner");
  if (o.owner >= 0) {
    OutputPort& op = chan(o.first).port;
    op.owned = static_cast<std::uint16_t>(op.owned & ~(1u << (oc - o.first)));
    if (op.owned == 0) owned_ports_.erase(o.port);
  }
  o.owner = -1;
}

// Requests are served round-robin from input channel now % n: a priority
// that rotates with the cycle, not with the router's evaluations, so the
// result does not depend on which cycles the router happens to be evaluated
// in (an evaluation with nothing to do is harmless).
// Headers still in their routing delay are skipped; alloc_due_ becomes the
// first cycle in which a visit can serve one: the earliest end of a delay,
// or 0 while a header is blocked (tried in every evaluated cycle, as a VC
// is freed only by a send, in an evaluated cycle). The router is evaluated
// at the end of every delay (`next`), blocked headers or not: there the
// header takes part in the allocation.
bool VcRouter::allocate_vcs(Cycle now, Cycle& next) {
  bool any = false;
  Cycle due = UINT64_MAX;
  const int n = num_channels();
  visit_from(waiting_, static_cast<int>(now % static_cast<Cycle>(n)), [&](int c) {
    InputVc& iv = in_vc(c);
    if (iv.ready > now) {
      due = std::min(due, iv.ready);
      next = std::min(next, iv.ready);
      return;
    }
    if (!take_vcs(iv, c)) {   // blocked in place: keeps what it holds
      due = 0;
      return;
    }
    iv.state = InState::active;
    waiting_.erase(c);
    any = true;
  });
  alloc_due_ = due;
  return any;
}

// The output VC(s) for input VC c's routed header, all or none. Inlined
// into the allocation with its common case, one output VC (a call's entry
// and exit would be a third of its instructions).
__attribute__((always_inline)) inline bool VcRouter::take_vcs(InputVc& iv, int c) {
  const int vc = free_vc(iv.out);   // iv.out: the first VC of the class the routing chose
  if (vc < 0) return false;
  if (iv.tree || iv.local_out >= 0) return take_more_vcs(iv, c, vc);
  set_owner(iv.out = vc, c);
  return true;
}

// take_vcs for a replicating worm (a VC per branch) or an IR worm (the
// local copy's channel too): all at once, or none.
bool VcRouter::take_more_vcs(InputVc& iv, int c, int vc) {
  if (iv.tree) {    // replication: a VC of every branch's class at once, or none
    for (const auto& b : iv.branches)
      if (free_vc(b.first) < 0) return false;
    for (auto& b : iv.branches) set_owner(b.first = free_vc(b.first), c);
  }
  if (iv.local_out >= 0) {       // IR: the local copy's channel too, both at once
    if (out_vc(iv.local_out).owner >= 0) return false;
    set_owner(iv.local_out, c);
  }
  set_owner(iv.out = vc, c);
  return true;
}

__attribute__((always_inline)) inline bool VcRouter::traverse(Cycle now, Cycle& next) {
  bool any = false;
  if (traced_)
    for (int p = 0; p < ext_ports_ + local_ports_; ++p) {
      ChannelExtension& op = ext(first_channel(p));
      op.valid = op.head = op.tail = false;
    }
  // Only outputs on which a worm holds a VC, ascending (external, then
  // internal). A port released by a send earlier in the visit may still be
  // visited: nothing can send there, so send_one does nothing.
  owned_ports_.for_each([&](int port) {
    const bool local = port >= ext_ports_;
    if (!local && any_shared_ && shared_[static_cast<std::size_t>(port)])
      any |= offer_shared(port, now, next);
    else   // one call site: send_one and send_flit inlined here (no calls per hop)
      any |= send_one(local ? local_channel(port - ext_ports_) : channel(port, 0), local ? 1 : vcs_, now, next);
  });
  return any;
}

// Can output channel oc send its owner's front flit now? A VC held, a
// readable flit, a downstream credit; an IR worm's body flit also needs its
// local channel in the same cycle.
__attribute__((always_inline)) inline bool VcRouter::can_send(int oc, Cycle now, Cycle& next) {
  OutputVc& ov = out_vc(oc);
  if (ov.owner < 0) return false;
  InputVc& iv = in_vc(ov.owner);
  if (iv.arr_mask != 0) absorb(iv, now);
  // The last flit written is readable from last_write + read_delay_ (an
  // unwritten VC's UINT64_MAX wraps to 0 and holds no flit).
  const int readable = iv.flits - static_cast<int>(iv.last_write + read_delay_ > now);
  if (readable <= 0) {
    wait_flit(iv, now, next);
    return false;
  }
  if (iv.last_sent == now) return false;
  if (iv.tree) return oc == iv.out && tree_can_send(iv, now, next);
  if (iv.local_out >= 0) {
    const int i = iv.head.first, h = iv.head.pkt->header_flits;
    const bool to_local = i < iv.strip || i >= h, to_fwd = i >= iv.strip;
    if (oc == iv.local_out ? (!to_local || to_fwd) : !to_fwd) return false;   // body flits leave from the forward port
    if (to_local && to_fwd) {
      if (credits(iv.local_out, now) <= 0) {
        next = std::min(next, next_credit_arrival(iv.local_out));
        return false;
      }
    }
  }
  if (credits(oc, now) <= 0) {
    next = std::min(next, next_credit_arrival(oc));
    return false;
  }
  return true;
}

// A replicating worm's flit leaves on every branch in the same cycle: each
// branch's physical output must be free this cycle and have a credit.
bool VcRouter::tree_can_send(const InputVc& iv, Cycle now, Cycle& next) {
  for (const auto& b : iv.branches) {
    if (port_of_channel(b.first).used == now) return false;
    if (credits(b.first, now) <= 0) {
      next = std::min(next, next_credit_arrival(b.first));
      return false;
    }
  }
  return true;
}

// One flit on the physical output of channels first_ch .. first_ch+nch-1
// (an output port's state lives with its first channel): round-robin among
// the VCs that can send. With router.link_hold: packet, a VC that has sent
// a flit here and still holds its output VC (its tail has not left) is the
// only one tried: it keeps the link from its packet's first flit to its
// tail. The others wait; the send of the tail asks for the next cycle's
// evaluation (evaluate_cycle: a send makes the router active), where they
// are tried again.
__attribute__((always_inline)) inline bool VcRouter::send_one(int first_ch, int nch, Cycle now, Cycle& next) {
  OutputPort& op = chan(first_ch).port;
  if (op.used == now) return false;   // a replicating worm took it this cycle
  if (op.hold >= 0) return send_held(op, first_ch, nch, now, next);
  for (int k = 0, v = op.rr; k < nch; ++k, v = v + 1 == nch ? 0 : v + 1) {
    const int oc = first_ch + v;
    if ((op.owned >> v & 1u) == 0) continue;   // (can_send's first test, from the port's line)
    if (!can_send(oc, now, next)) continue;
    return send_on(op, v, nch, oc, now, next);
  }
  return false;
}

// VC v (output channel oc) of output port op sends its front flit: the
// round-robin pointer moves past it, the port is used this cycle, and with
// router.link_hold: packet the port stays v's until its packet's tail has
// left (the send released the output VC). There, a packet whose flits all
// leave one per cycle from now on leaves as a run (try_run): the router
// then need not be evaluated before its tail's cycle (run_step); returns
// whether the router is active (a flit sent).
__attribute__((always_inline)) inline bool VcRouter::send_on(OutputPort& op, int v, int nch, int oc, Cycle now,
                                                             Cycle& next) {
  WORMCAST_INVARIANT(name(), 3, op.used == UINT64_MAX || op.used < now,
                     channel_name(oc) + ": a second flit on its physical output in cycle " + std::to_string(now));
  WORMCAST_INVARIANT(name(), 9, !op.hold_packets || op.hold < 0 || op.hold == v,
                     channel_name(oc) + " sends on an output held by another VC's packet");
  op.rr = v + 1 == nch ? 0 : v + 1;
  op.used = now;
  if (op.hold_packets && try_run(oc, now)) {
    op.hold = static_cast<std::int8_t>(v);
    op.run = true;
    const InputVc& iv = in_vc(out_vc(oc).owner);
    const Cycle tail = run_tail(iv);
    const int port = out_vc(oc).port;
    run_ports_ = static_cast<std::uint8_t>(run_ports_ | 1u << port);
    run_due_ = std::min(run_due_, tail);
    run_tails_[static_cast<std::size_t>(port)] = static_cast<std::uint8_t>(tail);   // run_tail_at
    if (run_watched(op, iv, tail)) next = std::min(next, tail + 1);
    return false;
  }
  send_flit(oc, now);
  if (op.hold_packets) op.hold = out_vc(oc).owner >= 0 ? static_cast<std::int8_t>(v) : std::int8_t{-1};
  return true;
}

// send_one on an output held by the packet of VC op.hold (router.link_hold:
// packet): that VC's next flit or nothing.
bool VcRouter::send_held(OutputPort& op, int first_ch, int nch, Cycle now, Cycle& next) {
  const int v = op.hold, oc = first_ch + v;
  if (op.run) return run_step(op, oc, now, next);
  if (!can_send(oc, now, next)) return false;   // waits for a flit or a credit; `next` has the credit's cycle
  return send_on(op, v, nch, oc, now, next);
}

// The worm-level hop (docs/performance.md, "The worm-level hop"): with the
// output held per packet, once a packet's header leaves, nothing can change
// when its other flits leave if each is in the VC (arrived or deposited) in
// time to leave one per cycle and the downstream VC has a credit for each:
// flit j leaves at now + j. Then the whole packet goes in one step: the
// link takes it as a run (VcLink::send_run, the next router's deposit_run),
// the credits go upstream as a ramp, the counters take all its flits, and
// the output and VCs are released at the tail's cycle (run_step). On the
// ejection channel the flits go on its rtl::Link as their sends would put
// them there (Link::send_run). Only for a plain unicast packet, not traced,
// with counts settled before the run loop's next stop (stream_room).
// Returns false, having changed nothing, when it does not apply.
bool VcRouter::try_run(int oc, Cycle now) {
  if (traced_) return false;
  OutputVc& ov = out_vc(oc);
  if (ov.port >= kRunPorts) return false;   // run_ports_, run_tails_
  InputVc& iv = in_vc(ov.owner);
  if (iv.head.first != 0 || iv.tree || iv.local_out >= 0 || !plain_unicast(*iv.head.pkt)) return false;
  const int n = iv.head.pkt->length;
  if (n < 2 || n > 32 || iv.head.count != n) return false;
  const Cycle latency = ov.local ? ov.tx_local->params().latency : ov.tx_link->latency();
  if (ctx_->stream_room(now) < n + static_cast<int>(crossbar_ + latency)) return false;
  // Flit j must have arrived by now + j - read_delay_: the arrived ones have
  // (flit 0 is readable: can_send); the others are the first deposited ones.
  const int arrived = std::min(iv.flits, n);
  // The common case: they arrive one per cycle from bit b (a run, or flits
  // sent one per cycle), so flit j arrives at arr_base + b + j - arrived.
  const int pending = n - arrived;
  const int b = pending == 0 ? 0 : __builtin_ctz(iv.arr_mask);
  const std::uint32_t ones = (std::uint32_t{1} << pending) - 1;   // pending < 32
  const bool consecutive = ((iv.arr_mask >> b) & ones) == ones;
  if (consecutive) {
    if (pending != 0 && iv.arr_base + static_cast<Cycle>(b) + read_delay_ > now + static_cast<Cycle>(arrived))
      return false;
  } else {
    std::uint32_t m = iv.arr_mask;
    for (int j = arrived; j < n; ++j, m &= m - 1)
      if (iv.arr_base + static_cast<Cycle>(__builtin_ctz(m)) + read_delay_ > now + static_cast<Cycle>(j)) return false;
  }
  if (iv.rx_link ? !iv.rx_link->can_return_ramp(iv.rx_vc, now, now) : !iv.rx_local->credit_ramp_ok()) return false;
  // The VC's reference goes with the run (to the next VC's segment or the
  // link's tail owners): moved, not copied and dropped. The link's send_run
  // checks the n credits (and refuses the run without them).
  PacketPtr pkt = std::move(iv.head.pkt);
  if (ov.local ? !ov.tx_local->send_run(pkt, 0, n, now, crossbar_)
               : !ov.tx_link->send_run(ov.tx_vc, pkt, 0, n, now, crossbar_)) {
    iv.head.pkt = std::move(pkt);
    return false;
  }
  // The deposited flits of the packet leave the VC; each one's arrival is
  // the occupancy's peak for it: j + 1 flits in, now .. a - 1 gone.
  if (consecutive) {   // the same for each: j + 1 - (arr_base + b + j - arrived - now)
    if (pending != 0)
      peak_ = std::max(peak_, arrived + 1 - static_cast<int>(iv.arr_base + static_cast<Cycle>(b) - now));
    iv.arr_mask &= ~(ones << b);
  } else {
    std::uint32_t m = iv.arr_mask;
    for (int j = arrived; j < n; ++j, m &= m - 1) {
      const Cycle a = iv.arr_base + static_cast<Cycle>(__builtin_ctz(m));
      peak_ = std::max(peak_, j + 1 - static_cast<int>(a - now));
    }
    iv.arr_mask = m;
  }
  iv.hdr_mask &= iv.arr_mask;   // (the packet's own deposited flits are body flits)
  iv.flits -= arrived;
  iv.last_sent = now + static_cast<Cycle>(n) - 1;
  iv.run_start = now;
  iv.run_len = n;
  iv.head.count = 0;
  iv.pop_front();
  if (iv.rx_link) iv.rx_link->return_credit_ramp(iv.rx_vc, n, now);
  else iv.rx_local->return_credit_ramp(n, now);
  ctx_->flits.moves += static_cast<std::uint64_t>(n);
  ctx_->flits.hops += static_cast<std::uint64_t>(n);
  ctx_->streamed_flits += static_cast<std::uint64_t>(n);
  ++ctx_->worm_hops;
  ov.sent += static_cast<std::uint64_t>(n);
  return true;
}

// A held output whose packet left as a run: nothing until the tail's cycle.
// If its release matters to the cycle after it (run_watched), the router is
// evaluated in that cycle, which releases the run as of the tail's cycle
// before anything reads it (settle_runs): the cycle after a tail is when a
// release's effects show (a header routed, a VC or the link taken), so the
// tail's own cycle needs no evaluation of its own; else the release happens
// at the start of a later evaluation. At the tail's cycle,
// what the tail's send does (send_flit, send_on): the output VC and the port
// released, the input VC idle, the next packet's header to route.
bool VcRouter::run_step(OutputPort& op, int oc, Cycle now, Cycle& next) {
  InputVc& iv = in_vc(out_vc(oc).owner);
  const Cycle tail = run_tail(iv);
  if (now < tail) {
    if (run_watched(op, iv, tail)) next = std::min(next, tail + 1);
    return false;
  }
  return release_run(op, oc, tail, now);
}

// Would the flit-by-flit router do anything in the cycle after the tail of
// the run on op (from input VC iv) because of its release? Route the next
// packet's header if it has arrived by then, give the VC to a blocked
// header (any: a cheap over-estimate), or the link to another VC of the
// port. What makes this true later either happens in an evaluation of this
// router, which asks again, or is a header's deposit (deposit_rest,
// deposit_run: it then asks for the cycle after the tail itself).
bool VcRouter::run_watched(const OutputPort& op, const InputVc& iv, Cycle tail) {
  return busy(waiting_, kWaiting) || op.shared() || iv.flits > 0 ||
         (iv.arr_mask != 0 && first_pending(iv) <= tail);
}

// The release of the run on op (output channel oc) at its tail's cycle,
// done in cycle now >= tail. Returns whether the cycle after the tail
// matters (as after a tail's send: the router active), which it may only
// when now is the tail's cycle or the one after (run_watched asked for the
// one after).
bool VcRouter::release_run(OutputPort& op, int oc, Cycle tail, Cycle now) {
  const int in_ch = out_vc(oc).owner;
  InputVc& iv = in_vc(in_ch);
  release(oc);
  op.hold = -1;
  op.run = false;
  op.used = tail;
  run_ports_ = static_cast<std::uint8_t>(run_ports_ & ~(1u << out_vc(oc).port));
  iv.state = InState::idle;
  iv.out = -1;
  absorb(iv, tail);
  if (iv.flits > 0) add(unrouted_, kUnrouted, in_ch);   // the next packet's header
  // The next cycle matters (as after a tail's send) only to route that
  // header, to a blocked header (the VC released) or to the port's other
  // VCs (the link released); all else asks for its own cycles.
  const bool after = iv.flits > 0 || op.owned != 0;
  if (after && now > tail + 1) late_release(oc, iv, tail, now);
  return after || busy(waiting_, kWaiting);
}

void VcRouter::late_release(int oc, const InputVc& iv, Cycle tail, Cycle now) const {
  throw InvariantViolation(std::string(name()) + ": " + channel_name(oc) + ": the run of " + std::to_string(iv.run_len) +
                           " flits ending at cycle " + std::to_string(tail) + " was released only at cycle " +
                           std::to_string(now) + " with " +
                           (iv.flits > 0 ? "a packet behind it" : "another VC waiting for the link"));
}

// At the start of an evaluation: the runs whose tail's cycle has passed
// without one are released as of that cycle (nothing was watching them, or
// this is the cycle after the tail, which run_watched asked for).
void VcRouter::settle_runs(Cycle now) {
  Cycle due = UINT64_MAX;
  for (unsigned w = run_ports_; w != 0; w &= w - 1) {
    const int port = __builtin_ctz(w);
    const Cycle tail = run_tail_at(port);   // from run_due_, which this loop leaves as it is
    if (tail > run_due_ + 31) bad_run_tail(port, tail);
    if (tail >= now) {
      due = std::min(due, tail);
      continue;
    }
    OutputPort& op = out_port(port);
    release_run(op, first_channel(port) + op.hold, tail, now);
  }
  run_due_ = due;
}

void VcRouter::bad_run_tail(int port, Cycle tail) const {
  throw InvariantViolation(std::string(name()) + ": " + port_name(port) + ": a run's tail rebuilt as cycle " +
                           std::to_string(tail) + ", more than 31 cycles after the earliest one (" +
                           std::to_string(run_due_) + ")");
}

// "3-way": post the VCs of `port` that could send; the shared link's arbiter
// grants one of them (or one of the neighbour's) later in this cycle.
bool VcRouter::offer_shared(int port, Cycle now, Cycle& next) {
  std::uint32_t mask = 0;
  for (int v = 0; v < vcs_; ++v)
    if (can_send(channel(port, v), now, next)) mask |= 1u << v;
  if (mask == 0) return false;
  shared_[static_cast<std::size_t>(port)]->request(shared_side_[static_cast<std::size_t>(port)], mask, now);
  return true;   // granted or not, look again next cycle
}

void VcRouter::shared_link_grant(int port, int vc, Cycle now) {
  const int oc = channel(port, vc);
  Cycle ignored = UINT64_MAX;
  if (!can_send(oc, now, ignored)) return;   // cannot happen: nothing ran since the request
  send_flit(oc, now);
  wake_at(now + 1);
}

void VcRouter::share_port(int port, SharedLink* link, int side) {
  if (port < 0 || port >= ext_ports_) throw std::logic_error(std::string(name()) + ": share_port: no port " + std::to_string(port));
  if (shared_.empty()) {
    shared_.assign(static_cast<std::size_t>(ext_ports_), nullptr);
    shared_side_.assign(static_cast<std::size_t>(ext_ports_), 0);
  }
  shared_[static_cast<std::size_t>(port)] = link;
  any_shared_ = true;
  shared_side_[static_cast<std::size_t>(port)] = side;
  link->attach(side, this, port);
}

// Flit g leaves on output channel ch.
__attribute__((always_inline)) inline void VcRouter::emit(int ch, Flit g, Cycle now) {
  OutputVc& o = out_vc(ch);
  const bool last = g.tail();
  if (traced_) {   // a traced or probed router
    ChannelExtension& op = ext(port_first_channel(ch));
    op.valid = true;
    op.head = g.head();
    op.tail = last;
    op.vc = ch < external_channels() ? ch % vcs_ : 0;
    op.packet = static_cast<int>(g.pkt->id);
    op.header_flits = g.pkt->header_flits;
    if (probe_ != nullptr) probe_->flit_sent(ch, g, now);
  }
  put(ch, g, now);
  ++ctx_->flits.moves;
  ++ctx_->flits.hops;
  ++o.sent;
  if (last) release(ch);
}

// emit() for the copies of replicating and IR worms: a call, so that the
// link's inlined send is in the plain path once (emit_copies).
void VcRouter::emit_copy(int ch, Flit g, Cycle now) { emit(ch, g, now); }

// Flit f of a replicating worm on every branch, or of an IR worm to the
// local copy and/or the forwarded worm, renumbered.
void VcRouter::emit_copies(InputVc& iv, Flit f, Cycle now) {
  if (iv.tree) {
    for (const auto& b : iv.branches) {
      port_of_channel(b.first).used = now;
      emit_copy(b.first, Flit{b.second, f.index}, now);
    }
    ctx_->flits.extra_copies += static_cast<std::int64_t>(iv.branches.size()) - 1;
    return;
  }
  const int i = f.index, h = f.pkt->header_flits, strip = iv.strip;
  const bool to_local = i < strip || i >= h, to_fwd = i >= strip;
  if (to_local) emit_copy(iv.local_out, Flit{iv.copy, i < strip ? i : i - h + strip}, now);
  if (to_fwd) emit_copy(iv.out, Flit{iv.fwd, i - strip}, now);
  if (to_local && to_fwd) ++ctx_->flits.extra_copies;   // a body flit now travels twice
}

// Moves the front flit of iv: to output oc, or for IR to the local copy
// and/or the forwarded worm, renumbered.
__attribute__((always_inline)) inline void VcRouter::send_flit(int oc, Cycle now) {
  const int in_ch = out_vc(oc).owner;
  InputVc& iv = in_vc(in_ch);
  WORMCAST_INVARIANT(name(), 2, iv.last_sent == UINT64_MAX || iv.last_sent < now,
                     channel_name(in_ch) + ": a second flit leaves in cycle " + std::to_string(now));
  Segment& s = iv.head;
  Flit f{s.pkt, s.first};
  PacketPtr keep;   // a flit does not own its packet (packet.h): hold it until it is on the link
  if (--s.count == 0) keep = std::move(s.pkt), iv.pop_front();
  else ++s.first;
  --iv.flits;
  iv.last_sent = now;
  const bool tail = f.tail();
  if (iv.tree || iv.local_out >= 0) emit_copies(iv, f, now);
  else emit(oc, f, now);
  if (traced_) ext(in_ch).traced_occupancy = iv.flits;
  return_credit(iv, now);
  if (tail) {
    // The cold line is touched only when an IR or replicating worm used it
    // (otherwise it holds these values already).
    if (iv.local_out >= 0 || iv.tree) {
      iv.strip = 1;
      iv.branches.clear();
      iv.fwd.reset();
      iv.copy.reset();
    }
    iv.state = InState::idle;
    iv.out = iv.local_out = -1;
    iv.tree = false;
  }
  if (tail && iv.flits > 0) add(unrouted_, kUnrouted, in_ch);   // the next packet's header
}

std::uint64_t VcRouter::buffered_flits() const {
  std::uint64_t n = 0;
  // Arrived flits, and deposited ones too: they are no longer on the wire
  // (VcLink::flits_in_flight).
  for (const Channel& ch : chan_)
    n += static_cast<std::uint64_t>(ch.in.flits) + static_cast<std::uint64_t>(__builtin_popcount(ch.in.arr_mask));
  return n;
}

std::vector<std::string> VcRouter::describe_blocked(Cycle now) const {
  std::vector<std::string> lines;
  const auto& t = routing_->topology();
  for (std::size_t c = 0; c < chan_.size(); ++c) {
    const InputVc& iv = chan_[c].in;
    const int arrived = arrived_by(iv, now);
    if (arrived == 0 && iv.state == InState::idle) continue;
    std::string s = std::string(name()) + " " + t.name(id_) + " in " + channel_name(static_cast<int>(c)) + " (class " +
                    topo::to_string(class_of(static_cast<int>(c))) + "): " + std::to_string(arrived) + "/" +
                    std::to_string(p_.buffer_flits) + " flits;";
    int left = arrived;   // the arrived flits only; deposited ones are still on the wire
    iv.for_each_segment([&](const Segment& seg) {
      if (left == 0) return;
      const int count = std::min(seg.count, left);
      left -= count;
      s += " [packet " + std::to_string(seg.pkt->id) + " " + t.name(seg.pkt->src) + "->" +
           (t.valid_node(target_of(*seg.pkt)) ? t.name(target_of(*seg.pkt)) : "?") +
           (is_ir_worm(*seg.pkt) ? " (IR worm, " +
                std::to_string(seg.pkt->header.dests.size()) + " addresses left)" : std::string()) + " flits " + std::to_string(seg.first) + ".." +
           std::to_string(seg.first + count - 1) + "]";
    });
    if (iv.out >= 0) {
      const OutputVc& ov = out_vc(iv.out);
      s += " -> " + channel_name(iv.out);
      const int local_owner = iv.local_out < 0 ? -1 : out_vc(iv.local_out).owner;
      if (iv.state == InState::waiting_vc && iv.ready > now) s += " routing";
      else if (ov.owner < 0 && local_owner >= 0 && local_owner != static_cast<int>(c))
        s += " waiting for the ejection channel " + channel_name(iv.local_out) + " of its local copy (held by " +
             channel_name(local_owner) + ")";
      else if (ov.owner != static_cast<int>(c))
        s += " waiting for the VC (held by " + channel_name(ov.owner) + ")";
      else if (credits(iv.out, now) <= 0)
        s += " holds the VC, waiting for downstream credits";
      else if (held_by_other(iv.out))
        s += " holds the VC, waiting for the link (router.link_hold: packet; " +
             channel_name(link_holder(iv.out)) + "'s packet has it)";
      else
        s += " holds the VC";
    }
    lines.push_back(std::move(s));
  }
  return lines;
}

void VcRouter::trace(sc_core::sc_trace_file* tf) {
  traced_ = true;
  // A trace samples at every kernel time step: every cycle in one of its own.
  if (sched_ != nullptr) sched_->every_cycle(std::string("VCD trace of ") + name());
  const std::string base = name();
  for (std::size_t c = 0; c < chan_.size(); ++c)
    if (in_connected(static_cast<int>(c)))
      sc_core::sc_trace(tf, ext_[c].traced_occupancy, base + ".in_" + channel_name(static_cast<int>(c)) + ".occupancy");
  for (int p = 0; p < ext_ports_ + local_ports_; ++p) {
    if (!port_connected(p)) continue;
    const std::string pn = port_name(p);
    ChannelExtension& op = ext(first_channel(p));
    sc_core::sc_trace(tf, op.valid, base + ".out_" + pn + ".valid");
    sc_core::sc_trace(tf, op.head, base + ".out_" + pn + ".head");
    sc_core::sc_trace(tf, op.tail, base + ".out_" + pn + ".tail");
    sc_core::sc_trace(tf, op.vc, base + ".out_" + pn + ".vc");
    sc_core::sc_trace(tf, op.packet, base + ".out_" + pn + ".packet");
    sc_core::sc_trace(tf, op.header_flits, base + ".out_" + pn + ".header_flits");
  }
}

void VcRouter::attach_probe(RouterProbe* probe) {
  probe_ = probe;
  // The per-flit path reports each send (emit); a traced router takes it.
  if (probe != nullptr) traced_ = true;
}

}  // namespace wormcast::rtl
