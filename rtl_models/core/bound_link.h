// The rtl::Link bound to a port, for modules that call their links
// directly (the switch, the VC router's internal ports): anything else bound
// there is refused at elaboration.
#pragma once

#include <stdexcept>
#include <string>

#include "rtl_models/core/link.h"

namespace wormcast::rtl {

// `channel` as an rtl::Link; throws std::logic_error naming `module` and
// `port` (e.g. "port 3", "internal port 0") when it is some other channel.
template <class If>
Link* bound_link(If* channel, const char* module, const std::string& port) {
  Link* link = dynamic_cast<Link*>(channel);
  if (!link)
    throw std::logic_error(std::string(module) + ": " + port + " is bound to a channel that is not an rtl::Link");
  return link;
}

}  // namespace wormcast::rtl
