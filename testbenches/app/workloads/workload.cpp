#include "testbenches/app/workloads/workload.h"

#include "algorithms/direct_scheme.h"

#include "testbenches/app/workloads/direct_multicast_load_workload.h"
#include "testbenches/app/workloads/direct_multicast_workload.h"
#include "testbenches/app/workloads/ib_multicast_load_workload.h"
#include "testbenches/app/workloads/ib_multicast_workload.h"
#include "testbenches/app/workloads/multicast_load_workload.h"
#include "testbenches/app/workloads/multicast_workload.h"
#include "testbenches/app/workloads/synthetic_workload.h"

namespace wormcast::tb {

std::string multicast_set_problem(int source, int set_size, bool destinations_listed, int nodes) {
  if (source >= nodes) return "traffic.source " + std::to_string(source) + ": the network has " + std::to_string(nodes) + " nodes";
  if (!destinations_listed && set_size > nodes)
    return "traffic.set_size " + std::to_string(set_size) + " exceeds the " + std::to_string(nodes) +
           " nodes of the network";
  return {};
}

WorkCount Workload::work_count(const rtl::SimContext& ctx) const { return {ctx.ledger.created(), ctx.ledger.completed()}; }

WorkloadRegistry& workload_registry() {
  static WorkloadRegistry registry = [] {
    WorkloadRegistry r("workload");
    r.add("synthetic", "uniform random unicast: packets at endpoints, or messages between hosts (host_ni)",
          [] { return std::make_unique<SyntheticWorkload>(); });
    r.add("single_multicast",
          "one source multicasts a message on a k-binomial tree, repeated; latency to the last destination "
          "(host_ni; smart NI firmware fpfs/fcfs relays it)",
          [] { return std::make_unique<SingleMulticastWorkload>(); });
    r.add("multicast_load",
          "every node multicasts to `degree` random nodes at load B_i (effective load degree * B_i) with a "
          "switch-based scheme (tree, path-lg, path-greedy, ssr) or ni (seed000 §6.5)",
          [] { return std::make_unique<MulticastLoadWorkload>(); });
    r.add("direct_multicast",
          "seed001 / seed004 multicast on a direct network of processors (node.model processor): " +
              algo::direct_schemes().joined_names() + "; trials with fresh random sets; mean and maximum latency",
          [] { return std::make_unique<DirectMulticastWorkload>(); });
    r.add("direct_multicast_load",
          "a stream of direct-network multicasts (node.model processor) at an offered load, Bernoulli or Poisson "
          "arrivals per source, random or fixed groups; latency against load, saturation",
          [] { return std::make_unique<DirectMulticastLoadWorkload>(); });
    r.add("ib_multicast_load",
          "seed003 InfiniBand multicast under load: `sources` senders multicast to one group by cyclic, opensm or "
          "unicast, Bernoulli or Poisson arrivals; latency against load, saturation",
          [] { return std::make_unique<IbMulticastLoadWorkload>(); });
    r.add("ib_multicast",
          "seed003 InfiniBand fat-tree multicast (topology.kind fat_tree, node.model endpoint): `sources` senders "
          "multicast to a group by cyclic, opensm or unicast; completion time per trial",
          [] { return std::make_unique<IbMulticastWorkload>(); });
    return r;
  }();
  return registry;
}

}  // namespace wormcast::tb
