// The decisions of the reference VC router (reference_router.h) as small
// objects, so that a new policy is a new class rather than an edit of the
// router's cycle loop:
//
//   routing      candidates, then selection: a RoutingFunction
//                (topologies/routing_function.h) lists the hops a header may
//                take (topo::DirectRouting's deterministic next_hop is the
//                one-candidate case; west_first on meshes an adaptive one)
//                and a Selection (routing.selection) picks one of them,
//                seeing how many free VCs each candidate's output has;
//   VC allocator the order in which an input channel's requests are served
//                in a cycle and which free VC of the requested class a
//                header takes;
//   link arbiter which of the VCs that hold a physical output and can send
//                gets the link in a cycle.
//
// The built-ins are the policies of docs/direct_networks.md, "The router":
// the routing.function, the routing.selection (most_free_vcs or first: the
// same with one candidate), requests served round-robin from input channel
// (cycle mod channels) with the lowest-numbered free VC of the class, and a
// round-robin link arbiter per physical output. The fast router (VcRouter)
// implements exactly the deterministic functions with these policies.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rtl_models/core/clock.h"
#include "rtl_models/core/registry.h"
#include "topologies/routing_function.h"

namespace wormcast::rtl {

// Routing functions are SystemC-free (topologies/routing_function.h), so
// that the routing check evaluates the same objects the router does.
using topo::DeterministicRouting;
using topo::RouteQuery;
using topo::RoutingFunction;

// Picks one of the candidates (never an empty list). `free_vcs(hop)` is the
// number of free VCs of the hop's class on its output, for selections that
// prefer idle outputs.
class Selection {
 public:
  virtual ~Selection() = default;
  virtual std::size_t select(const std::vector<topo::DirectHop>& candidates,
                             const std::function<int(const topo::DirectHop&)>& free_vcs) const = 0;
};

// The first candidate: with a deterministic routing function, its only one.
class FirstCandidate final : public Selection {
 public:
  std::size_t select(const std::vector<topo::DirectHop>&,
                     const std::function<int(const topo::DirectHop&)>&) const override {
    return 0;
  }
};

// The candidate whose output has the most free VCs of its class (Noxim's
// "buffer level" idea at VC granularity); a tie goes to the earlier one.
class MostFreeVcs final : public Selection {
 public:
  std::size_t select(const std::vector<topo::DirectHop>& candidates,
                     const std::function<int(const topo::DirectHop&)>& free_vcs) const override {
    std::size_t best = 0;
    int most = -1;
    for (std::size_t k = 0; k < candidates.size(); ++k) {
      const int f = free_vcs(candidates[k]);
      if (f > most) most = f, best = k;
    }
    return best;
  }
};

// routing.selection by name.
using SelectionRegistry = Registry<Selection>;
inline const SelectionRegistry& selections() {
  static const SelectionRegistry r = [] {
    SelectionRegistry reg("routing selection");
    reg.add("most_free_vcs", "the candidate whose output has the most free VCs of its class (ties: the first)",
            [] { return std::make_unique<MostFreeVcs>(); });
    reg.add("first", "the first candidate the routing function lists", [] { return std::make_unique<FirstCandidate>(); });
    return reg;
  }();
  return r;
}

// VC allocation: requests are served in the order of input channels that
// first_request(now, channels) starts (then ascending, wrapping round), and a
// served request takes the VC choose() returns among the `count` VCs of its
// class from output channel `first` on (-1: none is free).
class VcAllocator {
 public:
  virtual ~VcAllocator() = default;
  virtual int first_request(Cycle now, int channels) const = 0;
  virtual int choose(int first, int count, const std::function<bool(int)>& is_free) const = 0;
};

// The priority rotates with the cycle (not with the router's evaluations,
// so a result never depends on which cycles a router is evaluated in); the
// lowest-numbered free VC of the class.
class RotatingLowestFree final : public VcAllocator {
 public:
  int first_request(Cycle now, int channels) const override {
    return static_cast<int>(now % static_cast<Cycle>(channels));
  }
  int choose(int first, int count, const std::function<bool(int)>& is_free) const override {
    for (int v = first; v < first + count; ++v)
      if (is_free(v)) return v;
    return -1;
  }
};

// One physical output's arbiter among its `vcs` VCs: grant() returns the VC
// that sends this cycle (-1: none can) and remembers it for the next turn.
class LinkArbiter {
 public:
  virtual ~LinkArbiter() = default;
  virtual int grant(int vcs, const std::function<bool(int)>& can_send) = 0;
  // The VC the arbiter would look at first (deadlock reports, tests).
  virtual int next() const = 0;
};

// Round robin: the search starts after the last VC granted.
class RoundRobinArbiter final : public LinkArbiter {
 public:
  int grant(int vcs, const std::function<bool(int)>& can_send) override {
    for (int k = 0; k < vcs; ++k) {
      const int v = (next_ + k) % vcs;
      if (!can_send(v)) continue;
      next_ = (v + 1) % vcs;
      return v;
    }
    return -1;
  }
  int next() const override { return next_; }

 private:
  int next_ = 0;
};

// The policies a ReferenceRouter is built with (null routing: the network's
// deterministic DirectRouting).
struct RouterPolicies {
  std::shared_ptr<const RoutingFunction> routing;
  std::string selection = "most_free_vcs";
};

}  // namespace wormcast::rtl
