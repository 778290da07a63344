#include "testbenches/app/workloads/ib_workload_keys.h"

#include <numeric>

#include "algorithms/ib_scheme.h"
#include "algorithms/plan_network.h"
#include "testbenches/app/config.h"

namespace wormcast::tb {

const char* ib_scheme_help() {
  static const std::string help = [] {
    std::string h;
    for (const auto& e : algo::ib_schemes().entries()) h += (h.empty() ? "" : "; ") + e.name + ": " + e.description;
    return h;
  }();
  return help.c_str();
}

const std::vector<algo::OptionHelp>& ib_option_helps() {
  static const std::vector<algo::OptionHelp> list = algo::option_helps(algo::ib_scheme_options(), "; empty = the default");
  return list;
}

algo::OptionTexts ib_option_texts(const std::map<std::string, std::string>& texts) {
  algo::OptionTexts given;
  for (const auto& [key, text] : texts)
    if (!text.empty()) given[key] = text;
  return given;
}

void visit_ib_packet_keys(ParamVisitor& v, int& header_flits, int& flit_bytes, int& mtu) {
  v.count("header_flits", header_flits,
          "header flits per packet (the paper counts no header; the model needs at least one flit)", 1, 1 << 16);
  v.count("flit_bytes", flit_bytes,
          "bytes per flit: a packet of b payload bytes has ceil(b / flit_bytes) payload flits (1: exact; 5 with a "
          "20 ns clock keeps seed003's 4 ns/byte, 20 ns flight and 100 ns switch exact at a fifth of the flits)",
          1, 1 << 16);
  v.count("mtu", mtu, "0: a message is one packet (the paper's simulator); > 0: packets of at most mtu payload bytes",
          0, 1 << 30);
}

void describe_ib_facts(rtl::ConfigFacts& f, const IbPacketFormat& format, int message_bytes) {
  f.workload_packet_flits = format.flits(format.payload(message_bytes, 0));
  f.workload_packet_key = format.mtu > 0 ? "traffic.header_flits + traffic.mtu / traffic.flit_bytes"
                                         : "traffic.header_flits + message.size / traffic.flit_bytes";
}

std::vector<topo::NodeId> ib_node_list(const topo::FatTree& t, const std::string& text, const std::string& key) {
  try {
    return algo::parse_node_list(algo::fat_tree_network(t), text, -1, key);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());
  }
}

std::vector<topo::NodeId> draw_nodes(Rng& rng, int n, int count) {
  std::vector<topo::NodeId> all(static_cast<std::size_t>(n));
  std::iota(all.begin(), all.end(), 0);
  draw_to_front(rng, all, static_cast<std::size_t>(count));
  all.resize(static_cast<std::size_t>(count));
  return all;
}

}  // namespace wormcast::tb
