#include "testbenches/app/params_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "rtl_models/node/ni_firmware.h"
#include "rtl_models/switch/decoder_registry.h"
#include "testbenches/app/config.h"
#include "testbenches/app/experiment.h"
#include "testbenches/app/suggest.h"

namespace wormcast::tb {

namespace {

// A registry a parameter's value names an entry of.
struct RegistryListing {
  std::string key, title;
  std::vector<std::pair<std::string, std::string>> entries;   // name, description
};

std::vector<RegistryListing> registries() {
  std::vector<RegistryListing> out;
  auto add = [&out](std::string key, std::string title, const auto& reg) {
    RegistryListing l{std::move(key), std::move(title), {}};
    for (const auto& e : reg.entries()) l.entries.emplace_back(e.name, e.description);
    out.push_back(std::move(l));
  };
  add("switch.decoder", "header decoders", rtl::decoder_registry());
  add("ni.firmware", "NI firmware", rtl::firmware_registry());
  return out;
}

std::string section_of(const std::string& key) {
  const auto dot = key.find('.');
  return dot == std::string::npos ? std::string() : key.substr(0, dot);
}

// The groups with only the rows of the chosen sections (all without a choice).
std::vector<ParamGroup> selected_groups(const std::vector<std::string>& sections) {
  std::vector<ParamGroup> groups = parameter_groups();
  if (sections.empty()) return groups;
  std::set<std::string> known;
  for (const auto& g : groups)
    for (const auto& r : g.rows)
      if (!section_of(r.key).empty()) known.insert(section_of(r.key));
  for (const std::string& s : sections)
    if (!known.count(s)) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      throw ConfigError("params --section " + s + ": no parameter is in a section '" + s + "'" +
                        did_you_mean(s, {known.begin(), known.end()}) + "; the sections are " + list);
    }
  std::vector<ParamGroup> out;
  for (auto& g : groups) {
    std::vector<ParamRow> rows;
    for (auto& r : g.rows)
      if (std::find(sections.begin(), sections.end(), section_of(r.key)) != sections.end()) rows.push_back(r);
    if (rows.empty()) continue;
    g.rows = std::move(rows);
    out.push_back(std::move(g));
  }
  return out;
}

bool registry_selected(const RegistryListing& r, const std::vector<std::string>& sections) {
  return sections.empty() || std::find(sections.begin(), sections.end(), section_of(r.key)) != sections.end();
}

void print_json(const std::vector<ParamGroup>& groups, const std::vector<std::string>& sections, std::ostream& os) {
  nlohmann::json j = {{"groups", nlohmann::json::array()}, {"registries", nlohmann::json::array()}};
  for (const auto& g : groups) {
    nlohmann::json params = nlohmann::json::array();
    for (const auto& r : g.rows)
      params.push_back({{"key", r.key},
                        {"type", r.type},
                        {"default", r.default_value},
                        {"unit", r.unit},
                        {"description", r.description}});
    j["groups"].push_back({{"title", g.title}, {"description", g.description}, {"parameters", params}});
  }
  for (const auto& r : registries()) {
    if (!registry_selected(r, sections)) continue;
    nlohmann::json entries = nlohmann::json::array();
    for (const auto& [name, desc] : r.entries) entries.push_back({{"name", name}, {"description", desc}});
    j["registries"].push_back({{"key", r.key}, {"entries", entries}});
  }
  os << j.dump(2) << "\n";
}

void print_text(const std::vector<ParamGroup>& groups, const std::vector<std::string>& sections, std::ostream& os) {
  for (const auto& g : groups) {
    os << "\n# " << g.title << (g.description.empty() ? "" : ": " + g.description) << "\n";
    os << fmt::format("{:<26} {:<38} {:<14} {}\n", "key", "type", "default", "description");
    for (const auto& r : g.rows)
      os << fmt::format("{:<26} {:<38} {:<14} {}{}\n", r.key, r.type, r.default_value, r.description,
                        r.unit.empty() || r.type == r.unit ? "" : " [" + r.unit + "]");
  }
  for (const auto& r : registries()) {
    if (!registry_selected(r, sections)) continue;
    os << "\n# " << r.title << " (" << r.key << ")\n";
    for (const auto& [name, desc] : r.entries) os << fmt::format("  {:<24} {}\n", name, desc);
  }
}

}  // namespace

void run_params_command(const ParamsOptions& opt, std::ostream& out) {
  const std::vector<ParamGroup> groups = selected_groups(opt.sections);
  if (opt.json)
    print_json(groups, opt.sections, out);
  else
    print_text(groups, opt.sections, out);
}

}  // namespace wormcast::tb
