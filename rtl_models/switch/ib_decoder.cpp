#include "rtl_models/switch/ib_decoder.h"

#include <fmt/format.h>

#include <stdexcept>

namespace wormcast::rtl {

namespace {
std::string hex_lid(int lid) { return fmt::format("0x{:04X}", lid); }

// DecoderShared keeps const items; the subnet itself is programmed during
// the run, so the item is a holder of a mutable subnet.
struct SubnetHolder {
  std::shared_ptr<IbSubnet> subnet;
};
}  // namespace

std::string ib_addressing_problem(const topo::FatTree& t) {
  try {
    const long long top = static_cast<long long>(t.num_nodes()) * algo::lids_per_node(t);
    if (top > kLastUnicastLid)
      return "IBFT(" + std::to_string(t.m()) + "," + std::to_string(t.n()) + ") needs unicast LIDs up to " +
             std::to_string(top) + " (" + std::to_string(t.num_nodes()) + " nodes x " +
             std::to_string(algo::lids_per_node(t)) + " LIDs), beyond InfiniBand's unicast range 1..49151 (0xBFFF)";
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

int IbSubnet::program(const algo::Mft& mft) {
  if (static_cast<int>(groups_.size()) > kLastMlid - kFirstMlid)
    throw std::length_error("IB subnet: all " + std::to_string(kLastMlid - kFirstMlid + 1) +
                            " multicast LIDs are in use");
  std::map<int, std::vector<int>> table;
  for (const auto& [sw, ports] : mft) {
    if (!tree_.valid_switch(sw)) throw std::invalid_argument("IB subnet: MFT for switch " + std::to_string(sw) + ", which does not exist");
    auto& out = table[sw];
    for (int k : ports) {
      if (k < 1 || k > tree_.m())
        throw std::invalid_argument("IB subnet: MFT of " + tree_.switch_name(sw) + " names port " + std::to_string(k) +
                                    ", not in 1.." + std::to_string(tree_.m()));
      out.push_back(k - 1);
    }
  }
  groups_.push_back(std::move(table));
  return kFirstMlid + static_cast<int>(groups_.size()) - 1;
}

const std::vector<int>* IbSubnet::entry(int mlid, int sw) const {
  const int g = mlid - kFirstMlid;
  if (g < 0 || g >= static_cast<int>(groups_.size())) return nullptr;
  const auto& table = groups_[static_cast<std::size_t>(g)];
  auto it = table.find(sw);
  return it == table.end() ? nullptr : &it->second;
}

std::shared_ptr<IbSubnet> ib_subnet(DecoderShared& shared, const topo::Topology& t) {
  return shared
      .get<SubnetHolder>("ib.subnet",
                         [&t] {
                           auto tree = topo::recognise_fat_tree(t);
                           if (!tree)
                             throw std::invalid_argument(
                                 "switch.decoder ib: the network is not an InfiniBand m-port n-tree IBFT(m, n) "
                                 "(use topology.kind fat_tree)");
                           const std::string problem = ib_addressing_problem(*tree);
                           if (!problem.empty()) throw std::invalid_argument("switch.decoder ib: " + problem);
                           return std::make_shared<const SubnetHolder>(
                               SubnetHolder{std::make_shared<IbSubnet>(std::move(*tree))});
                         })
      ->subnet;
}

IbDecoder::IbDecoder(sc_core::sc_module_name name, int switch_id, std::shared_ptr<IbSubnet> subnet)
    : Decoder(name), sw_(switch_id), subnet_(std::move(subnet)),
      max_lid_(subnet_->tree().num_nodes() * algo::lids_per_node(subnet_->tree())) {}

// A unicast packet of a workload that addresses nodes rather than LIDs
// (synthetic traffic: lid 0, never a valid DLID) carries the DLID its source
// would have chosen: the cyclic scheme's for (source, destination), seed003
// Eqs. 1-2, the fabric's own unicast routing.
void IbDecoder::decode(const PacketPtr& pkt, int in_port, const OutputPortState&, std::vector<Branch>& out) {
  const topo::FatTree& t = subnet_->tree();
  const bool by_node = pkt->header.kind == HeaderKind::unicast && pkt->header.lid == 0 && pkt->header.dest >= 0 &&
                       pkt->header.dest < t.num_nodes() && pkt->src >= 0 && pkt->src < t.num_nodes();
  const int lid = by_node ? algo::cyclic_dlid(t, pkt->src, pkt->header.dest) : pkt->header.lid;
  if (lid >= kFirstMlid) {
    const std::vector<int>* ports = subnet_->entry(lid, sw_);
    if (ports)
      for (int p : *ports)
        if (p != in_port) out.push_back(Branch{p, pkt, 0, false});
    if (out.empty())
      throw std::runtime_error(std::string(name()) + ": packet " + std::to_string(pkt->id) + " with MLID " +
                               hex_lid(lid) + " arrived on port " + std::to_string(in_port + 1) + " but " +
                               (ports ? "the multicast table sends it nowhere else" : "no multicast table entry exists") +
                               " (InfiniBand would drop it)");
    return;
  }
  if (lid < 1 || lid > max_lid_)
    throw std::runtime_error(std::string(name()) + ": packet " + std::to_string(pkt->id) + " has DLID " +
                             std::to_string(lid) + ", which no node owns (LIDs 1.." +
                             std::to_string(max_lid_) + ", MLIDs from " +
                             hex_lid(kFirstMlid) + ")");
  if (pkt->header.kind == HeaderKind::unicast && algo::lid_owner(t, lid) != pkt->header.dest)
    throw std::runtime_error(std::string(name()) + ": packet " + std::to_string(pkt->id) + " to node " +
                             std::to_string(pkt->header.dest) + " carries DLID " + std::to_string(lid) + " of " +
                             t.node_name(algo::lid_owner(t, lid)));
  out.push_back(Branch{algo::lft_port(t, sw_, lid) - 1, pkt, 0, false});
}

}  // namespace wormcast::rtl
