// Phase 2 of the model: device planes (/device:GPU:N, TPU, custom devices).
//
// Per device: capabilities (plane stats), per-stream activity, copies by direction with
// bytes (memcpy_details), kernels with launch parameters (kernel_details), the device op
// table, and for the breakdown: device step markers and one span per kernel / copy whose
// step group is known - from its group_id stat or, through correlation_id, from the host
// event that launched it. Device step markers are the `Steps` line's events (files TF
// grouped); a GPU plane without that line gets them derived as XProf's
// DeriveStepEventsFromGroups does: each run of consecutive events (in time order over all
// streams) of one group is one marker from its first begin to its last end. Derived
// lines (TensorFlow Ops, Name Scope, XLA Ops, ...) are not activity and are skipped.
//
// Classification (XProf ClassifyGpuEvent; docs/model.md): H2D copies -> kHostToDevice,
// D2H -> kDeviceToHost, D2D / P2P -> kDeviceToDevice, names starting with "nccl"
// (any case) -> kDeviceCollectives, everything else compute, 16-bit when the shape stat
// (or, without one, the name) says half / fp16 / bfloat16.
#pragma once

#include <cstdint>
#include <vector>

#include "src/analysis/model/model_builder.h"
#include "src/xspace/columnar/columnar_xspace.h"

namespace stepscope::analysis::internal {

void AnalyzeDevices(const xspace::ColumnarXSpace& space, const std::vector<uint32_t>& device_planes,
                    HostAnalysis* host, DeviceAnalysis* out);

}  // namespace stepscope::analysis::internal
