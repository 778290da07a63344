// How a message of a direct-network multicast scheme hands its receiver the
// part of the multicast that receiver becomes responsible for
// (algo::Carrier): out of band with a unicast, keyed by its message id, or
// in the compound header of an IR worm (seed001 Fig. 6.2). Shared by the
// direct_multicast workload and the embedded multicast service
// (embed/multicast.h), so both run a scheme's messages alike.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "algorithms/direct_scheme.h"
#include "algorithms/scheme_options.h"
#include "rtl_models/node/host_processor.h"

namespace wormcast::rtl {
class ProcessorNode;
}
namespace wormcast::topo {
class DirectNetwork;
class DirectTopology;
}

namespace wormcast::tb {

// What a scheme's fit_nodes() is told of the simulated nodes: their ports,
// send model and packet size, and whether links are 3-way.
algo::DirectNodeFacts direct_node_facts(const rtl::ProcessorNode& proc, const topo::DirectNetwork& dn);

// The parts that unicasts carry out of band, by message id (written when
// the message is sent, taken when it is received).
using CarriedParts = std::map<std::uint64_t, std::vector<rtl::NodeId>>;

class DirectCarrier {
 public:
  virtual ~DirectCarrier() = default;
  // Sends `s` of `bytes` (waits t_S) and returns its message id.
  virtual std::uint64_t send(rtl::HostApi& h, const algo::LocalSend& s, int bytes, CarriedParts& parts) const = 0;
  // The part message `m` hands node `me`, itself first. Throws
  // std::logic_error when the message carries none for it.
  virtual std::vector<rtl::NodeId> take(const rtl::ReceivedMessage& m, rtl::NodeId me, CarriedParts& parts) const = 0;
};

const DirectCarrier& direct_carrier(algo::Carrier c);

// What the direct workloads (direct_multicast, direct_multicast_load)
// declare and read alike. The schemes' whole-number options as traffic.KEY
// (traffic.r), each with what it means to whom; a static list: visitors may
// keep the key and description pointers.
const std::vector<algo::OptionHelp>& direct_count_options();
// Those set (non-zero) as the option texts a scheme takes.
std::map<std::string, std::string> direct_option_texts(const std::map<std::string, int>& counts);
// A node list of `key` as `wormcast plan --dests` reads them (names, or
// node numbers on tori and meshes), none the source (-1: no source). Throws
// ConfigError naming the key.
std::vector<rtl::NodeId> direct_node_list(const topo::DirectTopology& t, const std::string& text, rtl::NodeId source,
                                          const std::string& key);

}  // namespace wormcast::tb
