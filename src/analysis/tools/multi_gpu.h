// multi_gpu: the checks TensorFlow's GPU performance guide does by hand on multi-GPU runs
// (https://www.tensorflow.org/guide/gpu_performance_analysis), per device and step:
//   - how long each device is busy per step, and which device is the straggler: the one
//     with the most non-collective work in a step; the others wait for it (in their
//     collectives) about the difference;
//   - collectives (NCCL/RCCL kernels, XLA/TF all-reduce, all-gather, reduce-scatter, ...):
//     time and count per step and their share of device time;
//   - launch skew: how much later one device starts its first kernel of a step than the
//     earliest device (relative to each host's own step start in multi-host models).
// Works on any model with two or more active devices: several GPUs of one host (our
// profiles, TensorFlow's and JAX's files) or several hosts/ranks combined.
//
// Figures come from DeviceActivity::step_activity (events tied to steps); a profile whose
// device work is in no step (no step markers) is compared on whole-profile totals instead
// (summary.basis "profile": the straggler has the most non-collective kernel time, the
// imbalance is the spread of that time, launch skew the spread of first activity).
//
// Collectives' bandwidth: where the profile says what a collective moved (PyTorch's
// record_param_comms / nccl:<collective> scopes, Kineto's NCCL kernel args;
// model/collective_message.h), its size, algorithm bandwidth (size / time) and bus
// bandwidth (NCCL's factors) per device and kind, against the link's bandwidth (ToolOptions
// or the table in link_bandwidth.h): "collectives reach X % of link bandwidth". With
// ToolOptions::parameter_count, the guide's estimate of an all-reduce per step,
// parameters x 4 B / link bandwidth, next to the measured all-reduce time per step.
//
// The analysis is the model's (src/analysis/model/multi_gpu_analysis.h, derived once per
// model and also read by the advisor); this file presents it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/analysis/model/multi_gpu_analysis.h"
#include "src/analysis/model/profile_model.h"
#include "src/analysis/tool.h"

namespace stepscope::analysis {


// The model's multi-GPU analysis (MultiGpuOf) without a link bandwidth or parameter count in
// `options`; computed with them otherwise.
MultiGpuResult ComputeMultiGpu(const ProfileModel& model, const ToolOptions& options = {});

void WriteResultJson(const MultiGpuResult& result, output::JsonWriter* writer);
std::vector<output::Table> BuildTables(const MultiGpuResult& result);
std::string FormatResultText(const MultiGpuResult& result, const ToolOptions& options);

std::unique_ptr<Tool> MakeMultiGpuTool();

}  // namespace stepscope::analysis
