// A switch-based multicast scheme of seed000 §5 (Sivaram et al.) as one
// definition, on irregular up*/down* networks: its planner for `wormcast
// plan` (the plan contract, plan.h), the options that planner takes, the
// decoder its worms need (switch.decoder), and the local rule the host
// software runs in the single_multicast and multicast_load workloads: the
// worms the source sends, and the worms a node sends after receiving one.
// Neither `plan` nor the workloads tell schemes apart; adding one is a class
// in switch_scheme.cpp plus one line in switch_schemes(). Plain C++, no
// SystemC.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "algorithms/headers.h"
#include "algorithms/multiphase.h"
#include "algorithms/plan.h"
#include "algorithms/worm_encoding.h"
#include "rtl_models/core/registry.h"

namespace wormcast::algo {

// A worm as host software hands it to its NI: the encoded header, every
// destination it reaches, and what relays among them must send next (opaque
// to the NI and the switches).
struct WormSend {
  WormEncoding encoding = WormEncoding::none;
  std::vector<bool> header_bits;
  std::vector<topo::NodeId> dests;
  std::shared_ptr<const RelayWorm> relay_worm;
  int bytes = 0;
};

// The `plan` options of the switch-based schemes; each scheme declares the
// ones it takes (plan_options), with these defaults.
struct SwitchPlanOptions {
  std::string id = "switch";        // the header's ID field names a switch or a node
  std::string poc_dag = "full";     // Fig. 13 step 1: the full down DAG or a DFS tree
  bool recompute_weights = false;   // POC weights after each chain
  int flit_bits = 8;                // for header_flits
  std::string scheduler;            // lg or greedy, where the scheme lets `plan` choose (default: its own)
};

class SwitchScheme {
 public:
  virtual ~SwitchScheme() = default;
  // The decoder (switch.decoder) its worms need.
  virtual const char* decoder() const = 0;
  // Declares the `plan` options it takes on o (scheme_options.h).
  virtual void plan_options(ParamVisitor& v, SwitchPlanOptions& o) const = 0;
  // The whole multicast of q (an irregular network, a source, destinations).
  virtual MulticastPlan plan(const PlanRequest& q) const = 0;
  // The worms the source sends, in order (they leave one after another).
  // Throws std::invalid_argument on a bad multicast (check_multicast).
  virtual std::vector<WormSend> source_worms(const topo::Topology& t, const topo::UpDownRouting& r, SsrId id,
                                             topo::NodeId source, const std::vector<topo::NodeId>& dests,
                                             int bytes) const = 0;
  // The worms node `me` sends after receiving a worm that carried `got`, in
  // order (none for a node that does not relay).
  virtual std::vector<WormSend> relay_worms(const topo::Topology& t, SsrId id, const RelayWorm* got,
                                            topo::NodeId me, int bytes) const = 0;
};

// Every worm of a multicast: the source's, then recursively those each relay
// sends for the worm that carried its relay work, depth first. Throws
// std::invalid_argument as source_worms does, std::logic_error for relay
// work that never ends.
std::vector<WormSend> all_worms(const SwitchScheme& s, const topo::Topology& t, const topo::UpDownRouting& r, SsrId id,
                                topo::NodeId source, const std::vector<topo::NodeId>& dests, int bytes);

using SwitchSchemeRegistry = Registry<SwitchScheme>;
// tree, path-lg, path-greedy, ssr.
const SwitchSchemeRegistry& switch_schemes();
// The record of `name`, alive for the whole program; throws
// std::invalid_argument naming the known schemes.
const SwitchScheme& switch_scheme(const std::string& name);

}  // namespace wormcast::algo
