// SystemC allows one elaboration per kernel. A run (or a test) that builds
// its own hardware starts from a fresh simulation context with
// fresh_kernel().
//
// Ending a simulation: the modules of a run are owned by the run (the
// runner's network, a test's locals) and destroyed when it ends; the next
// fresh_kernel() then deletes the previous context with everything SystemC
// still holds for it: the process table, the coroutines of the SC_THREADs
// (their stacks) and the event queues. A context whose modules, channels or
// top-level events are still alive is not deleted (that would leave them
// pointing into freed memory); it is abandoned instead, which a leak-checking
// build reports.
//
// Thread stacks are discarded, not unwound: an SC_THREAD that never ends
// (DMA engines, processors) must not hold owning objects (vectors, shared
// pointers, TLM payloads) in locals across a wait(): what a thread keeps from
// one wait to the next lives in members of its module (docs/testing.md).
#pragma once

#include <string>
#include <systemc>

namespace wormcast::rtl {

namespace detail {

// The context the last fresh_kernel() created (nullptr before the first).
inline sc_core::sc_simcontext*& owned_kernel() {
  static sc_core::sc_simcontext* k = nullptr;
  return k;
}

// True when nothing but process objects is left at the top of the context's
// hierarchy: every module, channel and top-level event made in it is gone
// (destroyed modules hand their processes up to the context).
inline bool kernel_is_empty(const sc_core::sc_simcontext& k) {
  if (!sc_core::sc_get_top_level_events(&k).empty()) return false;
  for (const sc_core::sc_object* o : sc_core::sc_get_top_level_objects(&k)) {
    const std::string kind = o->kind();
    if (kind != "sc_method_process" && kind != "sc_thread_process" && kind != "sc_cthread_process") return false;
  }
  return true;
}

}  // namespace detail

inline void fresh_kernel() {
  sc_core::sc_simcontext* old = detail::owned_kernel();
  auto* k = new sc_core::sc_simcontext();
  sc_core::sc_curr_simcontext = k;
  sc_core::sc_default_global_context = k;
  detail::owned_kernel() = k;
  if (old != nullptr && old != k && detail::kernel_is_empty(*old)) delete old;
  sc_core::sc_report_handler::set_actions(sc_core::SC_ID_NO_SC_START_ACTIVITY_, sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);   // keep stdout ours
}

}  // namespace wormcast::rtl
