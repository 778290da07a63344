#include "algorithms/step_model.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace wormcast::algo {
namespace {

// Breadth-first order from root, checking that the lists form a spanning tree.
std::vector<std::size_t> tree_order(const std::vector<std::vector<std::size_t>>& children, std::size_t root) {
  const std::size_t n = children.size();
  if (root >= n)
    throw std::invalid_argument("step model: root " + std::to_string(root) + " out of range for " +
                                std::to_string(n) + " nodes");
  std::vector<char> seen(n, 0);
  std::vector<std::size_t> order{root};
  seen[root] = 1;
  for (std::size_t i = 0; i < order.size(); ++i) {
    for (std::size_t c : children[order[i]]) {
      if (c >= n)
        throw std::invalid_argument("step model: node " + std::to_string(order[i]) + " has child " +
                                    std::to_string(c) + ", out of range for " + std::to_string(n) + " nodes");
      if (seen[c])
        throw std::invalid_argument("step model: node " + std::to_string(c) +
                                    " is reached twice (not a tree)");
      seen[c] = 1;
      order.push_back(c);
    }
  }
  if (order.size() != n) {
    const auto missing = std::find(seen.begin(), seen.end(), 0) - seen.begin();
    throw std::invalid_argument("step model: node " + std::to_string(missing) + " is not reachable from root " +
                                std::to_string(root));
  }
  return order;
}

// One node's sends in its fixed FPFS/FCFS sequence, each as early as allowed.
void schedule_node(const std::vector<std::size_t>& kids, const std::vector<unsigned>& have, NiDiscipline d,
                   StepSchedule& out) {
  const std::size_t m = have.size();
  unsigned last_send = 0;
  auto send = [&](std::size_t p, std::size_t child) {
    last_send = std::max(last_send, have[p]) + 1;
    out.receive_step[child][p] = last_send;
  };
  if (d == NiDiscipline::fpfs) {
    for (std::size_t p = 0; p < m; ++p)
      for (std::size_t c : kids) send(p, c);
  } else {
    for (std::size_t c : kids)
      for (std::size_t p = 0; p < m; ++p) send(p, c);
  }
}

}  // namespace

StepSchedule simulate_steps(const std::vector<std::vector<std::size_t>>& children, std::size_t root,
                            std::size_t packets, NiDiscipline discipline) {
  if (packets < 1)
    throw std::invalid_argument("step model: packet count m must be >= 1, got m = " + std::to_string(packets));
  const std::vector<std::size_t> order = tree_order(children, root);
  StepSchedule out;
  out.packets = packets;
  out.receive_step.assign(children.size(), std::vector<unsigned>(packets, 0));
  // Parents come before children in BFS order, so each node's receive steps
  // are final when it is scheduled.
  for (std::size_t v : order) schedule_node(children[v], out.receive_step[v], discipline, out);

  out.completion_step.assign(packets, 0);
  for (const auto& r : out.receive_step)
    for (std::size_t p = 0; p < packets; ++p) out.completion_step[p] = std::max(out.completion_step[p], r[p]);
  out.total_steps = *std::max_element(out.completion_step.begin(), out.completion_step.end());
  out.sends_per_step.assign(out.total_steps + 1, 0);
  for (std::size_t v = 0; v < children.size(); ++v) {
    if (v == root) continue;
    for (unsigned t : out.receive_step[v]) ++out.sends_per_step[t];
  }
  out.receptions_per_step = out.sends_per_step;
  return out;
}

}  // namespace wormcast::algo
