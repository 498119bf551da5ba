#include "src/analysis/model/profile_model.h"

#include <algorithm>
#include <tuple>

#include "src/analysis/model/sat_math.h"

namespace stepscope::analysis {

std::string_view EventTypeName(EventType type) {
  switch (type) {
    case EventType::kUnknownTime: return "unknown_time";
    case EventType::kHostCompute: return "host_compute";
    case EventType::kHostPreprocess: return "host_preprocess";
    case EventType::kHostPostprocess: return "host_postprocess";
    case EventType::kHostBatchFormation: return "host_batch_formation";
    case EventType::kHostRuntime: return "host_runtime";
    case EventType::kHostCompile: return "host_compile";
    case EventType::kHostToHost: return "host_to_host";
    case EventType::kHostToDevice: return "host_to_device";
    case EventType::kHostPrepare: return "host_prepare";
    case EventType::kDeviceCollectives: return "device_collectives";
    case EventType::kHostWaitInput: return "host_wait_input";
    case EventType::kDeviceToDevice: return "device_to_device";
    case EventType::kDeviceToHost: return "device_to_host";
    case EventType::kDeviceCompute32: return "device_compute_32";
    case EventType::kDeviceCompute16: return "device_compute_16";
    case EventType::kDeviceWaitDevice: return "device_wait_device";
    case EventType::kDeviceWaitHost: return "device_wait_host";
  }
  return "unknown_time";
}

const HostStep* FindHostStep(const StepInfo& step, int host_index) {
  auto it = std::lower_bound(step.per_host.begin(), step.per_host.end(), host_index,
                             [](const HostStep& h, int index) { return h.host_index < index; });
  return it != step.per_host.end() && it->host_index == host_index ? &*it : nullptr;
}

std::optional<double> StepsInputPercent(const std::vector<StepInfo>& steps) {
  int64_t input_ps = 0, total_ps = 0;
  for (const StepInfo& step : steps) {
    AddTo(input_ps, step.breakdown.input_ps());
    AddTo(total_ps, step.duration_ps);
  }
  if (total_ps <= 0) return std::nullopt;
  return 100.0 * static_cast<double>(input_ps) / static_cast<double>(total_ps);
}

void SortHostSyncWaits(std::vector<HostSyncWait>* waits) {
  std::sort(waits->begin(), waits->end(), [](const HostSyncWait& a, const HostSyncWait& b) {
    return a.total_ps != b.total_ps ? a.total_ps > b.total_ps : std::tie(a.call, a.op) < std::tie(b.call, b.op);
  });
}

std::string_view StepTimeSourceName(StepTimeSource source) {
  switch (source) {
    case StepTimeSource::kHostMarker: return "host_marker";
    case StepTimeSource::kDeviceMarker: return "device_marker";
    case StepTimeSource::kStepStarts: return "step_starts";
    case StepTimeSource::kDeviceCompletions: return "device_completions";
  }
  return "host_marker";
}

std::string_view TimeCategoryKey(TimeCategory category) {
  switch (category) {
    case TimeCategory::kCompilation: return "compilation";
    case TimeCategory::kInput: return "input";
    case TimeCategory::kOutput: return "output";
    case TimeCategory::kKernelLaunch: return "kernel_launch";
    case TimeCategory::kHostCompute: return "host_compute";
    case TimeCategory::kDeviceToDevice: return "device_to_device";
    case TimeCategory::kDeviceCollectives: return "device_collectives";
    case TimeCategory::kDeviceCompute: return "device_compute";
    case TimeCategory::kOther: return "other";
  }
  return "other";
}

std::string_view TimeCategoryLabel(TimeCategory category) {
  switch (category) {
    case TimeCategory::kCompilation: return "compilation";
    case TimeCategory::kInput: return "input";
    case TimeCategory::kOutput: return "output (device to host)";
    case TimeCategory::kKernelLaunch: return "kernel launch";
    case TimeCategory::kHostCompute: return "host compute";
    case TimeCategory::kDeviceToDevice: return "device to device";
    case TimeCategory::kDeviceCollectives: return "device collectives";
    case TimeCategory::kDeviceCompute: return "device compute";
    case TimeCategory::kOther: return "other (no recorded event)";
  }
  return "other (no recorded event)";
}

TimeCategory CategoryOf(EventType type) {
  switch (type) {
    case EventType::kUnknownTime: return TimeCategory::kOther;
    case EventType::kHostCompute:
    case EventType::kHostPreprocess:
    case EventType::kHostPostprocess:
    case EventType::kHostBatchFormation:
    case EventType::kHostRuntime:
    case EventType::kHostToHost: return TimeCategory::kHostCompute;
    case EventType::kHostCompile: return TimeCategory::kCompilation;
    case EventType::kHostToDevice:
    case EventType::kHostWaitInput:
    case EventType::kDeviceWaitHost: return TimeCategory::kInput;
    case EventType::kHostPrepare: return TimeCategory::kKernelLaunch;
    case EventType::kDeviceCollectives: return TimeCategory::kDeviceCollectives;
    case EventType::kDeviceToDevice:
    case EventType::kDeviceWaitDevice: return TimeCategory::kDeviceToDevice;
    case EventType::kDeviceToHost: return TimeCategory::kOutput;
    case EventType::kDeviceCompute32:
    case EventType::kDeviceCompute16: return TimeCategory::kDeviceCompute;
  }
  return TimeCategory::kOther;
}

int64_t StepBreakdown::category_ps(TimeCategory category) const {
  int64_t sum = 0;
  for (int i = 0; i < kNumEventTypes; ++i) {
    if (CategoryOf(static_cast<EventType>(i)) == category) sum += type_ps[i];
  }
  return sum;
}

int64_t StepBreakdown::total_ps() const {
  int64_t sum = 0;
  for (int64_t ps : type_ps) sum += ps;
  return sum;
}

void StepBreakdown::Add(const StepBreakdown& other) {
  for (int i = 0; i < kNumEventTypes; ++i) type_ps[i] += other.type_ps[i];
}

std::string_view OpCategoryName(OpCategory category) {
  switch (category) {
    case OpCategory::kOther: return "other";
    case OpCategory::kTensorFlow: return "tensorflow";
    case OpCategory::kJax: return "jax";
    case OpCategory::kTfData: return "tf_data";
    case OpCategory::kMemcpyHToD: return "memcpy_h2d";
    case OpCategory::kMemcpyDToH: return "memcpy_d2h";
    case OpCategory::kMemcpyDToD: return "memcpy_d2d";
    case OpCategory::kMemcpyHToH: return "memcpy_h2h";
    case OpCategory::kInfeed: return "infeed";
    case OpCategory::kDeviceKernel: return "device_kernel";
    case OpCategory::kPyTorch: return "pytorch";
    case OpCategory::kDataLoader: return "data_loader";
  }
  return "other";
}

std::string_view MemcpyDirectionName(MemcpyDirection direction) {
  switch (direction) {
    case MemcpyDirection::kHostToDevice: return "host_to_device";
    case MemcpyDirection::kDeviceToHost: return "device_to_host";
    case MemcpyDirection::kDeviceToDevice: return "device_to_device";
    case MemcpyDirection::kHostToHost: return "host_to_host";
    case MemcpyDirection::kMemset: return "memset";
    case MemcpyDirection::kUnknown: return "unknown";
  }
  return "unknown";
}

std::string_view InputOpCategoryName(InputOpCategory category) {
  switch (category) {
    case InputOpCategory::kDemandedFileRead: return "demanded_file_read";
    case InputOpCategory::kAdvancedFileRead: return "advanced_file_read";
    case InputOpCategory::kPreprocessing: return "preprocessing";
    case InputOpCategory::kEnqueue: return "enqueue";
    case InputOpCategory::kOther: return "other";
    case InputOpCategory::kDataLoader: return "data_loader";
    case InputOpCategory::kPinMemory: return "pin_memory";
  }
  return "other";
}

}  // namespace stepscope::analysis
