// A lean flit-level reference loop (docs/performance.md, "How far a
// flit-level model can go"). NOT part of wormcast and
// not built by its CMake: a measurement of the floor of what simulating the
// CNSim case flit by flit costs when written as one hand-tuned loop, with no
// modules, no kernel, no packet objects, no invariant checks and no
// statistics besides a flit-hop count.
//
// The case: 8x8 mesh, XY routing, 2 VCs of 20 flits per port, 5-flit
// packets, uniform destinations, 0.1 flits/node/cycle (geometric gaps
// between packets). Per flit, the same timing as wormcast's VC router: a flit
// arrives crossbar + link = 2 cycles after it leaves and is readable the
// cycle after; a header is routed at its arrival and asks for an output VC
// 1 cycle later (the lowest free one); per output port one flit per cycle,
// round-robin over the VCs with a readable flit and a credit; a credit is
// back 1 cycle after the flit leaves. Injection into the local input VC (one
// flit per cycle while it has room), ejection one flit per cycle.
//
//   g++ -O3 -DNDEBUG -o lean_flit_loop docs/reference/lean_flit_loop.cpp
//   ./lean_flit_loop 0.1 30000        # load, cycles
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

constexpr int K = 8, N = K * K, V = 2, B = 20, L = 5;
constexpr int P = 5;   // 0:+x 1:-x 2:+y 3:-y 4:local
struct Flit { std::uint32_t pkt; std::uint16_t idx; std::uint16_t dst; };
struct InVC {
  Flit buf[32];
  std::uint64_t arr[32];   // arrival cycle
  int head = 0, n = 0;
  int out_port = -1, out_vc = -1;   // allocated
  std::uint64_t ready = 0;
  bool routed = false;
};
struct OutVC {
  int owner = -1; int credits = B; std::uint64_t ret_at = 0; int ret_n = 0;
  void absorb(std::uint64_t now) { if (ret_n && ret_at <= now) { credits += ret_n; ret_n = 0; } }
};
struct Router {
  InVC in[P][V];
  OutVC out[P][V];
  int rr[P] = {};
  unsigned nonempty = 0;   // bit p*V+v: input VC has flits
  unsigned owned = 0;      // bit op: output port has an owned VC
  unsigned hdr = 0;        // bit: head of the VC is a header without an output VC
};
std::vector<Router> R(N);
struct Src { std::vector<Flit> q; std::size_t pos = 0; };
std::vector<Src> S(N);
std::uint64_t hops = 0, delivered = 0;

int neighbour(int r, int p) {
  int x = r % K, y = r / K;
  if (p == 0) return x + 1 < K ? r + 1 : -1;
  if (p == 1) return x > 0 ? r - 1 : -1;
  if (p == 2) return y + 1 < K ? r + K : -1;
  if (p == 3) return y > 0 ? r - K : -1;
  return -1;
}
int opposite(int p) { return p ^ 1; }
int route(int r, int d) {
  int x = r % K, y = r / K, dx = d % K, dy = d / K;
  if (dx > x) return 0;
  if (dx < x) return 1;
  if (dy > y) return 2;
  if (dy < y) return 3;
  return 4;
}

int main(int argc, char** argv) {
  const double load = argc > 1 ? atof(argv[1]) : 0.1;
  const std::uint64_t cycles = argc > 2 ? atoll(argv[2]) : 30000;
  std::mt19937_64 rng(1);
  std::uniform_int_distribution<int> ud(0, N - 2);
  std::uint32_t next_pkt = 0;
  std::geometric_distribution<int> geo(load / L);
  std::vector<std::uint64_t> next_gen(N);
  for (int n = 0; n < N; ++n) next_gen[n] = geo(rng);
  auto t0 = std::chrono::steady_clock::now();
  for (std::uint64_t now = 0; now < cycles; ++now) {
    // creation + injection (local input VC 0 of each router)
    for (int n = 0; n < N; ++n) {
      Src& s = S[n];
      if (next_gen[n] <= now) {
        next_gen[n] = now + 1 + (std::uint64_t)geo(rng);
        int d = ud(rng);
        if (d >= n) ++d;
        for (int i = 0; i < L; ++i) s.q.push_back(Flit{next_pkt, (std::uint16_t)i, (std::uint16_t)d});
        ++next_pkt;
      }
      InVC& iv = R[n].in[4][0];
      // the injection channel's credits: the local input VC's free slots
      if (s.pos < s.q.size() && iv.n < B) {
        int slot = (iv.head + iv.n) & 31;
        iv.buf[slot] = s.q[s.pos++];
        iv.arr[slot] = now + 1;
        if (iv.n++ == 0) R[n].hdr |= 1u << (4 * V);
        R[n].nonempty |= 1u << (4 * V);
        if (s.pos == s.q.size()) { s.q.clear(); s.pos = 0; }
      }
    }
    for (int r = 0; r < N; ++r) {
      Router& rt = R[r];
      if (rt.nonempty == 0) continue;
      // route + VC allocation
      for (unsigned m = rt.hdr; m; m &= m - 1) {
          const int b = __builtin_ctz(m), p = b / V, v = b % V;
          InVC& iv = rt.in[p][v];
          if (iv.n == 0 || iv.arr[iv.head] > now) continue;
          const Flit& f = iv.buf[iv.head];
          if (f.idx != 0 || iv.out_vc >= 0) { rt.hdr &= ~(1u << b); continue; }
          if (!iv.routed) {
            iv.out_port = route(r, f.dst);
            iv.ready = iv.arr[iv.head] + 1;
            iv.routed = true;
          }
          if (iv.ready > now) continue;
          int op = iv.out_port;
          int nv = op == 4 ? 1 : V;
          for (int w = 0; w < nv; ++w)
            if (rt.out[op][w].owner < 0) {
              rt.out[op][w].owner = p * V + v;
              rt.owned |= 1u << op;
              iv.out_vc = w;
              rt.hdr &= ~(1u << b);
              break;
            }
        }
      // switch allocation + traversal
      for (unsigned m = rt.owned; m; m &= m - 1) {
        const int op = __builtin_ctz(m);
        int nv = op == 4 ? 1 : V;
        for (int k = 0; k < nv; ++k) {
          int w = (rt.rr[op] + k) % nv;
          OutVC& o = rt.out[op][w];
          if (o.owner < 0) continue;
          InVC& iv = rt.in[o.owner / V][o.owner % V];
          if (iv.n == 0 || iv.arr[iv.head] + 1 > now) continue;
          if (op != 4) { o.absorb(now); if (o.credits <= 0) continue; }
          Flit f = iv.buf[iv.head];
          iv.head = (iv.head + 1) & 31;
          if (--iv.n == 0) rt.nonempty &= ~(1u << o.owner);
          const int ip = o.owner / V, ivc = o.owner % V;
          // credit back upstream
          if (ip != 4) {
            int up = neighbour(r, ip);
            OutVC& uo = R[up].out[opposite(ip)][ivc];
            uo.absorb(now);
            uo.ret_at = now + 1;
            ++uo.ret_n;
          }
          ++hops;
          if (op == 4) {
            if (f.idx == L - 1) ++delivered;
          } else {
            --o.credits;
            int dn = neighbour(r, op);
            InVC& dv = R[dn].in[opposite(op)][w];
            int slot = (dv.head + dv.n) & 31;
            dv.buf[slot] = f;
            dv.arr[slot] = now + 2;
            if (dv.n++ == 0) R[dn].hdr |= 1u << (opposite(op) * V + w);
            R[dn].nonempty |= 1u << (opposite(op) * V + w);
          }
          if (f.idx == L - 1) {
            o.owner = -1;
            bool any = false;
            for (int x = 0; x < nv; ++x) any |= rt.out[op][x].owner >= 0;
            if (!any) rt.owned &= ~(1u << op);
            iv.out_vc = -1;
            iv.routed = false;
            if (iv.n > 0) rt.hdr |= 1u << (ip * V + ivc);
          }
          rt.rr[op] = (w + 1) % nv;
          break;
        }
      }
    }
  }
  double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("cycles %llu packets %u delivered %llu flit-hops %llu in %.3f s: %.2f M flit-hops/s, %.0f k cycles/s\n",
              (unsigned long long)cycles, next_pkt, (unsigned long long)delivered, (unsigned long long)hops, sec,
              hops / sec / 1e6, cycles / sec / 1e3);
}
