// The generations of PyTorch's profiler JSON (src/importers/testing/kineto_generations.h)
// through the model and the tools: device work launched inside a ProfilerStep on the
// thread that marks the steps is tied to that step; the DataLoader keeps its name and is
// the step's input wait; ATen ops are PyTorch ops; self times are key_averages()'s.
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <iostream>
#include <utility>
#include <vector>
#include <map>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/tools/framework_op_stats.h"
#include "src/analysis/tools/input_pipeline.h"
#include "src/importers/importer_registry.h"
#include "src/importers/testing/kineto_generations.h"
#include "src/xspace/schema.h"

namespace stepscope::golden {
namespace {

using analysis::EventType;
using analysis::ProfileModel;

xspace::XSpace Import(std::string_view generation) {
  xspace::XSpace space;
  importers::ImportStats stats;
  Status imported =
      importers::ImportTraceBytes(importers::testing::KinetoGenerationNamed(generation).json, {}, &space, &stats);
  EXPECT_TRUE(imported.ok()) << imported.ToString();
  return space;
}

ProfileModel Build(std::string_view generation) {
  StatusOr<ProfileModel> model = analysis::BuildProfileModelFromXSpace(Import(generation));
  EXPECT_TRUE(model.ok()) << model.status().ToString();
  return model.ok() ? std::move(*model) : ProfileModel();
}

// The count in "N device events could not be tied to a step", 0 when the model says nothing.
int64_t UntiedDeviceEvents(const ProfileModel& model) {
  for (const std::string& d : model.diagnostics) {
    if (d.find("device events could not be tied to a step") != std::string::npos) return std::atoll(d.c_str());
  }
  return 0;
}

const analysis::KernelStats* FindKernel(const ProfileModel& model, std::string_view name) {
  for (const analysis::KernelStats& k : model.kernels) {
    if (k.kernel_name == name) return &k;
  }
  return nullptr;
}

// PyTorch 1.9: six device events, five launched on the main thread inside ProfilerStep#5
// (copy, conv, add, memset, peer copy); one by the autograd thread, which marks no step and
// is tied by the step-window rule (its launch lies inside the step's window).
TEST(KinetoGenerationsModelTest, PyTorch19MainThreadLaunchesAreTiedToTheirStep) {
  ProfileModel model = Build("pytorch_1_9");
  ASSERT_EQ(model.steps.size(), 1u);
  const analysis::StepInfo& step = model.steps[0];
  EXPECT_EQ(step.step_number, 5);
  EXPECT_EQ(step.duration_ps, 200'000'000);
  EXPECT_TRUE(step.has_device_activity);
  EXPECT_EQ(UntiedDeviceEvents(model), 0);
  EXPECT_EQ(model.device_step_ties.by_launch, 5);
  EXPECT_EQ(model.device_step_ties.by_launch_window, 1);
  EXPECT_EQ(model.device_step_ties.untied(), 0);
  // Each kernel is attributed to the ATen op around its launch (by correlation id).
  const analysis::KernelStats* conv = FindKernel(model, "implicit_convolve_sgemm");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->op_name, "aten::conv2d");
  // The zero-length kernel is a kernel (kept and counted, with 0 time) and a device op
  // occurrence of the ATen op that launched it.
  const analysis::KernelStats* add = FindKernel(model, "vectorized_elementwise_kernel");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->occurrences, 1);
  EXPECT_EQ(add->total_duration_ps, 0);
  bool add_found = false;
  for (const analysis::OpMetrics& op : model.device_ops.ops) {
    if (op.name != "aten::add_") continue;
    add_found = true;
    EXPECT_EQ(op.occurrences, 1);
    EXPECT_EQ(op.total_time_ps, 0);
  }
  EXPECT_TRUE(add_found);
}

TEST(KinetoGenerationsModelTest, EveryGenerationWithStepsTiesItsMainThreadLaunches) {
  // Generation -> (steps, device events launched from threads without a step marker, tied
  // by the step-window rule). Every device event has its launch inside the step: none untied.
  const std::map<std::string_view, std::pair<size_t, int64_t>> expected = {
      {"pytorch_1_9", {1, 1}}, {"pytorch_1_10", {1, 1}}, {"pytorch_1_12", {1, 1}}, {"pytorch_2", {1, 1}},
      {"rocm", {1, 0}},        {"cuda_graph", {1, 0}},   {"display_ns", {1, 0}},
  };
  for (const auto& [generation, truth] : expected) {
    ProfileModel model = Build(generation);
    EXPECT_EQ(model.steps.size(), truth.first) << generation;
    EXPECT_EQ(model.device_step_ties.untied(), 0) << generation;
    EXPECT_EQ(UntiedDeviceEvents(model), 0) << generation;
    EXPECT_EQ(model.device_step_ties.by_launch_window, truth.second) << generation;
  }
}

// The truth of a step's device compute, computed from the imported events without the
// model: the union of the device planes' compute events (kernels, memsets; not copies, not
// collectives) clipped to the step. Derived lines (annotations projected on device time)
// and sync lines (waits, xspace::IsDeviceInfoLineName) are not device work. Device compute
// outranks every other category in the breakdown (XProf's order), so the model's compute
// time must be exactly this union.
enum class DeviceWork { kCompute, kCollective };

int64_t DeviceUnionPs(const xspace::XSpace& space, DeviceWork work, int64_t begin_ps, int64_t end_ps) {
  std::vector<std::pair<int64_t, int64_t>> spans;
  for (const xspace::XPlane& plane : space.planes()) {
    if (plane.name().rfind("/device:", 0) != 0) continue;
    for (const xspace::XLine& line : plane.lines()) {
      if (xspace::IsDerivedLineName(line.name()) || xspace::IsDeviceInfoLineName(line.name())) continue;
      const int64_t line_ps = line.timestamp_ns() * 1000;
      for (const xspace::XEvent& event : line.events()) {
        const std::string& name = plane.event_metadata().at(event.metadata_id()).name();
        const bool copy = name.find("emcpy") != std::string::npos || name.find("Memcpy") != std::string::npos;
        const bool collective = name.rfind("nccl", 0) == 0 || name.rfind("rccl", 0) == 0;
        if (copy || collective != (work == DeviceWork::kCollective)) continue;
        const int64_t b = std::max(line_ps + event.offset_ps(), begin_ps);
        const int64_t e = std::min(line_ps + event.offset_ps() + event.duration_ps(), end_ps);
        if (e > b) spans.emplace_back(b, e);
      }
    }
  }
  std::sort(spans.begin(), spans.end());
  int64_t total = 0, covered_to = INT64_MIN;
  for (const auto& [b, e] : spans) {
    const int64_t from = std::max(b, covered_to);
    if (e > from) total += e - from;
    covered_to = std::max(covered_to, e);
  }
  return total;
}

// Per generation: the step's breakdown categories add up to the step time, and device
// compute is the device's busy time in the step (not a remainder). Prints one table row
// per generation (ctest -V) for the issue's closing note.
TEST(KinetoGenerationsModelTest, EveryGenerationsDeviceComputeIsTheDevicesBusyTime) {
  size_t steps_checked = 0;
  for (const importers::testing::KinetoGeneration& generation : importers::testing::KinetoGenerations()) {
    const xspace::XSpace space = Import(generation.name);
    StatusOr<ProfileModel> model = analysis::BuildProfileModelFromXSpace(space);
    ASSERT_TRUE(model.ok()) << generation.name << ": " << model.status().ToString();
    for (const analysis::StepInfo& step : model->steps) {
      const analysis::StepBreakdown& b = step.breakdown;
      ++steps_checked;
      EXPECT_EQ(b.total_ps(), step.duration_ps) << generation.name;
      // The model's times are relative to the profile start; the XSpace's lines start there
      // too (importers write line timestamp 0 and offsets from the origin).
      const int64_t end_ps = step.begin_ps + step.duration_ps;
      const int64_t truth = DeviceUnionPs(space, DeviceWork::kCompute, step.begin_ps, end_ps);
      const int64_t compute = b.ps(EventType::kDeviceCompute32) + b.ps(EventType::kDeviceCompute16);
      EXPECT_EQ(compute, truth) << generation.name << " step " << step.step_number;
      EXPECT_GT(truth, 0) << generation.name;
      // Collectives rank below compute and the host's input wait (XProf's order): they get
      // their time where neither covers it, and only then.
      const int64_t collectives_truth = DeviceUnionPs(space, DeviceWork::kCollective, step.begin_ps, end_ps);
      EXPECT_LE(b.ps(EventType::kDeviceCollectives), collectives_truth) << generation.name;
      EXPECT_EQ(b.ps(EventType::kDeviceCollectives) > 0, collectives_truth > 0) << generation.name;
      std::cout << "generation " << generation.name << " step " << step.step_number << ": step "
                << step.duration_ps / 1e6 << " us, device compute " << compute / 1e6 << " us (truth " << truth / 1e6
                << " us), collectives " << b.ps(EventType::kDeviceCollectives) / 1e6 << " us (nccl kernels "
                << collectives_truth / 1e6 << " us), input " << b.category_ps(analysis::TimeCategory::kInput) / 1e6 << " us, launch "
                << b.category_ps(analysis::TimeCategory::kKernelLaunch) / 1e6 << " us, host compute "
                << b.category_ps(analysis::TimeCategory::kHostCompute) / 1e6 << " us, unknown "
                << b.ps(EventType::kUnknownTime) / 1e6 << " us; device events tied by launch "
                << model->device_step_ties.by_launch << ", by launch window " << model->device_step_ties.by_launch_window
                << ", untied " << model->device_step_ties.untied() << "\n";
    }
  }
  // Every generation but the legacy exporter (which writes no step markers) has one step.
  EXPECT_EQ(steps_checked, importers::testing::KinetoGenerations().size() - 1);
}

// A torch.compile'd bf16 step recorded with record_shapes: Inductor's Triton kernels name
// no type, but each launch is wrapped in a record function of the kernel's name whose
// "Input type" lists the kernel's tensors. A kernel counts as 16-bit compute when its name
// says so (the bf16 GEMM) or when every floating-point input of its launching op is Half or
// BFloat16 (the bf16 Triton kernel); a float Triton kernel, and one launched by an op whose
// types were not recorded, stay 32-bit.
constexpr std::string_view kCompiledBf16Step = R"json({"schemaVersion": 1, "traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 7, "tid": 7, "ts": 1000, "dur": 1000,
   "args": {"External id": 1}},
  {"ph": "X", "cat": "user_annotation", "name": "CompiledFunction", "pid": 7, "tid": 7, "ts": 1010, "dur": 400,
   "args": {"External id": 2}},
  {"ph": "X", "cat": "cpu_op", "name": "triton_poi_fused_add_mul_0", "pid": 7, "tid": 7, "ts": 1030, "dur": 10,
   "args": {"External id": 3, "Input Dims": [[4, 256], [4, 256], [4, 256], []],
            "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar"]}},
  {"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "pid": 7, "tid": 7, "ts": 1032, "dur": 4,
   "args": {"External id": 3, "correlation": 101}},
  {"ph": "X", "cat": "cpu_op", "name": "triton_red_fused_sum_1", "pid": 7, "tid": 7, "ts": 1050, "dur": 10,
   "args": {"External id": 4, "Input Dims": [[4, 256], [4]], "Input type": ["float", "float"]}},
  {"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "pid": 7, "tid": 7, "ts": 1052, "dur": 4,
   "args": {"External id": 4, "correlation": 102}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 7, "tid": 7, "ts": 1070, "dur": 10,
   "args": {"External id": 5, "Input Dims": [[4, 256], [256, 256]], "Input type": ["c10::BFloat16", "c10::BFloat16"]}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 7, "tid": 7, "ts": 1072, "dur": 4,
   "args": {"External id": 5, "correlation": 103}},
  {"ph": "X", "cat": "cpu_op", "name": "triton_poi_fused_2", "pid": 7, "tid": 7, "ts": 1090, "dur": 10,
   "args": {"External id": 6}},
  {"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "pid": 7, "tid": 7, "ts": 1092, "dur": 4,
   "args": {"External id": 6, "correlation": 104}},
  {"ph": "X", "cat": "kernel", "name": "triton_poi_fused_add_mul_0", "pid": 0, "tid": 7, "ts": 1100, "dur": 30,
   "args": {"External id": 3, "device": 0, "stream": 7, "correlation": 101}},
  {"ph": "X", "cat": "kernel", "name": "triton_red_fused_sum_1", "pid": 0, "tid": 7, "ts": 1140, "dur": 50,
   "args": {"External id": 4, "device": 0, "stream": 7, "correlation": 102}},
  {"ph": "X", "cat": "kernel", "name": "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64", "pid": 0,
   "tid": 7, "ts": 1200, "dur": 20, "args": {"External id": 5, "device": 0, "stream": 7, "correlation": 103}},
  {"ph": "X", "cat": "kernel", "name": "triton_poi_fused_2", "pid": 0, "tid": 7, "ts": 1230, "dur": 10,
   "args": {"External id": 6, "device": 0, "stream": 7, "correlation": 104}}
]})json";

TEST(KinetoGenerationsModelTest, CompiledKernelsCountAsSixteenBitByTheirLaunchingOpsInputTypes) {
  xspace::XSpace space;
  importers::ImportStats stats;
  Status imported = importers::ImportTraceBytes(kCompiledBf16Step, {}, &space, &stats);
  ASSERT_TRUE(imported.ok()) << imported.ToString();
  StatusOr<ProfileModel> model = analysis::BuildProfileModelFromXSpace(space);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  ASSERT_EQ(model->steps.size(), 1u);
  const analysis::StepBreakdown& b = model->steps[0].breakdown;
  constexpr int64_t kUsPs = 1'000'000;
  EXPECT_EQ(b.ps(EventType::kDeviceCompute16), (30 + 20) * kUsPs);  // bf16 Triton + bf16 GEMM
  EXPECT_EQ(b.ps(EventType::kDeviceCompute32), (50 + 10) * kUsPs);  // float Triton + untyped launch
  const analysis::StepTimeSummary summary = analysis::SummarizeSteps(*model);
  ASSERT_TRUE(summary.device_compute_16bit_percent.has_value());
  EXPECT_NEAR(*summary.device_compute_16bit_percent, 100.0 * 50 / 110, 1e-9);
}

// The DataLoader keeps its PyTorch name and is the step's input wait (HOST_WAIT_INPUT),
// counted as an input fetch on the input-pipeline page.
TEST(KinetoGenerationsModelTest, DataLoaderIsTheInputWaitUnderItsOwnName) {
  ProfileModel model = Build("pytorch_1_9");
  ASSERT_EQ(model.steps.size(), 1u);
  const std::string loader = "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__";
  bool found = false;
  for (const analysis::OpMetrics& op : model.host_ops.ops) {
    if (op.name != loader) continue;
    found = true;
    EXPECT_EQ(op.total_time_ps, 30'000'000);
  }
  EXPECT_TRUE(found) << loader << " is not among the host ops";
  // [101, 131) us: nothing else runs on the host thread or the device then.
  EXPECT_EQ(model.steps[0].breakdown.ps(EventType::kHostWaitInput), 30'000'000);
  EXPECT_EQ(model.input_pipeline.get_next_count, 1);
  EXPECT_EQ(model.input_pipeline.data_loader_next_count, 1);
  EXPECT_EQ(model.input_pipeline.get_next_outside_steps, 0);
  const analysis::InputPipelineAnalysis input = analysis::ComputeInputPipelineAnalysis(model);
  EXPECT_EQ(input.get_next_count, 1);
}

// A step that mostly waits in the DataLoader is input bound, and the advice is the
// DataLoader's (no input op is recorded: the loading runs in the workers).
TEST(KinetoGenerationsModelTest, InputBoundByTheDataLoaderSaysWhatToChange) {
  xspace::XSpace space;
  importers::ImportStats stats;
  ASSERT_TRUE(importers::ImportTraceBytes(R"json({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
    {"ph": "X", "cat": "user_annotation", "name": "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__",
     "pid": 1, "tid": 1, "ts": 0, "dur": 80, "args": {"External id": 2}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 80, "dur": 20, "args": {"External id": 3}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 81, "dur": 2,
     "args": {"External id": 3, "correlation": 10}},
    {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 84, "dur": 10,
     "args": {"device": 0, "stream": 7, "correlation": 10}}
  ]})json", {}, &space, &stats).ok());
  StatusOr<ProfileModel> model = analysis::BuildProfileModelFromXSpace(space);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const analysis::InputPipelineAnalysis input = analysis::ComputeInputPipelineAnalysis(*model);
  EXPECT_EQ(input.summary.verdict, analysis::InputBoundVerdict::kHighly);
  EXPECT_EQ(input.data_loader_next_count, 1);
  EXPECT_NE(input.recommendation.find("num_workers"), std::string::npos) << input.recommendation;
}

// ATen ops are PyTorch ops on the host too: category "pytorch", the op name as its type.
TEST(KinetoGenerationsModelTest, AtenHostOpsArePyTorchOps) {
  ProfileModel model = Build("pytorch_2");
  const analysis::FrameworkOpStats stats = analysis::ComputeFrameworkOpStats(model, /*include_idle=*/false);
  std::map<std::string, const analysis::OpStatsRow*> host;
  for (const analysis::OpStatsRow& row : stats.host_ops) host[row.name] = &row;
  for (const char* name : {"aten::conv2d", "aten::item", "aten::convolution_backward"}) {
    ASSERT_TRUE(host.count(name)) << name;
    EXPECT_EQ(host[name]->category, "pytorch") << name;
    EXPECT_EQ(host[name]->type, name);
  }
  for (const char* name : {"ProfilerStep#101", "train.py(12): train_step", "cudaLaunchKernel",
                           "autograd::engine::evaluate_function: ConvolutionBackward0"}) {
    if (host.count(name)) {
      EXPECT_EQ(host[name]->category, "other") << name;
    }
  }
}

// key_averages() (torch.autograd.profiler_util.EventList._populate_cpu_children): per
// thread, events sorted by (start, -end); an event is a child of the innermost open one
// when it starts before that one's end and does not end after it; self time = duration
// minus the children's durations. The legacy trace's thread 1 holds each case.
TEST(KinetoGenerationsModelTest, SelfTimesAreKeyAveragesSelfTimes) {
  ProfileModel model = Build("legacy_autograd");
  const analysis::FrameworkOpStats stats = analysis::ComputeFrameworkOpStats(model, /*include_idle=*/false);
  std::map<std::string, const analysis::OpStatsRow*> rows;
  for (const analysis::OpStatsRow& row : stats.host_ops) rows[row.name] = &row;
  const std::map<std::string, double> expected_self_us = {
      {"aten::conv2d", 0.5},               // [100, 150) - aten::convolution (same start, longer first)
      {"aten::convolution", 1.0},          // [100, 149.5) - aten::_convolution
      {"aten::_convolution", 10.5},        // [101, 149.5), ends with its parent - aten::cudnn_convolution
      {"aten::cudnn_convolution", 38.0},   // [102, 140)
      {"aten::add_", 5.0},                 // [150, 155): starts at conv2d's end, so not its child
      {"aten::relu", 2.0},                 // [160, 170) - aten::clamp_min, written before it
      {"aten::clamp_min", 8.0},            // [161, 169)
  };
  double sum_us = 0;
  for (const auto& [name, self] : expected_self_us) {
    ASSERT_TRUE(rows.count(name)) << name;
    EXPECT_NEAR(rows[name]->total_self_time_ms * 1000, self, 1e-9) << name;
    EXPECT_EQ(rows[name]->category, "pytorch") << name;
    sum_us += rows[name]->total_self_time_ms * 1000;
  }
  EXPECT_EQ(rows.size(), expected_self_us.size());
  EXPECT_NEAR(rows["aten::conv2d"]->total_time_ms * 1000, 50.0, 1e-9);
  // Self times add up to the time the thread was busy: no time counted twice or lost.
  EXPECT_NEAR(sum_us, 50.0 + 5.0 + 10.0, 1e-9);
}

}  // namespace
}  // namespace stepscope::golden
