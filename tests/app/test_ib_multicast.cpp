// seed003 on the simulated InfiniBand fat tree (topology.kind fat_tree,
// switch.decoder ib, switch.admission store_and_forward, traffic.kind
// ib_multicast): whole runs of experiments/seed003/ib_fat_tree.yaml.
//
// Golden times by hand, from the paper's model (spec SEED 003 §10): a
// packet of B bytes crosses a link in 4B ns + 20 ns flight and a switch in
// 100 ns, store-and-forward, so on an idle path of s switches (s + 1 links)
// it is complete at its receiver (s + 1)(4B + 20) + 100 s ns after it starts.
// The experiment's clock is 4 ns: (s + 1)(B + 5) + 25 s cycles. Paths in
// IBFT(8,3): same leaf switch s = 1, same level-1 subtree s = 3, else s = 5.
#include <catch2/catch.hpp>

#include "testbenches/app/runner.h"
#include "tests/common/runs.h"

using namespace wormcast;
using namespace wormcast::tb;
using Catch::Matchers::Contains;

namespace {

const char* const kFile = "experiments/seed003/ib_fat_tree.yaml";

RunResult run_ib(std::vector<Override> o) {
  o.push_back({"traffic.trials", "2"});
  return run_experiment(test::experiment(kFile, o), RunOptions{});
}

// A metric by its dotted name.
const nlohmann::json& stat(const RunResult& r, const std::string& key) { return test::metric(r, key); }

// Every packet copy delivered exactly once, flits conserved, no deadlock.
void check_clean(const RunResult& r) { test::check_delivered_exactly_once(r, 1); }

// Completion of every trial (all equal on these fixed, contention-free cases).
std::uint64_t completion(const RunResult& r) {
  const auto& c = stat(r, "multicast.completion_cycles");
  CHECK(c.at("min") == c.at("max"));
  return c.at("max").get<std::uint64_t>();
}

std::uint64_t path_cycles(int switches, int bytes) {
  return static_cast<std::uint64_t>((switches + 1) * (bytes + 5) + 25 * switches);
}

std::string error_of(const std::vector<Override>& o) {
  try {
    const RunResult r = run_ib(o);
    return r.ok ? "no error" : r.error;
  } catch (const std::exception& e) {
    return e.what();
  }
}

}  // namespace

TEST_CASE("ib_multicast: one packet over 1, 3 and 5 store-and-forward switches, as the paper's model", "[seed003]") {
  const std::pair<const char*, int> cases[] = {{"P(001)", 1}, {"P(010)", 3}, {"P(100)", 5}, {"P(733)", 5}};
  for (const int bytes : {32, 1024}) {
    for (const auto& [dest, switches] : cases) {
      for (const char* scheme : {"cyclic", "opensm", "unicast"}) {
        INFO(dest << " " << scheme << " " << bytes << " bytes");
        const RunResult r = run_ib({{"traffic.scheme", scheme}, {"traffic.senders", "P(000)"}, {"traffic.members", dest},
                                    {"message.size", std::to_string(bytes)}});
        check_clean(r);
        CHECK(completion(r) == path_cycles(switches, bytes));
      }
    }
  }
}

TEST_CASE("switch.pass_interval: a switch sets up one connection per interval, copies one after another", "[seed003]") {
  // One packet from P(000) to the three other nodes of its leaf switch: in
  // parallel all three copies complete with the one-switch path time; with
  // one connection per P cycles the copies start P apart, so the last one
  // completes 2P later. A lone unicast over 5 switches finds every switch
  // free: no change. (The interval is a rate: after a trial's last copy
  // the switch makes no connection for P cycles, so P stays below a copy's
  // transfer time here and the next trial finds the switch free: 32 B take
  // 37 cycles a link, 1 KB 1029.)
  for (const int bytes : {32, 1024}) {
    for (const char* scheme : {"cyclic", "opensm"}) {
      for (const int pass : {0, 25, bytes > 32 ? 300 : 30}) {
        INFO(scheme << " " << bytes << " bytes, pass_interval " << pass);
        const RunResult r = run_ib({{"traffic.scheme", scheme}, {"traffic.senders", "P(000)"},
                                    {"traffic.members", "P(001),P(002),P(003)"}, {"message.size", std::to_string(bytes)},
                                    {"switch.pass_interval", std::to_string(pass)}});
        check_clean(r);
        CHECK(completion(r) == path_cycles(1, bytes) + 2 * static_cast<std::uint64_t>(pass));
        const RunResult u = run_ib({{"traffic.scheme", scheme}, {"traffic.senders", "P(000)"},
                                    {"traffic.members", "P(733)"}, {"message.size", std::to_string(bytes)},
                                    {"switch.pass_interval", std::to_string(pass)}});
        check_clean(u);
        CHECK(completion(u) == path_cycles(5, bytes));
      }
    }
  }
}

TEST_CASE("switch.pass_scope input: each input sets up one connection per interval, inputs in parallel", "[seed003]") {
  // One input, three copies (P(000) to the other nodes of its leaf switch):
  // the copies start P apart per input as per switch, the last completes
  // 2P late. Two inputs, one connection each (P(000) and P(001) send to
  // each other, OpenSM's group of the two): per switch the second
  // connection waits P, per input both start at once.
  for (const int bytes : {32, 1024}) {
    for (const int pass : {25, 30}) {
      INFO(bytes << " bytes, pass_interval " << pass);
      const auto P = static_cast<std::uint64_t>(pass);
      const std::vector<Override> serial = {{"switch.pass_interval", std::to_string(pass)},
                                            {"message.size", std::to_string(bytes)}, {"traffic.scheme", "opensm"}};
      auto with = [&serial](const char* scope, const char* senders, const char* members) {
        std::vector<Override> o = serial;
        o.insert(o.end(), {{"switch.pass_scope", scope}, {"traffic.senders", senders}, {"traffic.members", members}});
        return run_ib(o);
      };
      for (const char* scope : {"switch", "input"}) {
        INFO(scope);
        const RunResult copies = with(scope, "P(000)", "P(001),P(002),P(003)");
        check_clean(copies);
        CHECK(completion(copies) == path_cycles(1, bytes) + 2 * P);
        const RunResult pair = with(scope, "P(000),P(001)", "P(000),P(001)");
        check_clean(pair);
        CHECK(completion(pair) == path_cycles(1, bytes) + (std::string(scope) == "switch" ? P : 0));
      }
    }
  }
  CHECK_THAT(error_of({{"switch.pass_scope", "input"}}), Contains("switch.pass_scope: input needs switch.pass_interval > 0"));
  CHECK_THAT(error_of({{"switch.pass_scope", "port"}}), Contains("switch.pass_scope") && Contains("'port'"));
}

TEST_CASE("ib_multicast: a 20 ns clock with 5-byte flits keeps the timing", "[seed003]") {
  // 1 KB: 205 payload flits + 1 header = 206 flits of 20 ns; 5 switches of
  // 5 cycles, 6 links of 206 - 1 + 1 cycles: 6 x 206 + 25 = 1261 cycles =
  // 25.22 us. The paper's model gives 6 (4096 + 20) + 500 ns = 25.196 us: a
  // link takes 4 ns longer with 1024 bytes rounded up to whole flits.
  const RunResult r = run_ib({{"clock.period", "20ns"}, {"switch.route_delay", "4"}, {"link.latency", "1"},
                              {"traffic.flit_bytes", "5"}, {"traffic.senders", "P(000)"}, {"traffic.members", "P(733)"}});
  check_clean(r);
  CHECK(completion(r) == 6 * 206 + 25);
}

TEST_CASE("ib_multicast: one-to-many, cyclic and OpenSM trees both take the longest path once", "[seed003]") {
  // Members in three pods: the last packet copy arrives over 5 switches.
  const std::vector<Override> set = {{"traffic.senders", "P(000)"},
                                     {"traffic.members", "P(001),P(010),P(200),P(201),P(733)"}};
  std::uint64_t cyclic = 0;
  for (const char* scheme : {"cyclic", "opensm"}) {
    INFO(scheme);
    std::vector<Override> o = set;
    o.push_back({"traffic.scheme", scheme});
    const RunResult r = run_ib(o);
    check_clean(r);
    CHECK(completion(r) == path_cycles(5, 1024));
    CHECK(stat(r, "multicast.packets_sent") == 2);   // one packet per trial
    CHECK(stat(r, "multicast.discarded_copies") == 0);
    if (std::string(scheme) == "cyclic") cyclic = completion(r);
  }
  // Unicast: five packets back to back in the listed order, L = 1025 flits
  // apart; the last (to P(733), 5 switches) leaves 4 L after the first. With
  // room for ten packets per input nothing waits for buffer space (with two,
  // the third packet waits at the source until the first has drained from
  // the leaf switch: 25 cycles of routing and 5 of flight later per packet).
  std::vector<Override> o = set;
  o.push_back({"traffic.scheme", "unicast"});
  o.push_back({"switch.buffer", "10250"});
  const RunResult r = run_ib(o);
  check_clean(r);
  CHECK(completion(r) == 4 * 1025 + path_cycles(5, 1024));
  CHECK(stat(r, "multicast.packets_sent") == 10);
  CHECK(completion(r) > cyclic);
}

TEST_CASE("ib_multicast: traffic.mtu splits a message into packets sent back to back", "[seed003]") {
  // 1024 bytes in packets of 256: four packets of L = 257 flits, pipelined
  // through the store-and-forward switches; the last leaves 3 L after the
  // first. Unicast to two members sends four packets to each, in order.
  const std::vector<Override> base = {{"traffic.mtu", "256"}, {"traffic.senders", "P(000)"}};
  std::vector<Override> one = base;
  one.push_back({"traffic.members", "P(733)"});
  const RunResult r = run_ib(one);
  check_clean(r);
  CHECK(completion(r) == 3 * 257 + path_cycles(5, 256));
  CHECK(stat(r, "multicast.packets_sent") == 8);
  for (const char* scheme : {"cyclic", "opensm", "unicast"}) {
    INFO(scheme);
    std::vector<Override> two = base;
    two.push_back({"traffic.members", "P(001),P(733)"});
    two.push_back({"traffic.scheme", scheme});
    const RunResult u = run_ib(two);
    check_clean(u);
    CHECK(completion(u) == (std::string(scheme) == "unicast" ? 7 : 3) * 257 + path_cycles(5, 256));
  }
}

TEST_CASE("ib_multicast: the Fig. 7 table on IBFT(4,3) crosses ten links", "[seed003]") {
  // P(000) -> P(200), P(201), P(210), P(211): injection link, three links up
  // to SW<00,0>, one down to SW<20,1>, two to SW<20,2> and SW<21,2>, four to
  // the nodes (spec SEED 003 §7, Fig. 7).
  const RunResult r = run_ib({{"topology.m", "4"}, {"traffic.senders", "P(000)"},
                              {"traffic.members", "P(200),P(201),P(210),P(211)"}});
  check_clean(r);
  CHECK(stat(r, "multicast.link_traversals").at("max") == 10.0);
  CHECK(stat(r, "multicast.table_entries").at("max") == 6.0);
  CHECK(completion(r) == path_cycles(5, 1024));
}

TEST_CASE("ib_multicast: OpenSM senders join the tree and discard the others' copies", "[seed003]") {
  // Two senders that are not members: each one's packet also reaches the
  // other sender (SendOnly join), whose HCA drops it.
  const RunResult r = run_ib({{"topology.m", "4"}, {"traffic.scheme", "opensm"}, {"traffic.senders", "P(000),P(100)"},
                              {"traffic.members", "P(300)"}});
  check_clean(r);
  CHECK(stat(r, "multicast.discarded_copies") == 4);   // 2 per trial
  CHECK(stat(r, "multicast.packets_sent") == 4);
}

TEST_CASE("ib_multicast: OpenSM senders out of the tree get no copies", "[seed003]") {
  // The same group with traffic.sender_ports out_of_tree: the senders'
  // packets still enter at their leaf switches and reach the member, and no
  // copy goes down to the other sender.
  const std::vector<Override> base = {{"topology.m", "4"},
                                      {"traffic.scheme", "opensm"},
                                      {"traffic.senders", "P(000),P(100)"},
                                      {"traffic.members", "P(300)"}};
  std::vector<Override> out = base;
  out.push_back({"traffic.sender_ports", "out_of_tree"});
  const RunResult in = run_ib(base), r = run_ib(out);
  check_clean(r);
  CHECK(stat(r, "multicast.discarded_copies") == 0);
  CHECK(stat(r, "multicast.packets_sent") == 4);
  // IBFT(4,3): each packet climbs from its leaf switch to a root switch
  // (injection + 2 links) and goes down to P(300) (3 links); in the tree it
  // also goes down to the other sender (3 more): 2 x 9 links per trial, out
  // of it 2 x 6.
  CHECK(stat(in, "multicast.link_traversals").at("max") == 18.0);
  CHECK(stat(r, "multicast.link_traversals").at("max") == 12.0);
  CHECK(completion(r) <= completion(in));
}

TEST_CASE("ib_multicast: many-to-many completes no earlier than each member's link allows", "[seed003]") {
  // Every member receives one message of L = 257 flits from every other
  // sender over its one link: completion >= (senders it hears) x L.
  for (const char* scheme : {"cyclic", "opensm", "unicast"}) {
    INFO(scheme);
    const RunResult r = run_ib({{"traffic.scheme", scheme}, {"traffic.sources", "40"}, {"traffic.group", "20"},
                                {"message.size", "256"}, {"switch.buffer", "514"}, {"endpoint.rx_buffer", "257"}});
    check_clean(r);
    CHECK(stat(r, "multicast.completion_cycles").at("count") == 2);
    CHECK(stat(r, "multicast.completion_cycles").at("min").get<std::uint64_t>() >= 39u * 257u);
  }
}

TEST_CASE("ib_multicast: results do not depend on streams", "[seed003]") {
  for (const char* scheme : {"cyclic", "opensm", "unicast"}) {
    INFO(scheme);
    const std::vector<Override> o = {{"traffic.scheme", scheme}, {"traffic.sources", "30"}, {"traffic.group", "30"},
                                     {"message.size", "512"}, {"switch.buffer", "1026"}};
    std::vector<Override> off = o;
    off.push_back({"sim.streams", "off"});
    const RunResult a = run_ib(o), b = run_ib(off);
    check_clean(a);
    check_clean(b);
    CHECK(stat(a, "multicast") == stat(b, "multicast"));
  }
}

TEST_CASE("ib_multicast: bad input is refused with the key", "[seed003]") {
  CHECK_THAT(error_of({{"traffic.members", "P(832)"}}), Contains("traffic.members") && Contains("P(832)"));
  CHECK_THAT(error_of({{"traffic.scheme", "opensm"}, {"traffic.sender_ports", "outside"}}),
             Contains("traffic.sender_ports: 'outside' is not one of in_tree, out_of_tree"));
  CHECK_THAT(error_of({{"traffic.sender_ports", "out_of_tree"}}),
             Contains("traffic.sender_ports applies only to traffic.scheme opensm (scheme is cyclic)"));
  CHECK_THAT(error_of({{"traffic.senders", "P(000),P(000)"}}), Contains("listed twice"));
  CHECK_THAT(error_of({{"traffic.group", "129"}}), Contains("traffic.group") && Contains("128 nodes"));
  CHECK_THAT(error_of({{"topology.m", "7"}}), Contains("topology.m"));
  CHECK_THAT(error_of({{"topology.m", "16"}}), Contains("topology.m") && Contains("65536") && Contains("0xBFFF"));
  CHECK_THAT(error_of({{"topology.m", "6"}}), Contains("topology.m") && Contains("power of two"));
  CHECK_THAT(error_of({{"switch.decoder", "updown"}}), Contains("switch.decoder ib"));
  CHECK_THAT(error_of({{"switch.buffer", "1000"}}), Contains("switch.buffer"));
  CHECK_THAT(error_of({{"traffic.senders", "P(000)"}, {"traffic.members", "P(000)"}}), Contains("never receives"));
}

TEST_CASE("switch.decoder ib refuses a network that is not a fat tree", "[seed003]") {
  std::string err;
  try {
    const RunResult r = run_experiment(test::experiment("", {{"switch.decoder", "ib"}}), RunOptions{});
    err = r.ok ? "no error" : r.error;
  } catch (const std::exception& e) {
    err = e.what();
  }
  CHECK_THAT(err, Contains("not an InfiniBand m-port n-tree"));
}

TEST_CASE("store-and-forward switches deliver uniform unicast exactly once", "[seed003]") {
  const RunResult r = run_experiment(
      test::experiment("", test::short_run({{"switch.admission", "store_and_forward"}, {"traffic.load", "0.05"}})),
      RunOptions{});
  check_clean(r);
  CHECK(r.json.at("metrics").at("packets_delivered").get<std::uint64_t>() > 50);
}

TEST_CASE("synthetic unicast traffic runs on a fat tree, each packet on the DLID the cyclic scheme gives it", "[seed003]") {
  // Packets that address nodes (no LID) take the DLID of (source,
  // destination) by Eqs. 1-2; the IB decoder checks at every switch that the
  // DLID belongs to the destination, so a wrong choice would stop the run.
  const RunResult r = test::run_with({{"topology.kind", "fat_tree"}, {"topology.m", "4"}, {"topology.n", "3"},
                                      {"traffic.load", "0.05"}, {"sim.warmup", "1000"}, {"sim.measure", "20000"}});
  test::check_delivered_exactly_once(r, 50);
  CHECK_FALSE(r.json.at("metrics").at("saturated").get<bool>());
}
