// A set of small non-negative integers (a module's channel or port indices)
// as a bit vector: insert, erase and an ascending visit cost a few
// instructions per word of 64 members, so a per-cycle step visits only the
// channels that have work (active sets, docs/performance.md). Up to 64
// members live in the object itself: a set is read in nearly every
// evaluation of its module, and a separate heap word would be one more
// cache line per evaluation (on a 32x32 mesh the routers' state does not
// stay in the caches between two evaluations of one router). The object is
// 16 bytes (the pointer to the words in use and one word, which holds the
// heap array's size when the members do not fit it): the three active sets
// a VC router reads in most evaluations share one line with its due cycles.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace wormcast::rtl {

class ChannelSet {
 public:
  ChannelSet() = default;
  // A copy points at its own words, never at the original's.
  ChannelSet(const ChannelSet& o) { copy_from(o); }
  ChannelSet& operator=(const ChannelSet& o) {
    if (this != &o) {
      release();
      copy_from(o);
    }
    return *this;
  }
  ~ChannelSet() { release(); }
  void resize(int n) {
    release();
    const std::size_t words = (static_cast<std::size_t>(n) + 63) / 64;
    if (words > 1) {
      w_ = new std::uint64_t[words]();
      one_ = words;
    }
  }
  void insert(int i) { w_[word(i)] |= bit(i); }
  void erase(int i) { w_[word(i)] &= ~bit(i); }
  bool contains(int i) const { return (w_[word(i)] & bit(i)) != 0; }
  bool empty() const {
    // The word in the object: one test without the loop (a router tests
    // four sets in every evaluation).
    if (in_object()) return one_ == 0;
    for (std::size_t k = 0; k < one_; ++k)
      if (w_[k]) return false;
    return true;
  }
  // Visits the members in ascending order. `f` may erase the member it is
  // given; members inserted during the visit into a word already read are
  // not visited.
  template <class F> void for_each(F f) const {
    const std::size_t n = nwords();
    for (std::size_t k = 0; k < n; ++k) visit(k, w_[k], f);
  }
  // Visits the members i >= start in ascending order, then those < start
  // (a round-robin scan starting at `start`).
  template <class F> void for_each_from(int start, F f) const {
    const std::uint64_t* w = w_;
    const std::size_t n = nwords();
    const std::size_t ws = word(start);
    const std::uint64_t high = ~(bit(start) - 1);   // bits >= start within its word
    visit(ws, w[ws] & high, f);
    for (std::size_t k = ws + 1; k < n; ++k) visit(k, w[k], f);
    for (std::size_t k = 0; k < ws; ++k) visit(k, w[k], f);
    visit(ws, w[ws] & ~high, f);
  }
  // The first member a round-robin scan from `start` meets (the first
  // member >= start, else the first one), or -1 when empty: for_each_from's
  // first visit, without visiting the rest.
  int first_from(int start) const {
    const std::size_t ws = word(start);
    const std::uint64_t high = w_[ws] & ~(bit(start) - 1);
    if (high) return first(ws, high);
    const std::size_t n = nwords();
    for (std::size_t k = ws + 1; k < n; ++k)
      if (w_[k]) return first(k, w_[k]);
    for (std::size_t k = 0; k <= ws; ++k)   // word ws holds no member >= start
      if (w_[k]) return first(k, w_[k]);
    return -1;
  }

 private:
  // Members in the object (one word) or in a heap array of the set's own.
  bool in_object() const { return w_ == &one_; }
  std::size_t nwords() const { return in_object() ? 1 : static_cast<std::size_t>(one_); }
  void release() {
    if (!in_object()) delete[] w_;
    w_ = &one_;
    one_ = 0;
  }
  void copy_from(const ChannelSet& o) {
    w_ = &one_;
    one_ = o.one_;
    if (!o.in_object()) {
      w_ = new std::uint64_t[o.one_];
      std::copy(o.w_, o.w_ + o.one_, w_);
    }
  }
  static std::size_t word(int i) { return static_cast<std::size_t>(i) >> 6; }
  static std::uint64_t bit(int i) { return std::uint64_t{1} << (static_cast<unsigned>(i) & 63u); }
  static int first(std::size_t w, std::uint64_t b) {
    return static_cast<int>(w * 64 + static_cast<std::size_t>(__builtin_ctzll(b)));
  }
  template <class F> static void visit(std::size_t w, std::uint64_t b, F& f) {
    while (b) {
      f(static_cast<int>(w * 64 + static_cast<std::size_t>(__builtin_ctzll(b))));
      b &= b - 1;
    }
  }
  std::uint64_t* w_ = &one_;   // &one_, or a heap array of more than one word
  std::uint64_t one_ = 0;      // the members (w_ == &one_), else the heap array's word count
};
static_assert(sizeof(ChannelSet) == 16, "ChannelSet: pointer and one word");

}  // namespace wormcast::rtl
