#include "rtl_models/node/host_processor.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace wormcast::rtl {

HostProcessor::HostProcessor(sc_core::sc_module_name name, NodeId id, int num_nodes, const HostParams& p,
                             SimContext& ctx)
    : sc_core::sc_module(name), ni("ni"), memory("memory"), id_(id), num_nodes_(num_nodes), p_(p), ctx_(ctx),
      cpu_(ctx) {
  memory.register_b_transport(this, &HostProcessor::memory_b_transport);
  SC_THREAD(program_thread);
}

void HostProcessor::program_thread() {
  if (program_) program_(*this);
}

std::uint64_t HostProcessor::send(NodeId dest, int bytes) {
  if (dest < 0 || dest >= num_nodes_)
    throw std::invalid_argument(std::string(name()) + ": message to node " + std::to_string(dest) +
                                ", which does not exist (nodes 0.." + std::to_string(num_nodes_ - 1) + ")");
  if (dest == id_) throw std::invalid_argument(std::string(name()) + ": message to itself");
  if (bytes <= 0)
    throw std::invalid_argument(std::string(name()) + ": message of " + std::to_string(bytes) +
                                " bytes (must be at least 1)");
  const std::uint64_t id = ctx_.new_message_id();
  ctx_.on_message_sent(id, id_, {dest}, bytes, now());
  busy_for(p_.cost(p_.t_hs, bytes));
  ctx_.on_message_posted(id, now());
  tlm::SendDescriptor& d = doorbell_data_;
  d = tlm::SendDescriptor{};
  d.message = id;
  d.dest = dest;
  d.bytes = static_cast<std::uint32_t>(bytes);
  d.host_addr = 0x1000'0000ULL;
  post(nullptr);
  return id;
}

// Rings the NI's send doorbell with the descriptor in doorbell_data_. The payload and the descriptor are
// members: an SC_THREAD may be suspended here when the simulation ends, and owning locals would leak.
void HostProcessor::post(tlm::MulticastHeaderExtension* mc) {
  ::tlm::tlm_generic_payload& t = doorbell_;
  tlm::prepare(t, ::tlm::TLM_WRITE_COMMAND, tlm::kRegSendDoorbell, &doorbell_data_, sizeof doorbell_data_);
  if (mc) t.set_extension(mc);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  try {
    ni->b_transport(t, delay);
  } catch (...) {
    if (mc) t.clear_extension(mc);   // the payload must not delete a member extension
    throw;
  }
  if (mc) t.clear_extension(mc);
  if (delay > sc_core::SC_ZERO_TIME) {   // an NI that annotates the doorbell's cost (ours does not)
    sc_core::wait(delay);
    ProgramCpu::see_this_cycle();
  }
  if (t.is_response_error())
    throw std::runtime_error(std::string(name()) + ": NI rejected the send descriptor: " + t.get_response_string());
}

std::uint64_t HostProcessor::send_multicast(const std::vector<NodeId>& chain, unsigned k, int construction,
                                            int bytes) {
  check_multicast(chain, k, construction, bytes);
  const std::uint64_t id = ctx_.new_message_id();
  ctx_.on_message_sent(id, id_, std::vector<NodeId>(chain.begin() + 1, chain.end()), bytes, now());
  busy_for(p_.cost(p_.t_hs, bytes));
  ctx_.on_message_posted(id, now());
  tlm::SendDescriptor& d = doorbell_data_;
  d = tlm::SendDescriptor{};
  d.message = id;
  d.dest = chain[1];
  d.bytes = static_cast<std::uint32_t>(bytes);
  d.host_addr = 0x1000'0000ULL;
  tlm::MulticastHeaderExtension& mc = doorbell_multicast_;
  mc.dests.clear();
  mc.worm = 0;
  mc.worm_bits.clear();
  mc.relay_worm.reset();
  mc.chain.assign(chain.begin(), chain.end());
  mc.k = k;
  mc.construction = static_cast<std::uint8_t>(construction);
  post(&mc);
  return id;
}

std::uint64_t HostProcessor::send_worm(const WormSend& w) {
  check_worm(w);
  const std::uint64_t id = ctx_.new_message_id();
  ctx_.on_message_sent(id, id_, w.dests, w.bytes, now());
  busy_for(p_.cost(p_.t_hs, w.bytes));
  ctx_.on_message_posted(id, now());
  tlm::SendDescriptor& d = doorbell_data_;
  d = tlm::SendDescriptor{};
  d.message = id;
  d.dest = w.dests.front();
  d.bytes = static_cast<std::uint32_t>(w.bytes);
  d.host_addr = 0x1000'0000ULL;
  tlm::MulticastHeaderExtension& mc = doorbell_multicast_;
  mc.chain.clear();
  mc.dests.assign(w.dests.begin(), w.dests.end());
  mc.worm = static_cast<std::uint8_t>(w.encoding);
  mc.worm_bits = w.header_bits;
  mc.relay_worm = w.relay_worm;
  post(&mc);
  return id;
}

void HostProcessor::check_worm(const WormSend& w) const {
  const std::string me = name();
  if (w.encoding == WormEncoding::none || w.header_bits.empty())
    throw std::invalid_argument(me + ": worm without a header encoding");
  if (w.dests.empty()) throw std::invalid_argument(me + ": worm with an empty destination set");
  std::vector<NodeId> d = w.dests;
  std::sort(d.begin(), d.end());
  if (d.front() < 0 || d.back() >= num_nodes_)
    throw std::invalid_argument(me + ": worm to a node that does not exist (nodes 0.." +
                                std::to_string(num_nodes_ - 1) + ")");
  if (std::binary_search(d.begin(), d.end(), id_)) throw std::invalid_argument(me + ": worm to itself");
  if (std::adjacent_find(d.begin(), d.end()) != d.end())
    throw std::invalid_argument(me + ": worm names a destination twice");
  if (w.bytes <= 0) throw std::invalid_argument(me + ": worm of " + std::to_string(w.bytes) + " bytes");
}

void HostProcessor::check_multicast(const std::vector<NodeId>& chain, unsigned k, int construction, int bytes) const {
  const std::string me = name();
  if (chain.size() < 2 || chain.front() != id_)
    throw std::invalid_argument(me + ": a multicast chain starts at the sending node and names a destination");
  std::vector<NodeId> dests(chain.begin() + 1, chain.end());
  std::sort(dests.begin(), dests.end());
  if (dests.front() < 0 || dests.back() >= num_nodes_ || std::adjacent_find(dests.begin(), dests.end()) != dests.end() ||
      std::binary_search(dests.begin(), dests.end(), id_))
    throw std::invalid_argument(me + ": multicast chain names a node twice or a node that does not exist");
  if (k < 1 || construction < 0 || construction > 1 || bytes <= 0)
    throw std::invalid_argument(me + ": multicast with k < 1, an unknown construction or no bytes");
}

bool HostProcessor::wait_for_message(Cycle until) {
  return cpu_.wait_for_message([this] { return !completions_.empty(); }, arrival_event_, until);
}

ReceivedMessage HostProcessor::receive() {
  while (completions_.empty()) sc_core::wait(arrival_event_);
  // A member, not a local: it holds the relay payload across the t_hr wait.
  receiving_ = completions_.front();
  const tlm::CompletionExtension& c = receiving_;
  const Cycle completed = completion_times_.front();
  completions_.pop_front();
  completion_times_.pop_front();
  busy_for(p_.cost(p_.t_hr, static_cast<int>(c.bytes)));
  MessageTimes t;
  t.dma_in_done = c.dma_in_done;
  t.ns_done = c.ns_done;
  t.arrived = c.arrived;
  t.nr_done = c.nr_done;
  t.dma_out_done = completed;
  t.received = now();
  ctx_.on_message_received(c.message, id_, t);
  ReceivedMessage m{c.message, c.src, static_cast<int>(c.bytes), completed, t.received, std::move(receiving_.relay_worm),
                    nullptr};
  receiving_.relay_worm.reset();
  return m;
}

void HostProcessor::compute(Cycle cycles) { busy_for(cycles); }

void HostProcessor::memory_b_transport(::tlm::tlm_generic_payload& trans, sc_core::sc_time&) {
  // Host memory for DMA: data is not stored (no model computes on it); the
  // access is checked and counted, and completions are queued.
  if (trans.get_data_ptr() == nullptr || trans.get_data_length() == 0 || trans.get_byte_enable_ptr()) {
    trans.set_response_status(::tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  dma_bytes_ += trans.get_data_length();
  if (trans.is_write()) {
    if (auto* c = trans.get_extension<tlm::CompletionExtension>()) {
      completions_.push_back(*c);
      completion_times_.push_back(ctx_.clock.now());
      arrival_event_.notify(sc_core::SC_ZERO_TIME);
    }
  }
  trans.set_response_status(::tlm::TLM_OK_RESPONSE);
}

}  // namespace wormcast::rtl
