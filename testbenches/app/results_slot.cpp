#include "testbenches/app/results_slot.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "testbenches/app/sweep.h"

namespace wormcast::tb {

namespace {

nlohmann::json resolved(const ExperimentConfig& cfg) {
  JsonParamWriter w;
  ExperimentConfig copy = cfg;
  copy.visit(w);
  return w.out;
}

// "traffic.load: 0.3 there, 0.4 here" for the first parameter that differs.
std::string first_difference(const nlohmann::json& there, const nlohmann::json& here) {
  const nlohmann::json patch = nlohmann::json::diff(there, here);
  if (patch.empty()) return "the topology file's content differs";
  const nlohmann::json::json_pointer at(patch.front().at("path").get<std::string>());
  std::string key = at.to_string().substr(1);
  for (char& c : key)
    if (c == '/') c = '.';
  const std::string old_value = there.contains(at) ? there.at(at).dump() : "unset";
  const std::string new_value = here.contains(at) ? here.at(at).dump() : "unset";
  return key + ": " + old_value + " there, " + new_value + " here";
}

// Why the file at `path` cannot be rewritten for `cfg`, or "" if it can.
std::string conflict(const std::string& path, const ExperimentConfig& cfg) {
  std::ifstream f(path);
  if (!f) return "it cannot be read";
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(f);
  } catch (const std::exception&) {
    return "it is not a JSON results file";
  }
  if (!j.is_object() || !j.contains("config") || !j["config"].is_object()) return "it is not a wormcast results file";
  const nlohmann::json here = resolved(cfg);
  if (config_hash(j["config"]) == config_hash(here)) return "";
  return "it holds the results of another configuration (" + first_difference(j["config"], here) + ")";
}

}  // namespace

void claim_results_slot(const std::string& json_path, const ExperimentConfig& cfg, bool force) {
  std::error_code ec;
  if (force || !std::filesystem::exists(json_path, ec)) return;
  const std::string why = conflict(json_path, cfg);
  if (why.empty()) return;
  throw ConfigError(json_path + " already exists: " + why +
                    "; give --out DIR to keep both, or --force to replace it");
}

}  // namespace wormcast::tb
