// `wormcast plan` as data: one contract for every multicast scheme
// (docs/plan.md). A MulticastPlan lists
// every message a scheme sends (sender, step or phase, destinations in
// visiting order, switches or nodes crossed) with scheme-specific extras, and
// prints as one JSON object or as text for people. Schemes are entries of a
// registry (name, description, accepted options, planner); adding one is one
// add() call in register_builtin_schemes (plan.cpp), or one record: a
// direct-network scheme in direct_schemes() (direct_scheme.h), a switch-based
// one in switch_schemes() (switch_scheme.h), an InfiniBand one in
// ib_schemes() (ib_scheme.h). The planners are the
// library's own (kbinomial_tree.h, step_model.h, chain_ordering.h,
// multiphase.h, reachability.h, headers.h): `plan` only prints them.
// Plain C++, no SystemC. docs/plan.md documents the output.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/plan_network.h"
#include "algorithms/scheme_options.h"

namespace wormcast::algo {

// One message: a unicast packet copy (k-binomial family) or a worm.
struct PlanMessage {
  topo::NodeId sender = -1;
  int step = 0;                             // 1-based step or phase
  std::vector<topo::NodeId> destinations;   // visiting order
  std::vector<std::string> path;            // "sw3" switches, or direct node names; empty if not routed
  nlohmann::json extras = nlohmann::json::object();   // per-message extras (header bits, send order, ...)
};

struct MulticastPlan {
  std::string scheme;
  std::string topology;                     // the network's spec; "" without one
  topo::NodeId source = 0;
  std::vector<topo::NodeId> destinations;   // as given
  int steps = 0;
  std::vector<PlanMessage> messages;
  nlohmann::json extras = nlohmann::json::object();
  // Node naming (PlanNetwork::node_json/node_text); chain positions when null.
  std::shared_ptr<const PlanNetwork> network;

  nlohmann::json node_json(topo::NodeId n) const;
  std::string node_text(topo::NodeId n) const;
  // The contract: scheme, topology (null without one), source, destinations,
  // steps, messages [{sender, step, destinations, path, per-message extras}],
  // then the extras' keys at top level (alphabetical), in that order.
  nlohmann::ordered_json to_json() const;
  std::string to_text() const;
};

// Scheme options as given (scheme_options.h): key as the scheme declares it
// ("k", "flit_bits", "r") -> text. Each scheme checks and reads its own.
using PlanOptions = OptionTexts;

struct PlanRequest {
  std::shared_ptr<const PlanNetwork> network;   // null: no --topology
  std::optional<topo::NodeId> source;       // default 0 (chain position or node 0)
  std::vector<topo::NodeId> destinations;   // checked: nodes, distinct, not the source
  PlanOptions options;
  NetworkClass kind() const { return network ? network->kind : NetworkClass::none; }
};

using Planner = std::function<MulticastPlan(const PlanRequest&)>;

struct SchemeInfo {
  std::string name;
  std::string description;
  // Declares the scheme's options on an object holding their defaults
  // (empty: it takes none). The planner reads them with read_options.
  OptionSchema options;
  Planner plan;
  std::vector<std::string> option_names() const;   // as `plan` spells them: "--k", ...
};

class SchemeRegistry {
 public:
  void add(SchemeInfo s);   // std::logic_error on a duplicate name
  const SchemeInfo* find(const std::string& name) const;
  // std::invalid_argument "unknown scheme 'x' (known: ...)".
  const SchemeInfo& at(const std::string& name) const;
  std::string joined_names() const;
  const std::vector<SchemeInfo>& entries() const { return entries_; }

 private:
  std::vector<SchemeInfo> entries_;
};

// Built-in schemes: kbinomial, binomial, linear, path-lg, path-greedy, ssr,
// tree (switch networks); the entries of direct_schemes() (direct networks:
// ucube, maxport, combine, wsort, utorus, storus, mdtorus, mutorus,
// separate, sci-*); ib-cyclic, ib-opensm, ib-unicast (fat trees).
void register_builtin_schemes(SchemeRegistry& r);
const SchemeRegistry& scheme_registry();

// Sets q's options on what `schema` visits (the scheme's options object),
// with errors naming the option. plan_multicast has already refused options
// the scheme does not declare.
void read_options(const OptionSchema& schema, const PlanRequest& q, const std::string& scheme);

// Looks the scheme up, rejects options it does not take and bad nodes
// (std::invalid_argument naming the option), then runs its planner.
MulticastPlan plan_multicast(const std::string& scheme, const PlanRequest& q,
                             const SchemeRegistry& registry = scheme_registry());

// Each adds one family's schemes to r (register_builtin_schemes calls them).
void register_kbinomial_schemes(SchemeRegistry& r);  // plan_kbinomial.cpp
void register_switch_schemes(SchemeRegistry& r);     // switch_scheme.cpp
void register_direct_schemes(SchemeRegistry& r);     // plan_direct.cpp
void register_ib_schemes(SchemeRegistry& r);         // plan_ib.cpp

}  // namespace wormcast::algo
