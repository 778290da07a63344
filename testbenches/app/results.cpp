#include "testbenches/app/results.h"

#include "testbenches/app/atomic_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <utility>
#include <fstream>
#include <stdexcept>

namespace wormcast::tb {

namespace {
void flatten_into(const nlohmann::json& j, const std::string& prefix, nlohmann::json& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      flatten_into(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
  } else if (j.is_array()) {
    std::string s;
    for (const auto& e : j) s += (s.empty() ? "" : ";") + (e.is_string() ? e.get<std::string>() : e.dump());
    out[prefix] = s;
  } else {
    out[prefix] = j;
  }
}

std::string csv_cell(const nlohmann::json& v) {
  std::string s = v.is_string() ? v.get<std::string>() : v.dump();
  if (s.find_first_of(",\"\n") != std::string::npos) {
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  }
  return s;
}

}  // namespace

nlohmann::json flatten(const nlohmann::json& j) {
  nlohmann::json out = nlohmann::json::object();
  flatten_into(j, "", out);
  return out;
}

void write_json_file(const nlohmann::json& j, const std::string& path) { write_file_atomic(path, j.dump(2) + "\n"); }

void write_csv_file(const nlohmann::json& j, const std::string& path) {
  // The statistics' metadata (unit, meaning, owner of each metric) is the
  // same for every row of a sweep: it stays in the JSON file.
  nlohmann::json row = j;
  if (row.is_object()) row.erase("statistics");
  const nlohmann::json flat = flatten(row);
  AtomicFile f(path);
  bool first = true;
  for (auto it = flat.begin(); it != flat.end(); ++it) {
    f << (first ? "" : ",") << csv_cell(it.key());
    first = false;
  }
  f << "\n";
  first = true;
  for (auto it = flat.begin(); it != flat.end(); ++it) {
    f << (first ? "" : ",") << csv_cell(it.value());
    first = false;
  }
  f << "\n";
  f.commit();
}

namespace {

// The multicast workloads' lines of the summary, if they measured any multicast.
template <class Row>
void print_multicast_summary(const nlohmann::json& mc, const Row& row) {
  if (mc.contains("completion_cycles") && mc["completion_cycles"].value("count", 0) > 0) {   // ib_multicast
    const auto& c = mc.at("completion_cycles");
    row("trials / completion mean / max (cycles)",
        fmt::format("{} / {:.1f} / {}  ({:.3f} us mean)", c.value("count", 0), c.value("mean", 0.0), c.value("max", 0),
                    c.value("mean_us", 0.0)));
  }
  if (!mc.contains("latency_cycles") || mc["latency_cycles"].value("count", 0) == 0) return;
  const auto& ml = mc.at("latency_cycles");
  row("multicasts / latency mean / max (cycles)",
      fmt::format("{} / {:.1f} / {}  ({:.3f} us mean)", ml.value("count", 0), ml.value("mean", 0.0),
                  ml.value("max", 0), ml.value("mean_us", 0.0)));
  if (mc.contains("root_busy_cycles") && mc.contains("concurrency"))
    row("  root busy (cycles) / concurrency, mean",
        fmt::format("{:.1f} / {:.2f}", mc["root_busy_cycles"].value("mean", 0.0), mc["concurrency"].value("mean", 0.0)));
}

// The node model's latency components (messages.breakdown_mean_cycles), in
// the order a message passes them: one row for those before the network,
// one for the network, one for those after it. A model names only the
// parts it has (a processor node has no I/O bus or NI).
template <class Row>
void print_latency_parts(const nlohmann::json& b, const Row& row) {
  static const std::pair<const char*, const char*> kOrder[] = {
      {"host_send", "host send"},   {"send", "send (t_S)"},       {"io_bus_send", "I/O bus"},
      {"ni_send", "NI send"},       {"source_queue", "source queue"}, {"network", "network"},
      {"ni_receive", "NI receive"}, {"io_bus_receive", "I/O bus"}, {"host_receive", "host receive"},
      {"receive", "receive (t_R)"}};
  std::string labels, values;
  auto flush = [&] {
    if (!labels.empty()) row("  " + labels, values);
    labels.clear();
    values.clear();
  };
  for (const auto& [key, label] : kOrder) {
    if (!b.contains(key)) continue;
    if (std::string(key) == "network") flush();
    labels += (labels.empty() ? "" : " / ") + std::string(label);
    values += (values.empty() ? "" : " / ") + fmt::format("{:.1f}", b.value(key, 0.0));
    if (std::string(key) == "network") flush();
  }
  flush();
  for (const auto& [key, v] : b.items()) {   // a part this list does not know yet: shown by its key
    const bool known = std::any_of(std::begin(kOrder), std::end(kOrder), [&](const auto& o) { return key == o.first; });
    if (!known) row("  " + key, fmt::format("{:.1f}", v.template get<double>()));
  }
}

// What the network is made of, as its kind describes it: switches or
// routers, nodes, and links (switch networks: full-duplex switch-to-switch
// links) or channels (direct networks: one per direction between routers).
template <class Row>
void print_element_counts(const nlohmann::json& topo, const Row& row) {
  std::string labels, values;
  for (const char* key : {"switches", "routers", "nodes", "links", "channels"}) {
    if (!topo.contains(key)) continue;
    labels += (labels.empty() ? "" : " / ") + std::string(key);
    values += (values.empty() ? "" : " / ") + topo.at(key).dump();
  }
  if (!labels.empty()) row(labels, values);
}

}  // namespace

void print_summary(const nlohmann::json& j, std::ostream& os) {
  const auto& m = j.at("metrics");
  const auto& lat = m.at("latency_cycles");
  const auto& inv = j.at("invariants");
  const auto& perf = j.at("performance");
  auto row = [&](const std::string& k, const std::string& v) { os << fmt::format("  {:<40} {}\n", k, v); };
  os << fmt::format("wormcast {} — experiment '{}' (seed {})\n", j.value("wormcast_version", "?"),
                    j.value("experiment", "?"), j.value("seed", 0));
  row("topology", j.at("topology").value("description", ""));
  print_element_counts(j.at("topology"), row);
  row("cycles simulated", fmt::format("{}", m.value("cycles_simulated", 0)));
  row("packets created / delivered", fmt::format("{} / {}", m.value("packets_created", 0), m.value("packets_delivered", 0)));
  if (m.contains("offered_load")) {   // workloads with a window; not those of trials
    row("offered load (flits/cycle/node)", fmt::format("{:.4f}", m.value("offered_load", 0.0)));
    row("accepted throughput (flits/cycle/node)", fmt::format("{:.4f}", m.value("accepted_throughput", 0.0)));
  }
  if (lat.value("count", 0) > 0) {
    row("packet latency mean (cycles)", fmt::format("{:.2f}  ({:.3f} us)", lat.value("mean", 0.0), lat.value("mean_us", 0.0)));
    row("packet latency p50/p95/p99/max", fmt::format("{} / {} / {} / {}", lat.value("p50", 0), lat.value("p95", 0),
                                                     lat.value("p99", 0), lat.value("max", 0)));
    row("network latency mean (cycles)", fmt::format("{:.2f}", m.at("network_latency_cycles").value("mean", 0.0)));
  } else {
    row("packet latency", "no measured packets");
  }
  if (m.contains("messages")) {
    const auto& mm = m.at("messages");
    const auto& ml = mm.at("latency_cycles");
    row("messages sent / received", fmt::format("{} / {}", mm.value("sent", 0), mm.value("received", 0)));
    if (ml.value("count", 0) > 0) {
      row("message latency mean (cycles)", fmt::format("{:.2f}  ({:.3f} us)", ml.value("mean", 0.0), ml.value("mean_us", 0.0)));
      row("message latency p50/p95/p99/max", fmt::format("{} / {} / {} / {}", ml.value("p50", 0), ml.value("p95", 0),
                                                        ml.value("p99", 0), ml.value("max", 0)));
      if (mm.contains("source_wait_cycles") && mm["source_wait_cycles"].value("count", 0) > 0)
        row("  before: wait at source mean / max", fmt::format("{:.1f} / {}", mm["source_wait_cycles"].value("mean", 0.0),
                                                                mm["source_wait_cycles"].value("max", 0)));
      print_latency_parts(mm.at("breakdown_mean_cycles"), row);
    }
    const auto& nd = m.at("nodes");
    if (nd.contains("cpu_busy_fraction")) {   // node.model processor: one CPU, no NI
      row("processor CPU busy mean / max", fmt::format("{:.3f} / {:.3f}", nd["cpu_busy_fraction"].value("mean", 0.0),
                                                       nd["cpu_busy_fraction"].value("max", 0.0)));
    } else {
      row("host / NI busy, I/O bus util (mean)",
          fmt::format("{:.3f} / {:.3f}, {:.3f}", nd["host_busy_fraction"].value("mean", 0.0),
                      nd["ni_busy_fraction"].value("mean", 0.0), nd["io_bus_utilization"].value("mean", 0.0)));
      row("NI memory peak / mean (flits)", fmt::format("{} / {:.1f}", nd["ni_memory_flits"].value("peak", 0),
                                                        nd["ni_memory_flits"].value("time_weighted_mean", 0.0)));
    }
  }
  if (m.contains("multicast")) print_multicast_summary(m.at("multicast"), row);
  row("saturated", m.value("saturated", false) ? "YES: " + m.value("saturation_reason", std::string()) : "no");
  row("link utilization mean / max", fmt::format("{:.3f} / {:.3f}", m["link_utilization"].value("mean", 0.0),
                                                  m["link_utilization"].value("max", 0.0)));
  row("invariants", fmt::format("exactly-once {}, flits conserved {}, deadlock {}",
                                inv.value("all_packets_delivered", false) ? "ok" : "not all delivered",
                                inv.value("flits_conserved", false) ? "ok" : "VIOLATED",
                                inv.value("deadlock", false) ? "YES" : "no"));
  row("simulation speed", fmt::format("{:.0f} cycles/s, {:.0f} router flit-hops/s; set-up {:.2f} s, "
                                      "simulation {:.2f} s, process {:.2f} s",
                                      perf.value("cycles_per_second", 0.0), perf.value("flit_hops_per_second", 0.0),
                                      perf.value("setup_seconds", 0.0), perf.value("simulation_seconds", 0.0),
                                      perf.value("process_seconds", 0.0)));
  if (perf.contains("run_ahead"))   // why a run is as fast as it is (sim.run_ahead)
    row("kernel activations", fmt::format("{} for {} module evaluations ({})",
                                          perf.value("scheduler_activations", std::uint64_t{0}),
                                          perf.value("scheduler_evaluations", std::uint64_t{0}),
                                          perf.value("run_ahead", false)
                                              ? std::string("run ahead of the kernel")
                                              : "one per cycle with work: " + perf.value("run_ahead_off", std::string())));
}

}  // namespace wormcast::tb
