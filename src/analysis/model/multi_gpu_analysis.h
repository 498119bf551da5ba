// The multi-GPU analysis behind multi_gpu: the checks TensorFlow's GPU performance guide does by hand on multi-GPU runs
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
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/analysis/model/launch_threads.h"
#include "src/analysis/model/profile_model.h"

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
  // Per concurrent step: first kernel begin minus the earliest device's; absent when the
  // device ran in no concurrent step.
  std::optional<double> avg_launch_skew_ms;
};

// One device's collectives of one kind.
struct MultiGpuCollectiveRow {
  std::string host;
  std::string device;
  std::string collective;  // "all_reduce", ... (CollectiveKindName)
  int64_t count = 0;
  int64_t sized = 0;         // with a known size
  int64_t ranks = 0;         // 0: unknown
  std::string ranks_source;  // "group_size", "world_size", "devices"
  double time_ms = 0;        // all of them
  double size_mb = 0;        // nccl-tests size of the sized ones, summed (1e6 B)
  double size_per_step_mb = 0;
  double algbw_gbps = 0;     // size / time of the sized ones (1e9 B/s)
  double busbw_gbps = 0;     // algbw x NCCL's bus factor
  double link_gbps = 0;      // 0: unknown
  std::string link;          // "NVLink 4 (18 links)", "option", ""
  double link_percent = 0;   // busbw / link
};

// A device is a step's straggler only when its compute exceeds the fastest device's by
// at least this share of the step time: below it the devices are balanced (a 40 us
// difference on a 20 ms step is noise, not a straggler).
inline constexpr double kStepStragglerMinPercent = 5.0;

struct MultiGpuStepRow {
  int64_t step_number = 0;
  int64_t devices = 0;
  // The devices ran the step at the same time: their work's windows overlap. When not
  // (each device numbered a different iteration the same, or one ran far behind), the
  // launch skew and the straggler are not computed for the step.
  bool concurrent = true;
  std::string straggler;  // device with the most compute; "" when balanced or not concurrent
  double max_compute_ms = 0;
  double min_compute_ms = 0;
  double imbalance_ms = 0;     // max - min compute
  double avg_collective_ms = 0;
  // Latest minus earliest first-kernel begin; absent when not concurrent (or no kernels).
  std::optional<double> launch_skew_ms;
};

struct MultiGpuResult {
  // "steps": the summary compares devices step by step; "profile": no step has work on
  // two devices (no step markers, e.g. a JAX trace), so it compares whole-profile totals.
  std::string basis = "steps";
  int64_t device_count = 0;  // devices with activity
  int64_t steps = 0;         // steps with activity on at least two devices
  std::string straggler;     // the device most often the straggler ("" when none)
  int64_t straggler_steps = 0;
  double avg_imbalance_ms = 0;
  // Over the concurrent steps; absent when no step ran on two devices at once.
  std::optional<double> avg_launch_skew_ms;
  int64_t non_concurrent_steps = 0;  // steps whose devices' work did not overlap
  double avg_step_collective_ms = 0;  // per device and step
  double collective_percent = 0;      // collectives' share of all device active time
  // Collectives' bandwidth (all devices; the sized collectives only).
  int64_t collectives = 0;        // collective kernels/ops
  int64_t sized_collectives = 0;  // with a known size
  double algbw_gbps = 0;          // total size / total time
  double busbw_gbps = 0;          // total bus bytes / total time
  double link_gbps = 0;           // slowest known link of the devices; 0 unknown
  std::string link;
  double link_percent = 0;        // busbw / link; 0 when either is unknown
  // All-reduce per device and step (steps basis; whole profile otherwise), and the guide's
  // estimate from parameter_count (0 when not given or the link is unknown).
  double all_reduce_mb_per_step = 0;
  double all_reduce_ms_per_step = 0;
  // The parameter count: ToolOptions' ("parameters"), else the all-reduce bytes per step / 4
  // ("all_reduce_bytes": fp32 gradients); "" when neither is known.
  int64_t parameter_count = 0;
  std::string estimate_basis;
  double estimated_all_reduce_ms = 0;  // parameters x 4 B / link
  // Host threads that launch and tf.data threads competing with them (launch_threads.h).
  LaunchThreadCompetition launch_threads;
  std::vector<MultiGpuDeviceRow> devices;
  std::vector<MultiGpuCollectiveRow> collective_rows;
  std::vector<MultiGpuStepRow> step_rows;
  std::vector<std::string> diagnostics;
};

// What the user may add: the link's bandwidth (instead of the table's) and the parameter
// count (the guide's all-reduce estimate); ToolOptions' link_bandwidth_gbps, parameter_count.
struct MultiGpuParams {
  std::optional<double> link_bandwidth_gbps;
  std::optional<int64_t> parameter_count;
};

// Tools read the one without params, cached: MultiGpuOf(model).
MultiGpuResult AnalyzeMultiGpu(const ProfileModel& model, const MultiGpuParams& params = {});
// Two or more devices with activity.
bool HasSeveralDevices(const ProfileModel& model);

}  // namespace stepscope::analysis
