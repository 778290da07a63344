// What the InfiniBand workloads (ib_multicast, ib_multicast_load) declare
// and read alike: the scheme choice with its options, the packet format
// keys, node lists as the paper writes them, and uniform draws of nodes.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "algorithms/scheme_options.h"
#include "rtl_models/core/params.h"
#include "rtl_models/core/rng.h"
#include "rtl_models/node/node_model.h"
#include "testbenches/app/workloads/ib_packets.h"
#include "topologies/fat_tree.h"

namespace wormcast::tb {

// traffic.scheme's help: every InfiniBand scheme with its description.
const char* ib_scheme_help();
// The schemes' own options (algo::ib_scheme_options) as traffic.KEY text
// keys. A static list: visitors may keep the key and description pointers.
const std::vector<algo::OptionHelp>& ib_option_helps();
// Those of `texts` that are set (not empty), as the scheme takes them.
algo::OptionTexts ib_option_texts(const std::map<std::string, std::string>& texts);
// traffic.header_flits, traffic.flit_bytes, traffic.mtu.
void visit_ib_packet_keys(ParamVisitor& v, int& header_flits, int& flit_bytes, int& mtu);
// The packet the buffer checks see: a message's first packet, header included.
void describe_ib_facts(rtl::ConfigFacts& f, const IbPacketFormat& format, int message_bytes);
// A node list of `key` ("P(000),P(201)" or "000,201"), as `wormcast plan`
// reads them: none may repeat. Throws ConfigError naming the key.
std::vector<topo::NodeId> ib_node_list(const topo::FatTree& t, const std::string& text, const std::string& key);
// `count` distinct nodes of 0..n-1, uniformly, in the order drawn.
std::vector<topo::NodeId> draw_nodes(Rng& rng, int n, int count);

}  // namespace wormcast::tb
