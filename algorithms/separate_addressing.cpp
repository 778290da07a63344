// Separate addressing on seed001's tori: "a separate copy of the message is
// sent directly from the source to every destination" (seed001 Ch. 1), the
// baseline U-torus is measured against in Fig. 4.16. The source sends one
// unicast per destination, one after another (one-port: the i-th in step i,
// so m destinations take m steps); nobody relays. The destinations go in
// the R-chain's order (the dimension-ordered chain rotated to the source,
// as U-torus), routed by the network's UTR or BTR.
//
// The algorithm is seed004's separate addressing (sci_multicast.h, whose Φ′
// is this R-chain), so this file reuses that planner and local rule; only
// the network differs: seed001's torus and routing instead of the SCI
// testbed's X-then-Y order. It is the worked example of
// docs/architecture.md, "Adding a multicast scheme".
#include "algorithms/direct_scheme_detail.h"
#include "algorithms/sci_multicast.h"

namespace wormcast::algo {

namespace {

using nlohmann::json;
using topo::NodeId;

class SeparateAddressing : public DirectScheme {
 public:
  std::vector<NetworkNeed> needs() const override { return {detail::torus_utr_btr()}; }

  MulticastPlan plan(const PlanNetwork& net, const topo::DirectRouting& routing, NodeId source,
                     const std::vector<NodeId>& dests) const override {
    const SciPlan sp = plan_sci(routing.topology(), SciScheme::separate, source, dests);
    MulticastPlan p = detail::plan_head(source, dests, sp.steps);
    for (const SciUnicast& u : sp.unicasts)
      p.messages.push_back({u.sender, u.step, {u.receiver},
                            detail::path_names(net, routing.route(u.sender, u.receiver)), json::object()});
    const SciLinkUse use = sci_link_use(routing, sp);
    p.extras = {{"chain", detail::names(net, sp.order)},
                {"routing", topo::to_string(routing.algorithm())},
                {"link_visits", use.link_visits},
                {"used_links", use.used_links},
                {"link_utilization", use.utilization}};
    return p;
  }
  TrialPlan trial_plan(const topo::DirectRouting& routing, NodeId source,
                       const std::vector<NodeId>& dests) const override {
    const SciPlan sp = plan_sci(routing.topology(), SciScheme::separate, source, dests);
    return {sp.steps, detail::unicast_routes(routing, sp.unicasts), {}};
  }

  std::vector<NodeId> source_part(const topo::DirectRouting& routing, NodeId source,
                                  const std::vector<NodeId>& dests) const override {
    return sci_group_order(routing.topology(), SciScheme::separate, source, dests);
  }
  // The source sends to every other node of its part; a destination's part
  // is itself alone, so it sends nothing.
  std::vector<LocalSend> local_sends(const topo::DirectRouting& routing,
                                     const std::vector<NodeId>& part) const override {
    return detail::as_local_sends(sci_local_sends(routing.topology(), SciScheme::separate, 0, part));
  }

  // As U-torus's experiments (experiments/seed001/utorus.yaml), which it is the baseline of.
  DirectTbDefaults tb_defaults() const override {
    return detail::chapter4_torus_defaults(
        "seed001 Fig. 4.16's baseline: torus, the source sends a unicast to each destination, UTR (BTR when "
        "bidirectional), one-port");
  }
};

}  // namespace

void add_separate_scheme(DirectSchemeRegistry& r) {
  r.add("separate", "torus, one-port: separate addressing, the source sends one unicast to each destination "
        "(seed001 Fig. 4.16's baseline), UTR or BTR",
        [] { return std::make_unique<SeparateAddressing>(); });
}

}  // namespace wormcast::algo
