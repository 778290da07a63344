#include "testbenches/app/workloads/ib_multicast_workload.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "algorithms/ib_multicast.h"
#include "algorithms/plan_network.h"
#include "rtl_models/node/endpoint_node.h"
#include "rtl_models/core/statistics.h"
#include "testbenches/app/config.h"
#include "testbenches/app/workloads/ib_workload_keys.h"
#include "topologies/networks/elaborator.h"

namespace wormcast::tb {

std::shared_ptr<const algo::IbScheme> IbMulticastWorkload::make_scheme() const {
  std::unique_ptr<algo::IbScheme> s = algo::ib_schemes().make(scheme);
  algo::set_options(*s, ib_option_texts(scheme_texts), algo::experiment_keys(scheme));
  return s;
}

void IbMulticastWorkload::visit(ParamVisitor& v, const rtl::NodeModel&) {
  v.choice("scheme", scheme, algo::ib_schemes().names(), ib_scheme_help());
  for (const algo::OptionHelp& o : ib_option_helps()) v.text(o.key.c_str(), scheme_texts[o.key], o.help.c_str());
  v.count("sources", sources, "senders per trial, drawn uniformly (seed003: 1, 40% = 51, 100% = 128 of 128)", 1,
          1 << 20);
  v.count("group", group, "multicast group members per trial, drawn uniformly (10% = 13, 40% = 51, 100% = 128)", 1,
          1 << 20);
  v.text("senders", senders, "these senders in every trial instead of `sources` random ones: labels as the paper "
         "writes them, \"P(000),P(201)\" or \"000,201\"");
  v.text("members", members, "this group in every trial instead of `group` random members (same forms)");
  v.count("trials", trials, "trials, one after another, each with fresh senders and group", 1, 1 << 20);
  visit_ib_packet_keys(v, header_flits, flit_bytes, mtu);
}

void IbMulticastWorkload::visit_sections(ParamVisitor& v, const rtl::NodeModel&) {
  v.begin_section("message", "the message every sender multicasts");
  message.visit(v);
  v.end_section();
}

void IbMulticastWorkload::describe_facts(rtl::ConfigFacts& f) const {
  describe_ib_facts(f, IbPacketFormat{header_flits, flit_bytes, mtu}, message.size);
}

void IbMulticastWorkload::validate(const rtl::ConfigFacts& f, const rtl::NodeModel& nodes) const {
  if (!dynamic_cast<const rtl::EndpointModel*>(&nodes))
    throw std::invalid_argument(f.where + ": traffic.kind ib_multicast needs node.model endpoint (the HCA injects "
                                "and receives one byte per cycle)");
  if (f.direct_network)
    throw std::invalid_argument(f.where + ": traffic.kind ib_multicast needs topology.kind fat_tree");
  try {
    make_scheme();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(f.where + ": " + e.what());
  }
}

std::string IbMulticastWorkload::node_count_problem(int n) const {
  if (sources > n)
    return "traffic.sources: " + std::to_string(sources) + " senders, but the network has " + std::to_string(n) + " nodes";
  if (group > n)
    return "traffic.group: " + std::to_string(group) + " members, but the network has " + std::to_string(n) + " nodes";
  return {};
}

void IbMulticastWorkload::attach(topo::NetworkModel& net, rtl::SimContext& ctx, const Rng& rng) {
  auto* sw = dynamic_cast<topo::Network*>(&net);
  if (!sw || sw->params().decoder != "ib")
    throw ConfigError("traffic.kind ib_multicast needs topology.kind fat_tree with switch.decoder ib");
  const int n = net.num_nodes();   // sources and group fit it (node_count_problem)
  if (sources == 1 && group == 1 && senders.empty() && members.empty())
    throw ConfigError("traffic.group: a group of 1 with 1 sender can leave nothing to send (the sender never "
                      "receives its own message); use group >= 2");
  run_ = std::make_shared<Run>();
  Run& run = *run_;
  run.subnet = rtl::ib_subnet(*sw->decoder_shared(), sw->topology());
  if (!senders.empty()) run.fixed_senders = ib_node_list(run.subnet->tree(), senders, "traffic.senders");
  if (!members.empty()) run.fixed_members = ib_node_list(run.subnet->tree(), members, "traffic.members");
  if (run.fixed_senders.size() == 1 && run.fixed_members.size() == 1 && run.fixed_senders == run.fixed_members)
    throw ConfigError("traffic.members: the one member is the one sender, which never receives its own message");
  run.scheme = make_scheme();
  run.ctx = &ctx;
  run.rng = rng.fork(0x1B00000000ULL);
  run.sources = sources;
  run.group = group;
  run.trials = trials;
  run.bytes = message.size;
  run.format = {header_flits, flit_bytes, mtu};
  for (int node = 0; node < n; ++node) {
    run.endpoints.push_back(net.node(node).endpoint());
    if (!run.endpoints.back()) throw ConfigError("traffic.kind ib_multicast needs node.model endpoint");
    Run* r = &run;   // the workload keeps run_ alive for the whole run
    run.endpoints.back()->on_receive = [r, node](const rtl::Packet& p, Cycle now) { r->received(node, p, now); };
  }
  // A method run once at initialisation (as the single_multicast workload).
  Run* r = &run;
  sc_core::sc_spawn_options once;
  once.spawn_method();
  sc_core::sc_spawn([r] { r->begin_trial(); }, "ib_multicast_start", &once);
}

void IbMulticastWorkload::Run::begin_trial() {
  // Every sender starts in the next cycle, whatever order the modules of
  // this one run in (Endpoint::inject_at).
  const Cycle now = ctx->clock.now() + 1;
  if (static_cast<int>(completion.size()) >= trials || now >= stop) return;
  const topo::FatTree& t = subnet->tree();
  const int n = t.num_nodes();
  Rng trial = rng.fork(completion.size());
  done.clear();
  senders = fixed_senders.empty() ? draw_nodes(trial, n, sources) : fixed_senders;
  members = fixed_members.empty() ? draw_nodes(trial, n, group) : fixed_members;
  is_member.assign(static_cast<std::size_t>(n), 0);
  for (rtl::NodeId m : members) is_member[static_cast<std::size_t>(m)] = 1;
  got.assign(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), 0);
  start = now;
  expected = delivered = 0;
  last_useful = now;
  completion_sum = 0;
  completions = 0;
  // The subnet manager reprograms the tables: no packet of the last trial
  // is in flight (it ended when every copy was delivered).
  subnet->clear();
  double links = 0, entries = 0;
  // Per sender: the MLID it multicasts with and the nodes that reaches.
  std::vector<std::pair<int, std::vector<rtl::NodeId>>> plan(senders.size());
  const algo::IbTrialPlan tp = scheme->trial(t, senders, members);
  for (const algo::IbTable& table : tp.tables) {
    const int mlid = subnet->program(table.mft);
    entries += static_cast<double>(table.mft.size());
    for (std::size_t i : table.senders) {
      plan[i] = {mlid, ib_reach(t, senders[i], table.mft, links)};
      check_ib_reach(t, senders[i], table.group, plan[i].second);
    }
  }
  for (std::size_t i = 0; i < senders.size(); ++i) {
    if (tp.unicasts) links += send_unicasts(senders[i]);
    else if (!plan[i].second.empty()) send_multicast(senders[i], plan[i].first, plan[i].second);
  }
  if (expected == 0)
    throw std::runtime_error("ib_multicast: trial " + std::to_string(completion.size() + 1) +
                             " has nothing to deliver (its only member is its only sender): use traffic.group >= 2");
  link_traversals.push_back(links * format.packets(bytes));
  table_entries.push_back(entries);
}

void IbMulticastWorkload::Run::send_multicast(rtl::NodeId src, int mlid, std::vector<rtl::NodeId> reach) {
  const rtl::PacketHeader h = ib_multicast_header(mlid, std::move(reach));
  for (int k = 0; k < format.packets(bytes); ++k) {
    expected += h.dests.size();
    inject(src, h, k);
  }
}

double IbMulticastWorkload::Run::send_unicasts(rtl::NodeId src) {
  const topo::FatTree& t = subnet->tree();
  double links = 0;
  for (rtl::NodeId m : members) {
    if (m == src) continue;
    const rtl::PacketHeader h = ib_unicast_header(t, src, m);
    links += static_cast<double>(algo::trace_unicast(t, src, h.lid).size() + 1);   // switch hops + injection link
    for (int k = 0; k < format.packets(bytes); ++k) {
      ++expected;
      inject(src, h, k);
    }
  }
  return links;
}

void IbMulticastWorkload::Run::inject(rtl::NodeId src, const rtl::PacketHeader& h, int index) {
  endpoints[static_cast<std::size_t>(src)]->inject_at(format.packet(h, bytes, index), start);
  ++packets_sent;
}

void IbMulticastWorkload::Run::received(rtl::NodeId at, const rtl::Packet& p, Cycle now) {
  ++delivered;
  if (!is_member[static_cast<std::size_t>(at)]) {
    ++discarded;   // a SendOnly sender's copy: its HCA drops it
  } else {
    const std::size_t k = static_cast<std::size_t>(p.src) * is_member.size() + static_cast<std::size_t>(at);
    if (++got[k] == p.msg_packets) {   // the member has the whole message of p.src
      completion_sum += static_cast<double>(now - start);
      ++completions;
      done.push_back({at, p.src, now - start});
      last_useful = std::max(last_useful, now);
    }
  }
  if (delivered < expected) return;
  if (last_useful - start > UINT32_MAX)   // the completion list holds 32 bits (summarize_cycles)
    throw std::runtime_error("ib_multicast: a trial of " + std::to_string(last_useful - start) +
                             " cycles does not fit the completion statistics");
  completion.push_back(static_cast<std::uint32_t>(last_useful - start));
  mean_completion.push_back(completions ? completion_sum / static_cast<double>(completions) : 0.0);
  begin_trial();
}

bool IbMulticastWorkload::measured_pending(const rtl::SimContext&) const {
  return run_ && static_cast<int>(run_->completion.size()) < trials;
}

void IbMulticastWorkload::stop_creating_at(Cycle c) {
  if (run_) run_->stop = c;
}

std::string IbMulticastWorkload::pending_work(const rtl::SimContext&) const {
  if (!run_) return "not started";
  return std::to_string(run_->completion.size()) + " of " + std::to_string(trials) + " trials complete; " +
         std::to_string(run_->delivered) + " of " + std::to_string(run_->expected) +
         " packet copies of the current trial delivered";
}

void IbMulticastWorkload::register_statistics(rtl::StatsScope s) const {
  auto run = run_;
  const rtl::SimContext& ctx = s.ctx;
  s.stats.add("multicast.completion_cycles", "cycles",
              "per trial: from its start to the last member's reception of the last byte (seed003 §12)",
              [run, &ctx] { return summarize_cycles(run->completion, ctx.clock.cycles_to_us(1.0)); });
  s.stats.add("multicast.mean_delivery_cycles", "cycles",
              "per trial: mean over (sender, member) pairs of the cycles until the member had the whole message",
              [run, &ctx] { return summarize_values(run->mean_completion, ctx.clock.cycles_to_us(1.0)); });
  s.stats.add("multicast.link_traversals", "packet-links",
              "per trial: links the packets cross by the tables (injection links included), summed over senders",
              [run] { return summarize_values(run->link_traversals); });
  s.stats.add("multicast.table_entries", "switches",
              "per trial: switch entries the subnet manager programmed (0 for unicast)",
              [run] { return summarize_values(run->table_entries); });
  s.stats.add("multicast.discarded_copies", "packets",
              "copies delivered to senders that are not members (opensm SendOnly joins), dropped by their HCA",
              [run] { return run->discarded; });
  s.stats.add("multicast.packets_sent", "packets", "packets the senders injected, all trials",
              [run] { return run->packets_sent; });
}

}  // namespace wormcast::tb
