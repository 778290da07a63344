#include "topologies/fat_tree_io.h"

#include <regex>
#include <stdexcept>

namespace wormcast::topo {

namespace {

// What port `port` of switch `sw` leads to, by name.
std::string peer_name(const FatTree& t, int sw, int port) {
  const FatTree::PortPeer p = t.peer(sw, port);
  return p.is_node ? t.node_name(p.id) : t.switch_name(p.id);
}

void show_switch(const FatTree& t, int sw, std::ostream& os) {
  std::string down, up;
  for (int port = 1; port <= t.m(); ++port) (t.is_up_port(sw, port) ? up : down) += " " + peer_name(t, sw, port);
  os << "    " << t.switch_name(sw) << ": down" << down;
  if (!up.empty()) os << ", up" << up;
  os << "\n";
}

}  // namespace

bool is_fat_tree_spec(const std::string& spec) { return spec.rfind("ibft:", 0) == 0; }

FatTree parse_fat_tree_spec(const std::string& spec) {
  static const std::regex re(R"(ibft:(\d{1,4}),(\d{1,3}))");
  std::smatch m;
  if (!std::regex_match(spec, m, re))
    throw TopologyError("topology \"" + spec + "\": expected ibft:M,N, e.g. ibft:8,3 (8-port 3-tree)");
  try {
    return FatTree(std::stoi(m[1]), std::stoi(m[2]));
  } catch (const std::invalid_argument& e) {
    throw TopologyError("topology \"" + spec + "\": " + e.what());
  }
}

void show_fat_tree(const FatTree& t, std::ostream& os) {
  os << "InfiniBand fat tree " << t.spec() << ": " << t.m() << "-port " << t.n() << "-tree (seed003 §2), "
     << t.num_nodes() << " nodes, " << t.num_switches() << " switches in " << t.n() << " levels\n";
  os << "  ports 1.." << t.h() << " lead down and " << t.h() + 1 << ".." << t.m()
     << " up; the " << t.switches_at_level(0) << " level-0 switches have " << t.m() << " down ports\n";
  const bool all = t.num_switches() <= 64;
  int sw = 0;
  for (int level = 0; level < t.n(); ++level) {
    os << "  level " << level << ": " << t.switches_at_level(level) << " switches"
       << (all ? "" : " (the first shown)") << "\n";
    for (int i = 0; i < t.switches_at_level(level); ++i, ++sw)
      if (all || i == 0) show_switch(t, sw, os);
  }
}

void write_fat_tree_dot(const FatTree& t, std::ostream& os) {
  os << "graph \"" << t.spec() << "\" {\n  node [shape=box];\n";
  int sw = 0;
  for (int level = 0; level < t.n(); ++level) {
    os << "  { rank=same;";
    for (int i = 0; i < t.switches_at_level(level); ++i) os << " \"" << t.switch_name(sw + i) << "\";";
    os << " }\n";
    sw += t.switches_at_level(level);
  }
  os << "  { rank=same; node [shape=ellipse];";
  for (NodeId x = 0; x < t.num_nodes(); ++x) os << " \"" << t.node_name(x) << "\";";
  os << " }\n";
  // Each link once: from its switch's down port (every link has exactly one end on a down port).
  for (int s = 0; s < t.num_switches(); ++s)
    for (int port = 1; port <= t.m(); ++port) {
      if (t.is_up_port(s, port)) continue;
      const FatTree::PortPeer p = t.peer(s, port);
      os << "  \"" << t.switch_name(s) << "\" -- \"" << (p.is_node ? t.node_name(p.id) : t.switch_name(p.id))
         << "\" [taillabel=" << port;
      if (!p.is_node) os << ", headlabel=" << p.port;
      os << "];\n";
    }
  os << "}\n";
}

}  // namespace wormcast::topo
