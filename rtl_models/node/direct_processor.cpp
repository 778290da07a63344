#include "rtl_models/node/direct_processor.h"

#include <algorithm>
#include <stdexcept>

namespace wormcast::rtl {

void ProcessorParams::visit(ParamVisitor& v) {
  v.cycles("t_s", t_s,
           "software send overhead per message on the CPU, cycles (seed001 §1.8 t_S; default: §5.3 'low' "
           "10 us at 0.5 us per flit-cycle)");
  v.cycles("t_r", t_r, "software receive overhead per message on the CPU, cycles (seed001 §1.8 t_R; 8 us)");
  v.choice("send_model", send_model, {"per_channel", "in_order"},
           "seed001 §7.1: per_channel = model A (a send queued on its channel never delays sends on other "
           "channels); in_order = model B (a send to a busy channel holds the CPU until that channel is free)");
  v.flits("header_flits", header_flits, "header flits of a unicast message (an IR worm has one per address + 1)",
          1, 64);
  v.flits("rx_buffer", rx_buffer_flits, "sink buffer per internal channel (credits toward the router)", 1);
  v.flits("packet_bytes", packet_bytes,
          "0: a message is one packet; else a unicast message travels as packets of this many bytes (each with "
          "header_flits), back to back on its channel, complete when its last packet arrives (seed004's SCI: 64); "
          "IR worms are refused",
          0, 1 << 30);
}

DirectProcessor::DirectProcessor(sc_core::sc_module_name name, NodeId id, int num_nodes, int num_ports,
                                 const ProcessorParams& p, SimContext& ctx)
    : sc_core::sc_module(name), id_(id), num_nodes_(num_nodes), p_(p), ctx_(ctx), cpu_(ctx) {
  if (num_ports < 1) throw std::invalid_argument(std::string(this->name()) + ": needs at least one port");
  for (int i = 0; i < num_ports; ++i) {
    ports_.push_back(std::make_unique<Endpoint>(("port" + std::to_string(i)).c_str(), id, ctx));
    Endpoint& e = *ports_.back();
    e.on_receive = [this](const Packet& pk, Cycle at) { on_packet(pk, at); };
    e.on_sent = [this](const Packet& pk, Cycle) {
      if (pk.msg_index + 1 < pk.msg_packets) return;   // the message has left with its last packet
      --in_progress_;
      sent_event_.notify(sc_core::SC_ZERO_TIME);
    };
  }
}

// The program thread exists only when there is a program (an idle node has
// no process; a thread that returned at once would be one per node for nothing).
void DirectProcessor::end_of_elaboration() {
  if (!program_) return;
  sc_core::sc_spawn_options opts;
  sc_core::sc_spawn(sc_core::sc_bind(&DirectProcessor::program_thread, this), "program", &opts);
}

void DirectProcessor::program_thread() { program_(*this); }

void DirectProcessor::check_dests(const std::vector<NodeId>& dests, int bytes) const {
  const std::string me = name();
  if (dests.empty()) throw std::invalid_argument(me + ": send with no destination");
  for (NodeId d : dests) {
    if (d < 0 || d >= num_nodes_)
      throw std::invalid_argument(me + ": message to node " + std::to_string(d) + ", which does not exist (nodes 0.." +
                                  std::to_string(num_nodes_ - 1) + ")");
    if (d == id_) throw std::invalid_argument(me + ": message to itself");
  }
  std::vector<NodeId> sorted = dests;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    throw std::invalid_argument(me + ": an IR worm names a destination twice");
  if (bytes <= 0)
    throw std::invalid_argument(me + ": message of " + std::to_string(bytes) + " bytes (must be at least 1)");
  if (dests.size() > 1 && p_.packet_bytes > 0)
    throw std::invalid_argument(me + ": an IR worm with processor.packet_bytes " + std::to_string(p_.packet_bytes) +
                                " (IR worms are one packet: set packet_bytes 0)");
}

void DirectProcessor::inject_background(PacketPtr p, Cycle at) {
  p->background = true;
  const int pair = ports_.size() == 1 || !selector_ ? 0 : selector_(p->header.dest);
  port(pair).inject_created_at(std::move(p), at);
}

// Charges t_S for the message in sending_dests_ and queues its packet on
// the channel of its first hop. The CPU is released after t_S (model A) or
// once the channel is free (model B).
std::uint64_t DirectProcessor::post(HeaderKind kind, NodeId first, int header_flits, int bytes) {
  const std::uint64_t id = ctx_.new_message_id();
  ctx_.on_message_sent(id, id_, sending_dests_, bytes, now());
  busy_for(p_.t_s);
  const int pair = ports_.size() == 1 || !selector_ ? 0 : selector_(first);
  if (pair < 0 || pair >= ports())
    throw std::logic_error(std::string(name()) + ": pair selector gave channel " + std::to_string(pair) + " of " +
                           std::to_string(ports()));
  Endpoint& e = *ports_[static_cast<std::size_t>(pair)];
  if (p_.send_model == "in_order")
    while (e.queued_packets() > 0) sc_core::wait(sent_event_);
  ctx_.on_message_posted(id, now());
  // A compound worm (kind multicast) is one packet: check_dests refused packet_bytes for it.
  const int per_packet = kind == HeaderKind::unicast && p_.packet_bytes > 0 ? p_.packet_bytes : bytes;
  const int packets = (bytes + per_packet - 1) / per_packet;
  for (int i = 0; i < packets; ++i) {
    auto pk = std::make_shared<Packet>();
    pk->header.kind = kind;
    pk->header.dest = first;
    if (kind == HeaderKind::multicast) pk->header.dests = sending_dests_;
    pk->header.compound = std::move(sending_compound_);
    pk->header_flits = header_flits;
    pk->payload_bytes = std::min(per_packet, bytes - i * per_packet);
    pk->length = header_flits + pk->payload_bytes;
    pk->message = id;
    pk->msg_bytes = bytes;
    pk->msg_index = i;
    pk->msg_packets = packets;
    pk->dma_in_done = pk->ns_done = now();
    e.inject(std::move(pk));
  }
  ++in_progress_;
  return id;
}

std::uint64_t DirectProcessor::send(NodeId dest, int bytes) {
  sending_dests_.assign(1, dest);
  check_dests(sending_dests_, bytes);
  return post(HeaderKind::unicast, dest, p_.header_flits, bytes);
}

std::uint64_t DirectProcessor::send_ir(const std::vector<NodeId>& dests, int bytes) {
  check_dests(dests, bytes);
  if (dests.size() == 1) return send(dests.front(), bytes);
  sending_dests_ = dests;
  return post(HeaderKind::multicast, dests.front(), static_cast<int>(dests.size()) + 1, bytes);
}

std::uint64_t DirectProcessor::send_compound(const std::vector<algo::CompoundBlock>& blocks, int bytes) {
  std::vector<NodeId> dests;
  for (const algo::CompoundBlock& b : blocks) {
    dests.push_back(b.dest);
    for (NodeId n : b.later)
      if (n < 0 || n >= num_nodes_)
        throw std::invalid_argument(std::string(name()) + ": compound header names node " + std::to_string(n) +
                                    ", which does not exist (nodes 0.." + std::to_string(num_nodes_ - 1) + ")");
  }
  check_dests(dests, bytes);
  sending_dests_ = std::move(dests);
  sending_compound_ = std::make_shared<const std::vector<NodeId>>(algo::encode_compound_header(blocks));
  return post(HeaderKind::multicast, sending_dests_.front(), static_cast<int>(sending_compound_->size()), bytes);
}

std::vector<std::uint64_t> DirectProcessor::send_all(const std::vector<DirectSend>& sends) {
  for (const DirectSend& s : sends) check_dests(s.dests, s.bytes);   // refuse the batch before sending any
  batch_ids_.clear();
  for (const DirectSend& s : sends) batch_ids_.push_back(send_ir(s.dests, s.bytes));
  return batch_ids_;
}

void DirectProcessor::wait_sends() {
  while (in_progress_ > 0) sc_core::wait(sent_event_);
}

std::uint64_t DirectProcessor::send_multicast(const std::vector<NodeId>&, unsigned, int, int) {
  throw std::invalid_argument(std::string(name()) +
                              ": NI-based k-binomial multicast needs an NI (node.model host_ni); a direct-network "
                              "processor sends unicasts and IR worms (send, send_ir)");
}

std::uint64_t DirectProcessor::send_worm(const WormSend&) {
  throw std::invalid_argument(std::string(name()) +
                              ": switch-based worms are for switch networks; a direct-network processor sends "
                              "IR worms (send_ir)");
}

// A whole packet of a message arrived on some channel (an IR local copy or a
// worm's end): the message is complete in memory; receive() charges t_R.
void DirectProcessor::on_packet(const Packet& p, Cycle at) {
  if (p.message == 0) return;   // packet traffic, not software's
  Cycle injected = p.injected;
  if (p.msg_packets > 1) {   // in any order (several VCs of a class may reorder them)
    const auto it = partial_.try_emplace(p.message, 0, p.injected).first;
    it->second.second = std::min(it->second.second, p.injected);   // the message's head left with its first packet
    if (++it->second.first < p.msg_packets) return;
    injected = it->second.second;
    partial_.erase(it);
  }
  completions_.push_back(Arrival{p.message, p.src, p.msg_bytes, injected, at, p.ns_done, p.header.compound});
  arrival_event_.notify(sc_core::SC_ZERO_TIME);
}

bool DirectProcessor::wait_for_message(Cycle until) {
  return cpu_.wait_for_message([this] { return !completions_.empty(); }, arrival_event_, until);
}

// Latency breakdown: host_send = t_S (and, model B, waiting for the
// channel), ni_send = waiting in the channel queue until the head leaves,
// network = head injected to tail delivered, host_receive = waiting for the
// CPU + t_R; the I/O-bus and NI-receive parts are zero (no NI).
ReceivedMessage DirectProcessor::receive() {
  while (completions_.empty()) sc_core::wait(arrival_event_);
  receiving_ = completions_.front();
  completions_.pop_front();
  busy_for(p_.t_r);
  MessageTimes t;
  t.dma_in_done = receiving_.posted;
  t.ns_done = receiving_.injected;
  t.arrived = t.nr_done = t.dma_out_done = receiving_.arrived;
  t.received = now();
  ctx_.on_message_received(receiving_.message, id_, t);
  return ReceivedMessage{receiving_.message, receiving_.src,      receiving_.bytes,
                         receiving_.arrived, t.received,         {},
                         std::move(receiving_.header)};
}

}  // namespace wormcast::rtl
