#include "rtl_models/direct/reference_router.h"

#include <algorithm>
#include <stdexcept>

#include "rtl_models/core/bound_link.h"
#include "rtl_models/direct/ir_split.h"

namespace wormcast::rtl {

namespace {
// A multi-destination worm for intermediate reception: a multicast header
// without a switch-network encoding and without a smart-NI relay block.
bool is_ir_worm(const Packet& p) {
  return p.header.kind == HeaderKind::multicast && p.header.worm == WormEncoding::none && !p.header.relay;
}

// The address a header is routed on: the first of a multicast worm's list.
NodeId target_of(const Packet& p) {
  return p.header.kind == HeaderKind::multicast && !p.header.dests.empty() ? p.header.dests.front() : p.header.dest;
}
}  // namespace

ReferenceRouter::ReferenceRouter(sc_core::sc_module_name name, NodeId id,
                                 std::shared_ptr<const topo::DirectRouting> routing, int vcs, int local_ports,
                                 const VcRouterParams& p, SimContext& ctx, const RouterPolicies& policies)
    : sc_core::sc_module(name), id_(id), routing_(std::move(routing)), p_(p), ctx_(ctx), vcs_(vcs),
      ext_ports_(routing_->topology().num_ports()), local_ports_(local_ports), sched_(ctx.scheduler),
      wake_(ctx.clock) {
  per_class_ = vcs_ < 1 ? 0 : routing_->vcs_per_class(vcs_);
  if (per_class_ == 0)
    throw std::invalid_argument(std::string(this->name()) + ": " + std::to_string(vcs_) + " VCs, but routing " +
                                topo::to_string(routing_->algorithm()) + " needs a positive multiple of " +
                                std::to_string(routing_->num_vcs()));
  if (vcs_ > 31) throw std::invalid_argument(std::string(this->name()) + ": " + std::to_string(vcs_) + " VCs (at most 31)");
  if (local_ports_ < 1) throw std::invalid_argument(std::string(this->name()) + ": needs an internal channel");
  routing_fn_ = policies.routing ? policies.routing : std::make_shared<const DeterministicRouting>(routing_);
  if (routing_fn_->base().get() != routing_.get())
    throw std::logic_error(std::string(this->name()) + ": routing function " + routing_fn_->name() +
                           " runs on another network's routing");
  selection_ = selections().make(policies.selection);
  allocator_ = std::make_unique<RotatingLowestFree>();
  make_ports();
  ins_.resize(static_cast<std::size_t>(num_channels()));
  outs_.resize(static_cast<std::size_t>(num_channels()));
  ports_.resize(static_cast<std::size_t>(ext_ports_ + local_ports_));
  for (int c = 0; c < num_channels(); ++c) ins_[static_cast<std::size_t>(c)].vc_class = class_of(c);
}

// Port names as VcRouter's (the VCD and error messages show them).
void ReferenceRouter::make_ports() {
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
  local_rx_.assign(static_cast<std::size_t>(local_ports_), nullptr);
  local_tx_.assign(static_cast<std::size_t>(local_ports_), nullptr);
}

std::string ReferenceRouter::port_name(int port) const {
  if (port >= ext_ports_) return "local" + std::to_string(port - ext_ports_);
  return std::string("d") + std::to_string(port / 2) + (port % 2 ? "m" : "p");
}

std::string ReferenceRouter::channel_name(int ch) const {
  if (ch >= external_channels()) return "local" + std::to_string(ch - external_channels());
  return port_name(ch / vcs_) + "_vc" + std::to_string(ch % vcs_);
}

topo::VcClass ReferenceRouter::class_of(int ch) const {
  if (ch >= external_channels()) return topo::VcClass::local;
  return routing_->class_at((ch % vcs_) / per_class_);
}

void ReferenceRouter::connect_in(int port, VcLink& link) {
  link_in.at(static_cast<std::size_t>(port))->bind(link);
  in_link_[static_cast<std::size_t>(port)] = &link;
}

void ReferenceRouter::connect_out(int port, VcLink& link) {
  link_out.at(static_cast<std::size_t>(port))->bind(link);
  out_link_[static_cast<std::size_t>(port)] = &link;
}

void ReferenceRouter::share_port(int port, SharedLink* link, int side) {
  if (port < 0 || port >= ext_ports_)
    throw std::logic_error(std::string(name()) + ": share_port: no port " + std::to_string(port));
  OutputPort& op = ports_[static_cast<std::size_t>(port)];
  op.shared = link;
  op.shared_side = side;
  link->attach(side, this, port);
}

bool ReferenceRouter::in_connected(int c) const {
  if (c >= external_channels()) return local_in[static_cast<std::size_t>(c - external_channels())]->size() > 0;
  const VcLink* l = in_link_[static_cast<std::size_t>(c / vcs_)];
  return l != nullptr && l->uses_vc(c % vcs_);
}

bool ReferenceRouter::out_connected(int c) const {
  if (c >= external_channels()) return local_out[static_cast<std::size_t>(c - external_channels())]->size() > 0;
  const VcLink* l = out_link_[static_cast<std::size_t>(c / vcs_)];
  return l != nullptr && l->uses_vc(c % vcs_);
}

bool ReferenceRouter::port_connected(int port) const {
  const int first = first_channel(port), n = port < ext_ports_ ? vcs_ : 1;
  for (int c = first; c < first + n; ++c)
    if (out_connected(c)) return true;
  return false;
}

// The links call this router back for a flit arriving and for a credit
// returned to a VC found without one; no receive folding (flits travel on
// the wire and are popped at their arrival).
void ReferenceRouter::end_of_elaboration() {
  for (int p = 0; p < ext_ports_; ++p) {
    if (VcLink* l = in_link_[static_cast<std::size_t>(p)]) l->attach_receiver(this);
    if (VcLink* l = out_link_[static_cast<std::size_t>(p)]) l->attach_sender(this);
  }
  for (int l = 0; l < local_ports_; ++l) {
    const auto i = static_cast<std::size_t>(l);
    const std::string what = "internal port " + std::to_string(l);
    if (local_in[i]->size() > 0) {
      local_rx_[i] = bound_link(local_in[i]->operator->(), name(), what);
      local_rx_[i]->attach_receiver(this);
    }
    if (local_out[i]->size() > 0) {
      local_tx_[i] = bound_link(local_out[i]->operator->(), name(), what);
      local_tx_[i]->attach_sender(this);
    }
  }
  sched_id_ = start_on_clock(sched_, this, this, wake_.event(), &ReferenceRouter::tick);
}

void ReferenceRouter::wake_at(Cycle c) {
  if (sched_ != nullptr) sched_->at(sched_id_, c);
  else wake_.at(c);
}

void ReferenceRouter::tick() {
  const Cycle now = ctx_.clock.now();
  if (!wake_.begin_cycle(now)) return;
  const Cycle next = evaluate_cycle(now);
  if (next != UINT64_MAX) wake_at(next);
}

// The four stages; then every next cycle while the router holds a flit or
// did something (a blocked header, a VC waiting for a credit and a VCD's
// per-cycle flags all need one), else the next arrival on an input link.
Cycle ReferenceRouter::evaluate_cycle(Cycle now) {
  bool active = receive(now);
  active |= route(now);
  active |= allocate(now);
  active |= traverse(now);
  if (active || buffered_flits() > 0) return now + 1;
  return next_arrival();
}

// ---------------------------------------------------------------------------
// 1. Receive

bool ReferenceRouter::receive(Cycle now) {
  bool any = false;
  for (int p = 0; p < ext_ports_; ++p) {
    VcLink* l = in_link_[static_cast<std::size_t>(p)];
    if (l == nullptr) continue;
    while (l->has_flit(now)) {
      int vc = 0;
      const Flit f = l->pop(vc);
      accept(p * vcs_ + vc, f, now);
      any = true;
    }
  }
  for (int l = 0; l < local_ports_; ++l) {
    Link* rx = local_rx_[static_cast<std::size_t>(l)];
    if (rx == nullptr) continue;
    while (rx->has_flit(now)) {
      accept(external_channels() + l, rx->pop(), now);
      any = true;
    }
  }
  return any;
}

// The credit protocol keeps a VC's buffer within router.buffer flits: a
// flit beyond that is a broken invariant, not a full buffer to wait on.
void ReferenceRouter::accept(int ch, Flit f, Cycle now) {
  InputVc& iv = ins_[static_cast<std::size_t>(ch)];
  iv.buf.push_back(Slot{PacketPtr(f.pkt), f.index});
  if (static_cast<int>(iv.buf.size()) > p_.buffer_flits)
    throw InvariantViolation(std::string(name()) + ": " + channel_name(ch) + ": " + std::to_string(iv.buf.size()) +
                             " flits in a buffer of " + std::to_string(p_.buffer_flits));
  iv.last_write = now;
  iv.traced_occupancy = static_cast<int>(iv.buf.size());
  peak_ = std::max(peak_, static_cast<int>(iv.buf.size()));
}

Cycle ReferenceRouter::next_arrival() const {
  Cycle next = UINT64_MAX;
  for (const VcLink* l : in_link_)
    if (l != nullptr) next = std::min(next, l->next_flit_arrival());
  for (const Link* l : local_rx_)
    if (l != nullptr) next = std::min(next, l->next_flit_arrival());
  return next;
}

// ---------------------------------------------------------------------------
// 2. Route

// Ascending channel order: IR and replicating worms take new packet ids when
// they are routed, in this order.
bool ReferenceRouter::route(Cycle now) {
  bool any = false;
  for (int c = 0; c < num_channels(); ++c) {
    InputVc& iv = ins_[static_cast<std::size_t>(c)];
    if (iv.state != State::idle || iv.buf.empty()) continue;
    route_header(c);
    iv.ready = now + static_cast<Cycle>(p_.route_delay);
    if (p_.turn_delay != 0 && turns(iv, c)) iv.ready += static_cast<Cycle>(p_.turn_delay);
    iv.state = State::waiting_vc;
    any = true;
  }
  return any;
}

// Candidates, then selection; the selection sees the free VCs of each
// candidate's class on its output.
topo::DirectHop ReferenceRouter::decide(const RouteQuery& q) const {
  const std::vector<topo::DirectHop> hops = routing_fn_->candidates(q);
  if (hops.empty())
    throw std::logic_error(std::string(name()) + ": the routing function offers no hop towards node " +
                           std::to_string(q.dst));
  const int in_ch = q.in_port < 0 ? external_channels() : q.in_port * vcs_;
  const auto free_vcs = [&](const topo::DirectHop& h) {
    const int first = output_channel(in_ch, h);
    const int n = first < external_channels() ? per_class_ : 1;
    int free = 0;
    for (int v = first; v < first + n; ++v) free += outs_[static_cast<std::size_t>(v)].owner < 0 ? 1 : 0;
    return free;
  };
  const std::size_t k = selection_->select(hops, free_vcs);
  if (k >= hops.size()) throw std::logic_error(std::string(name()) + ": the selection chose no candidate");
  return hops[k];
}

void ReferenceRouter::route_header(int c) {
  InputVc& iv = ins_[static_cast<std::size_t>(c)];
  const Slot& front = iv.buf.front();
  if (front.index != 0)
    throw InvariantViolation(std::string(name()) + ": " + channel_name(c) + ": flit " + std::to_string(front.index) +
                             " of packet " + std::to_string(front.pkt->id) + " at the front of an idle VC (no header)");
  const Packet& pk = *front.pkt;
  const NodeId dst = target_of(pk);
  if (!routing_->topology().valid_node(dst)) bad_destination(pk, dst);
  if (pk.header.worm != WormEncoding::none)
    throw std::invalid_argument(std::string(name()) + ": packet " + std::to_string(pk.id) + " from node " +
                                std::to_string(pk.src) + " is a switch-based multicast worm, which a direct-network "
                                "router cannot decode (it carries unicast packets and IR worms)");
  if (pk.header.direct_tree) return start_tree(c);
  if (is_ir_worm(pk) && dst == id_ && pk.header.dests.size() > 1) return start_ir(c);
  iv.out = output_channel(c, decide(RouteQuery{id_, dst, iv.vc_class, in_port_of(c)}));
}

void ReferenceRouter::bad_destination(const Packet& pk, NodeId dst) const {
  throw std::invalid_argument(std::string(name()) + ": packet " + std::to_string(pk.id) + " from node " +
                              std::to_string(pk.src) + " has destination " + std::to_string(dst) +
                              ", outside the network (0.." + std::to_string(routing_->topology().num_nodes() - 1) +
                              ")");
}

// The output channel of a hop: the ejection channel (all-port: the one
// paired with the input port, or with the input VC under router.ejection
// per_vc; else internal channel 0), or the first VC of
// the hop's class on the external port 2d + dir.
int ReferenceRouter::output_channel(int in_ch, const topo::DirectHop& hop) const {
  const int port = output_port(in_ch, hop);
  if (hop.arrived) return first_channel(port);
  return port * vcs_ + routing_->vc_index(hop.vc) * per_class_;
}

int ReferenceRouter::output_port(int in_ch, const topo::DirectHop& hop) const {
  if (!hop.arrived) return topo::DirectTopology::port_index(hop.dim, hop.dir);
  const int l = in_ch < external_channels() && local_ports_ > 1 ? in_ch * local_ports_ / external_channels() : 0;
  return ext_ports_ + l;
}

// In on an external channel, out on an external channel of another
// dimension (any branch of a replicating worm); injection and ejection are
// no turns.
bool ReferenceRouter::turns(const InputVc& iv, int c) const {
  const int in = in_port_of(c);
  if (in < 0) return false;
  const auto other_dimension = [&](int oc) {
    const int out = port_of(oc);
    return out < ext_ports_ && out / 2 != in / 2;
  };
  if (other_dimension(iv.out)) return true;
  for (const auto& b : iv.branches)
    if (other_dimension(b.first)) return true;
  return false;
}

// Intermediate reception: the local copy (the stripped header flits and the
// body, a unicast packet to this node) and the forwarded worm (the rest of
// the header and the body), both new packets; the worm keeps the class it
// arrived on and is routed afresh towards its next address.
void ReferenceRouter::start_ir(int c) {
  InputVc& iv = ins_[static_cast<std::size_t>(c)];
  const PacketPtr old = iv.buf.front().pkt;
  IrSplit split = split_ir_worm(*old, id_, ctx_, name());
  iv.strip = split.strip;
  iv.fwd = std::move(split.fwd);
  iv.copy = std::move(split.copy);
  iv.out = output_channel(c, decide(RouteQuery{id_, iv.fwd->header.dests.front(), iv.vc_class, -1}));
  topo::DirectHop here;
  here.arrived = true;
  iv.local_out = output_channel(c, here);
  if (!out_connected(iv.out) || !out_connected(iv.local_out))
    throw std::logic_error(std::string(name()) + ": IR of packet " + std::to_string(old->id) +
                           " needs an unconnected channel");
}

// Message replication: one branch per output channel that some destination
// routes to, each a packet copy with its destinations; the local node's
// branch is a unicast copy.
void ReferenceRouter::start_tree(int c) {
  InputVc& iv = ins_[static_cast<std::size_t>(c)];
  const PacketPtr old = iv.buf.front().pkt;
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
    const int ch = output_channel(c, decide(RouteQuery{id_, d, iv.vc_class, in_port_of(c)}));
    auto b = std::find_if(iv.branches.begin(), iv.branches.end(), [ch](const auto& e) { return e.first == ch; });
    if (b == iv.branches.end()) {
      auto pk = std::make_shared<Packet>(*old);
      pk->id = ctx_.new_packet_id();
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
}

// ---------------------------------------------------------------------------
// 3. VC allocation

bool ReferenceRouter::allocate(Cycle now) {
  bool any = false;
  const int n = num_channels();
  const int start = allocator_->first_request(now, n);
  for (int k = 0; k < n; ++k) {
    const int c = (start + k) % n;
    InputVc& iv = ins_[static_cast<std::size_t>(c)];
    if (iv.state != State::waiting_vc || iv.ready > now) continue;
    if (!take_vcs(c)) continue;   // blocked in place, holding the VC it arrived on
    iv.state = State::active;
    any = true;
  }
  return any;
}

// The allocator's choice among the free VCs of the class that starts at
// output channel `first` (an internal channel: that one), or -1.
int ReferenceRouter::free_vc(int first) const {
  const int n = first < external_channels() ? per_class_ : 1;
  return allocator_->choose(first, n, [this](int v) { return outs_[static_cast<std::size_t>(v)].owner < 0; });
}

// Every output the header needs, all at once or none: its VC; for IR also
// the ejection channel; for replication one VC per branch.
bool ReferenceRouter::take_vcs(int c) {
  InputVc& iv = ins_[static_cast<std::size_t>(c)];
  const int vc = free_vc(iv.out);
  if (vc < 0) return false;
  for (const auto& b : iv.branches)
    if (free_vc(b.first) < 0) return false;
  if (iv.local_out >= 0 && outs_[static_cast<std::size_t>(iv.local_out)].owner >= 0) return false;
  for (auto& b : iv.branches) set_owner(b.first = free_vc(b.first), c);
  if (iv.local_out >= 0) set_owner(iv.local_out, c);
  set_owner(iv.out = vc, c);
  return true;
}

// A routing function that sends a worm to a missing channel is a bug.
void ReferenceRouter::set_owner(int oc, int in_ch) {
  if (!out_connected(oc)) not_connected(oc, in_ch);
  outs_[static_cast<std::size_t>(oc)].owner = in_ch;
}

void ReferenceRouter::not_connected(int oc, int in_ch) const {
  const InputVc& iv = ins_[static_cast<std::size_t>(in_ch)];
  throw std::logic_error(std::string(name()) + ": packet " + std::to_string(iv.buf.front().pkt->id) + " routed to " +
                         channel_name(oc) + ", which is not connected");
}

void ReferenceRouter::release(int oc) { outs_[static_cast<std::size_t>(oc)].owner = -1; }

// ---------------------------------------------------------------------------
// 4. Link allocation and traversal

bool ReferenceRouter::traverse(Cycle now) {
  if (traced_)
    for (OutputPort& op : ports_) op.valid = op.head = op.tail = false;
  bool any = false;
  for (int port = 0; port < ext_ports_ + local_ports_; ++port) {
    if (ports_[static_cast<std::size_t>(port)].shared != nullptr) any |= offer_shared(port, now);
    else any |= send_on_port(port, now);
  }
  return any;
}

// One flit on the physical output: the holding packet's VC under
// router.link_hold: packet, else the arbiter's choice among the VCs that
// can send. A replicating worm may have taken the output this cycle.
bool ReferenceRouter::send_on_port(int port, Cycle now) {
  OutputPort& op = ports_[static_cast<std::size_t>(port)];
  if (op.used == now) return false;
  const int first = first_channel(port);
  int v = -1;
  if (op.hold >= 0) v = can_send(first + op.hold, now) ? op.hold : -1;
  else v = op.arbiter->grant(port_vcs(port), [&](int k) { return can_send(first + k, now); });
  if (v < 0) return false;
  op.used = now;
  send_flit(first + v, now);
  if (p_.link_hold == "packet") op.hold = outs_[static_cast<std::size_t>(first + v)].owner >= 0 ? v : -1;
  return true;
}

// "3-way": the VCs of the port that could send are posted; the shared
// link's arbiter grants one of them or one of the neighbour's later in
// this cycle (shared_link_grant).
bool ReferenceRouter::offer_shared(int port, Cycle now) {
  std::uint32_t mask = 0;
  for (int v = 0; v < vcs_; ++v)
    if (can_send(port * vcs_ + v, now)) mask |= 1u << v;
  if (mask == 0) return false;
  OutputPort& op = ports_[static_cast<std::size_t>(port)];
  op.shared->request(op.shared_side, mask, now);
  return true;
}

void ReferenceRouter::shared_link_grant(int port, int vc, Cycle now) {
  const int oc = port * vcs_ + vc;
  if (!can_send(oc, now))
    throw InvariantViolation(std::string(name()) + ": " + channel_name(oc) +
                             ": granted the shared wire but cannot send");
  send_flit(oc, now);
  wake_at(now + 1);
}

int ReferenceRouter::credits(int oc, Cycle now) const {
  if (oc >= external_channels()) return local_tx_[static_cast<std::size_t>(oc - external_channels())]->credits(now);
  return out_link_[static_cast<std::size_t>(oc / vcs_)]->credits(oc % vcs_, now);
}

// Output channel oc can send its owner's front flit now: held, the flit
// readable (written before this cycle; with route_delay 0, also one written
// in this cycle: the router forwards in the arrival cycle), none sent from
// that VC this cycle,
// a downstream credit (IR and replication: on every output the flit goes to).
bool ReferenceRouter::can_send(int oc, Cycle now) {
  const int owner = outs_[static_cast<std::size_t>(oc)].owner;
  if (owner < 0) return false;
  InputVc& iv = ins_[static_cast<std::size_t>(owner)];
  const bool just_written = iv.last_write == now && p_.route_delay > 0;
  const int readable = static_cast<int>(iv.buf.size()) - (just_written ? 1 : 0);
  if (readable <= 0 || iv.last_sent == now) return false;
  if (!iv.branches.empty()) return oc == iv.out && tree_can_send(iv, now);
  if (iv.local_out >= 0 && !ir_can_send(iv, oc, now)) return false;
  return credits(oc, now) > 0;
}

// An IR worm's stripped header flits leave on the ejection channel only,
// the rest of its header on the forward channel only, and each body flit on
// both in the same cycle (sent from the forward channel).
bool ReferenceRouter::ir_can_send(const InputVc& iv, int oc, Cycle now) {
  const int i = iv.buf.front().index, h = iv.buf.front().pkt->header_flits;
  const bool to_local = i < iv.strip || i >= h, to_fwd = i >= iv.strip;
  if (oc == iv.local_out) return to_local && !to_fwd;
  if (!to_fwd) return false;
  return !to_local || credits(iv.local_out, now) > 0;
}

// A replicating worm's flit leaves on every branch at once: each branch's
// physical output unused this cycle and with a credit.
bool ReferenceRouter::tree_can_send(const InputVc& iv, Cycle now) {
  for (const auto& b : iv.branches) {
    if (ports_[static_cast<std::size_t>(port_of(b.first))].used == now) return false;
    if (credits(b.first, now) <= 0) return false;
  }
  return true;
}

// The front flit of oc's owner leaves (renumbered for IR and replication);
// its slot is credited upstream.
void ReferenceRouter::send_flit(int oc, Cycle now) {
  const int in_ch = outs_[static_cast<std::size_t>(oc)].owner;
  InputVc& iv = ins_[static_cast<std::size_t>(in_ch)];
  const Slot s = iv.buf.front();   // holds the packet until its flit is on the link
  iv.buf.pop_front();
  iv.last_sent = now;
  const Flit f = s.flit();
  if (!iv.branches.empty() || iv.local_out >= 0) emit_copies(iv, f, now);
  else emit(oc, f, now);
  iv.traced_occupancy = static_cast<int>(iv.buf.size());
  if (in_ch < external_channels()) in_link_[static_cast<std::size_t>(in_ch / vcs_)]->return_credits(in_ch % vcs_, 1, now);
  else local_rx_[static_cast<std::size_t>(in_ch - external_channels())]->return_credits(1, now);
  if (f.tail()) end_of_packet(iv);
}

// The tail has left: the VC is idle, its next header (if any) is routed
// in the next cycle.
void ReferenceRouter::end_of_packet(InputVc& iv) {
  iv.state = State::idle;
  iv.out = iv.local_out = -1;
  iv.strip = 1;
  iv.branches.clear();
  iv.fwd.reset();
  iv.copy.reset();
}

void ReferenceRouter::emit_copies(InputVc& iv, const Flit& f, Cycle now) {
  if (!iv.branches.empty()) {
    for (const auto& b : iv.branches) {
      ports_[static_cast<std::size_t>(port_of(b.first))].used = now;
      emit(b.first, Flit{b.second, f.index}, now);
    }
    ctx_.flits.extra_copies += static_cast<std::int64_t>(iv.branches.size()) - 1;
    return;
  }
  const int i = f.index, h = f.pkt->header_flits, strip = iv.strip;
  const bool to_local = i < strip || i >= h, to_fwd = i >= strip;
  if (to_local) emit(iv.local_out, Flit{iv.copy, i < strip ? i : i - h + strip}, now);
  if (to_fwd) emit(iv.out, Flit{iv.fwd, i - strip}, now);
  if (to_local && to_fwd) ++ctx_.flits.extra_copies;   // a body flit now travels twice
}

// Flit g on output channel oc, crossbar_delay + link latency to its arrival.
void ReferenceRouter::emit(int oc, const Flit& g, Cycle now) {
  const int port = port_of(oc);
  if (traced_) {
    OutputPort& op = ports_[static_cast<std::size_t>(port)];
    op.valid = true;
    op.head = g.head();
    op.tail = g.tail();
    op.vc = oc < external_channels() ? oc % vcs_ : 0;
    op.packet = static_cast<int>(g.pkt->id);
    op.header_flits = g.pkt->header_flits;
  }
  if (oc < external_channels()) out_link_[static_cast<std::size_t>(port)]->send(oc % vcs_, g, now, p_.crossbar_delay);
  else local_tx_[static_cast<std::size_t>(oc - external_channels())]->send(g, now, p_.crossbar_delay);
  ++ctx_.flits.moves;
  ++ctx_.flits.hops;
  ++outs_[static_cast<std::size_t>(oc)].sent;
  if (probe_ != nullptr) probe_->flit_sent(oc, g, now);
  if (g.tail()) release(oc);
}

// ---------------------------------------------------------------------------
// Statistics, deadlock report, VCD

std::uint64_t ReferenceRouter::buffered_flits() const {
  std::uint64_t n = 0;
  for (const InputVc& iv : ins_) n += iv.buf.size();
  return n;
}

std::vector<std::string> ReferenceRouter::describe_blocked(Cycle now) const {
  std::vector<std::string> lines;
  for (int c = 0; c < num_channels(); ++c) {
    const InputVc& iv = ins_[static_cast<std::size_t>(c)];
    if (iv.buf.empty() && iv.state == State::idle) continue;
    lines.push_back(describe_vc(c, now));
  }
  return lines;
}

// The packets of input VC c (one bracket per run of consecutive flits of a
// packet) and what its front waits for, worded as VcRouter words it.
std::string ReferenceRouter::describe_vc(int c, Cycle now) const {
  const auto& t = routing_->topology();
  const InputVc& iv = ins_[static_cast<std::size_t>(c)];
  std::string s = std::string(name()) + " " + t.name(id_) + " in " + channel_name(c) + " (class " +
                  topo::to_string(class_of(c)) + "): " + std::to_string(iv.buf.size()) + "/" +
                  std::to_string(p_.buffer_flits) + " flits;";
  for (std::size_t k = 0; k < iv.buf.size();) {
    const Slot& a = iv.buf[k];
    std::size_t e = k + 1;
    while (e < iv.buf.size() && iv.buf[e].pkt == a.pkt && iv.buf[e].index == iv.buf[e - 1].index + 1) ++e;
    const Packet& pk = *a.pkt;
    s += " [packet " + std::to_string(pk.id) + " " + t.name(pk.src) + "->" +
         (t.valid_node(target_of(pk)) ? t.name(target_of(pk)) : "?") +
         (is_ir_worm(pk) ? " (IR worm, " + std::to_string(pk.header.dests.size()) + " addresses left)" : std::string()) +
         " flits " + std::to_string(a.index) + ".." + std::to_string(iv.buf[e - 1].index) + "]";
    k = e;
  }
  if (iv.out < 0) return s;
  const int owner = outs_[static_cast<std::size_t>(iv.out)].owner;
  s += " -> " + channel_name(iv.out);
  const int port = port_of(iv.out);
  const int hold = ports_[static_cast<std::size_t>(port)].hold;
  const int holder = hold < 0 ? -1 : first_channel(port) + hold;
  const int local_owner = iv.local_out < 0 ? -1 : outs_[static_cast<std::size_t>(iv.local_out)].owner;
  if (iv.state == State::waiting_vc && iv.ready > now) s += " routing";
  else if (owner != c && owner < 0 && local_owner >= 0 && local_owner != c)
    s += " waiting for the ejection channel " + channel_name(iv.local_out) + " of its local copy (held by " +
         channel_name(local_owner) + ")";
  else if (owner != c) s += " waiting for the VC (held by " + channel_name(owner) + ")";
  else if (credits(iv.out, now) <= 0) s += " holds the VC, waiting for downstream credits";
  else if (holder >= 0 && holder != iv.out)
    s += " holds the VC, waiting for the link (router.link_hold: packet; " + channel_name(holder) + "'s packet has it)";
  else s += " holds the VC";
  return s;
}

void ReferenceRouter::trace(sc_core::sc_trace_file* tf) {
  traced_ = true;
  if (sched_ != nullptr) sched_->every_cycle(std::string("VCD trace of ") + name());
  const std::string base = name();
  for (int c = 0; c < num_channels(); ++c)
    if (in_connected(c))
      sc_core::sc_trace(tf, ins_[static_cast<std::size_t>(c)].traced_occupancy,
                        base + ".in_" + channel_name(c) + ".occupancy");
  for (int p = 0; p < ext_ports_ + local_ports_; ++p) {
    if (!port_connected(p)) continue;
    const std::string pn = port_name(p);
    OutputPort& op = ports_[static_cast<std::size_t>(p)];
    sc_core::sc_trace(tf, op.valid, base + ".out_" + pn + ".valid");
    sc_core::sc_trace(tf, op.head, base + ".out_" + pn + ".head");
    sc_core::sc_trace(tf, op.tail, base + ".out_" + pn + ".tail");
    sc_core::sc_trace(tf, op.vc, base + ".out_" + pn + ".vc");
    sc_core::sc_trace(tf, op.packet, base + ".out_" + pn + ".packet");
    sc_core::sc_trace(tf, op.header_flits, base + ".out_" + pn + ".header_flits");
  }
}

}  // namespace wormcast::rtl
