#include "src/analysis/model/model_memory.h"

#include <string>
#include <vector>

#include "src/hlo/hlo_programs.h"
#include "src/xspace/columnar/columnar_xspace.h"

namespace stepscope::analysis {
namespace {

// What a std::string holds beyond its object: heap capacity past the small-string buffer.
size_t Heap(const std::string& s) { return s.capacity() > 15 ? s.capacity() + 1 : 0; }

template <typename T>
size_t Elements(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

size_t Strings(const std::vector<std::string>& v) {
  size_t bytes = Elements(v);
  for (const std::string& s : v) bytes += Heap(s);
  return bytes;
}

size_t Ops(const OpMetricsDb& db) {
  size_t bytes = Elements(db.ops);
  for (const OpMetrics& op : db.ops) bytes += Heap(op.name) + Heap(op.type);
  return bytes;
}

size_t Threads(const std::vector<HostThread>& threads) {
  size_t bytes = Elements(threads);
  for (const HostThread& t : threads) {
    bytes += Heap(t.name) + Elements(t.event_index) + Elements(t.parent) + Elements(t.depth);
  }
  return bytes;
}

size_t Programs(const hlo::HloPrograms& programs) {
  // The reader's estimate is of the peak while both the protobuf messages and the module
  // were held (hlo_reader.h); the module alone keeps about three quarters of it
  // (measured in model_memory_test.cc).
  size_t bytes = Elements(programs.modules) + Strings(programs.diagnostics);
  for (const hlo::HloModule& module : programs.modules) bytes += static_cast<size_t>(module.memory_bytes) / 4 * 3;
  return bytes;
}

}  // namespace

size_t ModelMemoryBytes(const ProfileModel& model) {
  size_t bytes = sizeof(ProfileModel) + Strings(model.hostnames) + Strings(model.diagnostics);
  bytes += Elements(model.steps);
  for (const StepInfo& step : model.steps) bytes += Heap(step.name) + Elements(step.per_host);
  bytes += Elements(model.host_sync_waits) + Ops(model.host_ops) + Ops(model.device_ops);
  bytes += Elements(model.kernels);
  for (const KernelStats& k : model.kernels) bytes += Heap(k.kernel_name) + Heap(k.op_name);
  bytes += Elements(model.devices);
  for (const DeviceActivity& d : model.devices) {
    bytes += Heap(d.plane_name) + Elements(d.streams) + Elements(d.step_activity) + Elements(d.collective_traffic) +
             Elements(d.counters);
  }
  bytes += Elements(model.input_pipeline.ops) + Elements(model.input_pipeline.device_copies);
  bytes += Elements(model.memory.allocators) + Strings(model.memory.names);
  for (const MemoryAllocatorEvents& a : model.memory.allocators) bytes += a.events.used_bytes() + Heap(a.memory_id);
  bytes += Elements(model.pipeline_events);
  for (const PipelineEvents& p : model.pipeline_events) {
    bytes += Strings(p.names) + Strings(p.threads) + Elements(p.events) + Elements(p.iterator_stats);
  }
  bytes += Threads(model.host_threads) + Elements(model.hlo_ops);
  bytes += model.derived.MemoryBytes();
  if (model.source != nullptr) bytes += model.source->MemoryBytes();
  if (model.hlo != nullptr) bytes += Programs(*model.hlo);
  return bytes;
}

}  // namespace stepscope::analysis
