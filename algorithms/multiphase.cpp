#include "algorithms/multiphase.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "algorithms/multicast_set.h"
#include "algorithms/ssr.h"

namespace wormcast::algo {

using topo::NodeId;

Schedule schedule_worms(const topo::Topology& t, NodeId source, std::vector<std::vector<NodeId>> worms,
                        Scheduler sch) {
  const int N = t.num_nodes();
  if (source < 0 || source >= N)
    throw std::invalid_argument("schedule: source " + std::to_string(source) + " is not a node");
  for (const auto& w : worms) {
    if (w.empty()) throw std::invalid_argument("schedule: a worm has no destinations");
    for (NodeId d : w)
      if (d < 0 || d >= N) throw std::invalid_argument("schedule: destination " + std::to_string(d) + " is not a node");
  }
  std::stable_sort(worms.begin(), worms.end(),
                   [](const auto& a, const auto& b) { return a.size() > b.size(); });
  Schedule out;
  out.source = source;
  std::vector<NodeId> senders{source};
  std::vector<char> switch_covered(t.num_switches(), 0);
  switch_covered[t.node_attach[source].sw] = 1;   // the source speaks for its switch (LG)
  std::size_t next = 0;
  while (next < worms.size()) {
    ++out.phases;
    std::vector<NodeId> joined;   // senders from the next phase on, in coverage order
    for (NodeId x : senders) {
      if (next == worms.size()) break;
      ScheduledWorm sw;
      sw.sender = x;
      sw.phase = out.phases;
      sw.destinations = worms[next++];
      for (NodeId d : sw.destinations) {
        if (sch == Scheduler::greedy) {
          joined.push_back(d);
        } else if (!switch_covered[t.node_attach[d].sw]) {
          switch_covered[t.node_attach[d].sw] = 1;
          joined.push_back(d);
        }
      }
      out.worms.push_back(std::move(sw));
    }
    senders.insert(senders.end(), joined.begin(), joined.end());
  }
  return out;
}

namespace {

void add_routes(const topo::Topology& t, const topo::UpDownRouting& r, Schedule& s) {
  for (ScheduledWorm& w : s.worms) w.route = route_path_worm(t, r, w.sender, w.destinations);
}

}  // namespace

Schedule plan_path_based(const topo::Topology& t, const topo::UpDownRouting& r, NodeId source,
                         const std::vector<NodeId>& dests, Scheduler s, const PocOptions& opt) {
  Schedule out = schedule_worms(t, source, path_worm_destinations(t, r, source, dests, opt), s);
  add_routes(t, r, out);
  return out;
}

Schedule plan_ssr(const topo::Topology& t, const topo::UpDownRouting& r, NodeId source,
                  const std::vector<NodeId>& dests, Scheduler s, const PocOptions& opt) {
  std::vector<std::vector<NodeId>> worms;
  for (SsrWorm& w : ssr_worms(t, r, source, dests, opt)) worms.push_back(std::move(w.destinations));
  Schedule out = schedule_worms(t, source, std::move(worms), s);
  add_routes(t, r, out);
  return out;
}

namespace {

struct PlanBuilder {
  const Schedule& s;
  std::vector<std::vector<std::size_t>> by_sender;   // worm indices per sender, by phase
  std::vector<int> got_phase;                        // phase a node received in (source: 0)

  RelayWorm build(std::size_t i) {
    const ScheduledWorm& w = s.worms[i];
    RelayWorm out;
    out.destinations = w.destinations;
    for (NodeId d : w.destinations) {
      got_phase[d] = w.phase;
      if (!by_sender[d].empty()) out.tasks.push_back(task(d));
    }
    return out;
  }

  RelayTask task(NodeId x) {
    RelayTask t;
    t.relay = x;
    int expect = got_phase[x] + 1;
    for (std::size_t j : by_sender[x]) {
      if (s.worms[j].phase != expect++)
        throw std::logic_error("relay_plan: node " + std::to_string(x) +
                               " does not send in consecutive phases after receiving");
      t.worms.push_back(build(j));
    }
    return t;
  }
};

}  // namespace

RelayTask relay_plan(const Schedule& s) {
  NodeId max_node = s.source;
  for (const ScheduledWorm& w : s.worms) {
    max_node = std::max(max_node, w.sender);
    for (NodeId d : w.destinations) max_node = std::max(max_node, d);
  }
  PlanBuilder b{s, std::vector<std::vector<std::size_t>>(max_node + 1), std::vector<int>(max_node + 1, -1)};
  for (std::size_t i = 0; i < s.worms.size(); ++i) b.by_sender[s.worms[i].sender].push_back(i);
  for (auto& v : b.by_sender)
    std::stable_sort(v.begin(), v.end(), [&](std::size_t a, std::size_t c) { return s.worms[a].phase < s.worms[c].phase; });
  b.got_phase[s.source] = 0;
  return b.task(s.source);
}

std::vector<RelayWorm> relay_sends(const RelayWorm& got, NodeId me) {
  for (const RelayTask& t : got.tasks)
    if (t.relay == me) return t.worms;
  return {};
}

int payload_node_ids(const RelayWorm& w) {
  int n = static_cast<int>(w.destinations.size());
  for (const RelayTask& t : w.tasks) {
    ++n;   // the relay's id
    for (const RelayWorm& c : t.worms) n += payload_node_ids(c);
  }
  return n;
}

}  // namespace wormcast::algo
