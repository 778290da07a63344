// embed::IbMulticast (embed/multicast.h): tb::IbMulticastService on an
// embedded network, its errors named as the embedding API's.
#include "embed/multicast.h"

namespace wormcast::embed {

IbMulticast::IbMulticast(Network& net, const std::string& scheme, const tb::IbPacketFormat& format,
                         const std::map<std::string, std::string>& options)
    : tb::IbMulticastService(net.model(), net.clock(),
                             {"embed::IbMulticast", net.config().network.name, net.config().node.name}, scheme, format,
                             options) {}

}  // namespace wormcast::embed
