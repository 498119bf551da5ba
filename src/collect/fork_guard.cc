#include "src/collect/fork_guard.h"

#include <pthread.h>

#include <atomic>
#include <mutex>

#include "stepscope/internal/recorder.h"

namespace stepscope::collect {
namespace {

std::atomic<bool> g_in_forked_child{false};

// Runs in the child right after fork(), on its only thread: async-signal-safe work only.
void OnForkChild() {
  internal::g_host_tracer_level.store(0, std::memory_order_release);
  g_in_forked_child.store(true, std::memory_order_release);
}

}  // namespace

void InstallForkGuard() {
  static std::once_flag once;
  std::call_once(once, [] { pthread_atfork(nullptr, nullptr, OnForkChild); });
}

bool InForkedChild() { return g_in_forked_child.load(std::memory_order_acquire); }

const char* ForkedChildMessage() {
  return "this process was forked from a process that profiles with stepscope (e.g. a DataLoader "
         "worker); profiling is off in forked children";
}

}  // namespace stepscope::collect
