// How a switch-based multicast worm's header is encoded (seed000 §5.3;
// algorithms/headers.h encodes each): an SSR header (one destination
// switch), a multi-drop header (switch and port-string pairs), or a tree
// header (the up-down bit and a destination bit string). Unicast packets
// carry none. A decoder reads the encoding to parse the header it was sent.
#pragma once

#include <cstdint>

namespace wormcast::algo {

enum class WormEncoding : std::uint8_t { none, ssr, multidrop, tree };

}  // namespace wormcast::algo
