#include "algorithms/direct_scheme.h"

#include <algorithm>
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

OptionSchema schema_of(DirectScheme& s) {
  return [&s](ParamVisitor& v) { s.visit(v); };
}

}  // namespace

void set_options(DirectScheme& s, const std::map<std::string, std::string>& given, const SchemeKeys& keys) {
  set_scheme_options(schema_of(s), given, keys, direct_scheme_options());
  s.check_options(keys);
}

std::vector<DirectOptionInfo> direct_scheme_options() {
  return registry_options(direct_schemes());
}

std::vector<std::string> options_of(DirectScheme& s, const SchemeKeys& keys) {
  std::vector<std::string> out;
  for (const DeclaredOption& d : declared_options(schema_of(s))) out.push_back(keys.option(d.key));
  return out;
}

}  // namespace wormcast::algo
