// A set of small non-negative integers (a module's channel or port indices)
// as a bit vector: insert, erase and an ascending visit cost a few
// instructions per word of 64 members, so a per-cycle step visits only the
// channels that have work (active sets, docs/performance.md). Up to 128
// members live in the object itself: a set is read in nearly every
// evaluation of its module, and a separate heap word would be one more
// cache line per evaluation (on a 32x32 mesh the routers' state does not
// stay in the caches between two evaluations of one router). The object is
// 32 bytes (the inline words, the pointer to the words in use, the count):
// a router reads several sets per evaluation, so they share few lines.
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
    nwords_ = (static_cast<std::size_t>(n) + 63) / 64;
    inline_.fill(0);
    w_ = nwords_ > kInline ? new std::uint64_t[nwords_]() : inline_.data();
  }
  void insert(int i) { w_[word(i)] |= bit(i); }
  void erase(int i) { w_[word(i)] &= ~bit(i); }
  bool contains(int i) const { return (w_[word(i)] & bit(i)) != 0; }
  bool empty() const {
    // Words in the object: those beyond nwords_ stay 0 (resize, copy_from),
    // so one test without the loop (a router tests four sets in every
    // evaluation: the loop was ~10 instructions a test, helper/dlay2).
    static_assert(kInline == 2, "empty(): the inline test reads two words");
    if (nwords_ <= kInline) return (inline_[0] | inline_[1]) == 0;
    for (std::size_t k = 0; k < nwords_; ++k)
      if (w_[k]) return false;
    return true;
  }
  // Visits the members in ascending order. `f` may erase the member it is
  // given; members inserted during the visit into a word already read are
  // not visited.
  template <class F> void for_each(F f) const {
    for (std::size_t k = 0; k < nwords_; ++k) visit(k, w_[k], f);
  }
  // Visits the members i >= start in ascending order, then those < start
  // (a round-robin scan starting at `start`).
  template <class F> void for_each_from(int start, F f) const {
    const std::uint64_t* w = w_;
    const std::size_t ws = word(start);
    const std::uint64_t high = ~(bit(start) - 1);   // bits >= start within its word
    visit(ws, w[ws] & high, f);
    for (std::size_t k = ws + 1; k < nwords_; ++k) visit(k, w[k], f);
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
    for (std::size_t k = ws + 1; k < nwords_; ++k)
      if (w_[k]) return first(k, w_[k]);
    for (std::size_t k = 0; k <= ws; ++k)   // word ws holds no member >= start
      if (w_[k]) return first(k, w_[k]);
    return -1;
  }

 private:
  static constexpr std::size_t kInline = 2;   // words kept in the object
  // More than kInline words are a heap array of the set's own (w_).
  void release() {
    if (nwords_ > kInline) delete[] w_;
    nwords_ = 0;
    w_ = inline_.data();
  }
  void copy_from(const ChannelSet& o) {
    inline_ = o.inline_;
    nwords_ = o.nwords_;
    w_ = inline_.data();
    if (nwords_ > kInline) {
      w_ = new std::uint64_t[nwords_];
      std::copy(o.w_, o.w_ + nwords_, w_);
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
  std::array<std::uint64_t, kInline> inline_{};
  std::uint64_t* w_ = inline_.data();   // inline_'s, or a heap array of nwords_ > kInline words
  std::size_t nwords_ = 0;   // a size_t: the visits compare it with their word index
};
static_assert(sizeof(ChannelSet) == 32, "ChannelSet: inline words, pointer, count");

}  // namespace wormcast::rtl
