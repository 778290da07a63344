// Smart NI firmware (seed000 §4.2-4.3, seed002 §2.3, §3): the NIs relay a
// k-binomial multicast. Every packet of the message carries a MulticastRelay
// (the relay's block of the chain ordering, k, construction); a relay
// computes its children from it alone with algo::relay_children (docs/design.md
// principle 1) and gives each child's copy a header holding the child's
// block. The source NI is the relay owning the whole chain.
//
//  * FPFS: per packet, the DMA to the host starts at once (if this node is a
//    destination) and a copy goes to each child in turn (t_ns each).
//  * FCFS: per message, each packet goes to the first child as it arrives
//    and is retained in NI memory; when the last packet of the message is in
//    (a per-message counter), the whole message goes to child 2, then to
//    child 3, ..., and the packets are released.
// Packets without relay information are handled as by the conventional
// firmware.
#include <map>
#include <stdexcept>
#include <vector>

#include "algorithms/kbinomial_tree.h"
#include "rtl_models/node/ni_firmware.h"

namespace wormcast::rtl {

namespace {

// The children of the relay whose header is `r`, each as the header its copy
// carries (a unicast worm to the child, with the child's block).
std::vector<PacketHeader> child_headers(const MulticastRelay& r) {
  const algo::RelayBlock mine{r.first, r.last, r.steps};
  const auto c = r.construction == 1 ? algo::TreeConstruction::literal : algo::TreeConstruction::time_ordered;
  std::vector<PacketHeader> out;
  for (const algo::RelayBlock& b : algo::relay_children(mine, r.k, c)) {
    auto child = std::make_shared<MulticastRelay>(r);
    child->first = b.first;
    child->last = b.last;
    child->steps = b.steps;
    PacketHeader h;
    h.dest = r.at(b.first);
    h.relay = std::move(child);
    out.push_back(std::move(h));
  }
  return out;
}

class SmartFirmware : public NiFirmware {
 public:
  explicit SmartFirmware(SmartDiscipline d) : d_(d) {}
  std::string kind() const override { return d_ == SmartDiscipline::fpfs ? "fpfs" : "fcfs"; }

  void on_send_queue(NiFirmwareApi& api, const PacketPtr& pkt) override {
    if (!pkt->header.relay) return conventional_.on_send_queue(api, pkt);
    relay(api, pkt);
  }
  void on_receive(NiFirmwareApi& api, const PacketPtr& pkt) override {
    api.deliver_to_host(pkt);   // a relay is always a destination too
    if (pkt->header.relay) relay(api, pkt);
  }

 private:
  struct Pending {                       // FCFS: a message being collected
    std::vector<PacketHeader> children;
    std::vector<PacketPtr> packets;
  };

  // send_copy waits, so what a relay is sending lives in members, not in
  // locals: a run that ends while the NI processor is blocked here discards
  // its thread's stack (ni_firmware.h), and the child headers with it.
  void relay(NiFirmwareApi& api, const PacketPtr& pkt) {
    children_ = child_headers(*pkt->header.relay);
    if (children_.empty()) return;   // a leaf
    if (d_ == SmartDiscipline::fpfs || children_.size() == 1 || pkt->msg_packets == 1) {
      for (const PacketHeader& h : children_) api.send_copy(pkt, h);
      children_.clear();
      return;
    }
    api.send_copy(pkt, children_.front());
    Pending& p = pending_[pkt->message];
    if (p.packets.empty()) p.children = std::move(children_);
    children_.clear();
    api.retain_packet(pkt);
    p.packets.push_back(pkt);
    if (static_cast<int>(p.packets.size()) < pkt->msg_packets) return;
    done_ = std::move(p);
    pending_.erase(pkt->message);
    for (std::size_t i = 1; i < done_.children.size(); ++i)
      for (const PacketPtr& q : done_.packets) api.send_copy(q, done_.children[i]);
    for (const PacketPtr& q : done_.packets) api.release_packet(q);
    done_ = Pending{};
  }

  SmartDiscipline d_;
  ConventionalFirmware conventional_;
  std::map<std::uint64_t, Pending> pending_;   // FCFS, by message id
  std::vector<PacketHeader> children_;         // of the packet being relayed
  Pending done_;                               // FCFS: the message being sent to children 2, 3, ...
};

}  // namespace

std::unique_ptr<NiFirmware> make_smart_firmware(SmartDiscipline d) { return std::make_unique<SmartFirmware>(d); }

}  // namespace wormcast::rtl
