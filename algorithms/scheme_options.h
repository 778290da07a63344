// A multicast scheme's own options, declared once through visit(ParamVisitor&)
// on the object that holds them (its defaults are that object's values).
// `wormcast plan` offers each as --key, an experiment as traffic.key; both
// set them from text with the same checks, and the help texts are made from
// the declarations, so no caller keeps a list of any scheme's options.
// Scheme options are whole numbers (ParamVisitor::count), choices and flags
// (ParamVisitor::boolean); declaring any other kind is a programming error
// (std::logic_error). A description says what the option is up to its first
// "; " (errors quote that part), then its default. Plain C++, no SystemC.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "rtl_models/core/params.h"

namespace wormcast::algo {

// How the caller spells keys in its errors: `wormcast plan` says "scheme
// 'mutorus'" and --r, an experiment "traffic.scheme mutorus" and traffic.r.
struct SchemeKeys {
  std::string name;      // the scheme
  bool command_line = true;
  std::string scheme() const;                      // "scheme 'x'" / "traffic.scheme x"
  std::string option(const std::string& key) const;   // "--step-model" / "traffic.step_model"
};
SchemeKeys plan_keys(const std::string& scheme);
SchemeKeys experiment_keys(const std::string& scheme);

// Visits the object that holds a scheme's options. An empty schema declares
// none.
using OptionSchema = std::function<void(ParamVisitor&)>;

// Options as given, keyed as the schema declares them ("k", "flit_bits"):
// the text of the value ("3", "greedy"; a flag: "true" or "false").
using OptionTexts = std::map<std::string, std::string>;

struct DeclaredOption {
  std::string key, description;
  bool whole_number = false;   // a count; otherwise a choice or a flag
  bool flag = false;
};
std::vector<DeclaredOption> declared_options(const OptionSchema& schema);

// Sets the options of `given` that the schema declares, checked as declared
// (whole number in range, one of the choices, true/false), with errors naming
// keys.option(key). Returns the keys it set; the caller decides what an
// undeclared key means.
std::vector<std::string> apply_options(const OptionSchema& schema, const OptionTexts& given, const SchemeKeys& keys);

// An option some schemes of a registry declare: its key, its kind and, per
// scheme, what it means.
struct SchemeOptionInfo {
  std::string key;
  bool whole_number = false;
  bool flag = false;
  std::vector<std::pair<std::string, std::string>> meaning;   // (scheme, description)
  std::string described() const;   // "mutorus: partitions per phase ...; sci-mutorus: ..."
};
// What a workload offers as traffic.KEY for one option: its key and its
// merged description followed by `suffix` (what an unset value means).
struct OptionHelp {
  std::string key, help;
};
// One per option of `options` (only the whole-number ones when asked), in order.
std::vector<OptionHelp> option_helps(const std::vector<SchemeOptionInfo>& options, const std::string& suffix,
                                     bool whole_numbers_only = false);
// The options of the (scheme, schema) pairs, in first-declared order.
// std::logic_error when schemes declare one key as two kinds.
std::vector<SchemeOptionInfo> merge_options(const std::vector<std::pair<std::string, OptionSchema>>& schemas);

// The merged options of every scheme of a registry (rtl_models/core/
// registry.h) whose schemes declare them with visit(ParamVisitor&).
template <class SchemeRegistry>
std::vector<SchemeOptionInfo> registry_options(const SchemeRegistry& registry) {
  std::vector<decltype(registry.entries().front().make())> made;
  std::vector<std::pair<std::string, OptionSchema>> schemas;
  for (const auto& e : registry.entries()) {
    made.push_back(e.make());
    auto* scheme = made.back().get();
    schemas.emplace_back(e.name, [scheme](ParamVisitor& v) { scheme->visit(v); });
  }
  return merge_options(schemas);
}

// Sets the options of `given` on what `schema` visits (apply_options) and
// refuses a key it does not declare: "traffic.r applies only to
// traffic.scheme mutorus, sci-mutorus (scheme is utorus)", the takers read
// from `family`, the merged options of the scheme's registry.
void set_scheme_options(const OptionSchema& schema, const OptionTexts& given, const SchemeKeys& keys,
                        const std::vector<SchemeOptionInfo>& family);

}  // namespace wormcast::algo
