// seed001 Ch. 4 on tori, one-port (Fig. 4.9, torus_multicast.h): U-torus,
// recursive halving on the R-chain, routed by the network's UTR
// (unidirectional) or BTR (bidirectional), with seed001 §5.2's step model
// under physical link sharing (utorus_link_sharing.h) as extras and
// per-trial statistics.
#include "algorithms/chain_ordering.h"
#include "algorithms/direct_scheme_detail.h"
#include "algorithms/torus_multicast.h"
#include "algorithms/utorus_link_sharing.h"

namespace wormcast::algo {

namespace {

using nlohmann::json;
using topo::NodeId;

void add_shared_steps(MulticastPlan& p, const topo::DirectRouting& routing, const UTorusPlan& u) {
  const SharedSteps none = utorus_shared_steps(routing, u, LinkSharing::none);
  const SharedSteps two = utorus_shared_steps(routing, u, LinkSharing::two_way);
  p.extras["mean_step"] = none.mean;
  p.extras["shared_steps"] = two.max;
  p.extras["shared_mean_step"] = two.mean;
  p.extras["shared_unicasts"] = two.shared_unicasts;
  if (routing.topology().bidirectional()) {
    const SharedSteps three = utorus_shared_steps(routing, u, LinkSharing::three_way);
    p.extras["shared_steps_3way"] = three.max;
    p.extras["shared_mean_step_3way"] = three.mean;
    p.extras["triple_unicasts_3way"] = three.triple_unicasts;
  }
}

class UTorusScheme : public DirectScheme {
 public:
  std::vector<NetworkNeed> needs() const override { return {detail::torus_utr_btr()}; }
  void fit_nodes(const DirectNodeFacts& f, const SchemeKeys&) override { three_way_ = f.three_way; }

  MulticastPlan plan(const PlanNetwork& net, const topo::DirectRouting& routing, NodeId source,
                     const std::vector<NodeId>& dests) const override {
    const UTorusPlan u = plan_utorus(routing.topology(), source, dests);
    MulticastPlan p = detail::plan_head(source, dests, u.steps);
    for (const TorusUnicast& s : u.unicasts) {
      PlanMessage m{s.sender, s.step, {s.receiver}, detail::path_names(net, routing.route(s.sender, s.receiver)),
                    json::object()};
      m.extras = {{"field", detail::names(net, s.field)}};
      p.messages.push_back(std::move(m));
    }
    p.extras = {{"chain", detail::names(net, u.chain)},
                {"routing", topo::to_string(routing.algorithm())},
                {"link_visits", detail::links_of(p.messages)}};
    add_shared_steps(p, routing, u);
    return p;
  }

  std::vector<TrialMetric> trial_metrics() const override {
    return {{"multicast.plan_mean_step", "steps",
             "per trial, the mean over the destinations of the step that reaches them (no link sharing; seed001 "
             "§5.2's lower bound for the average): count, mean, min, max"},
            {"multicast.shared_steps", "steps",
             "per trial, the last destination's step when unicasts of one step sharing a physical link take one step "
             "per user (seed001 §5.2; 3-way with router.link_sharing bidirectional): count, mean, min, max"},
            {"multicast.shared_mean_step", "steps", "per trial, the mean over the destinations of that step"},
            {"multicast.type1_unicasts", "unicasts",
             "per trial, unicasts sharing a physical link with another of their step, VCs of one direction "
             "multiplexed (seed001 Fig. 4.17 Type 1)"},
            {"multicast.type2_unicasts", "unicasts",
             "per trial, unicasts sharing a physical link with two others of their step, all VCs of a router pair "
             "multiplexed (Fig. 4.17 Type 2; 0 on unidirectional tori)"}};
  }
  TrialPlan trial_plan(const topo::DirectRouting& routing, NodeId source,
                       const std::vector<NodeId>& dests) const override {
    const UTorusPlan u = plan_utorus(routing.topology(), source, dests);
    const double mean = utorus_shared_steps(routing, u, LinkSharing::none).mean;
    const SharedSteps two = utorus_shared_steps(routing, u, LinkSharing::two_way);
    const SharedSteps three =
        routing.topology().bidirectional() ? utorus_shared_steps(routing, u, LinkSharing::three_way) : two;
    const SharedSteps& s = three_way_ ? three : two;
    return {u.steps,
            detail::unicast_routes(routing, u.unicasts),
            {mean, static_cast<double>(s.max), s.mean, static_cast<double>(two.shared_unicasts),
             static_cast<double>(three.triple_unicasts)}};
  }

  std::vector<NodeId> source_part(const topo::DirectRouting& routing, NodeId source,
                                  const std::vector<NodeId>& dests) const override {
    return dimension_ordered_chain(routing.topology(), source, dests);
  }
  std::vector<LocalSend> local_sends(const topo::DirectRouting&, const std::vector<NodeId>& part) const override {
    return detail::as_local_sends(utorus_local_sends(part));
  }

  DirectTbDefaults tb_defaults() const override {
    return detail::chapter4_torus_defaults(
        "seed001 Ch. 4: torus, unicast-based on the R-chain, UTR (BTR when bidirectional), one-port");
  }

 private:
  bool three_way_ = false;
};

}  // namespace

void add_utorus_scheme(DirectSchemeRegistry& r) {
  r.add("utorus", "torus, one-port, unicast-based: U-torus on the R-chain (seed001 Fig. 4.9), UTR or BTR",
        [] { return std::make_unique<UTorusScheme>(); });
}

}  // namespace wormcast::algo
