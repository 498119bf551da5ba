// Well-known plane, line, event and stat names: the vocabulary TensorFlow, JAX, XProf and
// stepscope share. Every layer that needs one of these strings takes it from here.
//
// Names, never enum ordinals, reach files: TensorFlow renumbered its enums over time.
// The enums below are stepscope's own and only index the name tables.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace stepscope::xspace {

// ---- Planes ----
inline constexpr std::string_view kHostThreadsPlaneName = "/host:CPU";
inline constexpr std::string_view kGpuPlanePrefix = "/device:GPU:";
inline constexpr std::string_view kTpuPlanePrefix = "/device:TPU:";
inline constexpr std::string_view kCustomPlanePrefix = "/device:CUSTOM:";
inline constexpr std::string_view kTaskEnvPlaneName = "Task Environment";
inline constexpr std::string_view kMetadataPlaneName = "/host:metadata";
inline constexpr std::string_view kCuptiDriverApiPlaneName = "/host:CUPTI";
inline constexpr std::string_view kPythonTracerPlaneName = "/host:python-tracer";

// "/device:GPU:3" for ordinal 3.
std::string GpuPlaneName(int ordinal);
// True for "/device:GPU:<n>" (and TPU / CUSTOM device planes when `any_device`).
bool IsGpuPlaneName(std::string_view name);
bool IsDevicePlaneName(std::string_view name);
// The ordinal of "/device:GPU:<n>", or nullopt.
std::optional<int> GpuOrdinalFromPlaneName(std::string_view name);

// ---- Lines ----
inline constexpr std::string_view kStepLineName = "Steps";
// TensorFlow renamed these in 2022; readers accept both spellings.
inline constexpr std::string_view kFrameworkOpLineName = "Framework Ops";
inline constexpr std::string_view kLegacyTensorFlowOpLineName = "TensorFlow Ops";
inline constexpr std::string_view kFrameworkNameScopeLineName = "Framework Name Scope";
inline constexpr std::string_view kLegacyTensorFlowNameScopeLineName = "TensorFlow Name Scope";
inline constexpr std::string_view kXlaModuleLineName = "XLA Modules";
inline constexpr std::string_view kXlaOpLineName = "XLA Ops";
inline constexpr std::string_view kXlaAsyncOpLineName = "Async XLA Ops";
inline constexpr std::string_view kKernelLaunchLineName = "Launch Stats";
inline constexpr std::string_view kSourceLineName = "Source code";
inline constexpr std::string_view kCounterEventsLineName = "_counters_";
inline constexpr int64_t kCounterEventsLineId = INT64_MAX;

// Derived lines are produced by analysis, not recorded. Their ids are 0xdeadbeef + k
// sign-extended from int32, as TensorFlow writes them; identify them by name.
inline constexpr int64_t kThreadIdDerivedMin = static_cast<int32_t>(0xdeadbeef);
bool IsDerivedLineName(std::string_view name);
bool IsFrameworkOpLineName(std::string_view name);
bool IsNameScopeLineName(std::string_view name);

// Lines of a device plane that show what happened on the device without being its work;
// the analyses count no device ops on them. Kineto's synchronization records and CUDA
// events of a stream go to "Stream #<id> (sync)" (their times are waits: the host's in a
// cudaStreamSynchronize, the stream's for an event), its CUPTI range-profiler records to
// "Profiler ranges" (their times are the capture window split evenly per range).
inline constexpr std::string_view kDeviceSyncLineSuffix = " (sync)";
inline constexpr std::string_view kProfilerRangesLineName = "Profiler ranges";
bool IsDeviceInfoLineName(std::string_view name);

// ---- Event names the analyses recognise ----
inline constexpr std::string_view kMemoryAllocationEventName = "MemoryAllocation";
inline constexpr std::string_view kMemoryDeallocationEventName = "MemoryDeallocation";
inline constexpr std::string_view kTraceContextEventName = "TraceContext";
inline constexpr std::string_view kIteratorGetNextEventName = "IteratorGetNextOp::DoCompute";
inline constexpr std::string_view kIteratorGetNextAsOptionalEventName =
    "IteratorGetNextAsOptionalOp::DoCompute";
inline constexpr std::string_view kExecutorStateProcessEventName = "ExecutorState::Process";
inline constexpr std::string_view kIteratorPrefix = "Iterator::";

// ---- Stats ----
// Names of stats on events and planes. Add new ones at the end of the group they belong
// to; the string in kStatNames (schema.cc) is what reaches files.
enum class StatType : uint16_t {
  kUnknown = 0,
  // TraceMe arguments.
  kStepId,             // "id"
  kStepNum,            // "step_num"
  kIterNum,            // "iter_num"
  kIsRoot,             // "_r": root level of a step marker
  kIsAsync,            // "_a"
  kProducerType,       // "_pt"
  kConsumerType,       // "_ct"
  kProducerId,         // "_p"
  kConsumerId,         // "_c"
  kGraphType,          // "graph_type"
  kElementId,          // "element_id"
  kParentId,           // "parent_id"
  // Memory.
  kAllocatorName,
  kBytesReserved,
  kBytesAllocated,
  kBytesAvailable,
  kFragmentation,
  kPeakBytesInUse,
  kRequestedBytes,
  kAllocationBytes,
  kAddress,            // "addr"
  kRegionType,
  kDataType,
  kTensorShapes,       // "shape"
  // Added by grouping / processing.
  kGroupId,
  kStepName,
  kFlow,
  kTfOp,
  kHloOp,
  kHloModule,
  kHloCategory,
  kProgramId,
  kEquation,
  kIsEager,
  kFlops,
  kBytesAccessed,
  // Device trace.
  kDeviceId,
  kContextId,
  kCorrelationId,
  kMemcpyDetails,
  kMemallocDetails,
  kMemsetDetails,
  kKernelDetails,
  kNvtxRange,
  kStream,
  kAnnotation,         // legacy GPU annotation stack
  // Device capabilities (plane stats).
  kDevCapClockRateKHz,        // "clock_rate"
  kDevCapCoreCount,           // "core_count"
  kDevCapMemoryBandwidth,     // "memory_bandwidth"
  kDevCapMemorySize,          // "memory_size"
  kDevCapComputeCapMajor,     // "compute_cap_major"
  kDevCapComputeCapMinor,     // "compute_cap_minor"
  kDevVendor,                 // "device_vendor"
  kGpuDeviceName,             // "gpu_device_name"
  kDeviceType,                // "device_type" (stepscope): "GPU", "MTIA", "XPU", "HPU", "PrivateUse1"
  // Task environment / run environment.
  kProfileStartTime,          // "profile_start_time" (wall ns)
  kProfileStopTime,           // "profile_stop_time"
  kProfileOptions,            // "profile_options"
  kProcessId,                 // "process_id"
  kHostName,                  // "host_name" (stepscope)
  kLogicalCores,              // "logical_cores" (stepscope)
  kHostMemoryBytes,           // "host_memory_bytes" (stepscope)
  kDroppedTraces,             // "dropped_traces": events lost to full buffers
  kTracerName,                // "tracer" (stepscope): which collector wrote a plane
  kThreadName,                // "thread_name" (stepscope, for lines renamed by tools)
  kLast = kThreadName,
};

inline constexpr int kNumStatTypes = static_cast<int>(StatType::kLast) + 1;

// The on-disk name of a stat type ("step_num" for kStepNum).
std::string_view GetStatTypeStr(StatType type);
// kUnknown when `name` is not a well-known stat.
StatType FindStatType(std::string_view name);

// TraceMe connection/bookkeeping stats the trace viewer hides from users.
bool IsInternalStat(StatType type);

}  // namespace stepscope::xspace
