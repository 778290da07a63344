#include "topologies/direct_topology.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "topologies/spec_text.h"

namespace wormcast::topo {

namespace {

std::string join_radices(const std::vector<int>& radix_by_dim) {
  std::string s;
  for (int d = static_cast<int>(radix_by_dim.size()) - 1; d >= 0; --d)
    s += std::to_string(radix_by_dim[d]) + (d ? "x" : "");
  return s;
}

using detail::split;

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// Non-negative decimal that fits comfortably in an int, else -1.
int small_number(const std::string& s) {
  if (!all_digits(s) || s.size() > 7) return -1;
  return std::stoi(s);
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

}  // namespace

DirectTopology::DirectTopology(DirectKind kind, std::vector<int> radix_by_dim, bool bidirectional)
    : kind_(kind), bidirectional_(bidirectional), radix_(std::move(radix_by_dim)) {
  if (radix_.empty()) throw TopologyError("direct network needs at least one dimension");
  long long nodes = 1;
  for (std::size_t d = 0; d < radix_.size(); ++d) {
    if (radix_[d] < 2)
      throw TopologyError("radix of dimension " + std::to_string(d) + " is " + std::to_string(radix_[d]) +
                          "; every dimension needs at least 2 nodes");
    stride_.push_back(static_cast<int>(nodes));
    nodes *= radix_[d];
    if (nodes > max_direct_nodes)
      throw TopologyError("network " + join_radices(radix_) + " has more than " +
                          std::to_string(max_direct_nodes) + " nodes");
  }
  num_nodes_ = static_cast<int>(nodes);
  const std::size_t n = radix_.size();
  const bool small_radix = std::all_of(radix_.begin(), radix_.end(), [](int k) { return k <= 256; });
  if (small_radix && static_cast<std::size_t>(num_nodes_) * n <= (std::size_t{4} << 20)) {
    digit_table_.resize(static_cast<std::size_t>(num_nodes_) * n);
    for (NodeId x = 0; x < num_nodes_; ++x)
      for (std::size_t d = 0; d < n; ++d)
        digit_table_[static_cast<std::size_t>(x) * n + d] = static_cast<std::uint8_t>(sigma(x, static_cast<int>(d)));
  }
}

DirectTopology DirectTopology::torus(const std::vector<int>& radices_high_first, bool bidirectional) {
  return DirectTopology(DirectKind::torus, {radices_high_first.rbegin(), radices_high_first.rend()},
                        bidirectional);
}

DirectTopology DirectTopology::mesh(const std::vector<int>& radices_high_first) {
  return DirectTopology(DirectKind::mesh, {radices_high_first.rbegin(), radices_high_first.rend()}, true);
}

DirectTopology DirectTopology::hypercube(int dimensions) {
  if (dimensions < 1 || dimensions > 24)
    throw TopologyError("hypercube dimension " + std::to_string(dimensions) + " is outside 1..24");
  return DirectTopology(DirectKind::hypercube, std::vector<int>(dimensions, 2), true);
}

bool DirectTopology::regular() const {
  return std::all_of(radix_.begin(), radix_.end(), [&](int k) { return k == radix_[0]; });
}

std::string DirectTopology::spec() const {
  switch (kind_) {
    case DirectKind::hypercube: return "hypercube:" + std::to_string(dimensions());
    case DirectKind::mesh: return "mesh:" + join_radices(radix_);
    case DirectKind::torus: break;
  }
  return "torus:" + join_radices(radix_) + (bidirectional_ ? ":bi" : ":uni");
}

std::vector<int> DirectTopology::digits(NodeId x) const {
  std::vector<int> out(radix_.size());
  for (int d = 0; d < dimensions(); ++d) out[d] = sigma(x, d);
  return out;
}

NodeId DirectTopology::node_of(const std::vector<int>& digits_by_dim) const {
  if (static_cast<int>(digits_by_dim.size()) != dimensions())
    throw TopologyError("address has " + std::to_string(digits_by_dim.size()) + " coordinates, " + spec() +
                        " needs " + std::to_string(dimensions()));
  NodeId x = 0;
  for (int d = 0; d < dimensions(); ++d) {
    if (digits_by_dim[d] < 0 || digits_by_dim[d] >= radix_[d])
      throw TopologyError("coordinate " + std::to_string(digits_by_dim[d]) + " of dimension " +
                          std::to_string(d) + " is outside 0.." + std::to_string(radix_[d] - 1) + " in " + spec());
    x += digits_by_dim[d] * stride_[d];
  }
  return x;
}

std::string DirectTopology::name(NodeId x) const {
  std::string s;
  if (kind_ == DirectKind::hypercube) {
    for (int d = dimensions() - 1; d >= 0; --d) s += static_cast<char>('0' + sigma(x, d));
    return s;
  }
  s = "(";
  for (int d = dimensions() - 1; d >= 0; --d) s += std::to_string(sigma(x, d)) + (d ? "," : ")");
  return s;
}

NodeId DirectTopology::parse_node(const std::string& text) const {
  const std::string t = trim(text);
  const std::string where = "node \"" + text + "\" in " + spec() + ": ";
  if (kind_ == DirectKind::hypercube) {
    if (static_cast<int>(t.size()) != dimensions() || t.find_first_not_of("01") != std::string::npos)
      throw TopologyError(where + "expected a " + std::to_string(dimensions()) + "-bit string such as \"" +
                          name(num_nodes_ - 1) + "\"");
    std::vector<int> by_dim(dimensions());
    for (int d = 0; d < dimensions(); ++d) by_dim[d] = t[dimensions() - 1 - d] - '0';
    return node_of(by_dim);
  }
  if (t.size() < 2 || t.front() != '(' || t.back() != ')')
    throw TopologyError(where + "expected a tuple such as \"" + name(num_nodes_ - 1) + "\"");
  const std::vector<std::string> parts = split(t.substr(1, t.size() - 2), ',');
  if (static_cast<int>(parts.size()) != dimensions())
    throw TopologyError(where + "has " + std::to_string(parts.size()) + " coordinates, expected " +
                        std::to_string(dimensions()));
  std::vector<int> by_dim(dimensions());
  for (int i = 0; i < dimensions(); ++i) {
    const int d = dimensions() - 1 - i;   // tuples list the highest dimension first
    const int v = small_number(trim(parts[i]));
    if (v < 0 || v >= radix_[d])
      throw TopologyError(where + "coordinate \"" + trim(parts[i]) + "\" is not in 0.." +
                          std::to_string(radix_[d] - 1));
    by_dim[d] = v;
  }
  return node_of(by_dim);
}

bool DirectTopology::has_channel(NodeId x, int d, Direction dir) const {
  const int s = sigma(x, d), k = radix_[d];
  // Tori wrap, except that a width-2 bidirectional ring would then join the
  // same pair twice in each direction (see the header).
  if (kind_ == DirectKind::torus && !(bidirectional_ && k == 2))
    return bidirectional_ || dir == Direction::plus;
  return dir == Direction::plus ? s < k - 1 : s > 0;
}

NodeId DirectTopology::neighbour(NodeId x, int d, Direction dir) const {
  if (!has_channel(x, d, dir)) return -1;
  const int s = sigma(x, d), k = radix_[d];
  return with_sigma(x, d, dir == Direction::plus ? (s + 1) % k : (s + k - 1) % k);
}

bool DirectTopology::is_wrap(NodeId x, int d, Direction dir) const {
  if (!has_channel(x, d, dir)) return false;
  const int s = sigma(x, d);
  return dir == Direction::plus ? s == radix_[d] - 1 : s == 0;
}

std::vector<DirectChannel> DirectTopology::channels(NodeId x) const {
  std::vector<DirectChannel> out;
  for (int d = 0; d < dimensions(); ++d)
    for (Direction dir : {Direction::plus, Direction::minus})
      if (has_channel(x, d, dir)) out.push_back({d, dir, neighbour(x, d, dir), is_wrap(x, d, dir)});
  return out;
}

const char* to_string(Direction d) { return d == Direction::plus ? "+" : "-"; }

namespace {

std::vector<int> parse_radices(const std::string& field, const std::string& where) {
  if (field.empty()) throw TopologyError(where + "missing radix list (e.g. 6x6)");
  std::vector<int> high_first;
  for (const std::string& r : split(field, 'x')) {
    if (r.empty()) throw TopologyError(where + "empty radix in \"" + field + "\"");
    const int k = small_number(r);
    if (k < 0) throw TopologyError(where + "radix \"" + r + "\" is not a number");
    if (k < 2) throw TopologyError(where + "radix " + r + " is below 2 (every dimension needs 2 or more nodes)");
    high_first.push_back(k);
  }
  return high_first;
}

}  // namespace

DirectTopology parse_direct_spec(const std::string& spec) {
  const std::string where = "topology spec \"" + spec + "\": ";
  const std::vector<std::string> f = split(spec, ':');
  const std::string& kind = f[0];
  try {
    if (kind == "torus") {
      if (f.size() != 3)
        throw TopologyError(where + "expected torus:<radices>:<uni|bi>, e.g. torus:6x6:uni");
      const std::vector<int> r = parse_radices(f[1], where);
      if (f[2] != "uni" && f[2] != "bi")
        throw TopologyError(where + "unknown direction \"" + f[2] + "\" (expected uni or bi)");
      return DirectTopology::torus(r, f[2] == "bi");
    }
    if (kind == "mesh") {
      if (f.size() != 2)
        throw TopologyError(where + "expected mesh:<radices>, e.g. mesh:8x8 (meshes are bidirectional; no direction field)");
      return DirectTopology::mesh(parse_radices(f[1], where));
    }
    if (kind == "hypercube") {
      if (f.size() != 2) throw TopologyError(where + "expected hypercube:<dimensions>, e.g. hypercube:6");
      const int n = small_number(f[1]);
      if (n < 0) throw TopologyError(where + "dimension count \"" + f[1] + "\" is not a number");
      return DirectTopology::hypercube(n);
    }
  } catch (const TopologyError& e) {
    const std::string m = e.what();
    if (m.rfind(where, 0) == 0) throw;
    throw TopologyError(where + m);
  }
  throw TopologyError(where + "unknown kind \"" + kind + "\" (expected torus, mesh or hypercube)");
}

}  // namespace wormcast::topo
