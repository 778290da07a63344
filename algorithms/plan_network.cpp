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

}  // namespace

int PlanNetwork::num_nodes() const {
  if (kind == NetworkClass::irregular) return topology->num_nodes();
  if (kind == NetworkClass::direct) return direct->num_nodes();
  if (kind == NetworkClass::fat_tree) return fat_tree->num_nodes();
  return 0;
}

std::string PlanNetwork::describe() const {
  if (kind == NetworkClass::irregular) return "irregular switch network " + spec;
  if (kind == NetworkClass::direct) return "direct network " + spec;
  if (kind == NetworkClass::fat_tree) return "InfiniBand fat tree " + spec;
  return "no network";
}

std::string PlanNetwork::node_text(NodeId n) const {
  if (kind == NetworkClass::direct) return direct->name(n);
  if (kind == NetworkClass::fat_tree) return fat_tree->node_name(n);
  return std::to_string(n);
}

nlohmann::json PlanNetwork::node_json(NodeId n) const {
  if (kind == NetworkClass::direct || kind == NetworkClass::fat_tree) return node_text(n);
  return n;
}

NodeId PlanNetwork::parse_node(const std::string& text, const std::string& what) const {
  const std::string t = strip_spaces(text);
  if (kind == NetworkClass::direct) {
    // Tori and meshes also take a node number; a hypercube's digits are its
    // bit-string name.
    if (direct->kind() != topo::DirectKind::hypercube && is_integer(t)) {
      if (t.size() > 9 || std::stoi(t) >= num_nodes())
        throw std::invalid_argument(what + ": \"" + text + "\" is not a node of " + spec + " (nodes 0.." +
                                    std::to_string(num_nodes() - 1) + ")");
      return std::stoi(t);
    }
    try {
      return direct->parse_node(t);
    } catch (const topo::TopologyError& e) {
      throw std::invalid_argument(what + ": \"" + text + "\" is not a node of " + spec + " (" + e.what() + ")");
    }
  }
  if (kind == NetworkClass::fat_tree) {
    try {
      return fat_tree->parse_node(t);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(what + ": \"" + text + "\" is not a node of " + spec + " (" + e.what() + ")");
    }
  }
  const std::string range = num_nodes() > 0 ? " (nodes 0.." + std::to_string(num_nodes() - 1) + ")" : "";
  const std::string net = kind == NetworkClass::none ? "this plan" : spec;
  if (!is_integer(t) || t.size() > 9 || std::stoi(t) >= num_nodes())
    throw std::invalid_argument(what + ": \"" + text + "\" is not a node of " + net + range);
  return std::stoi(t);
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
  return n;
}

PlanNetwork direct_network(const topo::DirectTopology& t) {
  PlanNetwork n;
  n.kind = NetworkClass::direct;
  n.direct = t;
  n.spec = t.spec();
  n.direct_routing.emplace(*n.direct, topo::default_routing(*n.direct));
  return n;
}

PlanNetwork file_network(const std::string& path) {
  PlanNetwork n;
  n.kind = NetworkClass::irregular;
  n.spec = path;
  n.topology = topo::load_topology(path);
  n.routing.emplace(*n.topology);
  return n;
}

PlanNetwork fat_tree_network(const topo::FatTree& t) {
  PlanNetwork n;
  n.kind = NetworkClass::fat_tree;
  n.fat_tree.emplace(t);
  n.spec = n.fat_tree->spec();
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
