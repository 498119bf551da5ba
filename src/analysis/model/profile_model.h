// ProfileModel: everything the analysis tools derive from, computed once per host.
//
// Built by BuildProfileModel (build_profile_model.h) from one host's XSpace in one pass
// plus sorts; per-host models of a multi-host run are merged by CombineHostModels
// (combine_hosts.h). Tools are pure functions of this struct and never re-walk planes for
// what is here. docs/model.md explains the rules (step finding, breakdown priorities,
// classification) and where each comes from (TF Profiler / XProf, reference/xspace.md).
//
// Conventions for every field:
//   - Units are in the names: *_ps picoseconds, *_ns nanoseconds, *_bytes bytes.
//   - Times ("begin_ps") are on the file's timeline: line.timestamp_ns * 1000 + offset_ps.
//     In files written by TF/stepscope that is ps since the profile start.
//   - Counts are int64_t. Nothing here is a pointer into the input; the model is a value.
//   - Vectors are sorted as stated on each field; tools may rely on that order.
//   - Field names are stable: new fields are added, existing ones are not renamed.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/model/derivation_cache.h"
#include "src/xspace/columnar/columnar_memory_events.h"
#include "src/xspace/columnar/pod_array.h"

namespace stepscope::xspace {
struct ColumnarXSpace;
}
namespace stepscope::hlo {
struct HloPrograms;
}

namespace stepscope::analysis {

struct TfDataBottleneckResult;  // tf_data_analysis.h

// ---------------------------------------------------------------------------------------
// Time categories
// ---------------------------------------------------------------------------------------

// Fine event types of a step, XProf's EventType. The numeric order IS the priority: when
// spans of several types overlap, the highest value wins that time (docs/model.md).
enum class EventType : uint8_t {
  kUnknownTime = 0,        // step time no event explains
  kHostCompute,            // host ops that are not one of the below
  kHostPreprocess,         // (reserved: inference batching; never produced today)
  kHostPostprocess,        // (reserved)
  kHostBatchFormation,     // (reserved)
  kHostRuntime,            // (reserved)
  kHostCompile,            // XLA / graph compilation on the host
  kHostToHost,             // MemcpyHToH
  kHostToDevice,           // MemcpyHToD / InfeedEnqueue on the host; H2D copies on device
  kHostPrepare,            // kernel launch: host events with correlation_id when a device exists
  kDeviceCollectives,      // nccl* kernels
  kHostWaitInput,          // IteratorGetNext*, root input-pipeline stages
  kDeviceToDevice,         // D2D / P2P copies on device
  kDeviceToHost,           // D2H copies on device
  kDeviceCompute32,        // device compute not known to be 16-bit
  kDeviceCompute16,        // device compute on half / fp16 shapes
  kDeviceWaitDevice,       // (reserved: TPU)
  kDeviceWaitHost,         // (reserved: TPU infeed)
};
inline constexpr int kNumEventTypes = 18;
// Lower-case snake name, e.g. "host_wait_input".
std::string_view EventTypeName(EventType type);

// The categories users see (TF Profiler's generic step-time breakdown).
enum class TimeCategory : uint8_t {
  kCompilation = 0,    // kHostCompile
  kInput,              // kHostWaitInput + kHostToDevice + kDeviceWaitHost
  kOutput,             // kDeviceToHost
  kKernelLaunch,       // kHostPrepare
  kHostCompute,        // kHostCompute (+ the reserved host types)
  kDeviceToDevice,     // kDeviceToDevice + kDeviceWaitDevice
  kDeviceCollectives,  // kDeviceCollectives
  kDeviceCompute,      // kDeviceCompute16 + kDeviceCompute32
  kOther,              // kUnknownTime
};
inline constexpr int kNumTimeCategories = 9;
// The JSON key of the contract: "compilation", "input", "output", "kernel_launch",
// "host_compute", "device_to_device", "device_collectives", "device_compute", "other".
std::string_view TimeCategoryKey(TimeCategory category);
// The words people read: "device compute", ..., and for kOther "other (no recorded
// event)": time in the step that no rule explains, not a kind of work.
std::string_view TimeCategoryLabel(TimeCategory category);
TimeCategory CategoryOf(EventType type);

// Non-overlapping time per fine type within one step. The entries sum to the step's
// duration_ps (every ps of the step is attributed to exactly one type).
struct StepBreakdown {
  std::array<int64_t, kNumEventTypes> type_ps{};

  int64_t ps(EventType type) const { return type_ps[static_cast<int>(type)]; }
  int64_t category_ps(TimeCategory category) const;
  int64_t total_ps() const;
  // XProf's per-step "input %" numerator: kHostWaitInput + kHostToDevice (device wait
  // for host is not in it; category_ps(kInput) is).
  int64_t input_ps() const { return ps(EventType::kHostWaitInput) + ps(EventType::kHostToDevice); }
  void Add(const StepBreakdown& other);
};

// ---------------------------------------------------------------------------------------
// Steps
// ---------------------------------------------------------------------------------------

enum class StepTimeSource : uint8_t {
  kHostMarker = 0,  // the longest host step marker of the group
  kDeviceMarker,    // a device `Steps` event the host marker did not include (XProf rule)
  // The program's iteration (steps from step markers, docs/model.md "Steps"): from the
  // step's start to the next step's start; the last step to the later of its host end and
  // the end of the device work it launched.
  kStepStarts,
  // The device's cadence, where it is slower than the host's (the device falls further
  // behind every step): from the end of the previous step's device work to the end of
  // this step's; the first step from its host start.
  kDeviceCompletions,
};
// "host_marker", "device_marker", "step_starts", "device_completions".
std::string_view StepTimeSourceName(StepTimeSource source);

// A step as seen by one host, inside a combined model.
struct HostStep {
  int host_index = 0;  // index into ProfileModel::hostnames
  int64_t begin_ps = 0;
  int64_t duration_ps = 0;
  StepBreakdown breakdown;
};

struct StepInfo {
  // The step number: the marker's step_num (or iter_num) stat; the group id when absent.
  int64_t step_number = 0;
  // The group id events of this step carry (file's group_id stat, or ours when we group).
  int64_t group_id = 0;
  // "train 5" style: the marker's step_name stat, else "<marker name> <step_number>".
  std::string name;
  int64_t begin_ps = 0;     // start of the step time span
  int64_t duration_ps = 0;  // the step time (see StepTimeSource)
  StepTimeSource time_source = StepTimeSource::kHostMarker;
  // True when a device event of this group exists.
  bool has_device_activity = false;
  // The step's host markers (several when it is marked on several threads): the first
  // one's begin and the last one's end; 0/0 when it has none.
  int64_t host_begin_ps = 0;
  int64_t host_end_ps = 0;
  // The device work the step launched (its group's kernels and copies, wherever they ran
  // in time): its end, and its busy time (union over streams and devices). -1 / 0 when it
  // launched none.
  int64_t device_end_ps = -1;
  int64_t device_busy_ps = 0;
  // How far the device runs behind the host: from the host marker's end to the end of the
  // step's device work, 0 when that work ends within the marker (or there is none).
  int64_t device_lag_ps() const {
    return device_end_ps > host_end_ps && host_end_ps > 0 ? device_end_ps - host_end_ps : 0;
  }
  // The breakdown of the step's window [begin_ps, begin_ps + duration_ps): everything
  // that ran in it, host and device, whichever step launched it.
  StepBreakdown breakdown;  // sums to duration_ps
  // Combined (multi-host) models only: one entry per host that has this step, in host
  // order. In a combined model the step's own fields are those of the slowest host.
  std::vector<HostStep> per_host;
};

// The step as host `host_index` saw it, in a combined model; null when that host has no
// such step. per_host is in host order: a binary search, so per-host lookups over a pod's
// steps stay linear in its hosts.
const HostStep* FindHostStep(const StepInfo& step, int host_index);

// The steps' wait for input over their time, in percent: the one input share every page
// reports (input_pipeline_analyzer's input_bound_percent, tf_data_bottleneck_analysis'
// step_input_wait_percent). nullopt when the steps have no time.
std::optional<double> StepsInputPercent(const std::vector<StepInfo>& steps);

// ---------------------------------------------------------------------------------------
// Op metrics
// ---------------------------------------------------------------------------------------

// What kind of op a name is (TF's ParseTfOpFullname categories, plus stepscope's).
enum class OpCategory : uint8_t {
  kOther = 0,     // user annotation / runtime event; type == name
  kTensorFlow,    // "scope/name:Type"
  kJax,           // "jit(f)/..." style names
  kTfData,        // "Iterator::..." (tf.data; input ops); type "Iterator"
  kMemcpyHToD,    // "MemcpyHToD" ops / H2D copies
  kMemcpyDToH,
  kMemcpyDToD,
  kMemcpyHToH,
  kInfeed,        // "InfeedEnqueue*"
  kDeviceKernel,  // a device kernel with no framework op attached; type == kernel name
  kPyTorch,       // a PyTorch op ("aten::addmm") that launched device work; type == name
  kDataLoader,    // PyTorch's DataLoader iteration ("enumerate(DataLoader)#...__next__"; input); type "DataLoader"
};
std::string_view OpCategoryName(OpCategory category);  // "tensorflow", "tf_data", ...

// One row of the op table: all occurrences of one op on one side (host or device).
struct OpMetrics {
  // Host: the op name of the event ("model/dense/MatMul", "Iterator::Batch", "forward").
  // Device: the framework op the kernels ran for: the tf_op stat when it is a framework
  // op name, else the hlo_op stat (XLA/JAX), else the outermost level of the legacy
  // `annotation` stat, else the PyTorch op around the host launch with the same
  // correlation_id ("aten::addmm"; Kineto traces); the kernel / memcpy name when none is
  // known.
  std::string name;
  // "MatMul" for "model/dense/MatMul:MatMul"; "Iterator" for tf.data; "MemcpyHToD" etc.
  // for copies; for HLO ops the instruction kind ("fusion" for "fusion.12"); the name
  // itself for kOther, kDeviceKernel and kPyTorch.
  std::string type;
  OpCategory category = OpCategory::kOther;
  bool is_host = true;
  // True when at least one occurrence was eager (is_eager stat).
  bool is_eager = false;
  int64_t occurrences = 0;  // host: events; device: kernels / copies
  int64_t total_time_ps = 0;
  // Host: total minus immediate children on the same thread. Device: == total.
  int64_t self_time_ps = 0;
  int64_t min_time_ps = 0;  // shortest single occurrence (total time)
  int64_t max_time_ps = 0;
  // Host, when the profile records allocations (OpMetricsDb::has_memory): bytes allocated
  // minus freed inside the op, with and without its children, on the host's allocators
  // and on the devices' (op_memory.h; PyTorch's key_averages() "CPU Mem", "Self CPU Mem",
  // "CUDA Mem", "Self CUDA Mem").
  int64_t cpu_memory_bytes = 0;
  int64_t self_cpu_memory_bytes = 0;
  int64_t device_memory_bytes = 0;
  int64_t self_device_memory_bytes = 0;
  int64_t avg_time_ps() const { return occurrences > 0 ? total_time_ps / occurrences : 0; }
};

// A table of ops of one side. Sorted by self_time_ps descending, then name.
struct OpMetricsDb {
  std::vector<OpMetrics> ops;
  // Host: sum over threads of the span (first event begin to last event end).
  // Device: sum over devices with activity of the span (first to last activity).
  int64_t total_time_ps = 0;
  // Time inside total_time_ps covered by no op (host: per thread, wall minus the union
  // of its events; device: no kernel or copy running). Tools add an "IDLE" row from it
  // when idle time is included.
  int64_t idle_time_ps = 0;
  // Sum of self_time_ps over ops. Host: total_time_ps - idle_time_ps minus the self
  // time of step markers and the time in Python frames outside the ops below them (per
  // thread, self times tile the busy time; markers and frames are not ops). Device:
  // kernels on concurrent streams overlap, so it
  // can exceed total_time_ps - idle_time_ps.
  int64_t total_self_time_ps = 0;
  // Host: the profile records allocator events on this host, so the ops' memory fields
  // are measurements (0 bytes included); false: they are not known.
  bool has_memory = false;
};

// ---------------------------------------------------------------------------------------
// Host event tree
// ---------------------------------------------------------------------------------------

// The events of one host thread as a tree (nesting by time on the same line). Stored as
// parallel arrays in time order (begin ascending, longer first on ties); the times and
// names live in the columnar source (ProfileModel::source), reached through event(i).
// Kept compact (5 bytes per event when the line is in time order, as TF saves lines):
// self times are computed on demand by ComputeSelfTimes (event_tree.h).
struct HostThread {
  int64_t thread_id = 0;  // line id (the OS tid for host lines)
  std::string name;       // line (thread) name
  uint32_t plane_index = 0;  // plane / line in ProfileModel::source
  uint32_t line_index = 0;
  // Index in the source plane's event columns of the i-th event (time order). Use event(i):
  // event_index is empty when the line already is in time order (event i is then
  // first_event + i).
  uint32_t first_event = 0;
  std::vector<uint32_t> event_index;
  std::vector<int32_t> parent;  // tree parent (time-order index), -1 for roots
  std::vector<uint8_t> depth;   // 0 for roots; saturates at 255
  int64_t first_begin_ps = 0;
  int64_t last_end_ps = 0;
  int64_t busy_ps = 0;  // union of the roots' spans
  int64_t launch_events = 0;  // events with a correlation_id: launches of device work
  uint32_t event(size_t i) const {
    return event_index.empty() ? first_event + static_cast<uint32_t>(i) : event_index[i];
  }
  size_t size() const { return parent.size(); }
};

// ---------------------------------------------------------------------------------------
// Device activity
// ---------------------------------------------------------------------------------------

// Launch parameters from the `kernel_details` stat (current and 2020 formats). A value
// the file does not hold, or holds as something no kernel can have (tracers write 0 for
// what they do not know, and a legacy ROCm tracer wrote uninitialised memory), is
// nullopt: the tools show it as absent, never as a number.
struct KernelLaunchParams {
  std::optional<int64_t> registers_per_thread;
  std::optional<int64_t> static_shared_memory_bytes;  // 2020 format "shm:", ROCm "group_mem:"
  int64_t dynamic_shared_memory_bytes = 0;
  std::array<int64_t, 3> grid{1, 1, 1};
  std::array<int64_t, 3> block{1, 1, 1};
  std::optional<double> occupancy_pct;  // occ_pct
  bool operator==(const KernelLaunchParams&) const = default;
};

// All launches of one kernel for one op with identical parameters (XProf's KernelReport
// merge key: name, params, flags, op). Across every device of the model.
struct KernelStats {
  std::string kernel_name;
  // Framework op name (tf_op name part, hlo_op, or the PyTorch op that launched the
  // kernel: OpMetrics::name of its device op), empty when unknown.
  std::string op_name;
  KernelLaunchParams params;
  bool is_kernel_using_tensor_core = false;  // by kernel-name pattern (XProf's list)
  bool is_op_tensor_core_eligible = false;   // by op name / einsum equation, or uses TC
  int64_t occurrences = 0;
  int64_t total_duration_ps = 0;
  int64_t min_duration_ps = 0;
  int64_t max_duration_ps = 0;
};

enum class MemcpyDirection : uint8_t {
  kHostToDevice = 0,
  kDeviceToHost,
  kDeviceToDevice,  // also peer-to-peer
  kHostToHost,
  kMemset,
  kUnknown,
};
inline constexpr int kNumMemcpyDirections = 6;
std::string_view MemcpyDirectionName(MemcpyDirection direction);  // "host_to_device", ...

struct MemcpyStats {
  int64_t count = 0;
  int64_t bytes = 0;  // from memcpy_details size / num_bytes; 0 when not recorded
  int64_t duration_ps = 0;
};

struct StreamActivity {
  int64_t stream_id = 0;  // line id
  std::string name;       // "Stream #7(Compute)"
  int64_t kernel_count = 0;
  int64_t kernel_time_ps = 0;
  int64_t memcpy_count = 0;  // copies and memsets
  int64_t memcpy_time_ps = 0;
  int64_t busy_ps = 0;  // union of all activity on the stream
};

// Plane stats of a device plane (0 / empty when absent).
struct DeviceCapabilities {
  int64_t clock_rate_khz = 0;
  int64_t core_count = 0;  // SMs on GPUs
  int64_t memory_bandwidth_bytes_per_s = 0;
  int64_t memory_size_bytes = 0;
  int64_t compute_capability_major = 0;
  int64_t compute_capability_minor = 0;
  std::string vendor;       // "Nvidia", "AMD", "Intel", "Meta"
  std::string device_name;  // gpu_device_name: the model ("NVIDIA A100-SXM4-40GB")
  // Which accelerator the plane is, where its writer says (device_type: "GPU", "MTIA",
  // "XPU", "HPU", "PrivateUse1"); empty on planes that do not say.
  std::string device_type;
};

// What ran on one device for one step: the device events tied to the step's group (by
// group_id or through their launch's correlation_id), for comparing devices step by step.
struct DeviceStepActivity {
  int64_t step_number = 0;  // StepInfo::step_number of the step with this group
  int64_t group_id = 0;
  int64_t first_begin_ps = 0;  // first event's begin and last event's end
  int64_t last_end_ps = 0;
  int64_t first_kernel_begin_ps = -1;  // first kernel (not copy); -1 when none
  int64_t active_ps = 0;  // kernel and copy durations summed (overlapping streams add up)
  int64_t collective_ps = 0;  // collectives: nccl*/rccl kernels, XLA/TF all-reduce, ... ops
  int64_t collective_count = 0;
};

// Collectives by what they do (collective_message.h names them and says how they are told apart).
enum class CollectiveKind : uint8_t {
  kAllReduce = 0,
  kAllGather,
  kReduceScatter,
  kAllToAll,
  kBroadcast,
  kReduce,
  kSendRecv,
  kOther,
};
inline constexpr int kNumCollectiveKinds = 8;

// The collectives of one kind on one device, with what they moved where the profile says
// (collective_message.h: sizes and bus bandwidth after nccl-tests' conventions).
struct CollectiveTraffic {
  CollectiveKind kind = CollectiveKind::kOther;
  int64_t count = 0;    // collective kernels/ops of this kind
  int64_t time_ps = 0;  // their durations summed
  // Those whose message size is known, and what they moved.
  int64_t sized_count = 0;
  int64_t sized_time_ps = 0;
  int64_t size_bytes = 0;  // nccl-tests size S, summed
  double bus_bytes = 0;    // S x BusBandwidthFactor(kind, ranks), summed
  int64_t ranks = 0;       // largest rank count seen (0: unknown)
  // Where the rank count came from: "group_size" (the event's own "Group size"),
  // "world_size" (the profile's distributedInfo), "devices" (GPUs of this host), "".
  std::string ranks_source;
};

// A sampled device counter (the `_counters_` line of a device plane: NVML utilisation,
// memory, power written by stepscope's tracer), summarised over the profile.
struct DeviceCounterSummary {
  std::string name;  // "sm_utilization_pct", "memory_used_bytes", "power_watts", ...
  int64_t samples = 0;
  double mean = 0;  // over the samples (equally spaced by the sampler)
  double min = 0;
  double max = 0;
  double last = 0;
  // Share of the sampled span (first to last sample; each sample holds until the next)
  // during which the value was at least the counter's threshold (kCounterThresholds in
  // device_counters.cc); -1 when the counter has no threshold.
  double time_at_or_above_threshold_percent = -1;
  double threshold = 0;
  int64_t first_ps = 0;
  int64_t last_ps = 0;
};

// One device plane ("/device:GPU:3").
struct DeviceActivity {
  std::string plane_name;
  int64_t device_ordinal = 0;  // the N of /device:GPU:N (plane id otherwise)
  int host_index = 0;          // index into ProfileModel::hostnames
  DeviceCapabilities capabilities;
  std::vector<StreamActivity> streams;  // sorted by stream_id; derived lines excluded
  std::array<MemcpyStats, kNumMemcpyDirections> memcpy{};  // by MemcpyDirection
  int64_t kernel_count = 0;
  int64_t kernel_time_ps = 0;  // sum of kernel durations (overlapping streams add up)
  int64_t busy_ps = 0;         // union of kernels and copies over all streams
  int64_t first_begin_ps = 0;  // first and last activity; 0/0 when idle
  int64_t last_end_ps = 0;
  // Collectives over the whole profile (in steps or not): see DeviceStepActivity.
  int64_t collective_ps = 0;
  int64_t collective_count = 0;
  // Per step with device activity, by step_number (events of groups without a step are
  // not listed).
  std::vector<DeviceStepActivity> step_activity;
  // Collectives by kind (kinds seen, in CollectiveKind order).
  std::vector<CollectiveTraffic> collective_traffic;
  // Sampled counters of the device (`_counters_` line), by name.
  std::vector<DeviceCounterSummary> counters;
  int64_t idle_ps() const { return (last_end_ps - first_begin_ps) - busy_ps; }
  bool has_activity() const { return kernel_count > 0 || busy_ps > 0; }
};

// ---------------------------------------------------------------------------------------
// Input pipeline
// ---------------------------------------------------------------------------------------

// Host-side input breakdown classes: XProf's five, then PyTorch's (op_name.h says which
// names fall in each).
enum class InputOpCategory : uint8_t {
  kDemandedFileRead = 0,  // file source (TFRecord, TextLine, ...) read on demand
  kAdvancedFileRead,      // file source behind Prefetch/Interleave/ParallelMap/...
  kPreprocessing,         // every other tf.data op
  kEnqueue,               // MemcpyHToD / InfeedEnqueue; JAX/PjRt host-to-device transfers
  kOther,                 // (unclassified; not produced today)
  kDataLoader,            // PyTorch DataLoader iteration (enumerate(DataLoader)#...__next__)
  kPinMemory,             // PyTorch copies into page-locked memory (aten::pin_memory)
};
inline constexpr int kNumInputOpCategories = 7;
std::string_view InputOpCategoryName(InputOpCategory category);  // "demanded_file_read", ...

struct InputOp {
  std::string name;  // op name ("Iterator::Prefetch::Batch::Map", "MemcpyHToD")
  std::string type;  // op type
  InputOpCategory category = InputOpCategory::kPreprocessing;
  int64_t occurrences = 0;
  int64_t total_time_ps = 0;
  int64_t self_time_ps = 0;
};

// Host-to-device copies on the devices, by the op that issued them and the copy's own
// event name. The host side of a PyTorch copy (aten::copy_) cannot tell an H2D copy from
// a D2D one; the device copy and its launch can.
struct DeviceInputCopy {
  std::string op_name;    // OpMetrics::name of the copy's device op ("aten::copy_")
  std::string copy_name;  // the device event ("MemcpyHtoD", "Memcpy HtoD (Pinned -> Device)", "MemcpyH2D")
  // Where the source was, from memcpy_details kind_src or the event name: "pinned"
  // (page-locked), "pageable", or empty when the profile does not say.
  std::string source_memory;
  int64_t occurrences = 0;
  int64_t total_time_ps = 0;
  int64_t bytes = 0;  // from memcpy_details; 0 when not recorded
};

struct InputPipelineFacts {
  std::vector<InputOp> ops;  // sorted by self_time_ps descending
  // Over every device, sorted by total_time_ps descending, then op and copy name.
  std::vector<DeviceInputCopy> device_copies;
  // Self time of the input ops per category (the host-side breakdown).
  std::array<int64_t, kNumInputOpCategories> category_self_time_ps{};
  bool uses_tf_data = false;  // any Iterator:: op
  // Input fetches: IteratorGetNext* events and PyTorch DataLoader __next__ (host;
  // IsIteratorGetNextName) and, when steps come from step markers
  // (step_source == "step_markers"), how many of them overlap no step: the iterator is
  // fetched outside the step scope (the documented anti-pattern). Files TF grouped
  // attribute GetNext to steps themselves, so the check is not made for them (0).
  int64_t get_next_outside_steps = 0;
  int64_t get_next_count = 0;
  // Of get_next_count, the PyTorch DataLoader's (enumerate(DataLoader)#...__next__).
  int64_t data_loader_next_count = 0;
};

enum class PipelineEventKind : uint8_t { kIterator = 0, kProduce, kConsume };

// The iterator stats of a pipeline event. Shared by the events that carry the same values:
// a host has few iterators and settings, and may have millions of events.
struct PipelineIteratorStats {
  int64_t id = 0;          // `id` stat (iterator id); valid with PipelineEvent::kHasId
  int64_t parent_id = 0;   // `parent_id`; valid with PipelineEvent::kHasParentId
  // ParallelMap's `parallelism`, Prefetch's `buffer_limit` (0 when not recorded).
  int64_t setting = 0;

  bool operator==(const PipelineIteratorStats&) const = default;
};

struct PipelineEvent {
  static constexpr uint8_t kHasId = 1, kHasParentId = 2, kHasElementId = 4;

  int64_t begin_ps = 0;
  int64_t end_ps = 0;
  int64_t element_id = 0;  // `element_id`; valid with kHasElementId
  // The innermost pipeline event (index into PipelineEvents::events) that encloses this
  // one on its thread; -1 when none. Always a lower index than this event's.
  int32_t enclosing = -1;
  uint32_t name = 0;    // index into PipelineEvents::names
  uint32_t thread = 0;  // index into PipelineEvents::threads
  uint32_t stats = 0;   // index into PipelineEvents::iterator_stats
  PipelineEventKind kind = PipelineEventKind::kIterator;
  uint8_t flags = 0;

  bool has(uint8_t flag) const { return (flags & flag) != 0; }
  int64_t duration_ps() const { return end_ps - begin_ps; }
};
// A tf.data-heavy host has millions: 48 bytes, not the 64 the iterator stats inline took
// (10 M-event profile: 100 MB instead of 134 MB, alive at `analyze`'s peak).
static_assert(sizeof(PipelineEvent) == 48);

// The input-pipeline events of one host (pipeline_events.h says what they are).
struct PipelineEvents {
  std::vector<std::string> names;    // event names (long names, "PrefetchProduce", ...)
  std::vector<std::string> threads;  // thread (line) names
  // Thread by thread, each in time order (an enclosing event precedes what it encloses).
  std::vector<PipelineEvent> events;
  // What PipelineEvent::stats points at; entry 0 is all zero (nothing recorded).
  std::vector<PipelineIteratorStats> iterator_stats{PipelineIteratorStats{}};

  // In place of the events, when they were read from a host summary: their analysis
  // without the step time (tf_data_analysis.h: AnalyzePipelineEvents), which is all the
  // tools read of them. A pod's host then carries its few dozen stage rows, not its tens of
  // thousands of events.
  std::shared_ptr<const TfDataBottleneckResult> analysis;

  // The event's iterator stats (all zero for an index out of range).
  const PipelineIteratorStats& stats_of(const PipelineEvent& event) const {
    static const PipelineIteratorStats kNone;
    return event.stats < iterator_stats.size() ? iterator_stats[event.stats] : kNone;
  }
};

// ---------------------------------------------------------------------------------------
// Run environment and diagnostics
// ---------------------------------------------------------------------------------------

struct HostEnvironment {
  std::string hostname;       // XSpace.hostnames[0], else host plane stat host_name, else the caller's
  int64_t logical_cores = 0;  // host plane stat logical_cores
  int64_t process_id = 0;     // host plane stat process_id
  int64_t host_memory_bytes = 0;
  int64_t dropped_traces = 0;  // host plane stat dropped_traces (events lost while recording)
  int64_t profile_start_time_ns = 0;  // Task Environment plane (wall ns); 0 when absent
  int64_t profile_stop_time_ns = 0;
};

struct RunEnvironment {
  std::vector<HostEnvironment> hosts;  // one per host, index = host_index
  // "TPU" (any TPU plane), the device planes' device_type ("GPU" where they do not say;
  // "MTIA", "XPU", "HPU", "PrivateUse1" from Kineto traces; kinds joined by "+" where
  // they differ), or "CPU" (no device planes).
  std::string device_type;
  int64_t device_count = 0;            // device planes over all hosts
  int64_t active_device_count = 0;     // device planes with activity
  // XProf's "device core count": one per active device (a GPU counts as one core; SMs
  // are in DeviceCapabilities::core_count).
  int64_t device_core_count = 0;
  int64_t dropped_traces = 0;          // sum over hosts
};

// The host's and the device's step cadences (steps from step markers with device work,
// docs/model.md "Steps"). The slower of the two is the step time.
struct StepCadence {
  int64_t steps = 0;              // steps with both a host marker and device work; 0: not measured
  // Both intervals need at least two such steps (0 otherwise).
  int64_t host_interval_ps = 0;   // mean time from one step's host end to the next one's
  int64_t device_interval_ps = 0;  // mean time from one step's device end to the next one's
  // How much further behind the device falls per step (device - host interval; can be
  // negative while a queue drains).
  int64_t lag_growth_per_step_ps() const { return device_interval_ps - host_interval_ps; }
  bool device_bound = false;      // the device's cadence is the step time (kDeviceCompletions)
  int64_t mean_device_lag_ps = 0;  // StepInfo::device_lag_ps over the steps with device work
  int64_t max_device_lag_ps = 0;
};

// Where the host waits for the device: the time in one blocking runtime call
// (IsHostSyncCallName: a synchronisation or a synchronous copy) under one framework op
// (the innermost PyTorch op around the call, e.g. aten::item for `.item()`; empty when
// the profile records none).
struct HostSyncWait {
  std::string call;  // "cudaStreamSynchronize"
  std::string op;    // "aten::_local_scalar_dense", "" when unknown
  int64_t count = 0;
  int64_t total_ps = 0;   // over the whole profile
  int64_t in_steps_ps = 0;  // the part inside the steps' windows
};
// Most time first, then by call and op (ProfileModel::host_sync_waits' order).
void SortHostSyncWaits(std::vector<HostSyncWait>* waits);

// The host work in the gaps between steps (work_between_steps.h): the gaps' total and the
// outermost events inside them by name, most time first (at most kMaxOps).
struct WorkBetweenSteps {
  static constexpr size_t kMaxOps = 10;
  struct Op {
    std::string name;
    int64_t time_ps = 0;  // the part of its events inside the gaps
  };
  int64_t gap_ps = 0;
  std::vector<Op> ops;
};

// How the device events (kernels, copies, memsets) were tied to step groups, by rule
// (docs/model.md "Steps"). Every device event counts in exactly one field.
struct DeviceStepTies {
  int64_t by_group_id = 0;  // the event's own group_id (files TensorFlow grouped)
  // By correlation_id, the group of the host launch, when the launch is inside a step
  // marker's subtree or joined a group as a consumer.
  int64_t by_launch = 0;
  // By correlation_id, the group given to the launch by the step-window rule: a launch
  // from a thread without step markers (PyTorch's autograd thread) that starts inside a
  // step marker's window.
  int64_t by_launch_window = 0;
  int64_t launch_outside_steps = 0;  // the host launch exists but lies in no step
  int64_t no_launch = 0;             // no group_id and no host launch with the event's correlation_id
  int64_t tied() const { return by_group_id + by_launch + by_launch_window; }
  int64_t untied() const { return launch_outside_steps + no_launch; }
  void Add(const DeviceStepTies& other) {
    by_group_id += other.by_group_id;
    by_launch += other.by_launch;
    by_launch_window += other.by_launch_window;
    launch_outside_steps += other.launch_outside_steps;
    no_launch += other.no_launch;
  }
};

// ---------------------------------------------------------------------------------------
// Memory (allocator activity)
// ---------------------------------------------------------------------------------------

// One MemoryAllocation / MemoryDeallocation event: the 96-byte record the columnar reader
// decodes (src/xspace/columnar/columnar_memory_events.h says what each field holds);
// memory_events.h reads them. op_name, region_type and shape index MemoryEvents::names.
using MemoryActivity = xspace::MemoryActivity;
using MemoryEvent = xspace::MemoryEvent;
using xspace::kMaxMemoryBytes;
// A PodArray, so that the reader's records become the model's without a copy; copyable,
// as the model is.
class MemoryEventArray : public xspace::PodArray<MemoryEvent> {
 public:
  MemoryEventArray() = default;
  explicit MemoryEventArray(xspace::PodArray<MemoryEvent>&& from) noexcept : PodArray(std::move(from)) {}
  MemoryEventArray(MemoryEventArray&&) noexcept = default;
  MemoryEventArray& operator=(MemoryEventArray&&) noexcept = default;
  MemoryEventArray(const MemoryEventArray& other) : PodArray() { CopyFrom(other.begin(), other.end()); }
  explicit MemoryEventArray(const std::vector<MemoryEvent>& events) : PodArray() {
    CopyFrom(events.data(), events.data() + events.size());
  }
  MemoryEventArray& operator=(const MemoryEventArray& other) {
    if (this != &other) CopyFrom(other.begin(), other.end());
    return *this;
  }

 private:
  void CopyFrom(const MemoryEvent* first, const MemoryEvent* last) {
    if (!Resize(static_cast<size_t>(last - first))) throw std::bad_alloc();
    std::copy(first, last, begin());
  }
};

// The events of one memory id: the allocator_name stat (else index_on_host /
// device_ordinal, as XProf), on one host.
struct MemoryAllocatorEvents {
  std::string memory_id;
  int host_index = 0;
  MemoryEventArray events;  // by time_ps; file order on equal times
  // The events carry sizes but neither an address nor the allocator's totals (PyTorch
  // before 1.10 wrote `[memory]` events so): the bytes in use are the running sum of their
  // sizes from the start of the profile (DeriveHeapFromSizes), which is what PyTorch's
  // own TensorBoard plugin drew, and no allocation can be paired with its free.
  bool heap_from_sizes = false;
};

struct MemoryEvents {
  std::vector<MemoryAllocatorEvents> allocators;  // sorted by (host_index, memory_id)
  // Strings the events index (op names, region types, shapes); names[0] is "".
  std::vector<std::string> names;
  // Stat values out of range (negative or over kMaxMemoryBytes bytes, fragmentation
  // outside [0, 1] or not a number), clamped.
  int64_t invalid_values = 0;
  int64_t size() const {
    int64_t n = 0;
    for (const MemoryAllocatorEvents& a : allocators) n += static_cast<int64_t>(a.events.size());
    return n;
  }
};

// Host threads that launch device work, and tf.data's threads competing with them for the
// CPU (launch_threads.h says how each figure is measured).
struct LaunchThreadCompetition {
  bool measured = false;  // a single-host model with host threads
  int64_t launch_threads = 0;
  int64_t launches = 0;
  int64_t input_threads = 0;
  int64_t gpu_private_threads = 0;
  double launch_busy_ms = 0;
  double input_busy_ms = 0;
  double overlap_ms = 0;       // launch threads busy while input threads are busy
  double overlap_percent = 0;  // of launch_busy_ms
};

// ---------------------------------------------------------------------------------------
// XLA: device kernels joined to HLO instructions
// ---------------------------------------------------------------------------------------

// The device time of one HLO instruction: the kernels whose `hlo_module` (+ `program_id`)
// and `hlo_op` stats name it, over every device of the model (docs/model.md "HLO").
struct HloOpTime {
  std::string module_name;   // hlo_module stat ("jit_train_step")
  int64_t program_id = -1;   // program_id stat; -1 when the kernels carry none
  std::string op_name;       // hlo_op stat: the instruction name ("fusion.12")
  // Resolved against ProfileModel::hlo: indices into hlo->modules and into that module's
  // instructions; -1 when the profile's HLO has no such module / instruction.
  int32_t module = -1;
  int32_t instruction = -1;
  int64_t kernel_count = 0;  // kernel launches
  // Executions: the launch count of its most-launched kernel (an op that runs as three
  // kernels runs once per three launches).
  int64_t occurrences = 0;
  int64_t distinct_kernels = 0;
  int64_t total_time_ps = 0;  // kernel durations summed (overlapping streams add up)
  int64_t min_kernel_ps = 0;  // shortest and longest single kernel
  int64_t max_kernel_ps = 0;
};

// How many device kernels found their HLO instruction (the join rate).
struct HloKernelJoin {
  int64_t kernels = 0;             // every kernel launch on the devices (copies excluded)
  int64_t kernels_with_hlo_op = 0;  // that carry an hlo_op stat
  int64_t kernels_joined = 0;      // whose module and instruction the profile's HLO has
  double join_rate() const { return kernels > 0 ? static_cast<double>(kernels_joined) / kernels : 0; }
};

// ---------------------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------------------

struct ProfileModel {
  // One entry per host; a single-host model has one. host_index fields index this.
  std::vector<std::string> hostnames;
  RunEnvironment run_environment;

  bool has_device = false;  // any device plane with activity

  // Steps sorted by begin_ps (combined models: by step_number). Incomplete first/last
  // steps are dropped only with ModelOptions::drop_incomplete_steps.
  std::vector<StepInfo> steps;
  // Set in the model of one step (ModelOptions::step): that step's group id. Tools that read
  // events by step id (memory_profile) keep to it.
  std::optional<int64_t> step_group;
  // Where steps came from, for explanations: "tf_grouped" (group_id in the file),
  // "step_markers" (`_r` / TraceContext roots grouped by us), "none" (no markers; steps
  // is empty and diagnostics says so).
  std::string step_source;
  // Host vs device cadence of the steps (single-host models; combined models: the slowest
  // host's).
  StepCadence step_cadence;
  // The host's waits on the device, by (call, op); sorted by total_ps descending.
  std::vector<HostSyncWait> host_sync_waits;
  // What runs between the steps (single-host models; empty in combined models).
  WorkBetweenSteps work_between_steps;

  OpMetricsDb host_ops;
  OpMetricsDb device_ops;

  std::vector<KernelStats> kernels;  // sorted by total_duration_ps descending
  std::vector<DeviceActivity> devices;  // sorted by (host_index, device_ordinal)

  InputPipelineFacts input_pipeline;

  DeviceStepTies device_step_ties;

  // Allocator activity (MemoryAllocation / MemoryDeallocation events of the host planes).
  MemoryEvents memory;

  LaunchThreadCompetition launch_threads;
  // tf.data-style iterator and produce/consume events, one entry per host (host_index).
  std::vector<PipelineEvents> pipeline_events;

  // Host event trees, one per thread line of /host:CPU (single-host models only).
  std::vector<HostThread> host_threads;
  // The columnar data host_threads index into. Null in combined models.
  std::shared_ptr<const xspace::ColumnarXSpace> source;

  // The XLA programs the profile carries (`Hlo Proto` stats of /host:metadata, read by
  // src/hlo/hlo_programs.h); null when it has none. Shared, read-only: models of one step
  // and combined models point at the same modules.
  std::shared_ptr<const hlo::HloPrograms> hlo;
  // Device time per HLO instruction, sorted by total_time_ps descending, then module and
  // op name (empty for profiles whose kernels carry no hlo_op stat), and the join counts.
  std::vector<HloOpTime> hlo_ops;
  HloKernelJoin hlo_join;

  // Problems found in the data, in words for users ("no step markers found",
  // "1234 events were dropped while recording", ...). Never fatal.
  std::vector<std::string> diagnostics;

  int64_t total_events = 0;  // events read (all planes)

  // What more than one tool derives from the fields above (step summary, input analysis,
  // memory, multi-GPU, ...), computed on first use and at most once (derivations.h). Not
  // part of the model's value: a copy starts with an empty cache.
  DerivationCache derived;
};

}  // namespace stepscope::analysis
