#include "rtl_models/node/ni_firmware.h"

namespace wormcast::rtl {

FirmwareRegistry& firmware_registry() {
  static FirmwareRegistry registry = [] {
    FirmwareRegistry r("NI firmware");
    r.add("conventional", "every packet to/from the host; hosts do all multicast work (seed000 §2.3)",
          [] { return std::make_unique<ConventionalFirmware>(); });
    r.add("fpfs", "smart NI, First-Packet-First-Served: relays each packet of a k-binomial multicast to its "
                  "children as it arrives, DMA to the host concurrently (seed000 §4.3)",
          [] { return make_smart_firmware(SmartDiscipline::fpfs); });
    r.add("fcfs", "smart NI, First-Child-First-Served: each packet to the first child as it arrives, the whole "
                  "message to the other children once complete (seed000 §4.2)",
          [] { return make_smart_firmware(SmartDiscipline::fcfs); });
    return r;
  }();
  return registry;
}

std::unique_ptr<NiFirmware> make_firmware(const std::string& kind) { return firmware_registry().make(kind); }

}  // namespace wormcast::rtl
