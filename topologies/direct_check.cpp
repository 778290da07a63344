// check_direct_routing(): an independent check of DirectRouting. It shares
// only the addressing (sigma / with_sigma) and the routing function under
// test; neighbours, distances, VC existence and ℋ labels are recomputed here
// from the definitions of seed001 §1.1, §1.5 and §2.
//
// Routes are walked per destination v: where a header goes next depends only
// on where it is, the class it arrived on and its input port, i.e. on the
// (channel, class) pair it arrived on. So once one route towards v has taken
// a pair, every later route towards v reaching that pair continues as it
// did: its remaining length is known and its dependencies are recorded.
// Each (pair, destination) is walked once instead of once per source.
#include "topologies/direct_check.h"

#include <algorithm>
#include <array>

namespace wormcast::topo {

namespace {

// p, l, h, single, (local), dl0, dl1: index of a (channel, class) pair = slot * kClasses + class
constexpr int kClasses = kVcClassCount;

// A dependency edge and the first walk that recorded it, (source, destination)
// as source * N + destination, so that the edges leave each pair in the
// order of a walk by source then destination (the order the cycle search
// and the λ check report in).
struct Dep {
  int to;
  long long first;
};

// Adjacency lists in two flat arrays: the nodes next to x are
// to[off[x]] .. to[off[x + 1] - 1] (one BFS per node walks them N times).
struct FlatGraph {
  std::vector<int> off;
  std::vector<NodeId> to;
};

class Checker {
 public:
  Checker(const DirectRouting& r, const DirectCheckOptions& o)
      : r_(r), t_(r.topology()), fn_(o.next_hop), n_(t_.dimensions()), N_(t_.num_nodes()),
        deps_(static_cast<std::size_t>(t_.num_channel_slots()) * kClasses) {}

  DirectCheckReport run(bool keep_route_edges) {
    DirectCheckReport out;
    build_adjacency();
    if (r_.algorithm() == RoutingAlgorithm::utpr) build_labels();
    if (r_.algorithm() == RoutingAlgorithm::dateline) build_dateline_rings();
    check_vc_rules();
    build_hop_tables();
    // A wrong route is reported per pair in the order of a walk by source
    // (capped): redo the walks that way, from scratch, to report it.
    if (problems_.size() < kMaxProblems && !walk_by_destination()) {
      out.per_pair_walk = true;
      for (auto& d : deps_) d.clear();
      walk_by_source();
    }
    for (auto& d : deps_) std::stable_sort(d.begin(), d.end(), [](Dep a, Dep b) { return a.first < b.first; });
    out.route_dependencies = count_edges();
    if (keep_route_edges) out.route_edges = edge_list();
    if (r_.algorithm() == RoutingAlgorithm::utpr) add_worm_continuations();
    out.dependencies = count_edges();
    find_cycle();
    if (r_.algorithm() == RoutingAlgorithm::utpr) check_corrected_order();
    if (dropped_) problems_.push_back("... and " + std::to_string(dropped_) + " more problems");
    out.problems = std::move(problems_);
    out.routing_calls = calls_;
    return out;
  }

 private:
  static constexpr std::size_t kMaxProblems = 40;

  std::size_t count_edges() const {
    std::size_t e = 0;
    for (const auto& d : deps_) e += d.size();
    return e;
  }

  std::vector<std::pair<int, int>> edge_list() const {
    std::vector<std::pair<int, int>> e;
    for (std::size_t a = 0; a < deps_.size(); ++a)
      for (const Dep& d : deps_[a]) e.emplace_back(static_cast<int>(a), d.to);
    std::sort(e.begin(), e.end());
    return e;
  }

  DirectHop next_hop(NodeId at, NodeId dst, VcClass in, int in_port = -1) {
    ++calls_;
    return fn_ ? (*fn_)(at, dst, in, in_port) : r_.next_hop(at, dst, in, in_port);
  }

  void report(const std::string& p) {
    if (problems_.size() < kMaxProblems) problems_.push_back(p);
    else ++dropped_;
  }

  std::string channel_text(NodeId x, int d, Direction dir) const {
    return t_.name(x) + " d" + std::to_string(d) + to_string(dir);
  }

  // Neighbours by the definitions of §1.1, not by DirectTopology::channels().
  void build_adjacency() {
    adj_.assign(N_, {});
    for (NodeId x = 0; x < N_; ++x) {
      for (int d = 0; d < n_; ++d) {
        const int s = t_.sigma(x, d), k = t_.radix(d);
        if (t_.is_torus()) {
          adj_[x].push_back(t_.with_sigma(x, d, (s + 1) % k));
          if (t_.bidirectional()) adj_[x].push_back(t_.with_sigma(x, d, (s + k - 1) % k));
        } else {
          if (s + 1 < k) adj_[x].push_back(t_.with_sigma(x, d, s + 1));
          if (s > 0) adj_[x].push_back(t_.with_sigma(x, d, s - 1));
        }
      }
      std::sort(adj_[x].begin(), adj_[x].end());
      adj_[x].erase(std::unique(adj_[x].begin(), adj_[x].end()), adj_[x].end());
      std::vector<NodeId> got;
      for (const DirectChannel& c : t_.channels(x)) got.push_back(c.to);
      std::sort(got.begin(), got.end());
      if (got != adj_[x]) report(t_.name(x) + ": topology channels do not match the neighbour definition");
    }
    std::vector<std::vector<NodeId>> radj(N_);
    for (NodeId x = 0; x < N_; ++x)
      for (NodeId y : adj_[x]) radj[y].push_back(x);
    fwd_ = flat(adj_);
    rev_ = flat(radj);
  }

  static FlatGraph flat(const std::vector<std::vector<NodeId>>& adj) {
    FlatGraph g;
    g.off.push_back(0);
    for (const auto& a : adj) {
      g.to.insert(g.to.end(), a.begin(), a.end());
      g.off.push_back(static_cast<int>(g.to.size()));
    }
    return g;
  }

  // Eq. 5.2 labels, then Definition 5.1 boundaries (ℓ(u) > ℓ(u^d)); also
  // checks that ℓ numbers a Hamiltonian cycle of the unidirectional torus.
  void build_labels() {
    const int k = t_.radix(0);
    label_.assign(N_, 0);
    std::vector<NodeId> at_label(N_, -1);
    bool permutation = true;
    for (NodeId u = 0; u < N_; ++u) {
      long long l = 0, w = 1;
      for (int i = 0; i < n_; ++i, w *= k) {
        int sum = 0;
        for (int j = i; j < n_; ++j) sum += t_.sigma(u, j);
        l += w * (sum % k);
      }
      label_[u] = l;
      if (l < 0 || l >= N_ || at_label[l] >= 0) {
        report(t_.name(u) + ": ℋ labels are not a permutation");
        permutation = false;
      } else {
        at_label[l] = u;
      }
    }
    for (long long l = 0; l < N_ && permutation; ++l) {
      const NodeId a = at_label[l], b = at_label[(l + 1) % N_];
      if (!std::binary_search(adj_[a].begin(), adj_[a].end(), b))
        report("ℋ: label " + std::to_string(l) + " -> next is not a channel");
    }
  }

  // Dateline classes by enumeration: for every ring (radix k) and every
  // source and destination coordinate, the shorter way round (a tie of k/2
  // the way without the wrap); the whole route in the ring carries dl1 if it
  // crosses the wrap, else dl0. ring_[d][dir][σ] = classes on the channel
  // leaving coordinate σ in direction dir.
  void build_dateline_rings() {
    ring_.assign(n_, {});
    for (int d = 0; d < n_; ++d) {
      const int k = t_.radix(d);
      for (auto& v : ring_[d]) v.assign(k, VcSet{});
      for (int a = 0; a < k; ++a)
        for (int b = 0; b < k; ++b) {
          if (a == b) continue;
          const int up = (b - a + k) % k, down = k - up;
          const bool plus = up < down || (up == down && a < b);
          const int hops = plus ? up : down;
          const VcClass c = (plus ? a > b : a < b) ? VcClass::dl1 : VcClass::dl0;
          for (int i = 0, x = a; i < hops; ++i, x = (x + (plus ? 1 : k - 1)) % k)
            ring_[d][plus ? 0 : 1][x].add(c);
        }
    }
  }

  bool boundary(NodeId u, int d) const {
    const int s = t_.sigma(u, d), k = t_.radix(d);
    return label_[u] > label_[t_.with_sigma(u, d, (s + 1) % k)];
  }

  // VC existence rules of §1.5, written from what the routing needs: a
  // class sits on a channel iff some route of Eq. 4.1 / 4.2 / 5.3 uses it.
  VcSet expected(NodeId x, int d, Direction dir) const {
    VcSet s;
    if (!t_.has_channel(x, d, dir)) return s;
    const int sig = t_.sigma(x, d), k = t_.radix(d);
    const bool plus = dir == Direction::plus;
    const bool wrap = plus ? sig == k - 1 : sig == 0;
    switch (r_.algorithm()) {
      case RoutingAlgorithm::utr:
        if (!wrap) s.add(VcClass::h);   // no h wrap
        if (sig != 0) s.add(VcClass::p);   // a wrapping message starts at σ > σ(dst) >= 0
        break;
      case RoutingAlgorithm::btr:
        if (!wrap) s.add(plus ? VcClass::h : VcClass::l);
        // Going up to wrap needs a start σ0 with 2σ0 > k at or below here;
        // going down needs 2σ0 < k-2 at or above here.
        if (plus ? 2 * sig > k : 2 * sig < k - 2) s.add(VcClass::p);
        break;
      case RoutingAlgorithm::utpr:
        s.add(VcClass::h);
        if (!boundary(x, d)) s.add(VcClass::p);
        break;
      case RoutingAlgorithm::dateline:
        s = ring_[d][plus ? 0 : 1][sig];
        break;
      default:
        s.add(VcClass::single);
    }
    return s;
  }

  // vc_classes() must match the rules on every channel, and every class in
  // use needs its own VC index below num_vcs().
  void check_vc_rules() {
    VcSet used;
    for (NodeId x = 0; x < N_; ++x)
      for (int d = 0; d < n_; ++d)
        for (Direction dir : {Direction::plus, Direction::minus}) {
          const VcSet want = expected(x, d, dir), got = r_.vc_classes(x, d, dir);
          used.bits |= want.bits;
          if (!(want == got))
            report("channel " + channel_text(x, d, dir) + ": vc_classes() differs from the thesis rules");
        }
    std::vector<char> taken(r_.num_vcs(), 0);
    for (VcClass c : kChannelClasses) {
      if (!used.contains(c)) continue;
      const int i = r_.vc_index(c);
      if (i < 0 || i >= r_.num_vcs() || taken[i])
        report(std::string("class ") + to_string(c) + " has no VC index of its own below num_vcs()");
      else taken[i] = 1;
    }
  }

  // Hops from s along `g` (fwd_: from s; rev_: to s); -1 if unreachable.
  void bfs(NodeId s, const FlatGraph& g, std::vector<int>& dist) {
    std::fill(dist.begin(), dist.end(), -1);
    queue_.clear();
    dist[s] = 0;
    queue_.push_back(s);
    for (std::size_t i = 0; i < queue_.size(); ++i) {
      const NodeId x = queue_[i];
      for (int j = g.off[x]; j < g.off[x + 1]; ++j)
        if (const NodeId y = g.to[j]; dist[y] < 0) {
          dist[y] = dist[x] + 1;
          queue_.push_back(y);
        }
    }
  }

  int node_index(NodeId x, int d, Direction dir, VcClass c) const {
    return t_.channel_slot(x, d, dir) * kClasses + static_cast<int>(c);
  }

  void add_dep(int from, int to, long long first) {
    for (Dep& d : deps_[from])
      if (d.to == to) {
        d.first = std::min(d.first, first);
        return;
      }
    deps_[from].push_back({to, first});
  }

  // One hop decided at `at`; empty string when legal, else the reason.
  std::string illegal(NodeId at, const DirectHop& h) const {
    if (h.dim < 0 || h.dim >= n_) return "no dimension chosen";
    if (!t_.has_channel(at, h.dim, h.dir)) return "channel " + channel_text(at, h.dim, h.dir) + " does not exist";
    const NodeId next = t_.neighbour(at, h.dim, h.dir);
    if (!std::binary_search(adj_[at].begin(), adj_[at].end(), next))
      return "channel " + channel_text(at, h.dim, h.dir) + " leads to a non-neighbour";
    if (!expected(at, h.dim, h.dir).contains(h.vc))
      return std::string("class ") + to_string(h.vc) + " does not exist on " + channel_text(at, h.dim, h.dir);
    return "";
  }

  // Every route, by destination v: distances to v by one BFS over the
  // reversed channels, then each source's route until it takes a (channel,
  // class) pair that an earlier route to v took (seen_[pair] == v), whose
  // remaining length rest_[pair] is then known. False at the first wrong
  // route, reporting nothing (walk_by_source() reports).
  bool walk_by_destination() {
    std::vector<int> dist(N_);
    seen_.assign(deps_.size(), -1);
    rest_.assign(deps_.size(), 0);
    for (NodeId v = 0; v < N_; ++v) {
      bfs(v, rev_, dist);
      for (NodeId s = 0; s < N_; ++s)
        if (s != v && !walk<true>(s, v, dist[s])) return false;
    }
    return true;
  }

  // Every ordered pair's route on its own, by source then destination,
  // stopping after the source at which the problems reach the cap.
  void walk_by_source() {
    std::vector<int> dist(N_);
    for (NodeId s = 0; s < N_ && problems_.size() < kMaxProblems; ++s) {
      bfs(s, fwd_, dist);
      for (NodeId v = 0; v < N_; ++v)
        if (v != s) walk<false>(s, v, dist[v]);
    }
  }

  // illegal() and the next node per (channel, class) once, not per hop.
  void build_hop_tables() {
    legal_.assign(deps_.size(), 0);
    head_.assign(deps_.size(), -1);
    for (NodeId x = 0; x < N_; ++x)
      for (int d = 0; d < n_; ++d)
        for (Direction dir : {Direction::plus, Direction::minus})
          for (int c = 0; c < kClasses; ++c) {
            const int i = node_index(x, d, dir, static_cast<VcClass>(c));
            legal_[i] = illegal(x, DirectHop{false, d, dir, static_cast<VcClass>(c)}).empty();
            head_[i] = t_.neighbour(x, d, dir);
          }
  }

  // illegal(at, h).empty(), from the table.
  bool legal(NodeId at, const DirectHop& h) const {
    return h.dim >= 0 && h.dim < n_ && static_cast<unsigned>(h.dir) <= 1 && static_cast<int>(h.vc) < kClasses &&
           legal_[node_index(at, h.dim, h.dir, h.vc)];
  }

  // Follows the routing function hop by hop (as routers would), recording
  // channel dependencies; the route must be as long as the BFS distance.
  // shared (walk_by_destination): stop at a (channel, class) pair that an
  // earlier route to dst took, and only say whether the route is right. The
  // step bound also stops a routing function that goes round in circles.
  template <bool shared>
  bool walk(NodeId src, NodeId dst, int want) {
    const auto what = [&] {
      return std::string(to_string(r_.algorithm())) + " route " + t_.name(src) + " -> " + t_.name(dst);
    };
    const auto wrong = [&](const auto& text) {
      if constexpr (!shared) report(text());
      return false;
    };
    if (want < 0) return wrong([&] { return what() + ": destination unreachable in the channel graph"; });
    const long long first = static_cast<long long>(src) * N_ + dst;
    path_.clear();
    NodeId at = src;
    VcClass cls = VcClass::local;
    int prev = -1, in_port = -1;
    for (int hops = 0;; ++hops) {
      const DirectHop h = next_hop(at, dst, cls, in_port);
      if (h.arrived) {
        if (at != dst) return wrong([&] { return what() + ": claims arrival at " + t_.name(at); });
        if (hops != want)
          return wrong([&] {
            return what() + ": " + std::to_string(hops) + " hops, shortest is " + std::to_string(want);
          });
        break;
      }
      if (hops >= want)
        return wrong([&] { return what() + ": longer than the shortest path (" + std::to_string(want) + " hops)"; });
      if (!legal(at, h)) return wrong([&] { return what() + " at " + t_.name(at) + ": " + illegal(at, h); });
      const int cur = node_index(at, h.dim, h.dir, h.vc);
      if (prev >= 0) add_dep(prev, cur, first);
      if constexpr (shared) {
        if (seen_[cur] == dst) {
          if (hops + 1 + rest_[cur] != want) return false;
          break;
        }
        path_.push_back(cur);
      }
      prev = cur;
      at = head_[cur];
      cls = h.vc;
      in_port = DirectTopology::port_index(h.dim, h.dir);   // the port it arrives on at `at`
    }
    for (std::size_t i = 0; i < path_.size(); ++i) {
      seen_[path_[i]] = dst;
      rest_[path_[i]] = want - static_cast<int>(i) - 1;
    }
    return true;
  }

  // A UTPR worm arriving at destination w on (channel, α) continues to its
  // next destination v (Fig. 5.10 keeps α). On an ℋ-cycle it has crossed no
  // boundary while α = p, so v may be anywhere; after the boundary (α = h)
  // the remaining destinations have labels above ℓ(w).
  void add_worm_continuations() {
    for (NodeId x = 0; x < N_; ++x)
      for (int d = 0; d < n_; ++d) {
        const NodeId w = t_.neighbour(x, d, Direction::plus);
        for (VcClass a : {VcClass::p, VcClass::h}) {
          if (!expected(x, d, Direction::plus).contains(a)) continue;
          for (NodeId v = 0; v < N_; ++v) {
            if (v == w || (a == VcClass::h && label_[v] < label_[w])) continue;
            const DirectHop h = next_hop(w, v, a);
            if (h.arrived || !legal(w, h)) {
              const std::string why = h.arrived ? "arrived early" : illegal(w, h);
              report("utpr worm continuing at " + t_.name(w) + " to " + t_.name(v) + ": " + why);
              continue;
            }
            // After every route's edges, in the order found (as appended).
            add_dep(node_index(x, d, Direction::plus, a), node_index(w, h.dim, h.dir, h.vc), next_late_++);
          }
        }
      }
  }

  std::string pair_text(int idx) const {
    const int slot = idx / kClasses;
    const NodeId x = slot / (2 * n_);
    const int d = slot / 2 % n_;
    return channel_text(x, d, static_cast<Direction>(slot % 2)) + " " + to_string(static_cast<VcClass>(idx % kClasses));
  }

  // Iterative DFS over (channel, VC) pairs; a grey successor closes a cycle.
  void find_cycle() {
    const int V = static_cast<int>(deps_.size());
    std::vector<char> colour(V, 0);
    std::vector<int> from(V, -1);
    for (int start = 0; start < V; ++start) {
      if (colour[start] || deps_[start].empty()) continue;
      std::vector<std::pair<int, std::size_t>> stack{{start, 0}};
      colour[start] = 1;
      while (!stack.empty()) {
        auto& [c, i] = stack.back();
        if (i == deps_[c].size()) {
          colour[c] = 2;
          stack.pop_back();
          continue;
        }
        const int nx = deps_[c][i++].to;
        if (colour[nx] == 1) return report_cycle(nx, c, from);
        if (colour[nx] == 0) {
          colour[nx] = 1;
          from[nx] = c;
          stack.push_back({nx, 0});
        }
      }
    }
  }

  void report_cycle(int head, int tail, const std::vector<int>& from) {
    std::vector<int> cycle{head};
    for (int x = tail; x != head; x = from[x]) cycle.push_back(x);
    std::reverse(cycle.begin() + 1, cycle.end());
    std::string text = "channel dependency cycle:";
    for (int c : cycle) text += " " + pair_text(c) + " ->";
    report(text + " " + pair_text(head));
  }

  // seed001 §7.6: p-channels by (ℓ(u), d) < boundary h-channels < other
  // h-channels by (ℓ(u), d); every dependency must go up in this order.
  long long corrected_lambda(int idx) const {
    const int slot = idx / kClasses;
    const NodeId u = slot / (2 * n_);
    const int d = slot / 2 % n_;
    const long long within = label_[u] * n_ + d, span = static_cast<long long>(N_) * n_;
    if (static_cast<VcClass>(idx % kClasses) == VcClass::p) return within;
    return (boundary(u, d) ? span : 2 * span) + within;
  }

  void check_corrected_order() {
    for (std::size_t a = 0; a < deps_.size(); ++a)
      for (const Dep& e : deps_[a])
        if (const int b = e.to; corrected_lambda(static_cast<int>(a)) >= corrected_lambda(b))
          report("dependency " + pair_text(static_cast<int>(a)) + " -> " + pair_text(b) +
                 " does not increase in the corrected λ order (seed001 §7.6)");
  }

  const DirectRouting& r_;
  const DirectTopology& t_;
  const NextHopFunction* fn_;
  int n_, N_;
  std::vector<std::vector<NodeId>> adj_;   // channels by the definition
  FlatGraph fwd_, rev_;                    // adj_; adj_ reversed
  std::vector<long long> label_;
  std::vector<std::array<std::vector<VcSet>, 2>> ring_;   // dateline: [d][+/-][σ]
  std::vector<std::vector<Dep>> deps_;   // [(channel, VC)] -> successors
  long long next_late_ = static_cast<long long>(N_) * N_;   // UTPR continuations: after every pair
  std::vector<char> legal_;            // [(channel, VC)]: illegal() is empty
  std::vector<NodeId> head_;           // [(channel, VC)]: the node it leads to
  std::vector<NodeId> seen_, queue_;   // seen_[(channel, VC)]: last destination walked through it
  std::vector<int> rest_, path_;       // rest_: hops from there to seen_'s destination
  std::vector<std::string> problems_;
  std::size_t dropped_ = 0;
  long long calls_ = 0;
};

}  // namespace

// Several VCs per class (vcs = m * num_vcs()) replicate the class graph m
// times per node with complete m x m edges; it is acyclic iff the class
// graph is, so only the multiple itself is checked here.
DirectCheckReport check_direct_routing_report(const DirectRouting& r, int vcs, const DirectCheckOptions& options) {
  DirectCheckReport out = Checker(r, options).run(options.keep_route_edges);
  if (r.vcs_per_class(vcs) == 0)
    out.problems.insert(out.problems.begin(),
                        std::to_string(vcs) + " VCs per channel: routing " + to_string(r.algorithm()) + " has " +
                            std::to_string(r.num_vcs()) + " VC classes, so it needs a positive multiple of " +
                            std::to_string(r.num_vcs()));
  return out;
}

std::vector<std::string> check_direct_routing(const DirectRouting& r, int vcs) {
  return check_direct_routing_report(r, vcs).problems;
}

}  // namespace wormcast::topo
