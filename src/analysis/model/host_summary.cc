#include "src/analysis/model/host_summary.h"

#include "src/analysis/model/tf_data_analysis.h"

#include "src/hlo/hlo_programs.h"
#include "src/xspace/columnar/columnar_reader.h"

#include <algorithm>
#include <bit>
#include <memory>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

namespace stepscope::analysis {
namespace {

// "stepscope host summary", then the version.
constexpr std::string_view kMagic = "SSHSUMM\x01";

// ---------------------------------------------------------------------------------------
// The fields of each struct, in encoding order. A struct not listed here cannot be encoded
// (no overload matches), and a field left out of its list is lost: the sizes asserted
// below make adding a field to the model fail to compile until its list is updated.
// ---------------------------------------------------------------------------------------

template <typename T>
struct Fields;  // specialised per struct: static constexpr auto kList = std::tuple{&T::a, ...}

#define STEPSCOPE_SUMMARY_FIELDS(Type, ...)                  \
  template <>                                               \
  struct Fields<Type> {                                     \
    static constexpr auto kList = std::make_tuple(__VA_ARGS__); \
  }

using Op = WorkBetweenSteps::Op;
STEPSCOPE_SUMMARY_FIELDS(StepBreakdown, &StepBreakdown::type_ps);
STEPSCOPE_SUMMARY_FIELDS(HostStep, &HostStep::host_index, &HostStep::begin_ps, &HostStep::duration_ps,
                         &HostStep::breakdown);
STEPSCOPE_SUMMARY_FIELDS(StepInfo, &StepInfo::step_number, &StepInfo::group_id, &StepInfo::name, &StepInfo::begin_ps,
                         &StepInfo::duration_ps, &StepInfo::time_source, &StepInfo::has_device_activity,
                         &StepInfo::host_begin_ps, &StepInfo::host_end_ps, &StepInfo::device_end_ps,
                         &StepInfo::device_busy_ps, &StepInfo::breakdown, &StepInfo::per_host);
STEPSCOPE_SUMMARY_FIELDS(OpMetrics, &OpMetrics::name, &OpMetrics::type, &OpMetrics::category, &OpMetrics::is_host,
                         &OpMetrics::is_eager, &OpMetrics::occurrences, &OpMetrics::total_time_ps,
                         &OpMetrics::self_time_ps, &OpMetrics::min_time_ps, &OpMetrics::max_time_ps,
                         &OpMetrics::cpu_memory_bytes, &OpMetrics::self_cpu_memory_bytes,
                         &OpMetrics::device_memory_bytes, &OpMetrics::self_device_memory_bytes);
STEPSCOPE_SUMMARY_FIELDS(OpMetricsDb, &OpMetricsDb::ops, &OpMetricsDb::total_time_ps, &OpMetricsDb::idle_time_ps,
                         &OpMetricsDb::total_self_time_ps, &OpMetricsDb::has_memory);
STEPSCOPE_SUMMARY_FIELDS(KernelLaunchParams, &KernelLaunchParams::registers_per_thread,
                         &KernelLaunchParams::static_shared_memory_bytes,
                         &KernelLaunchParams::dynamic_shared_memory_bytes, &KernelLaunchParams::grid,
                         &KernelLaunchParams::block, &KernelLaunchParams::occupancy_pct);
STEPSCOPE_SUMMARY_FIELDS(KernelStats, &KernelStats::kernel_name, &KernelStats::op_name, &KernelStats::params,
                         &KernelStats::is_kernel_using_tensor_core, &KernelStats::is_op_tensor_core_eligible,
                         &KernelStats::occurrences, &KernelStats::total_duration_ps, &KernelStats::min_duration_ps,
                         &KernelStats::max_duration_ps);
STEPSCOPE_SUMMARY_FIELDS(MemcpyStats, &MemcpyStats::count, &MemcpyStats::bytes, &MemcpyStats::duration_ps);
STEPSCOPE_SUMMARY_FIELDS(StreamActivity, &StreamActivity::stream_id, &StreamActivity::name,
                         &StreamActivity::kernel_count, &StreamActivity::kernel_time_ps,
                         &StreamActivity::memcpy_count, &StreamActivity::memcpy_time_ps, &StreamActivity::busy_ps);
STEPSCOPE_SUMMARY_FIELDS(DeviceCapabilities, &DeviceCapabilities::clock_rate_khz, &DeviceCapabilities::core_count,
                         &DeviceCapabilities::memory_bandwidth_bytes_per_s, &DeviceCapabilities::memory_size_bytes,
                         &DeviceCapabilities::compute_capability_major,
                         &DeviceCapabilities::compute_capability_minor, &DeviceCapabilities::vendor,
                         &DeviceCapabilities::device_name, &DeviceCapabilities::device_type);
STEPSCOPE_SUMMARY_FIELDS(DeviceStepActivity, &DeviceStepActivity::step_number, &DeviceStepActivity::group_id,
                         &DeviceStepActivity::first_begin_ps, &DeviceStepActivity::last_end_ps,
                         &DeviceStepActivity::first_kernel_begin_ps, &DeviceStepActivity::active_ps,
                         &DeviceStepActivity::collective_ps, &DeviceStepActivity::collective_count);
STEPSCOPE_SUMMARY_FIELDS(CollectiveTraffic, &CollectiveTraffic::kind, &CollectiveTraffic::count,
                         &CollectiveTraffic::time_ps, &CollectiveTraffic::sized_count,
                         &CollectiveTraffic::sized_time_ps, &CollectiveTraffic::size_bytes,
                         &CollectiveTraffic::bus_bytes, &CollectiveTraffic::ranks, &CollectiveTraffic::ranks_source);
STEPSCOPE_SUMMARY_FIELDS(DeviceCounterSummary, &DeviceCounterSummary::name, &DeviceCounterSummary::samples,
                         &DeviceCounterSummary::mean, &DeviceCounterSummary::min, &DeviceCounterSummary::max,
                         &DeviceCounterSummary::last, &DeviceCounterSummary::time_at_or_above_threshold_percent,
                         &DeviceCounterSummary::threshold, &DeviceCounterSummary::first_ps,
                         &DeviceCounterSummary::last_ps);
STEPSCOPE_SUMMARY_FIELDS(DeviceActivity, &DeviceActivity::plane_name, &DeviceActivity::device_ordinal,
                         &DeviceActivity::host_index, &DeviceActivity::capabilities, &DeviceActivity::streams,
                         &DeviceActivity::memcpy, &DeviceActivity::kernel_count, &DeviceActivity::kernel_time_ps,
                         &DeviceActivity::busy_ps, &DeviceActivity::first_begin_ps, &DeviceActivity::last_end_ps,
                         &DeviceActivity::collective_ps, &DeviceActivity::collective_count,
                         &DeviceActivity::step_activity, &DeviceActivity::collective_traffic,
                         &DeviceActivity::counters);
STEPSCOPE_SUMMARY_FIELDS(InputOp, &InputOp::name, &InputOp::type, &InputOp::category, &InputOp::occurrences,
                         &InputOp::total_time_ps, &InputOp::self_time_ps);
STEPSCOPE_SUMMARY_FIELDS(DeviceInputCopy, &DeviceInputCopy::op_name, &DeviceInputCopy::copy_name,
                         &DeviceInputCopy::source_memory, &DeviceInputCopy::occurrences,
                         &DeviceInputCopy::total_time_ps, &DeviceInputCopy::bytes);
STEPSCOPE_SUMMARY_FIELDS(InputPipelineFacts, &InputPipelineFacts::ops, &InputPipelineFacts::device_copies,
                         &InputPipelineFacts::category_self_time_ps, &InputPipelineFacts::uses_tf_data,
                         &InputPipelineFacts::get_next_outside_steps, &InputPipelineFacts::get_next_count,
                         &InputPipelineFacts::data_loader_next_count);
STEPSCOPE_SUMMARY_FIELDS(PipelineIteratorStats, &PipelineIteratorStats::id, &PipelineIteratorStats::parent_id,
                         &PipelineIteratorStats::setting);
STEPSCOPE_SUMMARY_FIELDS(PipelineStageStats, &PipelineStageStats::pipeline, &PipelineStageStats::id,
                         &PipelineStageStats::parent_id, &PipelineStageStats::parent_known,
                         &PipelineStageStats::long_name, &PipelineStageStats::dataset_name, &PipelineStageStats::kind,
                         &PipelineStageStats::setting, &PipelineStageStats::calls, &PipelineStageStats::total_ps,
                         &PipelineStageStats::self_ps, &PipelineStageStats::blocking_calls,
                         &PipelineStageStats::blocking_self_ps, &PipelineStageStats::slow_blocking_self_ps);
STEPSCOPE_SUMMARY_FIELDS(CriticalPathStep, &CriticalPathStep::pipeline, &CriticalPathStep::depth,
                         &CriticalPathStep::stage, &CriticalPathStep::duration_ps, &CriticalPathStep::self_ps,
                         &CriticalPathStep::wait_ps, &CriticalPathStep::thread);
STEPSCOPE_SUMMARY_FIELDS(PipelineStats, &PipelineStats::name, &PipelineStats::is_device, &PipelineStats::root_stage,
                         &PipelineStats::calls, &PipelineStats::total_latency_ps, &PipelineStats::min_latency_ps,
                         &PipelineStats::max_latency_ps, &PipelineStats::slow_calls,
                         &PipelineStats::analysed_slow_calls, &PipelineStats::step_time_percent,
                         &PipelineStats::bottleneck_stage, &PipelineStats::bottleneck_share_percent,
                         &PipelineStats::slowest_call_bottleneck_stage, &PipelineStats::iterator_bound,
                         &PipelineStats::suggestion);
STEPSCOPE_SUMMARY_FIELDS(PipelineEventCounts, &PipelineEventCounts::iterator_events,
                         &PipelineEventCounts::produce_events, &PipelineEventCounts::consume_events,
                         &PipelineEventCounts::linked_producers, &PipelineEventCounts::iterators_without_id,
                         &PipelineEventCounts::produce_without_element, &PipelineEventCounts::produce_unconsumed,
                         &PipelineEventCounts::consume_without_producer,
                         &PipelineEventCounts::consume_outside_iterator, &PipelineEventCounts::duplicate_consumes,
                         &PipelineEventCounts::revisited_calls, &PipelineEventCounts::parent_cycles,
                         &PipelineEventCounts::missing_parents, &PipelineEventCounts::conflicting_names,
                         &PipelineEventCounts::unreached_calls);
// A host's pipeline events travel as their analysis (PipelineEvents::analysis): see Put.
STEPSCOPE_SUMMARY_FIELDS(TfDataBottleneckResult, &TfDataBottleneckResult::pipelines,
                         &TfDataBottleneckResult::stages, &TfDataBottleneckResult::critical_path,
                         &TfDataBottleneckResult::iterator_bound, &TfDataBottleneckResult::step_input_wait_percent,
                         &TfDataBottleneckResult::bottleneck_stage, &TfDataBottleneckResult::statement,
                         &TfDataBottleneckResult::counts, &TfDataBottleneckResult::diagnostics);
STEPSCOPE_SUMMARY_FIELDS(HostEnvironment, &HostEnvironment::hostname, &HostEnvironment::logical_cores,
                         &HostEnvironment::process_id, &HostEnvironment::host_memory_bytes,
                         &HostEnvironment::dropped_traces, &HostEnvironment::profile_start_time_ns,
                         &HostEnvironment::profile_stop_time_ns);
STEPSCOPE_SUMMARY_FIELDS(RunEnvironment, &RunEnvironment::hosts, &RunEnvironment::device_type,
                         &RunEnvironment::device_count, &RunEnvironment::active_device_count,
                         &RunEnvironment::device_core_count, &RunEnvironment::dropped_traces);
STEPSCOPE_SUMMARY_FIELDS(StepCadence, &StepCadence::steps, &StepCadence::host_interval_ps,
                         &StepCadence::device_interval_ps, &StepCadence::device_bound,
                         &StepCadence::mean_device_lag_ps, &StepCadence::max_device_lag_ps);
STEPSCOPE_SUMMARY_FIELDS(HostSyncWait, &HostSyncWait::call, &HostSyncWait::op, &HostSyncWait::count,
                         &HostSyncWait::total_ps, &HostSyncWait::in_steps_ps);
STEPSCOPE_SUMMARY_FIELDS(Op, &Op::name, &Op::time_ps);
STEPSCOPE_SUMMARY_FIELDS(WorkBetweenSteps, &WorkBetweenSteps::gap_ps, &WorkBetweenSteps::ops);
STEPSCOPE_SUMMARY_FIELDS(DeviceStepTies, &DeviceStepTies::by_group_id, &DeviceStepTies::by_launch,
                         &DeviceStepTies::by_launch_window, &DeviceStepTies::launch_outside_steps,
                         &DeviceStepTies::no_launch);
STEPSCOPE_SUMMARY_FIELDS(MemoryAllocatorEvents, &MemoryAllocatorEvents::memory_id, &MemoryAllocatorEvents::host_index,
                         &MemoryAllocatorEvents::events, &MemoryAllocatorEvents::heap_from_sizes);
STEPSCOPE_SUMMARY_FIELDS(MemoryEvents, &MemoryEvents::allocators, &MemoryEvents::names, &MemoryEvents::invalid_values);
STEPSCOPE_SUMMARY_FIELDS(LaunchThreadCompetition, &LaunchThreadCompetition::measured,
                         &LaunchThreadCompetition::launch_threads, &LaunchThreadCompetition::launches,
                         &LaunchThreadCompetition::input_threads, &LaunchThreadCompetition::gpu_private_threads,
                         &LaunchThreadCompetition::launch_busy_ms, &LaunchThreadCompetition::input_busy_ms,
                         &LaunchThreadCompetition::overlap_ms, &LaunchThreadCompetition::overlap_percent);
STEPSCOPE_SUMMARY_FIELDS(HloOpTime, &HloOpTime::module_name, &HloOpTime::program_id, &HloOpTime::op_name,
                         &HloOpTime::module, &HloOpTime::instruction, &HloOpTime::kernel_count,
                         &HloOpTime::occurrences, &HloOpTime::distinct_kernels, &HloOpTime::total_time_ps,
                         &HloOpTime::min_kernel_ps, &HloOpTime::max_kernel_ps);
STEPSCOPE_SUMMARY_FIELDS(HloKernelJoin, &HloKernelJoin::kernels, &HloKernelJoin::kernels_with_hlo_op,
                         &HloKernelJoin::kernels_joined);
// Everything but host_threads, source, hlo and the derivation cache (see the header).
STEPSCOPE_SUMMARY_FIELDS(ProfileModel, &ProfileModel::hostnames, &ProfileModel::run_environment,
                         &ProfileModel::has_device, &ProfileModel::steps, &ProfileModel::step_group,
                         &ProfileModel::step_source, &ProfileModel::step_cadence, &ProfileModel::host_sync_waits,
                         &ProfileModel::work_between_steps, &ProfileModel::host_ops, &ProfileModel::device_ops,
                         &ProfileModel::kernels, &ProfileModel::devices, &ProfileModel::input_pipeline,
                         &ProfileModel::device_step_ties, &ProfileModel::memory, &ProfileModel::launch_threads,
                         &ProfileModel::pipeline_events, &ProfileModel::hlo_ops, &ProfileModel::hlo_join,
                         &ProfileModel::diagnostics, &ProfileModel::total_events);

#undef STEPSCOPE_SUMMARY_FIELDS

// A field added to one of these structs changes its size: update its list above, then the
// size here. (Sizes of this ABI, x86-64 and AArch64 Linux; elsewhere the check is off.)
#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
static_assert(sizeof(StepBreakdown) == 144 &&
                   sizeof(HostStep) == 168 &&
                   sizeof(StepInfo) == 272 &&
                   sizeof(OpMetrics) == 144 &&
                   sizeof(OpMetricsDb) == 56 &&
                   sizeof(KernelLaunchParams) == 104 &&
                   sizeof(KernelStats) == 208 &&
                   sizeof(MemcpyStats) == 24 &&
                   sizeof(StreamActivity) == 80 &&
                   sizeof(DeviceCapabilities) == 144 &&
                   sizeof(DeviceStepActivity) == 64 &&
                   sizeof(CollectiveTraffic) == 96 &&
                   sizeof(DeviceCounterSummary) == 104 &&
                   sizeof(DeviceActivity) == 488 &&
                   sizeof(InputOp) == 96 &&
                   sizeof(DeviceInputCopy) == 120 &&
                   sizeof(InputPipelineFacts) == 136 &&
                   sizeof(PipelineIteratorStats) == 24 &&
                   sizeof(PipelineEvents) == 112 &&
                   sizeof(PipelineStageStats) == 168 &&
                   sizeof(CriticalPathStep) == 72 &&
                   sizeof(PipelineStats) == 168 &&
                   sizeof(PipelineEventCounts) == 120 &&
                   sizeof(TfDataBottleneckResult) == 280 &&
                   sizeof(HostEnvironment) == 80 &&
                   sizeof(RunEnvironment) == 88 &&
                   sizeof(StepCadence) == 48 &&
                   sizeof(HostSyncWait) == 88 &&
                   sizeof(WorkBetweenSteps::Op) == 40 &&
                   sizeof(WorkBetweenSteps) == 32 &&
                   sizeof(DeviceStepTies) == 40 &&
                   sizeof(MemoryAllocatorEvents) == 80 &&
                   sizeof(MemoryEvents) == 56 &&
                   sizeof(LaunchThreadCompetition) == 72 &&
                   sizeof(HloOpTime) == 128 &&
                   sizeof(HloKernelJoin) == 24 &&
                   sizeof(ProfileModel) == 928,
              "a model struct changed: update its field list above, then this size");
#endif

// ---------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------

class Writer {
 public:
  std::string& out() { return out_; }

  void Varint(uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<char>(v | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<char>(v));
  }
  void Signed(int64_t v) { Varint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }
  void Raw(const void* data, size_t size) { out_.append(static_cast<const char*>(data), size); }

 private:
  std::string out_;
};

template <typename T>
void Put(Writer& w, const T& value);

template <typename T, size_t... I>
void PutFields(Writer& w, const T& value, std::index_sequence<I...>) {
  (Put(w, value.*std::get<I>(Fields<T>::kList)), ...);
}

// The records a model holds by the million (memory events), field by field with times as
// deltas from the previous event's: a few bytes each instead of 96.
void PutEvents(Writer& w, const MemoryEventArray& events) {
  w.Varint(events.size());
  int64_t previous_time = 0;
  for (const MemoryEvent& e : events) {
    w.Signed(e.time_ps - previous_time);
    w.Varint(static_cast<uint64_t>(e.activity));
    for (int64_t v : {e.requested_bytes, e.allocation_bytes, e.stack_reserved_bytes, e.heap_allocated_bytes,
                      e.free_memory_bytes, e.peak_bytes_in_use, e.step_id, int64_t{e.data_type}}) {
      w.Signed(v);
    }
    w.Varint(e.address);
    w.Raw(&e.fragmentation, sizeof(e.fragmentation));
    for (uint32_t v : {e.op_name, e.region_type, e.shape}) w.Varint(v);
    previous_time = e.time_ps;
  }
}

template <typename T>
void Put(Writer& w, const T& value) {
  if constexpr (std::is_same_v<T, bool>) {
    w.Varint(value ? 1 : 0);
  } else if constexpr (std::is_enum_v<T>) {
    w.Varint(static_cast<uint64_t>(value));
  } else if constexpr (std::is_integral_v<T>) {
    w.Signed(static_cast<int64_t>(value));
  } else if constexpr (std::is_same_v<T, double>) {
    w.Raw(&value, sizeof(value));
  } else if constexpr (std::is_same_v<T, std::string>) {
    w.Varint(value.size());
    w.Raw(value.data(), value.size());
  } else if constexpr (std::is_same_v<T, MemoryEventArray>) {
    PutEvents(w, value);
  } else if constexpr (std::is_same_v<T, PipelineEvents>) {
    // Their analysis, not the events (tens of thousands on a tf.data host, 80 % of a
    // summary's bytes): the tools read nothing else of them, and what depends on the run's
    // steps is applied after decoding (ApplyStepTime), so the result is the same.
    Put(w, AnalyzePipelineEvents(value));
  } else if constexpr (requires { typename T::value_type; value.has_value(); }) {  // std::optional
    w.Varint(value.has_value() ? 1 : 0);
    if (value.has_value()) Put(w, *value);
  } else if constexpr (requires { std::tuple_size<T>::value; }) {  // std::array
    for (const auto& item : value) Put(w, item);
  } else if constexpr (requires { value.size(); value.begin(); }) {  // std::vector
    w.Varint(value.size());
    for (const auto& item : value) Put(w, item);
  } else {
    PutFields(w, value, std::make_index_sequence<std::tuple_size_v<decltype(Fields<T>::kList)>>{});
  }
}

// The fewest bytes a value of T encodes to: a count of T items larger than the bytes left
// over this is corrupt, so decoding allocates at most ~sizeof(T) / MinBytes<T>() times the
// summary's size.
template <typename T>
constexpr size_t MinBytes();

template <typename T, size_t... I>
constexpr size_t MinFieldBytes(std::index_sequence<I...>) {
  return (size_t{0} + ... +
          MinBytes<std::remove_cvref_t<decltype(std::declval<T&>().*std::get<I>(Fields<T>::kList))>>());
}

template <typename T>
constexpr size_t MinBytes() {
  if constexpr (std::is_same_v<T, double>) {
    return sizeof(double);
  } else if constexpr (std::is_same_v<T, PipelineEvents>) {
    return MinBytes<TfDataBottleneckResult>();
  } else if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T> || std::is_same_v<T, std::string> ||
                       std::is_same_v<T, MemoryEventArray> || requires(T t) { t.has_value(); } ||
                       (requires(T t) { t.size(); t.begin(); } && !requires { std::tuple_size<T>::value; })) {
    return 1;  // a varint, a count or a presence flag
  } else if constexpr (requires { std::tuple_size<T>::value; }) {  // std::array
    return std::tuple_size<T>::value * MinBytes<typename T::value_type>();
  } else {
    return MinFieldBytes<T>(std::make_index_sequence<std::tuple_size_v<decltype(Fields<T>::kList)>>{});
  }
}

// ---------------------------------------------------------------------------------------
// Reading: every count is checked against the bytes left before anything is allocated.
// ---------------------------------------------------------------------------------------

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool failed() const { return failed_; }
  bool done() const { return in_.empty(); }
  void Fail() { failed_ = true; }

  uint64_t Varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (in_.empty()) break;
      const uint8_t byte = static_cast<uint8_t>(in_.front());
      in_.remove_prefix(1);
      v |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return v;
    }
    failed_ = true;
    return 0;
  }
  int64_t Signed() {
    const uint64_t v = Varint();
    return static_cast<int64_t>((v >> 1) ^ (~(v & 1) + 1));
  }
  // A count of items of at least `min_item_bytes` each: more than the bytes left is corrupt.
  size_t Count(size_t min_item_bytes) {
    const uint64_t n = Varint();
    if (failed_ || (min_item_bytes > 0 && n > in_.size() / min_item_bytes)) {
      failed_ = true;
      return 0;
    }
    return static_cast<size_t>(n);
  }
  bool Raw(void* out, size_t size) {
    if (failed_ || size > in_.size()) {
      failed_ = true;
      return false;
    }
    std::memcpy(out, in_.data(), size);
    in_.remove_prefix(size);
    return true;
  }
  std::string_view Take(size_t size) {
    if (failed_ || size > in_.size()) {
      failed_ = true;
      return {};
    }
    std::string_view taken = in_.substr(0, size);
    in_.remove_prefix(size);
    return taken;
  }

 private:
  std::string_view in_;
  bool failed_ = false;
};

template <typename T>
void Get(Reader& r, T* value);

// PutEvents' records back. Each takes at least 21 bytes: the count is bounded by that.
void GetEvents(Reader& r, MemoryEventArray* events) {
  if (!events->Resize(r.Count(21))) {
    r.Fail();
    return;
  }
  int64_t previous_time = 0;
  for (MemoryEvent& e : *events) {
    if (r.failed()) return;
    e.time_ps = previous_time + r.Signed();
    e.activity = static_cast<MemoryActivity>(r.Varint() & 1);
    for (int64_t* v : {&e.requested_bytes, &e.allocation_bytes, &e.stack_reserved_bytes, &e.heap_allocated_bytes,
                       &e.free_memory_bytes, &e.peak_bytes_in_use, &e.step_id}) {
      *v = r.Signed();
    }
    e.data_type = static_cast<int32_t>(r.Signed());
    e.address = r.Varint();
    r.Raw(&e.fragmentation, sizeof(e.fragmentation));
    for (uint32_t* v : {&e.op_name, &e.region_type, &e.shape}) *v = static_cast<uint32_t>(r.Varint());
    previous_time = e.time_ps;
  }
}

template <typename T, size_t... I>
void GetFields(Reader& r, T* value, std::index_sequence<I...>) {
  (Get(r, &(value->*std::get<I>(Fields<T>::kList))), ...);
}

template <typename T>
void Get(Reader& r, T* value) {
  if (r.failed()) return;
  if constexpr (std::is_same_v<T, bool>) {
    *value = r.Varint() != 0;
  } else if constexpr (std::is_enum_v<T>) {
    *value = static_cast<T>(r.Varint());
  } else if constexpr (std::is_integral_v<T>) {
    *value = static_cast<T>(r.Signed());
  } else if constexpr (std::is_same_v<T, double>) {
    r.Raw(value, sizeof(*value));
  } else if constexpr (std::is_same_v<T, std::string>) {
    *value = std::string(r.Take(r.Count(1)));
  } else if constexpr (std::is_same_v<T, MemoryEventArray>) {
    GetEvents(r, value);
  } else if constexpr (std::is_same_v<T, PipelineEvents>) {
    TfDataBottleneckResult analysis;
    Get(r, &analysis);
    *value = PipelineEvents{};
    value->analysis = std::make_shared<const TfDataBottleneckResult>(std::move(analysis));
  } else if constexpr (requires { typename T::value_type; value->has_value(); }) {  // std::optional
    if (r.Varint() != 0) {
      typename T::value_type item{};
      Get(r, &item);
      *value = std::move(item);
    } else {
      value->reset();
    }
  } else if constexpr (requires { std::tuple_size<T>::value; }) {  // std::array
    for (auto& item : *value) Get(r, &item);
  } else if constexpr (requires { value->size(); value->begin(); }) {  // std::vector
    const size_t n = r.Count(MinBytes<typename T::value_type>());
    value->clear();
    value->resize(n);
    for (auto& item : *value) Get(r, &item);
  } else {
    GetFields(r, value, std::make_index_sequence<std::tuple_size_v<decltype(Fields<T>::kList)>>{});
  }
}

// A pipeline analysis's stage and pipeline indices.
bool PipelineIndicesAreValid(const TfDataBottleneckResult& r) {
  const int pipelines = static_cast<int>(r.pipelines.size());
  const int stages = static_cast<int>(r.stages.size());
  auto stage_ok = [stages](const std::optional<int>& s) { return !s.has_value() || (*s >= 0 && *s < stages); };
  for (const PipelineStats& p : r.pipelines) {
    if (!stage_ok(p.root_stage) || !stage_ok(p.bottleneck_stage) || !stage_ok(p.slowest_call_bottleneck_stage)) {
      return false;
    }
  }
  for (const PipelineStageStats& s : r.stages) {
    if (s.pipeline < -1 || s.pipeline >= pipelines) return false;
  }
  for (const CriticalPathStep& step : r.critical_path) {
    if (step.pipeline < 0 || step.pipeline >= pipelines || !stage_ok(step.stage)) return false;
  }
  return stage_ok(r.bottleneck_stage);
}

// The indices a model's records hold point where the tools will look: a summary that
// decodes but names an op, a thread or a host that is not there is corrupt, not a crash.
bool IndicesAreValid(const ProfileModel& model) {
  const size_t hosts = std::max<size_t>(1, model.hostnames.size());
  auto host_ok = [hosts](int index) { return index >= 0 && static_cast<size_t>(index) < hosts; };
  for (const StepInfo& step : model.steps) {
    for (const HostStep& h : step.per_host) {
      if (!host_ok(h.host_index)) return false;
    }
  }
  for (const DeviceActivity& device : model.devices) {
    if (!host_ok(device.host_index)) return false;
  }
  for (const MemoryAllocatorEvents& allocator : model.memory.allocators) {
    if (!host_ok(allocator.host_index)) return false;
    for (const MemoryEvent& e : allocator.events) {
      const size_t names = model.memory.names.size();
      if (e.op_name >= std::max<size_t>(names, 1) || e.region_type >= std::max<size_t>(names, 1) ||
          e.shape >= std::max<size_t>(names, 1)) {
        return false;
      }
    }
  }
  for (const PipelineEvents& pipeline : model.pipeline_events) {
    if (pipeline.analysis != nullptr && !PipelineIndicesAreValid(*pipeline.analysis)) return false;
  }
  for (const HloOpTime& op : model.hlo_ops) {
    if (op.module < 0) continue;
    if (model.hlo == nullptr || static_cast<size_t>(op.module) >= model.hlo->modules.size()) return false;
    if (op.instruction >= 0 &&
        static_cast<size_t>(op.instruction) >= model.hlo->modules[static_cast<size_t>(op.module)].instructions.size()) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string EncodeHostSummary(const ProfileModel& model, std::string_view xla_programs) {
  Writer w;
  w.Raw(kMagic.data(), kMagic.size());
  w.Varint(kHostSummaryVersion);
  Put(w, model);
  Put(w, std::string(xla_programs));
  return std::move(w.out());
}

StatusOr<ProfileModel> DecodeHostSummary(std::string_view bytes) {
  if (!bytes.starts_with(kMagic)) return DataLossError("not a stepscope host summary (no magic bytes)");
  Reader r(bytes.substr(kMagic.size()));
  const uint64_t version = r.Varint();
  if (r.failed()) return DataLossError("a truncated host summary");
  if (version != kHostSummaryVersion) {
    return FailedPreconditionError("a host summary of format version " + std::to_string(version) + ", not " +
                                   std::to_string(kHostSummaryVersion));
  }
  ProfileModel model;
  Get(r, &model);
  std::string xla_programs;
  Get(r, &xla_programs);
  if (r.failed()) return DataLossError("a truncated or corrupt host summary");
  if (!r.done()) return DataLossError("a corrupt host summary (bytes after its end)");
  if (!xla_programs.empty()) {
    StatusOr<xspace::ColumnarXSpace> plane = xspace::ParseColumnarXSpace(xla_programs, "a host summary's XLA programs");
    if (!plane.ok()) return DataLossError("a corrupt host summary: " + plane.status().message());
    // As BuildProfileModel keeps them: also when none could be read (the reasons are what
    // the XLA tools say); the reader's diagnostics are in the model's already.
    hlo::HloPrograms programs = hlo::ReadHloPrograms(*plane);
    if (!programs.empty() || !programs.diagnostics.empty()) {
      model.hlo = std::make_shared<const hlo::HloPrograms>(std::move(programs));
    }
  }
  if (!IndicesAreValid(model)) return DataLossError("a corrupt host summary (an index points past its table)");
  return model;
}

}  // namespace stepscope::analysis
