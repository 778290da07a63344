// Example: a user's traffic module multicasting on an embedded wormcast torus.
//
// The network comes from an experiment file (torus.yaml beside this file, or
// the file given on the command line): an 8x8 unidirectional torus of
// wormcast routers with a processor at each node. A user module, Traffic,
// asks the processors to multicast with a scheme of seed001 (U-torus by
// default: unicasts along a recursive-doubling tree; md-torus, s-torus,
// ... by name; md-torus and s-torus need routing.function utpr, as in
// experiments/seed001/path_torus.yaml), waits for each multicast to complete, and prints its
// latency next to the scheme's planned message count. The deadlock
// handler reports a deadlock without ending the simulation. Exit code 0
// when every multicast reached every destination exactly once.
//
//   torus_multicast [experiment.yaml [scheme [multicasts]]]
#include <systemc>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include <wormcast/embed/multicast.h>
#include <wormcast/embed/network.h>

namespace embed = wormcast::embed;

// A user's module: `count` multicasts from rotating sources, each to the
// nodes at distance 1..size along the node numbering, one after another.
struct Traffic : sc_core::sc_module {
  SC_HAS_PROCESS(Traffic);
  Traffic(sc_core::sc_module_name n, embed::Network& net, embed::DirectMulticast& service, int count, int size)
      : sc_core::sc_module(n), net_(net), service_(service), count_(count), size_(size) {
    SC_THREAD(run);
  }
  void run() {
    const int nodes = net_.num_nodes();
    for (int i = 0; i < count_; ++i) {
      const int source = (i * 7) % nodes;
      {
        std::vector<int> dests;
        for (int d = 1; d <= size_; ++d) dests.push_back((source + d * 5) % nodes);
        current_ = service_.multicast(source, dests, 256);
      }
      sc_core::wait(current_->completed());
      std::printf("multicast %d from node %d to %d nodes: %llu cycles, %d messages (plan: %d, %d steps)\n", i + 1,
                  source, size_, static_cast<unsigned long long>(current_->latency()), current_->messages_sent(),
                  current_->planned_messages(), current_->planned_steps());
      sc_core::wait(net_.clock().delay(100));
    }
    done = true;
  }
  embed::Network& net_;
  embed::DirectMulticast& service_;
  int count_, size_;
  std::shared_ptr<const embed::Multicast> current_;   // a member: a thread's locals are not unwound
  bool done = false;
};

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char* argv[]) {
  const std::string file = argc > 1 ? argv[1] : std::string(EXAMPLE_DIR) + "/torus.yaml";
  const std::string scheme = argc > 2 ? argv[2] : "utorus";
  const int count = argc > 3 ? std::atoi(argv[3]) : 8;
  if (count < 1) {
    std::fprintf(stderr, "usage: torus_multicast [experiment.yaml [scheme [multicasts >= 1]]]\n");
    return 2;
  }
  try {
    embed::Network net(embed::config_from_file(file));
    embed::DirectMulticast service(net, scheme);
    Traffic traffic("traffic", net, service, count, 12);
    bool deadlock = false;
    net.on_deadlock([&](const std::string& report) {
      deadlock = true;
      std::fprintf(stderr, "deadlock reported by wormcast:\n%s", report.c_str());
    });
    sc_core::sc_start();   // until nothing is left to do
    bool ok = traffic.done && !deadlock;
    for (const auto& m : service.multicasts()) ok = ok && m->complete() && m->messages_sent() == m->planned_messages();
    wormcast::Cycle last = 0;
    for (const auto& m : service.multicasts())
      for (const auto& d : m->deliveries()) last = std::max(last, d.at);
    const auto stats = net.statistics();
    std::printf("%s on %s: %d multicasts, %llu packets delivered, the last at cycle %llu\n", scheme.c_str(),
                file.c_str(), count, stats.at("packets").at("delivered").get<unsigned long long>(),
                static_cast<unsigned long long>(last));
    std::printf("%s\n", ok ? "every multicast reached every destination exactly once" : "FAILED");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "torus_multicast: %s\n", e.what());
    return 1;
  }
}
