// The "3-way" link option of seed001 §5.2 (Robinson, Sec. 4.5): the virtual
// channels of BOTH directions between two neighbouring routers share one
// bidirectional physical link, flit by flit, round-robin among all VCs of
// both ends that have a flit to send (with BTR, c_{dh0}, c_{dp1} and c_{dl1}
// of Fig. 4.3 on one link: hence "3-way"). Without the option each direction
// has its own physical link shared only by its own VCs.
//
// Each direction keeps its own rtl::VcLink (per-VC credits, its in-flight
// flits); this arbiter only decides which of the two routers may put a flit
// on the wire in a cycle, so the links are untouched by the option. In cycle t each router posts the set of its VCs on the port
// that could send (flit readable, VC held, credit); one delta cycle later,
// when both routers have evaluated cycle t, the arbiter grants one VC and
// calls its router back, which sends the flit at cycle t. The round-robin
// order is side 0's VCs (the router at the lower coordinate: the one whose
// + channel this is) then side 1's, starting with side 0's VC 0.
#pragma once

#include <cstdint>
#include <systemc>

#include "rtl_models/core/clock.h"

namespace wormcast::rtl {

class SharedLinkClient {
 public:
  virtual ~SharedLinkClient() = default;
  // The arbiter grants VC `vc` of external port `port` the wire at cycle `now`.
  virtual void shared_link_grant(int port, int vc, Cycle now) = 0;
};

class SharedLink : public sc_core::sc_module {
 public:
  SharedLink(sc_core::sc_module_name name, int vcs_per_side);
  void attach(int side, SharedLinkClient* client, int port);
  // Side 0/1 has VCs `mask` (bit v = VC v) able to send at cycle `now`.
  void request(int side, std::uint32_t mask, Cycle now);
  std::uint64_t flits_granted() const { return granted_; }

 private:
  void decide();
  int vcs_;
  SharedLinkClient* client_[2] = {nullptr, nullptr};
  int port_[2] = {-1, -1};
  std::uint32_t mask_[2] = {0, 0};
  Cycle req_cycle_ = UINT64_MAX, decided_ = UINT64_MAX;
  int rr_ = 0;   // next VC in the order side 0 VC 0..vcs-1, side 1 VC 0..vcs-1
  std::uint64_t granted_ = 0;
  sc_core::sc_event decide_ev_;
};

}  // namespace wormcast::rtl
