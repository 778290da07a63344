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

// The classes on a channel; with m > 1 VCs per class each followed by its
// VC range, e.g. "dl0:vc0-1,dl1:vc2-3".
std::string classes_text(const DirectRouting& r, NodeId x, int d, Direction dir, int per_class) {
  const VcSet s = r.vc_classes(x, d, dir);
  std::string out;
  for (VcClass c : kChannelClasses) {
    if (!s.contains(c)) continue;
    out += (out.empty() ? "" : ",") + std::string(to_string(c));
    const int first = r.vc_index(c) * per_class;
    if (per_class > 1) out += ":vc" + std::to_string(first) + "-" + std::to_string(first + per_class - 1);
  }
  return out;
}

// VCs per class for `vcs` VCs per channel (0 = the routing's count).
int per_class(const DirectRouting& r, int vcs) {
  const int m = r.vcs_per_class(vcs);
  if (m == 0)
    throw TopologyError("--vcs " + std::to_string(vcs) + ": routing " + to_string(r.algorithm()) + " has " +
                        std::to_string(r.num_vcs()) + " VC classes; the VC count must be a positive multiple of it");
  return m;
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

void show_direct(const DirectRouting& r, std::ostream& os, int vcs) {
  const DirectTopology& t = r.topology();
  const int m = per_class(r, vcs), total = m * r.num_vcs();
  os << t.spec() << ": " << t.num_nodes() << " nodes, " << t.dimensions() << " dimensions, routing "
     << to_string(r.algorithm()) << " with " << total << " VC" << (total > 1 ? "s" : "") << " per channel";
  if (m > 1) os << " (" << m << " per class, any free one of its class taken at allocation)";
  os << "\n";
  for (NodeId x = 0; x < t.num_nodes(); ++x) {
    os << "  " << t.name(x) << " (id " << x << "):";
    for (const DirectChannel& ch : t.channels(x))
      os << " d" << ch.dim << to_string(ch.dir) << "->" << t.name(ch.to) << (ch.wrap ? "(wrap)" : "") << "["
         << classes_text(r, x, ch.dim, ch.dir, m) << "]";
    os << "\n";
  }
  const auto problems = check_direct_routing(r, vcs);
  os << (problems.empty() ? "  routing: shortest, existing VCs only, deadlock-free (CDG acyclic)\n"
                          : "  routing check FAILED: " + problems.front() + "\n");
}

void write_direct_dot(const DirectRouting& r, std::ostream& os, int vcs) {
  const DirectTopology& t = r.topology();
  const int m = per_class(r, vcs);
  os << "// " << t.spec() << ", routing " << to_string(r.algorithm()) << "; render with: neato -n -Tsvg\n";
  os << "digraph direct {\n  layout=neato;\n  node [shape=circle, fontsize=10];\n  edge [fontsize=8];\n";
  for (NodeId x = 0; x < t.num_nodes(); ++x) {
    const auto [px, py] = grid_position(t, x);
    os << "  n" << x << " [label=\"" << t.name(x) << "\", pos=\"" << px * 80 << "," << py * 80 << "!\"];\n";
  }
  for (NodeId x = 0; x < t.num_nodes(); ++x)
    for (const DirectChannel& ch : t.channels(x)) {
      os << "  n" << x << " -> n" << ch.to << " [label=\"" << classes_text(r, x, ch.dim, ch.dir, m) << "\"";
      if (ch.wrap) os << ", style=dashed";
      os << "];\n";
    }
  os << "}\n";
}

}  // namespace wormcast::topo
