// Results files: the full JSON document of a run, a one-row CSV (the same
// data flattened into dotted columns, so sweeps can concatenate rows), and a
// readable summary table for the terminal.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

namespace wormcast::tb {

// Flatten nested objects into dotted keys (arrays become "a;b" strings).
nlohmann::json flatten(const nlohmann::json& j);
void write_json_file(const nlohmann::json& j, const std::string& path);
void write_csv_file(const nlohmann::json& j, const std::string& path);
void print_summary(const nlohmann::json& j, std::ostream& os);

}  // namespace wormcast::tb
