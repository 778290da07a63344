// A FIFO on a power-of-two ring of slots that grows when full and never
// shrinks: a link or buffer reaches its steady size early, after which a
// push or pop is an index update, with no allocation (std::deque allocates
// and frees blocks as it moves). Used for a link's flits in flight and
// credit returns (docs/performance.md). The header is 24 bytes (a pointer
// and 32-bit indices): a link keeps two or three rings in the cache line(s)
// every flit reads, and a direct router's input VC one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <utility>

namespace wormcast::rtl {

template <class T>
class Ring {
 public:
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  T& front() { return slots_[head_]; }
  const T& front() const { return slots_[head_]; }
  T& back() { return slots_[(head_ + size_ - 1) & mask_]; }
  const T& back() const { return slots_[(head_ + size_ - 1) & mask_]; }
  const T& at(std::size_t i) const { return slots_[(head_ + static_cast<std::uint32_t>(i)) & mask_]; }   // i < size(): i-th from the front
  T& at(std::size_t i) { return slots_[(head_ + static_cast<std::uint32_t>(i)) & mask_]; }
  void push_back(T v) {
    if (size_ == cap_) grow();
    slots_[(head_ + size_) & mask_] = std::move(v);
    ++size_;
  }
  // Drops the front slot's value (moved-from or trivially destructible
  // values stay in the slot until it is overwritten).
  void pop_front() {
    head_ = (head_ + 1) & mask_;
    --size_;
  }
  // Drops the i-th value from the front (i < size()): the values ahead of
  // it move back one slot, so removing the front (the common case) costs a
  // pop_front. The freed slot keeps the moved-from front value.
  void erase(std::size_t i) {
    for (; i > 0; --i) at(i) = std::move(at(i - 1));
    pop_front();
  }
  // Drops every value (as pop_front does, slot by slot).
  void clear() { head_ = size_ = 0; }
  template <class F> void for_each(F f) const {
    for (std::uint32_t i = 0; i < size_; ++i) f(slots_[(head_ + i) & mask_]);
  }

 private:
  void grow() {
    if (cap_ >= (std::uint32_t{1} << 30)) throw std::length_error("Ring: more than 2^30 values");
    const std::uint32_t n = cap_ == 0 ? 4 : 2 * cap_;
    std::unique_ptr<T[]> bigger(new T[n]());   // value-initialised, as std::vector did
    for (std::uint32_t i = 0; i < size_; ++i) bigger[i] = std::move(slots_[(head_ + i) & mask_]);
    slots_ = std::move(bigger);
    head_ = 0;
    cap_ = n;
    mask_ = n - 1;
  }
  std::unique_ptr<T[]> slots_;
  std::uint32_t head_ = 0, size_ = 0, mask_ = 0, cap_ = 0;
};

}  // namespace wormcast::rtl
