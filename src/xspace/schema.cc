#include "src/xspace/schema.h"

#include <array>
#include <charconv>
#include <unordered_map>

namespace stepscope::xspace {
namespace {

struct StatName {
  StatType type;
  std::string_view name;
};

// One row per StatType, in enum order (checked by schema_test).
constexpr StatName kStatNames[] = {
    {StatType::kUnknown, ""},
    {StatType::kStepId, "id"},
    {StatType::kStepNum, "step_num"},
    {StatType::kIterNum, "iter_num"},
    {StatType::kIsRoot, "_r"},
    {StatType::kIsAsync, "_a"},
    {StatType::kProducerType, "_pt"},
    {StatType::kConsumerType, "_ct"},
    {StatType::kProducerId, "_p"},
    {StatType::kConsumerId, "_c"},
    {StatType::kGraphType, "graph_type"},
    {StatType::kElementId, "element_id"},
    {StatType::kParentId, "parent_id"},
    {StatType::kAllocatorName, "allocator_name"},
    {StatType::kBytesReserved, "bytes_reserved"},
    {StatType::kBytesAllocated, "bytes_allocated"},
    {StatType::kBytesAvailable, "bytes_available"},
    {StatType::kFragmentation, "fragmentation"},
    {StatType::kPeakBytesInUse, "peak_bytes_in_use"},
    {StatType::kRequestedBytes, "requested_bytes"},
    {StatType::kAllocationBytes, "allocation_bytes"},
    {StatType::kAddress, "addr"},
    {StatType::kRegionType, "region_type"},
    {StatType::kDataType, "data_type"},
    {StatType::kTensorShapes, "shape"},
    {StatType::kGroupId, "group_id"},
    {StatType::kStepName, "step_name"},
    {StatType::kFlow, "flow"},
    {StatType::kTfOp, "tf_op"},
    {StatType::kHloOp, "hlo_op"},
    {StatType::kHloModule, "hlo_module"},
    {StatType::kHloCategory, "hlo_category"},
    {StatType::kProgramId, "program_id"},
    {StatType::kEquation, "equation"},
    {StatType::kIsEager, "is_eager"},
    {StatType::kFlops, "flops"},
    {StatType::kBytesAccessed, "bytes_accessed"},
    {StatType::kDeviceId, "device_id"},
    {StatType::kContextId, "context_id"},
    {StatType::kCorrelationId, "correlation_id"},
    {StatType::kMemcpyDetails, "memcpy_details"},
    {StatType::kMemallocDetails, "memalloc_details"},
    {StatType::kMemsetDetails, "Memset_details"},
    {StatType::kKernelDetails, "kernel_details"},
    {StatType::kNvtxRange, "nvtx_range"},
    {StatType::kStream, "stream"},
    {StatType::kAnnotation, "annotation"},
    {StatType::kDevCapClockRateKHz, "clock_rate"},
    {StatType::kDevCapCoreCount, "core_count"},
    {StatType::kDevCapMemoryBandwidth, "memory_bandwidth"},
    {StatType::kDevCapMemorySize, "memory_size"},
    {StatType::kDevCapComputeCapMajor, "compute_cap_major"},
    {StatType::kDevCapComputeCapMinor, "compute_cap_minor"},
    {StatType::kDevVendor, "device_vendor"},
    {StatType::kGpuDeviceName, "gpu_device_name"},
    {StatType::kDeviceType, "device_type"},
    {StatType::kProfileStartTime, "profile_start_time"},
    {StatType::kProfileStopTime, "profile_stop_time"},
    {StatType::kProfileOptions, "profile_options"},
    {StatType::kProcessId, "process_id"},
    {StatType::kHostName, "host_name"},
    {StatType::kLogicalCores, "logical_cores"},
    {StatType::kHostMemoryBytes, "host_memory_bytes"},
    {StatType::kDroppedTraces, "dropped_traces"},
    {StatType::kTracerName, "tracer"},
    {StatType::kThreadName, "thread_name"},
};
static_assert(std::size(kStatNames) == kNumStatTypes, "one kStatNames row per StatType");

const std::unordered_map<std::string_view, StatType>& StatTypeByName() {
  static const auto* map = [] {
    auto* m = new std::unordered_map<std::string_view, StatType>();
    for (const StatName& row : kStatNames) {
      if (row.type != StatType::kUnknown) m->emplace(row.name, row.type);
    }
    return m;
  }();
  return *map;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace

std::string GpuPlaneName(int ordinal) {
  return std::string(kGpuPlanePrefix) + std::to_string(ordinal);
}

bool IsGpuPlaneName(std::string_view name) { return GpuOrdinalFromPlaneName(name).has_value(); }

bool IsDevicePlaneName(std::string_view name) {
  return IsGpuPlaneName(name) || StartsWith(name, kTpuPlanePrefix) ||
         StartsWith(name, kCustomPlanePrefix);
}

std::optional<int> GpuOrdinalFromPlaneName(std::string_view name) {
  if (!StartsWith(name, kGpuPlanePrefix)) return std::nullopt;
  std::string_view digits = name.substr(kGpuPlanePrefix.size());
  int ordinal = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), ordinal);
  if (ec != std::errc() || ptr != digits.data() + digits.size() || digits.empty()) {
    return std::nullopt;
  }
  return ordinal;
}

bool IsFrameworkOpLineName(std::string_view name) {
  return name == kFrameworkOpLineName || name == kLegacyTensorFlowOpLineName;
}

bool IsNameScopeLineName(std::string_view name) {
  return name == kFrameworkNameScopeLineName || name == kLegacyTensorFlowNameScopeLineName;
}

bool IsDeviceInfoLineName(std::string_view name) {
  return name == kProfilerRangesLineName ||
         (name.size() > kDeviceSyncLineSuffix.size() &&
          name.substr(name.size() - kDeviceSyncLineSuffix.size()) == kDeviceSyncLineSuffix);
}

bool IsDerivedLineName(std::string_view name) {
  return name == kStepLineName || IsFrameworkOpLineName(name) || IsNameScopeLineName(name) ||
         name == kXlaModuleLineName || name == kXlaOpLineName || name == kXlaAsyncOpLineName ||
         name == kKernelLaunchLineName || name == kSourceLineName;
}

std::string_view GetStatTypeStr(StatType type) {
  auto index = static_cast<size_t>(type);
  return index < std::size(kStatNames) ? kStatNames[index].name : std::string_view();
}

StatType FindStatType(std::string_view name) {
  const auto& map = StatTypeByName();
  auto it = map.find(name);
  return it == map.end() ? StatType::kUnknown : it->second;
}

bool IsInternalStat(StatType type) {
  switch (type) {
    case StatType::kProducerType:
    case StatType::kProducerId:
    case StatType::kConsumerType:
    case StatType::kConsumerId:
    case StatType::kIsRoot:
    case StatType::kFlops:
    case StatType::kProgramId:
      return true;
    default:
      return false;
  }
}

}  // namespace stepscope::xspace
