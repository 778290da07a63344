#include "rtl_models/switch/switch.h"

#include "rtl_models/core/bound_link.h"

#include <algorithm>
#include <stdexcept>

namespace wormcast::rtl {

namespace {
Arbitration parse_arbitration(const std::string& s) {
  if (s == "round_robin") return Arbitration::round_robin;
  if (s == "fixed_priority") return Arbitration::fixed_priority;
  throw std::invalid_argument("unknown arbitration '" + s + "'");
}
NextHeader parse_next_header(const std::string& s) {
  if (s == "after_grant") return NextHeader::after_grant;
  if (s == "after_drain") return NextHeader::after_drain;
  throw std::invalid_argument("unknown next_header rule '" + s + "'");
}
}  // namespace

Switch::Switch(sc_core::sc_module_name name, int id, int ports, const SwitchParams& p,
               SimContext& ctx, const DecoderFactory& make_decoder)
    : sc_core::sc_module(name), id_(id), k_(ports), p_(p),
      vct_(p.whole_packet_admission()),
      saf_(p.admission == "store_and_forward"),
      wake_(ctx.clock), sched_(ctx.scheduler), ctx_(ctx),
      outputs_(static_cast<std::size_t>(ports)),
      pending_(static_cast<std::size_t>(ports), nullptr),
      wanters_(static_cast<std::size_t>(ports)) {
  if (ports < 1) throw std::invalid_argument(std::string(this->name()) + ": a switch needs >= 1 port");
  in_waiting_.resize(ports);
  out_held_.resize(ports);
  decode_check_.resize(ports);
  wanted_free_.resize(ports);
  for (ChannelSet& w : wanters_) w.resize(ports);
  if (p.admission != "cut_through" && !vct_)
    throw std::invalid_argument("unknown admission rule '" + p.admission + "'");
  const NextHeader rule = parse_next_header(p.next_header);
  for (int i = 0; i < ports; ++i) {
    in.push_back(std::make_unique<FlitInPort>(("in" + std::to_string(i)).c_str()));
    out.push_back(std::make_unique<FlitOutPort>(("out" + std::to_string(i)).c_str()));
    buffers_.push_back(std::make_unique<InputBuffer>(("ibuf" + std::to_string(i)).c_str(),
                                                     p.buffer_flits, p.chunk_flits, rule));
    buffers_.back()->set_store_and_forward(saf_);
  }
  xbar_ = std::make_unique<Crossbar>("crossbar", ports, parse_arbitration(p.arbitration), p.crossbar_delay);
  decoder_ = make_decoder(id);
  choose_passes(p);
}

void Switch::choose_passes(const SwitchParams& p) {
  if (p.pass_scope != "switch" && p.pass_scope != "input")
    throw std::invalid_argument("switch.pass_scope: unknown scope '" + p.pass_scope + "'");
  if (p.pass_interval == 0) {
    if (p.pass_scope != "switch")
      throw std::invalid_argument("switch.pass_scope: " + p.pass_scope +
                                  " needs switch.pass_interval > 0 (0 connects every pair in parallel)");
    return;
  }
  if (p.pass_scope == "switch") {
    arbitrate_ = &Switch::grant_serial_switch;
    return;
  }
  arbitrate_ = &Switch::grant_serial_input;
  input_pass_free_.assign(static_cast<std::size_t>(k_), 0);
}

template <class If>
Link* Switch::as_link(If* channel, int port) const {
  return bound_link(channel, name(), "port " + std::to_string(port));
}

void Switch::end_of_elaboration() {
  if (!decoder_) throw std::logic_error(std::string(name()) + ": no decoder installed");
  in_bound_.assign(static_cast<std::size_t>(k_), 0);
  out_bound_.assign(static_cast<std::size_t>(k_), 0);
  rx_.assign(static_cast<std::size_t>(k_), nullptr);
  tx_.assign(static_cast<std::size_t>(k_), nullptr);
  in_due_.assign(static_cast<std::size_t>(k_), UINT64_MAX);
  in_clients_.assign(static_cast<std::size_t>(k_), InputClient{});
  out_clients_.assign(static_cast<std::size_t>(k_), OutputClient{});
  for (int i = 0; i < k_; ++i) {
    auto& ip = *in[static_cast<std::size_t>(i)];
    auto& op = *out[static_cast<std::size_t>(i)];
    if (ip.size() > 0) {
      in_bound_[static_cast<std::size_t>(i)] = 1;
      rx_[static_cast<std::size_t>(i)] = as_link(ip.operator->(), i);
      in_clients_[static_cast<std::size_t>(i)].sw = this;
      in_clients_[static_cast<std::size_t>(i)].port = i;
      ip->attach_receiver(&in_clients_[static_cast<std::size_t>(i)]);
      in_due_[static_cast<std::size_t>(i)] = ip->next_flit_arrival();
      if (in_due_[static_cast<std::size_t>(i)] != UINT64_MAX) in_waiting_.insert(i);
    }
    if (op.size() > 0) {
      out_bound_[static_cast<std::size_t>(i)] = 1;
      tx_[static_cast<std::size_t>(i)] = as_link(op.operator->(), i);
      out_clients_[static_cast<std::size_t>(i)].sw = this;
      out_clients_[static_cast<std::size_t>(i)].port = i;
      op->attach_sender(&out_clients_[static_cast<std::size_t>(i)]);
      // A cut-through output waits for credits only when it has none, and
      // then asks next_credit_arrival(); a virtual cut-through head also
      // waits with some, so it keeps a wake-up per return.
      if (!vct_) tx_[static_cast<std::size_t>(i)]->wake_blocked_sender_only();
    }
  }
  sched_id_ = start_on_clock(sched_, this, this, wake_.event(), &Switch::tick);
}

int Switch::free_credits(int o) const {
  Link* tx = tx_.empty() ? nullptr : tx_[static_cast<std::size_t>(o)];
  return tx ? tx->credits(ctx_.clock.now()) : 0;
}

void Switch::tick() {
  const Cycle now = ctx_.clock.now();
  if (!wake_.begin_cycle(now)) return;
  const Cycle next = evaluate_cycle(now);
  if (next != UINT64_MAX) wake_at(next);
}

Cycle Switch::evaluate_cycle(Cycle now) {
  bool active = false, started = false;
  Cycle next = UINT64_MAX;
  if (traced_)
    for (auto& o : outputs_) o.valid = o.head = o.tail = false;
  accept_flits(now, active, next);
  decode_headers(now, started, next);
  // Most evaluations have no free output wanted: a test here, not a call.
  if (wanted_free_n_ > 0 && now >= pass_free_ && (this->*arbitrate_)(now)) started = true;
  // Serial connections: a branch still wanting a free output waits for the
  // next pass of the switch or of one of its wanters (pass_wake_ stays 0 in
  // parallel).
  const bool wait_pass = wanted_free_n_ > 0 && pass_wake_ > now;
  if (wait_pass) next = std::min(next, pass_wake_);
  traverse(now, active, next);
  // After a decode or a grant (and a stream start, which asks for its tail's
  // cycle itself), the next cycle has work only for a branch waiting for a
  // free output (wanted_free_: a branch waiting for a held output is granted
  // only after a release, which asks for its own next cycle) or for a
  // packet still to be decoded behind a decode position released in this
  // cycle after the decode step (released_: a grant, a tail read or a
  // stream's end; every other input in decode_check_ was visited by that
  // step and asked for its candidate's `ready`, and a header completed
  // later is an arrival with its own wake-up); a granted output that read
  // a flit is `active`, one blocked on credits asked for
  // next_credit_arrival(). So that evaluation is left out when neither
  // waits. (A saturated switch almost always holds an undecoded packet
  // somewhere, and was evaluated after most stream ends for it.)
  if (started && wanted_free_n_ > 0 && !wait_pass) active = true;
  if (released_) {   // cleared here, set only after this evaluation's decode step
    released_ = false;
    if (undecoded_ > 0) active = true;
  }
  if (active) next = now + 1;
  return next;   // the scheduler's (or tick's) wake-up
}

// 1. Flits arriving from links enter the input buffers. in_due_[i] is the
//    input link's next_flit_arrival(): its links report every flit sent.
//    Only inputs with a flit on their link are visited (in_waiting_), in
//    ascending order as a full scan would. An input whose flit (or received
//    stream's tail) is due later only gives its cycle, without a call (in
//    a saturated network two of three visits: flits on the wire, streams
//    being received).
void Switch::accept_flits(Cycle now, bool& active, Cycle& next) {
  in_waiting_.for_each([&](int i) {
    const Cycle due = in_due_[static_cast<std::size_t>(i)];
    if (due > now) next = std::min(next, due);
    else accept_port(i, now, active, next);
  });
}

void Switch::accept_port(int i, Cycle now, bool& active, Cycle& next) {
  Cycle& due = in_due_[static_cast<std::size_t>(i)];
  InputBuffer& buf = *buffers_[static_cast<std::size_t>(i)];
  settle_input(buf, now);   // at a received stream's tail: every count settled
  Link* rx = rx_[static_cast<std::size_t>(i)];
  while (rx->has_flit(now)) {
    BufferEntry& e = buf.write(rx->pop(), now);
    if (e.arrived == 1) ++undecoded_;
    if (e.arrived == e.header_flits) decode_check_.insert(i);   // a header complete: may be decodable
    ctx_.flits.extra_copies += buf.copies_per_write(e);
    active = true;
  }
  // Store-and-forward decodes at a tail's write, popped above or settled
  // from a received stream (whose tail's cycle is always evaluated here).
  if (saf_ && !buf.empty()) decode_check_.insert(i);
  if (ctx_.streams && !traced_ && !buf.empty()) receive_stream(buf, *rx);
  due = buf.receiving() ? buf.receive_tail() : rx->next_flit_arrival();
  if (due == UINT64_MAX) in_waiting_.erase(i);
  next = std::min(next, due);
}

// A received stream's writes and a read stream's chunk frees are applied
// where they are read, not in every evaluation (InputBuffer::settle): at an
// arrival or the received stream's tail (accept_port: a received stream's
// tail always has its evaluation, in_due_, so every count is settled there,
// before the run loop's next stop), before a decode installs its branches
// (the flit copies of what has arrived), and before a per-flit read
// (readable, readable_at, read). The rest (decode_candidate: the header is
// in before a stream is received; tail_write; a stream's start and end;
// describe_blocked) reads nothing a pending write or free changes, or
// settles for itself.
void Switch::settle_input(InputBuffer& buf, Cycle now) {
  if (!buf.lazy_before(now + 1)) return;
  buf.settle(now + 1, now);
  ctx_.flits.extra_copies += buf.take_copies();
}

// The receiving side of the stream step (docs/performance.md, point 3): when
// the input link holds the rest of the packet being written as consecutive
// arrivals, past its header, the buffer takes it in one step and writes it
// in closed form (InputBuffer::settle); the switch is then evaluated for
// what it does itself and at the tail's write (in_due_), not per flit. The
// tail must be written a few cycles before the run loop's next stop, where
// results are read (sim_context.h).
void Switch::receive_stream(InputBuffer& buf, Link& rx) {
  const BufferEntry* e = &buf.last_entry();
  if (e->arrived < e->header_flits || e->arrived >= e->length) return;
  const Cycle tail = rx.tail_arrival(e->pkt.get());
  if (!ctx_.receive_fits(tail)) return;
  const Cycle first = rx.take_rest(e->pkt.get(), e->arrived);
  if (first == UINT64_MAX) return;
  buf.receive_stream(first);
  ctx_.received_stream_flits += static_cast<std::uint64_t>(e->length - e->arrived);
}

void Switch::check_branches(const BufferEntry& e) const {
  const std::vector<Branch>& br = e.branches;
  for (std::size_t a = 0; a < br.size(); ++a) {
    const int o = br[a].out_port;
    if (o < 0 || o >= k_ || !out_bound_[static_cast<std::size_t>(o)])
      throw std::runtime_error(std::string(name()) + ": packet " + std::to_string(e.pkt->id) +
                               " routed to unconnected port " + std::to_string(o));
    for (std::size_t b = 0; b < a; ++b)
      if (br[b].out_port == o)
        throw std::runtime_error(std::string(name()) + ": packet " + std::to_string(e.pkt->id) +
                                 " replicated twice to port " + std::to_string(o));
  }
}

// 2. Decode the header at each FIFO's decode position. Only the inputs in
//    decode_check_ are visited, in ascending order as a full scan would: an
//    input's decode_candidate() changes only when a header there completes,
//    when its decode position is released (a grant under after_grant, a
//    retirement under after_drain: marked at every tail read) or when it
//    decodes. An input whose candidate is none or just decoded leaves the
//    set until one of these; one whose candidate waits for its `ready`
//    stays. (A saturated switch re-scanned all inputs in every cycle it
//    moved a flit, for headers waiting behind undrained packets.)
void Switch::decode_headers(Cycle now, bool& decoded, Cycle& next) {
  if (undecoded_ == 0) return;
  decode_check_.for_each([&](int i) { decode_input(i, now, decoded, next); });
}

void Switch::decode_input(int i, Cycle now, bool& decoded, Cycle& next) {
  InputBuffer& buf = *buffers_[static_cast<std::size_t>(i)];
  BufferEntry* e = buf.empty() ? nullptr : buf.decode_candidate(p_.route_delay);
  if (e && e->ready > now) {
    next = std::min(next, e->ready);
    return;
  }
  decode_check_.erase(i);
  if (!e) return;
  settle_input(buf, now);
  // The decoder appends straight to the entry's branches (empty until
  // decoded), which set_branches then installs in place: no copy of a
  // Branch and its packet reference per decode.
  decoder_->decode(e->pkt, i, *this, e->branches);
  check_branches(*e);
  ctx_.flits.extra_copies += buf.set_branches(*e, e->branches);
  --undecoded_;
  for (const Branch& b : e->branches) want_output(b.out_port, i);
  // The input's packet waiting for grants: one at a time, as the packet
  // ahead releases the decode position only once all its branches are granted.
  pending_[static_cast<std::size_t>(i)] = e;
  decoded = true;
}

// 3. Per-output arbitration among the branches waiting for a port, outputs
//    in ascending order. Only a free output someone wants can grant
//    (wanted_free_): a held output is not arbitrated, and a grant in this
//    pass holds only the output it grants and frees none. Each input holds
//    at most one decoded packet with ungranted branches (pending_: the next
//    one is decoded only after its release), and a packet has at most one
//    branch per output (check_branches), so the requests for a free output
//    o are exactly the inputs in wanters_[o], one branch each; arbitrate()
//    over that request vector grants the first of them in its scan order,
//    which starts at Crossbar::first_ranked(o). So the pass takes that
//    input (ChannelSet::first_from) and grants it with grant_only(): the
//    same winners, in the same order, and the same round-robin pointers as
//    arbitrate() over the full request vectors. (The pass scanned every
//    input and every branch of their pending packets, a cache miss per
//    waiting packet and a mispredicted test per input in a saturated switch,
//    to find the few free outputs' requests.) Serial connections
//    (switch.pass_interval) are grant_serial_switch and grant_serial_input.
bool Switch::grant_parallel(Cycle now) {
  wanted_free_.for_each([&](int o) { grant_output(o, now); });
  return true;   // wanted_free_n_ > 0: at least one output is granted
}

// One connection per pass for the whole switch: the first wanted free output
// from the one after the last pass's, round-robin.
bool Switch::grant_serial_switch(Cycle now) {
  const int o = wanted_free_.first_from(pass_next_);
  grant_output(o, now);
  pass_next_ = o + 1 == k_ ? 0 : o + 1;
  pass_free_ = pass_wake_ = now + p_.pass_interval;
  return true;
}

// One connection per pass and input, inputs in parallel: the wanted free
// outputs round-robin from the one after the last granted, each to the first
// of its wanters in the crossbar's order whose input is free for a pass (the
// arbiter then remembers that winner, as grant_only says). An output left
// wanted has only wanters in their pass: it waits for the earliest of them.
bool Switch::grant_serial_input(Cycle now) {
  bool granted = false;
  Cycle soonest = UINT64_MAX;
  wanted_free_.for_each_from(pass_next_, [&](int o) {
    const ChannelSet& w = wanters_[static_cast<std::size_t>(o)];
    const int first = w.first_from(xbar_->first_ranked(o));
    int i = first;
    do {
      const Cycle free_at = input_pass_free_[static_cast<std::size_t>(i)];
      if (free_at <= now) {
        grant_to(o, i, now);
        input_pass_free_[static_cast<std::size_t>(i)] = now + p_.pass_interval;
        pass_next_ = o + 1 == k_ ? 0 : o + 1;
        granted = true;
        return;
      }
      soonest = std::min(soonest, free_at);
      i = w.first_from(i + 1 == k_ ? 0 : i + 1);
    } while (i != first);
  });
  pass_wake_ = wanted_free_n_ > 0 ? soonest : 0;
  return granted;
}

// Free output o to the first of its wanters in the crossbar's order.
void Switch::grant_output(int o, Cycle now) {
  grant_to(o, wanters_[static_cast<std::size_t>(o)].first_from(xbar_->first_ranked(o)), now);
}

// Free output o to `input`, one of its wanters.
void Switch::grant_to(int o, int input, Cycle now) {
  BufferEntry& e = *pending_[static_cast<std::size_t>(input)];
  std::size_t b = 0;
  while (e.branches[b].out_port != o) ++b;   // its one branch to o (check_branches)
  xbar_->grant_only(o, input);
  connect_branch(o, input, e, static_cast<int>(b), now);
}

void Switch::connect_branch(int o, int input, BufferEntry& e, int branch, Cycle now) {
  OutputState& os = outputs_[static_cast<std::size_t>(o)];
  if (buffers_[static_cast<std::size_t>(input)]->grant(e, e.branches[static_cast<std::size_t>(branch)], now))
    release_decode(input);   // the decode position released
  if (e.ungranted == 0) pending_[static_cast<std::size_t>(input)] = nullptr;   // all its branches hold outputs
  wanters_[static_cast<std::size_t>(o)].erase(input);
  wanted_free_.erase(o);   // o was free and wanted by this branch; now held
  --wanted_free_n_;
  ++connected_;
  os.entry = &e;
  os.branch = branch;
  os.input = input;
  os.credit_at = 0;
  os.busy = true;
  out_held_.insert(o);
  xbar_->connect(input, o);
}

// 4. Crossbar traversal: each connected output moves one flit if the flit
//    is in the buffer and the downstream buffer has a free slot. Outputs in
//    ascending order, only the held ones (out_held_). An output whose stream
//    moves its flits until a later cycle only gives that cycle, without a
//    call (most visits in a saturated network); so does one found without
//    credits before the first cycle a credit can arrive: credits() <= 0 made
//    its link report the next return pushed (output_activity), and returns
//    arrive in the order given. (A saturated switch re-checked its blocked
//    outputs in every evaluation.)
void Switch::traverse(Cycle now, bool& active, Cycle& next) {
  if (connected_ == 0) return;
  out_held_.for_each([&](int o) {
    const OutputState& os = outputs_[static_cast<std::size_t>(o)];
    if (os.stream_tail > now) next = std::min(next, os.stream_tail);   // stream_tail 0: no stream
    else if (os.credit_at > now) next = std::min(next, os.credit_at);
    else traverse_output(o, now, active, next);
  });
}

void Switch::traverse_output(int o, Cycle now, bool& active, Cycle& next) {
  OutputState& os = outputs_[static_cast<std::size_t>(o)];
  if (os.stream_tail != 0) {   // a stream's last cycle (traverse calls only then)
    // A stream short of the tail goes on per flit (or with the next
    // stream) next cycle. After the tail, the freed output matters next
    // cycle only to a branch waiting for it or another free output
    // (wanted_free_); the decode position its retirement released asks
    // for the next cycle in evaluate_cycle (released_); the rest has its
    // own wake-up.
    if (finish_stream(o, os, now) || wanted_free_n_ > 0) active = true;
    return;
  }
  Link* tx = tx_[static_cast<std::size_t>(o)];
  BufferEntry& e = *os.entry;
  Branch& b = e.branches[static_cast<std::size_t>(os.branch)];
  InputBuffer& buf = *buffers_[static_cast<std::size_t>(os.input)];
  settle_input(buf, now);
  const int credits = tx->credits(now);
  if (credits <= 0 || !buf.readable(e, b, now) || (vct_ && b.next == 0 && credits < b.pkt->length)) {
    const Cycle credit_at = tx->next_credit_arrival();
    if (credits <= 0) os.credit_at = credit_at;
    next = std::min({next, credit_at, buf.readable_at(e, b, now)});
    return;
  }
  if (ctx_.streams && try_stream(o, os, e, b, credits, now)) {
    next = std::min(next, os.stream_tail);   // nothing for this output before its tail
    return;
  }
  const int input = os.input;
  int freed = 0;
  Flit f = buf.read(e, b, now, freed);   // may retire the entry
  const bool tail = f.tail();
  if (traced_) {
    os.valid = true;
    os.head = f.head();
    os.tail = tail;
    os.packet = static_cast<std::uint32_t>(f.pkt->id);
  }
  tx->send(std::move(f), now, p_.crossbar_delay);
  ++ctx_.flits.moves;
  ++ctx_.flits.hops;
  if (freed > 0) rx_[static_cast<std::size_t>(input)]->return_credits(freed, now);
  if (tail) {
    release_decode(input);   // the packet may have retired: its decode position released
    release_output(o, os);
  }
  active = true;
}

void Switch::release_output(int o, OutputState& os) {
  if (!wanters_[static_cast<std::size_t>(o)].empty()) {   // a free output to arbitrate
    wanted_free_.insert(o);
    ++wanted_free_n_;
  }
  --connected_;
  os.entry = nullptr;
  os.busy = false;
  out_held_.erase(o);
  xbar_->disconnect(o);
}

// Branch b may stream m flits from cycle now when nothing can stop them
// (docs/performance.md, point 1 and streams under contention): it is the
// entry's only branch and emits the received packet; each of the m flits is
// readable when its read comes (all have arrived before now, or the tail is
// already known to be written before the tail's read: flits are written at
// most one per cycle, so every earlier one is then in time too); the output
// link holds a credit for each by its cycle (Link::stream_credits: held now
// or already returned in time; a held output is never taken away); no VCD
// trace; and the stream ends before the run loop's next stop
// (sim_context.h). Then flit next + i leaves at now + i exactly as the
// per-flit steps would send it. A stream short of the tail leaves the output
// held; the per-flit step (or the next stream) goes on after it.
bool Switch::try_stream(int o, OutputState& os, BufferEntry& e, Branch& b, int credits, Cycle now) {
  const int rest = e.length - b.next;
  if (rest < 2 || traced_ || e.branches.size() != 1 || b.pkt.get() != e.pkt.get()) return false;
  InputBuffer& buf = *buffers_[static_cast<std::size_t>(os.input)];
  if (!buf.streams_allowed()) return false;
  int m = std::min(rest, ctx_.stream_room(now));
  Link* tx = tx_[static_cast<std::size_t>(o)];
  if (credits < m) m = tx->stream_credits(now, m);
  Link* rx = rx_[static_cast<std::size_t>(os.input)];
  // (A flit written this cycle is read at now + 1 or later: flit next is
  // readable now, so every arrived flit is read in time.)
  const Cycle tail_in = buf.tail_write(e);
  if ((tail_in == UINT64_MAX ? rx->tail_arrival(e.pkt.get()) : tail_in) >= now + static_cast<Cycle>(rest) - 1)
    m = std::min(m, e.arrived - b.next);
  if (m < 2) return false;
  tx->send_stream(Flit{b.pkt, b.next}, m, now, p_.crossbar_delay);
  buf.start_stream(e, b, now, m, [rx](Cycle at, int flits) { rx->return_credits(flits, at); });
  os.stream_tail = now + static_cast<Cycle>(m) - 1;
  os.stream_flits = m;
  ctx_.streamed_flits += static_cast<std::uint64_t>(m);
  // The per-flit steps count each move in its cycle; the watchdog only
  // needs a move counted in each of its intervals the stream spans, and the
  // run's totals are read after the stream has ended (stream_room).
  ++ctx_.flits.moves;
  ++ctx_.flits.hops;
  return true;
}

bool Switch::finish_stream(int o, OutputState& os, Cycle now) {
  BufferEntry& e = *os.entry;
  Branch& b = e.branches[static_cast<std::size_t>(os.branch)];
  InputBuffer& buf = *buffers_[static_cast<std::size_t>(os.input)];
  ctx_.flits.moves += static_cast<std::uint64_t>(os.stream_flits - 1);
  ctx_.flits.hops += static_cast<std::uint64_t>(os.stream_flits - 1);
  os.stream_tail = 0;
  os.stream_flits = 0;
  if (b.next < e.length) {   // short of the tail: its frees applied before the per-flit reads resume
    buf.settle(now + 1, now + 1);
    return true;
  }
  buf.finish_stream(e, b, now);
  release_decode(os.input);   // as a per-flit tail read (traverse_output)
  release_output(o, os);
  return false;
}

std::uint64_t Switch::pending_copies() const {
  std::uint64_t n = 0;
  for (const auto& b : buffers_) n += b->pending_copies();
  return n;
}

std::vector<std::string> Switch::describe_blocked(Cycle now) const {
  std::vector<std::string> lines;
  for (int i = 0; i < k_; ++i) {
    buffers_[static_cast<std::size_t>(i)]->settle(now, now);   // the streams' writes and frees so far
    const InputBuffer& buf = *buffers_[static_cast<std::size_t>(i)];
    if (buf.empty()) continue;
    std::string s = std::string(buf.name()) + ": " + std::to_string(buf.occupancy()) + "/" +
                    std::to_string(buf.capacity()) + " flits;";
    buf.for_each_entry([&](const BufferEntry& e) {
      s += " [packet " + std::to_string(e.pkt->id) + " src " + std::to_string(e.pkt->src);
      if (e.pkt->header.kind == HeaderKind::unicast) s += " dst " + std::to_string(e.pkt->header.dest);
      s += " " + std::to_string(e.arrived) + "/" + std::to_string(e.pkt->length) + " flits in";
      if (!e.decoded) s += ", not decoded";
      for (const Branch& b : e.branches) {
        s += ", ->out" + std::to_string(b.out_port) + " read " + std::to_string(b.next);
        const OutputState& os = outputs_[static_cast<std::size_t>(b.out_port)];
        if (!b.granted) {
          s += os.entry ? " waiting for output (held by packet " + std::to_string(os.entry->pkt->id) + ")"
                        : " waiting for grant";
        } else if (out_bound_[static_cast<std::size_t>(b.out_port)] &&
                   tx_[static_cast<std::size_t>(b.out_port)]->credits(now) <= 0) {
          s += " waiting for downstream credits";
        }
      }
      s += "]";
    });
    lines.push_back(s);
  }
  return lines;
}

void Switch::trace(sc_core::sc_trace_file* tf) {
  traced_ = true;
  // A trace samples at every kernel time step: every cycle in one of its own.
  if (sched_ != nullptr) sched_->every_cycle(std::string("VCD trace of ") + name());
  const std::string base = name();
  for (int i = 0; i < k_; ++i) {
    const std::string n = std::to_string(i);
    sc_core::sc_trace(tf, buffers_[static_cast<std::size_t>(i)]->traced_occupancy, base + ".in" + n + ".occupancy");
    OutputState& os = outputs_[static_cast<std::size_t>(i)];
    sc_core::sc_trace(tf, os.valid, base + ".out" + n + ".valid");
    sc_core::sc_trace(tf, os.head, base + ".out" + n + ".head");
    sc_core::sc_trace(tf, os.tail, base + ".out" + n + ".tail");
    sc_core::sc_trace(tf, os.busy, base + ".out" + n + ".busy");
    sc_core::sc_trace(tf, os.packet, base + ".out" + n + ".packet");
  }
}

}  // namespace wormcast::rtl
