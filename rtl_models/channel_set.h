// A set of small non-negative integers (a module's channel or port indices)
// as a bit vector: insert, erase and an ascending visit cost a few
// instructions per word of 64 members, so a per-cycle step visits only the
// channels that have work (active sets, docs/performance.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace wormcast::rtl {

class ChannelSet {
 public:
  void resize(int n) { words_.assign((static_cast<std::size_t>(n) + 63) / 64, 0); }
  void insert(int i) { words_[word(i)] |= bit(i); }
  void erase(int i) { words_[word(i)] &= ~bit(i); }
  bool contains(int i) const { return (words_[word(i)] & bit(i)) != 0; }
  bool empty() const {
    for (std::uint64_t w : words_)
      if (w) return false;
    return true;
  }
  // Visits the members in ascending order. `f` may erase the member it is
  // given; members inserted during the visit into a word already read are
  // not visited.
  template <class F> void for_each(F f) const {
    for (std::size_t w = 0; w < words_.size(); ++w) visit(w, words_[w], f);
  }
  // Visits the members i >= start in ascending order, then those < start
  // (a round-robin scan starting at `start`).
  template <class F> void for_each_from(int start, F f) const {
    const std::size_t ws = word(start);
    const std::uint64_t high = ~(bit(start) - 1);   // bits >= start within its word
    visit(ws, words_[ws] & high, f);
    for (std::size_t w = ws + 1; w < words_.size(); ++w) visit(w, words_[w], f);
    for (std::size_t w = 0; w < ws; ++w) visit(w, words_[w], f);
    visit(ws, words_[ws] & ~high, f);
  }

 private:
  static std::size_t word(int i) { return static_cast<std::size_t>(i) >> 6; }
  static std::uint64_t bit(int i) { return std::uint64_t{1} << (static_cast<unsigned>(i) & 63u); }
  template <class F> static void visit(std::size_t w, std::uint64_t b, F& f) {
    while (b) {
      f(static_cast<int>(w * 64 + static_cast<std::size_t>(__builtin_ctzll(b))));
      b &= b - 1;
    }
  }
  std::vector<std::uint64_t> words_;
};

}  // namespace wormcast::rtl
