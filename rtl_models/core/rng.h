// Deterministic random numbers. One seeded generator per run; modules get
// independent sub-streams derived from the run seed and a stream id, so a
// module's draws do not depend on how often other modules draw. The bounded
// integer draw is implemented here (not std::uniform_int_distribution) so
// results are identical across standard libraries.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace wormcast {

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 1) : s_(seed) {}
  static std::uint64_t mix(std::uint64_t z) {   // splitmix64 finaliser
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::uint64_t next() { return mix(s_ += 0x9e3779b97f4a7c15ULL); }
  // Uniform in [0, n) without modulo bias (n > 0).
  std::uint64_t below(std::uint64_t n) {
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    std::uint64_t x;
    do { x = next(); } while (x >= limit);
    return x % n;
  }
  // Uniform in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // An independent stream for sub-component `id`.
  Rng fork(std::uint64_t id) const { return Rng(mix(s_ ^ mix(id + 0x632be59bd9b4e019ULL))); }

 private:
  std::uint64_t s_;
};

// A partial Fisher-Yates shuffle: moves `count` elements of `pool` drawn
// uniformly without repetition to its front, in the order drawn (element i
// swapped with one of i..size-1), using one r.below() per element. Requires
// count <= pool.size().
template <class T>
void draw_to_front(Rng& r, std::vector<T>& pool, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i)
    std::swap(pool[i], pool[i + static_cast<std::size_t>(r.below(pool.size() - i))]);
}

}  // namespace wormcast
