#include "algorithms/scheme_options.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace wormcast::algo {

// ---- keys --------------------------------------------------------------------

std::string SchemeKeys::scheme() const {
  return command_line ? "scheme '" + name + "'" : "traffic.scheme " + name;
}

std::string SchemeKeys::option(const std::string& key) const {
  if (!command_line) return "traffic." + key;
  std::string dashed = key;
  std::replace(dashed.begin(), dashed.end(), '_', '-');
  return "--" + dashed;
}

SchemeKeys plan_keys(const std::string& scheme) { return {scheme, true}; }
SchemeKeys experiment_keys(const std::string& scheme) { return {scheme, false}; }

// ---- the visitors --------------------------------------------------------------

namespace {

// Scheme options are counts, choices and flags; any other kind is a mistake
// in a scheme's visit().
class SchemaVisitor : public ParamVisitor {
 public:
  void cycles(const char* k, Cycle&, const char*, Cycle, Cycle) override { refuse(k); }
  void flits(const char* k, int&, const char*, int, int) override { refuse(k); }
  void time_ps(const char* k, std::uint64_t&, const char*, std::uint64_t) override { refuse(k); }
  void bandwidth(const char* k, double&, const char*) override { refuse(k); }
  void integer(const char* k, std::int64_t&, const char*, const char*, std::int64_t, std::int64_t) override {
    refuse(k);
  }
  void real(const char* k, double&, const char*, const char*, double, double, bool) override { refuse(k); }
  void text(const char* k, std::string&, const char*) override { refuse(k); }
  void seed(const char* k, std::uint64_t&, const char*) override { refuse(k); }
  void begin_section(const char* k, const char*) override { refuse(k); }
  void end_section() override {}

 private:
  static void refuse(const char* key) {
    throw std::logic_error(std::string("scheme option '") + key + "': only counts, choices and flags are supported");
  }
};

// What an option is: its description up to the first "; " (the rest says
// its default and its other readings).
std::string what(const char* desc) {
  const std::string d = desc;
  return d.substr(0, d.find("; "));
}

// Applies texts to the declared options.
class TextSetter : public SchemaVisitor {
 public:
  TextSetter(const OptionTexts& given, const SchemeKeys& keys) : given_(given), keys_(keys) {}
  std::vector<std::string> used;

  void count(const char* key, int& v, const char* desc, int min, int max) override {
    const std::string* t = find(key);
    if (!t) return;
    long long x = 0;
    std::istringstream is(*t);
    is >> x;
    if (is.fail() || is.peek() != std::char_traits<char>::eof())
      throw std::invalid_argument(keys_.option(key) + ": '" + *t + "' is not a whole number");
    if (x < min || x > max)
      throw std::invalid_argument(keys_.option(key) + " must be " + (x < min ? "at least " : "at most ") +
                                  std::to_string(x < min ? min : max) + " (" + what(desc) + "), got " + *t);
    v = static_cast<int>(x);
  }
  void choice(const char* key, std::string& v, const std::vector<std::string>& options, const char*) override {
    const std::string* t = find(key);
    if (!t) return;
    if (std::find(options.begin(), options.end(), *t) == options.end()) {
      std::string names;
      for (const std::string& o : options) names += (names.empty() ? "" : ", ") + o;
      throw std::invalid_argument(keys_.option(key) + ": '" + *t + "' is not one of " + names);
    }
    v = *t;
  }
  void boolean(const char* key, bool& v, const char*) override {
    const std::string* t = find(key);
    if (!t) return;
    if (*t != "true" && *t != "false")
      throw std::invalid_argument(keys_.option(key) + ": '" + *t + "' is not true or false");
    v = *t == "true";
  }

 private:
  const std::string* find(const char* key) {
    const auto it = given_.find(key);
    if (it == given_.end()) return nullptr;
    used.push_back(key);
    return &it->second;
  }
  const OptionTexts& given_;
  const SchemeKeys& keys_;
};

// Records what a schema declares.
class OptionLister : public SchemaVisitor {
 public:
  std::vector<DeclaredOption> declared;
  void count(const char* key, int&, const char* desc, int, int) override {
    declared.push_back({key, desc, true, false});
  }
  void choice(const char* key, std::string&, const std::vector<std::string>&, const char* desc) override {
    declared.push_back({key, desc, false, false});
  }
  void boolean(const char* key, bool&, const char* desc) override { declared.push_back({key, desc, false, true}); }
};

}  // namespace

std::vector<DeclaredOption> declared_options(const OptionSchema& schema) {
  OptionLister l;
  if (schema) schema(l);
  return l.declared;
}

std::vector<std::string> apply_options(const OptionSchema& schema, const OptionTexts& given, const SchemeKeys& keys) {
  TextSetter setter(given, keys);
  if (schema) schema(setter);
  return setter.used;
}

// ---- merged declarations -------------------------------------------------------

std::string SchemeOptionInfo::described() const {
  std::string out;
  for (std::size_t i = 0; i < meaning.size(); ++i) {
    std::string names = meaning[i].first;
    // Schemes that say the same thing share one entry.
    while (i + 1 < meaning.size() && meaning[i + 1].second == meaning[i].second) names += ", " + meaning[++i].first;
    out += (out.empty() ? "" : "; ") + names + ": " + meaning[i].second;
  }
  return out;
}

std::vector<SchemeOptionInfo> merge_options(const std::vector<std::pair<std::string, OptionSchema>>& schemas) {
  std::vector<SchemeOptionInfo> out;
  for (const auto& [scheme, schema] : schemas)
    for (const DeclaredOption& d : declared_options(schema)) {
      auto it = std::find_if(out.begin(), out.end(), [&d](const SchemeOptionInfo& o) { return o.key == d.key; });
      if (it == out.end()) it = out.insert(out.end(), SchemeOptionInfo{d.key, d.whole_number, d.flag, {}});
      if (it->whole_number != d.whole_number || it->flag != d.flag)
        throw std::logic_error("scheme option '" + d.key + "' declared as two kinds");
      it->meaning.emplace_back(scheme, d.description);
    }
  return out;
}

std::vector<OptionHelp> option_helps(const std::vector<SchemeOptionInfo>& options, const std::string& suffix,
                                     bool whole_numbers_only) {
  std::vector<OptionHelp> out;
  for (const SchemeOptionInfo& o : options)
    if (o.whole_number || !whole_numbers_only) out.push_back({o.key, o.described() + suffix});
  return out;
}

void set_scheme_options(const OptionSchema& schema, const OptionTexts& given, const SchemeKeys& keys,
                        const std::vector<SchemeOptionInfo>& family) {
  const std::vector<std::string> used = apply_options(schema, given, keys);
  for (const auto& [key, text] : given) {
    if (std::find(used.begin(), used.end(), key) != used.end()) continue;
    std::string takers;
    for (const SchemeOptionInfo& o : family)
      if (o.key == key)
        for (const auto& m : o.meaning) takers += (takers.empty() ? "" : ", ") + m.first;
    throw std::invalid_argument(keys.option(key) + " applies only to " +
                                (keys.command_line ? "schemes " : "traffic.scheme ") +
                                (takers.empty() ? std::string("none") : takers) + " (scheme is " + keys.name + ")");
  }
}

}  // namespace wormcast::algo
