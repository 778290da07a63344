// An InfiniBand multicast scheme of seed003 (Zhou, Lin, Chung) as one
// definition: its planner for `wormcast plan` (scheme "ib-" + its name, in
// the plan contract) and what the subnet manager programs and each sender
// sends in one trial of the `ib_multicast` workload (traffic.scheme: its
// name). Neither tells schemes apart; adding one is a class in plan_ib.cpp
// plus one line in ib_schemes(). Plain C++, no SystemC.
#pragma once

#include <cstddef>
#include <vector>

#include "algorithms/ib_multicast.h"
#include "algorithms/plan.h"
#include "algorithms/scheme_options.h"
#include "rtl_models/core/registry.h"

namespace wormcast::algo {

// A table the subnet manager programs (one MLID), the nodes it joins (a
// sender's packet reaches each of them but the sender, and nothing else)
// and the senders, as indices into the trial's sender list, that multicast
// through it.
struct IbTable {
  Mft mft;
  std::vector<topo::NodeId> group;
  std::vector<std::size_t> senders;
};

// One trial: the tables in the order they are programmed (MLIDs are given
// in that order), or, for a unicast scheme, none: every sender then sends
// one unicast per member with its cyclic DLID, back to back.
struct IbTrialPlan {
  std::vector<IbTable> tables;
  bool unicasts = false;
};

class IbScheme {
 public:
  virtual ~IbScheme() = default;
  // Its own options, declared once (scheme_options.h); the defaults are the
  // members' values. `plan` offers them as --key, ib_multicast as traffic.key.
  virtual void visit(ParamVisitor& v) { (void)v; }
  // The whole multicast of q (a fat tree, a source and destinations).
  virtual MulticastPlan plan(const PlanRequest& q) const = 0;
  // A trial with these senders and members (a sender may be a member; it
  // never receives its own message).
  virtual IbTrialPlan trial(const topo::FatTree& t, const std::vector<topo::NodeId>& senders,
                            const std::vector<topo::NodeId>& members) const = 0;
};

using IbSchemeRegistry = Registry<IbScheme>;
// cyclic, opensm, unicast (seed003 §7, §8, §9).
const IbSchemeRegistry& ib_schemes();

// Sets a scheme's options given as text, with errors naming keys.option(key);
// a key the scheme does not declare is refused, naming the schemes that do.
void set_options(IbScheme& s, const OptionTexts& given, const SchemeKeys& keys);
// The options of every IB scheme, merged.
std::vector<SchemeOptionInfo> ib_scheme_options();

}  // namespace wormcast::algo
