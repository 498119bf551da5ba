// PyTorch profiler (Kineto) trace JSON -> the XSpace layout stepscope records itself.
// The rules are listed in docs/importers.md; in short:
//
//  - host categories (cpu_op / Operator, user_annotation, python_function / Python,
//    cuda_runtime / Runtime, cuda_driver, cpu_instant_event, ...) -> /host:CPU, one line
//    per thread (id = tid, name from thread_name "thread 12 (name)" -> "name");
//  - device categories (kernel / Kernel, gpu_memcpy / Memcpy, gpu_memset / Memset, MTIA's
//    mtia_ccp_events, Gaudi's hpu_op on a device pid) -> /device:GPU:<device>, one line per
//    stream "Stream #<id>", the plane's device_type stat saying which accelerator it is
//    ("GPU", "MTIA", "XPU", "HPU", "PrivateUse1"); gpu_user_annotation -> the plane's
//    derived "Framework Name Scope" line; cuda_sync and cuda_event -> "Stream #<id> (sync)",
//    cuda_profiler_range -> "Profiler ranges" (both shown, not counted as device ops);
//  - every backend's runtime and driver calls (cuda_*, mtia_runtime, xpu_*,
//    privateuse1_*, hpu_op on a host pid) are launches, like cuda_runtime;
//  - ProfilerStep#N -> event "ProfilerStep" (display name "ProfilerStep#N") with int64
//    stats step_num=N and _r=1, as tf.profiler.experimental.Trace('ProfilerStep',
//    step_num=N, _r=1) would record it;
//  - op names are kept as PyTorch wrote them: enumerate(DataLoader)#...__next__ stays that
//    (the analyses classify it as waiting for input, src/analysis/model/op_name.h);
//  - kernels: kernel_details "regs:R static_shared:B dynamic_shared:0 grid:x,y,z
//    block:x,y,z occ_pct:F" from the args; memcpy/memset: renamed MemcpyHtoD / Memset with
//    memcpy_details / Memset_details; correlation_id (uint64) on launches and device ops;
//  - [memory] instants -> MemoryAllocation / MemoryDeallocation with the allocator stats;
//  - launch flows (ac2g, async_cpu_to_gpu, async/launch: launch -> kernel, id = correlation,
//    XFlow category GpuLaunch) and fwdbwd, bound to their slice however the tid is spelled
//    (7, "7", "stream 7"); zero-length device events are kept and counted;
//    distributedInfo.rank -> host "rank<N>"; deviceProperties -> device plane
//    capability stats; the legacy autograd export ("pid": "CPU functions" / "CUDA
//    functions") maps the same way.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "src/importers/chrome_json/chrome_trace_parser.h"
#include "src/importers/kineto_json/kineto_args.h"
#include "src/xspace/kernel_occupancy.h"

namespace stepscope::importers {

class KinetoTraceParser : public ChromeTraceParser {
 public:
  using ChromeTraceParser::ChromeTraceParser;

 protected:
  void HandleTopLevelField(std::string_view key, std::string_view raw_json) override;
  bool IsTraceEvent(const RawTraceEvent& event) override;
  TrackKey TrackOf(const RawTraceEvent& event) override;
  void PrepareSlice(const RawTraceEvent& event, Slice* slice) override;
  void AddSliceStats(const RawTraceEvent& event, const Slice& slice, EventRef ref) override;
  std::pair<uint64_t, uint8_t> FlowIdentity(const RawTraceEvent& event, std::string_view id_text,
                                            uint32_t category_key) override;
  TrackKey FlowTrack(int64_t pid, int64_t tid, std::string_view category) override;
  void ResolveEventReferences() override;
  TrackPlacement PlaceTrack(const TrackKey& track) override;
  void FinishSpace() override;

 private:
  enum class Category : uint8_t {
    kHostOp,           // cpu_op, Operator, python_function, collective_comm, ... and anything unknown
    kUserAnnotation,   // user_annotation
    kRuntime,          // every backend's runtime and driver calls: the launches
    kInstant,          // cpu_instant_event; [memory] without a cat (1.10-1.12)
    kKernel,           // kernel, mtia_ccp_events, hpu_op on a device pid
    kMemcpy,
    kMemset,
    kGpuAnnotation,    // gpu_user_annotation; "User" on tid "stream N user" (1.8-1.9)
    kDeviceSync,       // cuda_sync, cuda_event: waits and markers on a device stream
    kProfilerRange,    // cuda_profiler_range: CUPTI range-profiler metrics per kernel
    kOverhead,         // overhead: the profiler's own time (CUPTI, XPUPTI), pid -1
    kHpuOp,            // hpu_op before TrackOf decides: device op or host runtime call
    kTrace,            // the "PyTorch Profiler (0)" span: the capture window
  };
  // What a trace says about the kind of its accelerators (bits): device events of a kind
  // on a device, and launches of a backend anywhere.
  enum DeviceEvidence : uint8_t {
    kEvidenceDeviceOp = 1,      // kernel, copy, memset, annotation, sync: any backend
    kEvidenceMtia = 2,          // mtia_ccp_events (on a device), mtia_runtime (anywhere)
    kEvidenceHpu = 4,           // hpu_op
    kEvidenceXpu = 8,           // xpu_runtime, xpu_driver; deviceProperties of SYCL devices
    kEvidencePrivateUse1 = 16,  // privateuse1_runtime, privateuse1_driver
    kEvidenceCuda = 32,         // cuda_runtime, cuda_driver (CUDA and ROCm)
  };
  struct Device {
    std::string name;
    std::string vendor;   // deviceProperties "vendor" (XPU: "Intel(R) Corporation")
    bool sycl = false;    // deviceProperties with SYCL's keys (maxComputeUnits): an XPU
    std::optional<int64_t> sm_count, memory_bytes, compute_major, compute_minor;
    // The limits that decide a launch's theoretical occupancy (all of them, or none).
    std::optional<xspace::OccupancyDevice> occupancy;
  };
  // A kernel whose args have no launch parameters: ROCm writes them on the launch, and
  // MTIA, XPU, Gaudi and PrivateUse1 device ops have none.
  struct PendingKernel {
    EventRef event;
    std::optional<uint64_t> correlation;
    int64_t device_ordinal;
  };

  Category Classify(const RawTraceEvent& event);
  // A backend's runtime or driver call (a launch): notes the backend, returns kRuntime.
  Category RuntimeCall(uint8_t evidence) {
    trace_evidence_ |= evidence;
    return Category::kRuntime;
  }
  // hpu_op is written on both sides: a device op on a device pid (or with a "device" arg),
  // a host runtime call on the process's pid.
  Category ResolveHpuOp(int64_t pid) const;
  void CountHostEvent(int64_t pid);
  // The accelerator a device plane is ("GPU", "MTIA", ...), from the evidence.
  std::string_view DeviceTypeOf(int64_t ordinal) const;
  void AddDevicePlaneStats();
  void AddKernelStats(const RawTraceEvent& event, EventRef ref);
  // The kernel's theoretical occupancy in percent from its launch (threads per block,
  // "registers per thread", "shared memory", as read from its args) and its device's
  // deviceProperties, when the trace has all of them (deviceProperties before the events,
  // as PyTorch writes them).
  std::optional<double> TheoreticalOccupancy(std::optional<int64_t> threads, std::optional<int64_t> registers,
                                             std::optional<int64_t> shared) const;
  void AddMemcpyStats(const RawTraceEvent& event, const Slice& slice, EventRef ref, bool memset);
  void AddMemoryStats(EventRef ref);
  void AddCorrelation(EventRef ref);
  // The event's args as stats, except those in `skip` (a mask of ArgBit()s).
  void AddOtherArgs(const RawTraceEvent& event, EventRef ref, uint32_t skip);

  // Of the event being added.
  Category category_ = Category::kHostOp;
  uint8_t event_evidence_ = kEvidenceDeviceOp;  // what a device event says about its device
  int64_t device_ordinal_ = -1;                 // a device event's device; -1: placed on the host
  // Evidence per device ordinal (index), and of the launches and deviceProperties.
  std::vector<uint8_t> device_evidence_;
  uint8_t trace_evidence_ = 0;
  // What the lines of pid -1 hold, by tid (1: profiler overhead, 2: anything else, such
  // as XPU's synchronization records): Kineto's pid of records that belong to no device.
  std::unordered_map<int64_t, uint8_t> no_device_lines_;
  KinetoArgIndex args_;
  int64_t step_number_ = 0;
  std::string details_scratch_;
  uint32_t correlation_key_ = 0;
  uint32_t kernel_details_key_ = 0;
  std::map<int64_t, Device> devices_;       // deviceProperties by id
  std::optional<int64_t> rank_, world_size_;
  std::string backend_;
  std::string trace_host_name_;
  std::optional<int64_t> base_time_ns_;
  std::map<std::string, std::string> environment_;  // plane stats of the host
  // Raw (pid, tid) of device events -> their device track, so flow points written with
  // the same pid/tid land on the same line.
  std::unordered_map<TrackKey, TrackKey, TrackKeyHash> device_tracks_by_raw_;
  // (raw pid, stream number) -> device track, for flow points that spell the stream
  // differently from the events (7 or "7" against "stream 7").
  std::unordered_map<TrackKey, TrackKey, TrackKeyHash> device_tracks_by_stream_;
  // The last keys added to the two maps above (TrackOf skips re-adding them).
  TrackKey last_device_raw_{TrackKind::kDeviceStream, 0, 0};
  TrackKey last_device_by_stream_{TrackKind::kDeviceStream, 0, 0};
  std::unordered_map<int64_t, int64_t> host_event_count_by_pid_;
  int64_t last_host_pid_ = 0;
  int64_t* last_host_count_ = nullptr;  // &host_event_count_by_pid_[last_host_pid_]
  // ROCm writes launch parameters on the runtime call, not the kernel.
  std::unordered_map<uint64_t, std::string> launch_details_by_correlation_;
  std::vector<PendingKernel> kernels_without_details_;
  // Running maximum of "Total Allocated" per allocator, in file order: the allocator's
  // peak so far, which is what TF's peak_bytes_in_use means.
  std::map<std::string, int64_t> peak_allocated_by_allocator_;
};

}  // namespace stepscope::importers
