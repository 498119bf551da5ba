// The seam between CUPTI and the XSpace conversion: plain records, no CUDA types.
//
// The CUPTI tracer (cupti_tracer.cc, built only with CUDA) copies each CUPTI activity
// record and each runtime/driver API callback into these structs, with every timestamp
// already on the host's monotonic clock (the clock of the /host:CPU plane). The
// conversion (activity_to_xspace.h) sees only these, so tests replay synthesised captures
// (several streams, overlapping copies, out-of-order completion, dropped records) in a
// build without CUDA and check the planes exactly.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace stepscope::gpu {

enum class ActivityKind : uint8_t { kKernel, kMemcpy, kMemset, kSynchronization, kOverhead };

// Direction of a copy, CUPTI_ACTIVITY_MEMCPY_KIND_* (array copies folded into their ends).
enum class CopyKind : uint8_t { kUnknown, kHostToDevice, kDeviceToHost, kDeviceToDevice, kHostToHost, kPeerToPeer };

// One finished piece of GPU work (or CUPTI's own bookkeeping), as CUPTI reports it.
struct ActivityRecord {
  ActivityKind kind = ActivityKind::kKernel;
  std::string name;         // kernel name (demangled); sync type / overhead kind otherwise
  uint64_t start_ns = 0;    // host monotonic clock
  uint64_t end_ns = 0;
  uint32_t device_id = 0;   // CUDA device ordinal
  uint32_t context_id = 0;
  uint32_t stream_id = 0;
  uint32_t correlation_id = 0;  // of the API call that issued it; 0 when none
  // Kernels.
  std::array<int32_t, 3> grid{1, 1, 1};
  std::array<int32_t, 3> block{1, 1, 1};
  int32_t registers_per_thread = 0;
  int32_t static_shared_bytes = 0;
  int32_t dynamic_shared_bytes = 0;
  double occupancy_pct = 0.0;  // 0 when not computed
  // CUDA graphs: the graph and node of a kernel launched by cudaGraphLaunch (CUPTI's
  // graphId / graphNodeId); 0 otherwise. Its correlation_id is the graph launch's.
  uint32_t graph_id = 0;
  uint64_t graph_node_id = 0;
  // Copies and memsets.
  CopyKind copy_kind = CopyKind::kUnknown;
  std::string src_kind;  // CUPTI memory kind: "pageable", "pinned", "device", "array", "managed"
  std::string dst_kind;  // (memsets: the memory kind set)
  uint64_t bytes = 0;
  bool async = true;     // CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC / MEMSET_ASYNC
};

// One CUDA runtime or driver API call that launched or copied (the host side of a
// correlation), recorded by the callback API on the calling thread.
struct ApiCallRecord {
  std::string name;  // "cudaLaunchKernel", "cuMemcpyHtoDAsync_v2", ...
  uint64_t start_ns = 0;  // host monotonic clock
  uint64_t end_ns = 0;
  int64_t thread_id = 0;  // OS thread id (the /host:CPU line id)
  uint32_t correlation_id = 0;
  uint32_t device_id = 0;
};

// What the tracer knows of a device (cuDeviceGetAttribute), written as plane stats.
struct DeviceInfo {
  uint32_t ordinal = 0;
  std::string name;  // "NVIDIA H100 80GB HBM3"
  int64_t clock_rate_khz = 0;
  int64_t core_count = 0;  // multiprocessors
  int64_t memory_bandwidth_bytes_per_s = 0;
  int64_t memory_size_bytes = 0;
  int64_t compute_cap_major = 0;
  int64_t compute_cap_minor = 0;
  uint64_t dropped_records = 0;  // activity records CUPTI lost for this device (full buffers)
};

// A sampled device counter (NVML): one value at one time.
struct CounterSample {
  uint32_t device_id = 0;
  std::string name;  // "sm_utilization_pct", "memory_used_bytes", ...
  uint64_t time_ns = 0;  // host monotonic clock
  double value = 0.0;
};

// An NVTX range (nvtxRangePush/Pop or nvtxRangeStart/End, CUPTI's marker records) on the
// host thread that opened it.
struct NvtxRange {
  std::string name;
  std::string domain;     // empty for NVTX's default domain
  uint64_t start_ns = 0;  // host monotonic clock
  uint64_t end_ns = 0;
  int64_t thread_id = 0;  // OS thread id (the /host:CPU line id)
};

// Everything one session recorded on the GPUs.
struct ActivityCapture {
  std::vector<DeviceInfo> devices;
  std::vector<ActivityRecord> activities;  // in any order (CUPTI delivers by completion)
  std::vector<ApiCallRecord> api_calls;    // in any order
  std::vector<CounterSample> counters;
  std::vector<NvtxRange> nvtx_ranges;      // in any order
  uint64_t dropped_records_unattributed = 0;  // lost records no device could be named for
};

}  // namespace stepscope::gpu
