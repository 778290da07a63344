// seed004 (Oral & George) on the SCI torus's hosts, without
// multi-destination worms (sci_multicast.h): sci-separate, sci-utorus,
// sci-storus, sci-mdtorus, sci-mutorus (--r, default 4 as the testbed), all
// unicasts relayed store-and-forward, routed in the testbed's dimension
// order (X then Y); extras add used_links, link_utilization, concurrency and
// root_targets (seed004 §1, §6).
#include "algorithms/direct_scheme_detail.h"
#include "algorithms/sci_multicast.h"

namespace wormcast::algo {

namespace {

using nlohmann::json;
using topo::NodeId;

class SciDirectScheme : public DirectScheme {
 public:
  explicit SciDirectScheme(SciScheme s) : scheme_(s) {}

  void visit(ParamVisitor& v) override {
    if (scheme_ == SciScheme::mutorus) v.count("r", r_, "nodes per partition; default 4, the testbed's", 2, 1 << 20);
  }
  std::vector<NetworkNeed> needs() const override {
    if (!by_cycle()) return {detail::sci_torus(false)};
    return {detail::sci_torus(false), detail::sci_torus(true)};
  }
  // The testbed's routing: dimension order, X (σ_0) first (seed004 §3, §6).
  topo::DirectRouting plan_routing(const topo::DirectTopology& t) const override {
    return topo::DirectRouting(t, t.bidirectional() ? topo::RoutingAlgorithm::btr : topo::RoutingAlgorithm::utr,
                               topo::DimOrder::ascending);
  }

  MulticastPlan plan(const PlanNetwork& net, const topo::DirectRouting& xy, NodeId source,
                     const std::vector<NodeId>& dests) const override {
    const SciPlan sp = plan_sci(xy.topology(), scheme_, source, dests, r_);
    MulticastPlan p = detail::plan_head(source, dests, sp.steps);
    for (const SciUnicast& u : sp.unicasts) {
      PlanMessage m{u.sender, u.step, {u.receiver}, detail::path_names(net, xy.route(u.sender, u.receiver)),
                    json::object()};
      m.extras = {{"field", detail::names(net, u.field)}, {"phase", u.phase}};
      p.messages.push_back(std::move(m));
    }
    const SciLinkUse use = sci_link_use(xy, sp);
    p.extras = {{"order", detail::names(net, sp.order)},
                {"ordering", by_cycle() ? "cycle (Eq. 2)" : "dimension"},
                {"routing", std::string(topo::to_string(xy.algorithm())) + " ascending"},
                {"phases", sp.phases},
                {"link_visits", use.link_visits},
                {"used_links", use.used_links},
                {"link_utilization", use.utilization},
                {"concurrency", use.concurrency},
                {"root_targets", use.root_targets}};
    if (scheme_ == SciScheme::mutorus) p.extras["r"] = r_;
    return p;
  }

  std::vector<TrialMetric> trial_metrics() const override {
    const auto place = TrialMetric::Place::with_transfers;
    return {{"multicast.plan_concurrency", "unicasts",
             "per trial, the step model's most unicasts in one logical step: count, mean, min, max", place},
            {"multicast.plan_root_targets", "nodes",
             "per trial, the distinct nodes the root sends to (seed004 §6: start-up latency = set-up cost x this): "
             "count, mean, min, max",
             place}};
  }
  TrialPlan trial_plan(const topo::DirectRouting& xy, NodeId source, const std::vector<NodeId>& dests) const override {
    const SciPlan sp = plan_sci(xy.topology(), scheme_, source, dests, r_);
    const SciLinkUse use = sci_link_use(xy, sp);
    return {sp.steps, detail::unicast_routes(xy, sp.unicasts),
            {static_cast<double>(use.concurrency), static_cast<double>(use.root_targets)}};
  }

  std::vector<NodeId> source_part(const topo::DirectRouting& xy, NodeId source,
                                  const std::vector<NodeId>& dests) const override {
    return sci_group_order(xy.topology(), scheme_, source, dests);
  }
  std::vector<LocalSend> local_sends(const topo::DirectRouting& xy, const std::vector<NodeId>& part) const override {
    return detail::as_local_sends(sci_local_sends(xy.topology(), scheme_, r_, part));
  }

  DirectTbDefaults tb_defaults() const override {
    return {"seed004: 4x4 SCI torus, unicasts relayed store-and-forward by polling hosts in 64-byte packets",
            "torus:4x4:uni",
            "utr",
            "btr",
            {{"clock.period", "4ns"},
             {"routing.order", "ascending"},
             {"router.ports", "one_port"},
             {"router.buffer", "8flits"},
             {"router.route_delay", "2"},
             {"router.crossbar_delay", "2"},
             {"processor.t_s", "40"},
             {"processor.t_r", "150"},
             {"processor.packet_bytes", "64"},
             {"processor.header_flits", "16"},
             {"message.size", "2"}},
            {}};
  }

 private:
  // The path-based three order the group on Eq. 2's cycle (Θ′), which needs a regular torus.
  bool by_cycle() const { return scheme_ != SciScheme::separate && scheme_ != SciScheme::utorus; }

  SciScheme scheme_;
  int r_ = 4;
};

template <SciScheme S>
std::unique_ptr<DirectScheme> make() {
  return std::make_unique<SciDirectScheme>(S);
}

}  // namespace

void add_sci_schemes(DirectSchemeRegistry& r) {
  const std::string sf = ", unicasts relayed store-and-forward by the hosts (seed004)";
  r.add("sci-separate", "torus: separate addressing, the root sends to each destination" + sf,
        make<SciScheme::separate>);
  r.add("sci-utorus", "torus: U-torus, recursive halving on the dimension order" + sf, make<SciScheme::utorus>);
  r.add("sci-storus", "regular torus: S-torus, one chain along the Eq. 2 cycle" + sf, make<SciScheme::storus>);
  r.add("sci-mdtorus", "regular torus: M_d-torus, ringlet heads then ringlet chains" + sf, make<SciScheme::mdtorus>);
  r.add("sci-mutorus", "regular torus: M_u-torus(r), chunks of r (--r, default 4)" + sf, make<SciScheme::mutorus>);
}

}  // namespace wormcast::algo
