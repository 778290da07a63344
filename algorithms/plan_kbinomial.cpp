// The NI-based k-binomial family in the plan contract (seed000 §4, seed002):
// kbinomial (k given or Theorem 3's optimum), binomial (k = ceil(log2 n)) and
// linear (k = 1). The tree is build_kbinomial_tree on the chain, the steps
// come from simulate_steps (FPFS by default); one message per tree edge, at
// the step packet 1 crosses it (all packets' steps in packet_steps).
#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <tuple>

#include "algorithms/chain_ordering.h"
#include "algorithms/kbinomial.h"
#include "algorithms/kbinomial_tree.h"
#include "algorithms/plan.h"
#include "algorithms/plan_detail.h"
#include "algorithms/poc.h"
#include "algorithms/step_model.h"

namespace wormcast::algo {

using detail::choice;
using nlohmann::json;
using topo::NodeId;

namespace {

enum class Family { kbinomial, binomial, linear };

const std::initializer_list<std::pair<const char*, TreeConstruction>> kConstructions = {
    {"time-ordered", TreeConstruction::time_ordered}, {"literal", TreeConstruction::literal}};
const std::initializer_list<std::pair<const char*, KTieBreak>> kTies = {{"largest", KTieBreak::largest_k},
                                                                        {"smallest", KTieBreak::smallest_k}};
const std::initializer_list<std::pair<const char*, NiDiscipline>> kDisciplines = {{"fpfs", NiDiscipline::fpfs},
                                                                                  {"fcfs", NiDiscipline::fcfs}};

// Upper bound on packet copies a printed plan may hold.
constexpr int kMaxCopies = 100'000'000;

// The family's options; kbinomial also takes k and its tie-break.
struct KbOptions {
  bool with_k = false;
  int packets = 1;
  int set_size = 0;   // 0: not given (the destinations decide)
  int k = 0;          // 0: not given (Theorem 3's optimum)
  std::string construction = "time-ordered";
  std::string tie_break = "largest";
  std::string discipline = "fpfs";
  std::string ordering;   // "": cco on irregular networks, given on others

  void visit(ParamVisitor& v) {
    v.count("packets", packets, "packets per message; default 1", 1, kMaxCopies);
    v.count("set_size", set_size, "multicast set size n, source included; needed without --topology", 2,
            kMaxCopies);
    if (with_k) {
      v.count("k", k, "fan-out bound; default: the optimum of seed002 Theorem 3", 1, 64);
      v.choice("tie_break", tie_break, {"largest", "smallest"},
               "which k among optima, without --k: largest (default) or smallest");
    }
    v.choice("construction", construction, {"time-ordered", "literal"}, "tree construction: time-ordered (default) or literal");
    v.choice("discipline", discipline, {"fpfs", "fcfs"}, "NI discipline: fpfs (default) or fcfs");
    v.choice("ordering", ordering, {"cco", "given"}, "chain ordering: cco (the default on irregular networks) or given");
  }
};

KbOptions read_kb_options(const PlanRequest& q, bool with_k, const std::string& scheme) {
  KbOptions o;
  o.with_k = with_k;
  read_options([&o](ParamVisitor& v) { o.visit(v); }, q, scheme);
  if (q.options.count("tie_break") && q.options.count("k"))
    throw std::invalid_argument("--tie-break applies only when --k is not given");
  return o;
}

struct Chain {
  std::vector<NodeId> nodes;   // [chain position] -> node id (the position itself without a network)
  std::string ordering;        // "" without a network
};

Chain chain_without_network(const KbOptions& o) {
  if (!o.ordering.empty())
    throw std::invalid_argument("--ordering needs --topology (without one the chain is 0..n-1)");
  if (o.set_size == 0)
    throw std::invalid_argument(
        "--set-size is required without --topology (or give --topology with --dests or --random)");
  const int n = o.set_size;
  Chain c;
  c.nodes.resize(static_cast<std::size_t>(n));
  std::iota(c.nodes.begin(), c.nodes.end(), 0);
  return c;
}

Chain chain_on_network(const PlanRequest& q, const KbOptions& o) {
  const PlanNetwork& net = *q.network;
  if (q.destinations.empty())
    throw std::invalid_argument("--dests: the destination set is empty (give --dests or --random)");
  const long long n = static_cast<long long>(q.destinations.size()) + 1;
  if (o.set_size != 0 && o.set_size != n)
    throw std::invalid_argument("--set-size " + std::to_string(o.set_size) + " does not match the " +
                                std::to_string(n - 1) + " destinations given (set size = destinations + 1)");
  const bool irregular = net.kind == NetworkClass::irregular;
  Chain c;
  c.ordering = !o.ordering.empty() ? o.ordering : irregular ? "cco" : "given";
  const NodeId src = q.source.value_or(0);
  if (c.ordering == "cco") {
    if (!irregular)
      throw std::invalid_argument("--ordering cco needs an irregular switch network; " + net.spec +
                                  " is a direct network (use --ordering given)");
    c.nodes = cco_approx_chain(*net.topology, *net.routing, src, q.destinations);
    c.ordering = "cco-approx";
  } else {
    c.nodes = given_order_chain(src, q.destinations);
  }
  return c;
}

// k for the family; `rule` says where it comes from.
unsigned choose_k(Family f, const KbOptions& o, Count n, Count m, std::string& rule) {
  if (f == Family::binomial) {
    rule = "ceil(log2 n) (binomial tree)";
    return binomial_k(n);
  }
  if (f == Family::linear) {
    rule = "1 (linear tree)";
    return kLinearK;
  }
  if (o.k != 0) {
    rule = "given";
    return static_cast<unsigned>(o.k);
  }
  const KTieBreak tie = choice(o.tie_break, kTies);
  rule = std::string("optimal (Theorem 3, ties to the ") + detail::name_of(tie, kTies) + " k)";
  return optimal_k(n, m, tie).k;
}

// The route of a unicast from a to b: switches crossed (irregular) or nodes
// visited, a and b included (direct); nothing without a network.
std::vector<std::string> unicast_path(const PlanRequest& q, NodeId a, NodeId b) {
  std::vector<std::string> path;
  if (q.kind() == NetworkClass::irregular) {
    for (topo::SwitchId s : route_path_worm(*q.network->topology, *q.network->routing, a, {b}).path)
      path.push_back(detail::switch_name(s));
  } else if (q.kind() == NetworkClass::direct) {
    for (const topo::RouteHop& h : q.network->direct_routing->route(a, b)) path.push_back(q.network->node_text(h.node));
    path.push_back(q.network->node_text(b));
  }
  return path;
}

std::vector<PlanMessage> tree_messages(const PlanRequest& q, const Chain& c, const KBinomialTree& tree,
                                       const StepSchedule& sched) {
  std::vector<std::tuple<unsigned, std::size_t, std::size_t>> order;   // (step, sender pos, child index)
  for (std::size_t u = 0; u < tree.size(); ++u)
    for (std::size_t i = 0; i < tree.children[u].size(); ++i)
      order.emplace_back(sched.receive_step[tree.children[u][i]][0], u, i);
  std::sort(order.begin(), order.end());
  std::vector<PlanMessage> out;
  for (const auto& [step, u, i] : order) {
    const std::size_t v = tree.children[u][i];
    PlanMessage m;
    m.sender = c.nodes[u];
    m.step = static_cast<int>(step);
    m.destinations = {c.nodes[v]};
    m.path = unicast_path(q, c.nodes[u], c.nodes[v]);
    m.extras["order"] = i + 1;
    m.extras["packet_steps"] = sched.receive_step[v];
    out.push_back(std::move(m));
  }
  return out;
}

MulticastPlan plan_family(Family f, const PlanRequest& q, const std::string& scheme) {
  const KbOptions o = read_kb_options(q, f == Family::kbinomial, scheme);
  const Chain c = q.network ? chain_on_network(q, o) : chain_without_network(o);
  const Count n = c.nodes.size();
  const long long m = o.packets;
  if (m > kMaxCopies / static_cast<long long>(n))
    throw std::invalid_argument("--packets " + std::to_string(m) + " with set size " + std::to_string(n) +
                                " is too large to plan");
  std::string k_rule;
  const unsigned k = choose_k(f, o, n, static_cast<Count>(m), k_rule);
  const TreeConstruction tc = choice(o.construction, kConstructions);
  const NiDiscipline disc = choice(o.discipline, kDisciplines);
  const KBinomialTree tree = build_kbinomial_tree(n, k, tc);
  const StepSchedule sched = simulate_steps(tree.children, 0, static_cast<std::size_t>(m), disc);

  MulticastPlan p;
  p.source = c.nodes[0];
  p.destinations = q.network ? q.destinations : std::vector<NodeId>(c.nodes.begin() + 1, c.nodes.end());
  p.steps = static_cast<int>(sched.total_steps);
  p.messages = tree_messages(q, c, tree, sched);
  json& x = p.extras;
  x["k"] = k;
  x["k_rule"] = k_rule;
  x["set_size"] = n;
  x["packets"] = m;
  x["first_packet_steps"] = sched.completion_step.front();
  x["theorem2_steps"] = pipelined_steps(n, k, static_cast<Count>(m));
  x["sends_per_step"] = std::vector<unsigned>(sched.sends_per_step.begin() + 1, sched.sends_per_step.end());
  x["construction"] = detail::name_of(tc, kConstructions);
  x["discipline"] = detail::name_of(disc, kDisciplines);
  if (q.network) {
    x["ordering"] = c.ordering;
    json chain = json::array();
    for (NodeId v : c.nodes) chain.push_back(q.network->node_json(v));
    x["chain"] = chain;
  }
  return p;
}

}  // namespace

void register_kbinomial_schemes(SchemeRegistry& r) {
  auto schema = [](bool with_k) {
    return [with_k](ParamVisitor& v) {
      KbOptions o;
      o.with_k = with_k;
      o.visit(v);
    };
  };
  r.add({"kbinomial", "k-binomial tree of NI unicasts, k given or optimal (seed002 Theorem 3); FPFS pipelining",
         schema(true), [](const PlanRequest& q) { return plan_family(Family::kbinomial, q, "kbinomial"); }});
  r.add({"binomial", "binomial tree of NI unicasts (k = ceil(log2 n))", schema(false),
         [](const PlanRequest& q) { return plan_family(Family::binomial, q, "binomial"); }});
  r.add({"linear", "linear tree (chain) of NI unicasts (k = 1)", schema(false),
         [](const PlanRequest& q) { return plan_family(Family::linear, q, "linear"); }});
}

}  // namespace wormcast::algo
