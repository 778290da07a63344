// Topology files (YAML or JSON, read through yaml-cpp since JSON is YAML flow
// syntax), JSON/YAML writers and Graphviz export. Every error names the
// origin, the element and the reason (docs/design.md principle 6).
#include "topologies/topology_io.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <unordered_map>
#include <utility>

#include "topologies/yaml_document.h"

namespace wormcast::topo {

namespace {

constexpr const char* kFormat = "wormcast-topology/1";

class Reader {
 public:
  explicit Reader(std::string origin) : origin_(std::move(origin)) {}

  [[noreturn]] void fail(const YAML::Node& n, const std::string& where, const std::string& why) const {
    std::string m = origin_ + ": ";
    if (!where.empty()) m += where + ": ";
    m += why;
    // Programmatically built nodes carry no position.
    if (n.IsDefined() && n.Mark().line >= 0) m += " (line " + std::to_string(n.Mark().line + 1) + ")";
    throw TopologyError(m);
  }

  long long integer(const YAML::Node& n, const std::string& where, long long lo, long long hi,
                    const std::string& what) const {
    if (!n.IsScalar()) fail(n, where, "expected an integer (" + what + ")");
    long long v = 0;
    try {
      v = n.as<long long>();
    } catch (const YAML::Exception&) {
      fail(n, where, "expected an integer (" + what + "), got '" + n.Scalar() + "'");
    }
    if (v < lo || v > hi)
      fail(n, where, what + " " + std::to_string(v) + " out of range " + std::to_string(lo) + ".." +
                         std::to_string(hi));
    return v;
  }

  std::string string(const YAML::Node& n, const std::string& where) const {
    if (!n.IsScalar()) fail(n, where, "expected a string");
    return n.Scalar();
  }

  // Checks that `n` is a mapping whose keys are distinct and all in `allowed`;
  // returns key -> value.
  std::map<std::string, YAML::Node> mapping(const YAML::Node& n, const std::string& where,
                                            const std::vector<std::string>& allowed) const {
    if (!n.IsMap()) fail(n, where, n.IsNull() ? "empty (expected a mapping)" : "expected a mapping");
    std::map<std::string, YAML::Node> out;
    for (auto it = n.begin(); it != n.end(); ++it) {
      const std::string prefix = where.empty() ? "" : where + ".";
      if (!it->first.IsScalar()) fail(it->first, where, "keys must be plain names");
      const std::string key = it->first.Scalar();
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        fail(it->first, prefix + key, "unknown key (expected one of: " + list + ")");
      }
      if (out.count(key)) fail(it->first, prefix + key, "duplicate key");
      out.emplace(key, it->second);
    }
    return out;
  }

  YAML::Node required(const std::map<std::string, YAML::Node>& m, const YAML::Node& parent,
                      const std::string& where, const std::string& key) const {
    auto it = m.find(key);
    if (it == m.end()) fail(parent, where, "missing key '" + key + "'");
    return it->second;
  }

  const std::string& origin() const { return origin_; }

 private:
  std::string origin_;
};

std::string index_key(const std::string& list, std::size_t i) {
  return list + "[" + std::to_string(i) + "]";
}

std::string dot_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') { out += "\\n"; continue; }
    out += c;
  }
  return out;
}


// Fills a Topology from the parsed lists. Remembers which element claimed
// each port (for "already used by" messages) only for ports in use, so memory
// follows the file's contents, not switches * ports_per_switch.
class TopologyBuilder {
 public:
  TopologyBuilder(const Reader& rd, int switches, int ports) : rd_(rd), S_(switches), k_(ports) {
    t_.ports_per_switch = ports;
    t_.ports.assign(switches, std::vector<PortPeer>(ports));
  }

  void links(const YAML::Node& links) {
    if (!links.IsSequence()) rd_.fail(links, "links", "expected a list of {a: [switch, port], b: [switch, port]}");
    for (std::size_t i = 0; i < links.size(); ++i) {
      const std::string key = index_key("links", i);
      const auto m = rd_.mapping(links[i], key, {"a", "b"});
      const PortRef a = endpoint(rd_.required(m, links[i], key, "a"), key + ".a");
      const YAML::Node bn = rd_.required(m, links[i], key, "b");
      // Checked before claiming b's port so the message is about the real fault.
      if (bn.IsSequence() && bn.size() == 2 && bn[0].IsScalar()) {
        const long long bsw = rd_.integer(bn[0], key + ".b", 0, S_ - 1, "switch");
        if (bsw == a.sw)
          rd_.fail(links[i], key, "both ends on switch " + std::to_string(a.sw) +
                                      " (a link between two ports of one switch is not allowed)");
      }
      const PortRef b = endpoint(bn, key + ".b");
      t_.ports[a.sw][a.port] = {PeerKind::switch_port, b.sw, b.port};
      t_.ports[b.sw][b.port] = {PeerKind::switch_port, a.sw, a.port};
    }
  }

  void nodes(const YAML::Node& nodes) {
    if (!nodes.IsSequence()) rd_.fail(nodes, "nodes", "expected a list of {node: id, at: [switch, port]}");
    const int N = static_cast<int>(nodes.size());
    t_.node_attach.assign(N, PortRef{});
    std::vector<int> listed_at(N, -1);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const std::string key = index_key("nodes", i);
      const auto m = rd_.mapping(nodes[i], key, {"node", "at"});
      const YAML::Node idn = rd_.required(m, nodes[i], key, "node");
      const long long raw = rd_.integer(idn, key + ".node", LLONG_MIN, LLONG_MAX, "node id");
      if (raw < 0 || raw >= N)
        rd_.fail(idn, key + ".node", "node id " + std::to_string(raw) + " out of range 0.." +
                                         std::to_string(N - 1) + " (ids must be 0..N-1 for the " +
                                         std::to_string(N) + " listed nodes)");
      const int id = static_cast<int>(raw);
      if (listed_at[id] >= 0)
        rd_.fail(idn, key + ".node", "node " + std::to_string(id) + " listed twice (also " +
                                         index_key("nodes", listed_at[id]) + ")");
      listed_at[id] = static_cast<int>(i);
      const PortRef at = endpoint(rd_.required(m, nodes[i], key, "at"), key + ".at");
      t_.node_attach[id] = at;
      t_.ports[at.sw][at.port] = {PeerKind::node, id, -1};
    }
  }

  Topology take() { return std::move(t_); }

 private:
  PortRef endpoint(const YAML::Node& n, const std::string& where) {
    if (!n.IsSequence() || n.size() != 2) rd_.fail(n, where, "expected [switch, port]");
    PortRef r;
    r.sw = static_cast<int>(rd_.integer(n[0], where, 0, S_ - 1, "switch"));
    const long long port = rd_.integer(n[1], where, LLONG_MIN, LLONG_MAX, "port");
    if (port < 0 || port >= k_)
      rd_.fail(n[1], where, "port " + std::to_string(port) + " out of range 0.." + std::to_string(k_ - 1) +
                                " for switch " + std::to_string(r.sw));
    r.port = static_cast<int>(port);
    auto [it, fresh] = owner_.try_emplace(static_cast<long long>(r.sw) * k_ + r.port, where);
    if (!fresh)
      rd_.fail(n, where, "switch " + std::to_string(r.sw) + " port " + std::to_string(r.port) +
                             " already used by " + it->second);
    return r;
  }

  const Reader& rd_;
  int S_, k_;
  Topology t_;
  std::unordered_map<long long, std::string> owner_;   // port in use -> element that claimed it
};

// ports_per_switch and switches, within the size limits of topology.h (a few
// lines must not be able to ask for gigabytes).
std::pair<int, int> read_sizes(const Reader& rd, const std::map<std::string, YAML::Node>& top,
                               const YAML::Node& root) {
  const YAML::Node kn = rd.required(top, root, "", "ports_per_switch");
  const long long k = rd.integer(kn, "ports_per_switch", 1, LLONG_MAX, "ports per switch");
  if (k > kMaxPortsPerSwitch)
    rd.fail(kn, "ports_per_switch", std::to_string(k) + " exceeds the limit of " +
                                        std::to_string(kMaxPortsPerSwitch) + " ports per switch");
  const YAML::Node sn = rd.required(top, root, "", "switches");
  const long long S = rd.integer(sn, "switches", 1, LLONG_MAX, "switch count");
  if (S > kMaxSwitches)
    rd.fail(sn, "switches", std::to_string(S) + " exceeds the limit of " + std::to_string(kMaxSwitches) +
                                " switches");
  if (S * k > kMaxSwitchPorts)
    rd.fail(sn, "switches", std::to_string(S) + " switches of " + std::to_string(k) + " ports are " +
                                std::to_string(S * k) + " switch ports, more than the limit of " +
                                std::to_string(kMaxSwitchPorts));
  return {static_cast<int>(k), static_cast<int>(S)};
}

}  // namespace

Topology topology_from_yaml(const YAML::Node& root, const std::string& origin) {
  const Reader rd(origin);
  if (!root.IsDefined() || root.IsNull()) rd.fail(root, "", "empty document (expected a topology mapping)");
  const auto top = rd.mapping(root, "", {"format", "ports_per_switch", "switches", "links", "nodes", "description"});

  const std::string format = rd.string(rd.required(top, root, "", "format"), "format");
  if (format != kFormat)
    rd.fail(top.at("format"), "format", "unsupported format '" + format + "' (expected '" + kFormat + "')");

  const auto [k, S] = read_sizes(rd, top, root);
  TopologyBuilder builder(rd, S, k);
  if (!top.count("links")) rd.fail(root, "", "missing key 'links' (use 'links: []' for none)");
  if (!top.at("links").IsNull()) builder.links(top.at("links"));
  const YAML::Node nodes = rd.required(top, root, "", "nodes");
  if (!nodes.IsNull()) builder.nodes(nodes);

  Topology t = builder.take();
  if (top.count("description")) t.description = rd.string(top.at("description"), "description");
  else t.description = "loaded from " + origin;

  try {
    t.validate();
  } catch (const TopologyError& e) {
    throw TopologyError(origin + ": " + e.what());
  }
  return t;
}

Topology load_topology(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw TopologyError(path + ": is a directory, not a topology file");
  std::ifstream in(path);
  if (!in) throw TopologyError(path + ": cannot open file (" + std::strerror(errno) + ")");
  YAML::Node root;
  try {
    root = load_one_yaml_document(in);
  } catch (const YAML::ParserException& e) {
    throw TopologyError(path + ": malformed YAML/JSON at line " + std::to_string(e.mark.line + 1) +
                        ", column " + std::to_string(e.mark.column + 1) + ": " + e.msg);
  } catch (const YAML::Exception& e) {
    throw TopologyError(path + ": cannot read: " + e.what());
  }
  return topology_from_yaml(root, path);
}

void write_topology_yaml(const Topology& t, std::ostream& os) {
  YAML::Emitter e;
  e << YAML::BeginMap;
  e << YAML::Key << "format" << YAML::Value << kFormat;
  e << YAML::Key << "description" << YAML::Value << YAML::DoubleQuoted << t.description;
  e << YAML::Key << "ports_per_switch" << YAML::Value << t.ports_per_switch;
  e << YAML::Key << "switches" << YAML::Value << t.num_switches();
  auto pair = [&e](const PortRef& r) { e << YAML::Flow << YAML::BeginSeq << r.sw << r.port << YAML::EndSeq; };
  e << YAML::Key << "links" << YAML::Value;
  const std::vector<SwitchLink> links = t.links();
  if (links.empty()) e << YAML::Flow;   // "links: []"
  e << YAML::BeginSeq;
  for (const SwitchLink& l : links) {
    e << YAML::Flow << YAML::BeginMap << YAML::Key << "a" << YAML::Value;
    pair(l.a);
    e << YAML::Key << "b" << YAML::Value;
    pair(l.b);
    e << YAML::EndMap;
  }
  e << YAML::EndSeq;
  e << YAML::Key << "nodes" << YAML::Value;
  if (t.node_attach.empty()) e << YAML::Flow;
  e << YAML::BeginSeq;
  for (NodeId n = 0; n < t.num_nodes(); ++n) {
    e << YAML::Flow << YAML::BeginMap << YAML::Key << "node" << YAML::Value << n << YAML::Key << "at"
      << YAML::Value;
    pair(t.node_attach[n]);
    e << YAML::EndMap;
  }
  e << YAML::EndSeq << YAML::EndMap;
  os << e.c_str() << '\n';
}

// One link/node per line keeps large topologies readable and diffable;
// nlohmann does the encoding of every value.
void write_topology_json(const Topology& t, std::ostream& os) {
  using J = nlohmann::ordered_json;
  auto dump = [](const J& j) { return j.dump(-1, ' ', false, J::error_handler_t::replace); };
  os << "{\n";
  os << "  \"format\": " << dump(kFormat) << ",\n";
  os << "  \"description\": " << dump(t.description) << ",\n";
  os << "  \"ports_per_switch\": " << t.ports_per_switch << ",\n";
  os << "  \"switches\": " << t.num_switches() << ",\n";
  const std::vector<SwitchLink> links = t.links();
  os << "  \"links\": [";
  for (std::size_t i = 0; i < links.size(); ++i) {
    const J j = {{"a", {links[i].a.sw, links[i].a.port}}, {"b", {links[i].b.sw, links[i].b.port}}};
    os << (i ? ",\n    " : "\n    ") << dump(j);
  }
  os << (links.empty() ? "],\n" : "\n  ],\n");
  os << "  \"nodes\": [";
  for (NodeId n = 0; n < t.num_nodes(); ++n) {
    const J j = {{"node", n}, {"at", {t.node_attach[n].sw, t.node_attach[n].port}}};
    os << (n ? ",\n    " : "\n    ") << dump(j);
  }
  os << (t.node_attach.empty() ? "]\n" : "\n  ]\n");
  os << "}\n";
}

void write_topology_dot(const Topology& t, const UpDownRouting* routing, std::ostream& os) {
  const bool directed = routing != nullptr;
  const char* edge = directed ? " -> " : " -- ";
  os << (directed ? "digraph" : "graph") << " wormcast {\n";
  os << "  label=\"" << dot_escape(t.description) << "\";\n  labelloc=t;\n";
  os << "  node [fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\", fontsize=9];\n";
  for (SwitchId s = 0; s < t.num_switches(); ++s) {
    os << "  s" << s << " [shape=box, label=\"s" << s;
    if (routing) os << "\\nlevel " << routing->level(s);
    os << "\"";
    if (routing && routing->root() == s) os << ", style=\"filled,bold\", fillcolor=gold, penwidth=2";
    os << "];\n";
  }
  for (NodeId n = 0; n < t.num_nodes(); ++n)
    os << "  n" << n << " [shape=circle, label=\"n" << n << "\"];\n";
  if (routing) {
    // Keep each BFS level on one rank so the picture reads root-down.
    for (int l = 0; l <= routing->max_level(); ++l) {
      os << "  { rank=same;";
      for (SwitchId s = 0; s < t.num_switches(); ++s)
        if (routing->level(s) == l) os << " s" << s << ";";
      os << " }\n";
    }
  }
  for (const SwitchLink& l : t.links()) {
    PortRef from = l.a, to = l.b;
    std::string style;
    if (routing) {
      // Arrows point to the "up" end.
      if (!routing->is_up_port(from.sw, from.port)) std::swap(from, to);
      style = routing->is_tree_port(from.sw, from.port) ? ", style=solid" : ", style=dashed";
    }
    os << "  s" << from.sw << edge << "s" << to.sw << " [taillabel=\"" << from.port << "\", headlabel=\""
       << to.port << "\"" << style << "];\n";
  }
  for (NodeId n = 0; n < t.num_nodes(); ++n) {
    const PortRef& a = t.node_attach[n];
    os << "  s" << a.sw << edge << "n" << n << " [taillabel=\"" << a.port << "\"" << (directed ? ", dir=none" : "")
       << "];\n";
  }
  os << "}\n";
}

}  // namespace wormcast::topo

namespace wormcast::topo {

std::vector<std::pair<SwitchId, SwitchId>> write_topology_anynet(const Topology& t, std::ostream& os) {
  t.validate();
  std::vector<std::pair<SwitchId, SwitchId>> merged;
  const int s_count = t.num_switches();
  // Neighbours of each switch above its own id, in port order; a parallel
  // link is not written twice (BookSim's router_list is a map keyed by
  // neighbour id, so it would merge them anyway) but reported.
  std::vector<std::vector<SwitchId>> higher(static_cast<std::size_t>(s_count));
  for (const SwitchLink& l : t.links()) {
    const SwitchId lo = std::min(l.a.sw, l.b.sw), hi = std::max(l.a.sw, l.b.sw);
    auto& v = higher[static_cast<std::size_t>(lo)];
    if (std::find(v.begin(), v.end(), hi) != v.end())
      merged.emplace_back(lo, hi);
    else
      v.push_back(hi);
  }
  for (SwitchId s = 0; s < s_count; ++s) {
    os << "router " << s;
    for (NodeId n : t.nodes_at(s)) os << " node " << n;
    for (SwitchId o : higher[static_cast<std::size_t>(s)]) os << " router " << o;
    os << "\n";
  }
  return merged;
}

}  // namespace wormcast::topo
