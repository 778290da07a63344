// Direct networks of seed001 §1.1 (Robinson): k-ary n-cube tori, regular or
// not (k_0 x ... x k_{n-1}), with unidirectional or bidirectional channels;
// meshes; hypercubes (2-ary n-cubes, channel d flips bit d). Node x has the
// address σ_{n-1}(x)...σ_0(x); its id is the mixed-radix number with σ_0 least
// significant, so a hypercube node's id is its binary address. Names follow
// the papers: tuples highest dimension first, "(4,3)" = (σ_1, σ_0), and
// hypercube nodes as n-bit strings "0101". Pure data, no SystemC: the router
// model asks it for neighbours and channels per hop.
//
// Every node has up to 2n outgoing external channels, one per (dimension,
// direction). A channel "wraps" when it joins coordinate k_d-1 to 0 (plus)
// or 0 to k_d-1 (minus). In a bidirectional torus of width 2 the two
// directions would join the same pair twice; as in a mesh and a hypercube,
// only the non-wrapping one exists (documented choice), so hypercube:n and
// torus:2x...x2:bi have the same channels.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "topologies/topology.h"

namespace wormcast::topo {

enum class DirectKind { torus, mesh, hypercube };

// Direction of travel in a dimension: plus = towards σ_d + 1 (mod k_d).
enum class Direction : std::uint8_t { plus = 0, minus = 1 };

// One outgoing external channel of a node.
struct DirectChannel {
  int dim = 0;
  Direction dir = Direction::plus;
  NodeId to = -1;      // neighbour reached
  bool wrap = false;   // wrap-around channel (k_d-1 -> 0 or 0 -> k_d-1)
};

class DirectTopology {
 public:
  // Radices are listed highest dimension first, as in tuples and specs:
  // torus({4, 8}, false) has k_1 = 4, k_0 = 8 and nodes (a,b) with a < 4.
  static DirectTopology torus(const std::vector<int>& radices_high_first, bool bidirectional);
  static DirectTopology mesh(const std::vector<int>& radices_high_first);
  static DirectTopology hypercube(int dimensions);

  DirectKind kind() const { return kind_; }
  bool bidirectional() const { return bidirectional_; }
  bool is_torus() const { return kind_ == DirectKind::torus; }
  bool regular() const;                  // all k_d equal
  int dimensions() const { return static_cast<int>(radix_.size()); }   // n
  int radix(int d) const { return radix_[d]; }                         // k_d
  int num_nodes() const { return num_nodes_; }
  // The spec string that parse_direct_spec() reads back: torus:4x8:uni,
  // torus:6x6:bi, mesh:8x8, hypercube:6.
  std::string spec() const;

  // σ_d(x); cheap (one division, one modulo).
  int sigma(NodeId x, int d) const { return (x / stride_[d]) % radix_[d]; }
  // σ_d(x) read from a table of every node's digits where that table is
  // small (radices up to 256, at most 4 MiB), else sigma(): the routing
  // function (DirectRouting) takes its digits for every routed header, and
  // sigma()'s two divisions per dimension would be most of its time.
  int digit(NodeId x, int d) const {
    return digit_table_.empty() ? sigma(x, d)
                                : digit_table_[static_cast<std::size_t>(x) * radix_.size() + static_cast<std::size_t>(d)];
  }
  // Node x's row of that table (row[d] = σ_d(x)), or nullptr without one.
  const std::uint8_t* digit_row(NodeId x) const {
    return digit_table_.empty() ? nullptr : digit_table_.data() + static_cast<std::size_t>(x) * radix_.size();
  }
  // Digits indexed by dimension: result[d] = σ_d(x).
  std::vector<int> digits(NodeId x) const;
  // Inverse of digits(); throws TopologyError on a wrong count or range.
  NodeId node_of(const std::vector<int>& digits_by_dim) const;
  // Node with σ_d replaced by `value` (0 <= value < k_d).
  NodeId with_sigma(NodeId x, int d, int value) const {
    return x + (value - sigma(x, d)) * stride_[d];
  }

  // "(4,3)" (highest dimension first) or, for hypercubes, "0101".
  std::string name(NodeId x) const;
  // Reads name() output (spaces allowed inside tuples); throws TopologyError
  // naming the text and the reason.
  NodeId parse_node(const std::string& text) const;

  // Channel (x, d, dir): exists? neighbour? wrap-around? Cheap, no allocation.
  bool has_channel(NodeId x, int d, Direction dir) const;
  NodeId neighbour(NodeId x, int d, Direction dir) const;   // -1 if no channel
  bool is_wrap(NodeId x, int d, Direction dir) const;
  // All outgoing external channels of x, by dimension then plus before minus.
  std::vector<DirectChannel> channels(NodeId x) const;

  // A router's external port for (d, dir): 2d + dir, so 2n ports per router
  // (in unidirectional tori and at mesh edges some stay unconnected).
  static int port_index(int d, Direction dir) { return 2 * d + static_cast<int>(dir); }
  int num_ports() const { return 2 * dimensions(); }
  bool valid_node(NodeId x) const { return x >= 0 && x < num_nodes_; }

  // Dense channel numbering for tables indexed by channel: slot =
  // (x * n + d) * 2 + dir. Slots of non-existent channels are unused.
  int channel_slot(NodeId x, int d, Direction dir) const {
    return (x * dimensions() + d) * 2 + static_cast<int>(dir);
  }
  int num_channel_slots() const { return num_nodes_ * dimensions() * 2; }

 private:
  DirectTopology(DirectKind kind, std::vector<int> radix_by_dim, bool bidirectional);

  DirectKind kind_ = DirectKind::torus;
  bool bidirectional_ = false;
  std::vector<int> radix_;    // [d] = k_d
  std::vector<int> stride_;   // [d] = k_0 * ... * k_{d-1}
  int num_nodes_ = 0;
  std::vector<std::uint8_t> digit_table_;   // [x * n + d] = σ_d(x), or empty (digit())
};

// Largest network accepted (node ids and channel slots stay well inside int).
constexpr int max_direct_nodes = 1 << 24;

// Parses "torus:6x6:uni", "torus:16x16x16:bi", "torus:4x8:uni" (radices
// highest dimension first, like node tuples), "mesh:8x8", "hypercube:6".
// Throws TopologyError quoting the spec and saying what is wrong: unknown
// kind, empty or non-numeric radix, radix < 2, missing or unknown direction,
// a direction on a mesh or hypercube, too many nodes.
DirectTopology parse_direct_spec(const std::string& spec);

const char* to_string(Direction d);   // "+" or "-"

}  // namespace wormcast::topo
