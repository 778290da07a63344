#include "rtl_models/node/network_interface.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "algorithms/kbinomial_tree.h"
#include "rtl_models/core/worm_packet.h"

namespace wormcast::rtl {

NetworkInterface::NetworkInterface(sc_core::sc_module_name name, NodeId id, const NiParams& p, SimContext& ctx,
                                   bool vct)
    : sc_core::sc_module(name), host_port("host_port"), dma("dma"), out("out"), in("in"), id_(id), p_(p),
      ctx_(ctx), fw_(make_firmware(p.firmware)), injector_(ctx, vct),
      assembler_(ctx, this->name(), /*return_credits_at_once=*/false), wake_(ctx.clock) {
  host_port.register_b_transport(this, &NetworkInterface::b_transport);
  injector_.on_sent = [this](const PacketPtr& c, Cycle) {
    auto it = copy_of_.find(c.get());
    if (it == copy_of_.end()) return;
    const Packet* parent = it->second;
    copy_of_.erase(it);
    release(parent);
  };
  SC_THREAD(send_dma_thread);
  SC_THREAD(processor_thread);
  SC_THREAD(receive_dma_thread);
  separate_engines_ = p_.engines == "separate";
  if (separate_engines_) SC_THREAD(receive_engine_thread);
}

NetworkInterface::~NetworkInterface() {
  // A run can end with a DMA write in flight: the completion is a member, not
  // the payload's to free.
  dma_write_.clear_extension(&completion_);
}

void NetworkInterface::end_of_elaboration() {
  spawn_link_method(this, &NetworkInterface::link_tick, wake_, out, in, this, /*run_at_start=*/false, "link");
}

void NetworkInterface::b_transport(::tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  (void)delay;   // descriptor posting costs no time here: t_hs covers it
  trans.set_response_status(::tlm::TLM_OK_RESPONSE);
  if (trans.is_write() && trans.get_address() == tlm::kRegSendDoorbell &&
      trans.get_data_length() == sizeof(tlm::SendDescriptor)) {
    SendJob job;
    std::memcpy(&job.d, trans.get_data_ptr(), sizeof job.d);
    if (job.d.bytes == 0) {
      trans.set_response_status(::tlm::TLM_GENERIC_ERROR_RESPONSE);
      return;
    }
    if (auto* mc = trans.get_extension<tlm::MulticastHeaderExtension>()) {
      if (mc->worm != 0) {
        if (!accept_worm(*mc, job)) {
          trans.set_response_status(::tlm::TLM_GENERIC_ERROR_RESPONSE);
          return;
        }
      } else if (!mc->chain.empty()) {
        if (!accept_multicast(*mc, job)) {
          trans.set_response_status(::tlm::TLM_GENERIC_ERROR_RESPONSE);
          return;
        }
      } else {
        job.dests.assign(mc->dests.begin(), mc->dests.end());
      }
    }
    job.posted = ctx_.clock.now();
    jobs_.push_back(std::move(job));
    job_event_.notify(sc_core::SC_ZERO_TIME);
    return;
  }
  if (trans.is_read() && trans.get_address() == tlm::kRegStatus &&
      trans.get_data_length() == sizeof(tlm::NiStatus)) {
    tlm::NiStatus st;
    st.send_queue_packets = static_cast<std::uint32_t>(send_queue_packets_);
    st.receive_queue_flits = static_cast<std::uint32_t>(occupancy_);
    st.firmware_busy = processing_ ? 1 : 0;
    std::memcpy(trans.get_data_ptr(), &st, sizeof st);
    return;
  }
  trans.set_response_status(::tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

// A k-binomial multicast descriptor: the chain must start at this node and
// name each destination once; the root's relay header covers the whole chain.
bool NetworkInterface::accept_multicast(const tlm::MulticastHeaderExtension& mc, SendJob& job) const {
  if (mc.chain.size() < 2 || mc.chain.front() != id_ || mc.k < 1 || mc.construction > 1) return false;
  std::vector<NodeId> dests(mc.chain.begin() + 1, mc.chain.end());
  std::sort(dests.begin(), dests.end());
  if (std::adjacent_find(dests.begin(), dests.end()) != dests.end() ||
      std::binary_search(dests.begin(), dests.end(), id_) || dests.front() < 0)
    return false;
  const algo::RelayBlock root = algo::root_block(mc.chain.size(), mc.k);
  auto relay = std::make_shared<MulticastRelay>();
  relay->chain = std::make_shared<const std::vector<NodeId>>(mc.chain.begin(), mc.chain.end());
  relay->first = root.first;
  relay->last = root.last;
  relay->steps = root.steps;
  relay->k = mc.k;
  relay->construction = mc.construction;
  job.dests = std::move(dests);
  job.relay = std::move(relay);
  return true;
}

// A switch-based worm descriptor: a known encoding, a header, destinations
// that exist elsewhere.
bool NetworkInterface::accept_worm(const tlm::MulticastHeaderExtension& mc, SendJob& job) const {
  if (mc.worm > static_cast<std::uint8_t>(WormEncoding::tree) || mc.worm_bits.empty() || mc.dests.empty()) return false;
  for (auto d : mc.dests)
    if (d < 0 || d == id_) return false;
  job.dests.assign(mc.dests.begin(), mc.dests.end());
  std::sort(job.dests.begin(), job.dests.end());
  job.worm = static_cast<WormEncoding>(mc.worm);
  job.worm_bits = std::make_shared<const std::vector<bool>>(mc.worm_bits);
  job.relay_worm = mc.relay_worm;
  return true;
}

void NetworkInterface::change_occupancy(int delta) {
  const Cycle now = ctx_.clock.now();
  stats_.occupancy_integral += static_cast<double>(occupancy_) * static_cast<double>(now - occ_since_);
  occ_since_ = now;
  occupancy_ += delta;
  stats_.peak_flits = std::max(stats_.peak_flits, occupancy_);
}

NiStats NetworkInterface::stats() const {
  NiStats s = stats_;
  s.occupancy_integral += static_cast<double>(occupancy_) * static_cast<double>(ctx_.clock.now() - occ_since_);
  return s;
}

void NetworkInterface::release(const Packet* p) {
  auto it = held_.find(p);
  if (it == held_.end()) throw std::logic_error(std::string(name()) + ": release of a packet not in NI memory");
  if (--it->second.refs > 0) return;
  const int flits = it->second.flits;
  const bool received = it->second.received;
  held_.erase(it);
  change_occupancy(-flits);
  if (received) {
    in->return_credits(flits, ctx_.clock.now());   // receive-queue space back to the switch
  } else {
    --send_queue_packets_;
    send_space_event_.notify(sc_core::SC_ZERO_TIME);
  }
}

void NetworkInterface::send_dma_thread() {
  dma_read_data_.assign(static_cast<std::size_t>(p_.packet_size), 0);
  for (;;) {
    while (jobs_.empty()) sc_core::wait(job_event_);
    dma_job_ = std::move(jobs_.front());
    jobs_.pop_front();
    const SendJob& job = dma_job_;
    const int total = static_cast<int>(job.d.bytes);
    const int packets = (total + p_.packet_size - 1) / p_.packet_size;
    for (int i = 0; i < packets; ++i) {
      while (send_queue_packets_ >= p_.send_queue) sc_core::wait(send_space_event_);
      const int bytes = std::min(p_.packet_size, total - i * p_.packet_size);
      ::tlm::tlm_generic_payload& t = dma_read_;
      tlm::prepare(t, ::tlm::TLM_READ_COMMAND,
                   job.d.host_addr + static_cast<std::uint64_t>(i) * static_cast<std::uint64_t>(p_.packet_size),
                   dma_read_data_.data(), static_cast<unsigned>(bytes));
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      dma->b_transport(t, delay);
      if (delay > sc_core::SC_ZERO_TIME) sc_core::wait(delay);
      if (t.is_response_error())
        throw std::runtime_error(std::string(name()) + ": send DMA read failed: " + t.get_response_string());
      ++ctx_.node_progress;
      auto pkt = std::make_shared<Packet>();   // no wait() from here to the end of the iteration
      pkt->message = job.d.message;
      pkt->src = id_;
      if (job.dests.empty()) {
        pkt->header.dest = job.d.dest;
      } else {
        pkt->header.kind = HeaderKind::multicast;
        pkt->header.dests = job.dests;
        pkt->header.relay = job.relay;
      }
      pkt->length = bytes + p_.header_flits;
      pkt->header_flits = std::max(1, p_.header_flits);
      if (job.worm != WormEncoding::none) set_worm_header(*pkt, job, bytes);
      pkt->payload_bytes = bytes;
      pkt->msg_bytes = total;
      pkt->msg_index = i;
      pkt->msg_packets = packets;
      pkt->dma_in_done = ctx_.clock.now();
      if (pkt->header.relay && p_.step_cycles > 0) {   // step 1 starts with the first packet in NI memory
        if (i == 0) {
          auto r = std::make_shared<MulticastRelay>(*job.relay);
          r->step_origin = ctx_.clock.now();
          dma_job_.relay = std::move(r);
        }
        pkt->header.relay = job.relay;
      }
      held_[pkt.get()] = Held{1, pkt->length, false, pkt};
      ++send_queue_packets_;
      change_occupancy(+pkt->length);
      work_.push_back(Work{false, std::move(pkt)});
      work_event_.notify(sc_core::SC_ZERO_TIME);
    }
    dma_job_ = SendJob{};
  }
}

// A worm's header is its encoding (ceil(bits / 8) flits), replacing ni.header_flits.
void NetworkInterface::set_worm_header(Packet& pkt, const SendJob& job, int bytes) {
  pkt.header.worm = job.worm;
  pkt.header.worm_bits = job.worm_bits;
  pkt.header.relay_worm = job.relay_worm;
  pkt.header_flits = worm_header_flits(job.worm_bits->size());
  pkt.length = bytes + pkt.header_flits;
}

void NetworkInterface::processor_thread() {
  for (;;) {
    while (work_.empty()) sc_core::wait(work_event_);
    work_item_ = std::move(work_.front());
    work_.pop_front();
    const Work& w = work_item_;
    processing_ = true;
    if (w.receive && p_.step_cycles > 0 && w.pkt->header.relay) {
      // Step-timing mode: t_nr overlaps sending (the unit-step model); the
      // packet counts as received in the step its tail arrived in.
      stats_.busy += p_.t_nr;
      ++ctx_.node_progress;
      w.pkt->nr_done = w.pkt->arrived + p_.t_nr;
      const Cycle origin = w.pkt->header.relay->step_origin;
      const auto step = static_cast<unsigned>((w.pkt->arrived - origin) / p_.step_cycles + 1);
      if (w.pkt->nr_done > origin + step * p_.step_cycles) ++stats_.step_overruns;
      stats_.last_step = std::max(stats_.last_step, step);
      fw_->on_receive(*this, w.pkt);
    } else if (w.receive) {
      if (!w.nr_charged) {
        sc_core::wait(ctx_.clock.delay(p_.t_nr));
        stats_.busy += p_.t_nr;
        ++ctx_.node_progress;
        w.pkt->nr_done = ctx_.clock.now();
      }
      fw_->on_receive(*this, w.pkt);
    } else {
      fw_->on_send_queue(*this, w.pkt);
    }
    release(w.pkt.get());   // the processor's own reference
    work_item_ = Work{};
    processing_ = false;
  }
}

void NetworkInterface::send_copy(const PacketPtr& pkt, const PacketHeader& header) {
  const bool worm = header.kind == HeaderKind::multicast && header.worm != WormEncoding::none;
  if (!worm && (header.kind != HeaderKind::unicast || header.dest < 0 || header.dest == id_))
    throw std::logic_error(std::string(name()) + ": firmware sent a copy with a header that is not a unicast to "
                           "another node (dest " + std::to_string(header.dest) + ")");
  if (!held_.count(pkt.get()))
    throw std::logic_error(std::string(name()) + ": firmware sent a copy of a packet not in NI memory");
  if (p_.step_cycles > 0 && pkt->header.relay) wait_for_send_step(*pkt);
  sc_core::wait(ctx_.clock.delay(p_.t_ns));
  stats_.busy += p_.t_ns;
  ++ctx_.node_progress;
  const Cycle now = ctx_.clock.now();
  auto c = std::make_shared<Packet>(*pkt);
  c->header = header;
  c->ns_done = now;
  ctx_.admit(*c, id_, now);
  ++held_.at(pkt.get()).refs;
  copy_of_[c.get()] = pkt.get();
  ++stats_.packets_sent;
  handoff_.emplace_back(now + 1, std::move(c));   // registered hand-off to the link interface
  wake_.at(now + 1);
}

// Past the NI processor and its memory: the link interface sends it with the
// firmware's copies, in hand-off order (the copies are handed off for the
// next cycle, so a packet for a later cycle goes in its place, not last).
void NetworkInterface::inject_background(PacketPtr p, Cycle at) {
  const Cycle now = ctx_.clock.now();
  if (at < now) throw std::logic_error(std::string(name()) + ": background packet for a past cycle");
  const Cycle start = std::max(at, now + 1);
  p->background = true;
  ctx_.admit(*p, id_, at);
  auto pos = std::upper_bound(handoff_.begin(), handoff_.end(), start,
                              [](Cycle c, const std::pair<Cycle, PacketPtr>& e) { return c < e.first; });
  handoff_.insert(pos, {start, std::move(p)});
  wake_.at(start);
}

void NetworkInterface::deliver_to_host(const PacketPtr& pkt) {
  ++held_.at(pkt.get()).refs;
  to_host_.push_back(pkt);
  to_host_event_.notify(sc_core::SC_ZERO_TIME);
}

// Step-timing mode: a copy goes out at the start of the earliest step after
// this NI's previous send of the message and after the step the packet was
// received in (the source holds its packets at step 0), as algo::simulate_steps.
void NetworkInterface::wait_for_send_step(const Packet& pkt) {
  const Cycle origin = pkt.header.relay->step_origin;
  const unsigned received = pkt.src == id_ && pkt.header.kind == HeaderKind::multicast
                                ? 0
                                : static_cast<unsigned>((pkt.arrived - origin) / p_.step_cycles + 1);
  unsigned& last = last_send_step_[pkt.message];
  const unsigned step = std::max(last, received) + 1;
  last = step;
  const Cycle start = origin + static_cast<Cycle>(step - 1) * p_.step_cycles;
  if (ctx_.clock.now() > start) {
    ++stats_.step_overruns;
  } else if (ctx_.clock.now() < start) {
    sc_core::wait(ctx_.clock.until(start));
  }
}

void NetworkInterface::retain_packet(const PacketPtr& pkt) {
  auto it = held_.find(pkt.get());
  if (it == held_.end())
    throw std::logic_error(std::string(name()) + ": firmware retained a packet not in NI memory");
  ++it->second.refs;
  ++it->second.retained;
  ++retained_;
  stats_.retained_peak = std::max(stats_.retained_peak, retained_);
}

void NetworkInterface::release_packet(const PacketPtr& pkt) {
  auto it = held_.find(pkt.get());
  if (it == held_.end() || it->second.retained == 0)
    throw std::logic_error(std::string(name()) + ": firmware released a packet it had not retained");
  --it->second.retained;
  --retained_;
  release(pkt.get());
}

void NetworkInterface::receive_dma_thread() {
  dma_write_data_.assign(static_cast<std::size_t>(p_.packet_size), 0);
  for (;;) {
    while (to_host_.empty()) sc_core::wait(to_host_event_);
    dma_write_pkt_ = std::move(to_host_.front());
    to_host_.pop_front();
    const Packet& pkt = *dma_write_pkt_;
    ::tlm::tlm_generic_payload& t = dma_write_;
    tlm::prepare(t, ::tlm::TLM_WRITE_COMMAND,
                 tlm::kHostReceiveBuffer +
                     static_cast<std::uint64_t>(pkt.msg_index) * static_cast<std::uint64_t>(p_.packet_size),
                 dma_write_data_.data(), static_cast<unsigned>(pkt.payload_bytes));
    int& done = arrived_packets_[pkt.message];
    ++done;
    tlm::CompletionExtension& ext = completion_;
    const bool completes = done == pkt.msg_packets;
    if (completes) {
      arrived_packets_.erase(pkt.message);
      ext = tlm::CompletionExtension{};
      ext.message = pkt.message;
      ext.src = pkt.src;
      ext.bytes = static_cast<std::uint32_t>(pkt.msg_bytes);
      ext.dma_in_done = pkt.dma_in_done;
      ext.ns_done = pkt.ns_done;
      ext.arrived = pkt.arrived;
      ext.nr_done = pkt.nr_done;
      ext.relay_worm = pkt.header.relay_worm;
      t.set_extension(&ext);
    }
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    dma->b_transport(t, delay);
    if (delay > sc_core::SC_ZERO_TIME) sc_core::wait(delay);
    if (completes) t.clear_extension(&ext);
    if (t.is_response_error())
      throw std::runtime_error(std::string(name()) + ": receive DMA write failed: " + t.get_response_string());
    ++ctx_.node_progress;
    release(&pkt);
    dma_write_pkt_.reset();
  }
}

// --- separate send/receive engines (ni.engines: separate, seed002 §9) -------
// An arrival goes to the receive engine, which charges t_nr in parallel with
// the processor's sending, then queues the packet for the firmware (DMA to
// the host, forwarding). Step-timing mode already overlaps t_nr with
// sending, so its relayed packets skip the engine.
void NetworkInterface::queue_received(const PacketPtr& p) {
  if (separate_engines_ && !(p_.step_cycles > 0 && p->header.relay)) {
    rx_work_.push_back(p);
    rx_event_.notify(sc_core::SC_ZERO_TIME);
    return;
  }
  work_.push_back(Work{true, p});
  work_event_.notify(sc_core::SC_ZERO_TIME);
}

void NetworkInterface::receive_engine_thread() {
  for (;;) {
    while (rx_work_.empty()) sc_core::wait(rx_event_);
    rx_item_ = std::move(rx_work_.front());
    rx_work_.pop_front();
    sc_core::wait(ctx_.clock.delay(p_.t_nr));
    stats_.receive_engine_busy += p_.t_nr;
    ++ctx_.node_progress;
    rx_item_->nr_done = ctx_.clock.now();
    work_.push_back(Work{true, std::move(rx_item_), /*nr_charged=*/true});
    work_event_.notify(sc_core::SC_ZERO_TIME);
    rx_item_.reset();
  }
}

void NetworkInterface::link_tick() {
  const Cycle now = ctx_.clock.now();
  if (!wake_.begin_cycle(now)) return;
  bool active = false;
  Cycle next = UINT64_MAX;
  tx_valid_ = rx_valid_ = false;
  while (!handoff_.empty() && handoff_.front().first <= now) {
    injector_.push(std::move(handoff_.front().second));
    handoff_.pop_front();
  }
  if (!handoff_.empty()) next = handoff_.front().first;
  if (out.size() > 0 && injector_.step(*out.operator->(), now, next)) active = tx_valid_ = true;
  if (in.size() > 0 && assembler_.step(*in.operator->(), now, next, [&](const PacketPtr& p, Cycle at) {
        p->arrived = at;
        ctx_.on_delivered(*p, id_, at);
        if (p->background) {   // taken off the link at line rate, its credits back at once
          in->return_credits(p->length, now);
          if (!on_background)
            throw InvariantViolation(std::string(name()) + ": background packet " + std::to_string(p->id) +
                                     " arrived but nothing receives background traffic here");
          on_background(*p, at);
          return;
        }
        held_[p.get()] = Held{1, p->length, true, p};
        change_occupancy(+p->length);
        ++stats_.packets_received;
        queue_received(p);
      }))
    active = rx_valid_ = true;
  if (active) next = now + 1;
  if (next != UINT64_MAX) wake_.at(next);
}

void NetworkInterface::trace(sc_core::sc_trace_file* tf) {
  const std::string base = name();
  sc_core::sc_trace(tf, occupancy_, base + ".memory_flits");
  sc_core::sc_trace(tf, send_queue_packets_, base + ".send_queue_packets");
  sc_core::sc_trace(tf, processing_, base + ".firmware_busy");
  sc_core::sc_trace(tf, tx_valid_, base + ".tx_valid");
  sc_core::sc_trace(tf, rx_valid_, base + ".rx_valid");
}

std::string NetworkInterface::describe() const {
  std::string s = std::string(name()) + ": " + std::to_string(jobs_.size()) + " descriptors, " +
                  std::to_string(rx_work_.size()) + " arrivals for the receive engine, " +
                  std::to_string(work_.size()) + " firmware items, " + std::to_string(to_host_.size()) +
                  " packets waiting for DMA to host, " + std::to_string(occupancy_) + " flits in NI memory (" + std::to_string(retained_) +
                  " packets retained by the firmware); link: " +
                  injector_.describe();
  if (assembler_.receiving()) s += ", " + assembler_.describe();
  return s;
}

}  // namespace wormcast::rtl
