// Bare packets for unit tests of buffers and links: a length and an id, no
// header (the modules under test only count and order flits).
#pragma once

#include <memory>

#include "rtl_models/core/packet.h"

namespace wormcast::test {

inline rtl::PacketPtr bare_packet(int length, rtl::PacketId id) {
  auto p = std::make_shared<rtl::Packet>();
  p->length = length;
  p->id = id;
  return p;
}

}  // namespace wormcast::test
