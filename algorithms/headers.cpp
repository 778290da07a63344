#include "algorithms/headers.h"

#include <stdexcept>
#include <string>

namespace wormcast::algo {

namespace {

void put(Bits& b, long long value, int width, const char* what) {
  if (value < 0 || (width < 62 && value >= (1LL << width)))
    throw std::invalid_argument(std::string("header: ") + what + " " + std::to_string(value) +
                                " does not fit in " + std::to_string(width) + " bits");
  for (int i = width - 1; i >= 0; --i) b.push_back((value >> i) & 1);
}

class Reader {
 public:
  Reader(const Bits& b, const char* kind) : b_(b), kind_(kind) {}
  long long take(int width) {
    need(width);
    long long v = 0;
    for (int i = 0; i < width; ++i) v = (v << 1) | b_[pos_++];
    return v;
  }
  Bits take_bits(int width) {
    need(width);
    Bits out(b_.begin() + pos_, b_.begin() + pos_ + width);
    pos_ += width;
    return out;
  }
  void finish() const {
    if (pos_ != b_.size())
      throw std::invalid_argument(std::string(kind_) + " header: " + std::to_string(b_.size() - pos_) +
                                  " bits left over");
  }
  std::size_t pos() const { return pos_; }

 private:
  void need(int width) const {
    if (pos_ + width > b_.size())
      throw std::invalid_argument(std::string(kind_) + " header: truncated (" + std::to_string(b_.size()) + " bits)");
  }
  const Bits& b_;
  const char* kind_;
  std::size_t pos_ = 0;
};

int id_width(const HeaderGeometry& g, SsrId kind) {
  return id_field_bits(kind == SsrId::switch_id ? g.num_switches : g.num_nodes);
}
int count_width(const HeaderGeometry& g) { return id_field_bits(g.num_switches + 1); }

void put_pair(Bits& b, const HeaderGeometry& g, const DropPair& p, SsrId kind) {
  if (static_cast<int>(p.port_bits.size()) != g.ports_per_switch)
    throw std::invalid_argument("header: port string has " + std::to_string(p.port_bits.size()) +
                                " bits, switches have " + std::to_string(g.ports_per_switch) + " ports");
  const int limit = kind == SsrId::switch_id ? g.num_switches : g.num_nodes;
  if (p.id >= limit) throw std::invalid_argument("header: ID " + std::to_string(p.id) + " out of range");
  put(b, p.id, id_width(g, kind), "ID");
  b.insert(b.end(), p.port_bits.begin(), p.port_bits.end());
}

DropPair take_pair(Reader& r, const HeaderGeometry& g, SsrId kind) {
  DropPair p;
  p.id = static_cast<int>(r.take(id_width(g, kind)));
  p.port_bits = r.take_bits(g.ports_per_switch);
  return p;
}

}  // namespace

int id_field_bits(int count) {
  if (count < 1) throw std::invalid_argument("id_field_bits: count " + std::to_string(count) + " < 1");
  int w = 0;
  while ((1LL << w) < count) ++w;
  return w < 1 ? 1 : w;
}

int header_flits(int bits, int flit_bits) {
  if (bits < 0) throw std::invalid_argument("header_flits: negative bit count");
  if (flit_bits < 1) throw std::invalid_argument("header_flits: flit width must be at least 1 bit");
  return (bits + flit_bits - 1) / flit_bits;
}

std::vector<std::uint8_t> pack_bytes(const Bits& bits) {
  std::vector<std::uint8_t> out(header_flits(static_cast<int>(bits.size()), 8), 0);
  for (std::size_t i = 0; i < bits.size(); ++i)
    if (bits[i]) out[i / 8] |= static_cast<std::uint8_t>(0x80u >> (i % 8));
  return out;
}

int ssr_header_bits(const HeaderGeometry& g, SsrId kind) { return 1 + id_width(g, kind) + g.ports_per_switch; }

Bits encode_ssr(const HeaderGeometry& g, const DropPair& h, SsrId kind) {
  Bits b{true};
  put_pair(b, g, h, kind);
  return b;
}

DropPair decode_ssr(const HeaderGeometry& g, const Bits& bits, SsrId kind) {
  Reader r(bits, "SSR");
  if (r.take(1) != 1) throw std::invalid_argument("SSR header: tag is 0 (a unicast)");
  DropPair p = take_pair(r, g, kind);
  r.finish();
  return p;
}

DropPair ssr_pair(const SsrWorm& w, SsrId kind) { return {w.id(kind), Bits(w.port_bits.begin(), w.port_bits.end())}; }

int multidrop_header_bits(const HeaderGeometry& g, int pairs, SsrId kind) {
  return 1 + count_width(g) + pairs * (id_width(g, kind) + g.ports_per_switch);
}

Bits encode_multidrop(const HeaderGeometry& g, const std::vector<DropPair>& pairs, SsrId kind) {
  Bits b{true};
  put(b, static_cast<long long>(pairs.size()), count_width(g), "pair count");
  for (const DropPair& p : pairs) put_pair(b, g, p, kind);
  return b;
}

std::vector<DropPair> decode_multidrop(const HeaderGeometry& g, const Bits& bits, SsrId kind) {
  Reader r(bits, "multi-drop");
  if (r.take(1) != 1) throw std::invalid_argument("multi-drop header: tag is 0 (a unicast)");
  const long long n = r.take(count_width(g));
  std::vector<DropPair> out;
  for (long long i = 0; i < n; ++i) out.push_back(take_pair(r, g, kind));
  r.finish();
  return out;
}

std::vector<DropPair> multidrop_pairs(const topo::Topology& t, const std::vector<topo::NodeId>& destinations,
                                      SsrId kind) {
  std::vector<DropPair> out;
  topo::SwitchId last = -1;
  for (topo::NodeId d : destinations) {
    const topo::PortRef at = t.node_attach.at(d);
    if (at.sw != last) {
      out.push_back({kind == SsrId::switch_id ? at.sw : d, Bits(t.ports_per_switch, false)});
      last = at.sw;
    }
    out.back().port_bits[at.port] = true;
  }
  return out;
}

ConsumedPair consume_pair(const HeaderGeometry& g, const Bits& bits, SsrId kind) {
  std::vector<DropPair> pairs = decode_multidrop(g, bits, kind);
  if (pairs.empty()) throw std::invalid_argument("multi-drop header: no pair left to consume");
  ConsumedPair c;
  c.pair = pairs.front();
  pairs.erase(pairs.begin());
  c.last = pairs.empty();
  if (!c.last) c.rest = encode_multidrop(g, pairs, kind);
  return c;
}

int tree_header_bits(const HeaderGeometry& g) { return 1 + g.num_nodes; }

Bits encode_tree(const HeaderGeometry& g, bool up_down, const NodeBits& dests) {
  if (dests.size() != g.num_nodes)
    throw std::invalid_argument("tree header: destination string has " + std::to_string(dests.size()) +
                                " bits, the system has " + std::to_string(g.num_nodes) + " nodes");
  Bits b{up_down};
  for (int i = 0; i < dests.size(); ++i) b.push_back(dests.test(i));
  return b;
}

TreeHeader decode_tree(const HeaderGeometry& g, const Bits& bits) {
  Reader r(bits, "tree");
  TreeHeader h;
  h.up_down = r.take(1) != 0;
  h.dests = NodeBits(g.num_nodes);
  for (int i = 0; i < g.num_nodes; ++i) h.dests.set(i, r.take(1) != 0);
  r.finish();
  return h;
}

}  // namespace wormcast::algo
