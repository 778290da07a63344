// The forwarding stage of an InfiniBand switch in an m-port n-tree
// (seed003: Zhou, Lin, Chung 2007; spec/seed002_004.md SEED 003 §1, §6, §7,
// §12): `switch.decoder: ib`.
//
//  * A packet carries a 16-bit DLID (PacketHeader::lid). A unicast LID
//    (1..0xBFFF) is looked up in the switch's linear forwarding table, which
//    is Eqs. 1-2 of §6 (algo::lft_port): one output port.
//  * A multicast LID (0xC000..0xFFFE) is looked up in the switch's multicast
//    forwarding table (MFT): the packet is replicated to every port of the
//    entry except its arrival port (IBA). The tables are programmed by the
//    subnet manager, which in a run is the workload (IbSubnet::program):
//    one MLID per (source, group) for the cyclic scheme, one per group for
//    OpenSM (algorithms/ib_multicast.h).
//  * A switch without an entry for a packet's MLID, or an entry that leaves
//    nothing after removing the arrival port, would drop the packet in IB;
//    here that is an error naming the switch and the MLID (the planners
//    never build such tables, so it is a bug, not traffic).
//
// The decoder needs the network to be an IBFT (topology.kind fat_tree, or a
// topology file wired exactly like one): it recognises the tree from the
// switch-level topology once per network (DecoderShared "ib.subnet").
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/ib_multicast.h"
#include "rtl_models/switch/decoder.h"
#include "rtl_models/switch/decoder_registry.h"
#include "topologies/fat_tree.h"

namespace wormcast::rtl {

constexpr int kLastUnicastLid = 0xBFFF;
constexpr int kFirstMlid = 0xC000;
constexpr int kLastMlid = 0xFFFE;

// Why IBFT(m, n)'s LIDs do not fit the addressing scheme of §4 within IBA's
// unicast range (h not a power of two, h^(n-1) > 128, or nodes · 2^LMC above
// 0xBFFF), or "" when they do.
std::string ib_addressing_problem(const topo::FatTree& t);

// The subnet's forwarding state shared by every switch of one network.
class IbSubnet {
 public:
  explicit IbSubnet(topo::FatTree tree) : tree_(std::move(tree)) {}
  const topo::FatTree& tree() const { return tree_; }
  // Program a multicast table (switch id -> IB ports 1..m, as algo::Mft)
  // under a new MLID, returned. Throws std::length_error when the MLID range
  // is used up, std::invalid_argument for a bad switch or port.
  int program(const algo::Mft& mft);
  // Forget every multicast table (the SM between trials, once no packet of
  // the earlier ones is in flight); MLIDs restart.
  void clear() { groups_.clear(); }
  // The 0-based switch ports of MLID's entry at switch sw, or nullptr.
  const std::vector<int>* entry(int mlid, int sw) const;

 private:
  topo::FatTree tree_;
  std::vector<std::map<int, std::vector<int>>> groups_;   // by MLID - kFirstMlid: switch -> ports (0-based)
};

// The subnet of a switch network, made on first use. Throws
// std::invalid_argument when the topology is not an IBFT(m, n) or its LIDs
// do not fit (ib_addressing_problem).
std::shared_ptr<IbSubnet> ib_subnet(DecoderShared& shared, const topo::Topology& t);

class IbDecoder : public Decoder {
 public:
  IbDecoder(sc_core::sc_module_name name, int switch_id, std::shared_ptr<IbSubnet> subnet);
  void decode(const PacketPtr& pkt, int in_port, const OutputPortState& ports, std::vector<Branch>& out) override;

 private:
  int sw_;
  std::shared_ptr<IbSubnet> subnet_;
  int max_lid_;   // the highest unicast LID (nodes · 2^LMC)
};

}  // namespace wormcast::rtl
