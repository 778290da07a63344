#include "rtl_models/ni_firmware.h"

namespace wormcast::rtl {

FirmwareRegistry& firmware_registry() {
  static FirmwareRegistry registry = [] {
    FirmwareRegistry r("NI firmware");
    r.add("conventional", "every packet to/from the host; hosts do all multicast work (seed000 §2.3)",
          [] { return std::make_unique<ConventionalFirmware>(); });
    return r;
  }();
  return registry;
}

std::unique_ptr<NiFirmware> make_firmware(const std::string& kind) { return firmware_registry().make(kind); }

}  // namespace wormcast::rtl
