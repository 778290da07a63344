// seed001 Ch. 3 on hypercubes, all-port by default (Algorithm 1,
// cube_multicast.h): U-cube, Maxport, Combine, W-sort. One unicast per
// destination, each with the dimension of its outgoing channel (E-cube) and
// the address field it carries. The port and step model are options of
// `plan`; a simulation takes them from its processors.
#include "algorithms/cube_multicast.h"
#include "algorithms/direct_scheme_detail.h"

namespace wormcast::algo {

namespace {

using nlohmann::json;
using topo::NodeId;

class CubeScheme : public DirectScheme {
 public:
  explicit CubeScheme(CubeVariant v) : variant_(v) {}

  void visit(ParamVisitor& v) override {
    v.choice("port_model", port_model_, {"all", "one"}, "all (all-port nodes, default) or one (one-port)");
    v.choice("step_model", step_model_, {"queue", "in-order"},
             "all-port steps by per-channel queue (default) or in-order issue (seed001 §7.1)");
  }
  std::vector<NetworkNeed> needs() const override {
    return {{[](const topo::DirectTopology& t) { return t.kind() == topo::DirectKind::hypercube; }, "a hypercube",
             "--topology hypercube:N",
             [](const topo::DirectRouting& r) {
               return r.algorithm() == topo::RoutingAlgorithm::ecube && detail::descending(r);
             },
             "routing.function ecube (descending)"}};
  }
  void fit_nodes(const DirectNodeFacts& f, const SchemeKeys&) override {
    port_model_ = f.all_port ? "all" : "one";
    step_model_ = f.in_order ? "in-order" : "queue";
  }

  MulticastPlan plan(const PlanNetwork& net, const topo::DirectRouting& routing, NodeId source,
                     const std::vector<NodeId>& dests) const override {
    const CubePlan c = cube_plan(routing, source, dests);
    MulticastPlan p = detail::plan_head(source, dests, c.steps);
    for (const CubeUnicast& u : c.unicasts) {
      PlanMessage m{u.sender, u.step, {u.receiver}, detail::path_names(net, routing.route(u.sender, u.receiver)),
                    json::object()};
      m.extras = {{"dimension", u.dimension}, {"field", detail::names(net, u.field)}};
      p.messages.push_back(std::move(m));
    }
    p.extras = {{"chain", detail::names(net, c.chain)},
                {"port_model", port_model_},
                {"step_model", step_model_},
                {"link_visits", detail::links_of(p.messages)}};
    return p;
  }
  TrialPlan trial_plan(const topo::DirectRouting& routing, NodeId source,
                       const std::vector<NodeId>& dests) const override {
    const CubePlan c = cube_plan(routing, source, dests);
    return {c.steps, detail::unicast_routes(routing, c.unicasts), {}};
  }

  std::vector<NodeId> source_part(const topo::DirectRouting& routing, NodeId source,
                                  const std::vector<NodeId>& dests) const override {
    return cube_chain(routing.topology().dimensions(), source, dests, variant_);
  }
  std::vector<LocalSend> local_sends(const topo::DirectRouting&, const std::vector<NodeId>& part) const override {
    return detail::as_local_sends(cube_local_sends(part, variant_));
  }

  DirectTbDefaults tb_defaults() const override {
    return {"seed001 Ch. 3: hypercube, E-cube routing, all-port processors",
            "hypercube:6",
            "ecube",
            "ecube",
            {{"router.ports", "all_port"},
             {"router.buffer", "4flits"},
             {"processor.t_s", "20"},
             {"processor.t_r", "16"},
             {"message.size", "64"}},
            {}};
  }

 private:
  CubePlan cube_plan(const topo::DirectRouting& routing, NodeId source, const std::vector<NodeId>& dests) const {
    return plan_cube_multicast(routing.topology().dimensions(), source, dests, variant_,
                               port_model_ == "all" ? CubePorts::all_port : CubePorts::one_port,
                               step_model_ == "queue" ? CubeSteps::per_channel_queue : CubeSteps::in_order_issue);
  }

  CubeVariant variant_;
  std::string port_model_ = "all";
  std::string step_model_ = "queue";
};

template <CubeVariant V>
std::unique_ptr<DirectScheme> make() {
  return std::make_unique<CubeScheme>(V);
}

}  // namespace

void add_cube_schemes(DirectSchemeRegistry& r) {
  r.add("ucube", "hypercube, unicast-based: U-cube, Algorithm 1 step 4a (seed001 Ch. 3)", make<CubeVariant::ucube>);
  r.add("maxport", "hypercube, all-port: Maxport, Algorithm 1 step 4b (seed001 Ch. 3)", make<CubeVariant::maxport>);
  r.add("combine", "hypercube, all-port: Combine, Algorithm 1 step 4c (seed001 Ch. 3)", make<CubeVariant::combine>);
  r.add("wsort", "hypercube, all-port: W-sort, WeightedSort (Fig. 3.8) then Maxport (seed001 Ch. 3)",
        make<CubeVariant::wsort>);
}

}  // namespace wormcast::algo
