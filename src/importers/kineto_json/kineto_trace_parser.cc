#include "src/importers/kineto_json/kineto_trace_parser.h"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <climits>
#include <cstdlib>
#include <set>
#include <type_traits>

#include "src/base/ascii.h"
#include "src/importers/json/json_text.h"
#include "src/importers/kineto_json/kineto_args.h"
#include "src/xspace/schema.h"

namespace stepscope::importers {
namespace {

using xspace::GetStatTypeStr;
using xspace::StatType;

// XFlow category of CPU launch -> GPU kernel flows (TSL ContextType::kGpuLaunch).
constexpr uint8_t kGpuLaunchFlowCategory = 9;
// gpu_user_annotation events (record_function ranges projected on GPU time) go to the
// device plane's derived "Framework Name Scope" line, where XLA puts the framework's name
// scopes on device time: shown by viewers, skipped by analyses that count device ops.
// TensorFlow's derived line id for it: kThreadIdDerivedMin + 2 (reference/xspace.md §2).
constexpr int64_t kNameScopeLineId = xspace::kThreadIdDerivedMin + 2;

// Devices beyond this ordinal are taken as garbage (no host has 4096 accelerators).
constexpr int64_t kMaxDeviceOrdinal = 4095;

// Lines of a device plane that are not its work (xspace::IsDeviceInfoLineName): the
// synchronization records of stream N on line kSyncLineIdBase + N, as Kineto puts a
// stream's Stream Sync records on a row of their own (its tid: stream + 1000000); the
// profiler ranges below the derived lines' ids, on a track of tid kProfilerRangesTid.
constexpr int64_t kSyncLineIdBase = int64_t{1} << 40;
constexpr int64_t kProfilerRangesLineId = xspace::kThreadIdDerivedMin - 1;
constexpr int64_t kProfilerRangesTid = INT64_MIN;
// Kineto's pid for records that belong to no device or process (profiler overhead, XPU
// synchronization records).
constexpr int64_t kNoDevicePid = -1;

constexpr std::string_view kStepPrefix = "ProfilerStep#";
constexpr std::string_view kStepEventName = "ProfilerStep";
constexpr std::string_view kStreamPrefix = "stream ";

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

void AppendInt(int64_t value, std::string* out) {
  char text[24];
  auto [ptr, ec] = std::to_chars(text, text + sizeof(text), value);
  out->append(text, ptr);
}

// "[1, 2, 3]" -> {1, 2, 3}; missing dimensions default to 1 (XProf's rule).
std::array<int64_t, 3> ParseDims(std::string_view json_array) {
  std::array<int64_t, 3> dims = {1, 1, 1};
  int found = 0;
  size_t i = 0;
  while (i < json_array.size() && found < 3) {
    char c = json_array[i];
    if (c == '-' || (c >= '0' && c <= '9')) {
      auto [ptr, ec] = std::from_chars(json_array.data() + i, json_array.data() + json_array.size(), dims[found]);
      if (ec != std::errc()) break;
      ++found;
      i = static_cast<size_t>(ptr - json_array.data());
    } else {
      ++i;
    }
  }
  return dims;
}

// {1, 2, 3} -> "1,2,3".
void AppendDims(const std::array<int64_t, 3>& dims, std::string* out) {
  AppendInt(dims[0], out);
  out->push_back(',');
  AppendInt(dims[1], out);
  out->push_back(',');
  AppendInt(dims[2], out);
}

// Threads in a block of these dimensions; nullopt when one is below 1 or the product
// overflows (hostile input).
std::optional<int64_t> BlockThreads(const std::array<int64_t, 3>& dims) {
  int64_t threads = 1;
  for (int64_t dim : dims) {
    if (dim < 1 || __builtin_mul_overflow(threads, dim, &threads)) return std::nullopt;
  }
  return threads;
}

std::string ShortDouble(double value) {
  char text[32];
  auto [ptr, ec] = std::to_chars(text, text + sizeof(text), value);
  return ec == std::errc() ? std::string(text, ptr) : std::to_string(value);
}

// "Memcpy HtoD (Pageable -> Device)" -> {"pageable", "device"}.
std::pair<std::string, std::string> MemoryKinds(std::string_view name) {
  size_t open = name.find('(');
  size_t arrow = name.find("->", open == std::string_view::npos ? 0 : open);
  size_t close = name.find(')', arrow == std::string_view::npos ? 0 : arrow);
  if (open == std::string_view::npos || arrow == std::string_view::npos || close == std::string_view::npos) {
    return {};
  }
  auto trim_lower = [](std::string_view text) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    return base::AsciiLowerCopy(text);
  };
  return {trim_lower(name.substr(open + 1, arrow - open - 1)), trim_lower(name.substr(arrow + 2, close - arrow - 2))};
}

// The name inside Kineto's "thread 1262 (pt_autograd_0)".
std::string ThreadDisplayName(std::string_view name) {
  if (name.rfind("thread ", 0) == 0) {
    size_t open = name.find('(');
    if (open != std::string_view::npos && name.back() == ')') return std::string(name.substr(open + 1, name.size() - open - 2));
  }
  return std::string(name);
}

// The stream a device tid names: "stream 7" and "stream 7 user" (Kineto 1.8-1.9) -> 7,
// else the number ending the text.
std::optional<int64_t> StreamOfTidText(std::string_view text) {
  if (text.rfind(kStreamPrefix, 0) == 0) {
    std::string_view rest = text.substr(kStreamPrefix.size());
    rest = rest.substr(0, rest.find(' '));
    if (std::optional<int64_t> stream = ParseJsonInteger(rest)) return stream;
  }
  return TrailingInteger(text);
}

// Flows that join a launch (runtime call) to the device work it started, with the
// correlation id as their id: "ac2g" (PyTorch 1.12+), "async_cpu_to_gpu" (1.10-1.11),
// "async" named "launch" (1.8-1.9).
bool IsLaunchFlow(const RawTraceEvent& event) {
  std::string_view cat = event.cat.text();
  return cat == "ac2g" || cat == "async_cpu_to_gpu" || (cat == "async" && event.name.text() == "launch");
}

// The legacy autograd export's launch flows: "cpu_to_cuda" (any device: "cpu_to_<device>"),
// numbered per export, not by correlation id.
bool IsLegacyLaunchFlow(const RawTraceEvent& event) { return event.cat.text().rfind("cpu_to_", 0) == 0; }

std::optional<int64_t> DomInt(simdjson::dom::element element) {
  int64_t value;
  if (element.get_int64().get(value) == simdjson::SUCCESS) return value;
  uint64_t unsigned_value;
  if (element.get_uint64().get(unsigned_value) == simdjson::SUCCESS) return static_cast<int64_t>(unsigned_value);
  double double_value;
  if (element.get_double().get(double_value) == simdjson::SUCCESS && double_value > -9.2e18 && double_value < 9.2e18) {
    return static_cast<int64_t>(double_value);
  }
  return std::nullopt;
}

// The integer at `key` of an object, or nullopt (missing key, not an object, not a number).
std::optional<int64_t> DomField(simdjson::dom::element object, const char* key) {
  simdjson::dom::element value;
  if (object[key].get(value) != simdjson::SUCCESS) return std::nullopt;
  return DomInt(value);
}

// The device limits of a deviceProperties entry that theoretical occupancy needs (PyTorch
// writes them since 1.10), with its compute capability as read from it; nullopt when one
// is missing or out of range.
std::optional<xspace::OccupancyDevice> OccupancyLimits(simdjson::dom::element item, std::optional<int64_t> major,
                                                       std::optional<int64_t> minor) {
  constexpr int64_t kMaxLimit = int64_t{1} << 40;  // far above any GPU's; keeps the arithmetic in range
  if (!major || *major <= 0 || *major > 100 || !minor || *minor < 0 || *minor > 9) return std::nullopt;
  xspace::OccupancyDevice device;
  device.compute_major = static_cast<int>(*major);
  device.compute_minor = static_cast<int>(*minor);
  auto read = [&](const char* key, auto* out) {
    std::optional<int64_t> value = DomField(item, key);
    if (!value || *value <= 0 || *value > kMaxLimit) return false;
    *out = static_cast<std::remove_pointer_t<decltype(out)>>(*value);
    return true;
  };
  if (!read("warpSize", &device.warp_size) || !read("maxThreadsPerMultiprocessor", &device.max_threads_per_sm) ||
      !read("regsPerMultiprocessor", &device.registers_per_sm) ||
      !read("sharedMemPerMultiprocessor", &device.shared_per_sm)) {
    return std::nullopt;
  }
  if (device.warp_size > 1024 || device.max_threads_per_sm > (1 << 20)) return std::nullopt;
  // Optional: a missing one is not checked.
  read("maxThreadsPerBlock", &device.max_threads_per_block);
  read("regsPerBlock", &device.registers_per_block);
  read("sharedMemPerBlock", &device.shared_per_block);
  read("sharedMemPerBlockOptin", &device.shared_per_block_optin);
  return device;
}

}  // namespace

void KinetoTraceParser::HandleTopLevelField(std::string_view key, std::string_view raw_json) {
  simdjson::dom::parser parser;
  simdjson::padded_string padded(raw_json);
  simdjson::dom::element root;
  if (parser.parse(padded).get(root) != simdjson::SUCCESS) return;
  if (key == "deviceProperties") {
    simdjson::dom::array array;
    if (root.get_array().get(array) != simdjson::SUCCESS) return;
    for (simdjson::dom::element item : array) {
      std::optional<int64_t> id = DomField(item, "id");
      // Device ordinals are small; anything else is not a device (and would make a plane name).
      if (!id || *id < 0 || *id > kMaxDeviceOrdinal) continue;
      Device& device = devices_[*id];
      std::string_view name;
      if (item["name"].get_string().get(name) == simdjson::SUCCESS) device.name = std::string(name);
      std::string_view vendor;
      if (item["vendor"].get_string().get(vendor) == simdjson::SUCCESS) device.vendor = std::string(vendor);
      // Kineto's XPU plugin writes SYCL's device info (maxComputeUnits, maxWorkGroupSize, ...).
      device.sycl = DomField(item, "maxComputeUnits").has_value();
      device.sm_count = DomField(item, "numSms");
      device.memory_bytes = DomField(item, "totalGlobalMem");
      device.compute_major = DomField(item, "computeMajor");
      device.compute_minor = DomField(item, "computeMinor");
      device.occupancy = OccupancyLimits(item, device.compute_major, device.compute_minor);
    }
  } else if (key == "distributedInfo") {
    rank_ = DomField(root, "rank");
    world_size_ = DomField(root, "world_size");
    std::string_view backend;
    if (root["backend"].get_string().get(backend) == simdjson::SUCCESS) backend_ = std::string(backend);
  } else if (key == "baseTimeNanoseconds") {
    base_time_ns_ = DomInt(root);
  } else if (key == "host_name") {
    std::string_view host;
    if (root.get_string().get(host) == simdjson::SUCCESS) trace_host_name_ = std::string(host);
  } else if (key == "cuda_runtime_version" || key == "cuda_driver_version" || key == "cupti_version" ||
             key == "xpupti_version" || key == "schemaVersion" || key == "trace_id") {
    std::string_view text;
    if (root.get_string().get(text) == simdjson::SUCCESS) {
      environment_[std::string(key)] = std::string(text);
    } else if (std::optional<int64_t> value = DomInt(root)) {
      environment_[std::string(key)] = std::to_string(*value);
    }
  }
}

KinetoTraceParser::Category KinetoTraceParser::Classify(const RawTraceEvent& event) {
  event_evidence_ = kEvidenceDeviceOp;
  if (event.pid.kind == JsonKind::kString && event.pid.text() == "CUDA functions") {
    return Category::kKernel;  // the legacy autograd export
  }
  std::string_view cat = event.cat.text();
  // Kineto 1.10-1.12 wrote instants (the [memory] events) without a "cat".
  if (cat.empty() && event.name.text() == "[memory]") return Category::kInstant;
  // Kineto 1.8-1.9 wrote GPU user annotations as "User" on the tid "stream 7 user".
  if (cat == "User" && event.tid.kind == JsonKind::kString && event.tid.text().rfind(kStreamPrefix, 0) == 0) {
    return Category::kGpuAnnotation;
  }
  // Kineto's ActivityType names as it writes them (libkineto/src/ActivityType.cpp) first,
  // by length: one switch and a compare or two per event. Then other spellings.
  switch (cat.size()) {
    case 6:
      if (cat == "cpu_op") return Category::kHostOp;
      if (cat == "kernel") return Category::kKernel;
      if (cat == "hpu_op") {
        trace_evidence_ |= kEvidenceHpu;
        return Category::kHpuOp;
      }
      break;
    case 8:
      if (cat == "overhead") return Category::kOverhead;
      break;
    case 9:
      // xpu_sync: XPU synchronization calls, written on pid -1 with the calling thread's
      // tid: host records (the default below).
      if (cat == "cuda_sync") return Category::kDeviceSync;
      break;
    case 10:
      if (cat == "gpu_memcpy") return Category::kMemcpy;
      if (cat == "gpu_memset") return Category::kMemset;
      if (cat == "cuda_event") return Category::kDeviceSync;
      if (cat == "xpu_driver") return RuntimeCall(kEvidenceXpu);
      break;
    case 11:
      if (cat == "cuda_driver") return RuntimeCall(kEvidenceCuda);
      if (cat == "xpu_runtime") return RuntimeCall(kEvidenceXpu);
      break;
    case 12:
      if (cat == "cuda_runtime") return RuntimeCall(kEvidenceCuda);
      if (cat == "mtia_runtime") return RuntimeCall(kEvidenceMtia);
      break;
    case 15:
      if (cat == "python_function") return Category::kHostOp;
      if (cat == "user_annotation") return Category::kUserAnnotation;
      if (cat == "mtia_ccp_events") {
        event_evidence_ = kEvidenceMtia;
        return Category::kKernel;
      }
      // Host-side records of a collective call (XPU's oneCCL), with their args.
      if (cat == "collective_comm") return Category::kHostOp;
      break;
    case 17:
      if (cat == "cpu_instant_event") return Category::kInstant;
      break;
    case 18:
      if (cat == "privateuse1_driver") return RuntimeCall(kEvidencePrivateUse1);
      break;
    case 19:
      if (cat == "gpu_user_annotation") return Category::kGpuAnnotation;
      if (cat == "privateuse1_runtime") return RuntimeCall(kEvidencePrivateUse1);
      if (cat == "cuda_profiler_range") return Category::kProfilerRange;
      break;
    default:
      break;
  }
  if (base::AsciiEqualsIgnoreCase(cat, "kernel")) return Category::kKernel;
  if (base::AsciiEqualsIgnoreCase(cat, "gpu_memcpy") || base::AsciiEqualsIgnoreCase(cat, "memcpy")) return Category::kMemcpy;
  if (base::AsciiEqualsIgnoreCase(cat, "gpu_memset") || base::AsciiEqualsIgnoreCase(cat, "memset")) return Category::kMemset;
  if (base::AsciiEqualsIgnoreCase(cat, "gpu_user_annotation")) return Category::kGpuAnnotation;
  if (base::AsciiEqualsIgnoreCase(cat, "user_annotation")) return Category::kUserAnnotation;
  if (base::AsciiEqualsIgnoreCase(cat, "cuda_runtime") || base::AsciiEqualsIgnoreCase(cat, "runtime") ||
      base::AsciiEqualsIgnoreCase(cat, "cuda_driver")) {
    return RuntimeCall(kEvidenceCuda);
  }
  // Any other backend's runtime or driver (glow_runtime, a plugin's "<backend>_runtime").
  if (EndsWith(cat, "_runtime") || EndsWith(cat, "_driver")) return Category::kRuntime;
  if (base::AsciiEqualsIgnoreCase(cat, "cpu_instant_event")) return Category::kInstant;
  if (base::AsciiEqualsIgnoreCase(cat, "trace")) return Category::kTrace;
  return Category::kHostOp;
}

KinetoTraceParser::Category KinetoTraceParser::ResolveHpuOp(int64_t pid) const {
  if (args_.Get(KinetoArg::kDevice) != nullptr) return Category::kKernel;
  if (pid < 0 || pid > kMaxDeviceOrdinal) return Category::kRuntime;
  // A small pid is a device unless the process's own events came with it (Kineto writes
  // the host's events before the plugins' device events).
  if (last_host_count_ != nullptr && pid == last_host_pid_) return Category::kRuntime;
  return host_event_count_by_pid_.count(pid) != 0 ? Category::kRuntime : Category::kKernel;
}

bool KinetoTraceParser::IsTraceEvent(const RawTraceEvent& event) {
  category_ = Classify(event);
  if (category_ == Category::kTrace) return false;  // the capture window, not an op
  // Kineto's global markers ("Iteration Start: PyTorch Profiler", "Record Window End")
  // sit on made-up pids ("Traces", "").
  if (event.pid.kind == JsonKind::kString &&
      (event.pid.text() == "Traces" || event.pid.text().empty() || event.pid.text() == "Spans")) {
    return false;
  }
  if (!event.pid.present() && event.scope.text() == "g") return false;
  args_.Index(event);
  return true;
}

TrackKey KinetoTraceParser::TrackOf(const RawTraceEvent& event) {
  int64_t pid = current_pid();
  int64_t tid = current_tid();
  if (category_ == Category::kHpuOp) {
    category_ = ResolveHpuOp(pid);
    event_evidence_ = kEvidenceHpu;
  }
  bool device = category_ == Category::kKernel || category_ == Category::kMemcpy ||
                category_ == Category::kMemset || category_ == Category::kGpuAnnotation ||
                category_ == Category::kDeviceSync || category_ == Category::kProfilerRange;
  if (!device) {
    if (pid == kNoDevicePid) no_device_lines_[tid] |= category_ == Category::kOverhead ? 1 : 2;
    CountHostEvent(pid);
    return ChromeTraceParser::TrackOf(event);
  }
  std::optional<int64_t> ordinal = args_.Int(KinetoArg::kDevice);
  if (event.pid.kind == JsonKind::kString) {  // legacy "CUDA functions": tid is the device
    ordinal = tid;
    tid = 0;
  }
  if (!ordinal) ordinal = pid;
  if (*ordinal < 0 || *ordinal > kMaxDeviceOrdinal) {
    stats_->Fix("device event with an impossible device ordinal placed with the host threads");
    device_ordinal_ = -1;  // no device: a host event, whatever its category
    CountHostEvent(pid);
    return ChromeTraceParser::TrackOf(event);
  }
  if (static_cast<size_t>(*ordinal) >= device_evidence_.size()) device_evidence_.resize(*ordinal + 1);
  device_evidence_[*ordinal] |= event_evidence_;
  device_ordinal_ = *ordinal;
  if (category_ == Category::kProfilerRange) return {TrackKind::kDeviceInfo, *ordinal, kProfilerRangesTid};
  std::optional<int64_t> stream = args_.Int(KinetoArg::kStream);
  if (!stream) {
    if (event.tid.kind == JsonKind::kString) stream = StreamOfTidText(event.tid.text());  // "stream 7"
  }
  if (!stream) stream = tid;
  if (category_ == Category::kGpuAnnotation) return {TrackKind::kDeviceAnnotation, *ordinal, *stream};
  if (category_ == Category::kDeviceSync) {
    TrackKey track{TrackKind::kDeviceInfo, *ordinal, *stream};
    // Kineto writes a Stream Sync, and its flow point, on a row of its own (tid: stream +
    // 1000000): that row is this line. Other sync records share their stream's row, whose
    // flow points belong to the stream's work.
    if (current_tid() != *stream) {
      device_tracks_by_raw_.try_emplace(TrackKey{TrackKind::kThread, pid, current_tid()}, track);
    }
    return track;
  }
  TrackKey track{TrackKind::kDeviceStream, *ordinal, *stream};
  TrackKey raw{TrackKind::kThread, pid, current_tid()};
  TrackKey by_stream{TrackKind::kThread, pid, *stream};
  // A stream's events come in long runs: the maps are updated when the spelling changes.
  if (!(raw == last_device_raw_ && by_stream == last_device_by_stream_)) {
    device_tracks_by_raw_.try_emplace(raw, track);
    device_tracks_by_stream_.try_emplace(by_stream, track);
    last_device_raw_ = raw;
    last_device_by_stream_ = by_stream;
  }
  return track;
}

void KinetoTraceParser::CountHostEvent(int64_t pid) {
  if (last_host_count_ == nullptr || pid != last_host_pid_) {
    last_host_pid_ = pid;
    last_host_count_ = &host_event_count_by_pid_[pid];  // element references are stable
  }
  ++*last_host_count_;
}

void KinetoTraceParser::PrepareSlice(const RawTraceEvent& event, Slice* slice) {
  std::string_view name = slice->name;
  switch (category_) {
    case Category::kUserAnnotation:
    case Category::kHostOp:
      if (name.rfind(kStepPrefix, 0) == 0) {
        std::optional<int64_t> step = ParseJsonInteger(name.substr(kStepPrefix.size()));
        if (step) {
          step_number_ = *step;
          slice->display_storage = std::string(name);
          slice->name = kStepEventName;
          slice->display_name = slice->display_storage;
          slice->flags |= kEventStepMarker;
        }
      }
      break;
    case Category::kMemcpy:
      if (name.rfind("Memcpy ", 0) == 0) {
        size_t end = name.find(' ', 7);
        slice->display_storage = std::string(name);
        slice->name_storage = "Memcpy" + std::string(name.substr(7, end == std::string_view::npos ? end : end - 7));
        slice->name = slice->name_storage;
        slice->display_name = slice->display_storage;
      }
      break;
    case Category::kMemset:
      if (name.rfind("Memset", 0) == 0 && name != "Memset") {
        slice->display_storage = std::string(name);
        slice->name = "Memset";
        slice->display_name = slice->display_storage;
      }
      break;
    case Category::kInstant:
      if (name == "[memory]") {
        std::optional<int64_t> bytes = args_.Int(KinetoArg::kMemoryBytes);
        slice->name = bytes && *bytes < 0 ? xspace::kMemoryDeallocationEventName : xspace::kMemoryAllocationEventName;
      }
      break;
    default:
      break;
  }
}

void KinetoTraceParser::AddOtherArgs(const RawTraceEvent& event, EventRef ref, uint32_t skip) {
  for (size_t i = 0; i < event.args.size(); ++i) {
    KinetoArg kind = args_.KindOf(i);
    if (kind != KinetoArg::kCount && (skip & ArgBit(kind)) != 0) continue;
    if (std::optional<PendingStat> stat = ArgAsStat(event.args[i])) {
      assembler_->AddStat(ref, stat->key_id, stat->kind, stat->bits);
    }
  }
}

void KinetoTraceParser::AddCorrelation(EventRef ref) {
  std::optional<int64_t> correlation = args_.Int(KinetoArg::kCorrelation);
  if (!correlation) correlation = args_.Int(KinetoArg::kExternalId);
  if (!correlation) correlation = args_.Int(KinetoArg::kExternalIdLower);
  if (correlation) assembler_->AddUint(ref, correlation_key_, static_cast<uint64_t>(*correlation));
}

void KinetoTraceParser::AddKernelStats(const RawTraceEvent& event, EventRef ref) {
  AddCorrelation(ref);
  const JsonArg* grid = args_.Get(KinetoArg::kGrid);
  const JsonArg* block = args_.Get(KinetoArg::kBlock);
  uint32_t kept_args = 0;  // args the details below use that stay as stats of their own too
  if (grid != nullptr || block != nullptr) {
    // Theoretical occupancy, as XProf's kernel stats show it: computed from the launch and
    // the device's limits where the trace has both, else the trace's theoretical figure,
    // else Kineto's "est. achieved occupancy %" (0 for kernels above 48 KiB of shared
    // memory, and grid-bound: not the same figure). A computed one keeps Kineto's
    // estimate beside it as a stat.
    const std::optional<int64_t> registers = args_.Int(KinetoArg::kRegisters);
    const std::optional<int64_t> shared = args_.Int(KinetoArg::kSharedMemory);
    const std::array<int64_t, 3> block_dims = ParseDims(block ? block->value.text() : "");
    std::optional<double> computed;
    if (block != nullptr) computed = TheoreticalOccupancy(BlockThreads(block_dims), registers, shared);
    const JsonArg* occupancy = args_.Get(KinetoArg::kTheoreticalOccupancy);
    if (occupancy == nullptr) occupancy = args_.Get(KinetoArg::kAchievedOccupancy);
    if (computed) kept_args = ArgBit(KinetoArg::kAchievedOccupancy);
    std::string& details = details_scratch_;
    details.assign("regs:");
    AppendInt(registers.value_or(0), &details);
    details.append(" static_shared:");
    AppendInt(shared.value_or(0), &details);
    details.append(" dynamic_shared:0 grid:");
    AppendDims(ParseDims(grid ? grid->value.text() : ""), &details);
    details.append(" block:");
    AppendDims(block_dims, &details);
    if (computed) {
      details += " occ_pct:" + ShortDouble(*computed);
    } else if (occupancy != nullptr) {
      JsonNumber value = ParseJsonNumber(occupancy->value.text());
      double pct = value.kind == JsonNumberKind::kDouble ? value.double_value : static_cast<double>(value.int_value);
      if (value.kind != JsonNumberKind::kNotANumber) details += " occ_pct:" + ShortDouble(pct);
    }
    assembler_->AddRef(ref, kernel_details_key_, details);
  } else {
    std::optional<int64_t> correlation = args_.Int(KinetoArg::kCorrelation);
    kernels_without_details_.push_back(
        {ref, correlation ? std::optional<uint64_t>(static_cast<uint64_t>(*correlation)) : std::nullopt,
         device_ordinal_});
  }
  AddOtherArgs(event, ref,
               (ArgBit(KinetoArg::kCorrelation) | ArgBit(KinetoArg::kDevice) | ArgBit(KinetoArg::kStream) |
                ArgBit(KinetoArg::kContext) | ArgBit(KinetoArg::kRegisters) | ArgBit(KinetoArg::kSharedMemory) |
                ArgBit(KinetoArg::kGrid) | ArgBit(KinetoArg::kBlock) | ArgBit(KinetoArg::kAchievedOccupancy) |
                ArgBit(KinetoArg::kTheoreticalOccupancy) | ArgBit(KinetoArg::kEvIdx)) &
                   ~kept_args);
}

std::optional<double> KinetoTraceParser::TheoreticalOccupancy(std::optional<int64_t> threads,
                                                             std::optional<int64_t> registers,
                                                             std::optional<int64_t> shared) const {
  if (!threads || !registers || !shared) return std::nullopt;
  std::optional<int64_t> device = args_.Int(KinetoArg::kDevice);
  if (!device) return std::nullopt;
  auto it = devices_.find(*device);
  if (it == devices_.end() || !it->second.occupancy) return std::nullopt;
  return xspace::TheoreticalOccupancyPercent(*it->second.occupancy, {.block_threads = *threads,
                                                                   .registers_per_thread = *registers,
                                                                   .shared_bytes = *shared});
}

void KinetoTraceParser::AddMemcpyStats(const RawTraceEvent& event, const Slice& slice, EventRef ref, bool memset) {
  AddCorrelation(ref);
  std::optional<int64_t> bytes = args_.Int(KinetoArg::kBytes);
  std::string_view original = slice.display_name.empty() ? slice.name : slice.display_name;
  auto [source_kind, destination_kind] = MemoryKinds(original);
  std::string details;
  if (memset) {
    details = "kind:" + (source_kind.empty() ? std::string("device") : source_kind);
    if (bytes) details += " num_bytes:" + std::to_string(*bytes);
    assembler_->AddRef(ref, assembler_->Intern(GetStatTypeStr(StatType::kMemsetDetails)), details);
  } else {
    if (!source_kind.empty()) details = "kind_src:" + source_kind + " kind_dst:" + destination_kind;
    if (bytes) details += std::string(details.empty() ? "" : " ") + "size:" + std::to_string(*bytes);
    if (!details.empty()) assembler_->AddRef(ref, assembler_->Intern(GetStatTypeStr(StatType::kMemcpyDetails)), details);
  }
  AddOtherArgs(event, ref,
               ArgBit(KinetoArg::kCorrelation) | ArgBit(KinetoArg::kDevice) | ArgBit(KinetoArg::kStream) |
                   ArgBit(KinetoArg::kContext) | ArgBit(KinetoArg::kBytes) | ArgBit(KinetoArg::kEvIdx));
}

void KinetoTraceParser::AddMemoryStats(EventRef ref) {
  std::optional<int64_t> bytes = args_.Int(KinetoArg::kMemoryBytes);
  std::optional<int64_t> allocated = args_.Int(KinetoArg::kTotalAllocated);
  std::optional<int64_t> reserved = args_.Int(KinetoArg::kTotalReserved);
  std::optional<int64_t> device_type = args_.Int(KinetoArg::kDeviceType);
  std::optional<int64_t> device_id = args_.Int(KinetoArg::kDeviceId);
  std::string allocator = device_type.value_or(0) == 0 ? "cpu"
                          : device_type == 1            ? "cuda:" + std::to_string(device_id.value_or(0))
                                                        : "device_type_" + std::to_string(*device_type) + ":" +
                                                   std::to_string(device_id.value_or(0));
  assembler_->AddRef(ref, assembler_->Intern(GetStatTypeStr(StatType::kAllocatorName)), allocator);
  if (bytes) {
    int64_t size = *bytes < 0 ? (*bytes == INT64_MIN ? INT64_MAX : -*bytes) : *bytes;
    assembler_->AddInt(ref, assembler_->Intern(GetStatTypeStr(StatType::kRequestedBytes)), size);
    assembler_->AddInt(ref, assembler_->Intern(GetStatTypeStr(StatType::kAllocationBytes)), size);
  }
  if (allocated) {
    // PyTorch's caching allocator: memory in use is "allocated"; "reserved" is what it holds
    // from the device, so reserved - allocated is cached but free. Nothing is "stack".
    assembler_->AddInt(ref, assembler_->Intern(GetStatTypeStr(StatType::kBytesAllocated)), *allocated);
    assembler_->AddInt(ref, assembler_->Intern(GetStatTypeStr(StatType::kBytesReserved)), 0);
    if (reserved) {
      int64_t available = 0;  // CPU events have no reserved pool (0); never negative
      if (*reserved > *allocated && __builtin_sub_overflow(*reserved, *allocated, &available)) available = 0;
      assembler_->AddInt(ref, assembler_->Intern(GetStatTypeStr(StatType::kBytesAvailable)), available);
    }
    int64_t& peak = peak_allocated_by_allocator_[allocator];
    peak = std::max(peak, *allocated);
    assembler_->AddInt(ref, assembler_->Intern(GetStatTypeStr(StatType::kPeakBytesInUse)), peak);
  }
  if (const JsonArg* address = args_.Get(KinetoArg::kAddr)) {
    JsonNumber number = ParseJsonNumber(address->value.text());
    uint64_t value = number.kind == JsonNumberKind::kUint64 ? number.uint_value : static_cast<uint64_t>(number.int_value);
    assembler_->AddUint(ref, assembler_->Intern(GetStatTypeStr(StatType::kAddress)), value);
  }
}

void KinetoTraceParser::AddSliceStats(const RawTraceEvent& event, const Slice& slice, EventRef ref) {
  if (correlation_key_ == 0) {
    correlation_key_ = assembler_->Intern(GetStatTypeStr(StatType::kCorrelationId));
    kernel_details_key_ = assembler_->Intern(GetStatTypeStr(StatType::kKernelDetails));
  }
  if (slice.flags & kEventStepMarker) {
    assembler_->AddInt(ref, assembler_->Intern(GetStatTypeStr(StatType::kStepNum)), step_number_);
    assembler_->AddInt(ref, assembler_->Intern(GetStatTypeStr(StatType::kIsRoot)), 1);
  }
  const bool device_op =
      category_ == Category::kKernel || category_ == Category::kMemcpy || category_ == Category::kMemset;
  // Kept as they are (real work shorter than the file's time unit), and counted.
  if (device_op && slice.duration_ps == 0) ++stats_->zero_length_device_events;
  switch (category_) {
    case Category::kKernel:
      AddKernelStats(event, ref);
      return;
    case Category::kMemcpy:
      AddMemcpyStats(event, slice, ref, /*memset=*/false);
      return;
    case Category::kMemset:
      AddMemcpyStats(event, slice, ref, /*memset=*/true);
      return;
    case Category::kRuntime: {
      AddCorrelation(ref);
      std::optional<int64_t> correlation = args_.Int(KinetoArg::kCorrelation);
      const JsonArg* grid = args_.Get(KinetoArg::kGrid);
      const JsonArg* block = args_.Get(KinetoArg::kBlock);
      if (correlation && grid != nullptr && block != nullptr) {
        // ROCm writes the launch parameters on the runtime call, not the kernel.
        std::string details = "regs:0 static_shared:";
        AppendInt(args_.Int(KinetoArg::kSharedMemory).value_or(0), &details);
        details += " dynamic_shared:0 grid:";
        AppendDims(ParseDims(grid->value.text()), &details);
        details += " block:";
        AppendDims(ParseDims(block->value.text()), &details);
        launch_details_by_correlation_[static_cast<uint64_t>(*correlation)] = std::move(details);
      }
      AddOtherArgs(event, ref, ArgBit(KinetoArg::kCorrelation) | ArgBit(KinetoArg::kEvIdx));
      return;
    }
    case Category::kInstant:
      if (event.name.text() == "[memory]") {
        AddMemoryStats(ref);
        return;
      }
      break;
    default:
      break;
  }
  AddOtherArgs(event, ref, ArgBit(KinetoArg::kEvIdx));
}

std::pair<uint64_t, uint8_t> KinetoTraceParser::FlowIdentity(const RawTraceEvent& event, std::string_view id_text,
                                                              uint32_t category_key) {
  if (IsLaunchFlow(event)) {
    if (std::optional<int64_t> id = ParseJsonInteger(id_text); id && *id >= 0) {
      return {static_cast<uint64_t>(*id), kGpuLaunchFlowCategory};
    }
  }
  auto [id, category] = ChromeTraceParser::FlowIdentity(event, id_text, category_key);
  if (IsLegacyLaunchFlow(event)) category = kGpuLaunchFlowCategory;
  return {id, category};
}

TrackKey KinetoTraceParser::FlowTrack(int64_t pid, int64_t tid, std::string_view category) {
  // The flow point names its thread or stream as the events did ...
  auto it = device_tracks_by_raw_.find(TrackKey{TrackKind::kThread, pid, tid});
  if (it != device_tracks_by_raw_.end()) return it->second;
  TrackKey thread{TrackKind::kThread, pid, tid};
  if (HasTrack(thread)) return thread;
  // ... or spells the stream another way: 7, "7" or "stream 7" for the same stream.
  std::optional<std::string_view> text = PidString(tid);
  std::optional<int64_t> stream = text ? StreamOfTidText(*text) : std::optional<int64_t>(tid);
  if (stream) {
    auto by_stream = device_tracks_by_stream_.find(TrackKey{TrackKind::kThread, pid, *stream});
    if (by_stream != device_tracks_by_stream_.end()) return by_stream->second;
  }
  return thread;
}

TrackPlacement KinetoTraceParser::PlaceTrack(const TrackKey& track) {
  TrackPlacement placement = ChromeTraceParser::PlaceTrack(track);
  if (track.kind == TrackKind::kThread) {
    std::string_view name = ThreadName(track.pid, track.tid);
    if (!name.empty()) {
      placement.line_name = ThreadDisplayName(name);
    } else if (track.pid == kNoDevicePid) {
      // Kineto names pid -1 "CUPTI Overhead" where CUPTI's overhead records go there.
      auto it = no_device_lines_.find(track.tid);
      const uint8_t holds = it == no_device_lines_.end() ? 2 : it->second;
      std::string what = holds == 1   ? "Profiler overhead"
                         : holds == 2 ? "Synchronization"
                                      : "Profiler overhead and synchronization";
      if (holds == 1 && !ProcessName(track.pid).empty()) what = std::string(ProcessName(track.pid));
      placement.line_name = what + " (thread " + std::to_string(track.tid) + ")";
    }
    placement.line_display_name.clear();
  } else if (track.kind == TrackKind::kDeviceAnnotation) {
    placement.line_id = kNameScopeLineId;
    placement.line_name = std::string(xspace::kFrameworkNameScopeLineName);
  } else if (track.kind == TrackKind::kDeviceInfo && track.tid == kProfilerRangesTid) {
    placement.line_id = kProfilerRangesLineId;
    placement.line_name = std::string(xspace::kProfilerRangesLineName);
  } else if (track.kind == TrackKind::kDeviceInfo) {
    // Wrapping: a hostile stream id near the int64 limit makes an odd line id, not UB.
    placement.line_id =
        static_cast<int64_t>(static_cast<uint64_t>(kSyncLineIdBase) + static_cast<uint64_t>(track.tid));
    // CUPTI's sentinel for records of no stream (Context Sync) is -1.
    placement.line_name = (track.tid < 0 ? std::string("All streams") : "Stream #" + std::to_string(track.tid)) +
                          std::string(xspace::kDeviceSyncLineSuffix);
  }
  return placement;
}

void KinetoTraceParser::ResolveEventReferences() {
  for (const PendingKernel& kernel : kernels_without_details_) {
    auto it = kernel.correlation ? launch_details_by_correlation_.find(*kernel.correlation)
                                 : launch_details_by_correlation_.end();
    if (it != launch_details_by_correlation_.end()) {
      assembler_->AddRef(kernel.event, assembler_->Intern(GetStatTypeStr(StatType::kKernelDetails)), it->second);
    } else if (kernel.device_ordinal >= 0 && DeviceTypeOf(kernel.device_ordinal) != "GPU") {
      // A device op of an accelerator whose profiler records no launch dimensions (MTIA's
      // CCP events, XPU kernels, Gaudi's ops): a kernel all the same, for the kernel stats;
      // the dimensions are missing, which XProf's rule reads as 1.
      assembler_->AddRef(kernel.event, assembler_->Intern(GetStatTypeStr(StatType::kKernelDetails)),
                         "regs:0 static_shared:0 dynamic_shared:0");
    }
  }
  kernels_without_details_.clear();
}

void KinetoTraceParser::FinishSpace() {
  SetWallClock(base_time_ns_);
  std::string host = options_.host_name;
  if (host.empty() && rank_) host = "rank" + std::to_string(*rank_);
  if (host.empty()) host = trace_host_name_;
  if (host.empty()) host = options_.fallback_host_name;
  assembler_->AddHostname(host);

  uint32_t host_plane = assembler_->GetOrCreatePlane(xspace::kHostThreadsPlaneName, 0);
  assembler_->AddPlaneStr(host_plane, GetStatTypeStr(StatType::kHostName), host);
  int64_t main_pid = 0;
  int64_t most = -1;
  for (const auto& [pid, count] : host_event_count_by_pid_) {
    if (!PidString(pid) && pid != kNoDevicePid && (count > most || (count == most && pid < main_pid))) {
      main_pid = pid;
      most = count;
    }
  }
  if (most >= 0) assembler_->AddPlaneInt(host_plane, GetStatTypeStr(StatType::kProcessId), main_pid);
  if (rank_) assembler_->AddPlaneInt(host_plane, "rank", *rank_);
  if (world_size_) assembler_->AddPlaneInt(host_plane, "world_size", *world_size_);
  if (!backend_.empty()) assembler_->AddPlaneStr(host_plane, "distributed_backend", backend_);
  if (!trace_host_name_.empty() && trace_host_name_ != host) {
    assembler_->AddPlaneStr(host_plane, "trace_host_name", trace_host_name_);
  }
  for (const auto& [key, value] : environment_) {
    if (std::optional<int64_t> number = ParseJsonInteger(value)) {
      assembler_->AddPlaneInt(host_plane, key, *number);
    } else {
      assembler_->AddPlaneStr(host_plane, key, value);
    }
  }
  AddDevicePlaneStats();
}

std::string_view KinetoTraceParser::DeviceTypeOf(int64_t ordinal) const {
  const uint8_t on_device =
      static_cast<size_t>(ordinal) < device_evidence_.size() ? device_evidence_[ordinal] : uint8_t{0};
  if (on_device & kEvidenceMtia) return "MTIA";
  if (on_device & kEvidenceHpu) return "HPU";
  auto it = devices_.find(ordinal);
  if (it != devices_.end() && it->second.sycl) return "XPU";
  // Device ops every backend writes alike (kernel, gpu_memcpy, ...), or a device known
  // only from deviceProperties: the backend whose launches the trace has; CUDA's where
  // there are several (MTIA's and Gaudi's own device ops said so above).
  if (trace_evidence_ & kEvidenceCuda) return "GPU";
  if (trace_evidence_ & kEvidenceXpu) return "XPU";
  if (trace_evidence_ & kEvidenceMtia) return "MTIA";
  if (trace_evidence_ & kEvidenceHpu) return "HPU";
  if (trace_evidence_ & kEvidencePrivateUse1) return "PrivateUse1";
  return "GPU";
}

// Every device plane (of deviceProperties, of device events) says which accelerator it
// is, and with deviceProperties what it is: model name, SMs or compute units, memory.
void KinetoTraceParser::AddDevicePlaneStats() {
  std::set<int64_t> ordinals;
  for (const auto& [id, device] : devices_) ordinals.insert(id);
  for (size_t i = 0; i < device_evidence_.size(); ++i) {
    if (device_evidence_[i] != 0) ordinals.insert(static_cast<int64_t>(i));
  }
  for (int64_t id : ordinals) {
    uint32_t plane = assembler_->GetOrCreatePlane(xspace::GpuPlaneName(static_cast<int>(id)), id);
    auto it = devices_.find(id);
    const Device* device = it == devices_.end() ? nullptr : &it->second;
    const std::string_view type = DeviceTypeOf(id);
    if (device != nullptr) {
      if (device->sm_count) {
        assembler_->AddPlaneInt(plane, GetStatTypeStr(StatType::kDevCapCoreCount), *device->sm_count);
      }
      if (device->memory_bytes) {
        assembler_->AddPlaneUint(plane, GetStatTypeStr(StatType::kDevCapMemorySize),
                                 static_cast<uint64_t>(*device->memory_bytes));
      }
      if (device->compute_major) {
        assembler_->AddPlaneInt(plane, GetStatTypeStr(StatType::kDevCapComputeCapMajor), *device->compute_major);
      }
      if (device->compute_minor) {
        assembler_->AddPlaneInt(plane, GetStatTypeStr(StatType::kDevCapComputeCapMinor), *device->compute_minor);
      }
      if (!device->name.empty()) assembler_->AddPlaneStr(plane, GetStatTypeStr(StatType::kGpuDeviceName), device->name);
    }
    std::string_view vendor;
    if (type == "GPU") {
      if (device != nullptr && !device->name.empty()) {
        const std::string& name = device->name;
        bool amd = name.find("AMD") != std::string::npos || name.find("Radeon") != std::string::npos ||
                   name.find("Instinct") != std::string::npos;
        vendor = amd ? "AMD" : "Nvidia";
      }
    } else if (type == "XPU" || type == "HPU") {
      vendor = "Intel";  // Gaudi is Habana Labs', an Intel company
    } else if (type == "MTIA") {
      vendor = "Meta";
    } else if (device != nullptr) {
      vendor = device->vendor;  // a PrivateUse1 backend's, as written
    }
    if (!vendor.empty()) assembler_->AddPlaneStr(plane, GetStatTypeStr(StatType::kDevVendor), vendor);
    assembler_->AddPlaneStr(plane, GetStatTypeStr(StatType::kDeviceType), type);
  }
}

}  // namespace stepscope::importers
