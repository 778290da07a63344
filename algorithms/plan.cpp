#include "algorithms/plan.h"

#include "algorithms/direct_scheme.h"

#include <algorithm>
#include <set>
#include <sstream>
#include <stdexcept>

namespace wormcast::algo {

using nlohmann::json;
using topo::NodeId;

// ---- the contract ------------------------------------------------------------

json MulticastPlan::node_json(NodeId n) const { return network ? network->node_json(n) : json(n); }

std::string MulticastPlan::node_text(NodeId n) const {
  return network ? network->node_text(n) : std::to_string(n);
}

nlohmann::ordered_json MulticastPlan::to_json() const {
  using ojson = nlohmann::ordered_json;
  ojson j = ojson::object();
  j["scheme"] = scheme;
  j["topology"] = topology.empty() ? ojson(nullptr) : ojson(topology);
  j["source"] = node_json(source);
  ojson dests = ojson::array();
  for (NodeId d : destinations) dests.push_back(ojson(node_json(d)));
  j["destinations"] = dests;
  j["steps"] = steps;
  ojson msgs = ojson::array();
  for (const PlanMessage& m : messages) {
    ojson jm = ojson::object();
    jm["sender"] = node_json(m.sender);
    jm["step"] = m.step;
    ojson md = ojson::array();
    for (NodeId d : m.destinations) md.push_back(ojson(node_json(d)));
    jm["destinations"] = md;
    jm["path"] = m.path;
    for (const auto& [key, value] : m.extras.items()) jm[key] = value;
    msgs.push_back(jm);
  }
  j["messages"] = msgs;
  for (const auto& [key, value] : extras.items()) j[key] = value;
  return j;
}

namespace {

bool is_scalar_list(const json& v) {
  return v.is_array() && std::all_of(v.begin(), v.end(), [](const json& e) { return e.is_primitive(); });
}

std::string plain(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (is_scalar_list(v)) {
    std::string s;
    for (const json& e : v) s += (s.empty() ? "" : " ") + plain(e);
    return s;
  }
  return v.dump();
}

std::string joined_nodes(const MulticastPlan& p, const std::vector<NodeId>& nodes) {
  std::string s;
  for (NodeId n : nodes) s += (s.empty() ? "" : " ") + p.node_text(n);
  return s;
}

}  // namespace

std::string MulticastPlan::to_text() const {
  std::ostringstream os;
  os << "scheme " << scheme << " on " << (topology.empty() ? "no network (chain positions)" : topology) << "\n";
  os << "source " << node_text(source) << ", " << destinations.size() << " destinations: "
     << joined_nodes(*this, destinations) << "\n";
  os << "steps: " << steps << ", messages: " << messages.size() << "\n";
  for (const auto& [key, value] : extras.items())
    if (value.is_primitive() || is_scalar_list(value)) os << "  " << key << ": " << plain(value) << "\n";
  for (const PlanMessage& m : messages) {
    os << "  step " << m.step << ": " << node_text(m.sender) << " -> " << joined_nodes(*this, m.destinations);
    if (!m.path.empty()) os << "  via " << plain(json(m.path));
    for (const auto& [key, value] : m.extras.items())
      if (value.is_primitive() || is_scalar_list(value)) os << "  " << key << "=" << plain(value);
    os << "\n";
  }
  for (const auto& [key, value] : extras.items())
    if (!value.is_primitive() && !is_scalar_list(value)) os << "  " << key << ": " << value.dump() << "\n";
  return os.str();
}

// ---- options and the registry ------------------------------------------------

std::vector<std::string> SchemeInfo::option_names() const {
  std::vector<std::string> out;
  for (const DeclaredOption& d : declared_options(options)) out.push_back(plan_keys(name).option(d.key));
  return out;
}

void read_options(const OptionSchema& schema, const PlanRequest& q, const std::string& scheme) {
  apply_options(schema, q.options, plan_keys(scheme));
}

void SchemeRegistry::add(SchemeInfo s) {
  if (find(s.name)) throw std::logic_error("scheme '" + s.name + "' registered twice");
  entries_.push_back(std::move(s));
}

const SchemeInfo* SchemeRegistry::find(const std::string& name) const {
  for (const SchemeInfo& s : entries_)
    if (s.name == name) return &s;
  return nullptr;
}

const SchemeInfo& SchemeRegistry::at(const std::string& name) const {
  const SchemeInfo* s = find(name);
  if (!s) throw std::invalid_argument("unknown scheme '" + name + "' (known: " + joined_names() + ")");
  return *s;
}

std::string SchemeRegistry::joined_names() const {
  std::string s;
  for (const SchemeInfo& e : entries_) s += (s.empty() ? "" : ", ") + e.name;
  return s;
}

void register_builtin_schemes(SchemeRegistry& r) {
  register_kbinomial_schemes(r);
  register_switch_schemes(r);
  register_direct_schemes(r);
  register_ib_schemes(r);
}

const SchemeRegistry& scheme_registry() {
  static const SchemeRegistry registry = [] {
    SchemeRegistry r;
    register_builtin_schemes(r);
    return r;
  }();
  return registry;
}

// ---- checks common to every scheme -------------------------------------------

namespace {

void check_options(const SchemeInfo& s, const PlanOptions& o) {
  const std::vector<DeclaredOption> declared = declared_options(s.options);
  for (const auto& [key, text] : o)
    if (std::none_of(declared.begin(), declared.end(), [&key](const DeclaredOption& d) { return d.key == key; })) {
      std::string takes;
      for (const DeclaredOption& d : declared) takes += (takes.empty() ? "" : ", ") + plan_keys(s.name).option(d.key);
      throw std::invalid_argument(plan_keys(s.name).option(key) + " does not apply to scheme '" + s.name +
                                  "' (it takes " + (takes.empty() ? std::string("no scheme options") : takes) + ")");
    }
}

void check_nodes(const PlanRequest& q) {
  if (!q.network) {
    if (q.source && *q.source != 0)
      throw std::invalid_argument("--source: without --topology the source is chain position 0");
    if (!q.destinations.empty()) throw std::invalid_argument("--dests: naming destinations needs --topology");
    return;
  }
  const PlanNetwork& net = *q.network;
  const NodeId src = q.source.value_or(0);
  if (src < 0 || src >= net.num_nodes())
    throw std::invalid_argument("--source: node " + std::to_string(src) + " is not a node of " + net.spec);
  std::set<NodeId> seen;
  for (NodeId d : q.destinations) {
    if (d < 0 || d >= net.num_nodes())
      throw std::invalid_argument("--dests: node " + std::to_string(d) + " is not a node of " + net.spec);
    if (d == src) throw std::invalid_argument("--dests: node " + net.node_text(d) + " is the source");
    if (!seen.insert(d).second) throw std::invalid_argument("--dests: node " + net.node_text(d) + " is listed twice");
  }
}

}  // namespace

MulticastPlan plan_multicast(const std::string& scheme, const PlanRequest& q, const SchemeRegistry& registry) {
  const SchemeInfo& s = registry.at(scheme);
  check_options(s, q.options);
  check_nodes(q);
  MulticastPlan p = s.plan(q);
  p.scheme = s.name;
  p.network = q.network;
  p.topology = q.network ? q.network->spec : "";
  return p;
}

}  // namespace wormcast::algo
