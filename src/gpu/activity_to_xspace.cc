#include "src/gpu/activity_to_xspace.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "src/xspace/schema.h"
#include "src/xspace/xplane_builder.h"

namespace stepscope::gpu {
namespace {

using xspace::StatType;

// The kinds of work a stream line names, in the order they appear in the name.
enum WorkKind : int { kCompute, kH2D, kD2H, kD2D, kP2P, kH2H, kMemset, kNumWorkKinds };
constexpr const char* kWorkKindNames[kNumWorkKinds] = {"Compute",   "MemcpyH2D", "MemcpyD2H", "MemcpyD2D",
                                                       "MemcpyP2P", "MemcpyH2H", "Memset"};

WorkKind WorkKindOf(const ActivityRecord& record) {
  if (record.kind == ActivityKind::kKernel) return kCompute;
  if (record.kind == ActivityKind::kMemset) return kMemset;
  switch (record.copy_kind) {
    case CopyKind::kHostToDevice: return kH2D;
    case CopyKind::kDeviceToHost: return kD2H;
    case CopyKind::kDeviceToDevice: return kD2D;
    case CopyKind::kPeerToPeer: return kP2P;
    case CopyKind::kHostToHost: return kH2H;
    case CopyKind::kUnknown: break;
  }
  return kD2D;  // CUPTI's unknown kinds are device-side copies in practice
}

bool IsDeviceWork(const ActivityRecord& record) {
  return record.kind == ActivityKind::kKernel || record.kind == ActivityKind::kMemcpy ||
         record.kind == ActivityKind::kMemset;
}

std::string KernelDetails(const ActivityRecord& r) {
  std::string details = "regs:" + std::to_string(r.registers_per_thread) +
                        " static_shared:" + std::to_string(r.static_shared_bytes) +
                        " dynamic_shared:" + std::to_string(r.dynamic_shared_bytes) +
                        " grid:" + std::to_string(r.grid[0]) + "," + std::to_string(r.grid[1]) + "," +
                        std::to_string(r.grid[2]) + " block:" + std::to_string(r.block[0]) + "," +
                        std::to_string(r.block[1]) + "," + std::to_string(r.block[2]);
  if (r.occupancy_pct > 0) {
    char occ[32];
    std::snprintf(occ, sizeof(occ), " occ_pct:%.1f", r.occupancy_pct);
    details += occ;
  }
  return details;
}

std::string MemcpyDetails(const ActivityRecord& r) {
  return "kind_src:" + r.src_kind + " kind_dst:" + r.dst_kind + " size:" + std::to_string(r.bytes) +
         " async:" + (r.async ? "1" : "0");
}

std::string MemsetDetails(const ActivityRecord& r) {
  return "num_bytes:" + std::to_string(r.bytes) + " kind:" + r.dst_kind + " async:" + (r.async ? "1" : "0");
}

// Start order; ties by end, then correlation id, so the result does not depend on the
// order CUPTI delivered the records in.
bool EarlierRecord(const ActivityRecord* a, const ActivityRecord* b) {
  if (a->start_ns != b->start_ns) return a->start_ns < b->start_ns;
  if (a->end_ns != b->end_ns) return a->end_ns < b->end_ns;
  return a->correlation_id < b->correlation_id;
}

// A host event's span and name, for finding the annotations around a launch.
struct HostSpan {
  int64_t begin_ps;
  int64_t end_ps;
  const std::string* name;
};

// True for step markers (stepscope::Step, TraceMe step roots): they delimit steps and are
// not the op a launch belongs to.
bool IsStepMarker(const xspace::XEvent& event, int64_t step_num_id, int64_t root_id) {
  for (const xspace::XStat& stat : event.stats()) {
    if (stat.metadata_id() == step_num_id || stat.metadata_id() == root_id) return true;
  }
  return false;
}

int64_t StatMetadataId(const xspace::XPlane& plane, StatType type) {
  for (const auto& [id, metadata] : plane.stat_metadata()) {
    if (metadata.name() == xspace::GetStatTypeStr(type)) return id;
  }
  return -1;
}

// The innermost host annotation open at each API call of one thread (step markers
// skipped), by correlation id. One sweep over the line's events in start order (longer
// first on ties), keeping the stack of spans open at the call.
std::map<uint32_t, std::string> AnnotationsOfCalls(const xspace::XPlane& plane, const xspace::XLine& line,
                                                   std::vector<const ApiCallRecord*> calls, uint64_t start_ns) {
  std::map<int64_t, const std::string*> names;
  for (const auto& [id, metadata] : plane.event_metadata()) names[id] = &metadata.name();
  const int64_t step_num_id = StatMetadataId(plane, StatType::kStepNum);
  const int64_t root_id = StatMetadataId(plane, StatType::kIsRoot);
  std::vector<HostSpan> spans;
  spans.reserve(line.events_size());
  const int64_t line_ps = line.timestamp_ns() * 1000;
  for (const xspace::XEvent& event : line.events()) {
    auto it = names.find(event.metadata_id());
    if (it == names.end() || IsStepMarker(event, step_num_id, root_id)) continue;
    int64_t begin = line_ps + event.offset_ps();
    spans.push_back({begin, begin + event.duration_ps(), it->second});
  }
  std::sort(spans.begin(), spans.end(), [](const HostSpan& a, const HostSpan& b) {
    return a.begin_ps != b.begin_ps ? a.begin_ps < b.begin_ps : a.end_ps > b.end_ps;
  });
  std::sort(calls.begin(), calls.end(),
            [](const ApiCallRecord* a, const ApiCallRecord* b) { return a->start_ns < b->start_ns; });
  std::map<uint32_t, std::string> result;
  std::vector<const HostSpan*> open;
  size_t next = 0;
  for (const ApiCallRecord* call : calls) {
    const int64_t at = static_cast<int64_t>(call->start_ns - start_ns) * 1000;
    while (next < spans.size() && spans[next].begin_ps <= at) {
      while (!open.empty() && open.back()->end_ps <= spans[next].begin_ps) open.pop_back();
      open.push_back(&spans[next++]);
    }
    while (!open.empty() && open.back()->end_ps <= at) open.pop_back();
    if (!open.empty()) result[call->correlation_id] = *open.back()->name;
  }
  return result;
}

class Converter {
 public:
  Converter(const ActivityCapture& capture, uint64_t start_ns, uint64_t stop_ns, xspace::XSpace* space)
      : capture_(capture), start_ns_(start_ns), stop_ns_(stop_ns), space_(space) {}

  ConversionStats Run() {
    AddNvtxRanges();
    AddApiCalls();
    AddDevicePlanes();
    AddHostActivity();
    if (stats_.dropped_records > 0) {
      space_->add_warnings("cupti: " + std::to_string(stats_.dropped_records) +
                           " GPU activity records were lost to full buffers; the device planes miss that work");
    }
    return stats_;
  }

 private:
  bool InWindow(uint64_t begin_ns, uint64_t end_ns) {
    if (end_ns < begin_ns) {
      ++stats_.malformed;
      return false;
    }
    if (begin_ns < start_ns_ || begin_ns > stop_ns_) {
      ++stats_.outside_window;
      return false;
    }
    return true;
  }

  int64_t OffsetPs(uint64_t t_ns) const { return static_cast<int64_t>(t_ns - start_ns_) * 1000; }

  // NVTX ranges onto their threads' lines of /host:CPU, before the API calls look for the
  // annotations around them: a range is an annotation like any other host scope.
  void AddNvtxRanges() {
    if (capture_.nvtx_ranges.empty()) return;
    xspace::XPlane* host = xspace::FindOrAddMutablePlaneWithName(space_, xspace::kHostThreadsPlaneName);
    xspace::XPlaneBuilder builder(host);
    std::map<int64_t, std::vector<const NvtxRange*>> by_thread;
    for (const NvtxRange& range : capture_.nvtx_ranges) {
      if (InWindow(range.start_ns, range.end_ns)) by_thread[range.thread_id].push_back(&range);
    }
    for (auto& [tid, ranges] : by_thread) {
      xspace::XLineBuilder line = builder.GetOrCreateLine(tid);
      if (line.proto()->name().empty()) line.SetName("thread " + std::to_string(tid));
      for (const NvtxRange* range : ranges) {
        xspace::XEventBuilder event = line.AddEvent(*builder.GetOrCreateEventMetadata(range->name));
        event.SetOffsetPs(OffsetPs(range->start_ns) - line.timestamp_ns() * 1000);
        event.SetDurationPs(static_cast<int64_t>(range->end_ns - range->start_ns) * 1000);
        if (!range->domain.empty()) {
          event.AddStatValue(*builder.GetOrCreateStatMetadata(kNvtxDomainStatName), std::string_view(range->domain));
        }
        ++stats_.nvtx_events;
      }
      SortLine(line.proto());
    }
  }

  // Start order, the longer first on ties, so an enclosing range precedes what it encloses.
  static void SortLine(xspace::XLine* line) {
    auto* events = line->mutable_events();
    std::stable_sort(events->begin(), events->end(), [](const xspace::XEvent& a, const xspace::XEvent& b) {
      return a.offset_ps() != b.offset_ps() ? a.offset_ps() < b.offset_ps() : a.duration_ps() > b.duration_ps();
    });
  }

  // Kernels each graph launch ran (kept by the window rule), by correlation id, with the
  // graph's id.
  std::map<uint32_t, std::pair<uint32_t, int64_t>> GraphKernelsByLaunch() const {
    std::map<uint32_t, std::pair<uint32_t, int64_t>> out;
    for (const ActivityRecord& r : capture_.activities) {
      if (r.kind != ActivityKind::kKernel || r.graph_id == 0 || r.end_ns < r.start_ns || r.start_ns < start_ns_ ||
          r.start_ns > stop_ns_) {
        continue;
      }
      auto& [graph, kernels] = out[r.correlation_id];
      graph = r.graph_id;
      ++kernels;
    }
    return out;
  }

  // API calls onto their threads' lines of /host:CPU, in time order with what is there.
  void AddApiCalls() {
    const std::map<uint32_t, std::pair<uint32_t, int64_t>> graph_kernels = GraphKernelsByLaunch();
    xspace::XPlane* host = xspace::FindOrAddMutablePlaneWithName(space_, xspace::kHostThreadsPlaneName);
    std::map<int64_t, std::vector<const ApiCallRecord*>> by_thread;
    for (const ApiCallRecord& call : capture_.api_calls) {
      if (InWindow(call.start_ns, call.end_ns)) by_thread[call.thread_id].push_back(&call);
    }
    xspace::XPlaneBuilder builder(host);
    for (auto& [tid, calls] : by_thread) {
      xspace::XLineBuilder line = builder.GetOrCreateLine(tid);
      if (line.proto()->name().empty()) line.SetName("thread " + std::to_string(tid));
      std::map<uint32_t, std::string> annotations = AnnotationsOfCalls(*host, *line.proto(), calls, start_ns_);
      for (auto& [correlation, annotation] : annotations) annotation_[correlation] = std::move(annotation);
      for (const ApiCallRecord* call : calls) {
        xspace::XEventBuilder event = line.AddEvent(*builder.GetOrCreateEventMetadata(call->name));
        event.SetOffsetPs(OffsetPs(call->start_ns) - line.timestamp_ns() * 1000);
        event.SetDurationPs(static_cast<int64_t>(call->end_ns - call->start_ns) * 1000);
        event.AddStatValue(StatType::kCorrelationId, static_cast<int64_t>(call->correlation_id));
        event.AddStatValue(StatType::kDeviceId, static_cast<int64_t>(call->device_id));
        auto graph = graph_kernels.find(call->correlation_id);
        if (graph != graph_kernels.end()) {
          event.AddStatValue(*builder.GetOrCreateStatMetadata(kCudaGraphIdStatName),
                             static_cast<int64_t>(graph->second.first));
          event.AddStatValue(*builder.GetOrCreateStatMetadata(kGraphKernelsStatName), graph->second.second);
        }
        ++stats_.api_events;
      }
      SortLine(line.proto());
    }
  }

  void AddDevicePlanes() {
    std::map<uint32_t, const DeviceInfo*> devices;
    for (const DeviceInfo& device : capture_.devices) devices[device.ordinal] = &device;
    std::map<uint32_t, std::map<uint32_t, std::vector<const ActivityRecord*>>> work;  // device -> stream
    for (const ActivityRecord& record : capture_.activities) {
      if (!IsDeviceWork(record) || !InWindow(record.start_ns, record.end_ns)) continue;
      work[record.device_id][record.stream_id].push_back(&record);
    }
    std::map<uint32_t, std::vector<const CounterSample*>> counters;
    for (const CounterSample& sample : capture_.counters) {
      if (sample.time_ns >= start_ns_ && sample.time_ns <= stop_ns_) counters[sample.device_id].push_back(&sample);
    }
    for (const auto& [ordinal, device] : devices) {
      work[ordinal];  // a plane for every device seen, busy or not
      stats_.dropped_records += device->dropped_records;
    }
    stats_.dropped_records += capture_.dropped_records_unattributed;
    for (auto& [ordinal, streams] : work) {
      auto found = devices.find(ordinal);
      AddDevicePlane(ordinal, found == devices.end() ? nullptr : found->second, streams, counters[ordinal]);
    }
  }

  void AddDevicePlane(uint32_t ordinal, const DeviceInfo* device,
                      std::map<uint32_t, std::vector<const ActivityRecord*>>& streams,
                      std::vector<const CounterSample*>& counters) {
    xspace::XPlane* plane = xspace::FindOrAddMutablePlaneWithName(space_, xspace::GpuPlaneName(static_cast<int>(ordinal)));
    xspace::XPlaneBuilder builder(plane);
    builder.SetId(1 + static_cast<int64_t>(ordinal));
    if (device != nullptr) {
      builder.AddStatValue(StatType::kDevCapClockRateKHz, device->clock_rate_khz);
      builder.AddStatValue(StatType::kDevCapCoreCount, device->core_count);
      builder.AddStatValue(StatType::kDevCapMemoryBandwidth, device->memory_bandwidth_bytes_per_s);
      builder.AddStatValue(StatType::kDevCapMemorySize, device->memory_size_bytes);
      builder.AddStatValue(StatType::kDevCapComputeCapMajor, device->compute_cap_major);
      builder.AddStatValue(StatType::kDevCapComputeCapMinor, device->compute_cap_minor);
      builder.AddStatValue(StatType::kGpuDeviceName, device->name);
      builder.AddStatValue(StatType::kDroppedTraces, static_cast<int64_t>(device->dropped_records));
    }
    builder.AddStatValue(StatType::kDevVendor, "Nvidia");
    builder.AddStatValue(StatType::kTracerName, "cupti");
    for (auto& [stream_id, records] : streams) {
      std::sort(records.begin(), records.end(), EarlierRecord);
      bool kinds[kNumWorkKinds] = {};
      for (const ActivityRecord* record : records) kinds[WorkKindOf(*record)] = true;
      std::string name = "Stream #" + std::to_string(stream_id) + "(";
      bool first = true;
      for (int k = 0; k < kNumWorkKinds; ++k) {
        if (!kinds[k]) continue;
        name += (first ? "" : ",") + std::string(kWorkKindNames[k]);
        first = false;
      }
      xspace::XLineBuilder line = builder.GetOrCreateLine(stream_id);
      line.SetName(name + ")");
      line.SetTimestampNs(0);
      line.ReserveEvents(static_cast<int>(records.size()));
      for (const ActivityRecord* record : records) AddDeviceEvent(*record, &builder, &line);
    }
    if (!counters.empty()) AddCounters(counters, &builder);
  }

  void AddDeviceEvent(const ActivityRecord& r, xspace::XPlaneBuilder* plane, xspace::XLineBuilder* line) {
    const WorkKind kind = WorkKindOf(r);
    std::string_view name = kind == kCompute ? std::string_view(r.name) : std::string_view(kWorkKindNames[kind]);
    xspace::XEventBuilder event = line->AddEvent(*plane->GetOrCreateEventMetadata(name));
    event.SetOffsetPs(OffsetPs(r.start_ns));
    event.SetDurationPs(static_cast<int64_t>(r.end_ns - r.start_ns) * 1000);
    event.AddStatValue(StatType::kCorrelationId, static_cast<int64_t>(r.correlation_id));
    event.AddStatValue(StatType::kContextId, static_cast<int64_t>(r.context_id));
    if (kind == kCompute) {
      event.AddStatValue(StatType::kKernelDetails, KernelDetails(r));
      auto annotation = annotation_.find(r.correlation_id);
      if (annotation != annotation_.end()) event.AddStatValue(StatType::kAnnotation, annotation->second);
      if (r.graph_id != 0) {
        event.AddStatValue(*plane->GetOrCreateStatMetadata(kCudaGraphIdStatName), static_cast<int64_t>(r.graph_id));
        event.AddStatValue(*plane->GetOrCreateStatMetadata(kCudaGraphNodeIdStatName),
                           static_cast<int64_t>(r.graph_node_id));
      }
    } else if (kind == kMemset) {
      event.AddStatValue(StatType::kMemsetDetails, MemsetDetails(r));
    } else {
      event.AddStatValue(StatType::kMemcpyDetails, MemcpyDetails(r));
    }
    ++stats_.device_events;
  }

  void AddCounters(std::vector<const CounterSample*>& samples, xspace::XPlaneBuilder* plane) {
    std::stable_sort(samples.begin(), samples.end(),
                     [](const CounterSample* a, const CounterSample* b) { return a->time_ns < b->time_ns; });
    xspace::XLineBuilder line = plane->GetOrCreateLine(xspace::kCounterEventsLineId);
    line.SetName(xspace::kCounterEventsLineName);
    line.SetTimestampNs(0);
    const xspace::XStatMetadata& value = *plane->GetOrCreateStatMetadata(kValueStatName);
    for (const CounterSample* sample : samples) {
      xspace::XEventBuilder event = line.AddEvent(*plane->GetOrCreateEventMetadata(sample->name));
      event.SetOffsetPs(OffsetPs(sample->time_ns));
      event.AddStatValue(value, sample->value);
    }
  }

  // Synchronisation and CUPTI overhead records: host-side time, kept apart from the
  // threads so they do not count as host work.
  void AddHostActivity() {
    std::vector<const ActivityRecord*> sync, overhead;
    for (const ActivityRecord& record : capture_.activities) {
      if (IsDeviceWork(record) || !InWindow(record.start_ns, record.end_ns)) continue;
      (record.kind == ActivityKind::kSynchronization ? sync : overhead).push_back(&record);
    }
    if (sync.empty() && overhead.empty()) return;
    xspace::XPlaneBuilder builder(xspace::FindOrAddMutablePlaneWithName(space_, kCuptiActivityPlaneName));
    builder.AddStatValue(StatType::kTracerName, "cupti");
    AddHostLine(1, "Synchronization", sync, &builder);
    AddHostLine(2, "CUPTI overhead", overhead, &builder);
  }

  void AddHostLine(int64_t id, std::string_view name, std::vector<const ActivityRecord*>& records,
                   xspace::XPlaneBuilder* plane) {
    if (records.empty()) return;
    std::sort(records.begin(), records.end(), EarlierRecord);
    xspace::XLineBuilder line = plane->GetOrCreateLine(id);
    line.SetName(name);
    line.SetTimestampNs(0);
    for (const ActivityRecord* r : records) {
      xspace::XEventBuilder event = line.AddEvent(*plane->GetOrCreateEventMetadata(r->name));
      event.SetOffsetPs(OffsetPs(r->start_ns));
      event.SetDurationPs(static_cast<int64_t>(r->end_ns - r->start_ns) * 1000);
      if (r->correlation_id != 0) event.AddStatValue(StatType::kCorrelationId, static_cast<int64_t>(r->correlation_id));
      if (r->kind == ActivityKind::kSynchronization) {
        event.AddStatValue(StatType::kContextId, static_cast<int64_t>(r->context_id));
        event.AddStatValue(StatType::kStream, static_cast<int64_t>(r->stream_id));
      }
    }
  }

  const ActivityCapture& capture_;
  const uint64_t start_ns_;
  const uint64_t stop_ns_;
  xspace::XSpace* space_;
  ConversionStats stats_;
  std::map<uint32_t, std::string> annotation_;  // correlation id -> host annotations
};

}  // namespace

ConversionStats AddCaptureToXSpace(const ActivityCapture& capture, uint64_t session_start_ns,
                                   uint64_t session_stop_ns, xspace::XSpace* space) {
  return Converter(capture, session_start_ns, session_stop_ns, space).Run();
}

}  // namespace stepscope::gpu
