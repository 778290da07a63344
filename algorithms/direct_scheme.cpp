#include "algorithms/direct_scheme.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace wormcast::algo {

using topo::DirectRouting;
using topo::DirectTopology;

// ---- the registry: one line per scheme ---------------------------------------

// Each defined in its scheme's file.
void add_cube_schemes(DirectSchemeRegistry& r);
void add_utorus_scheme(DirectSchemeRegistry& r);
void add_mtorus_schemes(DirectSchemeRegistry& r);
void add_separate_scheme(DirectSchemeRegistry& r);
void add_sci_schemes(DirectSchemeRegistry& r);

const DirectSchemeRegistry& direct_schemes() {
  static const DirectSchemeRegistry registry = [] {
    DirectSchemeRegistry r("direct multicast scheme");
    add_cube_schemes(r);          // cube_scheme.cpp
    add_utorus_scheme(r);         // utorus_scheme.cpp
    add_mtorus_schemes(r);        // mtorus_scheme.cpp
    add_separate_scheme(r);       // separate_addressing.cpp
    add_sci_schemes(r);           // sci_scheme.cpp
    return r;
  }();
  return registry;
}

DirectRouting DirectScheme::plan_routing(const DirectTopology& t) const { return DirectRouting(t, topo::default_routing(t)); }

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

// ---- network requirements ----------------------------------------------------

namespace {

const NetworkNeed* first_unmet(const std::vector<NetworkNeed>& needs, const DirectTopology* t,
                               const DirectRouting* routing) {
  for (const NetworkNeed& n : needs)
    if (!t || !n.fits(*t) || (routing && !n.routes(*routing))) return &n;
  return nullptr;
}

std::string routing_text(const DirectRouting& r) {
  return std::string(topo::to_string(r.algorithm())) +
         (r.order() == topo::DimOrder::descending ? " (descending)" : " (ascending)");
}

}  // namespace

void require_network(const DirectScheme& s, const SchemeKeys& keys, const DirectTopology* t,
                     const DirectRouting* routing, const std::string& what) {
  const std::vector<NetworkNeed> needs = s.needs();
  const NetworkNeed* n = first_unmet(needs, t, routing);
  if (!n) return;
  const std::string have = !what.empty() ? what : t ? t->spec() : std::string();
  if (keys.command_line)
    throw std::invalid_argument(keys.scheme() + " needs " + n->topology + " (" + n->plan_hint + "); " +
                                (have.empty() ? std::string("no --topology given") : have + " is not one"));
  throw std::invalid_argument(keys.scheme() + " needs " + n->topology + " with " + n->routing + "; the network is " +
                              (t && routing ? have + " with routing " + routing_text(*routing) : have));
}

// ---- options -----------------------------------------------------------------

namespace {

// Scheme options are counts and choices; any other kind is a mistake in a
// scheme's visit().
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
  void boolean(const char* k, bool&, const char*) override { refuse(k); }
  void text(const char* k, std::string&, const char*) override { refuse(k); }
  void seed(const char* k, std::uint64_t&, const char*) override { refuse(k); }
  void begin_section(const char* k, const char*) override { refuse(k); }
  void end_section() override {}

 private:
  static void refuse(const char* key) {
    throw std::logic_error(std::string("direct scheme option '") + key + "': only counts and choices are supported");
  }
};

// Applies texts to the declared options.
class TextSetter : public SchemaVisitor {
 public:
  TextSetter(const std::map<std::string, std::string>& given, const SchemeKeys& keys) : given_(given), keys_(keys) {}
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
                                  std::to_string(x < min ? min : max) + " (" + desc + "), got " + *t);
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

 private:
  const std::string* find(const char* key) {
    const auto it = given_.find(key);
    if (it == given_.end()) return nullptr;
    used.push_back(key);
    return &it->second;
  }
  const std::map<std::string, std::string>& given_;
  const SchemeKeys& keys_;
};

// Records what a scheme declares.
class OptionLister : public SchemaVisitor {
 public:
  struct Declared {
    std::string key, description;
    bool whole_number;
  };
  std::vector<Declared> declared;
  void count(const char* key, int&, const char* desc, int, int) override { declared.push_back({key, desc, true}); }
  void choice(const char* key, std::string&, const std::vector<std::string>&, const char* desc) override {
    declared.push_back({key, desc, false});
  }
};

std::vector<OptionLister::Declared> declared_by(DirectScheme& s) {
  OptionLister l;
  s.visit(l);
  return l.declared;
}

// "traffic.r applies only to traffic.scheme mutorus, sci-mutorus (scheme is x)".
[[noreturn]] void refuse_option(const std::string& key, const SchemeKeys& keys) {
  std::string takers;
  for (const DirectOptionInfo& o : direct_scheme_options())
    if (o.key == key)
      for (const auto& m : o.meaning) takers += (takers.empty() ? "" : ", ") + m.first;
  throw std::invalid_argument(keys.option(key) + " applies only to " + (keys.command_line ? "schemes " : "traffic.scheme ") +
                              (takers.empty() ? std::string("none") : takers) + " (scheme is " + keys.name + ")");
}

}  // namespace

void set_options(DirectScheme& s, const std::map<std::string, std::string>& given, const SchemeKeys& keys) {
  TextSetter setter(given, keys);
  s.visit(setter);
  for (const auto& [key, text] : given)
    if (std::find(setter.used.begin(), setter.used.end(), key) == setter.used.end()) refuse_option(key, keys);
  s.check_options(keys);
}

std::string DirectOptionInfo::described() const {
  std::string out;
  for (std::size_t i = 0; i < meaning.size(); ++i) {
    std::string names = meaning[i].first;
    // Schemes that say the same thing share one entry.
    while (i + 1 < meaning.size() && meaning[i + 1].second == meaning[i].second) names += ", " + meaning[++i].first;
    out += (out.empty() ? "" : "; ") + names + ": " + meaning[i].second;
  }
  return out;
}

std::vector<DirectOptionInfo> direct_scheme_options() {
  std::vector<DirectOptionInfo> out;
  for (const auto& e : direct_schemes().entries())
    for (const OptionLister::Declared& d : declared_by(*e.make())) {
      auto it = std::find_if(out.begin(), out.end(), [&d](const DirectOptionInfo& o) { return o.key == d.key; });
      if (it == out.end()) it = out.insert(out.end(), DirectOptionInfo{d.key, d.whole_number, {}});
      if (it->whole_number != d.whole_number)
        throw std::logic_error("direct scheme option '" + d.key + "' declared as two kinds");
      it->meaning.emplace_back(e.name, d.description);
    }
  return out;
}

std::vector<std::string> options_of(DirectScheme& s, const SchemeKeys& keys) {
  std::vector<std::string> out;
  for (const OptionLister::Declared& d : declared_by(s)) out.push_back(keys.option(d.key));
  return out;
}

}  // namespace wormcast::algo
