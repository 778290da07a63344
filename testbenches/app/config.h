// ParamVisitor implementations: loading a YAML experiment section by section
// with validation (every error names the file, the dotted key, the line and
// the reason; unknown keys are rejected), listing parameters, and echoing the
// resolved configuration as JSON.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>
#include <yaml-cpp/yaml.h>

#include "rtl_models/core/params.h"

namespace wormcast::tb {

// Bad user input: the message is complete and meant for the user.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads a YAML (or JSON) file; a missing file, an unreadable one or
// malformed YAML becomes a ConfigError naming the path (and line).
YAML::Node load_yaml_file(const std::string& path);

// Parses "section.key=value" command-line overrides.
struct Override {
  std::string path;    // dotted
  std::string value;
};
Override parse_override(const std::string& text);

class YamlParamReader : public ParamVisitor {
 public:
  // `root` is the whole document; `origin` names it in messages (the path).
  YamlParamReader(YAML::Node root, std::string origin, const std::vector<Override>& overrides);

  void cycles(const char* key, Cycle& v, const char* desc, Cycle min, Cycle max) override;
  void flits(const char* key, int& v, const char* desc, int min, int max) override;
  void time_ps(const char* key, std::uint64_t& v, const char* desc, std::uint64_t min) override;
  void bandwidth(const char* key, double& v, const char* desc) override;
  void integer(const char* key, std::int64_t& v, const char* unit, const char* desc, std::int64_t min,
               std::int64_t max) override;
  void count(const char* key, int& v, const char* desc, int min, int max) override;
  void real(const char* key, double& v, const char* unit, const char* desc, double min, double max,
            bool percent_ok) override;
  void choice(const char* key, std::string& v, const std::vector<std::string>& options,
              const char* desc) override;
  void boolean(const char* key, bool& v, const char* desc) override;
  void text(const char* key, std::string& v, const char* desc) override;
  void seed(const char* key, std::uint64_t& v, const char* desc) override;
  void int_list(const char* key, std::vector<int>& v, const char* desc, int min, int max) override;
  void begin_section(const char* name, const char* desc) override;
  void end_section() override;
  void set_clock_period_ps(std::uint64_t ps) override { period_ps_ = ps; }
  // Keys (and sections) of plug-ins that are not selected, with whose they
  // are ("node model 'host_ni' (node.model)"), for the unknown-key errors.
  void set_hints(std::map<std::string, std::string> hints) { hints_ = std::move(hints); }
  // Rejects unknown keys (in every section visited) and unused overrides.
  // Call after visiting.
  void finish();

 private:
  struct Frame {
    YAML::Node node;          // may be undefined (section absent)
    std::string path;         // dotted prefix, "" at top
    std::set<std::string> known;
  };
  // Raw text of `key` in the current section, from an override or the file.
  bool lookup(const char* key, std::string& out, std::string& where);
  // Like lookup(), but a YAML list of scalars is joined with ',' (int_list).
  bool lookup_list(const char* key, std::string& out, std::string& where);
  [[noreturn]] void fail(const std::string& where, const std::string& key, const std::string& reason) const;
  void check_unknown(const Frame& f);
  std::string not_selected(const std::string& full) const;
  // Every parameter (and section) path visited, and those of plug-ins not
  // selected: the names a mistyped --set is matched against.
  std::vector<std::string> known_paths() const;

  std::string origin_;
  std::vector<Frame> stack_;
  std::vector<Frame> visited_;   // closed sections, checked for unknown keys by finish()
  std::map<std::string, std::string> hints_;
  std::map<std::string, std::string> overrides_;
  std::set<std::string> used_overrides_;
  std::uint64_t period_ps_ = 5000;
};

// Collects one row per parameter for `wormcast params`.
struct ParamRow {
  std::string key, type, default_value, unit, description;
};
class ParamLister : public ParamVisitor {
 public:
  std::vector<ParamRow> rows;
  void cycles(const char* key, Cycle& v, const char* desc, Cycle, Cycle) override;
  void flits(const char* key, int& v, const char* desc, int, int) override;
  void time_ps(const char* key, std::uint64_t& v, const char* desc, std::uint64_t) override;
  void bandwidth(const char* key, double& v, const char* desc) override;
  void integer(const char* key, std::int64_t& v, const char* unit, const char* desc, std::int64_t,
               std::int64_t) override;
  void count(const char* key, int& v, const char* desc, int, int) override;
  void real(const char* key, double& v, const char* unit, const char* desc, double, double, bool) override;
  void choice(const char* key, std::string& v, const std::vector<std::string>& options,
              const char* desc) override;
  void boolean(const char* key, bool& v, const char* desc) override;
  void text(const char* key, std::string& v, const char* desc) override;
  void seed(const char* key, std::uint64_t& v, const char* desc) override;
  void int_list(const char* key, std::vector<int>& v, const char* desc, int, int) override;
  void begin_section(const char* name, const char* desc) override;
  void end_section() override;

 private:
  void add(const char* key, std::string type, std::string def, std::string unit, const char* desc);
  std::vector<std::string> path_;
};

// The resolved configuration as nested JSON (units made explicit in keys'
// values: cycles as integers, times as "5ns" strings).
class JsonParamWriter : public ParamVisitor {
 public:
  nlohmann::json out = nlohmann::json::object();
  void cycles(const char* key, Cycle& v, const char*, Cycle, Cycle) override { cur()[key] = v; }
  void flits(const char* key, int& v, const char*, int, int) override { cur()[key] = v; }
  void time_ps(const char* key, std::uint64_t& v, const char*, std::uint64_t) override;
  void bandwidth(const char* key, double& v, const char*) override;
  void integer(const char* key, std::int64_t& v, const char*, const char*, std::int64_t, std::int64_t) override {
    cur()[key] = v;
  }
  void count(const char* key, int& v, const char*, int, int) override { cur()[key] = v; }
  void real(const char* key, double& v, const char*, const char*, double, double, bool) override { cur()[key] = v; }
  void choice(const char* key, std::string& v, const std::vector<std::string>&, const char*) override {
    cur()[key] = v;
  }
  void boolean(const char* key, bool& v, const char*) override { cur()[key] = v; }
  void text(const char* key, std::string& v, const char*) override { cur()[key] = v; }
  void seed(const char* key, std::uint64_t& v, const char*) override { cur()[key] = v; }
  void int_list(const char* key, std::vector<int>& v, const char*, int, int) override { cur()[key] = v; }
  void begin_section(const char* name, const char*) override { path_.push_back(name); }
  void end_section() override { path_.pop_back(); }

 private:
  nlohmann::json& cur();
  std::vector<std::string> path_;
};

}  // namespace wormcast::tb
