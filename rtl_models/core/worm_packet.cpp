#include "rtl_models/core/worm_packet.h"

#include <algorithm>
#include <stdexcept>

#include "algorithms/multicast_set.h"
#include "algorithms/multiphase.h"
#include "rtl_models/switch/decoder.h"

namespace wormcast::rtl {

int worm_header_flits(std::size_t bits) { return algo::header_flits(static_cast<int>(bits), 8); }

PacketPtr make_worm(WormEncoding enc, algo::Bits bits, std::vector<NodeId> dests, int payload_flits) {
  if (bits.empty()) throw std::invalid_argument("worm: empty header");
  if (dests.empty()) throw std::invalid_argument("worm: empty destination set");
  if (payload_flits < 0) throw std::invalid_argument("worm: negative payload");
  auto p = std::make_shared<Packet>();
  p->header.kind = HeaderKind::multicast;
  p->header.worm = enc;
  p->header_flits = worm_header_flits(bits.size());
  p->length = p->header_flits + payload_flits;
  p->header.worm_bits = std::make_shared<const std::vector<bool>>(std::move(bits));
  std::sort(dests.begin(), dests.end());
  p->header.dests = std::move(dests);
  return p;
}

PacketPtr branch_copy(const Packet& received, algo::Bits bits, std::vector<NodeId> dests) {
  auto p = std::make_shared<Packet>(received);
  p->header_flits = worm_header_flits(bits.size());
  p->length = received.length - received.header_flits + p->header_flits;
  p->header.worm_bits = std::make_shared<const std::vector<bool>>(std::move(bits));
  p->header.dests = std::move(dests);
  return p;
}

int unicast_port(const topo::UpDownRouting& r, int sw, int in_port, const Packet& pkt, PortChooser& chooser,
                 const OutputPortState& ports, const std::string& who) {
  const auto& legal = r.ports(sw, r.arrival_phase(sw, in_port), pkt.header.dest);
  if (legal.empty())
    throw std::runtime_error(who + ": no legal up*/down* route to node " + std::to_string(pkt.header.dest) +
                             " from input port " + std::to_string(in_port));
  return legal[chooser.choose(legal, ports)];
}

const char* worm_encoding_name(WormEncoding e) {
  switch (e) {
    case WormEncoding::none: return "none";
    case WormEncoding::ssr: return "ssr";
    case WormEncoding::multidrop: return "multidrop";
    case WormEncoding::tree: return "tree";
  }
  return "?";
}

namespace {

// The worm of w's destinations (visiting order) in `enc`, with its relay payload.
WormSend encode_worm(const topo::Topology& t, WormEncoding enc, algo::SsrId id, const algo::RelayWorm& w, int bytes) {
  const algo::HeaderGeometry g = algo::HeaderGeometry::of(t);
  WormSend out;
  out.dests = w.destinations;
  out.bytes = bytes;
  out.encoding = enc;
  if (enc == WormEncoding::tree) {
    out.header_bits = algo::encode_tree(g, true, algo::NodeBits::of(t.num_nodes(), w.destinations));
    return out;
  }
  const std::vector<algo::DropPair> pairs = algo::multidrop_pairs(t, w.destinations, id);
  if (enc == WormEncoding::ssr) {
    if (pairs.size() != 1) throw std::logic_error("SSR worm with destinations on several switches");
    out.header_bits = algo::encode_ssr(g, pairs.front(), id);
  } else {
    out.header_bits = algo::encode_multidrop(g, pairs, id);
  }
  if (!w.tasks.empty()) out.relay_worm = std::make_shared<const algo::RelayWorm>(w);
  return out;
}

// tree: one bit-string worm to every destination, nothing to relay.
class TreeWorms final : public WormScheme {
 public:
  std::string name() const override { return "tree"; }
  const char* decoder() const override { return "reachability"; }
  std::vector<WormSend> source_worms(const topo::Topology& t, const topo::UpDownRouting&, algo::SsrId id,
                                     NodeId source, const std::vector<NodeId>& dests, int bytes) const override {
    algo::check_multicast(t, source, dests);
    return {encode_worm(t, WormEncoding::tree, id, algo::RelayWorm{dests, {}}, bytes)};
  }
  std::vector<WormSend> relay_worms(const topo::Topology&, algo::SsrId, const algo::RelayWorm*, NodeId,
                                    int) const override {
    return {};
  }
};

// The multi-phase schemes: multi-drop worms on POCs (path) or one worm per
// destination switch (ssr), phases scheduled by `sched`.
class PhasedWorms final : public WormScheme {
 public:
  PhasedWorms(std::string name, WormEncoding enc, algo::Scheduler sched)
      : name_(std::move(name)), enc_(enc), sched_(sched) {}
  std::string name() const override { return name_; }
  const char* decoder() const override { return "ssr"; }
  std::vector<WormSend> source_worms(const topo::Topology& t, const topo::UpDownRouting& r, algo::SsrId id,
                                     NodeId source, const std::vector<NodeId>& dests, int bytes) const override {
    algo::check_multicast(t, source, dests);
    const algo::Schedule plan = enc_ == WormEncoding::ssr ? algo::plan_ssr(t, r, source, dests, sched_)
                                                          : algo::plan_path_based(t, r, source, dests, sched_);
    std::vector<WormSend> out;
    for (const algo::RelayWorm& w : algo::relay_plan(plan).worms) out.push_back(encode_worm(t, enc_, id, w, bytes));
    return out;
  }
  std::vector<WormSend> relay_worms(const topo::Topology& t, algo::SsrId id, const algo::RelayWorm* got, NodeId me,
                                    int bytes) const override {
    std::vector<WormSend> out;
    if (!got) return out;
    for (const algo::RelayWorm& w : algo::relay_sends(*got, me)) out.push_back(encode_worm(t, enc_, id, w, bytes));
    return out;
  }

 private:
  std::string name_;
  WormEncoding enc_;
  algo::Scheduler sched_;
};

}  // namespace

const WormSchemeRegistry& worm_schemes() {
  static const WormSchemeRegistry r = [] {
    WormSchemeRegistry reg("switch-based scheme");
    reg.add("tree", "one bit-string worm (reachability strings, seed000 §5.9), switch.decoder reachability",
            [] { return std::make_unique<TreeWorms>(); });
    reg.add("path-lg", "multi-drop worms on POCs, Less-Greedy phases (seed000 §5.7), switch.decoder ssr", [] {
      return std::make_unique<PhasedWorms>("path-lg", WormEncoding::multidrop, algo::Scheduler::less_greedy);
    });
    reg.add("path-greedy", "multi-drop worms on POCs, Greedy phases (seed000 §5.7), switch.decoder ssr", [] {
      return std::make_unique<PhasedWorms>("path-greedy", WormEncoding::multidrop, algo::Scheduler::greedy);
    });
    reg.add("ssr", "one worm per destination switch, Less-Greedy phases (seed000 §5.2), switch.decoder ssr",
            [] { return std::make_unique<PhasedWorms>("ssr", WormEncoding::ssr, algo::Scheduler::less_greedy); });
    return reg;
  }();
  return r;
}

const WormScheme& worm_scheme(const std::string& name) {
  static const std::vector<std::unique_ptr<WormScheme>> made = [] {
    std::vector<std::unique_ptr<WormScheme>> v;
    for (const std::string& n : worm_schemes().names()) v.push_back(worm_schemes().make(n));
    return v;
  }();
  for (const auto& s : made)
    if (s->name() == name) return *s;
  throw std::invalid_argument("unknown switch-based scheme '" + name + "' (" + worm_schemes().joined_names() + ")");
}

}  // namespace wormcast::rtl
