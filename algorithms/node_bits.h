// A fixed-width set of node ids stored as a bit string (bit i <-> node i).
// It is the N-bit destination string of the tree-based worm and the
// reachability strings r_i / r_ij of seed000 §5.9; the bit-level header
// layout itself lives in headers.h. Header-only, no SystemC.
#pragma once

#include <bitset>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace wormcast::algo {

class NodeBits {
 public:
  NodeBits() = default;
  explicit NodeBits(int size) : size_(size), words_((size + 63) / 64, 0) {
    if (size < 0) throw std::invalid_argument("NodeBits: negative size");
  }
  static NodeBits of(int size, const std::vector<int>& nodes) {
    NodeBits b(size);
    for (int n : nodes) b.set(n);
    return b;
  }

  int size() const { return size_; }
  bool test(int i) const { check(i); return (words_[i / 64] >> (i % 64)) & 1u; }
  void set(int i, bool v = true) {
    check(i);
    const std::uint64_t m = std::uint64_t{1} << (i % 64);
    words_[i / 64] = v ? (words_[i / 64] | m) : (words_[i / 64] & ~m);
  }
  bool any() const {
    for (std::uint64_t w : words_) if (w) return true;
    return false;
  }
  int count() const {
    int c = 0;
    for (std::uint64_t w : words_) c += static_cast<int>(std::bitset<64>(w).count());
    return c;
  }
  // Set bits in ascending node order.
  std::vector<int> to_nodes() const {
    std::vector<int> out;
    for (int i = 0; i < size_; ++i) if (test(i)) out.push_back(i);
    return out;
  }
  // Bit 0 first, as the paper draws strings: "0110" means nodes 1 and 2.
  std::string to_string() const {
    std::string s;
    for (int i = 0; i < size_; ++i) s += test(i) ? '1' : '0';
    return s;
  }
  bool subset_of(const NodeBits& o) const {
    same(o);
    for (std::size_t i = 0; i < words_.size(); ++i) if (words_[i] & ~o.words_[i]) return false;
    return true;
  }
  NodeBits& operator|=(const NodeBits& o) { same(o); for (std::size_t i = 0; i < words_.size(); ++i) words_[i] |= o.words_[i]; return *this; }
  NodeBits& operator&=(const NodeBits& o) { same(o); for (std::size_t i = 0; i < words_.size(); ++i) words_[i] &= o.words_[i]; return *this; }
  // this AND NOT o (Fig. 18 step 2).
  NodeBits& minus(const NodeBits& o) { same(o); for (std::size_t i = 0; i < words_.size(); ++i) words_[i] &= ~o.words_[i]; return *this; }
  friend NodeBits operator&(NodeBits a, const NodeBits& b) { return a &= b; }
  friend NodeBits operator|(NodeBits a, const NodeBits& b) { return a |= b; }
  bool operator==(const NodeBits& o) const { return size_ == o.size_ && words_ == o.words_; }
  bool operator!=(const NodeBits& o) const { return !(*this == o); }

 private:
  void check(int i) const {
    if (i < 0 || i >= size_)
      throw std::out_of_range("NodeBits: node " + std::to_string(i) + " outside 0.." + std::to_string(size_ - 1));
  }
  void same(const NodeBits& o) const {
    if (o.size_ != size_) throw std::invalid_argument("NodeBits: width mismatch");
  }
  int size_ = 0;
  std::vector<std::uint64_t> words_;
};

}  // namespace wormcast::algo
