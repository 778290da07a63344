// The node model's parts, each with real modules: the I/O bus under
// contention, the host <-> NI TLM protocol, NI firmware accounting, and the
// host software API's checks.
#include <catch2/catch.hpp>

#include "rtl_models/core/statistics.h"

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "node_fixture.h"
#include "tlm/ni_protocol.h"

using namespace wormcast;
using namespace wormcast::rtl;

namespace {
// A DMA master issuing one read of `bytes` at cycle `at` (a test bench module:
// what any DMA engine does through the bus).
struct DmaMaster : sc_core::sc_module {
  SC_HAS_PROCESS(DmaMaster);
  tlm_utils::simple_initiator_socket<DmaMaster> socket;
  DmaMaster(sc_core::sc_module_name n, const Clock& c, unsigned bytes, Cycle at)
      : sc_core::sc_module(n), socket("socket"), clock(c), bytes_(bytes), at_(at), data(bytes) {
    SC_THREAD(run);
  }
  void run() {
    sc_core::wait(clock.delay(at_));
    ::tlm::tlm_generic_payload t;
    wormcast::tlm::prepare(t, ::tlm::TLM_READ_COMMAND, 0x1000, data.data(), bytes_);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    socket->b_transport(t, d);
    ok = t.is_response_ok();
    done = clock.now();
  }
  const Clock& clock;
  unsigned bytes_;
  Cycle at_;
  std::vector<unsigned char> data;
  Cycle done = 0;
  bool ok = false;
};

// A plain memory target, as a user's SoC would have.
struct Memory : sc_core::sc_module {
  tlm_utils::simple_target_socket<Memory> socket;
  explicit Memory(sc_core::sc_module_name n) : sc_core::sc_module(n), socket("socket") {
    socket.register_b_transport(this, &Memory::b_transport);
  }
  void b_transport(::tlm::tlm_generic_payload& t, sc_core::sc_time&) {
    ++accesses;
    t.set_response_status(::tlm::TLM_OK_RESPONSE);
  }
  int accesses = 0;
};
}  // namespace

TEST_CASE("two DMA transfers on one I/O bus are served one after the other") {
  fresh_kernel();
  SimContext ctx(5000);
  Memory mem("mem");
  IoBus bus("bus", ctx.clock, IoBusParams{});
  DmaMaster a("a", ctx.clock, 128, 10), b("b", ctx.clock, 64, 10);
  a.socket.bind(bus.target);
  b.socket.bind(bus.target);
  bus.to_memory.bind(mem.socket);
  sc_core::sc_start(ctx.clock.delay(1000));
  CHECK(mem.accesses == 2);
  REQUIRE(a.ok);
  REQUIRE(b.ok);
  // 1.33 bytes/cycle: 128 B -> ceil(96.24) = 97 cycles, 64 B -> ceil(48.12) = 49.
  CHECK(bus.transfer_cycles(128) == 97);
  CHECK(bus.transfer_cycles(64) == 49);
  // Both ask at cycle 10; a is served first (request order), b waits for it.
  CHECK(a.done == 10 + 97);
  CHECK(b.done == 10 + 97 + 49);
  CHECK(bus.busy_cycles(ctx.clock.now()) == 97 + 49);
  CHECK(bus.transfers() == 2);
}

TEST_CASE("I/O bus busy time counts only cycles already used, so utilisation stays within [0, 1]") {
  fresh_kernel();
  SimContext ctx(5000);
  Memory mem("mem");
  IoBusParams slow;
  slow.bandwidth = 2e6;   // 2 MB/s at 5 ns: 0.01 B/cycle, 128 B take 12800 cycles
  IoBus bus("bus", ctx.clock, slow);
  DmaMaster a("a", ctx.clock, 128, 10), b("b", ctx.clock, 128, 10);
  a.socket.bind(bus.target);
  b.socket.bind(bus.target);
  bus.to_memory.bind(mem.socket);
  sc_core::sc_start(ctx.clock.delay(5000));   // both granted at cycle 10, the first one half done
  const Cycle now = ctx.clock.now();
  REQUIRE(now == 5000);
  CHECK(bus.busy_cycles(now) == 5000 - 10);
  CHECK(checked_fraction(static_cast<double>(bus.busy_cycles(now)), static_cast<double>(now), "I/O bus") <= 1.0);
  sc_core::sc_start(ctx.clock.delay(30000));
  CHECK(bus.busy_cycles(ctx.clock.now()) == 2 * 12800);
}

TEST_CASE("host <-> NI over TLM: descriptor write, status read, errors") {
  test::NodeNet n;
  NetworkInterface& ni = n.ni(0);
  bool checked = false;
  n.host(0).set_program([&](HostApi&) {
    auto transact = [&](bool write, std::uint64_t addr, void* data, unsigned len, wormcast::tlm::MulticastHeaderExtension* ext) {
      ::tlm::tlm_generic_payload t;
      wormcast::tlm::prepare(t, write ? ::tlm::TLM_WRITE_COMMAND : ::tlm::TLM_READ_COMMAND, addr, data, len);
      if (ext) t.set_extension(ext);
      sc_core::sc_time d = sc_core::SC_ZERO_TIME;
      n.host(0).ni->b_transport(t, d);
      if (ext) t.clear_extension(ext);
      return t.get_response_status();
    };
    wormcast::tlm::NiStatus st;
    CHECK(transact(false, wormcast::tlm::kRegStatus, &st, sizeof st, nullptr) == ::tlm::TLM_OK_RESPONSE);
    CHECK(st.send_queue_packets == 0);
    wormcast::tlm::SendDescriptor zero{};
    zero.dest = 1;
    CHECK(transact(true, wormcast::tlm::kRegSendDoorbell, &zero, sizeof zero, nullptr) == ::tlm::TLM_GENERIC_ERROR_RESPONSE);
    CHECK(transact(true, 0x44, &zero, sizeof zero, nullptr) == ::tlm::TLM_ADDRESS_ERROR_RESPONSE);
    // A real descriptor: two packets; the send DMA pulls them into NI memory.
    n.ctx.on_message_sent(77, 0, {1}, 256, 0);
    wormcast::tlm::SendDescriptor d{77, 1, 256, 0x1000};
    CHECK(transact(true, wormcast::tlm::kRegSendDoorbell, &d, sizeof d, nullptr) == ::tlm::TLM_OK_RESPONSE);
    sc_core::wait(n.ctx.clock.delay(150));   // first DMA done at 97, second at 194
    CHECK(transact(false, wormcast::tlm::kRegStatus, &st, sizeof st, nullptr) == ::tlm::TLM_OK_RESPONSE);
    CHECK(st.send_queue_packets == 1);
    CHECK(st.firmware_busy == 1);             // t_ns of packet 0 is running
    checked = true;
  });
  int got = 0;
  n.host(1).set_program([&](HostApi& h) {
    const ReceivedMessage m = h.receive();
    CHECK(m.id == 77);
    CHECK(m.bytes == 256);
    ++got;
  });
  sc_core::sc_start(n.ctx.clock.delay(20000));
  CHECK(checked);
  CHECK(got == 1);
  (void)ni;
}

TEST_CASE("NI firmware accounting: busy time and NI memory occupancy") {
  test::NodeNet n;
  n.host(0).set_program([&](HostApi& h) {
    h.send(1, 3 * 128);   // three packets
    h.send(2, 100);       // one short packet
  });
  n.host(1).set_program([&](HostApi& h) { h.receive(); });
  n.host(2).set_program([&](HostApi& h) { h.receive(); });
  sc_core::sc_start(n.ctx.clock.delay(50000));
  REQUIRE(n.ctx.messages.outstanding() == 0);
  const NiStats s0 = n.ni(0).stats(), s1 = n.ni(1).stats(), s2 = n.ni(2).stats();
  CHECK(s0.packets_sent == 4);
  CHECK(s0.busy == 4 * 1000);               // t_ns per packet copy
  CHECK(s1.packets_received == 3);
  CHECK(s1.busy == 3 * 1000);               // t_nr per packet
  CHECK(s2.busy == 1000);
  // Sender: message 1's three packets are DMAed in at 1097, 1194, 1291 while
  // the firmware spends 1000 cycles on each; the first copy's tail leaves the
  // NI only at 2097 + 1 + 127 = 2225. Message 2 (after its own t_hs) is DMAed
  // in at 2000 + ceil(100 / 1.33) = 2076, so at that moment NI memory holds
  // 3 * 128 + 100 flits.
  CHECK(s0.peak_flits == 3 * 128 + 100);
  CHECK(s2.peak_flits == 100);
  CHECK(n.ni(0).occupancy_flits() == 0);    // everything freed
  CHECK(n.ni(1).occupancy_flits() == 0);
  CHECK(n.host(0).busy_cycles() == 2 * 1000);   // t_hs twice
  CHECK(n.host(1).busy_cycles() == 1000);       // t_hr once
}

TEST_CASE("host API rejects a message to a non-existent node, to itself, or of zero length") {
  test::NodeNet n;
  std::vector<std::string> errors;
  n.host(0).set_program([&](HostApi& h) {
    for (auto [dest, bytes] : std::vector<std::pair<int, int>>{{9, 10}, {-1, 10}, {0, 10}, {1, 0}}) {
      try {
        h.send(dest, bytes);
      } catch (const std::invalid_argument& e) {
        errors.push_back(e.what());
      }
    }
  });
  sc_core::sc_start(n.ctx.clock.delay(100));
  REQUIRE(errors.size() == 4);
  CHECK_THAT(errors[0], Catch::Contains("node 9, which does not exist (nodes 0..3)"));
  CHECK_THAT(errors[1], Catch::Contains("node -1"));
  CHECK_THAT(errors[2], Catch::Contains("itself"));
  CHECK_THAT(errors[3], Catch::Contains("0 bytes"));
  CHECK(n.ctx.messages.outstanding() == 0);
}
