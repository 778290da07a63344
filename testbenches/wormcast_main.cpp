// The wormcast command-line tool.
//   wormcast run EXPERIMENT.yaml [--set key=value]... [--seed N] [--out DIR] [--force] [--vcd FILE]
//   wormcast topo generate|show|export ...
//   wormcast params [--section NAME]... [--json]
//   wormcast stats [EXPERIMENT.yaml] [--set key=value]... [--json]
//   wormcast bench
//   wormcast sweep SWEEP.yaml [-j N] [--out DIR] [--dry-run] [--emit-jobs] [--slurm] [--force]
#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdlib>
#include <functional>
#include <memory>
#include <limits>
#include <fstream>
#include <iostream>
#include <sstream>
#include <systemc>

#include "testbenches/app/atomic_file.h"
#include "testbenches/app/bench.h"
#include "testbenches/app/experiment.h"
#include "testbenches/app/params_command.h"
#include "testbenches/app/plan_command.h"
#include "testbenches/app/results.h"
#include "testbenches/app/results_slot.h"
#include "testbenches/app/runner.h"
#include "testbenches/app/stats_command.h"
#include "testbenches/app/suggest.h"
#include "testbenches/app/sweep.h"
#include "testbenches/app/units.h"
#include "topologies/networks/network_kind.h"
#include "topologies/networks/switch_network_kind.h"
#include "topologies/topology_io.h"

using namespace wormcast;

namespace {

int cmd_run(const std::string& file, const std::vector<std::string>& sets, const std::string& seed,
            std::string out_dir, bool force, const tb::RunOptions& ropt) {
  std::vector<tb::Override> overrides;
  for (const auto& s : sets) overrides.push_back(tb::parse_override(s));
  if (!seed.empty()) overrides.push_back({"seed", seed});
  tb::ExperimentConfig cfg = tb::load_experiment(file, overrides);
  // Where results go is checked before simulating, so a finished run is never
  // lost to an unwritable folder nor replaces another configuration's results.
  if (out_dir.empty()) out_dir = "results/" + cfg.name;
  try {
    tb::check_writable_dir(out_dir);
  } catch (const tb::FileWriteError& e) {
    throw tb::ConfigError(std::string("--out ") + e.what());
  }
  const std::string stem = out_dir + "/" + cfg.name + "_seed" + std::to_string(cfg.seed);
  tb::claim_results_slot(stem + ".json", cfg, force);
  spdlog::info("running '{}' from {}", cfg.name, file);
  tb::RunResult r = tb::run_experiment(cfg, ropt);
  if (!r.ok && r.json.is_null()) {
    std::cerr << "wormcast: error: " << r.error << "\n";
    return r.exit_code;
  }
  tb::write_json_file(r.json, stem + ".json");
  tb::write_csv_file(r.json, stem + ".csv");
  tb::print_summary(r.json, std::cout);
  std::cout << "  results: " << stem << ".json, " << stem << ".csv\n";
  if (!ropt.vcd_path.empty() && r.exit_code != 1) std::cout << "  waveform: " << ropt.vcd_path << "\n";
  if (!r.ok) std::cerr << (r.exit_code == 1 ? "wormcast: error: " : "wormcast: simulation error: ") << r.error << "\n";
  return r.exit_code;
}

// A text written to `out` (atomically), or to standard output when `out` is empty.
void emit(const std::string& text, const std::string& out) {
  if (out.empty()) {
    std::cout << text;
    tb::check_written(std::cout, "standard output");
    return;
  }
  tb::write_file_atomic(out, text);
  std::cerr << "wrote " << out << "\n";
}

// A switch network in `format` to `out` (stdout when empty), warnings on stderr.
void write_topology(const topo::Topology& t, const std::string& format, const std::string& out) {
  std::ostringstream os;
  for (const std::string& w : topo::write_switch_network(t, format, os)) std::cerr << "warning: " << w << "\n";
  emit(os.str(), out);
}

// `topo show` and `topo export` of any network the kinds' registry names by
// a spec or a file (topo::kind_of_spec); a refusal is a configuration error.
template <class F>
int with_spec_kind(const std::string& spec, F&& f) {
  try {
    f(topo::kind_of_spec(spec));
  } catch (const std::invalid_argument& e) {
    throw tb::ConfigError(e.what());
  }
  return 0;
}

}  // namespace

// libsystemc prints its banner before sc_main; our own main switches it off
// so stdout carries only wormcast's output.
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}

namespace {

// A subcommand and what it does once the command line has been parsed; its
// options live in state the action's closure shares.
struct Command {
  CLI::App* app;
  std::function<int()> action;
};

void add_run_command(CLI::App& app, std::vector<Command>& cmds) {
  struct State {
    std::string file, seed, out;
    std::vector<std::string> sets;
    tb::RunOptions opt;
    bool no_progress = false, progress = false, force = false;
  };
  auto st = std::make_shared<State>();
  auto* run = app.add_subcommand("run", "run one experiment file");
  run->add_option("experiment", st->file, "experiment YAML file")->required();
  run->add_option("--set", st->sets, "override a parameter: --set section.key=value (repeatable)");
  run->add_option("--seed", st->seed, "run seed (same as --set seed=N)");
  run->add_option("--out", st->out, "results directory (default results/<name>)");
  run->add_flag("--force", st->force,
                "replace results of another configuration at the same place (refused by default)");
  run->add_option("--vcd", st->opt.vcd_path, "write a VCD waveform of per-port state to this file");
  run->add_option("--vcd-filter", st->opt.vcd_filter, "glob on module names to trace (e.g. 'net.sw3', 'net.node*')");
  run->add_flag("--progress", st->progress, "show a progress line on stderr (default when stderr is a terminal)");
  run->add_flag("--no-progress", st->no_progress, "never show the progress line");
  cmds.push_back({run, [st] {
                    st->opt.progress = !st->no_progress && (st->progress || isatty(STDERR_FILENO));
                    st->opt.keep_network_until_exit = true;   // the process ends after the run: skip the teardown
                    return cmd_run(st->file, st->sets, st->seed, st->out, st->force, st->opt);
                  }});
}

void add_topo_generate(CLI::App& topo_cmd, std::vector<Command>& cmds) {
  struct State {
    topo::IrregularParams ip;
    std::string format = "yaml", out;
  };
  auto st = std::make_shared<State>();
  auto* gen = topo_cmd.add_subcommand("generate", "generate an irregular network (seed000 §7.6)");
  gen->add_option("--switches", st->ip.switches, "number of switches")->capture_default_str();
  gen->add_option("--ports", st->ip.ports, "ports per switch")->capture_default_str();
  gen->add_option("--nodes", st->ip.nodes, "processing nodes")->capture_default_str();
  gen->add_option("--connectivity", st->ip.connectivity, "fraction of free ports linked (0,1]")->capture_default_str();
  // Read as topology.seed is (tb::parse_integer, 0 .. 2^63 - 1), so the two
  // accept and refuse the same values.
  gen->add_option_function<std::string>(
         "--seed",
         [st](const std::string& text) {
           std::int64_t v = -1;
           try {
             v = tb::parse_integer(text);
           } catch (const std::invalid_argument& e) {
             throw CLI::ValidationError("--seed", e.what());
           }
           if (v < 0) throw CLI::ValidationError("--seed", "'" + text + "' must be a non-negative integer");
           st->ip.seed = static_cast<std::uint64_t>(v);
         },
         "generator seed, 0 .. 2^63 - 1 (default 1)");
  gen->add_option("--format", st->format, "yaml, json or dot")->check(CLI::IsMember({"yaml", "json", "dot"}));
  gen->add_option("-o,--output", st->out, "output file (default stdout)");
  cmds.push_back({gen, [st] {
                    write_topology(topo::generate_irregular(st->ip), st->format, st->out);
                    return 0;
                  }});
}

void add_topo_show_export(CLI::App& topo_cmd, std::vector<Command>& cmds) {
  struct State {
    std::string show_file, routing = "default", exp_file, format = "dot", out;
    int vcs = 0;
  };
  auto st = std::make_shared<State>();
  const std::string forms = topo::network_spec_forms();
  auto* show = topo_cmd.add_subcommand("show", "print a network with its routing structure and the check of its "
                                               "tables: " + forms);
  show->add_option("file", st->show_file, "network spec or topology file: " + forms)->required();
  show->add_option("--routing", st->routing,
                   "direct networks: dor, ecube, utr, btr, utpr, dateline (default: the thesis's)");
  show->add_option("--vcs", st->vcs, "direct networks: VCs per channel as router.vcs (0 = what the routing needs)");
  auto* exp = topo_cmd.add_subcommand("export", "write a network as yaml, json, dot or anynet (BookSim2): switch "
                                                "networks in any of them, direct networks and fat trees as dot");
  exp->add_option("file", st->exp_file, "network spec or topology file: " + forms)->required();
  exp->add_option("--routing", st->routing, "direct networks: routing whose VC classes label the channels");
  exp->add_option("--vcs", st->vcs, "direct networks: VCs per channel as router.vcs; labels give each class's VCs");
  exp->add_option("--format", st->format, "yaml, json, dot or anynet (BookSim2; parallel links merged, with a warning)")
      ->check(CLI::IsMember({"yaml", "json", "dot", "anynet"}));
  exp->add_option("-o,--output", st->out, "output file (default stdout)");
  cmds.push_back({show, [st] {
                    return with_spec_kind(st->show_file, [&](const topo::NetworkKind& k) {
                      std::ostringstream os;
                      k.show(st->show_file, topo::SpecOptions{st->routing, st->vcs, st->format}, os);
                      emit(os.str(), "");
                    });
                  }});
  cmds.push_back({exp, [st] {
                    return with_spec_kind(st->exp_file, [&](const topo::NetworkKind& k) {
                      std::ostringstream os;
                      const auto warnings =
                          k.export_spec(st->exp_file, topo::SpecOptions{st->routing, st->vcs, st->format}, os);
                      for (const std::string& w : warnings) std::cerr << "warning: " << w << "\n";
                      emit(os.str(), st->out);
                    });
                  }});
}

void add_tool_commands(CLI::App& app, std::vector<Command>& cmds) {
  auto popt = std::make_shared<tb::ParamsOptions>();
  auto* params = app.add_subcommand("params", "list every experiment parameter with default, unit and meaning");
  params->add_option("--section", popt->sections, "only the parameters of this section (router, traffic, ...); repeatable");
  params->add_flag("--json", popt->json, "one JSON object on stdout");
  cmds.push_back({params, [popt] {
                    tb::run_params_command(*popt, std::cout);
                    return 0;
                  }});
  auto sopt = std::make_shared<tb::StatsOptions>();
  auto* stats = app.add_subcommand("stats", "list the statistics a run reports: name, unit, meaning, owner");
  stats->add_option("experiment", sopt->file, "experiment YAML file (default: every plug-in's statistics)");
  stats->add_option("--set", sopt->sets, "override a parameter of the experiment: --set section.key=value");
  stats->add_flag("--json", sopt->json, "one JSON object on stdout");
  cmds.push_back({stats, [sopt] { return tb::run_stats_command(*sopt, std::cout); }});
  auto bopt = std::make_shared<tb::BenchOptions>();
  auto* bench = app.add_subcommand("bench", "measure simulation speed (see docs/performance.md)");
  bench->add_flag("--quick", bopt->quick, "short runs");
  cmds.push_back({bench, [bopt] { return tb::run_bench(*bopt, std::cout); }});
}

void add_sweep_command(CLI::App& app, std::vector<Command>& cmds) {
  struct State {
    std::string file;
    tb::SweepOptions opt;
  };
  auto st = std::make_shared<State>();
  st->opt.jobs = std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
  auto* sweep = app.add_subcommand("sweep", "run a parameter sweep: grid x trials, in parallel processes, cached (docs/sweeps.md)");
  sweep->add_option("sweep", st->file, "sweep YAML file")->required();
  sweep->add_option("-j,--jobs", st->opt.jobs, "runs at once (default: number of CPUs)")->check(CLI::Range(1, 4096));
  sweep->add_option("--out", st->opt.out_dir, "output directory (default results/<sweep name>)");
  auto* dry = sweep->add_flag("--dry-run", st->opt.dry_run, "list the runs (parameters, seed, hash, cached or not); run nothing");
  auto* emit = sweep->add_flag("--emit-jobs", st->opt.emit_jobs, "print one shell command per run still to do (for GNU parallel); run nothing");
  auto* slurm = sweep->add_flag("--slurm", st->opt.slurm,
                                "submit the runs still to do as a Slurm job array, wait for it, collect (docs/sweeps.md)")
                    ->excludes(dry)
                    ->excludes(emit);
  sweep->add_option("--slurm-args", st->opt.slurm_args,
                    "more sbatch options for --slurm, e.g. '--partition=batch --time=30'")->needs(slurm);
  sweep->add_flag("--force", st->opt.force, "rerun every run, ignoring cached results");
  sweep->add_option("--set", st->opt.sets,
                    "fix a parameter for every run: --set section.key=value (the sweep's name gets it appended)");
  cmds.push_back({sweep, [st] { return tb::run_sweep(st->file, st->opt, std::cout, std::cerr); }});
}

// Runs the parsed command; errors exit as docs/user_guide.md lists.
int run_command(const std::vector<Command>& cmds) {
  try {
    for (const Command& c : cmds)
      if (*c.app) {
        const int code = c.action();
        // Every command whose product is standard output (params, plan
        // --json, sweep --dry-run, ...): a lost output is an error (one that
        // failed already has said why).
        if (code == 0) tb::check_written(std::cout, "standard output");
        return code;
      }
  } catch (const tb::ConfigError& e) {
    std::cerr << "wormcast: error: " << e.what() << "\n";
    return 1;
  } catch (const topo::TopologyError& e) {
    std::cerr << "wormcast: error: " << e.what() << "\n";
    return 1;
  } catch (const tb::FileWriteError& e) {
    std::cerr << "wormcast: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "wormcast: error: " << e.what() << "\n";
    return 3;
  }
  return 0;
}

// The first word where a command or subcommand belongs that names none
// ("wormcast rnu", "wormcast topo shwo"), as an error with the closest
// command and the list; "" when the words name commands (CLI11 reports the
// rest). Global options before the command are skipped with their values.
std::string unknown_command(CLI::App& app, int argc, char* argv[]) {
  CLI::App* level = &app;
  for (int i = 1; i < argc; ++i) {
    const std::string w = argv[i];
    if (w == "--log-level" && level == &app) { ++i; continue; }
    if (!w.empty() && w[0] == '-') continue;
    const auto subs = level->get_subcommands([](CLI::App*) { return true; });
    if (subs.empty()) return {};
    std::vector<std::string> names;
    CLI::App* next = nullptr;
    for (CLI::App* s : subs) {
      names.push_back(s->get_name());
      if (s->get_name() == w) next = s;
    }
    if (!next) {
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      const std::string where = level == &app ? "wormcast" : "wormcast " + level->get_name();
      return where + ": '" + w + "' is not a command" + tb::did_you_mean(w, names) + "; the commands are " + list;
    }
    level = next;
  }
  return {};
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  CLI::App app{"wormcast: cycle-accurate SystemC/TLM-2.0 simulator of multicast in interconnection networks"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("wormcast ") + WORMCAST_VERSION);
  std::string log_level = "warn";
  app.add_option("--log-level", log_level, "trace, debug, info, warn, error, off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));

  std::vector<Command> cmds;
  add_run_command(app, cmds);
  auto* topo_cmd = app.add_subcommand("topo", "generate, show or export topologies");
  topo_cmd->require_subcommand(1);
  add_topo_generate(*topo_cmd, cmds);
  add_topo_show_export(*topo_cmd, cmds);
  add_tool_commands(app, cmds);
  add_sweep_command(app, cmds);
  tb::add_plan_command(app);   // plan: runs from its own callback (testbenches/app/plan_command.h)

  if (const std::string err = unknown_command(app, argc, argv); !err.empty()) {
    std::cerr << err << "\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {
    return app.exit(e);   // a subcommand's callback ended with its own exit code (plan)
  } catch (const CLI::ParseError& e) {
    // Usage errors exit 2 (docs/user_guide.md, exit codes); --help and
    // --version exit 0.
    return app.exit(e) == 0 ? 0 : 2;
  }
  auto logger = spdlog::stderr_color_mt("wormcast");
  spdlog::set_default_logger(logger);
  spdlog::set_level(spdlog::level::from_str(log_level));
  spdlog::set_pattern("[%l] %v");
  return run_command(cmds);
}
