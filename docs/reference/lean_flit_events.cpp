// An event-driven lean flit-level reference loop (docs/performance.md,
// "How far a flit-level model can go"). NOT part of wormcast
// and not built by its CMake. The model, the random draws and every decision
// are those of lean_flit_loop.cpp next to it (same flit-hop, packet and
// delivery counts for any cycle count), but work is booked on a calendar
// instead of found by scanning: a router's allocation pass runs only in the
// cycles where a header can be routed or allocated (its arrival, the end of
// its routing delay, the cycle after a tail left), and an output's send step
// only in the cycles where one of its VCs can send (its flit readable and a
// credit back), found when a flit is deposited, a VC allocated, a credit
// returned or a flit sent. Per router and cycle all allocation passes run
// before all send steps, as in the cycle-driven loop; a second booking of
// the same cycle is skipped. Fixed for the case: 2 VCs, 5 ports, XY routing,
// neighbours in a table.
//
//   g++ -O3 -DNDEBUG -o lean_flit_events docs/reference/lean_flit_events.cpp
//   ./lean_flit_events 0.1 100000        # load, cycles
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

constexpr int K = 8, N = K * K, V = 2, B = 20, L = 5;
constexpr int P = 5;
constexpr std::uint32_t NEVER = 0xffffffffu;
struct Flit { std::uint32_t pkt; std::uint16_t idx; std::uint16_t dst; };
struct InVC {
  std::uint8_t head = 0, n = 0;
  std::int8_t out_port = -1, out_vc = -1;
  bool routed = false;
  std::uint32_t ready = 0;
  std::uint32_t arr[32];
  Flit buf[32];
};
struct OutVC {
  std::int16_t owner = -1; std::int16_t credits = B; std::int16_t ret_n = 0; std::uint32_t ret_at = 0;
  inline void absorb(std::uint32_t now) { if (ret_n && ret_at <= now) { credits += ret_n; ret_n = 0; } }
};
struct Router {
  unsigned hdr = 0;
  std::uint8_t rr[P] = {};
  std::int16_t nb[P];
  std::uint8_t x, y;
  std::uint32_t alloc_at = NEVER;       // the latest cycle an allocation pass is booked for
  std::uint32_t out_at[P];              // the latest cycle each output's step is booked for
  std::uint32_t alloc_ran = NEVER, out_ran[P];   // the cycle each last ran (a second booking of a cycle is skipped)
  OutVC out[P][V];
  InVC in[P][V];
};
static Router R[N];
struct Pend { std::uint32_t pkt; std::uint16_t dst; };
struct Src { Pend q[4096]; std::uint32_t h = 0, t = 0; std::uint16_t idx = 0; };
static Src S[N];

// calendar: per cycle (mod 8) the routers to allocate and the outputs to
// step; a booking is at most 3 cycles ahead. An entry may stand twice in a
// cycle (booked t, then t + 1, then t again); the stamps make the second a
// no-op, and the room is checked.
constexpr int QA = 4 * N, QO = 4 * N * P;
static std::uint16_t alloc_q[8][QA];
static int alloc_n[8];
static std::uint16_t out_q[8][QO];
static int out_n[8];
static void full() { std::fprintf(stderr, "calendar full\n"); std::exit(1); }

static inline void book_alloc(int r, std::uint32_t t) {
  Router& rt = R[r];
  if (rt.alloc_at == t) return;   // booked already (a booking never cancels another)
  rt.alloc_at = t;
  if (alloc_n[t & 7] == QA) full();
  alloc_q[t & 7][alloc_n[t & 7]++] = r;
}
static inline void book_out(int r, int op, std::uint32_t t) {
  Router& rt = R[r];
  if (rt.out_at[op] == t) return;
  rt.out_at[op] = t;
  if (out_n[t & 7] == QO) full();
  out_q[t & 7][out_n[t & 7]++] = r * P + op;
}

static inline int route(const Router& rt, int d) {
  int dx = d % K, dy = d / K;
  if (dx > rt.x) return 0;
  if (dx < rt.x) return 1;
  if (dy > rt.y) return 2;
  if (dy < rt.y) return 3;
  return 4;
}

// the earliest cycle >= t at which output op of rt may send, or NEVER
// (then a deposit or a credit return books it)
static inline std::uint32_t next_try(Router& rt, int op, std::uint32_t t) {
  const int nv = op == 4 ? 1 : V;
  std::uint32_t best = NEVER;
  for (int w = 0; w < nv; ++w) {
    OutVC& o = rt.out[op][w];
    if (o.owner < 0) continue;
    InVC& iv = rt.in[o.owner >> 1][o.owner & 1];
    if (iv.n == 0) continue;
    std::uint32_t c = iv.arr[iv.head] + 1;
    if (c < t) c = t;
    if (op != 4 && o.credits <= 0) {
      if (o.ret_n == 0) continue;
      if (o.ret_at > c) c = o.ret_at;
    }
    if (c < best) best = c;
  }
  return best;
}

static std::uint64_t hops = 0, delivered = 0;

static void alloc_pass(int r, std::uint32_t now) {
  Router& rt = R[r];
  if (rt.alloc_ran == now) return;
  rt.alloc_ran = now;
  for (unsigned m = rt.hdr; m; m &= m - 1) {
    const int b = __builtin_ctz(m), p = b >> 1, v = b & 1;
    InVC& iv = rt.in[p][v];
    if (iv.n == 0) continue;
    if (iv.arr[iv.head] > now) { book_alloc(r, iv.arr[iv.head]); continue; }
    const Flit& f = iv.buf[iv.head];
    if (f.idx != 0 || iv.out_vc >= 0) { rt.hdr &= ~(1u << b); continue; }
    if (!iv.routed) {
      iv.out_port = route(rt, f.dst);
      iv.ready = iv.arr[iv.head] + 1;
      iv.routed = true;
    }
    if (iv.ready > now) { book_alloc(r, iv.ready); continue; }
    const int op = iv.out_port;
    OutVC* o = rt.out[op];
    int w = -1;
    if (o[0].owner < 0) w = 0;
    else if (op != 4 && o[1].owner < 0) w = 1;
    if (w >= 0) {
      o[w].owner = b;
      iv.out_vc = w;
      rt.hdr &= ~(1u << b);
      book_out(r, op, now);   // the header may leave in this cycle (outputs step after allocations)
    }
    // else: a release on op books the next pass
  }
}

static void out_step(int r, int op, std::uint32_t now) {
  Router& rt = R[r];
  if (rt.out_ran[op] == now) return;
  rt.out_ran[op] = now;
  const int nv = op == 4 ? 1 : V;
  int w = rt.rr[op];
  for (int k = 0; k < nv; ++k, w = (w + 1 == nv) ? 0 : w + 1) {
    OutVC& o = rt.out[op][w];
    if (o.owner < 0) continue;
    const int ip = o.owner >> 1, ivc = o.owner & 1;
    InVC& iv = rt.in[ip][ivc];
    if (iv.n == 0 || iv.arr[iv.head] + 1 > now) continue;
    if (op != 4) { o.absorb(now); if (o.credits <= 0) continue; }
    const Flit f = iv.buf[iv.head];
    iv.head = (iv.head + 1) & 31;
    --iv.n;
    if (ip != 4) {
      const int up = rt.nb[ip];
      OutVC& uo = R[up].out[ip ^ 1][ivc];
      uo.absorb(now);
      uo.ret_at = now + 1;
      ++uo.ret_n;
      if (uo.credits <= 0 && uo.owner >= 0) book_out(up, ip ^ 1, now + 1);   // it may wait for this credit
    }   // the local input VC: the source retries each cycle while it is full
    ++hops;
    if (op == 4) {
      delivered += f.idx == L - 1;
    } else {
      --o.credits;
      const int dn = rt.nb[op];
      Router& d = R[dn];
      const int dp = op ^ 1;
      InVC& dv = d.in[dp][w];
      int slot = (dv.head + dv.n) & 31;
      dv.buf[slot] = f;
      dv.arr[slot] = now + 2;
      if (dv.n++ == 0) {
        d.hdr |= 1u << (dp * V + w);
        if (f.idx == 0) { book_alloc(dn, now + 2); }
        else if (dv.out_vc >= 0) book_out(dn, dv.out_port, now + 3);
      }
    }
    if (f.idx == L - 1) {
      o.owner = -1;
      iv.out_vc = -1;
      iv.routed = false;
      if (iv.n > 0) rt.hdr |= 1u << (ip * V + ivc);
      book_alloc(r, now + 1);   // a released VC or the next header of iv
    }
    rt.rr[op] = (w + 1 == nv) ? 0 : w + 1;
    break;
  }
  const std::uint32_t t = next_try(rt, op, now + 1);
  if (t != NEVER) book_out(r, op, t);
}

int main(int argc, char** argv) {
  const double load = argc > 1 ? atof(argv[1]) : 0.1;
  const std::uint32_t cycles = argc > 2 ? atoll(argv[2]) : 30000;
  for (int r = 0; r < N; ++r) {
    int x = r % K, y = r / K;
    R[r].x = x; R[r].y = y;
    R[r].nb[0] = x + 1 < K ? r + 1 : -1;
    R[r].nb[1] = x > 0 ? r - 1 : -1;
    R[r].nb[2] = y + 1 < K ? r + K : -1;
    R[r].nb[3] = y > 0 ? r - K : -1;
    R[r].nb[4] = -1;
    for (int p = 0; p < P; ++p) R[r].out_at[p] = R[r].out_ran[p] = NEVER;
  }
  std::mt19937_64 rng(1);
  std::uniform_int_distribution<int> ud(0, N - 2);
  std::uint32_t next_pkt = 0;
  std::geometric_distribution<int> geo(load / L);
  std::vector<std::uint64_t> next_gen(N);
  for (int n = 0; n < N; ++n) next_gen[n] = geo(rng);
  std::uint64_t src_busy = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (std::uint32_t now = 0; now < cycles; ++now) {
    for (int n = 0; n < N; ++n) {
      if (next_gen[n] <= now) {
        next_gen[n] = now + 1 + (std::uint64_t)geo(rng);
        int d = ud(rng);
        if (d >= n) ++d;
        Src& s = S[n];
        s.q[s.t++ & 4095] = Pend{next_pkt++, (std::uint16_t)d};
        src_busy |= 1ull << n;
      }
    }
    for (std::uint64_t m = src_busy; m; m &= m - 1) {
      const int n = __builtin_ctzll(m);
      Src& s = S[n];
      Router& rt = R[n];
      InVC& iv = rt.in[4][0];
      if (iv.n < B) {
        const Pend& pd = s.q[s.h & 4095];
        int slot = (iv.head + iv.n) & 31;
        iv.buf[slot] = Flit{pd.pkt, s.idx, pd.dst};
        iv.arr[slot] = now + 1;
        if (iv.n++ == 0) {
          rt.hdr |= 1u << (4 * V);
          if (s.idx == 0) book_alloc(n, now + 1);
          else if (iv.out_vc >= 0) book_out(n, iv.out_port, now + 2);
        }
        if (++s.idx == L) { s.idx = 0; if (++s.h == s.t) src_busy &= ~(1ull << n); }
      }
    }
    const int slot = now & 7;
    for (int i = 0; i < alloc_n[slot]; ++i) {
      const int r = alloc_q[slot][i];
      alloc_pass(r, now);
    }
    alloc_n[slot] = 0;
    for (int i = 0; i < out_n[slot]; ++i) {
      const int e = out_q[slot][i];
      out_step(e / P, e % P, now);
    }
    out_n[slot] = 0;
  }
  double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("cycles %u packets %u delivered %llu flit-hops %llu in %.3f s: %.2f M flit-hops/s, %.0f k cycles/s\n",
              cycles, next_pkt, (unsigned long long)delivered, (unsigned long long)hops, sec,
              hops / sec / 1e6, cycles / sec / 1e3);
}
