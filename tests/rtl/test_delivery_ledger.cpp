// The delivery ledger (rtl_models/core/sim_context.h): every recorded packet
// must reach each of its destinations exactly once. Outstanding packets are
// kept in a window of slots indexed by origin id; these cases check the
// window's edges (ids out of order, gaps, a packet older than the window)
// and the refusals, whose messages name the packet, node and cycle, and the
// multicast lists beside the 4-byte slots.
#include <catch2/catch.hpp>

#include "rtl_models/core/sim_context.h"

using namespace wormcast;
using namespace wormcast::rtl;

namespace {
Packet unicast(PacketId origin, NodeId dest) {
  Packet p;
  p.id = p.origin = origin;
  p.header.kind = HeaderKind::unicast;
  p.header.dest = dest;
  return p;
}
Packet multicast(PacketId origin, std::vector<NodeId> dests) {
  Packet p;
  p.id = p.origin = origin;
  p.header.kind = HeaderKind::multicast;
  p.header.dests = std::move(dests);
  return p;
}
}  // namespace

TEST_CASE("delivery ledger: each destination exactly once, in any order of ids") {
  DeliveryLedger l;
  l.expect(unicast(10, 3));
  l.expect(multicast(12, {7, 2, 5}));   // id 11 never recorded (a gap)
  l.expect(unicast(8, 1));              // older than every outstanding id
  CHECK(l.outstanding() == 3);
  CHECK(l.created() == 3);
  CHECK(l.describe_outstanding(10) ==
        std::vector<std::string>{"packet 8 -> nodes 1", "packet 10 -> nodes 3", "packet 12 -> nodes 2 5 7"});
  CHECK(l.describe_outstanding(1).size() == 1);
  CHECK(l.deliver(unicast(10, 3), 3, 5));
  CHECK_FALSE(l.deliver(multicast(12, {}), 5, 6));
  CHECK(l.deliver(unicast(8, 1), 1, 7));
  CHECK_FALSE(l.deliver(multicast(12, {}), 2, 8));
  CHECK(l.outstanding() == 1);
  CHECK(l.describe_outstanding(10) == std::vector<std::string>{"packet 12 -> nodes 7"});
  CHECK(l.deliver(multicast(12, {}), 7, 9));
  CHECK(l.outstanding() == 0);
  CHECK(l.completed() == 3);
  l.expect(unicast(40, 0));   // after the window emptied
  CHECK(l.describe_outstanding(10) == std::vector<std::string>{"packet 40 -> nodes 0"});
}

TEST_CASE("delivery ledger: duplicate, misdirected and unknown deliveries are refused") {
  DeliveryLedger l;
  l.expect(unicast(5, 3));
  l.expect(multicast(6, {1, 2}));
  CHECK_THROWS_WITH(l.expect(unicast(5, 4)), "packet 5 entered the network twice");
  CHECK_THROWS_WITH(l.expect(multicast(9, {})), "packet 9 has no destination");
  CHECK_THROWS_WITH(l.deliver(unicast(5, 3), 4, 11),
                    "cycle 11: packet 5 delivered to node 4, which is not one of its outstanding destinations");
  CHECK_THROWS_WITH(l.deliver(unicast(7, 3), 3, 12),
                    "cycle 12: packet 7 delivered to node 3 but it is not outstanding (duplicate delivery or never "
                    "sent)");
  CHECK_THROWS_WITH(l.deliver(unicast(4, 3), 3, 12), Catch::Contains("packet 4 delivered to node 3 but it is not"));
  CHECK(l.deliver(unicast(5, 3), 3, 13));
  CHECK_THROWS_WITH(l.deliver(unicast(5, 3), 3, 14), Catch::Contains("duplicate delivery"));
  CHECK_FALSE(l.deliver(multicast(6, {}), 2, 15));
  CHECK_THROWS_WITH(l.deliver(multicast(6, {}), 2, 16), Catch::Contains("not one of its outstanding destinations"));
  CHECK(l.outstanding() == 1);
}

TEST_CASE("delivery ledger: a finished multicast's list is reused, and a unicast to no node is kept as a list") {
  DeliveryLedger l;
  l.expect(multicast(1, {4, 2}));
  CHECK_FALSE(l.deliver(multicast(1, {}), 2, 1));
  CHECK(l.deliver(multicast(1, {}), 4, 2));
  l.expect(multicast(2, {9}));   // takes packet 1's list
  l.expect(multicast(3, {6, 5}));
  l.expect_unicast(4, 0);        // node 0: the slot value 1
  l.expect(unicast(5, -1));      // addressed to nobody
  CHECK(l.describe_outstanding(10) == std::vector<std::string>{"packet 2 -> nodes 9", "packet 3 -> nodes 5 6",
                                                               "packet 4 -> nodes 0", "packet 5 -> nodes -1"});
  CHECK_THROWS_WITH(l.deliver(unicast(5, -1), 0, 3), Catch::Contains("not one of its outstanding destinations"));
  CHECK_THROWS_WITH(l.expect_unicast(4, 1), "packet 4 entered the network twice");
  CHECK(l.deliver(multicast(2, {}), 9, 4));
  CHECK(l.deliver(unicast(4, 0), 0, 5));
  CHECK_THROWS_WITH(l.deliver(multicast(2, {}), 9, 6), Catch::Contains("duplicate delivery"));
  CHECK(l.describe_outstanding(10) == std::vector<std::string>{"packet 3 -> nodes 5 6", "packet 5 -> nodes -1"});
  CHECK(l.outstanding() == 2);
  CHECK(l.created() == 5);
  CHECK(l.completed() == 3);
}
