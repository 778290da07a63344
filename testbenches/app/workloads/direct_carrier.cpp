#include "testbenches/app/workloads/direct_carrier.h"

#include <stdexcept>
#include <string>

#include "algorithms/compound_header.h"
#include "algorithms/plan_network.h"
#include "rtl_models/node/direct_processor.h"
#include "rtl_models/node/processor_node.h"
#include "testbenches/app/config.h"
#include "topologies/networks/direct_network_kind.h"

namespace wormcast::tb {

namespace {

// A unicast; its receiver's part travels out of band, keyed by message id.
struct UnicastCarrier : DirectCarrier {
  std::uint64_t send(rtl::HostApi& h, const algo::LocalSend& s, int bytes, CarriedParts& parts) const override {
    const algo::CompoundBlock& b = s.blocks.at(0);
    const std::uint64_t id = h.send(b.dest, bytes);   // waits t_S
    std::vector<rtl::NodeId>& part = parts[id];       // in flight for at least a hop: written before it can arrive
    part.reserve(b.later.size() + 1);
    part.push_back(b.dest);
    part.insert(part.end(), b.later.begin(), b.later.end());
    return id;
  }
  std::vector<rtl::NodeId> take(const rtl::ReceivedMessage& m, rtl::NodeId, CarriedParts& parts) const override {
    const auto it = parts.find(m.id);
    if (it == parts.end())
      throw std::logic_error("direct multicast: message " + std::to_string(m.id) + " carries no address field");
    std::vector<rtl::NodeId> part = std::move(it->second);
    parts.erase(it);
    return part;
  }
};

// An IR worm whose compound header carries every destination's later list.
struct WormCarrier : DirectCarrier {
  std::uint64_t send(rtl::HostApi& h, const algo::LocalSend& s, int bytes, CarriedParts&) const override {
    return dynamic_cast<rtl::DirectHostApi&>(h).send_compound(s.blocks, bytes);   // waits t_S
  }
  std::vector<rtl::NodeId> take(const rtl::ReceivedMessage& m, rtl::NodeId me, CarriedParts&) const override {
    if (!m.header) throw std::logic_error("direct multicast: a worm without a compound header reached a relay");
    const algo::CompoundBlock b = algo::received_compound_block(*m.header);
    if (b.dest != me) throw std::logic_error("direct multicast: a compound block for another node");
    std::vector<rtl::NodeId> part{me};
    part.insert(part.end(), b.later.begin(), b.later.end());
    return part;
  }
};

}  // namespace

algo::DirectNodeFacts direct_node_facts(const rtl::ProcessorNode& proc, const topo::DirectNetwork& dn) {
  algo::DirectNodeFacts f;
  f.all_port = proc.processor().ports() > 1;
  f.in_order = proc.processor().params().send_model == "in_order";
  f.packet_bytes = proc.processor().params().packet_bytes;
  f.three_way = !dn.shared_links.empty();
  return f;
}

const DirectCarrier& direct_carrier(algo::Carrier c) {
  static const UnicastCarrier unicast;
  static const WormCarrier worm;
  return c == algo::Carrier::compound_worm ? static_cast<const DirectCarrier&>(worm) : unicast;
}

const std::vector<algo::OptionHelp>& direct_count_options() {
  static const std::vector<algo::OptionHelp> list =
      algo::option_helps(algo::direct_scheme_options(), "; 0 = not set", true);
  return list;
}

std::map<std::string, std::string> direct_option_texts(const std::map<std::string, int>& counts) {
  std::map<std::string, std::string> given;
  for (const auto& [key, value] : counts)
    if (value != 0) given[key] = std::to_string(value);
  return given;
}

std::vector<rtl::NodeId> direct_node_list(const topo::DirectTopology& t, const std::string& text, rtl::NodeId source,
                                          const std::string& key) {
  try {
    return algo::parse_node_list(algo::direct_network(t), text, source, key);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());
  }
}

}  // namespace wormcast::tb
