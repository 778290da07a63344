// A multicast scheme of the direct networks (seed001's hypercube and torus
// schemes, seed004's SCI schemes) as one definition: everything `wormcast
// plan`, the `direct_multicast` workload and direct_multicast_tb need to
// know about a scheme lives in its DirectScheme, so that none of them tells
// schemes apart. A scheme states
//  * its options, declared once through visit() (ParamVisitor): `plan`
//    offers them as --key, an experiment as traffic.key;
//  * the networks it runs on (needs()), checked for both by require_network;
//  * its planner, in the plan contract (plan()) and as the step-model
//    numbers of one simulated trial (trial_plan());
//  * the local rule the simulated software runs (docs/design.md principle 1): the
//    source's part (source_part()) and what a node holding a part sends
//    (local_sends()); how a message carries the part it hands on (carrier());
//  * its testbench defaults (tb_defaults()).
// Adding a scheme is a file with its DirectScheme plus one line in
// direct_schemes() (docs/architecture.md, "Adding a multicast scheme").
// Plain C++, no SystemC.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/compound_header.h"
#include "algorithms/plan.h"
#include "algorithms/scheme_options.h"
#include "rtl_models/core/params.h"
#include "rtl_models/core/registry.h"
#include "topologies/direct_routing.h"
#include "topologies/direct_topology.h"

namespace wormcast::algo {

// One kind of network a scheme runs on: the topology it needs and the routing
// its messages must be routed with. A scheme's needs are checked in order and
// the first unmet one is reported.
struct NetworkNeed {
  bool (*fits)(const topo::DirectTopology&);
  const char* topology;   // "a hypercube"
  const char* plan_hint;  // how to ask `plan` for one: "--topology hypercube:N"
  bool (*routes)(const topo::DirectRouting&);
  const char* routing;    // what an experiment must configure: "routing.function ecube (descending)"
};

// What the simulated nodes are (the workload reads them from the node model).
struct DirectNodeFacts {
  bool all_port = false;      // router.ports all_port
  bool in_order = false;      // processor.send_model in_order (seed001 §7.1 model B)
  int packet_bytes = 0;       // processor.packet_bytes (0: a message is one packet)
  bool three_way = false;     // router.link_sharing bidirectional: 3-way physical link sharing
};

// One message of a node's local rule: its receivers in visiting order, each
// with the nodes it then becomes responsible for (CompoundBlock::later). A
// unicast has one block.
struct LocalSend {
  std::vector<CompoundBlock> blocks;
};

// How a message hands on the part it carries: with a unicast, out of band
// (the receiver's field is not counted in its flits); with an IR worm, as
// its compound header (Fig. 6.2), which every receiver reads from its router.
enum class Carrier { unicast, compound_worm };

// A statistic the scheme's step model adds per trial, and where it is listed
// among the workload's statistics: with the plan's steps, or after the
// measured transfers.
struct TrialMetric {
  enum class Place { with_steps, with_transfers };
  const char* name;   // under "metrics", e.g. "multicast.shared_steps"
  const char* unit;
  const char* description;
  Place place = Place::with_steps;
};

// The plan of one simulated trial: its steps (phases), every message's route
// (the link metrics of seed004 §1), and a value per trial_metrics() entry.
struct TrialPlan {
  int steps = 0;
  std::vector<std::vector<topo::RouteHop>> routes;
  std::vector<double> metrics;
};

// The experiment direct_multicast_tb builds for the scheme: its experiments'
// network and node settings.
struct DirectTbDefaults {
  std::string about;                  // one line for the testbench's output
  std::string topology;               // default --topology
  std::string routing_uni, routing_bi;   // routing.function by torus direction
  std::vector<std::pair<std::string, std::string>> settings;   // router, processor, clock, message
  std::map<std::string, std::string> options;   // scheme options the testbench sets unless given ("r" -> "4")
};

class DirectScheme {
 public:
  virtual ~DirectScheme() = default;

  // Its own options, declared once; the defaults are the members' values.
  virtual void visit(ParamVisitor& v) { (void)v; }
  // Refuses a missing or inconsistent option once they are set.
  virtual void check_options(const SchemeKeys& keys) const { (void)keys; }
  virtual std::vector<NetworkNeed> needs() const = 0;
  // The simulated nodes: may refuse them (std::invalid_argument naming the
  // key) or adopt them (the hypercube schemes' port and step model).
  virtual void fit_nodes(const DirectNodeFacts& f, const SchemeKeys& keys) {
    (void)f;
    (void)keys;
  }

  // The routing `wormcast plan` routes the messages with on `t` (an
  // experiment configures it: needs()). Default: the topology's own.
  virtual topo::DirectRouting plan_routing(const topo::DirectTopology& t) const;
  // The whole multicast in the plan contract (scheme, topology and network
  // are filled in by plan_multicast).
  virtual MulticastPlan plan(const PlanNetwork& net, const topo::DirectRouting& routing, topo::NodeId source,
                             const std::vector<topo::NodeId>& dests) const = 0;
  virtual std::vector<TrialMetric> trial_metrics() const { return {}; }
  virtual TrialPlan trial_plan(const topo::DirectRouting& routing, topo::NodeId source,
                               const std::vector<topo::NodeId>& dests) const = 0;

  // The local rule: what the source holds (itself first), and what a node
  // holding `part` (itself first) sends, in sending order.
  virtual std::vector<topo::NodeId> source_part(const topo::DirectRouting& routing, topo::NodeId source,
                                                const std::vector<topo::NodeId>& dests) const = 0;
  virtual std::vector<LocalSend> local_sends(const topo::DirectRouting& routing,
                                             const std::vector<topo::NodeId>& part) const = 0;
  virtual Carrier carrier() const { return Carrier::unicast; }

  virtual DirectTbDefaults tb_defaults() const = 0;
};

using DirectSchemeRegistry = Registry<DirectScheme>;
// The built-in schemes, in the order `plan --list` shows them.
const DirectSchemeRegistry& direct_schemes();

// Throws std::invalid_argument when the scheme cannot run there: for `plan`
// (routing null: the scheme routes with plan_routing) naming --topology, for
// an experiment naming traffic.scheme and the routing it must configure.
// `what` names the network as the caller knows it (default: t's spec); a
// null topology is a network that is not direct at all.
void require_network(const DirectScheme& s, const SchemeKeys& keys, const topo::DirectTopology* t,
                     const topo::DirectRouting* routing, const std::string& what = "");

// Sets the options given as text (key -> text, keys as visit() declares
// them), with errors naming keys.option(key); a key the scheme does not
// declare is refused, naming the schemes that do. Then check_options.
void set_options(DirectScheme& s, const std::map<std::string, std::string>& given, const SchemeKeys& keys);

// The options of every direct scheme, merged (scheme_options.h).
using DirectOptionInfo = SchemeOptionInfo;
std::vector<DirectOptionInfo> direct_scheme_options();
// The options one scheme takes, as keys.option spells them.
std::vector<std::string> options_of(DirectScheme& s, const SchemeKeys& keys);

}  // namespace wormcast::algo
