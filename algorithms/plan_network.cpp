#include "algorithms/plan_network.h"

#include <algorithm>
#include <cctype>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

#include "topologies/topology_io.h"

namespace wormcast::algo {

using topo::NodeId;

namespace {

std::string strip_spaces(const std::string& s) {
  std::string out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
  return out;
}

bool is_integer(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// "<what>: "<text>" is not a node of <net><why>".
std::invalid_argument not_a_node(const std::string& what, const std::string& text, const std::string& net,
                                 const std::string& why) {
  return std::invalid_argument(what + ": \"" + text + "\" is not a node of " + net + why);
}

// A node number below `nodes`, or the error naming `net` and the range.
NodeId parse_integer_node(const std::string& t, const std::string& text, const std::string& what,
                          const std::string& net, int nodes) {
  if (!is_integer(t) || t.size() > 9 || std::stoi(t) >= nodes)
    throw not_a_node(what, text, net, nodes > 0 ? " (nodes 0.." + std::to_string(nodes - 1) + ")" : "");
  return std::stoi(t);
}

}  // namespace

NodeId NodeNaming::parse(const std::string& t, const std::string& text, const std::string& what,
                         const std::string& spec) const {
  return parse_integer_node(t, text, what, spec, num_nodes());
}

namespace {

class IrregularNaming : public NodeNaming {
 public:
  explicit IrregularNaming(int nodes) : nodes_(nodes) {}
  int num_nodes() const override { return nodes_; }
  std::string describe(const std::string& spec) const override { return "irregular switch network " + spec; }

 private:
  int nodes_;
};

// Coordinate tuples ("(4,3)") or bit strings ("0101"); tori and meshes also
// take a node number, a hypercube's digits are its bit-string name.
class DirectNaming : public NodeNaming {
 public:
  explicit DirectNaming(topo::DirectTopology t) : t_(std::move(t)) {}
  int num_nodes() const override { return t_.num_nodes(); }
  std::string describe(const std::string& spec) const override { return "direct network " + spec; }
  std::string text(NodeId n) const override { return t_.name(n); }
  nlohmann::json json(NodeId n) const override { return t_.name(n); }
  NodeId parse(const std::string& t, const std::string& text, const std::string& what,
               const std::string& spec) const override {
    if (t_.kind() != topo::DirectKind::hypercube && is_integer(t))
      return parse_integer_node(t, text, what, spec, num_nodes());
    try {
      return t_.parse_node(t);
    } catch (const topo::TopologyError& e) {
      throw not_a_node(what, text, spec, std::string(" (") + e.what() + ")");
    }
  }

 private:
  topo::DirectTopology t_;
};

class FatTreeNaming : public NodeNaming {
 public:
  explicit FatTreeNaming(topo::FatTree t) : t_(std::move(t)) {}
  int num_nodes() const override { return t_.num_nodes(); }
  std::string describe(const std::string& spec) const override { return "InfiniBand fat tree " + spec; }
  std::string text(NodeId n) const override { return t_.node_name(n); }
  nlohmann::json json(NodeId n) const override { return t_.node_name(n); }
  NodeId parse(const std::string& t, const std::string& text, const std::string& what,
               const std::string& spec) const override {
    try {
      return t_.parse_node(t);
    } catch (const std::invalid_argument& e) {
      throw not_a_node(what, text, spec, std::string(" (") + e.what() + ")");
    }
  }

 private:
  topo::FatTree t_;
};

}  // namespace

int PlanNetwork::num_nodes() const { return naming ? naming->num_nodes() : 0; }

std::string PlanNetwork::describe() const { return naming ? naming->describe(spec) : "no network"; }

std::string PlanNetwork::node_text(NodeId n) const { return naming ? naming->text(n) : std::to_string(n); }

nlohmann::json PlanNetwork::node_json(NodeId n) const { return naming ? naming->json(n) : nlohmann::json(n); }

NodeId PlanNetwork::parse_node(const std::string& text, const std::string& what) const {
  const std::string t = strip_spaces(text);
  if (!naming) return parse_integer_node(t, text, what, "this plan", 0);
  return naming->parse(t, text, what, spec);
}

topo::IrregularParams parse_irregular_spec(const std::string& spec) {
  static const std::regex re(R"(irregular:(\d{1,6})x(\d{1,6})p(\d{1,7})(?:s(\d{1,19}))?(?:c([0-9]*\.?[0-9]+))?)");
  std::smatch m;
  if (!std::regex_match(spec, m, re))
    throw std::invalid_argument("topology \"" + spec +
                                "\": expected irregular:SxPpN[sSEED][cCONN], e.g. irregular:8x8p32s1 "
                                "(8 switches x 8 ports, 32 nodes, seed 1)");
  topo::IrregularParams p;
  p.switches = std::stoi(m[1]);
  p.ports = std::stoi(m[2]);
  p.nodes = std::stoi(m[3]);
  if (m[4].matched) p.seed = std::stoull(m[4]);
  if (m[5].matched) p.connectivity = std::stod(m[5]);
  return p;
}

std::string irregular_spec(const topo::IrregularParams& p) {
  std::ostringstream os;
  os << "irregular:" << p.switches << "x" << p.ports << "p" << p.nodes << "s" << p.seed;
  if (p.connectivity != 0.8) os << "c" << p.connectivity;
  return os.str();
}

PlanNetwork irregular_network(const topo::IrregularParams& p) {
  PlanNetwork n;
  n.kind = NetworkClass::irregular;
  n.spec = irregular_spec(p);
  n.topology = topo::generate_irregular(p);
  n.routing.emplace(*n.topology);
  n.naming = std::make_shared<IrregularNaming>(n.topology->num_nodes());
  return n;
}

PlanNetwork direct_network(const topo::DirectTopology& t) {
  PlanNetwork n;
  n.kind = NetworkClass::direct;
  n.direct = t;
  n.spec = t.spec();
  n.direct_routing.emplace(*n.direct, topo::default_routing(*n.direct));
  n.naming = std::make_shared<DirectNaming>(t);
  return n;
}

PlanNetwork file_network(const std::string& path) {
  PlanNetwork n;
  n.kind = NetworkClass::irregular;
  n.spec = path;
  n.topology = topo::load_topology(path);
  n.routing.emplace(*n.topology);
  n.naming = std::make_shared<IrregularNaming>(n.topology->num_nodes());
  return n;
}

PlanNetwork fat_tree_network(const topo::FatTree& t) {
  PlanNetwork n;
  n.kind = NetworkClass::fat_tree;
  n.fat_tree.emplace(t);
  n.spec = n.fat_tree->spec();
  n.naming = std::make_shared<FatTreeNaming>(t);
  return n;
}

std::vector<NodeId> parse_node_list(const PlanNetwork& net, const std::string& list, NodeId source,
                                    const std::string& what) {
  std::vector<std::string> names(1);
  int depth = 0;
  for (char c : strip_spaces(list)) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) names.emplace_back();
    else names.back() += c;
  }
  if (names.size() == 1 && names[0].empty())
    throw std::invalid_argument(what + ": the destination set is empty");
  std::vector<NodeId> out;
  std::set<NodeId> seen;
  for (const std::string& name : names) {
    if (name.empty()) throw std::invalid_argument(what + ": empty name in \"" + list + "\"");
    const NodeId n = net.parse_node(name, what);
    if (n == source) throw std::invalid_argument(what + ": node " + net.node_text(n) + " is the source");
    if (!seen.insert(n).second) throw std::invalid_argument(what + ": node " + net.node_text(n) + " is listed twice");
    out.push_back(n);
  }
  return out;
}

std::vector<NodeId> random_destinations(int num_nodes, NodeId source, long long k, std::uint64_t seed) {
  if (k < 1) throw std::invalid_argument("--random: " + std::to_string(k) + " destinations; the set must not be empty");
  if (k > num_nodes - 1)
    throw std::invalid_argument("--random: " + std::to_string(k) + " destinations, but only " +
                                std::to_string(num_nodes - 1) + " nodes besides the source");
  std::vector<NodeId> pool;
  for (NodeId n = 0; n < num_nodes; ++n)
    if (n != source) pool.push_back(n);
  std::mt19937_64 rng(seed);
  for (long long i = 0; i < k; ++i) {
    const auto left = static_cast<std::uint64_t>(pool.size() - i);
    std::swap(pool[i], pool[i + static_cast<long long>(rng() % left)]);
  }
  pool.resize(static_cast<std::size_t>(k));
  return pool;
}

}  // namespace wormcast::algo
