#include "testbenches/lib/workload.h"

#include "testbenches/lib/synthetic_workload.h"

namespace wormcast::tb {

WorkloadRegistry& workload_registry() {
  static WorkloadRegistry registry = [] {
    WorkloadRegistry r("workload");
    r.add("synthetic", "uniform random unicast: packets at endpoints, or messages between hosts (host_ni)",
          [] { return std::make_unique<SyntheticWorkload>(); });
    return r;
  }();
  return registry;
}

}  // namespace wormcast::tb
