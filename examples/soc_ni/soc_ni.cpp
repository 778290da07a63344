// Example: embedding wormcast NIs in your own SoC model.
//
// Two nodes on one wormcast switch. At each node, a user's CPU model (here a
// small traffic generator, UserCpu) drives a wormcast NetworkInterface
// through its TLM-2.0 target socket — no wormcast host module involved — and
// the NI's DMA reaches the user's memory model (UserMemory) through a
// wormcast I/O bus. The CPU posts SendDescriptors (tlm/ni_protocol.h), polls
// the NI's status register, and counts the completions the NI writes into
// its memory. Exit code 0 when every message arrived exactly once.
//
//   soc_ni [messages-per-cpu]   (docs/embedding.md builds it)
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdio>
#include <cstdlib>
#include <map>

#include <wormcast/rtl_models/node/io_bus.h>
#include <wormcast/rtl_models/core/link.h>
#include <wormcast/rtl_models/node/network_interface.h>
#include <wormcast/rtl_models/switch/switch.h>
#include <wormcast/rtl_models/switch/updown_decoder.h>

namespace rtl = wormcast::rtl;
namespace topo = wormcast::topo;
namespace wtlm = wormcast::tlm;   // the NI protocol (::tlm is TLM-2.0 itself)

// A user's memory: counts DMA traffic and message completions.
struct UserMemory : sc_core::sc_module {
  tlm_utils::simple_target_socket<UserMemory> socket;
  explicit UserMemory(sc_core::sc_module_name n) : sc_core::sc_module(n), socket("socket") {
    socket.register_b_transport(this, &UserMemory::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time&) {
    bytes += t.get_data_length();
    if (auto* c = t.get_extension<wtlm::CompletionExtension>()) ++completions[c->message];
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  std::uint64_t bytes = 0;
  std::map<std::uint64_t, int> completions;
};

// A user's CPU model: posts `count` messages of `bytes` to node `dest`, one
// every `gap` cycles, then polls the NI until its send queue is empty.
struct UserCpu : sc_core::sc_module {
  SC_HAS_PROCESS(UserCpu);
  tlm_utils::simple_initiator_socket<UserCpu> ni;
  UserCpu(sc_core::sc_module_name n, const rtl::Clock& clk, int dest, int count, std::uint32_t bytes,
          std::uint64_t first_id)
      : sc_core::sc_module(n), ni("ni"), clock(clk), dest_(dest), count_(count), bytes_(bytes), id_(first_id) {
    SC_THREAD(run);
  }
  void transact(bool write, std::uint64_t addr, void* data, unsigned len) {
    tlm::tlm_generic_payload t;
    wtlm::prepare(t, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, addr, data, len);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    ni->b_transport(t, delay);
    if (t.is_response_error()) {
      std::fprintf(stderr, "%s: NI answered %s\n", name(), t.get_response_string().c_str());
      std::exit(1);
    }
    sc_core::wait(delay);
  }
  void run() {
    for (int i = 0; i < count_; ++i) {
      wtlm::SendDescriptor d{id_ + static_cast<std::uint64_t>(i), dest_, bytes_, 0x2000};
      transact(true, wtlm::kRegSendDoorbell, &d, sizeof d);
      sc_core::wait(clock.delay(300));
    }
    wtlm::NiStatus st;
    do {
      sc_core::wait(clock.delay(100));
      transact(false, wtlm::kRegStatus, &st, sizeof st);
    } while (st.send_queue_packets > 0);
    done = true;
  }
  const rtl::Clock& clock;
  int dest_, count_;
  std::uint32_t bytes_;
  std::uint64_t id_;
  bool done = false;
};

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char* argv[]) {
  const int count = argc > 1 ? std::atoi(argv[1]) : 20;
  if (count < 1) {
    std::fprintf(stderr, "usage: soc_ni [messages-per-cpu >= 1]\n");
    return 2;
  }
  rtl::SimContext ctx(5000);

  // One 2-port switch; node 0 on port 0, node 1 on port 1.
  auto t = topo::Topology::empty(1, 2, "one switch, two nodes");
  t.attach(0, 0, 0).attach(1, 0, 1);
  auto routing = std::make_shared<const topo::UpDownRouting>(t);
  rtl::SwitchParams sp;
  rtl::Switch sw("switch", 0, 2, sp, ctx, [&](int id) -> std::unique_ptr<rtl::Decoder> {
    return std::make_unique<rtl::UpDownDecoder>("decoder", id, routing, rtl::PortSelection::deterministic, wormcast::Rng(1));
  });

  rtl::NiParams np;
  np.t_ns = np.t_nr = 200;
  rtl::NetworkInterface ni0("ni0", 0, np, ctx), ni1("ni1", 1, np, ctx);
  rtl::IoBus bus0("bus0", ctx.clock, rtl::IoBusParams{}), bus1("bus1", ctx.clock, rtl::IoBusParams{});
  UserMemory mem0("mem0"), mem1("mem1");
  UserCpu cpu0("cpu0", ctx.clock, 1, count, 300, 1000), cpu1("cpu1", ctx.clock, 0, count, 64, 2000);
  cpu0.ni.bind(ni0.host_port);
  cpu1.ni.bind(ni1.host_port);
  ni0.dma.bind(bus0.target);
  ni1.dma.bind(bus1.target);
  bus0.to_memory.bind(mem0.socket);
  bus1.to_memory.bind(mem1.socket);

  rtl::LinkParams lp;
  rtl::Link up0("up0", ctx.clock, lp, sp.buffer_flits), down0("down0", ctx.clock, lp, np.receive_queue);
  rtl::Link up1("up1", ctx.clock, lp, sp.buffer_flits), down1("down1", ctx.clock, lp, np.receive_queue);
  ni0.out.bind(up0);
  sw.in[0]->bind(up0);
  sw.out[0]->bind(down0);
  ni0.in.bind(down0);
  ni1.out.bind(up1);
  sw.in[1]->bind(up1);
  sw.out[1]->bind(down1);
  ni1.in.bind(down1);

  sc_core::sc_start(ctx.clock.delay(2000000));

  bool ok = cpu0.done && cpu1.done && ctx.ledger.outstanding() == 0;
  auto check = [&](const UserMemory& m, std::uint64_t first, const char* who) {
    int good = 0;
    for (int i = 0; i < count; ++i) {
      auto it = m.completions.find(first + static_cast<std::uint64_t>(i));
      if (it != m.completions.end() && it->second == 1) ++good;
    }
    std::printf("%s: %d of %d messages completed exactly once, %llu bytes DMAed into user memory\n", who, good,
                count, static_cast<unsigned long long>(m.bytes));
    return good == count && static_cast<int>(m.completions.size()) == count;
  };
  ok = check(mem1, 1000, "node 1 (from cpu0, 300-byte messages)") && ok;
  ok = check(mem0, 2000, "node 0 (from cpu1, 64-byte messages)") && ok;
  std::printf("finished at cycle %llu; %s\n", static_cast<unsigned long long>(ctx.clock.now()),
              ok ? "all messages delivered" : "FAILED");
  return ok ? 0 : 1;
}
