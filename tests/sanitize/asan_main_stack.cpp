// Sanitizer builds only (WORMCAST_SANITIZE, docs/testing.md): linked into
// every executable.
//
// SystemC 2.3.4 tells ASan about its coroutine switches
// (__sanitizer_start_switch_fiber, sc_cor_qt.cpp) but passes the main
// coroutine's stack as (nullptr, 0): it never learns the main stack's bounds.
// After the first return from an SC_THREAD to the kernel, ASan then believes
// the main stack has no bounds, ignores __asan_handle_no_return for every
// later exception thrown on it ("WARNING: ASan is ignoring requested
// __asan_handle_no_return: stack type: default top: 0x000000000000"), leaves
// the frames those exceptions unwind poisoned, and reports a false
// stack-buffer-overflow later (google/sanitizers#189). SystemC 3.0 records
// the bounds itself; here the switch gets the main thread's real bounds.
//
// Second, a thread stack is discarded with its frames still on it when a
// simulation's context is deleted (rtl_models/core/kernel.h): the frames' red
// zones stay poisoned in ASan's shadow after SystemC munmaps the stack, and
// the next context's coroutine stack, mapped at the same address, would
// inherit them (false stack-buffer-overflows in the next test of the same
// process). munmap here clears the shadow of what it unmaps.
#include <dlfcn.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstddef>

extern "C" {

void __asan_unpoison_memory_region(void const volatile* addr, std::size_t size);

int munmap(void* addr, std::size_t length) {
  if (addr != nullptr && length != 0) __asan_unpoison_memory_region(addr, length);
  return static_cast<int>(syscall(SYS_munmap, addr, length));
}

using StartSwitchFiber = void (*)(void**, const void*, std::size_t);

void __sanitizer_start_switch_fiber(void** fake_stack_save, const void* bottom, std::size_t size) {
  static const auto real = reinterpret_cast<StartSwitchFiber>(dlsym(RTLD_NEXT, "__sanitizer_start_switch_fiber"));
  static void* main_bottom = nullptr;
  static std::size_t main_size = 0;
  if (bottom == nullptr && size == 0) {   // switching back to the main coroutine
    if (main_bottom == nullptr) {
      pthread_attr_t attr;
      if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        pthread_attr_getstack(&attr, &main_bottom, &main_size);
        pthread_attr_destroy(&attr);
      }
    }
    bottom = main_bottom;
    size = main_size;
  }
  if (real != nullptr) real(fake_stack_save, bottom, size);
}

}  // extern "C"
