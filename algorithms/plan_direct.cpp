// The direct-network schemes (direct_scheme.h: seed001's hypercube and
// torus schemes, seed004's SCI schemes) in the plan contract. Each registry
// entry becomes a `plan` scheme whose options are the ones its visit()
// declares (--r, --port-model, ...); the scheme checks the network
// (require_network), then plans with its own routing (plan_routing).
// Steps are the contract's steps (phases for the path-based schemes);
// paths are the nodes a message crosses, sender first; link_visits is the
// total of their lengths (Fig. 6.8's metric).
#include <stdexcept>

#include "algorithms/direct_scheme.h"
#include "algorithms/plan.h"

namespace wormcast::algo {

namespace {

MulticastPlan plan_direct(const DirectSchemeRegistry::Entry& e, const PlanRequest& q) {
  const std::unique_ptr<DirectScheme> s = e.make();
  const SchemeKeys keys = plan_keys(e.name);
  const bool direct = q.kind() == NetworkClass::direct;
  require_network(*s, keys, direct ? &*q.network->direct : nullptr, nullptr, q.network ? q.network->spec : "");
  if (q.destinations.empty())
    throw std::invalid_argument("--dests: the destination set is empty (give --dests or --random)");
  set_options(*s, q.options, keys);
  const topo::DirectRouting routing = s->plan_routing(*q.network->direct);
  return s->plan(*q.network, routing, q.source.value_or(0), q.destinations);
}

}  // namespace

void register_direct_schemes(SchemeRegistry& r) {
  for (const DirectSchemeRegistry::Entry& e : direct_schemes().entries())
    r.add({e.name, e.description, [&e](ParamVisitor& v) { e.make()->visit(v); },
           [&e](const PlanRequest& q) { return plan_direct(e, q); }});
}

}  // namespace wormcast::algo
