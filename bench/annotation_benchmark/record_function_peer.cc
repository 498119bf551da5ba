#include "bench/annotation_benchmark/record_function_peer.h"

#include <ATen/record_function.h>

#include <memory>
#include <optional>
#include <vector>

namespace stepscope::bench {
namespace {

thread_local uint64_t t_observed_calls = 0;
std::optional<at::CallbackHandle> g_handle;

std::unique_ptr<at::ObserverContext> OnStart(const at::RecordFunction&) {
  ++t_observed_calls;
  return nullptr;
}

void OnEnd(const at::RecordFunction&, at::ObserverContext*) {}

}  // namespace

void AddCountingObserver() {
  if (g_handle.has_value()) return;
  g_handle = at::addGlobalCallback(at::RecordFunctionCallback(OnStart, OnEnd).needsInputs(false));
}

void RemoveCountingObserver() {
  if (!g_handle.has_value()) return;
  at::removeCallback(*g_handle);
  g_handle.reset();
}

uint64_t ObservedCallsOnThisThread() { return t_observed_calls; }

void RunRecordFunctionScopes(int64_t scopes) {
  const std::vector<c10::IValue> no_inputs;
  for (int64_t i = 0; i < scopes; i += 8) {
    { RECORD_FUNCTION("bench_scope", no_inputs); }
    { RECORD_FUNCTION("bench_scope", no_inputs); }
    { RECORD_FUNCTION("bench_scope", no_inputs); }
    { RECORD_FUNCTION("bench_scope", no_inputs); }
    { RECORD_FUNCTION("bench_scope", no_inputs); }
    { RECORD_FUNCTION("bench_scope", no_inputs); }
    { RECORD_FUNCTION("bench_scope", no_inputs); }
    { RECORD_FUNCTION("bench_scope", no_inputs); }
  }
}

}  // namespace stepscope::bench
