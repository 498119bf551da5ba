// The CUPTI device tracer (built only when CMake finds the CUDA toolkit; see
// docs/gpu.md). It records, for a session whose device_tracer_level > 0:
//   - activity records: kernels (grid, block, registers, shared memory), copies (kind,
//     bytes, memory kinds), memsets, synchronisation and CUPTI overhead, per device and
//     stream, stamped on the host's monotonic clock (cuptiActivityRegisterTimestampCallback);
//   - callbacks on the runtime and driver API calls that launch, copy or set memory (the
//     outermost call on a thread only), with their correlation ids and thread ids;
//   - each device's capabilities and the records CUPTI lost to full buffers.
// It turns them into planes with activity_to_xspace.h. No driver, no GPU, or a profiling
// permission error make Start() fail with one line saying why and what fixes it; the
// session then profiles the host alone and keeps that line as a warning.
#pragma once

#include <memory>

#include "src/collect/tracer.h"

namespace stepscope::gpu {

// nullptr when options.device_tracer_level == 0.
std::unique_ptr<collect::Tracer> MakeCuptiTracer(const ProfileOptions& options);

// Registers MakeCuptiTracer with collect's tracer registry (idempotent). Programs that
// link stepscope::gpu get this at start-up (register_cupti_tracer.cc).
void RegisterCuptiTracer();

}  // namespace stepscope::gpu
