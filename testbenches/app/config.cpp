#include "testbenches/app/config.h"

#include <algorithm>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <filesystem>
#include <limits>
#include <sstream>

#include "testbenches/app/suggest.h"
#include "testbenches/app/units.h"
#include "topologies/yaml_document.h"

namespace wormcast::tb {

namespace {

// YAML mappings with a key given twice are accepted by yaml-cpp, which then
// answers lookups with the first one: refuse them, naming both lines.
void reject_duplicate_keys(const YAML::Node& n, const std::string& path, const std::string& where) {
  if (n.IsSequence()) {
    for (std::size_t i = 0; i < n.size(); ++i) reject_duplicate_keys(n[i], path, where);
    return;
  }
  if (!n.IsMap()) return;
  std::map<std::string, int> seen;
  for (const auto& kv : n) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string("?");
    const std::string full = where.empty() ? key : where + "." + key;
    const int line = kv.first.Mark().line + 1;
    const auto [it, fresh] = seen.emplace(key, line);
    if (!fresh)
      throw ConfigError(path + ":" + std::to_string(line) + ": " + full + ": given twice (first at line " +
                        std::to_string(it->second) + ")");
    reject_duplicate_keys(kv.second, path, full);
  }
}

}  // namespace

YAML::Node load_yaml_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw ConfigError(path + ": file not found");
  if (std::filesystem::is_directory(path, ec)) throw ConfigError(path + ": is a directory, not a YAML file");
  if (!std::ifstream(path)) throw ConfigError(path + ": cannot read: " + std::strerror(errno));
  YAML::Node root;
  try {
    std::ifstream in(path);
    root = topo::load_one_yaml_document(in);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(path + ":" + std::to_string(e.mark.line + 1) + ": malformed YAML: " + e.msg);
  } catch (const YAML::Exception& e) {
    throw ConfigError(path + ": cannot read: " + e.what());
  }
  reject_duplicate_keys(root, path, "");
  return root;
}

Override parse_override(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("--set '" + text + "': expected key=value, e.g. --set switch.buffer=320");
  return Override{text.substr(0, eq), text.substr(eq + 1)};
}

YamlParamReader::YamlParamReader(YAML::Node root, std::string origin, const std::vector<Override>& overrides)
    : origin_(std::move(origin)) {
  if (root && !root.IsNull() && !root.IsMap())
    throw ConfigError(origin_ + ": the experiment file must be a YAML mapping of sections");
  stack_.push_back(Frame{root, "", {}});
  for (const auto& o : overrides) overrides_[o.path] = o.value;
}

void YamlParamReader::fail(const std::string& where, const std::string& key, const std::string& reason) const {
  throw ConfigError(where + ": " + key + ": " + reason);
}

bool YamlParamReader::lookup(const char* key, std::string& out, std::string& where) {
  Frame& f = stack_.back();
  f.known.insert(key);
  const std::string full = f.path.empty() ? key : f.path + "." + key;
  auto it = overrides_.find(full);
  if (it != overrides_.end()) {
    used_overrides_.insert(full);
    out = it->second;
    where = "command line (--set " + full + "=" + it->second + ")";
    return true;
  }
  if (!f.node || !f.node.IsMap()) return false;
  YAML::Node n = f.node[key];
  if (!n) return false;
  where = origin_ + ":" + std::to_string(n.Mark().line + 1);
  if (!n.IsScalar()) fail(where, full, "expected a single value, found a " + std::string(n.IsMap() ? "mapping" : "list"));
  out = n.Scalar();
  return true;
}

#define WORMCAST_READ(body)                                                       \
  std::string raw, where;                                                         \
  if (!lookup(key, raw, where)) return;                                           \
  const std::string full = stack_.back().path.empty() ? std::string(key)          \
                                                      : stack_.back().path + "." + key; \
  try {                                                                           \
    body;                                                                         \
  } catch (const std::invalid_argument& e) {                                      \
    fail(where, full, e.what());                                                  \
  }

void YamlParamReader::cycles(const char* key, Cycle& v, const char*, Cycle min, Cycle max) {
  WORMCAST_READ({
    const Cycle c = parse_cycles(raw, period_ps_);
    if (c < min || c > max)
      throw std::invalid_argument("'" + raw + "' out of range: must be " + std::to_string(min) + ".." +
                                  (max == UINT64_MAX ? std::string("") : std::to_string(max)) + " cycles");
    v = c;
  })
}

void YamlParamReader::flits(const char* key, int& v, const char*, int min, int max) {
  WORMCAST_READ({
    const auto f = parse_flits(raw);
    if (f < min || f > max)
      throw std::invalid_argument("'" + raw + "' out of range: must be " + std::to_string(min) + ".." +
                                  std::to_string(max) + " flits");
    v = static_cast<int>(f);
  })
}

void YamlParamReader::time_ps(const char* key, std::uint64_t& v, const char*, std::uint64_t min) {
  WORMCAST_READ({
    const auto t = parse_time_ps(raw);
    if (t < min) throw std::invalid_argument("'" + raw + "' is below the minimum " + format_time_ps(min));
    v = t;
  })
}

void YamlParamReader::bandwidth(const char* key, double& v, const char*) {
  WORMCAST_READ({ v = parse_bandwidth(raw); })
}

void YamlParamReader::integer(const char* key, std::int64_t& v, const char*, const char*, std::int64_t min,
                              std::int64_t max) {
  WORMCAST_READ({
    const auto i = parse_integer(raw);
    if (i < min || i > max)
      throw std::invalid_argument("'" + raw + "' out of range " + std::to_string(min) + ".." + std::to_string(max));
    v = i;
  })
}

void YamlParamReader::count(const char* key, int& v, const char*, int min, int max) {
  WORMCAST_READ({
    const auto i = parse_integer(raw);
    if (i < min || i > max)
      throw std::invalid_argument("'" + raw + "' out of range " + std::to_string(min) + ".." + std::to_string(max));
    v = static_cast<int>(i);
  })
}

void YamlParamReader::real(const char* key, double& v, const char*, const char*, double min, double max,
                           bool percent_ok) {
  WORMCAST_READ({
    const double d = parse_real(raw, percent_ok);
    if (!(d >= min && d <= max)) {
      std::ostringstream os;
      os << "'" << raw << "' out of range " << min << ".." << max;
      throw std::invalid_argument(os.str());
    }
    v = d;
  })
}

void YamlParamReader::choice(const char* key, std::string& v, const std::vector<std::string>& options,
                             const char*) {
  WORMCAST_READ({
    for (const auto& o : options)
      if (o == raw) { v = raw; return; }
    std::string list;
    for (const auto& o : options) list += (list.empty() ? "" : ", ") + o;
    throw std::invalid_argument("'" + raw + "' is not one of: " + list + did_you_mean(raw, options));
  })
}

void YamlParamReader::boolean(const char* key, bool& v, const char*) {
  WORMCAST_READ({
    if (raw == "true" || raw == "yes" || raw == "on" || raw == "1") v = true;
    else if (raw == "false" || raw == "no" || raw == "off" || raw == "0") v = false;
    else throw std::invalid_argument("'" + raw + "' is not a boolean (true/false)");
  })
}

void YamlParamReader::text(const char* key, std::string& v, const char*) {
  WORMCAST_READ({ v = raw; })
}

bool YamlParamReader::lookup_list(const char* key, std::string& out, std::string& where) {
  Frame& f = stack_.back();
  if (f.node && f.node.IsMap() && f.node[key] && f.node[key].IsSequence()) {
    const std::string full = f.path.empty() ? key : f.path + "." + key;
    if (overrides_.count(full)) return lookup(key, out, where);
    f.known.insert(key);
    YAML::Node n = f.node[key];
    where = origin_ + ":" + std::to_string(n.Mark().line + 1);
    out.clear();
    for (const auto& e : n) {
      if (!e.IsScalar()) fail(where, full, "expected a list of integers, e.g. [8, 8]");
      out += (out.empty() ? "" : ",") + e.Scalar();
    }
    return true;
  }
  return lookup(key, out, where);
}

void YamlParamReader::int_list(const char* key, std::vector<int>& v, const char*, int min, int max) {
  std::string raw, where;
  if (!lookup_list(key, raw, where)) return;
  const std::string full = stack_.back().path.empty() ? std::string(key) : stack_.back().path + "." + key;
  std::string text = raw;
  for (char& c : text)
    if (c == 'x') c = ',';
  text.erase(std::remove_if(text.begin(), text.end(), [](char c) { return c == '[' || c == ']' || c == ' '; }),
             text.end());
  std::vector<int> out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t comma = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, comma - pos);
    try {
      const auto i = parse_integer(item);
      if (i < min || i > max)
        throw std::invalid_argument("element '" + item + "' out of range " + std::to_string(min) + ".." +
                                    std::to_string(max));
      out.push_back(static_cast<int>(i));
    } catch (const std::invalid_argument& e) {
      fail(where, full, "'" + raw + "': " + e.what());
    }
    pos = comma + 1;
  }
  v = std::move(out);
}

void YamlParamReader::seed(const char* key, std::uint64_t& v, const char*) {
  WORMCAST_READ({
    const auto i = parse_integer(raw);
    if (i < 0) throw std::invalid_argument("'" + raw + "' must be a non-negative integer");
    v = static_cast<std::uint64_t>(i);
  })
}

#undef WORMCAST_READ

void YamlParamReader::begin_section(const char* name, const char*) {
  Frame& parent = stack_.back();
  parent.known.insert(name);
  const std::string path = parent.path.empty() ? name : parent.path + "." + name;
  YAML::Node n;
  if (parent.node && parent.node.IsMap() && parent.node[name]) {
    n = parent.node[name];
    if (!n.IsMap() && !n.IsNull())
      fail(origin_ + ":" + std::to_string(n.Mark().line + 1), path, "expected a mapping of parameters");
  }
  stack_.push_back(Frame{n, path, {}});
}

void YamlParamReader::check_unknown(const Frame& f) {
  if (!f.node || !f.node.IsMap()) return;
  for (const auto& kv : f.node) {
    const std::string k = kv.first.Scalar();
    if (f.known.count(k)) continue;
    const std::string full = f.path.empty() ? k : f.path + "." + k;
    const std::string hint = not_selected(full);
    if (!hint.empty()) fail(origin_ + ":" + std::to_string(kv.first.Mark().line + 1), full, hint);
    std::string list;
    for (const auto& n : f.known) list += (list.empty() ? "" : ", ") + n;
    fail(origin_ + ":" + std::to_string(kv.first.Mark().line + 1), f.path.empty() ? k : f.path + "." + k,
         "unknown key" + did_you_mean(k, {f.known.begin(), f.known.end()}) + " (known here: " + list + ")");
  }
}

std::string YamlParamReader::not_selected(const std::string& full) const {
  auto it = hints_.find(full);
  if (it == hints_.end()) return {};
  return "a parameter of " + it->second + ", which is not selected";
}

void YamlParamReader::end_section() {
  visited_.push_back(std::move(stack_.back()));
  stack_.pop_back();
}

void YamlParamReader::finish() {
  check_unknown(stack_.front());
  for (const auto& f : visited_) check_unknown(f);
  for (const auto& [path, value] : overrides_) {
    if (used_overrides_.count(path)) continue;
    const std::string hint = not_selected(path);
    throw ConfigError("command line: --set " + path + "=" + value + ": " +
                      (hint.empty() ? "unknown parameter" + did_you_mean(path, known_paths()) + " (see `wormcast params`)"
                                    : hint));
  }
}

std::vector<std::string> YamlParamReader::known_paths() const {
  std::vector<std::string> out;
  auto add = [&out](const Frame& f) {
    for (const auto& k : f.known) out.push_back(f.path.empty() ? k : f.path + "." + k);
  };
  add(stack_.front());
  for (const auto& f : visited_) add(f);
  for (const auto& [path, owner] : hints_) out.push_back(path);
  return out;
}

// ---------------------------------------------------------------------------

void ParamLister::add(const char* key, std::string type, std::string def, std::string unit, const char* desc) {
  std::string full;
  for (const auto& p : path_) full += p + ".";
  rows.push_back(ParamRow{full + key, std::move(type), std::move(def), std::move(unit), desc});
}
void ParamLister::cycles(const char* key, Cycle& v, const char* desc, Cycle, Cycle) {
  add(key, "cycles", std::to_string(v), "cycles", desc);
}
void ParamLister::flits(const char* key, int& v, const char* desc, int, int) {
  add(key, "flits", std::to_string(v), "flits", desc);
}
void ParamLister::time_ps(const char* key, std::uint64_t& v, const char* desc, std::uint64_t) {
  add(key, "time", format_time_ps(v), "", desc);
}
void ParamLister::bandwidth(const char* key, double& v, const char* desc) {
  add(key, "bandwidth", format_bandwidth(v), "", desc);
}
void ParamLister::integer(const char* key, std::int64_t& v, const char* unit, const char* desc, std::int64_t,
                          std::int64_t) {
  add(key, "integer", std::to_string(v), unit, desc);
}
void ParamLister::count(const char* key, int& v, const char* desc, int, int) {
  add(key, "integer", std::to_string(v), "", desc);
}
void ParamLister::real(const char* key, double& v, const char* unit, const char* desc, double, double, bool) {
  std::ostringstream os;
  os << v;
  add(key, "real", os.str(), unit, desc);
}
void ParamLister::choice(const char* key, std::string& v, const std::vector<std::string>& options,
                         const char* desc) {
  std::string list;
  for (const auto& o : options) list += (list.empty() ? "" : "|") + o;
  add(key, list, v, "", desc);
}
void ParamLister::boolean(const char* key, bool& v, const char* desc) {
  add(key, "bool", v ? "true" : "false", "", desc);
}
void ParamLister::text(const char* key, std::string& v, const char* desc) {
  add(key, "text", v.empty() ? "\"\"" : v, "", desc);
}
void ParamLister::seed(const char* key, std::uint64_t& v, const char* desc) {
  add(key, "seed", std::to_string(v), "", desc);
}
void ParamLister::int_list(const char* key, std::vector<int>& v, const char* desc, int, int) {
  std::string def = "[";
  for (std::size_t i = 0; i < v.size(); ++i) def += (i ? ", " : "") + std::to_string(v[i]);
  add(key, "int list", def + "]", "", desc);
}
void ParamLister::begin_section(const char* name, const char*) { path_.push_back(name); }
void ParamLister::end_section() { path_.pop_back(); }

// ---------------------------------------------------------------------------

nlohmann::json& JsonParamWriter::cur() {
  nlohmann::json* j = &out;
  for (const auto& p : path_) j = &(*j)[p];
  return *j;
}
void JsonParamWriter::time_ps(const char* key, std::uint64_t& v, const char*, std::uint64_t) {
  cur()[key] = format_time_ps(v);
}
void JsonParamWriter::bandwidth(const char* key, double& v, const char*) { cur()[key] = format_bandwidth(v); }

}  // namespace wormcast::tb
