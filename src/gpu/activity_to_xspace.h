// Turns what the CUPTI tracer captured (activity_records.h) into XSpace planes, in
// TensorFlow's GPU tracer conventions:
//
//   /device:GPU:<ordinal>   plane id 1 + ordinal; plane stats clock_rate (kHz), core_count
//                           (SMs), memory_bandwidth (B/s), memory_size (B),
//                           compute_cap_major/minor, device_vendor "Nvidia",
//                           gpu_device_name, dropped_traces (records CUPTI lost), tracer
//                           "cupti".
//     line per stream       id = CUDA stream id, name "Stream #<id>(<kinds>)" where kinds
//                           are the work seen on it in the order Compute, MemcpyH2D,
//                           MemcpyD2H, MemcpyD2D, MemcpyP2P, MemcpyH2H, Memset.
//       kernels             named by the (demangled) kernel; stats correlation_id,
//                           context_id, kernel_details "regs:R static_shared:S
//                           dynamic_shared:D grid:X,Y,Z block:X,Y,Z[ occ_pct:P]", and
//                           annotation: the innermost host annotation open on the
//                           launching thread at the launch (step markers skipped; NVTX
//                           ranges count as annotations), which analysis takes as the
//                           kernel's op. Kernels of a CUDA graph add cuda_graph_id and
//                           cuda_graph_node_id.
//       copies / memsets    named MemcpyH2D, MemcpyD2H, MemcpyD2D, MemcpyP2P, MemcpyH2H,
//                           Memset; stats correlation_id, context_id, memcpy_details
//                           "kind_src:<k> kind_dst:<k> size:<bytes> async:<0|1>" (memsets:
//                           Memset_details "num_bytes:<bytes> kind:<k> async:<0|1>").
//     line _counters_       (id INT64_MAX) sampled device counters, when any: one event
//                           per sample, named by the counter, with a double `value` stat.
//   /host:CPU               each launch/copy API call becomes an event on its thread's
//                           line (id = OS thread id) with correlation_id and device_id, so
//                           analysis ties a kernel to the step and op around its launch; a
//                           graph launch (cudaGraphLaunch, cuGraphLaunch) adds
//                           cuda_graph_id and graph_kernels (the kernels it ran in the
//                           window). NVTX ranges become events on their thread's line,
//                           named by the range, with nvtx_domain when not the default.
//   /host:CUPTI-activity    synchronisation and CUPTI overhead records, one line each.
//
// Times: every record is on the host monotonic clock already; events are written
// relative to the session start, like the host plane. Window rule: a record is kept iff it
// starts inside [start, stop] of the session (GPU work issued before stop may end after
// it); records that end before they start are dropped as malformed. Events on a line are
// in start order (CUPTI delivers by completion). Lost records are counted on each device's
// plane and reported as one XSpace warning.
#pragma once

#include <cstdint>
#include <string_view>

#include "src/gpu/activity_records.h"
#include "src/xspace/xplane.h"

namespace stepscope::gpu {

inline constexpr std::string_view kCuptiActivityPlaneName = "/host:CUPTI-activity";
inline constexpr std::string_view kValueStatName = "value";
inline constexpr std::string_view kCudaGraphIdStatName = "cuda_graph_id";
inline constexpr std::string_view kCudaGraphNodeIdStatName = "cuda_graph_node_id";
inline constexpr std::string_view kGraphKernelsStatName = "graph_kernels";
inline constexpr std::string_view kNvtxDomainStatName = "nvtx_domain";

struct ConversionStats {
  uint64_t device_events = 0;   // kernels, copies, memsets written to device planes
  uint64_t api_events = 0;      // API calls written to /host:CPU
  uint64_t nvtx_events = 0;     // NVTX ranges written to /host:CPU
  uint64_t outside_window = 0;  // records dropped by the window rule
  uint64_t malformed = 0;       // records ending before they start
  uint64_t dropped_records = 0; // records CUPTI lost (all devices)
};

// Adds the capture's planes and events to `space` (the /host:CPU plane is created when
// missing; API events go onto existing thread lines, merged in time order).
ConversionStats AddCaptureToXSpace(const ActivityCapture& capture, uint64_t session_start_ns,
                                   uint64_t session_stop_ns, xspace::XSpace* space);

}  // namespace stepscope::gpu
