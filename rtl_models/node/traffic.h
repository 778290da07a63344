// Synthetic packet sources for endpoints: uniform random destinations with
// Bernoulli or Poisson packet arrivals at a load in flits/cycle/node. Arrival
// gaps are drawn directly (geometric / exponential), so a source costs one
// wake-up per packet, not one per cycle.
#pragma once

#include <string>

#include "rtl_models/core/packet.h"
#include "rtl_models/core/params.h"
#include "rtl_models/core/rng.h"

namespace wormcast::rtl {

struct TrafficParams {
  std::string pattern = "uniform";
  std::string process = "bernoulli";
  double load = 0.05;          // offered flits / cycle / node
  int packet_size = 128;       // flits, header included
  int header_flits = 1;        // unicast header length
  void visit(ParamVisitor& v) {
    v.real("load", load, "flits/cycle/node", "offered load per node", 0.0, 1.0);
    visit_shape(v);
  }
  // The keys besides the load: where packets go, when they arrive, their
  // size (the background section has them too, with a load of its own).
  void visit_shape(ParamVisitor& v) {
    v.choice("pattern", pattern, {"uniform", "transpose", "bit_complement", "hotspot"},
             "destination pattern: uniform over the other nodes; transpose (N = m^2 nodes, id a*m+b -> b*m+a: "
             "(a,b) -> (b,a) on a k x k mesh/torus); bit_complement (id -> N-1-id: every coordinate "
             "complemented); hotspot (hotspot_fraction, default 10%, of the packets to hotspot_node, default 0, "
             "the rest uniform; these two keys of the section exist only with pattern hotspot). A node whose "
             "transpose/complement is itself sends nothing");
    v.choice("process", process, {"bernoulli", "poisson"},
             "packet arrival process: Bernoulli trial per cycle, or Poisson (exponential gaps)");
    v.flits("packet_size", packet_size, "packet length, header flits included", 1);
    v.flits("header_flits", header_flits, "header flits of a unicast packet", 1);
    // Only with pattern hotspot, so every other configuration (and its
    // sweep cache hash) is unchanged; elsewhere these keys are unknown.
    if (pattern != "hotspot") return;
    v.count("hotspot_node", hotspot_node, "destination of the hot spot (pattern hotspot), a node id", 0, 1 << 24);
    v.real("hotspot_fraction", hotspot_fraction, "", "fraction of packets sent to hotspot_node (pattern hotspot)",
           0.0, 1.0, true);
  }
  int hotspot_node = 0;
  double hotspot_fraction = 0.1;
};

// Why `p.pattern` cannot run on `num_nodes` nodes ("" if it can): transpose
// needs a square node count, hotspot_node must exist. The keys are named in
// `section` (traffic, background).
std::string pattern_problem(const TrafficParams& p, int num_nodes, const std::string& section = "traffic");

// Decides when a node creates its next packet and where it goes.
class PacketSource {
 public:
  virtual ~PacketSource() = default;
  // Cycle of the next packet creation (UINT64_MAX: never). It may change
  // only through generate(): the endpoint reads it when the source is set
  // and after each generate(), not in every cycle.
  virtual Cycle next_time() const = 0;
  // Fill in destination/length of the packet created at next_time(), and
  // advance to the following arrival.
  virtual void generate(Packet& p) = 0;
  // True if generate() only ever sets the fields of a UnicastShape (kind
  // unicast, every other field as constructed): the endpoint then queues a
  // compact record per packet and builds the Packet when it starts to leave
  // (QueuedUnicast, link_interface.h). Asked once, when the source is set.
  virtual bool unicast_only() const { return false; }
  // generate() for such a source, as the shape it would fill in.
  virtual UnicastShape generate_unicast() {
    Packet p;
    generate(p);
    return {p.header.dest, p.length, p.header_flits};
  }
};

class SyntheticSource : public PacketSource {
 public:
  SyntheticSource(const TrafficParams& p, NodeId self, int num_nodes, Rng rng, Cycle start = 0);
  Cycle next_time() const override { return next_; }
  void generate(Packet& p) override;
  bool unicast_only() const override { return true; }
  UnicastShape generate_unicast() override;

 private:
  // The pattern and process, decided from their names once (not per packet).
  enum class Pattern { uniform, fixed, hotspot };   // fixed: transpose / bit_complement
  Cycle gap();
  NodeId uniform_destination();
  NodeId fixed_destination() const;   // transpose / bit_complement
  TrafficParams p_;
  NodeId self_;
  int nodes_;
  Rng rng_;
  double rate_;       // packets per cycle
  Pattern pattern_ = Pattern::uniform;
  bool bernoulli_ = true;
  NodeId fixed_dest_ = -1;    // pattern fixed: this node's destination
  double log_miss_ = 0;       // log1p(-rate_): a Bernoulli trial's log failure probability
  double clock_ = 0;  // continuous time for the Poisson process
  Cycle next_ = UINT64_MAX;
};

}  // namespace wormcast::rtl
