#include "rtl_models/direct/shared_link.h"

#include <stdexcept>
#include <string>

namespace wormcast::rtl {

SharedLink::SharedLink(sc_core::sc_module_name name, int vcs_per_side) : sc_core::sc_module(name), vcs_(vcs_per_side) {
  if (vcs_ < 1 || vcs_ > 16) throw std::invalid_argument(std::string(basename()) + ": 1..16 VCs per side");
  sc_core::sc_spawn_options opts;
  opts.spawn_method();
  opts.dont_initialize();
  opts.set_sensitivity(&decide_ev_);
  sc_core::sc_spawn(sc_core::sc_bind(&SharedLink::decide, this), sc_core::sc_gen_unique_name("decide"), &opts);
}

void SharedLink::attach(int side, SharedLinkClient* client, int port) {
  client_[side] = client;
  port_[side] = port;
}

void SharedLink::request(int side, std::uint32_t mask, Cycle now) {
  if (decided_ == now) return;   // a late request: the wire is taken this cycle, the router retries next cycle
  if (req_cycle_ != now) {
    req_cycle_ = now;
    mask_[0] = mask_[1] = 0;
    decide_ev_.notify(sc_core::SC_ZERO_TIME);   // after every router of this cycle has evaluated
  }
  mask_[side] |= mask;
}

void SharedLink::decide() {
  const Cycle now = req_cycle_;
  if (decided_ == now) return;
  decided_ = now;
  const int n = 2 * vcs_;
  for (int k = 0; k < n; ++k) {
    const int i = (rr_ + k) % n, side = i / vcs_, vc = i % vcs_;
    if (!(mask_[side] >> vc & 1u)) continue;
    rr_ = (i + 1) % n;
    ++granted_;
    client_[side]->shared_link_grant(port_[side], vc, now);
    return;
  }
}

}  // namespace wormcast::rtl
