// The embedding API (embed/network.h, embed/multicast.h): whole networks in
// a model whose sc_main and processes are the test's own, as a user's are.
//
// Golden latencies by hand, as in tests/app/test_direct_multicast.cpp: a
// message of B bytes is one worm of L = 1 + B flits (a compound worm to one
// destination: 3 header flits, L = 2 + B + 1); on an idle network its tail
// arrives at c + 1 + 3(h + 1) + (L - 1) for a head leaving at c over h hops,
// after the source's t_S; then the receiver's t_R.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "embed/multicast.h"
#include "embed/network.h"
#include "rtl_models/core/kernel.h"
#include "testbenches/app/config.h"
#include "testbenches/app/runner.h"
#include "testbenches/app/workloads/direct_multicast_workload.h"
#include "testbenches/app/workloads/multicast_workload.h"
#include "tests/common/runs.h"
#include "tlm/ni_protocol.h"

using namespace wormcast;
using Catch::Matchers::Contains;

namespace {

std::string source_file(const char* f) { return std::string(WORMCAST_SOURCE_DIR) + "/" + f; }

// A user's process that asks for one multicast at cycle `at`.
struct Asker : sc_core::sc_module {
  SC_HAS_PROCESS(Asker);
  Asker(sc_core::sc_module_name n, embed::Network& net, embed::DirectMulticast& s, rtl::NodeId src,
        std::vector<rtl::NodeId> dests, int bytes, Cycle at)
      : sc_core::sc_module(n), net_(net), s_(s), src_(src), dests_(std::move(dests)), bytes_(bytes), at_(at) {
    SC_THREAD(run);
  }
  void run() {
    sc_core::wait(net_.clock().delay(at_));
    m = s_.multicast(src_, dests_, bytes_);
  }
  embed::Network& net_;
  embed::DirectMulticast& s_;
  rtl::NodeId src_;
  std::vector<rtl::NodeId> dests_;
  int bytes_;
  Cycle at_;
  std::shared_ptr<const embed::Multicast> m;
};

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("embed: a network from settings takes packets from the user's code and names its nodes' limits") {
  rtl::fresh_kernel();
  embed::Network net(embed::config_from_settings({"topology.kind=torus", "topology.dims=[4, 4]"}), "net");
  REQUIRE(net.num_nodes() == 16);
  Cycle got = 0;
  int received = 0;
  net.endpoint(5).on_receive = [&](const rtl::Packet& p, Cycle at) {
    CHECK(p.src == 0);
    got = at;
    ++received;
  };
  auto p = std::make_shared<rtl::Packet>();
  p->header.dest = 5;
  p->length = 8;
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  net.endpoint(0).inject(p);
  sc_core::sc_start(net.clock().delay(1000));
  CHECK(received == 1);
  CHECK(got > 0);
  const nlohmann::json s = net.statistics();
  CHECK(s.at("packets").at("delivered") == 1);
  CHECK(s.at("packets").at("outstanding") == 0);
  CHECK(s.at("latency_cycles").at("count") == 1);
  CHECK(s.at("latency_cycles").at("max") == got);   // created at cycle 0
  CHECK(s.at("cycles") == 1000);
  CHECK_FALSE(net.deadlocked());
  CHECK_THAT(error_of([&] { net.node(16); }), Contains("node 16 does not exist") && Contains("0..15"));
  CHECK_THAT(error_of([&] { net.processor(3); }), Contains("node 3 runs no software: node.model is endpoint"));
}

TEST_CASE("embed: bad configurations are refused naming the file, the key and the value") {
  rtl::fresh_kernel();
  CHECK_THAT(error_of([] { embed::config_from_settings({"topology.kind=torrus"}); }),
             Contains("topology.kind") && Contains("torrus"));
  CHECK_THAT(error_of([] { embed::config_from_settings({"topology.dims"}); }), Contains("topology.dims"));
  CHECK_THAT(error_of([] { embed::config_from_file("no/such/file.yaml"); }), Contains("no/such/file.yaml"));
  CHECK_THAT(error_of([] { embed::config_from_file(""); }), Contains("config_from_settings"));
}

TEST_CASE("embed: a direct multicast asked by a user process costs what the hand formula says") {
  // t_S = 20, t_R = 16, 64 bytes, one hop (0,0) -> (0,1), asked at cycle 50:
  // a unicast (utorus.yaml, 3-cycle hops) arrives at 50 + 20 + 1 + 2 x 3 +
  // 64 = 141, received at 157: latency 107; a compound worm (storus,
  // mdtorus; path_torus.yaml, one-cycle hops) of 2 more flits arrives at
  // 50 + 20 + 1 + 2 x 1 + 66 = 139, received at 155: latency 105.
  for (const char* scheme : {"utorus", "storus", "mdtorus"}) {
    INFO(scheme);
    rtl::fresh_kernel();
    const bool unicast = std::string(scheme) == "utorus";
    embed::Network net(embed::config_from_file(
        source_file(unicast ? "experiments/seed001/utorus.yaml" : "experiments/seed001/path_torus.yaml")));
    embed::DirectMulticast service(net, scheme);
    Asker a("asker", net, service, 0, {1}, 64, 50);
    std::vector<std::pair<rtl::NodeId, Cycle>> seen;
    service.on_delivery([&](const embed::Multicast&, rtl::NodeId n, Cycle at) { seen.emplace_back(n, at); });
    sc_core::sc_start(net.clock().delay(2000));
    REQUIRE(a.m);
    REQUIRE(a.m->complete());
    CHECK(a.m->requested() == 50);
    CHECK(a.m->latency() == (unicast ? 107 : 105));
    CHECK(a.m->messages_sent() == 1);
    REQUIRE(seen.size() == 1);
    CHECK(seen[0] == std::make_pair(rtl::NodeId{1}, static_cast<Cycle>(unicast ? 157 : 155)));
  }
}

TEST_CASE("embed: every scheme's multicast equals the direct_multicast workload's trial on the same set") {
  // The same multicast through `wormcast run` (one trial from cycle 0) and
  // through the service (asked before sc_start): the same model, so the
  // same latency, and the plan's messages.
  struct Case { const char* file; const char* scheme; int source; const char* dests; std::vector<rtl::NodeId> ids; };
  const Case cases[] = {
      {"experiments/seed001/utorus.yaml", "utorus", 5, "0,3,9,14,15", {0, 3, 9, 14, 15}},
      {"experiments/seed001/path_torus.yaml", "mdtorus", 5, "0,3,9,14,15", {0, 3, 9, 14, 15}},
      {"experiments/seed001/path_torus.yaml", "storus", 5, "0,3,9,14,15", {0, 3, 9, 14, 15}},
      {"experiments/seed001/hypercube.yaml", "wsort", 0, "000100,000010,001000,000111,001111,001010", {4, 2, 8, 7, 15, 10}},
      // seed004: SCI packets of 64 bytes, the root polling (multi-packet messages)
      {"experiments/seed004/sci_torus.yaml", "sci-mdtorus", 5, "0,3,9,14,15", {0, 3, 9, 14, 15}},
      {"experiments/seed004/sci_torus.yaml", "sci-utorus", 5, "0,3,9,14,15", {0, 3, 9, 14, 15}},
  };
  for (const Case& c : cases) {
    INFO(c.scheme);
    const std::vector<tb::Override> o = {{"traffic.scheme", c.scheme}, {"traffic.source", std::to_string(c.source)},
                                         {"traffic.destinations", c.dests}, {"traffic.trials", "1"}};
    const tb::RunResult r = tb::run_experiment(test::experiment(c.file, o), {});
    INFO(r.error);
    REQUIRE(r.ok);
    const auto run_latency = test::metric(r, "multicast.latency_cycles").at("max").get<Cycle>();

    const int bytes = test::experiment(c.file, o).workload_as<tb::DirectMulticastWorkload>().message.size;
    rtl::fresh_kernel();
    embed::Network net(embed::config_from_file(source_file(c.file)));
    embed::DirectMulticast service(net, c.scheme);
    const auto m = service.multicast(c.source, c.ids, bytes);
    sc_core::sc_start(net.clock().delay(20000));
    REQUIRE(m->complete());
    CHECK(m->latency() == run_latency);
    CHECK(m->messages_sent() == m->planned_messages());
    CHECK(m->deliveries().size() == c.ids.size());
    CHECK(net.packets_outstanding() == 0);
  }
}

TEST_CASE("embed: concurrent multicasts from several sources each reach their destinations once") {
  rtl::fresh_kernel();
  embed::Network net(embed::config_from_file(source_file("experiments/seed001/utorus.yaml")));
  embed::DirectMulticast service(net, "utorus");
  // Three multicasts on their way at once, two sharing destinations.
  Asker a("a", net, service, 0, {1, 2, 3, 9, 17, 33, 63}, 200, 10);
  Asker b("b", net, service, 9, {0, 1, 2, 3, 40}, 200, 12);
  Asker c("c", net, service, 40, {9, 10, 11}, 200, 12);
  sc_core::sc_start(net.clock().delay(50000));
  for (const Asker* x : {&a, &b, &c}) {
    REQUIRE(x->m);
    CHECK(x->m->complete());
    CHECK(x->m->messages_sent() == static_cast<int>(x->m->destinations().size()));   // U-torus: a unicast each
    std::vector<rtl::NodeId> got;
    for (const auto& d : x->m->deliveries()) got.push_back(d.node);
    std::sort(got.begin(), got.end());
    std::vector<rtl::NodeId> want = x->m->destinations();
    std::sort(want.begin(), want.end());
    CHECK(got == want);
  }
  CHECK(service.multicasts().size() == 3);
  CHECK(net.packets_outstanding() == 0);
  CHECK(net.messages_outstanding() == 0);
}

TEST_CASE("embed: the service refuses networks, nodes and sets it cannot serve") {
  rtl::fresh_kernel();
  {
    embed::Network sw(embed::config_from_settings({}), "switches");
    CHECK_THAT(error_of([&] { embed::DirectMulticast(sw, "utorus"); }),
               Contains("needs a direct network") && Contains("topology.kind irregular"));
  }
  embed::Network ep(embed::config_from_settings({"topology.kind=torus", "topology.dims=[4, 4]"}), "endpoints");
  CHECK_THAT(error_of([&] { embed::DirectMulticast(ep, "utorus"); }), Contains("node.model is endpoint"));
  embed::Network net(embed::config_from_settings({"topology.kind=torus", "topology.dims=[4, 4]", "node.model=processor"}),
                     "procs");
  CHECK_THAT(error_of([&] { embed::DirectMulticast(net, "no-such-scheme"); }), Contains("no-such-scheme"));
  CHECK_THAT(error_of([&] { embed::DirectMulticast(net, "wsort"); }), Contains("hypercube"));
  embed::DirectMulticast s(net, "utorus");
  CHECK_THAT(error_of([&] { s.multicast(16, {1}, 8); }), Contains("no such node") && Contains("0..15"));
  CHECK_THAT(error_of([&] { s.multicast(0, {}, 8); }), Contains("no destinations"));
  CHECK_THAT(error_of([&] { s.multicast(0, {0, 1}, 8); }), Contains("not its own destination"));
  CHECK_THAT(error_of([&] { s.multicast(0, {1, 1}, 8); }), Contains("destination 1 listed twice"));
  CHECK_THAT(error_of([&] { s.multicast(0, {1}, 0); }), Contains("0 bytes"));
  CHECK(s.multicasts().empty());
}

TEST_CASE("embed: a deadlock calls the user's handler and the user's simulation goes on") {
  // A unidirectional ring of 6 with a cyclic single-VC routing (the check
  // switched off) and one-flit buffers: every node sends long packets three
  // hops on, which deadlocks (tests/app/test_direct_network.cpp).
  rtl::fresh_kernel();
  embed::Network net(embed::config_from_settings({"topology.kind=torus", "topology.dims=[6]",
                                                  "topology.direction=unidirectional",
                                                  "routing.function=broken_single_vc_ring", "routing.check=never",
                                                  "router.buffer=1", "sim.watchdog=500"}),
                     "ring");
  std::string report;
  int calls = 0;
  net.on_deadlock([&](const std::string& r) {
    report = r;
    ++calls;
  });
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  for (int n = 0; n < 6; ++n)
    for (int k = 0; k < 4; ++k) {
      auto p = std::make_shared<rtl::Packet>();
      p->header.dest = (n + 3) % 6;
      p->length = 16;
      net.endpoint(n).inject(p);
    }
  sc_core::sc_start(net.clock().delay(20000));
  CHECK(calls == 1);
  CHECK(net.deadlocked());
  CHECK(net.packets_outstanding() > 0);
  CHECK_THAT(report, Contains("no flit moved for 500 cycles") && Contains("waiting for"));
  CHECK(net.deadlock_report() == report);
  CHECK(net.now() == 20000);   // not stopped by the watchdog
}

namespace {

// A user's memory behind a node's I/O bus: counts the message completions
// the NI writes.
struct UserMemory : sc_core::sc_module {
  tlm_utils::simple_target_socket<UserMemory> socket;
  explicit UserMemory(sc_core::sc_module_name n) : sc_core::sc_module(n), socket("socket") {
    socket.register_b_transport(this, &UserMemory::b_transport);
  }
  void b_transport(::tlm::tlm_generic_payload& t, sc_core::sc_time&) {
    if (auto* c = t.get_extension<wormcast::tlm::CompletionExtension>()) completions.push_back(c->message);
    t.set_response_status(::tlm::TLM_OK_RESPONSE);
  }
  std::vector<std::uint64_t> completions;
};

// A user's CPU: posts one send descriptor to its NI at cycle 10.
struct UserCpu : sc_core::sc_module {
  SC_HAS_PROCESS(UserCpu);
  tlm_utils::simple_initiator_socket<UserCpu> ni;
  UserCpu(sc_core::sc_module_name n, const rtl::Clock& c, int dest) : sc_core::sc_module(n), ni("ni"), clock(c), dest_(dest) {
    SC_THREAD(run);
  }
  void run() {
    sc_core::wait(clock.delay(10));
    d_ = {77, dest_, 512, 0x1000};
    wormcast::tlm::prepare(t_, ::tlm::TLM_WRITE_COMMAND, wormcast::tlm::kRegSendDoorbell, &d_, sizeof d_);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    ni->b_transport(t_, delay);
    ok = !t_.is_response_error();
  }
  const rtl::Clock& clock;
  int dest_;
  wormcast::tlm::SendDescriptor d_{};
  ::tlm::tlm_generic_payload t_;
  bool ok = false;
};

}  // namespace

TEST_CASE("embed: with user_hosts, the user's CPU and memories drive the NIs of a whole switch network") {
  rtl::fresh_kernel();
  embed::NetworkOptions o;
  o.user_hosts = true;
  embed::Network net(embed::config_from_settings({"node.model=host_ni"}), "net", o);
  REQUIRE(net.num_nodes() == 32);
  std::vector<std::unique_ptr<UserMemory>> mem;
  for (int i = 0; i < net.num_nodes(); ++i) {
    mem.push_back(std::make_unique<UserMemory>(("mem" + std::to_string(i)).c_str()));
    net.io_bus(i).to_memory.bind(mem.back()->socket);
  }
  UserCpu cpu("cpu", net.clock(), 5);
  cpu.ni.bind(net.ni(0).host_port);
  for (int i = 1; i < net.num_nodes(); ++i) net.idle_cpu(i);
  CHECK_THAT(error_of([&] { net.processor(0); }), Contains("its host is the user's"));
  sc_core::sc_start(net.clock().delay(100000));
  CHECK(cpu.ok);
  CHECK(mem[5]->completions == std::vector<std::uint64_t>{77});   // the message, once, at its destination
  for (int i = 0; i < net.num_nodes(); ++i)
    if (i != 5) CHECK(mem[static_cast<std::size_t>(i)]->completions.empty());
  CHECK(net.packets_outstanding() == 0);
  const nlohmann::json s = net.statistics();
  CHECK(s.at("packets").at("delivered").get<int>() >= 1);
  CHECK(s.at("nodes").at("host_busy_fraction").at("max") == 0.0);   // no wormcast host
  CHECK(s.at("nodes").at("ni_busy_fraction").at("max").get<double>() > 0.0);
}

TEST_CASE("embed: user_hosts needs NIs") {
  rtl::fresh_kernel();
  embed::NetworkOptions o;
  o.user_hosts = true;
  CHECK_THAT(error_of([&] { embed::Network(embed::config_from_settings({}), "net", o); }),
             Contains("needs node.model host_ni, not endpoint"));
  embed::Network ep(embed::config_from_settings({}), "ep");
  CHECK_THAT(error_of([&] { ep.ni(0); }), Contains("node 0 has no NI: node.model is endpoint"));
}

TEST_CASE("embed: a switch-network multicast through the service equals the single_multicast workload's") {
  // The NIs' k-binomial tree (seed002) and path-based worms (seed000) on the
  // default 32-node irregular network of hosts and NIs, one multicast from
  // node 0 each way: the same model, so the same latency.
  struct Case { const char* scheme; std::vector<tb::Override> more; };
  // (`ni` with conventional firmware: each destination its own copy from
  // the source's NI, the workload's traffic.conventional separate.)
  const Case cases[] = {{"ni", {{"ni.firmware", "fpfs"}}},
                        {"ni", {{"ni.firmware", "fcfs"}, {"traffic.k", "2"}}},
                        {"ni", {{"ni.firmware", "conventional"}, {"traffic.conventional", "separate"}}},
                        {"path-lg", {{"switch.decoder", "multicast"}}},
                        {"tree", {{"switch.decoder", "multicast"}}}};
  for (const Case& c : cases) {
    INFO(c.scheme << " " << (c.more.empty() ? "" : c.more[0].value));
    std::vector<tb::Override> o = {{"node.model", "host_ni"},        {"traffic.kind", "single_multicast"},
                                   {"traffic.scheme", c.scheme},      {"traffic.source", "0"},
                                   {"traffic.destinations", "3,7,12,20,31"}, {"traffic.repetitions", "1"}};
    o.insert(o.end(), c.more.begin(), c.more.end());
    const tb::RunResult r = test::run_with(o);
    INFO(r.error);
    REQUIRE(r.ok);
    const auto run_latency = test::metric(r, "multicast.latency_cycles").at("max").get<Cycle>();
    tb::ExperimentConfig cfg;
    cfg.set(o);
    const int bytes = cfg.workload_as<tb::SingleMulticastWorkload>().message.size;

    rtl::fresh_kernel();
    embed::Network net(cfg);
    const int k = cfg.workload_as<tb::SingleMulticastWorkload>().k;
    embed::SwitchMulticast service(net, c.scheme, k > 0 ? std::map<std::string, std::string>{{"k", std::to_string(k)}}
                                                        : std::map<std::string, std::string>{});
    const auto m = service.multicast(0, {3, 7, 12, 20, 31}, bytes);
    sc_core::sc_start(net.clock().delay(2000000));
    REQUIRE(m->complete());
    CHECK(m->latency() == run_latency);
    CHECK(m->messages_sent() == m->planned_messages());
    CHECK(m->deliveries().size() == 5);
    CHECK(net.packets_outstanding() == 0);
    if (std::string(c.scheme) == "ni") CHECK(m->messages_sent() == 1);   // the NIs relay it
  }
}

TEST_CASE("embed: the switch-network service refuses networks, nodes, schemes and options it cannot serve") {
  rtl::fresh_kernel();
  {
    embed::Network torus(embed::config_from_settings({"topology.kind=torus", "topology.dims=[4, 4]",
                                                      "node.model=processor"}), "torus");
    CHECK_THAT(error_of([&] { embed::SwitchMulticast(torus, "ni"); }),
               Contains("needs a switch network") && Contains("topology.kind torus"));
  }
  embed::Network ep(embed::config_from_settings({}), "endpoints");
  CHECK_THAT(error_of([&] { embed::SwitchMulticast(ep, "ni"); }), Contains("runs on hosts with NIs") && Contains("endpoint"));
  embed::Network net(embed::config_from_settings({"node.model=host_ni"}), "hosts");
  CHECK_THAT(error_of([&] { embed::SwitchMulticast(net, "no-such"); }), Contains("no-such") && Contains("path-lg"));
  CHECK_THAT(error_of([&] { embed::SwitchMulticast(net, "path-lg"); }), Contains("needs switch.decoder"));
  CHECK_THAT(error_of([&] { embed::SwitchMulticast(net, "ni", {{"k", "abc"}}); }), Contains("option k 'abc'"));
  CHECK_THAT(error_of([&] { embed::SwitchMulticast(net, "ni", {{"r", "2"}}); }), Contains("no option 'r'"));
}

TEST_CASE("embed: an InfiniBand multicast through the service equals the ib_multicast workload's trial") {
  // seed003's fat tree IBFT(8,3) (128 HCAs) with its experiment settings;
  // fixed senders and members, one trial: the same tables, packets and
  // fabric, so the same completion. The service's packets enter the HCA in
  // the cycle after the call, as the workload's do after the trial starts:
  // its latencies are the workload's times plus that one cycle.
  struct Case {
    const char* scheme;
    std::vector<rtl::NodeId> senders, members;
    int mtu;
    std::map<std::string, std::string> options;
  };
  const std::vector<rtl::NodeId> group = {3, 17, 20, 45, 46, 64, 77, 90, 101, 127};
  const Case cases[] = {{"cyclic", {0}, group, 0, {}},
                        {"cyclic", {0, 64, 99}, group, 256, {}},
                        {"opensm", {5, 17, 99}, group, 0, {}},   // 5 and 99 join SendOnly: copies reach them
                        {"opensm", {5, 17, 99}, group, 0, {{"sender_ports", "out_of_tree"}}},   // no copy to them
                        {"unicast", {0, 45}, group, 0, {}}};
  const topo::FatTree tree(8, 3);
  auto labels = [&tree](const std::vector<rtl::NodeId>& v) {
    std::string s;
    for (rtl::NodeId x : v) s += (s.empty() ? "" : ",") + tree.node_name(x);
    return s;
  };
  // The workload's runs first: one embedded network then serves every case
  // in turn on a quiet fabric (an embedded fat tree per case leaves its
  // SystemC context behind when the next run starts, which the leak check
  // reports).
  struct Want {
    Cycle completion;
    double mean;
    std::uint64_t discarded;
  };
  std::vector<Want> want;
  for (const Case& c : cases) {
    std::vector<tb::Override> o = {{"traffic.scheme", c.scheme},        {"traffic.senders", labels(c.senders)},
                                   {"traffic.members", labels(c.members)}, {"traffic.trials", "1"},
                                   {"traffic.mtu", std::to_string(c.mtu)}};
    for (const auto& [key, text] : c.options) o.push_back({"traffic." + key, text});
    const tb::RunResult r = tb::run_experiment(test::experiment("experiments/seed003/ib_fat_tree.yaml", o), {});
    INFO(r.error);
    REQUIRE(r.ok);
    want.push_back({test::metric(r, "multicast.completion_cycles").at("max").get<Cycle>(),
                    test::metric(r, "multicast.mean_delivery_cycles").at("max").get<double>(),
                    test::metric(r, "multicast.discarded_copies").get<std::uint64_t>()});
  }
  rtl::fresh_kernel();
  embed::Network net(test::experiment("experiments/seed003/ib_fat_tree.yaml", {}));
  for (std::size_t i = 0; i < std::size(cases); ++i) {
    const Case& c = cases[i];
    INFO(c.scheme << " senders " << c.senders.size() << " mtu " << c.mtu);
    embed::IbMulticast service(net, c.scheme, {1, 1, c.mtu}, c.options);
    service.set_group(c.senders, c.members);
    std::vector<std::shared_ptr<const embed::Multicast>> sent;
    for (rtl::NodeId s : c.senders) sent.push_back(service.multicast(s, 1024));
    sc_core::sc_start(net.clock().delay(10000000));
    Cycle last = 0;
    double sum = 0;
    int pairs = 0;
    for (const auto& m : sent) {
      REQUIRE(m->complete());
      last = std::max(last, m->latency());
      for (const embed::Multicast::Delivery& d : m->deliveries()) {
        sum += static_cast<double>(d.at - m->requested() - 1);
        ++pairs;
      }
      CHECK(m->messages_sent() == m->planned_messages());
    }
    CHECK(last == want[i].completion + 1);
    // The fabric's arbiters keep their round-robin state from case to case:
    // ties between packets may fall the other way than on the workload's
    // fresh network, which moves single deliveries but not these
    // completions. The first case runs on a fresh fabric, as the workload's.
    if (i == 0) CHECK(sum / pairs == Approx(want[i].mean).epsilon(1e-12));
    CHECK(service.discarded_copies() == want[i].discarded);
    CHECK(net.packets_outstanding() == 0);
    if (std::string(c.scheme) == "opensm") CHECK((want[i].discarded > 0) == c.options.empty());
  }
}

TEST_CASE("embed: the InfiniBand service refuses networks, groups and senders it cannot serve") {
  rtl::fresh_kernel();
  {
    embed::Network sw(embed::config_from_settings({}), "irregular");
    CHECK_THAT(error_of([&] { embed::IbMulticast(sw, "cyclic"); }),
               Contains("needs an InfiniBand fat tree") && Contains("switch.decoder"));
  }
  rtl::fresh_kernel();   // the refused network's modules are gone; simulate a kernel without them
  const tb::ExperimentConfig cfg = test::experiment("experiments/seed003/ib_fat_tree.yaml", {});
  embed::Network net(cfg, "ib");
  CHECK_THAT(error_of([&] { embed::IbMulticast(net, "no-such"); }), Contains("no-such") && Contains("opensm"));
  CHECK_THAT(error_of([&] { embed::IbMulticast(net, "cyclic", {}, {{"sender_ports", "out_of_tree"}}); }),
             Contains("sender_ports") && Contains("opensm"));
  CHECK_THAT(error_of([&] { embed::IbMulticast(net, "opensm", {}, {{"sender_ports", "nowhere"}}); }),
             Contains("'nowhere' is not one of in_tree, out_of_tree"));
  embed::IbMulticast s(net, "cyclic");
  CHECK_THAT(error_of([&] { s.set_group({0}, {}); }), Contains("no member"));
  CHECK_THAT(error_of([&] { s.set_group({0}, {3, 3}); }), Contains("member 3 listed twice"));
  CHECK_THAT(error_of([&] { s.set_group({200}, {3}); }), Contains("sender 200 is no node"));
  s.set_group({0}, {3, 4});
  CHECK_THAT(error_of([&] { s.multicast(1, 64); }), Contains("not a sender of the group"));
  CHECK_THAT(error_of([&] { s.multicast(0, 0); }), Contains("a message of 0 bytes"));
  s.multicast(0, 64);
  CHECK_THAT(error_of([&] { s.set_group({0}, {5}); }), Contains("still in flight"));
  sc_core::sc_start(net.clock().delay(100000));
  s.set_group({0}, {5});   // quiet again
  CHECK(s.multicasts().size() == 1);
  CHECK(s.multicasts()[0]->complete());
}
