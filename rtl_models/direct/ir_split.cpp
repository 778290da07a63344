#include "rtl_models/direct/ir_split.h"

#include <stdexcept>
#include <vector>

#include "algorithms/compound_header.h"

namespace wormcast::rtl {

int ir_strip(const Packet& old, NodeId at, const std::string& who) {
  const int addresses = static_cast<int>(old.header.dests.size());
  if (!old.header.compound) {
    if (old.header_flits != addresses + 1)
      throw std::invalid_argument(who + ": multi-destination packet " + std::to_string(old.id) + " has " +
                                  std::to_string(old.header_flits) + " header flits for " + std::to_string(addresses) +
                                  " addresses (one per address plus the terminator)");
    return 1;
  }
  const std::vector<NodeId>& f = *old.header.compound;
  const std::string what = who + ": compound header of packet " + std::to_string(old.id);
  if (static_cast<int>(f.size()) != old.header_flits)
    throw std::invalid_argument(what + " has " + std::to_string(f.size()) + " flits but header_flits = " +
                                std::to_string(old.header_flits));
  const int strip = algo::compound_first_block_flits(f);
  if (f.front() != at || strip >= static_cast<int>(f.size()) || f[static_cast<std::size_t>(strip)] != old.header.dests[1])
    throw std::invalid_argument(what + " does not match its destination list at node " + std::to_string(at));
  return strip;
}

IrSplit split_ir_worm(const Packet& old, NodeId at, SimContext& ctx, const std::string& who) {
  if (old.header.dests[1] == at)
    throw std::invalid_argument(who + ": packet " + std::to_string(old.id) + " lists destination " +
                                std::to_string(at) + " twice in a row");
  IrSplit s;
  const int strip = s.strip = ir_strip(old, at, who);
  s.fwd = std::make_shared<Packet>(old);
  s.fwd->id = ctx.new_packet_id();
  s.fwd->header.dests.erase(s.fwd->header.dests.begin());
  s.fwd->header_flits -= strip;
  s.fwd->length -= strip;
  s.copy = std::make_shared<Packet>(old);
  s.copy->id = ctx.new_packet_id();
  s.copy->header.kind = HeaderKind::unicast;
  s.copy->header.dest = at;
  s.copy->header.dests.clear();
  s.copy->header_flits = strip;
  s.copy->length = strip + (old.length - old.header_flits);
  if (old.header.compound) {
    const auto& f = *old.header.compound;
    s.fwd->header.compound = std::make_shared<const std::vector<NodeId>>(f.begin() + strip, f.end());
    s.copy->header.compound = std::make_shared<const std::vector<NodeId>>(f.begin(), f.begin() + strip);
  }
  return s;
}

}  // namespace wormcast::rtl
