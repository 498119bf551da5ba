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

// ---- The result's declaration (output/schema.h): its JSON, tables, TypeScript and docs. ----
// The model's structs (model/multi_gpu_analysis.h) as this tool presents them.

namespace multi_gpu_fields {
inline constexpr output::FieldInfo kHost{.label = "Host"};
inline constexpr output::FieldInfo kDevice{.label = "Device", .description = "the device's plane, `/device:GPU:3`"};
}  // namespace multi_gpu_fields

constexpr auto DescribeRecord(std::type_identity<MultiGpuDeviceRow>) {
  using R = MultiGpuDeviceRow;
  namespace f = multi_gpu_fields;
  return output::Record(
      "MultiGpuDeviceRow", output::Field("host", &R::host, f::kHost), output::Field("device", &R::device, f::kDevice),
      output::Field("steps", &R::steps, {.label = "Steps", .unit = "count", .description = "steps with activity on it"}),
      output::Field("avg_active_ms", &R::avg_active_ms,
                    {.label = "Active (ms)", .unit = "ms",
                     .description = "per step: kernels + copies, overlapping streams add up", .decimals = 3}),
      output::Field("avg_compute_ms", &R::avg_compute_ms,
                    {.label = "Compute (ms)", .unit = "ms", .description = "active minus collectives", .decimals = 3}),
      output::Field("avg_collective_ms", &R::avg_collective_ms,
                    {.label = "Collectives (ms)", .unit = "ms", .description = "per step", .decimals = 3}),
      output::Field("collective_percent", &R::collective_percent,
                    {.label = "Coll. %", .unit = "%", .description = "of its active time", .decimals = 1}),
      output::Field("collectives", &R::collectives,
                    {.label = "Coll. ops", .unit = "count", .description = "collective kernels/ops, all steps"}),
      output::Field("busy_ms", &R::busy_ms,
                    {.label = "Busy (ms)", .unit = "ms", .description = "union of all its activity in the profile",
                     .decimals = 3}),
      output::Field("straggler_steps", &R::straggler_steps,
                    {.label = "Slowest in", .unit = "count", .description = "steps in which it had the most compute"}),
      output::Field("avg_wait_ms", &R::avg_wait_ms,
                    {.label = "Waits (ms)", .unit = "ms",
                     .description = "per step: the straggler's compute minus its own, about how long it waits in "
                                    "the collective",
                     .decimals = 3}),
      output::Field("avg_launch_skew_ms", &R::avg_launch_skew_ms,
                    {.label = "Launch skew (ms)", .unit = "ms",
                     .description = "per concurrent step: its first kernel minus the earliest device's; null when it "
                                    "ran in no concurrent step",
                     .decimals = 3}),
      output::Field("kernel_ms", &R::kernel_ms,
                    {.label = "All kernels (ms)", .unit = "ms", .description = "over the whole profile", .decimals = 3}),
      output::Field("total_collective_ms", &R::total_collective_ms,
                    {.label = "All collectives (ms)", .unit = "ms", .description = "over the whole profile",
                     .decimals = 3}),
      output::Field("first_kernel_offset_ms", &R::first_kernel_offset_ms,
                    {.label = "Starts after (ms)", .unit = "ms",
                     .description = "its first activity after the earliest device's on the same host", .decimals = 3}));
}

constexpr auto DescribeRecord(std::type_identity<MultiGpuStepRow>) {
  using R = MultiGpuStepRow;
  return output::Record(
      "MultiGpuStepRow", output::Field("step_number", &R::step_number, {.label = "Step"}),
      output::Field("devices", &R::devices, {.label = "Devices", .unit = "count"}),
      output::Field("concurrent", &R::concurrent,
                    {.label = "Ran together",
                     .description = "the devices' work windows overlap; when not, the step has no launch skew and no "
                                    "straggler"}),
      output::Field("straggler", &R::straggler,
                    {.label = "Straggler", .description = "the device with the most compute; empty when balanced"}),
      output::Field("max_compute_ms", &R::max_compute_ms, {.label = "Max compute (ms)", .unit = "ms", .decimals = 3}),
      output::Field("min_compute_ms", &R::min_compute_ms, {.label = "Min compute (ms)", .unit = "ms", .decimals = 3}),
      output::Field("imbalance_ms", &R::imbalance_ms,
                    {.label = "Imbalance (ms)", .unit = "ms", .description = "max - min compute", .decimals = 3}),
      output::Field("avg_collective_ms", &R::avg_collective_ms,
                    {.label = "Collectives (ms)", .unit = "ms", .description = "per device", .decimals = 3}),
      output::Field("launch_skew_ms", &R::launch_skew_ms,
                    {.label = "Launch skew (ms)", .unit = "ms",
                     .description = "latest minus earliest first kernel; null when not concurrent", .decimals = 3}));
}

constexpr auto DescribeRecord(std::type_identity<MultiGpuCollectiveRow>) {
  using R = MultiGpuCollectiveRow;
  namespace f = multi_gpu_fields;
  return output::Record(
      "MultiGpuCollectiveRow", output::Field("host", &R::host, f::kHost),
      output::Field("device", &R::device, f::kDevice),
      output::Field("collective", &R::collective,
                    {.label = "Collective",
                     .description = "`all_reduce`, `all_gather`, `reduce_scatter`, `all_to_all`, `broadcast`, "
                                    "`reduce`, `send_recv` or `other`"}),
      output::Field("count", &R::count, {.label = "Count", .unit = "count"}),
      output::Field("sized", &R::sized, {.label = "With size", .unit = "count", .description = "with a known size"}),
      output::Field("ranks", &R::ranks, {.label = "Ranks", .unit = "count", .description = "0: unknown"}),
      output::Field("ranks_source", &R::ranks_source,
                    {.label = "Ranks from",
                     .description = "`group_size`: the event's \"Group size\"; `world_size`: the profile's "
                                    "distributedInfo; `devices`: GPUs of the host"}),
      output::Field("time_ms", &R::time_ms, {.label = "Time (ms)", .unit = "ms", .description = "all of them",
                                             .decimals = 3}),
      output::Field("size_mb", &R::size_mb,
                    {.label = "Size (MB)", .unit = "MB",
                     .description = "nccl-tests' size of the sized ones (all-reduce buffer, all-gather output, "
                                    "reduce-scatter input, all-to-all send buffer), 1e6 B",
                     .decimals = 1}),
      output::Field("size_per_step_mb", &R::size_per_step_mb, {.label = "Size/step (MB)", .unit = "MB", .decimals = 1}),
      output::Field("algbw_gbps", &R::algbw_gbps,
                    {.label = "Alg. BW (GB/s)", .unit = "GB/s", .description = "size / time of the sized ones"}),
      output::Field("busbw_gbps", &R::busbw_gbps,
                    {.label = "Bus BW (GB/s)", .unit = "GB/s",
                     .description = "algorithm bandwidth x NCCL's bus factor: 2(n-1)/n all-reduce, (n-1)/n all-gather "
                                    "/ reduce-scatter / all-to-all, 1 otherwise"}),
      output::Field("link_gbps", &R::link_gbps,
                    {.label = "Link (GB/s)", .unit = "GB/s", .description = "0: unknown", .decimals = 0}),
      output::Field("link", &R::link,
                    {.label = "Link", .description = "`NVLink 4 (18 links)`, `option` (given), empty when unknown"}),
      output::Field("link_percent", &R::link_percent,
                    {.label = "Of link %", .unit = "%", .description = "bus bandwidth / link", .decimals = 1}));
}

// The result's figures over all devices (its "summary" object): the result's own members,
// written apart from its tables.
struct MultiGpuSummary {
  const MultiGpuResult* result = nullptr;
};

namespace multi_gpu_fields {
// A summary field: the result's member `member`.
template <typename V>
constexpr auto Summary(std::string_view id, V MultiGpuResult::*member, output::FieldInfo info = {}) {
  return output::Computed<MultiGpuSummary>(
      id, [member](const MultiGpuSummary& s) -> const V& { return s.result->*member; }, info);
}
// A summary field from the launch threads' figures.
template <typename V>
constexpr auto Threads(std::string_view id, V LaunchThreadCompetition::*member, output::FieldInfo info = {}) {
  return output::Computed<MultiGpuSummary>(
      id, [member](const MultiGpuSummary& s) -> const V& { return s.result->launch_threads.*member; }, info);
}
}  // namespace multi_gpu_fields

constexpr auto DescribeRecord(std::type_identity<MultiGpuSummary>) {
  using R = MultiGpuResult;
  using multi_gpu_fields::Summary;
  using multi_gpu_fields::Threads;
  using T = LaunchThreadCompetition;
  return output::Record(
      "MultiGpuSummary",
      Summary("basis", &R::basis,
                    {.description = "`steps`, or `profile` when no step has work on two devices (no step markers): "
                                    "the devices are then compared on whole-profile totals (straggler: most kernel "
                                    "time without collectives; imbalance: the spread of that time; launch skew: the "
                                    "spread of first activity; `avg_step_collective_ms` 0)"}),
      Summary("device_count", &R::device_count, {.unit = "count", .description = "devices with activity"}),
      Summary("steps", &R::steps, {.unit = "count", .description = "steps with activity on at least two devices"}),
      Summary("straggler", &R::straggler,
                    {.description = "the device with the most compute in the most steps (`host:plane` when several "
                                    "hosts); a device is a step's straggler only when its compute exceeds the "
                                    "fastest's by at least 5 % of the step time, so empty when balanced"}),
      Summary("straggler_steps", &R::straggler_steps, {.unit = "count"}),
      Summary("non_concurrent_steps", &R::non_concurrent_steps,
                    {.unit = "count",
                     .description = "steps whose devices' work windows (each on its host's clock from its step start) "
                                    "do not overlap: no launch skew and no straggler for them"}),
      Summary("avg_imbalance_ms", &R::avg_imbalance_ms,
                    {.unit = "ms", .description = "slowest minus fastest device's compute, per step"}),
      Summary("avg_launch_skew_ms", &R::avg_launch_skew_ms,
                    {.unit = "ms",
                     .description = "latest minus earliest first kernel of a step, each from its own host's step "
                                    "start, over the concurrent steps; null when none"}),
      Summary("avg_step_collective_ms", &R::avg_step_collective_ms,
                    {.unit = "ms", .description = "per device and step"}),
      Summary("collective_percent", &R::collective_percent,
                    {.unit = "%", .description = "collectives' share of all device active time"}),
      Summary("collectives", &R::collectives, {.unit = "count", .description = "collective kernels/ops"}),
      Summary("sized_collectives", &R::sized_collectives, {.unit = "count", .description = "with a known size"}),
      Summary("algbw_gbps", &R::algbw_gbps,
                    {.unit = "GB/s", .description = "all devices' sized collectives: total size / total time"}),
      Summary("busbw_gbps", &R::busbw_gbps, {.unit = "GB/s", .description = "total bus bytes / total time"}),
      Summary("link_gbps", &R::link_gbps,
                    {.unit = "GB/s", .description = "the slowest known link of the devices; 0 unknown"}),
      Summary("link", &R::link, {.description = "that link; empty when unknown"}),
      Summary("link_percent", &R::link_percent,
                    {.unit = "%", .description = "bus bandwidth / link; 0 when either is unknown"}),
      Summary("all_reduce_mb_per_step", &R::all_reduce_mb_per_step,
                    {.unit = "MB", .description = "per device and step (whole profile with basis `profile`)"}),
      Summary("all_reduce_ms_per_step", &R::all_reduce_ms_per_step, {.unit = "ms", .description = "the same"}),
      Summary("parameter_count", &R::parameter_count,
                    {.unit = "count",
                     .description = "`--parameters N`, else the measured all-reduce bytes per step / 4; 0 when "
                                    "neither is known"}),
      Summary("estimate_basis", &R::estimate_basis,
                    {.description = "`parameters` (given), `all_reduce_bytes` (fp32 gradients) or empty"}),
      Summary("estimated_all_reduce_ms", &R::estimated_all_reduce_ms,
                    {.unit = "ms",
                     .description = "the guide's parameters x 4 B / link bandwidth; 0 when the link is unknown"}),
      Threads("launch_threads_measured", &T::measured,
                          {.description = "a single-host model with host threads"}),
      Threads("launch_threads", &T::launch_threads,
                          {.unit = "count", .description = "host threads with launches"}),
      Threads("input_threads", &T::input_threads,
                          {.unit = "count", .description = "`tf_data*` threads"}),
      Threads("gpu_private_threads", &T::gpu_private_threads,
                          {.unit = "count", .description = "`tf_gpu_private*` threads"}),
      Threads("launch_input_overlap_ms", &T::overlap_ms,
                          {.unit = "ms", .description = "launch threads busy while tf.data threads are"}),
      Threads("launch_input_overlap_percent", &T::overlap_percent,
                          {.unit = "%", .description = "of the launch threads' busy time"}));
}

constexpr auto DescribeRecord(std::type_identity<MultiGpuResult>) {
  using R = MultiGpuResult;
  return output::Record(
      "MultiGpuResult", output::Constant("tool", "multi_gpu"),
      output::Computed<R>("summary", [](const R& r) { return MultiGpuSummary{&r}; },
                          {.description = "over all devices"}),
      output::TableField("devices", &R::devices, "Per device (averages over steps)",
                         {.description = "per device: averages over the steps it ran in, and figures over the whole "
                                         "profile"}),
      output::TableField("steps", &R::step_rows, "Per step", {.description = "per step compared"}),
      output::TableField("collectives", &R::collective_rows, "Collectives: size and bandwidth (sized ones)",
                         {.description = "per device and collective kind"}),
      output::Field("diagnostics", &R::diagnostics,
                    {.description = "fewer than two devices, no steps shared, no collectives; collectives without a "
                                    "size; link bandwidth unknown"}));
}

std::string FormatResultText(const MultiGpuResult& result, const ToolOptions& options);

std::unique_ptr<Tool> MakeMultiGpuTool();

}  // namespace stepscope::analysis
