#include "src/gpu/cupti_tracer.h"

#include <cuda_runtime_api.h>
#include <cupti.h>
#include <cxxabi.h>
#include <dlfcn.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "src/base/clock.h"
#include "src/base/logging.h"
#include "src/gpu/activity_records.h"
#include "src/gpu/activity_to_xspace.h"
#include "src/gpu/nvml_sampler.h"
#include "src/gpu/occupancy.h"

namespace stepscope::gpu {
namespace {

constexpr size_t kBufferBytes = 8 << 20;
constexpr size_t kBufferAlignment = 8;
// At most this many buffers in flight or waiting for collection (1 GiB): past it CUPTI
// gets no buffer, drops records and counts them (reported on the planes).
constexpr size_t kMaxBuffers = 128;

std::string CuptiErrorText(CUptiResult result) {
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  return text != nullptr ? text : "CUPTI error " + std::to_string(static_cast<int>(result));
}

std::string Demangle(const char* name) {
  if (name == nullptr) return "(unnamed kernel)";
  int status = 0;
  char* demangled = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || demangled == nullptr) return name;
  std::string result(demangled);
  std::free(demangled);
  return result;
}

const char* MemoryKindName(uint32_t kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE: return "pageable";
    case CUPTI_ACTIVITY_MEMORY_KIND_PINNED: return "pinned";
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE: return "device";
    case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY: return "array";
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED: return "managed";
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC: return "device_static";
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC: return "managed_static";
    default: return "unknown";
  }
}

CopyKind CopyKindOf(uint8_t kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA: return CopyKind::kHostToDevice;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH: return CopyKind::kDeviceToHost;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA: return CopyKind::kDeviceToDevice;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return CopyKind::kHostToHost;
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return CopyKind::kPeerToPeer;
    default: return CopyKind::kUnknown;
  }
}

const char* SyncTypeName(CUpti_ActivitySynchronizationType type) {
  switch (type) {
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE: return "cudaEventSynchronize";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT: return "cudaStreamWaitEvent";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE: return "cudaStreamSynchronize";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE: return "cudaDeviceSynchronize";
    default: return "synchronization";
  }
}

std::string OverheadName(CUpti_ActivityOverheadKind kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER: return "driver compiler";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH: return "CUPTI buffer flush";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION: return "CUPTI instrumentation";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE: return "CUPTI resource";
    default: return "CUPTI overhead " + std::to_string(static_cast<int>(kind));
  }
}

// API calls worth a host event: those that put work on a stream.
bool IsLaunchOrCopy(const char* name) {
  if (name == nullptr) return false;
  std::string_view n(name);
  return n.find("Launch") != std::string_view::npos || n.find("Memcpy") != std::string_view::npos ||
         n.find("Memset") != std::string_view::npos;
}

uint64_t CUPTIAPI HostMonotonicTimestamp() { return base::MonotonicNowNs(); }

// NVTX hands its calls to the library NVTX_INJECTION64_PATH names, read at the process's
// first NVTX call: point it at this CUPTI so ranges become marker records. Too late when
// the program already called NVTX before the first session; a value the user set is kept.
void PointNvtxAtCupti() {
  if (std::getenv("NVTX_INJECTION64_PATH") != nullptr) return;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&cuptiSubscribe), &info) != 0 && info.dli_fname != nullptr) {
    setenv("NVTX_INJECTION64_PATH", info.dli_fname, 0);
  }
}

// Only one CUPTI subscriber per process, and CUPTI's callbacks are plain functions: the
// running tracer's state lives here.
class CuptiState {
 public:
  static CuptiState& Get() {
    static auto* state = new CuptiState();
    return *state;
  }

  void Reset() {
    std::lock_guard<std::mutex> lock(mu_);
    capture_ = ActivityCapture();
    dropped_by_device_.clear();
    open_markers_.clear();
    buffers_.store(0);
  }

  void AddActivity(ActivityRecord record) {
    std::lock_guard<std::mutex> lock(mu_);
    capture_.activities.push_back(std::move(record));
  }
  void AddApiCall(ApiCallRecord call) {
    std::lock_guard<std::mutex> lock(mu_);
    capture_.api_calls.push_back(std::move(call));
  }
  // NVTX markers come as a start record (with the name) and an end record, paired by id.
  void OpenMarker(uint32_t id, NvtxRange range) {
    std::lock_guard<std::mutex> lock(mu_);
    open_markers_[id] = std::move(range);
  }
  void CloseMarker(uint32_t id, uint64_t end_ns) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = open_markers_.find(id);
    if (it == open_markers_.end()) return;  // opened before this session
    it->second.end_ns = end_ns;
    capture_.nvtx_ranges.push_back(std::move(it->second));
    open_markers_.erase(it);
  }
  void AddDropped(CUcontext context, uint32_t stream, size_t dropped) {
    if (dropped == 0) return;
    uint32_t device = 0;
    const bool known = context != nullptr && cuptiGetDeviceId(context, &device) == CUPTI_SUCCESS;
    (void)stream;
    std::lock_guard<std::mutex> lock(mu_);
    if (known) {
      dropped_by_device_[device] += dropped;
    } else {
      capture_.dropped_records_unattributed += dropped;
    }
  }
  ActivityCapture Take(std::vector<DeviceInfo> devices) {
    std::lock_guard<std::mutex> lock(mu_);
    for (DeviceInfo& device : devices) {
      auto it = dropped_by_device_.find(device.ordinal);
      if (it != dropped_by_device_.end()) device.dropped_records = it->second;
    }
    capture_.devices = std::move(devices);
    return std::move(capture_);
  }

  std::atomic<size_t> buffers_{0};

 private:
  std::mutex mu_;
  ActivityCapture capture_;  // guarded by mu_
  std::map<uint32_t, uint64_t> dropped_by_device_;
  std::map<uint32_t, NvtxRange> open_markers_;  // by marker id
};

// Each device's limits for the occupancy of its kernels, read at Start (by ordinal).
std::vector<cudaOccDeviceProp>& OccupancyProps() {
  static auto* props = new std::vector<cudaOccDeviceProp>();
  return *props;
}

double KernelOccupancy(uint32_t device, const CUpti_ActivityKernel10& k) {
  const std::vector<cudaOccDeviceProp>& props = OccupancyProps();
  if (device >= props.size()) return 0.0;
  return OccupancyPercent(props[device], k.blockX * k.blockY * k.blockZ, k.registersPerThread, k.staticSharedMemory,
                          k.dynamicSharedMemory);
}

// The fields every device-side record has (kernels, copies, memsets): when, where, and the
// correlation id of the API call that issued it.
template <typename Record>
void CopyDeviceFields(const Record& r, ActivityRecord* out) {
  out->start_ns = r.start;
  out->end_ns = r.end;
  out->device_id = r.deviceId;
  out->context_id = r.contextId;
  out->stream_id = r.streamId;
  out->correlation_id = r.correlationId;
}

// Copies (MEMCPY and MEMCPY2, the peer-to-peer form): the rest of their fields match.
template <typename Record>
void CopyMemcpyFields(const Record& m, CopyKind copy_kind, ActivityRecord* out) {
  out->kind = ActivityKind::kMemcpy;
  out->copy_kind = copy_kind;
  out->src_kind = MemoryKindName(m.srcKind);
  out->dst_kind = MemoryKindName(m.dstKind);
  out->bytes = m.bytes;
  out->async = (m.flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC) != 0;
  CopyDeviceFields(m, out);
}

void CopyRecord(const CUpti_Activity* record) {
  ActivityRecord out;
  switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
      const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      out.kind = ActivityKind::kKernel;
      out.name = Demangle(k->name);
      CopyDeviceFields(*k, &out);
      out.grid = {k->gridX, k->gridY, k->gridZ};
      out.block = {k->blockX, k->blockY, k->blockZ};
      out.registers_per_thread = k->registersPerThread;
      out.static_shared_bytes = k->staticSharedMemory;
      out.dynamic_shared_bytes = k->dynamicSharedMemory;
      out.occupancy_pct = KernelOccupancy(k->deviceId, *k);
      out.graph_id = k->graphId;
      out.graph_node_id = k->graphNodeId;
      break;
    }
    case CUPTI_ACTIVITY_KIND_MARKER: {  // NVTX ranges: not device work, kept apart
      const auto* m = reinterpret_cast<const CUpti_ActivityMarker2*>(record);
      if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_START) {
        NvtxRange range;
        range.name = m->name != nullptr ? m->name : "(unnamed NVTX range)";
        range.domain = m->domain != nullptr ? m->domain : "";
        range.start_ns = m->timestamp;
        if (m->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD) range.thread_id = m->objectId.pt.threadId;
        CuptiState::Get().OpenMarker(m->id, std::move(range));
      } else if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_END) {
        CuptiState::Get().CloseMarker(m->id, m->timestamp);
      }
      return;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
      CopyMemcpyFields(*m, CopyKindOf(m->copyKind), &out);
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
      CopyMemcpyFields(*reinterpret_cast<const CUpti_ActivityMemcpyPtoP4*>(record), CopyKind::kPeerToPeer, &out);
      break;
    case CUPTI_ACTIVITY_KIND_MEMSET: {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
      out.kind = ActivityKind::kMemset;
      out.dst_kind = MemoryKindName(m->memoryKind);
      out.bytes = m->bytes;
      out.async = (m->flags & CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC) != 0;
      CopyDeviceFields(*m, &out);
      break;
    }
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
      const auto* s = reinterpret_cast<const CUpti_ActivitySynchronization2*>(record);
      out.kind = ActivityKind::kSynchronization;
      out.name = SyncTypeName(s->type);
      out.start_ns = s->start;
      out.end_ns = s->end;
      out.context_id = s->contextId;
      out.stream_id = s->streamId;
      out.correlation_id = s->correlationId;
      break;
    }
    case CUPTI_ACTIVITY_KIND_OVERHEAD: {
      const auto* o = reinterpret_cast<const CUpti_ActivityOverhead3*>(record);
      out.kind = ActivityKind::kOverhead;
      out.name = OverheadName(o->overheadKind);
      out.start_ns = o->start;
      out.end_ns = o->end;
      out.correlation_id = o->correlationId;
      break;
    }
    default:
      return;
  }
  CuptiState::Get().AddActivity(std::move(out));
}

void CUPTIAPI BufferRequested(uint8_t** buffer, size_t* size, size_t* max_num_records) {
  *max_num_records = 0;
  CuptiState& state = CuptiState::Get();
  if (state.buffers_.fetch_add(1) >= kMaxBuffers) {  // CUPTI drops and counts
    state.buffers_.fetch_sub(1);
    *buffer = nullptr;
    *size = 0;
    return;
  }
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(kBufferAlignment, kBufferBytes));
  *size = *buffer == nullptr ? 0 : kBufferBytes;
}

void CUPTIAPI BufferCompleted(CUcontext context, uint32_t stream, uint8_t* buffer, size_t /*size*/,
                              size_t valid_size) {
  CUpti_Activity* record = nullptr;
  while (buffer != nullptr && cuptiActivityGetNextRecord(buffer, valid_size, &record) == CUPTI_SUCCESS) {
    CopyRecord(record);
  }
  size_t dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(context, stream, &dropped) == CUPTI_SUCCESS) {
    CuptiState::Get().AddDropped(context, stream, dropped);
  }
  std::free(buffer);
  CuptiState::Get().buffers_.fetch_sub(1);
}

// Depth of CUDA API calls on this thread: only the outermost launch/copy is recorded (a
// runtime call's own driver calls share its correlation id).
// A session may start or stop while a thread is inside a CUDA call: the depth is reset
// when a thread first sees a new session (generation), and an exit without its entry is
// ignored.
std::atomic<uint64_t> g_api_generation{0};
thread_local int t_api_depth = 0;
thread_local uint64_t t_api_start_ns = 0;
thread_local uint64_t t_api_generation = 0;

void CUPTIAPI ApiCallback(void* /*userdata*/, CUpti_CallbackDomain domain, CUpti_CallbackId /*id*/,
                          const void* data) {
  if (domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
  const auto* info = static_cast<const CUpti_CallbackData*>(data);
  const uint64_t generation = g_api_generation.load(std::memory_order_relaxed);
  if (t_api_generation != generation) {
    t_api_generation = generation;
    t_api_depth = 0;
  }
  if (info->callbackSite == CUPTI_API_ENTER) {
    if (t_api_depth++ == 0) t_api_start_ns = base::MonotonicNowNs();
    return;
  }
  if (t_api_depth == 0) return;  // entered before this session subscribed
  if (--t_api_depth != 0 || !IsLaunchOrCopy(info->functionName)) return;
  ApiCallRecord call;
  call.name = info->functionName;
  call.start_ns = t_api_start_ns;
  call.end_ns = base::MonotonicNowNs();
  call.thread_id = static_cast<int64_t>(syscall(SYS_gettid));
  call.correlation_id = info->correlationId;
  uint32_t device = 0;
  if (info->context != nullptr && cuptiGetDeviceId(info->context, &device) == CUPTI_SUCCESS) call.device_id = device;
  CuptiState::Get().AddApiCall(std::move(call));
}

int DeviceAttribute(cudaDeviceAttr attribute, int device) {
  int value = 0;
  return cudaDeviceGetAttribute(&value, attribute, device) == cudaSuccess ? value : 0;
}

std::vector<DeviceInfo> ReadDevices(int count) {
  std::vector<DeviceInfo> devices;
  std::vector<cudaOccDeviceProp>& occupancy = OccupancyProps();
  occupancy.assign(static_cast<size_t>(count), cudaOccDeviceProp());
  for (int d = 0; d < count; ++d) {
    DeviceInfo info;
    info.ordinal = static_cast<uint32_t>(d);
    cudaDeviceProp props{};
    if (cudaGetDeviceProperties(&props, d) == cudaSuccess) {
      info.name = props.name;
      info.memory_size_bytes = static_cast<int64_t>(props.totalGlobalMem);
      occupancy[d] = cudaOccDeviceProp(props);
    }
    info.clock_rate_khz = DeviceAttribute(cudaDevAttrClockRate, d);
    info.core_count = DeviceAttribute(cudaDevAttrMultiProcessorCount, d);
    // Double data rate: two transfers per memory clock, bus width in bits (TF's formula).
    const int64_t memory_clock_khz = DeviceAttribute(cudaDevAttrMemoryClockRate, d);
    const int64_t bus_bits = DeviceAttribute(cudaDevAttrGlobalMemoryBusWidth, d);
    info.memory_bandwidth_bytes_per_s = 2 * memory_clock_khz * 1000 * bus_bits / 8;
    info.compute_cap_major = DeviceAttribute(cudaDevAttrComputeCapabilityMajor, d);
    info.compute_cap_minor = DeviceAttribute(cudaDevAttrComputeCapabilityMinor, d);
    devices.push_back(std::move(info));
  }
  return devices;
}

constexpr CUpti_ActivityKind kActivityKinds[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,   CUPTI_ACTIVITY_KIND_MEMCPY2,
    CUPTI_ACTIVITY_KIND_MEMSET,            CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, CUPTI_ACTIVITY_KIND_OVERHEAD};

Status CuptiStatus(CUptiResult result, const char* call) {
  if (result == CUPTI_SUCCESS) return OkStatus();
  if (result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES || result == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES) {
    return PermissionDeniedError(
        std::string(call) + ": CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: this user may not profile the GPU; run as root "
        "or load the NVIDIA driver with NVreg_RestrictProfilingToAdminUsers=0 (see "
        "https://developer.nvidia.com/ERR_NVGPUCTRPERM); profiling the host only");
  }
  if (result == CUPTI_ERROR_INVALID_DEVICE || result == CUPTI_ERROR_NOT_INITIALIZED) {
    return UnavailableError(std::string(call) + ": " + CuptiErrorText(result) +
                            ": no usable CUDA driver or GPU; profiling the host only");
  }
  return UnavailableError(std::string(call) + " failed: " + CuptiErrorText(result) + "; profiling the host only");
}

class CuptiTracer : public collect::Tracer {
 public:
  const char* name() const override { return "cupti"; }
  collect::TracerKind kind() const override { return collect::TracerKind::kDevice; }

  Status Start() override {
    int count = 0;
    cudaError_t error = cudaGetDeviceCount(&count);
    if (error != cudaSuccess || count == 0) {
      std::string why = error == cudaSuccess ? "no CUDA device is visible" : cudaGetErrorString(error);
      Status status = UnavailableError(
          "no GPU to trace (cudaGetDeviceCount: " + why + "): install the NVIDIA driver (nvidia-smi must list a GPU) or check CUDA_VISIBLE_DEVICES; "
          "profiling the host only");
      base::LogWarning("%s", status.message().c_str());
      return status;
    }
    devices_ = ReadDevices(count);
    PointNvtxAtCupti();
    CuptiState::Get().Reset();
    g_api_generation.fetch_add(1, std::memory_order_relaxed);
    Status status = EnableCupti();
    if (!status.ok()) {
      DisableCupti();
      base::LogWarning("%s", status.message().c_str());
      return status;
    }
    std::vector<std::string> bus_ids;
    for (int d = 0; d < count; ++d) {
      char bus_id[32] = {};
      bus_ids.push_back(cudaDeviceGetPCIBusId(bus_id, sizeof(bus_id), d) == cudaSuccess ? bus_id : "");
    }
    std::string why;
    if (!nvml_.Start(bus_ids, &why)) base::LogWarning("%s", why.c_str());
    return status;
  }

  Status Stop() override {
    counters_ = nvml_.Stop();
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    DisableCupti();
    cuptiActivityFlushAll(0);
    return OkStatus();
  }

  Status CollectData(const collect::SessionTimes& times, xspace::XSpace* space) override {
    ActivityCapture capture = CuptiState::Get().Take(std::move(devices_));
    capture.counters = std::move(counters_);
    if (!timestamps_on_host_clock_) {
      for (ActivityRecord& record : capture.activities) {
        record.start_ns += static_cast<uint64_t>(clock_offset_ns_);
        record.end_ns += static_cast<uint64_t>(clock_offset_ns_);
      }
      for (NvtxRange& range : capture.nvtx_ranges) {
        range.start_ns += static_cast<uint64_t>(clock_offset_ns_);
        range.end_ns += static_cast<uint64_t>(clock_offset_ns_);
      }
    }
    AddCaptureToXSpace(capture, times.start_monotonic_ns, times.stop_monotonic_ns, space);
    return OkStatus();
  }

 private:
  Status EnableCupti() {
    // Before any activity is enabled: GPU timestamps on the host's monotonic clock.
    timestamps_on_host_clock_ = cuptiActivityRegisterTimestampCallback(HostMonotonicTimestamp) == CUPTI_SUCCESS;
    Status status = CuptiStatus(cuptiActivityRegisterCallbacks(BufferRequested, BufferCompleted),
                                "cuptiActivityRegisterCallbacks");
    if (!status.ok()) return status;
    status = CuptiStatus(cuptiSubscribe(&subscriber_, ApiCallback, nullptr), "cuptiSubscribe");
    if (!status.ok()) return status;
    subscribed_ = true;
    for (CUpti_CallbackDomain domain : {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_CB_DOMAIN_DRIVER_API}) {
      status = CuptiStatus(cuptiEnableDomain(1, subscriber_, domain), "cuptiEnableDomain");
      if (!status.ok()) return status;
    }
    for (CUpti_ActivityKind kind : kActivityKinds) {
      status = CuptiStatus(cuptiActivityEnable(kind), "cuptiActivityEnable");
      if (!status.ok()) return status;
    }
    // Thread ids as the OS has them (gettid), the /host:CPU line ids, for NVTX markers.
    cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM);
    // NVTX ranges: optional (host profiling and kernels go on without them).
    markers_ = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MARKER) == CUPTI_SUCCESS;
    if (!timestamps_on_host_clock_) {
      // Older CUPTI: its own clock, moved onto the host's by the offset seen now.
      uint64_t cupti_now = 0;
      cuptiGetTimestamp(&cupti_now);
      clock_offset_ns_ = static_cast<int64_t>(base::MonotonicNowNs()) - static_cast<int64_t>(cupti_now);
    }
    return OkStatus();
  }

  void DisableCupti() {
    for (CUpti_ActivityKind kind : kActivityKinds) cuptiActivityDisable(kind);
    if (markers_) cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MARKER);
    markers_ = false;
    if (subscribed_) {
      cuptiUnsubscribe(subscriber_);
      subscribed_ = false;
    }
  }

  std::vector<DeviceInfo> devices_;
  NvmlSampler nvml_;
  std::vector<CounterSample> counters_;
  CUpti_SubscriberHandle subscriber_ = nullptr;
  bool subscribed_ = false;
  bool markers_ = false;
  bool timestamps_on_host_clock_ = false;
  int64_t clock_offset_ns_ = 0;  // host - CUPTI clock, when CUPTI keeps its own
};

}  // namespace

std::unique_ptr<collect::Tracer> MakeCuptiTracer(const ProfileOptions& options) {
  if (options.device_tracer_level <= 0) return nullptr;
  return std::make_unique<CuptiTracer>();
}

void RegisterCuptiTracer() {
  static std::once_flag once;
  std::call_once(once, [] { collect::RegisterTracerFactory(MakeCuptiTracer); });
}

}  // namespace stepscope::gpu
