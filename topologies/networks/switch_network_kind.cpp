#include "topologies/networks/switch_network_kind.h"

#include <spdlog/spdlog.h>

#include <cstdint>
#include <filesystem>
#include <future>
#include <utility>

#include "rtl_models/switch/ib_decoder.h"
#include "topologies/networks/elaborator.h"
#include "topologies/fat_tree.h"
#include "topologies/topology_io.h"

namespace wormcast::topo {

void RoutingSection::visit(ParamVisitor& v) {
  v.choice("root", root, {"lowest_id", "max_degree"}, "BFS spanning-tree root for up*/down*");
  v.choice("selection", selection, rtl::selection_names(),
           "choice among several legal minimal up*/down* ports (deterministic = lowest port)");
}

RootRule parse_root_rule(const std::string& s) {
  if (s == "lowest_id") return RootRule::lowest_id;
  if (s == "max_degree") return RootRule::max_degree;
  throw std::invalid_argument("routing.root: unknown rule '" + s + "'");
}

void SwitchNetworkKind::visit_sections(ParamVisitor& v) {
  v.begin_section("routing", "up*/down* routing");
  routing.visit(v);
  v.end_section();
  v.begin_section("switch", "input-buffered cut-through switch");
  sw.visit(v);
  v.choice("decoder", decoder, rtl::decoder_registry().names(), "header decoder of every switch");
  v.choice("drop_id", drop_id, {"switch_id", "node_id"},
           "ID field of SSR / multi-drop worm headers (decoder ssr, seed000 §5.3-5.4): a switch ID, or the "
           "first destination node on that switch");
  v.end_section();
  v.begin_section("link", "links");
  link.visit(v);
  v.end_section();
}

void SwitchNetworkKind::describe_facts(rtl::ConfigFacts& f) const {
  f.whole_packet_admission = sw.whole_packet_admission();
  f.nodes = known_node_count();
}

void SwitchNetworkKind::validate(const rtl::ConfigFacts& f) const {
  // A head crossing one switch moves no flit for route + crossbar + link
  // cycles (and a returned credit takes credit_delay): a watchdog interval
  // that short would call a single packet's progress a deadlock.
  const Cycle hop = sw.route_delay + sw.crossbar_delay + link.latency;
  const std::pair<std::string, Cycle> delays[] = {
      {"switch.route_delay + switch.crossbar_delay + link.latency", hop}, {"link.credit_delay", link.credit_delay}};
  for (const auto& [key, d] : delays)
    if (d >= f.watchdog)
      throw std::invalid_argument(f.where + ": " + key + " (" + std::to_string(d) + " cycles) must be shorter than " +
                                  "sim.watchdog (" + std::to_string(f.watchdog) +
                                  " cycles), or a packet's normal progress would count as deadlock");
  if (sw.chunk_flits > sw.buffer_flits)
    throw std::invalid_argument(f.where + ": switch.chunk (" + std::to_string(sw.chunk_flits) +
                                " flits) is larger than switch.buffer (" + std::to_string(sw.buffer_flits) + " flits)");
  if (f.packet_flits > sw.buffer_flits)
    throw std::invalid_argument(f.where + ": " + f.packet_what + " (" + std::to_string(f.packet_flits) +
                                " flits) exceeds switch.buffer (" + std::to_string(sw.buffer_flits) +
                                " flits): a packet must fit completely in an input buffer (seed000 §2.2)");
}

namespace {
constexpr int kConcurrentCheckSwitches = 256;
}  // namespace

std::unique_ptr<NetworkModel> SwitchNetworkKind::build(const char* name, const BuildInputs& in) const {
  const Topology t = topology();
  auto r = std::make_shared<const UpDownRouting>(t, parse_root_rule(routing.root));
  spdlog::info("topology: {} ({} switches, {} nodes, {} links); up*/down* root {}, {} levels", t.description,
               t.num_switches(), t.num_nodes(), t.links().size(), r->root(), r->max_level() + 1);
  // The independent check reads only the (immutable) topology and tables, so
  // on large networks (where it is a third of the set-up at 4096 nodes) it
  // runs on a second core while the modules are elaborated; nothing is
  // simulated before it has passed. Small networks check inline: no thread
  // for milliseconds of work.
  const auto policy = t.num_switches() >= kConcurrentCheckSwitches ? std::launch::async : std::launch::deferred;
  auto checked = std::async(policy, [&t, &r] { return check_updown(t, *r); });
  NetworkParams np;
  np.sw = sw;
  np.link = link;
  np.decoder = decoder;
  np.drop_id = drop_id;
  np.selection = rtl::parse_selection(routing.selection);
  np.watchdog = in.watchdog;
  np.node_model = in.node_model;
  auto net = std::make_unique<Network>(name, t, r, np, in.ctx, in.rng);
  const auto problems = checked.get();
  if (!problems.empty()) throw SetupError("up*/down* routing check failed: " + problems.front());
  return net;
}

int IrregularKind::known_node_count() const { return gen.nodes; }

// IBFT(m, n) has 2(m/2)^n nodes; past int's range (refused by the
// generator) the count is left unknown.
int FatTreeKind::known_node_count() const {
  long long count = 2;
  for (int i = 0; i < n; ++i) count = m >= 2 && count <= INT32_MAX / (m / 2) ? count * (m / 2) : 0;
  return static_cast<int>(count);
}

void IrregularKind::visit_topology(ParamVisitor& v) {
  v.count("switches", gen.switches, "number of switches", 1, 1 << 16);
  v.count("ports", gen.ports, "ports per switch", 1, 1024);
  v.count("nodes", gen.nodes, "number of processing nodes", 1, 1 << 20);
  v.real("connectivity", gen.connectivity, "", "fraction of the free switch ports that are linked (80% ok)", 1e-9,
         1.0, true);
  v.seed("seed", gen.seed, "topology generator seed (independent of the run seed)");
  v.count("hosts_per_switch", gen.hosts_per_switch,
          "0: random node placement; h > 0: exactly h nodes on ports 0..h-1 of every switch (nodes = switches * h; "
          "seed002: 4 hosts on each of 16 eight-port switches)", 0, 1024);
}

void FileKind::visit_topology(ParamVisitor& v) {
  v.text("file", file, "topology file, YAML or JSON, relative to the experiment file");
}

void FileKind::resolve_paths(const std::string& experiment_dir) {
  // Relative to the experiment file (if it exists there), else to the cwd.
  if (file.empty() || !std::filesystem::path(file).is_relative()) return;
  const auto rel = std::filesystem::path(experiment_dir) / file;
  std::error_code ec;   // a name the file system refuses is left for the loader to report
  if (std::filesystem::exists(rel, ec)) file = rel.string();
}

void FileKind::validate(const rtl::ConfigFacts& f) const {
  if (file.empty()) throw std::invalid_argument(f.where + ": topology.file: required when topology.kind is 'file'");
  SwitchNetworkKind::validate(f);
}

Topology FileKind::topology() const { return load_topology(file); }

void FatTreeKind::visit_topology(ParamVisitor& v) {
  v.count("m", m, "ports per switch (even, >= 4): IBFT(m, n) has 2(m/2)^n nodes", 4, 1024);
  v.count("n", n, "switch levels (>= 2): (2n-1)(m/2)^(n-1) switches", 2, 32);
}

void FatTreeKind::validate(const rtl::ConfigFacts& f) const {
  try {
    const FatTree t(m, n);
    if (t.num_switches() > kMaxSwitches)
      throw std::invalid_argument("IBFT(" + std::to_string(m) + "," + std::to_string(n) + ") has " +
                                  std::to_string(t.num_switches()) + " switches, above the limit " +
                                  std::to_string(kMaxSwitches));
    const std::string lids = decoder == "ib" ? rtl::ib_addressing_problem(t) : "";
    if (!lids.empty()) throw std::invalid_argument(lids + " (switch.decoder ib)");
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(f.where + ": topology.m / topology.n: " + e.what());
  }
  SwitchNetworkKind::validate(f);
}

Topology FatTreeKind::topology() const { return fat_tree_topology(FatTree(m, n)); }

}  // namespace wormcast::topo
