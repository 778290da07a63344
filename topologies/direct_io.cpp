#include "topologies/direct_io.h"

#include <sstream>

namespace wormcast::topo {

bool is_direct_spec(const std::string& text) {
  for (const char* k : {"torus:", "mesh:", "hypercube:"})
    if (text.rfind(k, 0) == 0) return true;
  return false;
}

RoutingAlgorithm routing_for(const DirectTopology& t, const std::string& name) {
  return name.empty() || name == "default" ? default_routing(t) : parse_routing(name);
}

namespace {

std::string classes_text(const DirectRouting& r, NodeId x, int d, Direction dir) {
  const VcSet s = r.vc_classes(x, d, dir);
  std::string out;
  for (VcClass c : {VcClass::p, VcClass::l, VcClass::h, VcClass::single})
    if (s.contains(c)) out += (out.empty() ? "" : ",") + std::string(to_string(c));
  return out;
}

// Grid position: dimension 0 along x, 1 along y; dimension 2 shifts the
// plane right, 3 shifts it up, and so on alternately.
std::pair<int, int> grid_position(const DirectTopology& t, NodeId x) {
  int px = 0, py = 0, wx = 1, wy = 1;
  for (int d = 0; d < t.dimensions(); ++d) {
    const int s = t.sigma(x, d);
    if (d % 2 == 0) {
      px += s * wx;
      wx *= t.radix(d) + 1;
    } else {
      py += s * wy;
      wy *= t.radix(d) + 1;
    }
  }
  return {px, py};
}

}  // namespace

void show_direct(const DirectRouting& r, std::ostream& os) {
  const DirectTopology& t = r.topology();
  os << t.spec() << ": " << t.num_nodes() << " nodes, " << t.dimensions() << " dimensions, routing "
     << to_string(r.algorithm()) << " with " << r.num_vcs() << " VC" << (r.num_vcs() > 1 ? "s" : "")
     << " per channel\n";
  for (NodeId x = 0; x < t.num_nodes(); ++x) {
    os << "  " << t.name(x) << " (id " << x << "):";
    for (const DirectChannel& ch : t.channels(x))
      os << " d" << ch.dim << to_string(ch.dir) << "->" << t.name(ch.to) << (ch.wrap ? "(wrap)" : "") << "["
         << classes_text(r, x, ch.dim, ch.dir) << "]";
    os << "\n";
  }
  const auto problems = check_direct_routing(r);
  os << (problems.empty() ? "  routing: shortest, existing VCs only, deadlock-free (CDG acyclic)\n"
                          : "  routing check FAILED: " + problems.front() + "\n");
}

void write_direct_dot(const DirectRouting& r, std::ostream& os) {
  const DirectTopology& t = r.topology();
  os << "// " << t.spec() << ", routing " << to_string(r.algorithm()) << "; render with: neato -n -Tsvg\n";
  os << "digraph direct {\n  layout=neato;\n  node [shape=circle, fontsize=10];\n  edge [fontsize=8];\n";
  for (NodeId x = 0; x < t.num_nodes(); ++x) {
    const auto [px, py] = grid_position(t, x);
    os << "  n" << x << " [label=\"" << t.name(x) << "\", pos=\"" << px * 80 << "," << py * 80 << "!\"];\n";
  }
  for (NodeId x = 0; x < t.num_nodes(); ++x)
    for (const DirectChannel& ch : t.channels(x)) {
      os << "  n" << x << " -> n" << ch.to << " [label=\"" << classes_text(r, x, ch.dim, ch.dir) << "\"";
      if (ch.wrap) os << ", style=dashed";
      os << "];\n";
    }
  os << "}\n";
}

}  // namespace wormcast::topo
