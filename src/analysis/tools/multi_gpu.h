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
// imbalance is the spread of that time, launch skew the spread of first activity). Bytes moved by
// collectives and link bandwidth are not in these profiles (NCCL kernels carry neither),
// so no bus bandwidth is computed; the result says so in its diagnostics.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/analysis/model/profile_model.h"
#include "src/analysis/tool.h"

namespace stepscope::analysis {

struct MultiGpuDeviceRow {
  std::string host;
  std::string device;  // plane name, "/device:GPU:3"
  int64_t device_ordinal = 0;
  // Over the whole profile, steps or not.
  double kernel_ms = 0;             // kernel durations summed
  double total_collective_ms = 0;   // collective kernels/ops
  double first_kernel_offset_ms = 0;  // first activity relative to the earliest device's (same host)
  int64_t steps = 0;  // steps with activity on this device
  double avg_active_ms = 0;       // kernels + copies per step
  double avg_compute_ms = 0;      // active minus collectives
  double avg_collective_ms = 0;
  double collective_percent = 0;  // of active time
  int64_t collectives = 0;        // collective kernels/ops, all steps
  double busy_ms = 0;             // union of all activity over the profile
  int64_t straggler_steps = 0;    // steps in which this device had the most compute
  double avg_wait_ms = 0;         // per step: the straggler's compute minus this device's
  double avg_launch_skew_ms = 0;  // per step: first kernel begin minus the earliest device's
};

struct MultiGpuStepRow {
  int64_t step_number = 0;
  int64_t devices = 0;
  std::string straggler;  // device with the most compute
  double max_compute_ms = 0;
  double min_compute_ms = 0;
  double imbalance_ms = 0;     // max - min compute
  double avg_collective_ms = 0;
  double launch_skew_ms = 0;   // latest minus earliest first-kernel begin
};

struct MultiGpuResult {
  // "steps": the summary compares devices step by step; "profile": no step has work on
  // two devices (no step markers, e.g. a JAX trace), so it compares whole-profile totals.
  std::string basis = "steps";
  int64_t device_count = 0;  // devices with activity
  int64_t steps = 0;         // steps with activity on at least two devices
  std::string straggler;     // the device most often the straggler ("" when no steps)
  int64_t straggler_steps = 0;
  double avg_imbalance_ms = 0;
  double avg_launch_skew_ms = 0;
  double avg_step_collective_ms = 0;  // per device and step
  double collective_percent = 0;      // collectives' share of all device active time
  std::vector<MultiGpuDeviceRow> devices;
  std::vector<MultiGpuStepRow> step_rows;
  std::vector<std::string> diagnostics;
};

MultiGpuResult ComputeMultiGpu(const ProfileModel& model);
// Two or more devices with activity.
bool HasSeveralDevices(const ProfileModel& model);

void WriteResultJson(const MultiGpuResult& result, output::JsonWriter* writer);
std::vector<output::Table> BuildTables(const MultiGpuResult& result);
std::string FormatResultText(const MultiGpuResult& result, const ToolOptions& options);

std::unique_ptr<Tool> MakeMultiGpuTool();

}  // namespace stepscope::analysis
