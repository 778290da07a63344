// seed001 Ch. 6 on regular unidirectional tori, path-based with
// intermediate reception (Fig. 6.1, torus_multicast.h): S-torus, M_d-torus
// and M_u-torus(r). Multi-destination worms routed by UTPR along the
// ℋ-cycle, each destination with the nodes it serves in later phases (the
// compound header of Fig. 6.2), which a relay reads from its router.
#include <stdexcept>

#include "algorithms/direct_scheme_detail.h"
#include "algorithms/torus_multicast.h"

namespace wormcast::algo {

namespace {

using nlohmann::json;
using topo::NodeId;

// Per destination of a worm, the nodes it serves in later phases (by name).
json later_lists(const PlanNetwork& net, const std::vector<CompoundBlock>& blocks) {
  json out = json::object();
  for (const CompoundBlock& b : blocks) out[net.node_text(b.dest)] = detail::names(net, b.later);
  return out;
}

class MTorusScheme : public DirectScheme {
 public:
  explicit MTorusScheme(MTorusPartition p) : part_(p), r_(p == MTorusPartition::uniform ? 0 : 2) {}

  void visit(ParamVisitor& v) override {
    if (part_ == MTorusPartition::uniform)
      v.count("r", r_, "partitions per phase", 2, 1 << 20);
  }
  void check_options(const SchemeKeys& keys) const override {
    if (part_ == MTorusPartition::uniform && r_ == 0)
      throw std::invalid_argument(keys.scheme() + " needs " + keys.option("r") + (keys.command_line ? " R" : "") +
                                  ", the partitions per phase (seed001 Ch. 6 uses 8, 64, and 2 = the "
                                  "unicast-based scheme)");
  }
  std::vector<NetworkNeed> needs() const override {
    return {{[](const topo::DirectTopology& t) { return t.is_torus() && !t.bidirectional() && t.regular(); },
             "a regular unidirectional torus", "--topology torus:KxK:uni",
             [](const topo::DirectRouting& r) { return r.algorithm() == topo::RoutingAlgorithm::utpr; },
             "routing.function utpr"}};
  }
  void fit_nodes(const DirectNodeFacts& f, const SchemeKeys& keys) override {
    if (f.packet_bytes > 0)
      throw std::invalid_argument(keys.scheme() + " sends IR worms, which are one packet each: processor.packet_bytes "
                                  "must be 0 (it is " + std::to_string(f.packet_bytes) + ")");
    if (!f.all_port)
      throw std::invalid_argument(keys.scheme() + " needs all-port nodes (router.ports: all_port): with one-port "
                                  "nodes, IR worms can deadlock at the processor's port (seed001 §4.3)");
  }
  topo::DirectRouting plan_routing(const topo::DirectTopology& t) const override {
    return topo::DirectRouting(t, topo::RoutingAlgorithm::utpr);
  }

  MulticastPlan plan(const PlanNetwork& net, const topo::DirectRouting& utpr, NodeId source,
                     const std::vector<NodeId>& dests) const override {
    const MTorusPlan mt = plan_mtorus(utpr, source, dests, part_, r_);
    MulticastPlan p = detail::plan_head(source, dests, mt.phases);
    for (const MTorusWorm& w : mt.worms) {
      const std::vector<NodeId> to = worm_destinations(w);
      PlanMessage m{w.sender, w.phase, to, detail::path_names(net, utpr.route_path(w.sender, to)), json::object()};
      m.extras = {{"header_flits", compound_header_flits(w.blocks)}, {"later", later_lists(net, w.blocks)}};
      p.messages.push_back(std::move(m));
    }
    p.extras = {{"cycle", detail::names(net, mt.cycle)}, {"routing", "utpr"},
                {"link_visits", detail::links_of(p.messages)}, {"worms", mt.worms.size()}};
    if (part_ == MTorusPartition::uniform) p.extras["r"] = r_;
    return p;
  }
  TrialPlan trial_plan(const topo::DirectRouting& utpr, NodeId source,
                       const std::vector<NodeId>& dests) const override {
    const MTorusPlan mt = plan_mtorus(utpr, source, dests, part_, r_);
    TrialPlan t{mt.phases, {}, {}};
    for (const MTorusWorm& w : mt.worms) t.routes.push_back(utpr.route_path(w.sender, worm_destinations(w)));
    return t;
  }

  std::vector<NodeId> source_part(const topo::DirectRouting& utpr, NodeId source,
                                  const std::vector<NodeId>& dests) const override {
    return h_cycle(utpr, source, dests);
  }
  // Fig. 6.1 at this node (mtorus_local_worms), from its part alone: a relay
  // does not know its phase, and needs not. Read as level 1, a part handed
  // out at phase p does not split at the orders above n - p - 1 (it lies in
  // one such sub-torus), so M_d skips them and sends the same worms; only
  // the plan's phase labels would differ.
  std::vector<LocalSend> local_sends(const topo::DirectRouting& utpr, const std::vector<NodeId>& part) const override {
    std::vector<LocalSend> out;
    for (MTorusWorm& w : mtorus_local_worms(utpr, part, part_, r_, 0)) out.push_back(LocalSend{std::move(w.blocks)});
    return out;
  }
  Carrier carrier() const override { return Carrier::compound_worm; }

  DirectTbDefaults tb_defaults() const override {
    DirectTbDefaults d{"seed001 Ch. 6: unidirectional torus, path-based IR worms, UTPR, all-port",
                       "torus:8x8:uni",
                       "utpr",
                       "utpr",
                       {{"router.ports", "all_port"},
                        {"router.buffer", "4flits"},
                        {"processor.t_s", "20"},
                        {"processor.t_r", "16"},
                        {"message.size", "64"}},
                       {}};
    if (part_ == MTorusPartition::uniform) d.options["r"] = "4";
    return d;
  }

 private:
  MTorusPartition part_;
  int r_;
};

template <MTorusPartition P>
std::unique_ptr<DirectScheme> make() {
  return std::make_unique<MTorusScheme>(P);
}

}  // namespace

void add_mtorus_schemes(DirectSchemeRegistry& r) {
  r.add("storus", "unidirectional torus, path-based: S-torus, one worm along the H-cycle (seed001 Ch. 6), UTPR",
        make<MTorusPartition::single>);
  r.add("mdtorus", "unidirectional torus, path-based: M_d-torus, dimensional partitioning (seed001 Fig. 6.1)",
        make<MTorusPartition::dimensional>);
  r.add("mutorus",
        "unidirectional torus, path-based: M_u-torus(r), uniform partitioning (seed001 Fig. 6.1; --r 2 is the "
        "unicast-based scheme of Sec. 6.6)",
        make<MTorusPartition::uniform>);
}

}  // namespace wormcast::algo
