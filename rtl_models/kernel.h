// SystemC allows one elaboration per kernel. A run (or a test) that builds
// its own hardware starts from a fresh simulation context; modules of the
// previous context are abandoned, not destroyed.
#pragma once

#include <systemc>

namespace wormcast::rtl {

inline void fresh_kernel() {
  sc_core::sc_curr_simcontext = new sc_core::sc_simcontext();
  sc_core::sc_default_global_context = sc_core::sc_curr_simcontext;
  sc_core::sc_report_handler::set_actions(sc_core::SC_ID_NO_SC_START_ACTIVITY_, sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);   // keep stdout ours
}

}  // namespace wormcast::rtl
