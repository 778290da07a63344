// Smart NI support in the node model: firmware-supplied headers on copies,
// retain/release of NI-memory packets with accounting, and the fpfs/fcfs
// firmware relaying k-binomial multicasts.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "node_fixture.h"
#include "rtl_models/node/ni_firmware.h"

using namespace wormcast;
using namespace wormcast::rtl;

namespace {

// Test firmware: node 1 retains every packet of a message and, once it has
// all of them, forwards them to node 2 with a header carrying a relay block,
// then releases them; node 2 records what it received (and keeps it from
// the host, whose ledger does not expect it). Misuse of the API is recorded.
struct ProbeLog {
  std::vector<std::shared_ptr<const MulticastRelay>> relays;   // seen at node 2
  std::vector<int> occupancy_before_release;                   // at node 1
  std::vector<std::string> errors;
};
ProbeLog probe_log;

class ProbeFirmware : public NiFirmware {
 public:
  std::string kind() const override { return "test_probe"; }
  void on_send_queue(NiFirmwareApi& api, const PacketPtr& pkt) override { api.send_copy(pkt, pkt->header.dest); }
  void on_receive(NiFirmwareApi& api, const PacketPtr& pkt) override {
    if (api.node() == 2) {
      probe_log.relays.push_back(pkt->header.relay);
      return;
    }
    api.deliver_to_host(pkt);
    api.retain_packet(pkt);
    held_.push_back(pkt);
    if (static_cast<int>(held_.size()) < pkt->msg_packets) return;
    auto chain = std::make_shared<const std::vector<NodeId>>(std::vector<NodeId>{0, 1, 2});
    for (const PacketPtr& p : held_) {
      PacketHeader h;
      h.dest = 2;
      auto r = std::make_shared<MulticastRelay>();
      r->chain = chain;
      r->first = r->last = 2;
      h.relay = r;
      api.send_copy(p, h);
    }
    probe_log.occupancy_before_release.push_back(static_cast<int>(held_.size()));
    for (const PacketPtr& p : held_) api.release_packet(p);
    try {
      api.release_packet(held_.front());   // a second release: refused
    } catch (const std::logic_error& e) {
      probe_log.errors.push_back(e.what());
    }
    try {
      PacketHeader bad;
      bad.kind = HeaderKind::multicast;
      bad.dests = {2, 3};
      api.send_copy(held_.front(), bad);
    } catch (const std::logic_error& e) {
      probe_log.errors.push_back(e.what());
    }
    held_.clear();
  }

 private:
  std::vector<PacketPtr> held_;
};

void register_probe() {
  static bool done = false;
  if (done) return;
  firmware_registry().add("test_probe", "test: retain, forward with a relay header, release",
                          [] { return std::make_unique<ProbeFirmware>(); });
  done = true;
}

}  // namespace

TEST_CASE("firmware copies carry the header the firmware supplies, and retained packets stay in NI memory") {
  register_probe();
  probe_log = ProbeLog{};
  HostNiModel model;
  model.ni.firmware = "test_probe";
  test::NodeNet n(model);
  n.host(0).set_program([](HostApi& h) { h.send(1, 3 * 128); });
  n.host(1).set_program([](HostApi& h) { h.receive(); });
  sc_core::sc_start(n.ctx.clock.delay(60000));
  CHECK(n.ctx.messages.outstanding() == 0);
  CHECK(n.ctx.ledger.outstanding() == 0);   // the three forwarded copies reached node 2
  REQUIRE(probe_log.relays.size() == 3);
  for (const auto& r : probe_log.relays) {
    REQUIRE(r);
    CHECK(r->first == 2);
    CHECK(r->at(2) == 2);
    CHECK_THROWS_AS(r->at(1), std::out_of_range);   // outside its block
    CHECK(r->encoded_bytes() == 4);
  }
  // Node 1 held all three packets at once (retained until the last arrived),
  // and gave them all back.
  const NiStats s1 = n.ni(1).stats();
  CHECK(s1.retained_peak == 3);
  CHECK(s1.peak_flits == 3 * 128);
  CHECK(n.ni(1).occupancy_flits() == 0);
  CHECK(s1.packets_sent == 3);
  CHECK(s1.busy == 3 * 1000 + 3 * 1000);   // t_nr per packet received, t_ns per copy
  REQUIRE(probe_log.errors.size() == 2);
  CHECK_THAT(probe_log.errors[0], Catch::Contains("had not retained"));
  CHECK_THAT(probe_log.errors[1], Catch::Contains("not a unicast"));
}

TEST_CASE("conventional firmware keeps no packets and sends a multicast descriptor to each destination") {
  test::NodeNet n;
  int got = 0;
  n.host(0).set_program([](HostApi& h) { h.send_multicast({0, 2, 1, 3}, 2, 0, 200); });
  for (int d : {1, 2, 3})
    n.host(d).set_program([&got](HostApi& h) {
      h.receive();
      ++got;
    });
  sc_core::sc_start(n.ctx.clock.delay(60000));
  CHECK(got == 3);
  CHECK(n.ctx.messages.outstanding() == 0);
  CHECK(n.ni(0).stats().packets_sent == 2 * 3);   // separate addressing: 2 packets x 3 destinations
  CHECK(n.ni(0).stats().retained_peak == 0);
  CHECK(n.ni(1).stats().packets_sent == 0);
}

TEST_CASE("host API rejects a bad multicast chain") {
  test::NodeNet n;
  std::vector<std::string> errors;
  n.host(0).set_program([&](HostApi& h) {
    const std::vector<std::vector<NodeId>> chains = {{0}, {1, 2}, {0, 1, 1}, {0, 9}, {0, 2, 0}};
    for (const auto& c : chains) {
      try {
        h.send_multicast(c, 1, 0, 10);
      } catch (const std::invalid_argument& e) {
        errors.push_back(e.what());
      }
    }
    try {
      h.send_multicast({0, 1}, 0, 0, 10);
    } catch (const std::invalid_argument& e) {
      errors.push_back(e.what());
    }
  });
  sc_core::sc_start(n.ctx.clock.delay(100));
  CHECK(errors.size() == 6);
  CHECK(n.ctx.messages.outstanding() == 0);
}
