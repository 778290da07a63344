// Worm-level simulation of a flit-level model, measured (docs/performance.md,
// "How far a flit-level model can go"). NOT part of wormcast and not built by its CMake.
//
// The model is lean_flit_events.cpp's (same case: 8x8 mesh, XY, 2 VCs of 20
// flits, 5-flit packets, uniform traffic, the same timing and random draws;
// the calendar holds lists and reaches 1,024 cycles ahead), with one change
// of policy: a physical output, once it has sent
// a packet's header, is held by that packet's VC until its tail has left
// (link allocation per packet, as CNSim's in_link_used_ and BookSim2's
// hold_switch_for_packet); flits of the other VC wait. Under that policy the
// body of a worm cannot be interleaved with another worm's flits on a link,
// so once a header leaves an output with
//   * all of its packet's flits in the input VC (deposited, maybe with
//     arrival cycles still ahead), and
//   * at least one downstream credit per flit,
// every flit's departure on that hop is fixed: d_0 = now, d_j = max(d_{j-1}
// + 1, arrival_j + 1). Nothing that happens later can change it.
//
// Two modes of one program:
//   mode 0 (reference): every flit moved one by one, as lean_flit_events.cpp
//                       with the hold added;
//   mode 1 (worm):      such a hop is done in one step: the flits popped,
//                       deposited downstream with their arrival cycles, the
//                       credits booked upstream for their return cycles, the
//                       output and its VC released by one event at the
//                       tail's cycle. A hop that does not qualify, and the
//                       rest of its worm on that hop, goes flit by flit. A
//                       source puts a whole packet into its injection VC in
//                       one step when the VC has room for all of it (as the
//                       reference would, one flit per cycle).
// Both modes print the same flit-hops, packets, deliveries, latency sum and
// delivery checksum for any load and cycle count (that is the test).
//
//   g++ -O3 -DNDEBUG -o lean_worm_hold docs/reference/lean_worm_hold.cpp   (-DK=32: 32x32)
//   ./lean_worm_hold 0.1 100000 0     # load, cycles, mode
//   ./lean_worm_hold 0.1 100000 1
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#ifndef K
#define K 8   // the mesh is K x K (-DK=32 for CNSim's other figure)
#endif
constexpr int N = K * K, V = 2, B = 20, L = 5;
constexpr int W = (N + 63) / 64;   // 64-bit words of a node mask
constexpr int P = 5;
constexpr std::uint32_t NEVER = 0xffffffffu;
constexpr std::uint32_t H = 1024;   // calendar slots (bookings at most H - 1 cycles ahead; checked)

// A run of flits of one packet in an input VC: flits idx0 .. idx0 + cnt - 1,
// flit idx0 + k arriving at arr0 + k. Flits deposited one by one join the
// last run when they continue it.
struct Run { std::uint32_t pkt, arr0; std::uint16_t dst; std::uint8_t idx0, cnt; };
struct InVC {
  std::uint8_t sh = 0, sn = 0, n = 0;   // runs: first, count; flits
  std::int8_t out_port = -1, out_vc = -1;
  bool routed = false;
  std::uint32_t ready = 0;
  Run run[32];
  const Run& front() const { return run[sh]; }
  void pop1() {
    Run& r = run[sh];
    ++r.idx0; ++r.arr0; --n;
    if (--r.cnt == 0) { sh = (sh + 1) & 31; --sn; }
  }
  // cnt flits of pkt from idx0, the first arriving at arr0; returns whether the VC was empty
  bool push(std::uint32_t pkt, std::uint16_t dst, int idx0, int cnt, std::uint32_t arr0) {
    const bool was_empty = n == 0;
    n += cnt;
    if (sn) {
      Run& b = run[(sh + sn - 1) & 31];
      if (b.pkt == pkt && b.idx0 + b.cnt == idx0 && b.arr0 + b.cnt == arr0) { b.cnt += cnt; return was_empty; }
    }
    run[(sh + sn) & 31] = Run{pkt, arr0, dst, (std::uint8_t)idx0, (std::uint8_t)cnt};
    ++sn;
    return was_empty;
  }
};
// Credit returns still to come, as ramps: cnt returns at t0, t0 + 1, ...
struct Ramp { std::uint32_t t0, cnt; };
struct OutVC {
  std::int16_t owner = -1; std::int16_t credits = B;
  std::uint8_t rh = 0, rn = 0;
  Ramp ret[32];
  inline void absorb(std::uint32_t now) {
    while (rn) {
      Ramp& r = ret[rh];
      if (r.t0 > now) return;
      const std::uint32_t k = std::min(r.cnt, now - r.t0 + 1);
      credits += k; r.t0 += k; r.cnt -= k;
      if (r.cnt) return;
      rh = (rh + 1) & 31; --rn;
    }
  }
  inline void add_returns(std::uint32_t t0, std::uint32_t cnt) {
    if (rn) {
      Ramp& b = ret[(rh + rn - 1) & 31];
      if (b.t0 + b.cnt == t0) { b.cnt += cnt; return; }
    }
    ret[(rh + rn) & 31] = Ramp{t0, cnt};
    ++rn;
  }
  inline std::uint32_t first_return() const { return rn ? ret[rh].t0 : NEVER; }
};
struct Router {
  unsigned hdr = 0;
  std::uint8_t rr[P] = {};
  std::int8_t hold[P];                  // flit by flit: the VC holding the output until its tail, or -1
  bool worm[P] = {};                    // a worm-level hop holds the output until its release event
  std::int16_t nb[P];
  std::uint8_t x, y;
  std::uint32_t alloc_at = NEVER, out_at[P];
  std::uint32_t alloc_ran = NEVER, out_ran[P];
  std::uint8_t inj_n = 0;               // the runs of cycles a worm-level hop takes the injection VC's flits
  Ramp inj_pop[L];
  OutVC out[P][V];
  InVC in[P][V];
};
static Router R[N];
struct Pend { std::uint32_t pkt; std::uint16_t dst; };
struct Src { Pend q[1 << 16]; std::uint32_t h = 0, t = 0; std::uint16_t idx = 0; std::uint32_t next_free = 0; };
static Src S[N];
static std::vector<std::uint32_t> born;   // per packet, its creation cycle

// per slot: lists of the routers to allocate, the outputs to step and the
// worm-level hops to release (an entry may stand twice; the stamps make the
// second a no-op), their entries in one pool with a free list. Within a
// phase the order does not matter: an entry changes its own router's state
// and, for a neighbour, only what is dated after the cycle.
struct Ev { std::uint32_t next; std::uint16_t id; };
static std::vector<Ev> pool;
static std::uint32_t free_ev = 0xffffffffu;
struct Slot { std::uint32_t a = 0xffffffffu, o = 0xffffffffu, r = 0xffffffffu; };
static Slot cal[H];
static inline void push_ev(std::uint32_t& head, std::uint16_t id) {
  std::uint32_t e = free_ev;
  if (e != 0xffffffffu) free_ev = pool[e].next;
  else { e = static_cast<std::uint32_t>(pool.size()); pool.push_back({}); }
  pool[e] = Ev{head, id};
  head = e;
}
template <class F> static inline void run_list(std::uint32_t& head, F f) {
  while (head != 0xffffffffu) {   // entries pushed while running (none in practice) are run too
    const std::uint32_t e = head;
    head = pool[e].next;
    const std::uint16_t id = pool[e].id;
    pool[e].next = free_ev;
    free_ev = e;
    f(id);
  }
}
static std::uint64_t gen_mask[H][W];      // the nodes whose next packet is due (or re-checked) in a cycle
static std::uint32_t now_g = 0, end_g = 0;
static int mode = 0;
static void far(std::uint32_t t) {
  std::fprintf(stderr, "booking at %u, now %u: beyond the calendar\n", t, now_g);
  std::exit(1);
}

static inline void book_alloc(int r, std::uint32_t t) {
  Router& rt = R[r];
  if (rt.alloc_at == t) return;
  if (t - now_g >= H) far(t);
  rt.alloc_at = t;
  push_ev(cal[t % H].a, static_cast<std::uint16_t>(r));
}
static inline void book_out(int r, int op, std::uint32_t t) {
  Router& rt = R[r];
  if (rt.out_at[op] == t) return;
  if (t - now_g >= H) far(t);
  rt.out_at[op] = t;
  push_ev(cal[t % H].o, static_cast<std::uint16_t>(r * P + op));
}

static inline int route(const Router& rt, int d) {
  int dx = d % K, dy = d / K;
  if (dx > rt.x) return 0;
  if (dx < rt.x) return 1;
  if (dy > rt.y) return 2;
  if (dy < rt.y) return 3;
  return 4;
}

static std::uint64_t hops = 0, delivered = 0, latency_sum = 0, checksum = 0, worm_hops = 0, flit_sends = 0;
// hops of flits sent at t0 .. t0 + cnt - 1 within the run's cycles
static inline void count_hops(std::uint32_t t0, std::uint32_t cnt) {
  if (t0 < end_g) hops += std::min<std::uint64_t>(cnt, end_g - t0);
}
static inline void deliver(std::uint32_t pkt, std::uint32_t at) {
  if (at >= end_g) return;
  ++delivered;
  latency_sum += at - born[pkt];
  std::uint64_t x = (std::uint64_t(pkt) << 32 | at) * 0x9e3779b97f4a7c15ull;
  checksum += x ^ (x >> 29);
}

static inline std::uint32_t next_try(Router& rt, int op, std::uint32_t t) {
  const int nv = op == 4 ? 1 : V;
  std::uint32_t best = NEVER;
  for (int w = 0; w < nv; ++w) {
    if (rt.hold[op] >= 0 && rt.hold[op] != w) continue;
    OutVC& o = rt.out[op][w];
    if (o.owner < 0) continue;
    InVC& iv = rt.in[o.owner >> 1][o.owner & 1];
    if (iv.n == 0) continue;
    std::uint32_t c = iv.front().arr0 + 1;
    if (c < t) c = t;
    if (op != 4) {
      if (o.credits <= 0) {   // not absorbed: a return already due only makes fr <= c
        const std::uint32_t fr = o.first_return();
        if (fr == NEVER) continue;
        if (fr > c) c = fr;
      }
    }
    if (c < best) best = c;
  }
  return best;
}

static void alloc_pass(int r, std::uint32_t now) {
  Router& rt = R[r];
  if (rt.alloc_ran == now) return;
  rt.alloc_ran = now;
  for (unsigned m = rt.hdr; m; m &= m - 1) {
    const int b = __builtin_ctz(m), p = b >> 1, v = b & 1;
    InVC& iv = rt.in[p][v];
    if (iv.n == 0) continue;
    const Run& f = iv.front();
    if (f.arr0 > now) { book_alloc(r, f.arr0 + 1); continue; }   // routed then, allocated a cycle later
    if (f.idx0 != 0 || iv.out_vc >= 0) { rt.hdr &= ~(1u << b); continue; }
    if (!iv.routed) {
      iv.out_port = route(rt, f.dst);
      iv.ready = f.arr0 + 1;
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
      book_out(r, op, now);
    }
  }
}

// cnt flits of pkt from idx0 into the downstream input VC (router dn, port
// dp, VC w), sent from `sent` on, one per cycle, arriving 2 cycles later.
static inline void deposit(int dn, int dp, int w, std::uint32_t pkt, std::uint16_t dst, int idx0, int cnt,
                           std::uint32_t sent) {
  Router& d = R[dn];
  InVC& dv = d.in[dp][w];
  if (dv.push(pkt, dst, idx0, cnt, sent + 2)) {
    d.hdr |= 1u << (dp * V + w);
    if (idx0 == 0) book_alloc(dn, sent + 3);   // routed and allocated a cycle after its arrival
    else if (dv.out_vc >= 0) book_out(dn, dv.out_port, sent + 3);
  }
}

// The end of a hop's tail on output op (at its send): the output VC and the
// input VC's allocation released, the input VC's next header looked at.
static inline void release_vc(Router& rt, int r, OutVC& o, std::uint32_t now) {
  const int ip = o.owner >> 1, ivc = o.owner & 1;
  InVC& iv = rt.in[ip][ivc];
  o.owner = -1;
  iv.out_vc = -1;
  iv.routed = false;
  if (iv.n > 0) rt.hdr |= 1u << (ip * V + ivc);
  if (rt.hdr) book_alloc(r, now + 1);   // a released VC, or the next header of iv
}

// Mode 1: the whole hop of the header at the front of output VC w's input
// VC, if it qualifies; one step per run of consecutively arriving flits.
static bool worm_hop(int r, int op, int w, std::uint32_t now) {
  Router& rt = R[r];
  OutVC& o = rt.out[op][w];
  const int ip = o.owner >> 1, ivc = o.owner & 1;
  InVC& iv = rt.in[ip][ivc];
  if (iv.n < L) return false;
  if (op != 4 && o.credits < L) return false;   // absorbed at `now` by the caller
  OutVC* uo = ip != 4 ? &R[rt.nb[ip]].out[ip ^ 1][ivc] : nullptr;
  if (uo) uo->absorb(now);
  else rt.inj_n = 0;
  const std::uint32_t pkt = iv.front().pkt;
  const std::uint16_t dst = iv.front().dst;
  std::uint32_t t = now;   // the cycle the run's first flit leaves
  for (int left = L; left > 0;) {
    Run& s = iv.run[iv.sh];
    const int c = std::min<int>(s.cnt, left);
    if (left < L && s.arr0 + 1 > t) t = s.arr0 + 1;
    const int idx0 = s.idx0;
    s.idx0 += c; s.arr0 += c; s.cnt -= c; iv.n -= c;
    if (s.cnt == 0) { iv.sh = (iv.sh + 1) & 31; --iv.sn; }
    count_hops(t, c);
    if (uo) uo->add_returns(t + 1, c);
    else rt.inj_pop[rt.inj_n++] = Ramp{t, (std::uint32_t)c};
    if (op != 4) deposit(rt.nb[op], op ^ 1, w, pkt, dst, idx0, c, t);
    left -= c;
    t += c;   // the next flit leaves at t at the earliest
  }
  const std::uint32_t te = t - 1;   // the tail's cycle
  if (op == 4) deliver(pkt, te);
  else o.credits -= L;
  if (uo && uo->credits <= 0 && uo->owner >= 0) book_out(rt.nb[ip], ip ^ 1, now + 1);
  const int nv = op == 4 ? 1 : V;
  rt.rr[op] = (w + 1 == nv) ? 0 : w + 1;
  rt.worm[op] = true;
  if (te - now_g >= H) far(te);
  push_ev(cal[te % H].r, static_cast<std::uint16_t>(r * P + op));
  ++worm_hops;
  return true;
}

static void release_worm(int r, int op, std::uint32_t now) {
  Router& rt = R[r];
  const int nv = op == 4 ? 1 : V;
  const int w = rt.rr[op] == 0 ? nv - 1 : rt.rr[op] - 1;
  rt.worm[op] = false;
  release_vc(rt, r, rt.out[op][w], now);
  const std::uint32_t t = next_try(rt, op, now + 1);
  if (t != NEVER) book_out(r, op, t);
}

static void out_step(int r, int op, std::uint32_t now) {
  Router& rt = R[r];
  if (rt.worm[op]) return;   // its release books the next step
  if (rt.out_ran[op] == now) return;
  rt.out_ran[op] = now;
  const int nv = op == 4 ? 1 : V;
  int w = rt.rr[op];
  for (int k = 0; k < nv; ++k, w = (w + 1 == nv) ? 0 : w + 1) {
    if (rt.hold[op] >= 0 && rt.hold[op] != w) continue;
    OutVC& o = rt.out[op][w];
    if (o.owner < 0) continue;
    const int ip = o.owner >> 1, ivc = o.owner & 1;
    InVC& iv = rt.in[ip][ivc];
    if (iv.n == 0 || iv.front().arr0 + 1 > now) continue;
    if (op != 4) { o.absorb(now); if (o.credits <= 0) continue; }
    const Run f = iv.front();
    if (mode == 1 && f.idx0 == 0 && worm_hop(r, op, w, now)) return;
    iv.pop1();
    ++flit_sends;
    if (ip != 4) {
      const int up = rt.nb[ip];
      OutVC& uo = R[up].out[ip ^ 1][ivc];
      uo.absorb(now);
      uo.add_returns(now + 1, 1);
      if (uo.credits <= 0 && uo.owner >= 0) book_out(up, ip ^ 1, now + 1);
    } else {
      rt.inj_n = 0;
    }
    count_hops(now, 1);
    if (op == 4) {
      if (f.idx0 == L - 1) deliver(f.pkt, now);
    } else {
      --o.credits;
      deposit(rt.nb[op], op ^ 1, w, f.pkt, f.dst, f.idx0, 1, now);
    }
    if (f.idx0 == 0 && L > 1) rt.hold[op] = static_cast<std::int8_t>(w);
    if (f.idx0 == L - 1) {
      rt.hold[op] = -1;
      release_vc(rt, r, o, now);
    }
    rt.rr[op] = (w + 1 == nv) ? 0 : w + 1;
    break;
  }
  const std::uint32_t t = next_try(rt, op, now + 1);
  if (t != NEVER) book_out(r, op, t);
}

// The injection VC's occupancy as the reference sees it at the start of cycle
// `now`: flits a worm-level hop took early still count until their cycle.
static inline int inj_occupancy(const Router& rt, std::uint32_t now) {
  int n = rt.in[4][0].n;
  for (int j = 0; j < rt.inj_n; ++j) {
    const Ramp& p = rt.inj_pop[j];
    if (p.t0 + p.cnt > now) n += std::min<std::uint32_t>(p.cnt, p.t0 + p.cnt - now);
  }
  return n;
}

static inline void park(int n, std::uint64_t due, std::uint32_t now) {
  const std::uint64_t at = due - now < H ? due : now + H - 1;   // re-checked then if further
  gen_mask[at % H][n >> 6] |= 1ull << (n & 63);
}

int main(int argc, char** argv) {
  const double load = argc > 1 ? atof(argv[1]) : 0.1;
  const std::uint32_t cycles = argc > 2 ? atoll(argv[2]) : 30000;
  mode = argc > 3 ? atoi(argv[3]) : 0;
  end_g = cycles;
  for (int r = 0; r < N; ++r) {
    int x = r % K, y = r / K;
    R[r].x = x; R[r].y = y;
    R[r].nb[0] = x + 1 < K ? r + 1 : -1;
    R[r].nb[1] = x > 0 ? r - 1 : -1;
    R[r].nb[2] = y + 1 < K ? r + K : -1;
    R[r].nb[3] = y > 0 ? r - K : -1;
    R[r].nb[4] = -1;
    for (int p = 0; p < P; ++p) { R[r].out_at[p] = R[r].out_ran[p] = NEVER; R[r].hold[p] = -1; }
  }
  std::mt19937_64 rng(1);
  std::uniform_int_distribution<int> ud(0, N - 2);
  std::uint32_t next_pkt = 0;
  std::geometric_distribution<int> geo(load / L);
  std::vector<std::uint64_t> next_gen(N);
  for (int n = 0; n < N; ++n) { next_gen[n] = geo(rng); park(n, next_gen[n], 0); }
  born.reserve(static_cast<std::size_t>(cycles * load * N / L * 1.2) + 1024);
  std::uint64_t src_busy[W] = {};
  auto t0 = std::chrono::steady_clock::now();
  for (std::uint32_t now = 0; now < cycles; ++now) {
    now_g = now;
    // new packets, nodes in ascending order (the draws of lean_flit_events.cpp's scan)
    for (int wd = 0; wd < W; ++wd) {
    const std::uint64_t due = gen_mask[now % H][wd];
    gen_mask[now % H][wd] = 0;
    for (std::uint64_t m = due; m; m &= m - 1) {
      const int n = wd * 64 + __builtin_ctzll(m);
      if (next_gen[n] > now) { park(n, next_gen[n], now); continue; }
      next_gen[n] = now + 1 + (std::uint64_t)geo(rng);
      park(n, next_gen[n], now);
      int d = ud(rng);
      if (d >= n) ++d;
      Src& s = S[n];
      born.push_back(now);
      if (s.t - s.h == (1u << 16)) { std::fprintf(stderr, "source queue full\n"); std::exit(1); }
      s.q[s.t++ & 0xffff] = Pend{next_pkt++, (std::uint16_t)d};
      src_busy[n >> 6] |= 1ull << (n & 63);
    }
    }
    for (int wd = 0; wd < W; ++wd)
    for (std::uint64_t m = src_busy[wd]; m; m &= m - 1) {
      const int n = wd * 64 + __builtin_ctzll(m);
      Src& s = S[n];
      if (now < s.next_free) continue;   // a whole packet went in; its last flit's cycle is not over
      Router& rt = R[n];
      InVC& iv = rt.in[4][0];
      const int occ = mode == 1 ? inj_occupancy(rt, now) : iv.n;
      const Pend& pd = s.q[s.h & 0xffff];
      if (mode == 1 && s.idx == 0 && occ + L <= B) {
        if (iv.push(pd.pkt, pd.dst, 0, L, now + 1)) { rt.hdr |= 1u << (4 * V); book_alloc(n, now + 2); }
        s.next_free = now + L;
        if (++s.h == s.t) src_busy[wd] &= ~(1ull << (n & 63));
      } else if (occ < B) {
        if (iv.push(pd.pkt, pd.dst, s.idx, 1, now + 1)) {
          rt.hdr |= 1u << (4 * V);
          if (s.idx == 0) book_alloc(n, now + 2);
          else if (iv.out_vc >= 0) book_out(n, iv.out_port, now + 2);
        }
        if (++s.idx == L) { s.idx = 0; if (++s.h == s.t) src_busy[wd] &= ~(1ull << (n & 63)); }
      }
    }
    Slot& c = cal[now % H];
    run_list(c.a, [&](int r) { alloc_pass(r, now); });
    run_list(c.o, [&](int e) { out_step(e / P, e % P, now); });
    run_list(c.r, [&](int e) { release_worm(e / P, e % P, now); });
  }
  double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("mode %d cycles %u packets %u delivered %llu flit-hops %llu latency-sum %llu checksum %016llx "
              "| worm hops %llu, single flit sends %llu | %.3f s: %.2f M flit-hops/s\n",
              mode, cycles, next_pkt, (unsigned long long)delivered, (unsigned long long)hops,
              (unsigned long long)latency_sum, (unsigned long long)checksum, (unsigned long long)worm_hops,
              (unsigned long long)flit_sends, sec, hops / sec / 1e6);
}
