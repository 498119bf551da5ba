#include "src/analysis/model/device_analysis.h"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <optional>
#include <queue>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "src/analysis/model/collective_message.h"
#include "src/analysis/model/device_counters.h"
#include "src/analysis/model/device_event_details.h"
#include "src/analysis/model/event_stats.h"
#include "src/analysis/model/op_name.h"
#include "src/analysis/model/step_marker_rules.h"
#include "src/xspace/schema.h"

#include "src/analysis/model/sat_math.h"
#include "src/base/sort_runs.h"

namespace stepscope::analysis::internal {
namespace {

using xspace::ColumnarPlane;
using xspace::StatType;

// Sources of a device op name, in order of preference; tags keep their cache keys apart.
// (The op around the host launch, tried before the event name, is cached by its index in
// HostAnalysis::launch_ops.)
enum OpSource : uint64_t { kFromTfOp = 0, kFromHloOp = 1, kFromAnnotation = 2, kFromEventName = 3 };

struct OpAgg {
  OpMetrics metrics;
};

struct KernelAgg {
  uint32_t metadata;
  uint64_t details_key;
  uint32_t op;  // index into the plane's op list
  KernelLaunchParams params;
  bool op_eligible = false;
  int64_t occurrences = 0, total_ps = 0, min_ps = INT64_MAX, max_ps = 0;
};

int64_t PlaneStatInt(const ColumnarPlane& plane, StatType type) {
  xspace::ColumnarStat stat;
  return plane.FindPlaneStat(type, &stat) ? ColumnarPlane::AsInt64(stat) : 0;
}
std::string PlaneStatString(const ColumnarPlane& plane, StatType type) {
  xspace::ColumnarStat stat;
  return plane.FindPlaneStat(type, &stat) ? std::string(plane.AsString(stat)) : std::string();
}

// "replica/dense/MatMul:MatMul#k=v#::inner" -> "replica/dense/MatMul:MatMul" (outermost level).
std::string_view OutermostAnnotation(std::string_view annotation) {
  annotation = annotation.substr(0, annotation.find("::"));
  return annotation.substr(0, annotation.find('#'));
}

// "fusion.12" -> "fusion": the op kind of an HLO instruction name.
std::string_view HloOpType(std::string_view hlo_op) {
  size_t dot = hlo_op.rfind('.');
  if (dot != std::string_view::npos && dot + 1 < hlo_op.size() &&
      std::all_of(hlo_op.begin() + dot + 1, hlo_op.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return hlo_op.substr(0, dot);
  }
  return hlo_op;
}

class DeviceAnalyzer {
 public:
  DeviceAnalyzer(const xspace::ColumnarXSpace& space, HostAnalysis* host, DeviceAnalysis* out)
      : space_(space), host_(host), out_(out), index_space_(space) {}

  void Run(const std::vector<uint32_t>& device_planes) {
    if (const ColumnarPlane* host = space_.FindPlane(xspace::kHostThreadsPlaneName)) world_size_ = PlaneWorldSize(*host);
    for (uint32_t p : device_planes) gpu_planes_ += space_.planes[p].name.starts_with(xspace::kGpuPlanePrefix) ? 1 : 0;
    for (uint32_t p : device_planes) AnalyzePlane(p);
    FinishOps();
    FinishKernels();
    FinishInputCopies();
    std::sort(out_->devices.begin(), out_->devices.end(), [](const DeviceActivity& a, const DeviceActivity& b) {
      return a.device_ordinal < b.device_ordinal;
    });
  }

 private:
  // What an event's name alone says, computed once per event metadata.
  struct NameFacts {
    bool known = false;
    bool is_copy = false;
    bool is_collective = false;   // nccl*
    bool name_says_16bit = false;  // used when the event has no shape stat
    MemcpyDirection direction = MemcpyDirection::kUnknown;
    CollectiveKind collective_kind = CollectiveKind::kOther;  // when is_collective
  };

  struct PlaneState {
    EventStats stats;
    std::vector<NameFacts> name_facts;  // by event metadata index
    // Parsed memcpy_details by value (memcpy_details_key): a run's copies repeat a few.
    FlatUint64Map memcpy_index;
    std::vector<MemcpyDetails> memcpy_details;
    std::vector<int8_t> tensor_core_kernel;  // by event metadata index: -1 not known yet
    FlatUint64Map op_cache;  // tagged source value -> global op index
    FlatUint64Map kernel_index;
    std::vector<KernelAgg> kernels;
    std::unordered_map<uint64_t, size_t> input_copy_index;  // (op, event metadata) -> input_copies_
    std::vector<int32_t> step_slot;  // dense group -> index into DeviceActivity::step_activity, -1
    std::array<CollectiveTraffic, kNumCollectiveKinds> traffic{};  // by CollectiveKind
    std::optional<CollectiveStatReader> collective_reader;
  };

  // Adds a device event of step group `group` to the device's per-step activity.
  void AddStepActivity(int32_t group, int64_t begin, int64_t end, bool is_kernel, bool is_collective,
                       DeviceActivity* device, PlaneState* state) {
    if (state->step_slot.size() <= static_cast<size_t>(group)) state->step_slot.resize(group + 1, -1);
    int32_t& slot = state->step_slot[group];
    if (slot < 0) {
      slot = static_cast<int32_t>(device->step_activity.size());
      DeviceStepActivity& added = device->step_activity.emplace_back();
      added.group_id = host_->groups.id(group);
      added.first_begin_ps = begin;
      added.last_end_ps = end;
    }
    DeviceStepActivity& a = device->step_activity[slot];
    a.first_begin_ps = std::min(a.first_begin_ps, begin);
    a.last_end_ps = std::max(a.last_end_ps, end);
    if (is_kernel && (a.first_kernel_begin_ps < 0 || begin < a.first_kernel_begin_ps)) a.first_kernel_begin_ps = begin;
    AddTo(a.active_ps, end - begin);
    if (is_collective) {
      AddTo(a.collective_ps, end - begin);
      ++a.collective_count;
    }
  }

  void MarkGroupOnDevice(int32_t group) {
    if (group < 0) return;
    if (out_->group_on_device.size() <= static_cast<size_t>(group)) out_->group_on_device.resize(group + 1);
    out_->group_on_device[group] = true;
  }

  void AnalyzePlane(uint32_t plane_index) {
    const ColumnarPlane& plane = space_.planes[plane_index];
    DeviceActivity& device = out_->devices.emplace_back();
    device.plane_name = plane.name;
    std::optional<int> ordinal = xspace::GpuOrdinalFromPlaneName(plane.name);
    device.device_ordinal = ordinal ? *ordinal : plane.id;
    DeviceCapabilities& caps = device.capabilities;
    caps.clock_rate_khz = PlaneStatInt(plane, StatType::kDevCapClockRateKHz);
    caps.core_count = PlaneStatInt(plane, StatType::kDevCapCoreCount);
    caps.memory_bandwidth_bytes_per_s = PlaneStatInt(plane, StatType::kDevCapMemoryBandwidth);
    caps.memory_size_bytes = PlaneStatInt(plane, StatType::kDevCapMemorySize);
    caps.compute_capability_major = PlaneStatInt(plane, StatType::kDevCapComputeCapMajor);
    caps.compute_capability_minor = PlaneStatInt(plane, StatType::kDevCapComputeCapMinor);
    caps.vendor = PlaneStatString(plane, StatType::kDevVendor);
    caps.device_name = PlaneStatString(plane, StatType::kGpuDeviceName);
    caps.device_type = PlaneStatString(plane, StatType::kDeviceType);

    PlaneStatReader reader(plane);
    PlaneState state;
    state.collective_reader.emplace(plane);
    std::vector<std::vector<uint32_t>> stream_orders;  // per stream line, events by begin
    bool has_step_line = false;
    for (const xspace::ColumnarLine& line : plane.lines) {
      has_step_line = has_step_line || IsDeviceStepLine(plane.name, line.name);
    }
    // Step group of each event, kept only where device step markers are derived from them.
    std::vector<int32_t> event_group;
    if (!has_step_line && plane.name.starts_with(xspace::kGpuPlanePrefix)) {
      event_group.assign(plane.num_events(), kNoGroup);
    }
    for (uint32_t l = 0; l < plane.lines.size(); ++l) {
      const xspace::ColumnarLine& line = plane.lines[l];
      if (IsDeviceStepLine(plane.name, line.name)) {
        ReadDeviceSteps(plane, line, reader);
        continue;
      }
      if (line.id == xspace::kCounterEventsLineId) {
        device.counters = SummarizeDeviceCounters(plane, line, caps.memory_size_bytes);
        continue;
      }
      if (xspace::IsDerivedLineName(line.name) || xspace::IsDeviceInfoLineName(line.name)) continue;
      StreamActivity& stream = device.streams.emplace_back();
      stream.stream_id = line.id;
      stream.name = line.name;
      std::vector<uint32_t>& order = stream_orders.emplace_back(line.num_events());
      std::iota(order.begin(), order.end(), line.event_begin);
      auto by_begin = [&](uint32_t a, uint32_t b) { return plane.event_start_ps[a] < plane.event_start_ps[b]; };
      base::SortRuns(order.begin(), order.end(), by_begin);
      if (host_->only_group_id) KeepSelectedStep(plane_index, plane, reader, &order, &state);
      int64_t busy_end = INT64_MIN;
      out_->span_run_starts.push_back(static_cast<uint32_t>(out_->spans.size()));
      for (uint32_t e : order) {
        int32_t group = AnalyzeEvent(plane_index, plane, reader, e, &device, &stream, &state);
        if (!event_group.empty()) event_group[e] = group;
        int64_t begin = plane.event_start_ps[e], end = plane.event_end_ps(e);
        if (end > busy_end) {
          AddTo(stream.busy_ps, end - std::max(begin, busy_end));
          busy_end = end;
        }
      }
    }
    std::sort(device.streams.begin(), device.streams.end(),
              [](const StreamActivity& a, const StreamActivity& b) { return a.stream_id < b.stream_id; });
    ComputeDeviceBusy(plane, stream_orders, event_group, &device);
    MergePlaneKernels(plane, &state);
    for (CollectiveTraffic& traffic : state.traffic) {
      if (traffic.count > 0) device.collective_traffic.push_back(std::move(traffic));
    }
  }

  // Counts one collective under its kind, with its size when the event or the scope
  // around its launch says (collective_message.h).
  void AddCollective(uint32_t e, const NameFacts& facts, const EventStats& stats, int64_t duration,
                     PlaneState* state) {
    std::optional<CollectiveMessage> message = state->collective_reader->Read(e);
    if (!message && stats.has_correlation_id && !host_->collective_messages.empty()) {
      int32_t index = host_->correlation_to_collective.Find(stats.correlation_id);
      if (index >= 0) message = host_->collective_messages[index];
    }
    const CollectiveKind kind =
        message && message->kind != CollectiveKind::kOther ? message->kind : facts.collective_kind;
    CollectiveTraffic& t = state->traffic[static_cast<int>(kind)];
    t.kind = kind;
    ++t.count;
    AddTo(t.time_ps, duration);
    if (!message) return;
    message->kind = kind;
    int64_t ranks = message->group_size;
    std::string_view source = "group_size";
    if (ranks <= 0) {
      ranks = world_size_ > 0 ? world_size_ : gpu_planes_;
      source = world_size_ > 0 ? "world_size" : "devices";
    }
    const int64_t size = CollectiveSizeBytes(*message, ranks);
    if (size <= 0) return;
    ++t.sized_count;
    AddTo(t.sized_time_ps, duration);
    AddTo(t.size_bytes, size);
    t.bus_bytes += static_cast<double>(size) * BusBandwidthFactor(kind, ranks);
    if (ranks > t.ranks) {
      t.ranks = ranks;
      t.ranks_source = std::string(source);
    }
  }

  void ReadDeviceSteps(const ColumnarPlane& plane, const xspace::ColumnarLine& line, const PlaneStatReader& reader) {
    EventStats stats;
    std::vector<bool> aggregated(line.num_events());
    for (const auto& [event, count] : plane.aggregated_events) {
      if (event >= line.event_begin && event < line.event_end) aggregated[event - line.event_begin] = true;
    }
    for (uint32_t e = line.event_begin; e < line.event_end; ++e) {
      if (aggregated[e - line.event_begin]) continue;  // no time position: not a step
      reader.Read(e, &stats);
      if (!stats.has_group_id) continue;
      StepMarker marker;
      marker.group = host_->groups.Dense(stats.group_id);
      marker.begin_ps = plane.event_start_ps[e];
      marker.duration_ps = plane.duration_ps(e);
      marker.on_device = true;
      marker.name = std::string(plane.event_name(e));
      marker.step_name = std::string(stats.step_name);
      std::optional<int64_t> number = DeviceStepNumber(marker.step_name.empty() ? marker.name : marker.step_name, stats);
      marker.has_step_number = number.has_value();
      marker.step_number = number.value_or(0);
      MarkGroupOnDevice(marker.group);
      out_->markers.push_back(std::move(marker));
    }
  }

  const NameFacts& NameFactsOf(const ColumnarPlane& plane, uint32_t event, PlaneState* state) {
    if (state->name_facts.empty()) state->name_facts.resize(plane.event_metadata.size());
    NameFacts& facts = state->name_facts[plane.event_metadata_index[event]];
    if (!facts.known) {
      std::string_view name = plane.event_name(event);
      facts.known = true;
      facts.direction = MemcpyDirectionFromName(name);
      facts.is_copy = facts.direction != MemcpyDirection::kUnknown || name.starts_with("Memcpy");
      // Per distinct name, not per event: kernel names run to hundreds of characters.
      facts.is_collective = IsCollectiveOpName(name);
      if (facts.is_collective) facts.collective_kind = CollectiveKindFromName(name);
      facts.name_says_16bit = Is16BitCompute(name, "");
    }
    return facts;
  }

  // The op a device event belongs to, cached per distinct source value: the tf_op stat
  // when it parses as a framework op, else hlo_op, else the outermost level of the legacy
  // annotation stat, else the framework op around the host event that launched it (same
  // correlation_id; PyTorch / Kineto record-function scopes, see host_analysis.cc), else
  // the event (kernel / copy) name.
  uint32_t OpOf(const ColumnarPlane& plane, uint32_t event, const EventStats& stats, MemcpyDirection copy,
                PlaneState* state) {
    constexpr uint32_t kNotAnOp = UINT32_MAX - 1;
    if (!stats.tf_op.empty()) {
      uint64_t key = stats.tf_op_key << 2 | kFromTfOp;
      uint32_t op = state->op_cache.Find(key);
      if (op == FlatUint64Map::kAbsent) {
        op = ParseOpName(stats.tf_op).category != OpCategory::kOther ? GlobalOp(stats.tf_op, kFromTfOp, copy)
                                                                      : kNotAnOp;
        state->op_cache.Set(key, op);
      }
      if (op != kNotAnOp) return op;
    }
    if (!stats.hlo_op.empty()) {
      uint64_t key = stats.hlo_op_key << 2 | kFromHloOp;
      uint32_t op = state->op_cache.Find(key);
      if (op == FlatUint64Map::kAbsent) {
        op = GlobalOp(stats.hlo_op, kFromHloOp, copy);
        state->op_cache.Set(key, op);
      }
      return op;
    }
    if (!stats.annotation.empty()) return GlobalOp(OutermostAnnotation(stats.annotation), kFromAnnotation, copy);
    if (stats.has_correlation_id && !host_->launch_ops.empty()) {
      int32_t launch = host_->correlation_to_op.Find(stats.correlation_id);
      if (launch != kNoGroup) {
        if (launch_op_global_.empty()) launch_op_global_.assign(host_->launch_ops.size(), FlatUint64Map::kAbsent);
        uint32_t& op = launch_op_global_[launch];
        if (op == FlatUint64Map::kAbsent) op = OpOfLaunch(host_->launch_ops[launch]);
        return op;
      }
    }
    uint64_t key = static_cast<uint64_t>(plane.event_metadata_index[event]) << 2 | kFromEventName;
    uint32_t op = state->op_cache.Find(key);
    if (op == FlatUint64Map::kAbsent) {
      op = GlobalOp(plane.event_name(event), kFromEventName, copy);
      state->op_cache.Set(key, op);
    }
    return op;
  }

  uint32_t GlobalOp(std::string_view source, OpSource from, MemcpyDirection copy) {
    ParsedOpName parsed = ParseOpName(source);
    OpCategory category = parsed.category;
    std::string_view type = parsed.type;
    if (from == kFromHloOp) {
      type = HloOpType(source);
    } else if (from == kFromEventName && category == OpCategory::kOther) {
      category = copy == MemcpyDirection::kUnknown ? OpCategory::kDeviceKernel : OpCategory::kOther;
    }
    return InternOp(parsed.name, type, category);
  }

  // A host op that launched device work: PyTorch ops ("aten::addmm") are their own type,
  // category pytorch; other scopes (user annotations) parse like host op names.
  uint32_t OpOfLaunch(const LaunchOp& launch) {
    ParsedOpName parsed = ParseOpName(launch.name);
    OpCategory category = parsed.category;
    if (category == OpCategory::kOther && launch.cpu_op_like) category = OpCategory::kPyTorch;
    return InternOp(parsed.name, parsed.type, category);
  }

  uint32_t InternOp(std::string_view name, std::string_view type, OpCategory category) {
    auto [it, inserted] = op_index_.try_emplace(std::string(name), static_cast<uint32_t>(ops_.size()));
    if (inserted) {
      OpMetrics& op = ops_.emplace_back();
      op.name = std::string(name);
      op.type = std::string(type);
      op.category = category;
      op.is_host = false;
      op.min_time_ps = INT64_MAX;
    }
    return it->second;
  }

  // Accounts one device event; returns its step group (kNoGroup when it has none).
  int32_t AnalyzeEvent(uint32_t plane_index, const ColumnarPlane& plane, const PlaneStatReader& reader, uint32_t e,
                       DeviceActivity* device, StreamActivity* stream, PlaneState* state) {
    EventStats& stats = state->stats;  // scratch reused per event: constructing one zeroes 300 bytes
    reader.Read(e, &stats);
    const NameFacts& facts = NameFactsOf(plane, e, state);
    const int64_t duration = plane.duration_ps(e);
    const CopyKind copy_kind = CopyKindOf(stats, facts, state);
    const MemcpyDirection direction = copy_kind.direction;
    const bool is_copy = copy_kind.is_copy;
    int64_t copy_bytes = 0;
    std::string_view copy_source;
    if (copy_kind.details != nullptr) {
      copy_bytes = copy_kind.details->bytes;
      copy_source = copy_kind.details->source_kind;
      AddTo(device->memcpy[static_cast<int>(direction)].bytes, copy_bytes);
    }
    if (is_copy) {
      MemcpyStats& copy = device->memcpy[static_cast<int>(direction)];
      ++copy.count;
      AddTo(copy.duration_ps, duration);
      ++stream->memcpy_count;
      AddTo(stream->memcpy_time_ps, duration);
    } else {
      ++device->kernel_count;
      AddTo(device->kernel_time_ps, duration);
      out_->hlo_kernels.Add(stats.hlo_module, stats.has_program_id ? stats.program_id : -1, stats.hlo_op,
                            plane.event_name(e), duration);
      ++stream->kernel_count;
      AddTo(stream->kernel_time_ps, duration);
    }

    uint32_t op = OpOf(plane, e, stats, is_copy ? direction : MemcpyDirection::kUnknown, state);
    if (is_copy && direction == MemcpyDirection::kHostToDevice) {
      AddInputCopy(plane, e, op, duration, copy_bytes, copy_source, state);
    }
    OpMetrics& metrics = ops_[op];
    ++metrics.occurrences;
    AddTo(metrics.total_time_ps, duration);
    metrics.min_time_ps = std::min(metrics.min_time_ps, duration);
    metrics.max_time_ps = std::max(metrics.max_time_ps, duration);
    metrics.is_eager = metrics.is_eager || stats.is_eager;

    // Zero-length kernels (whole-µs traces round short ones to 0) are launches too: kept and
    // counted, with 0 time.
    if (!is_copy && !stats.kernel_details.empty()) AddKernel(plane, e, stats, op, duration, state);

    const bool is_collective = !is_copy && facts.is_collective;
    if (is_collective) {
      AddTo(device->collective_ps, duration);
      ++device->collective_count;
      AddCollective(e, facts, stats, duration, state);
    }
    const int32_t group = StepGroupOf(stats);
    // An event tied to no step still ran in some step's window: where steps are windows of
    // time (steps from step markers), it counts there (StepSpan::kUntiedGroup).
    const bool untied_span = group == kNoGroup && host_->step_source == "step_markers" && !host_->only_group_id;
    if (group == kNoGroup && !untied_span) return kNoGroup;
    if (group != kNoGroup) {
      MarkGroupOnDevice(group);
      AddStepActivity(group, plane.event_start_ps[e], plane.event_end_ps(e), !is_copy, is_collective, device, state);
    }
    const EventType type = SpanType(plane, e, stats, facts, is_copy, direction);
    const int32_t span_group = untied_span ? StepSpan::kUntiedGroup : group;
    if (group >= StepSpan::kUntiedGroup ||
        !out_->spans.push_back(StepSpan(span_group, type, index_space_.Global(plane_index, e)))) {
      ++out_->span_failures;  // out of range or out of memory: counted, not silently lost
    }
    return group;
  }

  // The breakdown type of a device event.
  EventType SpanType(const ColumnarPlane& plane, uint32_t e, const EventStats& stats, const NameFacts& facts,
                     bool is_copy, MemcpyDirection direction) const {
    if (is_copy && direction == MemcpyDirection::kHostToDevice) return EventType::kHostToDevice;
    if (is_copy && direction == MemcpyDirection::kDeviceToHost) return EventType::kDeviceToHost;
    if (is_copy && direction == MemcpyDirection::kDeviceToDevice) return EventType::kDeviceToDevice;
    if (facts.is_collective) return EventType::kDeviceCollectives;
    bool half = stats.shape.empty() ? facts.name_says_16bit : Is16BitCompute(plane.event_name(e), stats.shape);
    // A kernel whose name says no type (torch.compile's Triton kernels) counts by its
    // launching op's inputs, as XProf counts an op by its data type.
    if (!half && stats.has_correlation_id) half = host_->launches_with_16bit_inputs.Find(stats.correlation_id) == 1;
    return half ? EventType::kDeviceCompute16 : EventType::kDeviceCompute32;
  }

  // A model of one step (HostAnalysis::only_group_id) counts that group's device events
  // alone: the others leave the stream's order before anything is counted. Where steps
  // are windows of time, the others still ran in some step's window: they stay in the
  // breakdown (a run of their own, tied to no step), so one step's breakdown is the one it
  // has in the whole profile.
  void KeepSelectedStep(uint32_t plane_index, const ColumnarPlane& plane, const PlaneStatReader& reader,
                        std::vector<uint32_t>* order, PlaneState* state) {
    const bool windows = host_->step_source == "step_markers";
    if (windows) out_->span_run_starts.push_back(static_cast<uint32_t>(out_->spans.size()));
    std::erase_if(*order, [&](uint32_t e) {
      reader.Read(e, &state->stats);
      const EventStats& stats = state->stats;
      const int32_t group = GroupOfUncounted(stats);
      if (group >= 0 && host_->Counts(group)) return false;  // the selected step's
      if (windows) {
        // Other steps' device work still sets their windows (where it ends) and the cadence.
        if (group >= 0) {
          MarkGroupOnDevice(group);
          if (out_->group_device_end.size() <= static_cast<size_t>(group)) out_->group_device_end.resize(group + 1, -1);
          out_->group_device_end[group] = std::max(out_->group_device_end[group], plane.event_end_ps(e));
        }
        const NameFacts& facts = NameFactsOf(plane, e, state);
        const CopyKind copy_kind = CopyKindOf(stats, facts, state);
        const EventType type = SpanType(plane, e, stats, facts, copy_kind.is_copy, copy_kind.direction);
        if (!out_->spans.push_back(StepSpan(StepSpan::kUntiedGroup, type, index_space_.Global(plane_index, e)))) {
          ++out_->span_failures;
        }
      }
      return true;
    });
  }

  // StepGroupOf's rules, without counting ties or adding groups: the event's dense group,
  // or kNoGroup (no launch, a launch in no step, or a group_id no host event has).
  int32_t GroupOfUncounted(const EventStats& stats) const {
    if (stats.has_group_id) return host_->groups.Find(stats.group_id);
    const int32_t launch = stats.has_correlation_id ? host_->correlation_to_group.Find(stats.correlation_id) : kNoGroup;
    return launch < 0 ? kNoGroup : launch & ~kTiedByWindowBit;
  }

  // The event's step group: its own group_id, else the group of the host event that
  // launched it (same correlation_id). Counts which rule tied it, or why none did.
  int32_t StepGroupOf(const EventStats& stats) {
    DeviceStepTies& ties = out_->ties;
    if (stats.has_group_id) {
      ++ties.by_group_id;
      return host_->groups.Dense(stats.group_id);
    }
    int32_t launch = stats.has_correlation_id ? host_->correlation_to_group.Find(stats.correlation_id) : kNoGroup;
    if (launch == kNoGroup) {
      ++ties.no_launch;
      return kNoGroup;
    }
    if (launch == kLaunchWithoutGroup) {
      ++ties.launch_outside_steps;
      return kNoGroup;
    }
    if (launch & kTiedByWindowBit) {
      ++ties.by_launch_window;
      return launch & ~kTiedByWindowBit;
    }
    ++ties.by_launch;
    return launch;
  }

  // An H2D copy, for the input-pipeline facts: by (op, copy event name, source memory)
  // over all devices.
  void AddInputCopy(const ColumnarPlane& plane, uint32_t e, uint32_t op, int64_t duration, int64_t bytes,
                    std::string_view source_kind, PlaneState* state) {
    const std::string_view copy_name = plane.event_name(e);
    // Kineto writes the kind as the name's "(Pinned -> Device)" and, imported, as kind_src.
    const uint64_t source = source_kind == "pinned" || copy_name.find("(Pinned") != std::string_view::npos     ? 1
                            : source_kind == "pageable" || copy_name.find("(Pageable") != std::string_view::npos ? 2
                                                                                                                : 0;
    const uint64_t key = static_cast<uint64_t>(op) << 32 | uint64_t{plane.event_metadata_index[e]} << 2 | source;
    auto [slot, inserted] = state->input_copy_index.try_emplace(key, 0);
    if (inserted) {
      auto [global, added] =
          input_copy_by_name_.try_emplace({op, std::string(copy_name) + '\0' + char('0' + source)}, input_copies_.size());
      if (added) {
        DeviceInputCopy& copy = input_copies_.emplace_back();
        copy.op_name = ops_[op].name;
        copy.copy_name = std::string(copy_name);
        copy.source_memory = source == 1 ? "pinned" : source == 2 ? "pageable" : "";
      }
      slot->second = global->second;
    }
    DeviceInputCopy& copy = input_copies_[slot->second];
    ++copy.occurrences;
    AddTo(copy.total_time_ps, duration);
    AddTo(copy.bytes, bytes);
  }

  void FinishInputCopies() {
    std::sort(input_copies_.begin(), input_copies_.end(), [](const DeviceInputCopy& a, const DeviceInputCopy& b) {
      if (a.total_time_ps != b.total_time_ps) return a.total_time_ps > b.total_time_ps;
      return std::tie(a.op_name, a.copy_name, a.source_memory) < std::tie(b.op_name, b.copy_name, b.source_memory);
    });
    out_->input_copies = std::move(input_copies_);
  }

  void AddKernel(const ColumnarPlane& plane, uint32_t e, const EventStats& stats, uint32_t op, int64_t duration,
                 PlaneState* state) {
    uint64_t first = (static_cast<uint64_t>(plane.event_metadata_index[e]) << 32) ^ (stats.kernel_details_key << 1);
    uint64_t key = first * 0x9e3779b97f4a7c15ull ^ op;
    uint32_t index = state->kernel_index.FindOrInsert(key, static_cast<uint32_t>(state->kernels.size()));
    if (index == state->kernels.size()) {
      KernelAgg& agg = state->kernels.emplace_back();
      agg.metadata = plane.event_metadata_index[e];
      agg.details_key = stats.kernel_details_key;
      agg.op = op;
      std::string implausible;
      agg.params = ParseKernelDetails(stats.kernel_details, &implausible);
      if (!implausible.empty()) {
        if (out_->implausible_kernel_details++ == 0) out_->implausible_kernel_details_example = std::move(implausible);
      }
    }
    KernelAgg& agg = state->kernels[index];
    agg.op_eligible = agg.op_eligible || IsEinsumTensorCoreEligible(stats.equation);
    ++agg.occurrences;
    AddTo(agg.total_ps, duration);
    agg.min_ps = std::min(agg.min_ps, duration);
    agg.max_ps = std::max(agg.max_ps, duration);
  }

  // Whether a device event is a copy and in which direction: by its name, else by its
  // memcpy_details stat (`details`, null when the event has none or is a kernel with one).
  struct CopyKind {
    bool is_copy = false;
    MemcpyDirection direction = MemcpyDirection::kUnknown;
    const MemcpyDetails* details = nullptr;
  };
  static CopyKind CopyKindOf(const EventStats& stats, const NameFacts& facts, PlaneState* state) {
    CopyKind kind{facts.is_copy, facts.direction, nullptr};
    if (!stats.memcpy_details.empty() && (kind.is_copy || stats.kernel_details.empty())) {
      kind.details = &MemcpyDetailsOf(stats, state);
      if (kind.direction == MemcpyDirection::kUnknown) kind.direction = kind.details->direction;
      kind.is_copy = true;
    }
    return kind;
  }

  static const MemcpyDetails& MemcpyDetailsOf(const EventStats& stats, PlaneState* state) {
    const uint32_t next = static_cast<uint32_t>(state->memcpy_details.size());
    const uint32_t index = *state->memcpy_index.Slot(stats.memcpy_details_key, next);
    if (index == next) state->memcpy_details.push_back(ParseMemcpyDetails(stats.memcpy_details));
    return state->memcpy_details[index];
  }

  // IsKernelUsingTensorCore of a plane's kernel name, once per name (a name comes back
  // with every op and launch shape it runs under; it scans dozens of patterns).
  static bool UsesTensorCore(const ColumnarPlane& plane, uint32_t metadata, PlaneState* state) {
    if (state->tensor_core_kernel.empty()) state->tensor_core_kernel.assign(plane.event_metadata.size(), -1);
    int8_t& known = state->tensor_core_kernel[metadata];
    if (known < 0) known = IsKernelUsingTensorCore(plane.event_metadata[metadata].name) ? 1 : 0;
    return known == 1;
  }

  void MergePlaneKernels(const ColumnarPlane& plane, PlaneState* state) {
    for (const KernelAgg& agg : state->kernels) {
      const OpMetrics& op = ops_[agg.op];
      std::string op_name = op.category == OpCategory::kDeviceKernel ? std::string() : op.name;
      const std::string& kernel_name = plane.event_metadata[agg.metadata].name;
      const KernelLaunchParams& p = agg.params;
      auto key = std::make_tuple(kernel_name, op_name, p.registers_per_thread, p.static_shared_memory_bytes,
                                 p.dynamic_shared_memory_bytes, p.grid, p.block);
      auto [it, inserted] = kernel_by_key_.try_emplace(key, out_->kernels.size());
      if (inserted) {
        KernelStats& k = out_->kernels.emplace_back();
        k.kernel_name = kernel_name;
        k.op_name = op_name;
        k.params = p;
        k.is_kernel_using_tensor_core = UsesTensorCore(plane, agg.metadata, state);
        k.min_duration_ps = INT64_MAX;
      }
      KernelStats& k = out_->kernels[it->second];
      k.is_op_tensor_core_eligible = k.is_op_tensor_core_eligible || agg.op_eligible ||
                                     IsOpTensorCoreEligible(op_name) || k.is_kernel_using_tensor_core;
      k.occurrences += agg.occurrences;
      AddTo(k.total_duration_ps, agg.total_ps);
      k.min_duration_ps = std::min(k.min_duration_ps, agg.min_ps);
      k.max_duration_ps = std::max(k.max_duration_ps, agg.max_ps);
    }
  }

  // Union of activity over all streams: a heap merge of the per-stream begin orders.
  // With `event_group` (GPU planes without a `Steps` line), the same pass derives the
  // device step markers as XProf's DeriveStepEventsFromGroups does: over the plane's
  // events in time order, consecutive events of one group make one marker from the first
  // begin to the last end; events without a group are passed over.
  void ComputeDeviceBusy(const ColumnarPlane& plane, const std::vector<std::vector<uint32_t>>& orders,
                         const std::vector<int32_t>& event_group, DeviceActivity* device) {
    StepMarker step;
    auto emit_step = [&] {
      if (step.group == kNoGroup) return;
      step.on_device = true;
      step.name = "step";  // a group without a host marker becomes step "step <number>"
      out_->markers.push_back(std::move(step));
      step = StepMarker();
    };
    using Cursor = std::pair<int64_t, std::pair<uint32_t, uint32_t>>;  // (begin, (stream, position))
    std::priority_queue<Cursor, std::vector<Cursor>, std::greater<>> heap;
    for (uint32_t s = 0; s < orders.size(); ++s) {
      if (!orders[s].empty()) heap.push({plane.event_start_ps[orders[s][0]], {s, 0}});
    }
    bool any = false;
    int64_t busy_end = INT64_MIN;
    while (!heap.empty()) {
      auto [begin, where] = heap.top();
      heap.pop();
      auto [s, i] = where;
      int64_t end = plane.event_end_ps(orders[s][i]);
      if (!any) device->first_begin_ps = begin;
      any = true;
      device->last_end_ps = std::max(device->last_end_ps, end);
      if (end > busy_end) {
        AddTo(device->busy_ps, end - std::max(begin, busy_end));
        busy_end = end;
      }
      if (!event_group.empty()) {
        const int32_t group = event_group[orders[s][i]];
        if (group != kNoGroup && group != step.group) {
          emit_step();
          step.group = group;
          step.begin_ps = begin;
        }
        if (group != kNoGroup) step.duration_ps = std::max(step.duration_ps, end - step.begin_ps);
      }
      if (i + 1 < orders[s].size()) heap.push({plane.event_start_ps[orders[s][i + 1]], {s, i + 1}});
    }
    emit_step();
  }

  void FinishOps() {
    OpMetricsDb& db = out_->ops;
    for (OpMetrics& op : ops_) {
      if (op.occurrences == 0) continue;
      op.self_time_ps = op.total_time_ps;
      AddTo(db.total_self_time_ps, op.self_time_ps);
      db.ops.push_back(std::move(op));
    }
    for (const DeviceActivity& device : out_->devices) {
      if (!device.has_activity()) continue;
      AddTo(db.total_time_ps, device.last_end_ps - device.first_begin_ps);
      AddTo(db.idle_time_ps, device.idle_ps());
    }
    std::sort(db.ops.begin(), db.ops.end(), [](const OpMetrics& a, const OpMetrics& b) {
      return a.self_time_ps != b.self_time_ps ? a.self_time_ps > b.self_time_ps : a.name < b.name;
    });
  }

  void FinishKernels() {
    std::sort(out_->kernels.begin(), out_->kernels.end(), [](const KernelStats& a, const KernelStats& b) {
      if (a.total_duration_ps != b.total_duration_ps) return a.total_duration_ps > b.total_duration_ps;
      return std::tie(a.kernel_name, a.op_name) < std::tie(b.kernel_name, b.op_name);
    });
  }

  int64_t world_size_ = 0;  // the host plane's world_size stat (Kineto distributedInfo)
  int64_t gpu_planes_ = 0;  // GPU planes of this host: the rank count when nothing else says
  const xspace::ColumnarXSpace& space_;
  HostAnalysis* host_;
  DeviceAnalysis* out_;
  EventIndexSpace index_space_;
  std::vector<OpMetrics> ops_;
  std::unordered_map<std::string, uint32_t> op_index_;
  std::vector<DeviceInputCopy> input_copies_;
  std::map<std::pair<uint32_t, std::string>, size_t> input_copy_by_name_;
  std::vector<uint32_t> launch_op_global_;  // by HostAnalysis::launch_ops index: global op, kAbsent until used
  std::map<std::tuple<std::string, std::string, std::optional<int64_t>, std::optional<int64_t>, int64_t, std::array<int64_t, 3>,
                      std::array<int64_t, 3>>,
           size_t>
      kernel_by_key_;
};

}  // namespace

void AnalyzeDevices(const xspace::ColumnarXSpace& space, const std::vector<uint32_t>& device_planes,
                    HostAnalysis* host, DeviceAnalysis* out) {
  DeviceAnalyzer(space, host, out).Run(device_planes);
}

}  // namespace stepscope::analysis::internal
