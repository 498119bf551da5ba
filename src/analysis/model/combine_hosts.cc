#include "src/analysis/model/combine_hosts.h"

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "src/analysis/model/hlo_kernels.h"
#include "src/analysis/model/launch_threads.h"
#include "src/analysis/model/pipeline_events.h"
#include "src/analysis/model/sat_math.h"
#include "src/hlo/hlo_programs.h"

namespace stepscope::analysis {
namespace {

// Appends `item` to `into` the first time its key is seen, else folds it into the row
// with that key (`fold(row, item)`).
template <typename Index, typename Key, typename T, typename Fold>
void MergeByKey(const T& item, Key&& key, Index* index, std::vector<T>* into, Fold fold) {
  auto [it, inserted] = index->try_emplace(std::forward<Key>(key), into->size());
  if (inserted) {
    into->push_back(item);
  } else {
    fold((*into)[it->second], item);
  }
}

void MergeOps(const OpMetricsDb& from, OpMetricsDb* into, std::unordered_map<std::string, size_t>* index) {
  AddTo(into->total_time_ps, from.total_time_ps);
  AddTo(into->idle_time_ps, from.idle_time_ps);
  AddTo(into->total_self_time_ps, from.total_self_time_ps);
  into->has_memory = into->has_memory || from.has_memory;
  for (const OpMetrics& op : from.ops) {
    auto [it, inserted] = index->try_emplace(op.name, into->ops.size());
    if (inserted) {
      into->ops.push_back(op);
      continue;
    }
    OpMetrics& merged = into->ops[it->second];
    merged.occurrences += op.occurrences;
    AddTo(merged.total_time_ps, op.total_time_ps);
    AddTo(merged.self_time_ps, op.self_time_ps);
    merged.min_time_ps = std::min(merged.min_time_ps, op.min_time_ps);
    merged.max_time_ps = std::max(merged.max_time_ps, op.max_time_ps);
    merged.is_eager = merged.is_eager || op.is_eager;
    AddTo(merged.cpu_memory_bytes, op.cpu_memory_bytes);
    AddTo(merged.self_cpu_memory_bytes, op.self_cpu_memory_bytes);
    AddTo(merged.device_memory_bytes, op.device_memory_bytes);
    AddTo(merged.self_device_memory_bytes, op.self_device_memory_bytes);
  }
}

// Appends one host's memory events: names re-indexed into the combined table, allocators
// tagged with the host.
void MergeMemory(MemoryEvents from, int host_index, MemoryEvents* into,
                 std::unordered_map<std::string, uint32_t>* name_index) {
  if (into->names.empty()) {
    into->names.emplace_back();
    name_index->emplace("", 0);
  }
  std::vector<uint32_t> remap(from.names.size());
  for (size_t i = 0; i < from.names.size(); ++i) {
    auto [it, inserted] = name_index->try_emplace(from.names[i], static_cast<uint32_t>(into->names.size()));
    if (inserted) into->names.push_back(from.names[i]);
    remap[i] = it->second;
  }
  auto mapped = [&](uint32_t i) { return i < remap.size() ? remap[i] : 0; };
  for (MemoryAllocatorEvents& allocator : from.allocators) {
    allocator.host_index = host_index;
    for (MemoryEvent& e : allocator.events) {
      e.op_name = mapped(e.op_name);
      e.region_type = mapped(e.region_type);
      e.shape = mapped(e.shape);
    }
    into->allocators.push_back(std::move(allocator));
  }
  AddTo(into->invalid_values, from.invalid_values);
}

void SortOps(OpMetricsDb* db) {
  std::sort(db->ops.begin(), db->ops.end(), [](const OpMetrics& a, const OpMetrics& b) {
    return a.self_time_ps != b.self_time_ps ? a.self_time_ps > b.self_time_ps : a.name < b.name;
  });
}

// A kernel row's key: name, op and launch parameters. Hashed, not ordered: a pod folds in
// hundreds of kernels a host, and an ordered map compared their long names a dozen times each.
using KernelKey = std::tuple<std::string, std::string, std::optional<int64_t>, std::optional<int64_t>, int64_t,
                             std::array<int64_t, 3>, std::array<int64_t, 3>>;

struct KernelKeyHash {
  size_t operator()(const KernelKey& key) const {
    size_t h = std::hash<std::string>()(std::get<0>(key));
    auto mix = [&h](uint64_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
    mix(std::hash<std::string>()(std::get<1>(key)));
    for (const std::optional<int64_t>& v : {std::get<2>(key), std::get<3>(key)}) {
      mix(v.has_value() ? static_cast<uint64_t>(*v) : 0x5bd1e995ull);
    }
    mix(static_cast<uint64_t>(std::get<4>(key)));
    for (int64_t v : std::get<5>(key)) mix(static_cast<uint64_t>(v));
    for (int64_t v : std::get<6>(key)) mix(static_cast<uint64_t>(v));
    return h;
  }
};

}  // namespace

// What folding hosts in needs beyond the combined model: the rows' indices by key.
struct HostCombiner::State {
  ProfileModel combined;
  std::unordered_map<std::string, size_t> host_op_index, device_op_index, input_op_index;
  std::map<std::tuple<std::string, std::string, std::string>, size_t> input_copy_index;  // (op, copy, source)
  std::unordered_map<KernelKey, size_t, KernelKeyHash> kernel_index;
  std::map<int64_t, size_t> step_index;  // step number -> combined step
  std::map<std::pair<std::string, std::string>, size_t> sync_index;  // (call, op) -> host_sync_waits
  std::unordered_map<std::string, uint32_t> memory_name_index;
  std::string step_source;
  std::vector<std::shared_ptr<const hlo::HloPrograms>> hlo_parts;
  size_t hosts = 0;  // folded in
};

HostCombiner::HostCombiner() : state_(std::make_unique<State>()) {}
HostCombiner::~HostCombiner() = default;

void HostCombiner::Add(ProfileModel host) {
  ++added_;
  if (added_ == 1) {  // held: a single model is returned unchanged
    first_ = std::move(host);
    return;
  }
  if (added_ == 2) Fold(std::move(first_));
  Fold(std::move(host));
}

void HostCombiner::Fold(ProfileModel model) {
  State& st = *state_;
  ProfileModel& combined = st.combined;
  RunEnvironment& run = combined.run_environment;
  const size_t h = st.hosts++;
  const int host_index = static_cast<int>(combined.hostnames.size());
  std::string host_name = model.hostnames.empty() ? "host " + std::to_string(h) : model.hostnames[0];
  for (const std::string& name : model.hostnames) combined.hostnames.push_back(name);
  for (HostEnvironment& env : model.run_environment.hosts) run.hosts.push_back(std::move(env));
  const RunEnvironment& from = model.run_environment;
  if (run.device_type.empty() || run.device_type == "CPU") run.device_type = from.device_type;
  run.device_count += from.device_count;
  run.active_device_count += from.active_device_count;
  run.device_core_count += from.device_core_count;
  AddTo(run.dropped_traces, from.dropped_traces);
  combined.has_device = combined.has_device || model.has_device;
  combined.total_events += model.total_events;
  KeepPipelineEvents(&model);  // the combined model keeps no event trees
  if (model.pipeline_events.empty()) combined.pipeline_events.emplace_back();  // one entry per host
  for (PipelineEvents& events : model.pipeline_events) combined.pipeline_events.push_back(std::move(events));
  combined.device_step_ties.Add(model.device_step_ties);
  AddLaunchThreads(model.launch_threads, &combined.launch_threads);
  st.step_source = h == 0 ? model.step_source : (st.step_source == model.step_source ? st.step_source : "mixed");
  if (h == 0 || model.step_cadence.device_interval_ps > combined.step_cadence.device_interval_ps) {
    combined.step_cadence = model.step_cadence;  // the slowest host's
  }

  for (StepInfo& step : model.steps) {
    HostStep per_host{host_index, step.begin_ps, step.duration_ps, step.breakdown};
    auto [it, inserted] = st.step_index.try_emplace(step.step_number, combined.steps.size());
    if (inserted) {
      StepInfo& first = combined.steps.emplace_back(step);
      first.per_host.clear();
      first.per_host.push_back(per_host);
      continue;
    }
    StepInfo& merged = combined.steps[it->second];
    merged.per_host.push_back(per_host);
    merged.has_device_activity = merged.has_device_activity || step.has_device_activity;
    if (step.duration_ps > merged.duration_ps) {  // the slowest host defines the step
      merged.begin_ps = step.begin_ps;
      merged.duration_ps = step.duration_ps;
      merged.time_source = step.time_source;
      merged.breakdown = step.breakdown;
      merged.host_begin_ps = step.host_begin_ps;
      merged.host_end_ps = step.host_end_ps;
      merged.device_end_ps = step.device_end_ps;
      merged.device_busy_ps = step.device_busy_ps;
    }
  }

  for (const HostSyncWait& wait : model.host_sync_waits) {
    MergeByKey(wait, std::make_pair(wait.call, wait.op), &st.sync_index, &combined.host_sync_waits,
               [](HostSyncWait& merged, const HostSyncWait& w) {
                 merged.count += w.count;
                 AddTo(merged.total_ps, w.total_ps);
                 AddTo(merged.in_steps_ps, w.in_steps_ps);
               });
  }
  MergeOps(model.host_ops, &combined.host_ops, &st.host_op_index);
  MergeOps(model.device_ops, &combined.device_ops, &st.device_op_index);

  for (const KernelStats& k : model.kernels) {
    const KernelLaunchParams& p = k.params;
    auto key = std::make_tuple(k.kernel_name, k.op_name, p.registers_per_thread, p.static_shared_memory_bytes,
                               p.dynamic_shared_memory_bytes, p.grid, p.block);
    MergeByKey(k, std::move(key), &st.kernel_index, &combined.kernels, [](KernelStats& merged, const KernelStats& from) {
      merged.occurrences += from.occurrences;
      AddTo(merged.total_duration_ps, from.total_duration_ps);
      merged.min_duration_ps = std::min(merged.min_duration_ps, from.min_duration_ps);
      merged.max_duration_ps = std::max(merged.max_duration_ps, from.max_duration_ps);
      merged.is_op_tensor_core_eligible = merged.is_op_tensor_core_eligible || from.is_op_tensor_core_eligible;
    });
  }

  for (DeviceActivity& device : model.devices) {
    device.host_index = host_index;
    combined.devices.push_back(std::move(device));
  }

  InputPipelineFacts& input = combined.input_pipeline;
  const InputPipelineFacts& host_input = model.input_pipeline;
  input.uses_tf_data = input.uses_tf_data || host_input.uses_tf_data;
  input.get_next_count += host_input.get_next_count;
  input.data_loader_next_count += host_input.data_loader_next_count;
  input.get_next_outside_steps += host_input.get_next_outside_steps;
  for (const DeviceInputCopy& copy : host_input.device_copies) {
    MergeByKey(copy, std::make_tuple(copy.op_name, copy.copy_name, copy.source_memory), &st.input_copy_index,
               &input.device_copies, [](DeviceInputCopy& merged, const DeviceInputCopy& from) {
                 merged.occurrences += from.occurrences;
                 AddTo(merged.total_time_ps, from.total_time_ps);
                 AddTo(merged.bytes, from.bytes);
               });
  }
  for (int c = 0; c < kNumInputOpCategories; ++c) AddTo(input.category_self_time_ps[c], host_input.category_self_time_ps[c]);
  for (const InputOp& op : host_input.ops) {
    MergeByKey(op, op.name, &st.input_op_index, &input.ops, [](InputOp& merged, const InputOp& from) {
      merged.occurrences += from.occurrences;
      AddTo(merged.total_time_ps, from.total_time_ps);
      AddTo(merged.self_time_ps, from.self_time_ps);
    });
  }

  MergeMemory(std::move(model.memory), host_index, &combined.memory, &st.memory_name_index);

  for (const std::string& d : model.diagnostics) combined.diagnostics.push_back(host_name + ": " + d);
  st.hlo_parts.push_back(std::move(model.hlo));
  internal::MergeHloOps(model.hlo_ops, &combined.hlo_ops);
  combined.hlo_join.kernels += model.hlo_join.kernels;
  combined.hlo_join.kernels_with_hlo_op += model.hlo_join.kernels_with_hlo_op;
}

ProfileModel HostCombiner::Finish() && {
  if (added_ <= 1) return std::move(first_);
  State& st = *state_;
  ProfileModel& combined = st.combined;
  combined.hlo = hlo::MergeHloPrograms(st.hlo_parts);
  internal::ResolveHloOps(combined.hlo.get(), &combined.hlo_ops, &combined.hlo_join);

  combined.step_source = st.step_source;
  std::sort(combined.steps.begin(), combined.steps.end(),
            [](const StepInfo& a, const StepInfo& b) { return a.step_number < b.step_number; });
  SortHostSyncWaits(&combined.host_sync_waits);
  SortOps(&combined.host_ops);
  SortOps(&combined.device_ops);
  std::sort(combined.kernels.begin(), combined.kernels.end(), [](const KernelStats& a, const KernelStats& b) {
    if (a.total_duration_ps != b.total_duration_ps) return a.total_duration_ps > b.total_duration_ps;
    return std::tie(a.kernel_name, a.op_name) < std::tie(b.kernel_name, b.op_name);
  });
  std::stable_sort(combined.devices.begin(), combined.devices.end(), [](const DeviceActivity& a, const DeviceActivity& b) {
    return std::tie(a.host_index, a.device_ordinal) < std::tie(b.host_index, b.device_ordinal);
  });
  std::sort(combined.input_pipeline.device_copies.begin(), combined.input_pipeline.device_copies.end(),
            [](const DeviceInputCopy& a, const DeviceInputCopy& b) {
              if (a.total_time_ps != b.total_time_ps) return a.total_time_ps > b.total_time_ps;
              return std::tie(a.op_name, a.copy_name, a.source_memory) <
                     std::tie(b.op_name, b.copy_name, b.source_memory);
            });
  std::sort(combined.input_pipeline.ops.begin(), combined.input_pipeline.ops.end(),
            [](const InputOp& a, const InputOp& b) {
              return a.self_time_ps != b.self_time_ps ? a.self_time_ps > b.self_time_ps : a.name < b.name;
            });
  return std::move(combined);
}

ProfileModel CombineHostModels(std::vector<ProfileModel> hosts) {
  HostCombiner combiner;
  for (ProfileModel& host : hosts) combiner.Add(std::move(host));
  return std::move(combiner).Finish();
}

}  // namespace stepscope::analysis
