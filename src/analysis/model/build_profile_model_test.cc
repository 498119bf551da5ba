#include "src/analysis/model/build_profile_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <tuple>

#include "src/analysis/model/combine_hosts.h"
#include "src/analysis/model/event_tree.h"
#include "src/analysis/model/model_test_util.h"
#include "src/analysis/model/op_name.h"
#include "src/analysis/model/pipeline_events.h"
#include "src/hlo/hlo_programs.h"
#include "src/xspace/columnar/columnar_xspace.h"

namespace stepscope::analysis {
namespace {

using testing::Ms;
using testing::TestSpace;

ProfileModel Build(const xspace::XSpace& space, ModelOptions options = {}) {
  StatusOr<ProfileModel> model = BuildProfileModelFromXSpace(space, options);
  EXPECT_TRUE(model.ok()) << model.status().ToString();
  return model.ok() ? std::move(*model) : ProfileModel();
}

const OpMetrics* FindOp(const OpMetricsDb& db, std::string_view name) {
  for (const OpMetrics& op : db.ops) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

bool HasDiagnostic(const ProfileModel& model, std::string_view needle) {
  return std::any_of(model.diagnostics.begin(), model.diagnostics.end(),
                     [&](const std::string& d) { return d.find(needle) != std::string::npos; });
}

// CPU only: 10 ms steps of which 8 ms wait in IteratorGetNext -> 80 % input.
TEST(BuildProfileModelTest, CpuOnlyInputBoundSteps) {
  TestSpace t;
  auto main = t.HostLine(1, "main");
  for (int s = 0; s < 5; ++s) {
    double b = 10.0 * s;
    t.Event(main, "train", b, b + 10, {{"step_num", s}, {"_r", 1}});
    t.Event(main, "IteratorGetNext", b, b + 8);
    t.Event(main, "forward", b + 8, b + 10);
  }
  t.space.add_hostnames("worker-0");
  ProfileModel model = Build(t.space);
  EXPECT_EQ(model.hostnames, std::vector<std::string>{"worker-0"});
  EXPECT_EQ(model.step_source, "step_markers");
  EXPECT_FALSE(model.has_device);
  EXPECT_EQ(model.run_environment.device_type, "CPU");
  ASSERT_EQ(model.steps.size(), 5u);
  for (int s = 0; s < 5; ++s) {
    const StepInfo& step = model.steps[s];
    EXPECT_EQ(step.step_number, s);
    EXPECT_EQ(step.name, "train " + std::to_string(s));
    EXPECT_EQ(step.begin_ps, Ms(10.0 * s));
    EXPECT_EQ(step.duration_ps, Ms(10));
    EXPECT_EQ(step.breakdown.ps(EventType::kHostWaitInput), Ms(8));
    EXPECT_EQ(step.breakdown.ps(EventType::kHostCompute), Ms(2));
    EXPECT_EQ(step.breakdown.category_ps(TimeCategory::kInput), Ms(8));
    EXPECT_EQ(step.breakdown.input_ps(), Ms(8));
    EXPECT_EQ(step.breakdown.total_ps(), step.duration_ps);
  }
  const OpMetrics* get_next = FindOp(model.host_ops, "IteratorGetNext");
  ASSERT_NE(get_next, nullptr);
  EXPECT_EQ(get_next->occurrences, 5);
  EXPECT_EQ(get_next->total_time_ps, Ms(40));
  EXPECT_EQ(FindOp(model.host_ops, "train"), nullptr) << "step markers are not ops";
  EXPECT_EQ(model.input_pipeline.get_next_count, 5);
  EXPECT_EQ(model.input_pipeline.get_next_outside_steps, 0);
  EXPECT_FALSE(HasDiagnostic(model, "no step markers"));
}

// The cases PyTorch's key_averages() nests by (EventList._populate_cpu_children): an op
// beginning at its predecessor's end is a sibling; equal spans nest in file order; a
// zero-length op at the very end of another is taken as its child (whole-microsecond
// files truncate the last instant of an op onto its end), which no self time depends on.
TEST(BuildProfileModelTest, NestingEdgesAsKeyAverages) {
  TestSpace t;
  auto line = t.HostLine(3, "main");
  t.Event(line, "P", 0, 10);
  t.Event(line, "S", 10, 12);
  t.Event(line, "Z", 12, 12);
  t.Event(line, "Q1", 20, 25);
  t.Event(line, "Q2", 20, 25);
  ProfileModel model = Build(t.space);
  ASSERT_EQ(model.host_threads.size(), 1u);
  const HostThread& thread = model.host_threads[0];
  const xspace::ColumnarPlane& plane = model.source->planes[thread.plane_index];
  std::vector<std::string> names;
  for (size_t i = 0; i < thread.size(); ++i) names.emplace_back(plane.event_name(thread.event(i)));
  EXPECT_EQ(names, (std::vector<std::string>{"P", "S", "Z", "Q1", "Q2"}));
  EXPECT_EQ(thread.parent, (std::vector<int32_t>{-1, -1, 1, -1, 3}));
  EXPECT_EQ(ComputeSelfTimes(plane, thread), (std::vector<int64_t>{Ms(10), Ms(2), 0, 0, Ms(5)}));
  EXPECT_EQ(thread.busy_ps, Ms(17));
}

TEST(BuildProfileModelTest, NestedOpsSelfTimeAndTree) {
  TestSpace t;
  auto line = t.HostLine(7, "worker");
  t.Event(line, "C", 5, 9);  // written out of order on purpose
  t.Event(line, "A", 0, 10);
  t.Event(line, "D", 6, 7);
  t.Event(line, "B", 1, 4);
  t.Event(line, "E", 12, 13);
  ProfileModel model = Build(t.space);
  ASSERT_EQ(model.host_threads.size(), 1u);
  const HostThread& thread = model.host_threads[0];
  ASSERT_EQ(thread.size(), 5u);
  EXPECT_EQ(thread.thread_id, 7);
  EXPECT_EQ(thread.name, "worker");
  // Time order: A, B, C, D, E.
  const xspace::ColumnarPlane& plane = model.source->planes[thread.plane_index];
  std::vector<std::string> names;
  for (size_t i = 0; i < thread.size(); ++i) names.emplace_back(plane.event_name(thread.event(i)));
  EXPECT_FALSE(thread.event_index.empty()) << "written out of order: an explicit index";
  EXPECT_EQ(names, (std::vector<std::string>{"A", "B", "C", "D", "E"}));
  EXPECT_EQ(thread.parent, (std::vector<int32_t>{-1, 0, 0, 2, -1}));
  EXPECT_EQ(thread.depth, (std::vector<uint8_t>{0, 1, 1, 2, 0}));
  EXPECT_EQ(ComputeSelfTimes(plane, thread), (std::vector<int64_t>{Ms(3), Ms(3), Ms(3), Ms(1), Ms(1)}));
  EXPECT_EQ(thread.busy_ps, Ms(11));
  EXPECT_EQ(FindOp(model.host_ops, "A")->self_time_ps, Ms(3));
  EXPECT_EQ(FindOp(model.host_ops, "A")->total_time_ps, Ms(10));
  EXPECT_EQ(FindOp(model.host_ops, "D")->self_time_ps, Ms(1));
  EXPECT_EQ(model.host_ops.total_time_ps, Ms(13));
  EXPECT_EQ(model.host_ops.idle_time_ps, Ms(2));
  EXPECT_EQ(model.host_ops.total_self_time_ps, Ms(11));
  // No markers at all.
  EXPECT_TRUE(model.steps.empty());
  EXPECT_TRUE(HasDiagnostic(model, "no step markers found"));
}

// Python frames (with_stack, with_modules, stepscope's Python tracer) are a call stack,
// not ops: no rows, and the ops below a frame are children of the op around it, as
// key_averages() counts (it never sees the frames). The DataLoader's frames under its
// __next__ make __next__'s own time, which stays input.
TEST(BuildProfileModelTest, PythonFramesAreNotOpsAndHideNoChildren) {
  TestSpace t;
  auto line = t.HostLine(1, "python3");
  t.Event(line, "fwd", 0, 20);                                      // user annotation
  t.Event(line, "nn.Module: Linear_0", 1, 12);                      // with_modules
  t.Event(line, "torch/nn/modules/linear.py(114): forward", 2, 11);  // with_stack
  t.Event(line, "<built-in method linear of type object at 0x7f>", 3, 10);
  t.Event(line, "aten::linear", 4, 9);
  t.Event(line, "aten::addmm", 5, 8);
  t.Event(line, "model.py(30): helper", 13, 15);  // a frame right under fwd, no op below
  t.Event(line, "$builtins len", 16, 17);           // TF's / JAX's Python tracer
  t.Event(line, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 21, 31);
  t.Event(line, "torch/utils/data/dataloader.py(674): _next_data", 22, 30);
  t.Event(line, "aten::stack", 24, 26);
  ProfileModel model = Build(t.space);
  for (const OpMetrics& op : model.host_ops.ops) EXPECT_FALSE(IsPythonFrameName(op.name)) << op.name;
  ASSERT_EQ(model.host_ops.ops.size(), 5u);
  EXPECT_EQ(FindOp(model.host_ops, "fwd")->self_time_ps, Ms(15));  // 20 - aten::linear's 5
  EXPECT_EQ(FindOp(model.host_ops, "aten::linear")->self_time_ps, Ms(2));
  EXPECT_EQ(FindOp(model.host_ops, "aten::addmm")->self_time_ps, Ms(3));
  const OpMetrics* next = FindOp(model.host_ops, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
  ASSERT_NE(next, nullptr);
  EXPECT_EQ(next->self_time_ps, Ms(8));  // 10 - aten::stack's 2
  EXPECT_EQ(model.host_ops.total_self_time_ps, Ms(30)) << "the ops' self times still partition their time";
  EXPECT_EQ(model.input_pipeline.category_self_time_ps[static_cast<int>(InputOpCategory::kDataLoader)], Ms(8));
}

// A model without event trees (the CLI's) takes the tf.data events while it still has the
// trees; a model with them extracts the same events on demand. The eager copy is sized
// exactly: a tf.data-heavy host has millions of these, and spare capacity was the largest
// block of `stepscope analyze` on such a profile.
TEST(BuildProfileModelTest, PipelineEventsWithoutTreesAreTheOnDemandOnesSizedExactly) {
  TestSpace t;
  auto loop = t.HostLine(1, "python3");
  t.Event(loop, "train", 0, 20, {{"step_num", 0}, {"_r", 1}});
  auto worker = t.HostLine(2, "tf_data_worker");
  t.Event(worker, "Iterator::Prefetch", 0, 10, {{"id", 11}, {"parent_id", 0}, {"buffer_limit", 4}});
  t.Event(worker, "Iterator::Prefetch::Map", 1, 5, {{"id", 12}, {"parent_id", 11}});
  t.Event(worker, "MapProduce", 2, 4, {{"element_id", 7}});
  t.Event(worker, "Iterator::Prefetch::Map", 6, 9, {{"id", 12}, {"parent_id", 11}});
  auto consumer = t.HostLine(3, "tf_data_consumer");
  t.Event(consumer, "PrefetchConsume", 12, 14, {{"element_id", 7}});

  PipelineEvents on_demand;
  ForEachHostPipelineEvents(Build(t.space), [&](int, const PipelineEvents& events) { on_demand = events; });
  ModelOptions without_trees;
  without_trees.keep_event_tree = false;
  ProfileModel model = Build(t.space, without_trees);
  ASSERT_EQ(model.pipeline_events.size(), 1u);
  const PipelineEvents& eager = model.pipeline_events[0];

  EXPECT_EQ(eager.threads, (std::vector<std::string>{"tf_data_worker", "tf_data_consumer"}));
  EXPECT_EQ(eager.threads, on_demand.threads);
  EXPECT_EQ(eager.names, on_demand.names);
  ASSERT_EQ(eager.events.size(), 5u);
  EXPECT_EQ(eager.events.capacity(), eager.events.size());
  ASSERT_EQ(on_demand.events.size(), eager.events.size());
  for (size_t i = 0; i < eager.events.size(); ++i) {
    const PipelineEvent& a = eager.events[i];
    const PipelineEvent& b = on_demand.events[i];
    EXPECT_EQ(std::tie(a.begin_ps, a.end_ps, a.element_id, a.enclosing, a.name, a.thread, a.kind, a.flags),
              std::tie(b.begin_ps, b.end_ps, b.element_id, b.enclosing, b.name, b.thread, b.kind, b.flags))
        << "event " << i;
    EXPECT_EQ(eager.stats_of(a), on_demand.stats_of(b)) << "event " << i;
  }
  // Nesting and stats as the trees give them.
  EXPECT_EQ(eager.events[0].enclosing, -1);
  EXPECT_EQ(eager.stats_of(eager.events[0]), (PipelineIteratorStats{.id = 11, .parent_id = 0, .setting = 4}));
  EXPECT_EQ(eager.events[1].enclosing, 0);
  EXPECT_EQ(eager.stats_of(eager.events[1]), (PipelineIteratorStats{.id = 12, .parent_id = 11, .setting = 0}));
  EXPECT_EQ(eager.events[2].enclosing, 1);
  EXPECT_EQ(eager.events[2].kind, PipelineEventKind::kProduce);
  EXPECT_EQ(eager.events[3].begin_ps, Ms(6));
  EXPECT_EQ(eager.events[3].enclosing, 0);
  // Equal iterator stats are shared: the zero entry (the produce and the consume), the
  // prefetch's, and one for both calls of the map.
  EXPECT_EQ(eager.iterator_stats.size(), 3u);
  EXPECT_EQ(eager.events[1].stats, eager.events[3].stats);
  EXPECT_EQ(eager.events[2].stats, 0u);
  EXPECT_EQ(eager.events[4].thread, 1u);
  EXPECT_EQ(eager.events[4].element_id, 7);
}

TEST(BuildProfileModelTest, TfOpNamesSplitIntoNameAndType) {
  TestSpace t;
  auto line = t.HostLine(1, "tf_Compute");
  t.Event(line, "model/dense/MatMul:MatMul", 0, 2);
  t.Event(line, "model/dense/MatMul:MatMul", 3, 4);
  t.Event(line, "Iterator::Prefetch::Batch::Map::TFRecord", 5, 6);
  t.Event(line, "Iterator::Prefetch", 7, 9);
  t.Event(line, "MemcpyHToD", 10, 11);
  ProfileModel model = Build(t.space);
  const OpMetrics* matmul = FindOp(model.host_ops, "model/dense/MatMul");
  ASSERT_NE(matmul, nullptr);
  EXPECT_EQ(matmul->type, "MatMul");
  EXPECT_EQ(matmul->category, OpCategory::kTensorFlow);
  EXPECT_EQ(matmul->occurrences, 2);
  EXPECT_EQ(matmul->min_time_ps, Ms(1));
  EXPECT_EQ(matmul->max_time_ps, Ms(2));
  EXPECT_EQ(matmul->avg_time_ps(), Ms(1.5));
  const InputPipelineFacts& input = model.input_pipeline;
  EXPECT_TRUE(input.uses_tf_data);
  ASSERT_EQ(input.ops.size(), 3u);
  auto category_of = [&](std::string_view name) {
    for (const InputOp& op : input.ops) {
      if (op.name == name) return op.category;
    }
    return InputOpCategory::kOther;
  };
  EXPECT_EQ(category_of("Iterator::Prefetch::Batch::Map::TFRecord"), InputOpCategory::kAdvancedFileRead);
  EXPECT_EQ(category_of("Iterator::Prefetch"), InputOpCategory::kPreprocessing);
  EXPECT_EQ(category_of("MemcpyHToD"), InputOpCategory::kEnqueue);
  EXPECT_EQ(input.category_self_time_ps[static_cast<int>(InputOpCategory::kPreprocessing)], Ms(2));
}

// Host + GPU with known answer. Per 10 ms step: IteratorGetNext 2 ms, launches 1.5 ms,
// H2D copy 1 ms, kernel 4 ms, D2H copy 1 ms, 0.5 ms nothing.
xspace::XSpace MakeGpuSpace(int steps) {
  TestSpace t;
  auto main = t.HostLine(1, "main");
  int gpu = t.Plane("/device:GPU:0");
  t.PlaneStat(gpu, "core_count", 80);
  t.PlaneStat(gpu, "clock_rate", 1530000);
  t.PlaneStat(gpu, "compute_cap_major", 7);
  auto stream = t.LineIn(gpu, 7, "Stream #7(Compute)");
  auto copies = t.LineIn(gpu, 8, "Stream #8(MemcpyH2D)");
  for (int s = 0; s < steps; ++s) {
    double b = 10.0 * s;
    uint64_t corr = 10 * s;
    t.Event(main, "train", b, b + 10, {{"step_num", s}, {"_r", 1}});
    t.Event(main, "IteratorGetNext", b, b + 2);
    t.Event(main, "model/dense/MatMul:MatMul", b + 2, b + 3.5);
    t.Event(main, "cudaLaunchKernel", b + 2, b + 3, {{"correlation_id", corr + 1}});
    t.Event(main, "cudaMemcpyAsync", b + 3, b + 3.25, {{"correlation_id", corr + 2}});
    t.Event(main, "cudaMemcpyAsync", b + 3.25, b + 3.5, {{"correlation_id", corr + 3}});
    t.Event(copies, "MemcpyH2D", b + 3.5, b + 4.5,
            {{"correlation_id", corr + 2}, {"memcpy_details", "kind_src:pinned kind_dst:device size:1024 dest:0 async:1"}});
    t.Event(stream, s % 2 == 0 ? "volta_sgemm_128x64" : "volta_h884gemm_64x64", b + 4.5, b + 8.5,
            {{"correlation_id", corr + 1},
             {"kernel_details", "regs:64 static_shared:1024 dynamic_shared:0 grid:80,1,1 block:256,1,1 occ_pct:50"},
             {"tf_op", "model/dense/MatMul:MatMul"}});
    t.Event(copies, "MemcpyD2H", b + 8.5, b + 9.5, {{"correlation_id", corr + 3}, {"memcpy_details", "size:2048 dest:0 async:1"}});
  }
  return t.space;
}

TEST(BuildProfileModelTest, GpuHostAndDeviceBreakdown) {
  ProfileModel model = Build(MakeGpuSpace(2));
  EXPECT_TRUE(model.has_device);
  EXPECT_EQ(model.run_environment.device_type, "GPU");
  EXPECT_EQ(model.run_environment.active_device_count, 1);
  ASSERT_EQ(model.steps.size(), 2u);
  for (const StepInfo& step : model.steps) {
    SCOPED_TRACE(step.name);
    EXPECT_TRUE(step.has_device_activity);
    EXPECT_EQ(step.duration_ps, Ms(10));
    const StepBreakdown& b = step.breakdown;
    EXPECT_EQ(b.ps(EventType::kHostWaitInput), Ms(2));
    EXPECT_EQ(b.ps(EventType::kHostPrepare), Ms(1.5));
    EXPECT_EQ(b.ps(EventType::kHostToDevice), Ms(1));
    // Step 0's kernel is volta_sgemm (fp32), step 1's volta_h884gemm (fp16 HMMA).
    const bool half = step.step_number % 2 == 1;
    EXPECT_EQ(b.ps(EventType::kDeviceCompute32), half ? 0 : Ms(4));
    EXPECT_EQ(b.ps(EventType::kDeviceCompute16), half ? Ms(4) : 0);
    EXPECT_EQ(b.ps(EventType::kDeviceToHost), Ms(1));
    EXPECT_EQ(b.ps(EventType::kUnknownTime), Ms(0.5));
    EXPECT_EQ(b.ps(EventType::kHostCompute), 0) << "MatMul's own time is covered by its launches";
    EXPECT_EQ(b.category_ps(TimeCategory::kInput), Ms(3));
    EXPECT_EQ(b.category_ps(TimeCategory::kKernelLaunch), Ms(1.5));
    EXPECT_EQ(b.category_ps(TimeCategory::kDeviceCompute), Ms(4));
    EXPECT_EQ(b.category_ps(TimeCategory::kOutput), Ms(1));
    EXPECT_EQ(b.category_ps(TimeCategory::kOther), Ms(0.5));
    EXPECT_EQ(b.total_ps(), Ms(10));
  }
  ASSERT_EQ(model.devices.size(), 1u);
  const DeviceActivity& gpu = model.devices[0];
  EXPECT_EQ(gpu.device_ordinal, 0);
  EXPECT_EQ(gpu.capabilities.core_count, 80);
  EXPECT_EQ(gpu.capabilities.clock_rate_khz, 1530000);
  EXPECT_EQ(gpu.capabilities.compute_capability_major, 7);
  EXPECT_EQ(gpu.kernel_count, 2);
  EXPECT_EQ(gpu.kernel_time_ps, Ms(8));
  const MemcpyStats& h2d = gpu.memcpy[static_cast<int>(MemcpyDirection::kHostToDevice)];
  EXPECT_EQ(h2d.count, 2);
  EXPECT_EQ(h2d.bytes, 2048);
  EXPECT_EQ(h2d.duration_ps, Ms(2));
  const MemcpyStats& d2h = gpu.memcpy[static_cast<int>(MemcpyDirection::kDeviceToHost)];
  EXPECT_EQ(d2h.count, 2);
  EXPECT_EQ(d2h.bytes, 4096);
  ASSERT_EQ(gpu.streams.size(), 2u);
  EXPECT_EQ(gpu.streams[0].stream_id, 7);
  EXPECT_EQ(gpu.streams[0].kernel_count, 2);
  EXPECT_EQ(gpu.streams[0].busy_ps, Ms(8));
  EXPECT_EQ(gpu.streams[1].memcpy_count, 4);
  EXPECT_EQ(gpu.busy_ps, Ms(12));
  EXPECT_EQ(gpu.first_begin_ps, Ms(3.5));
  EXPECT_EQ(gpu.last_end_ps, Ms(19.5));
  EXPECT_EQ(gpu.idle_ps(), Ms(4));

  ASSERT_EQ(model.kernels.size(), 2u);
  for (const KernelStats& k : model.kernels) {
    EXPECT_EQ(k.op_name, "model/dense/MatMul");
    EXPECT_EQ(k.params.registers_per_thread, 64);
    EXPECT_EQ(k.params.static_shared_memory_bytes, 1024);
    EXPECT_EQ(k.params.grid, (std::array<int64_t, 3>{80, 1, 1}));
    EXPECT_EQ(k.params.block, (std::array<int64_t, 3>{256, 1, 1}));
    EXPECT_EQ(k.params.occupancy_pct, 50.0);
    EXPECT_TRUE(k.is_op_tensor_core_eligible);
    EXPECT_EQ(k.is_kernel_using_tensor_core, k.kernel_name.find("h884") != std::string::npos);
    EXPECT_EQ(k.occurrences, 1);
    EXPECT_EQ(k.total_duration_ps, Ms(4));
  }
  const OpMetrics* device_matmul = FindOp(model.device_ops, "model/dense/MatMul");
  ASSERT_NE(device_matmul, nullptr);
  EXPECT_FALSE(device_matmul->is_host);
  EXPECT_EQ(device_matmul->type, "MatMul");
  EXPECT_EQ(device_matmul->occurrences, 2);
  EXPECT_EQ(device_matmul->self_time_ps, Ms(8));
  const OpMetrics* copy = FindOp(model.device_ops, "MemcpyH2D");
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->category, OpCategory::kMemcpyHToD);
  EXPECT_EQ(model.device_ops.total_time_ps, Ms(16));
  EXPECT_EQ(model.device_ops.idle_time_ps, Ms(4));
}

// A stream whose kernels run out of step order (step 0's kernel after step 1's): each
// kernel counts in the window where it runs, and as the work of the step that launched it.
TEST(BuildProfileModelTest, KernelsOutOfStepOrderOnAStream) {
  TestSpace t;
  auto main = t.HostLine(1, "main");
  int gpu = t.Plane("/device:GPU:0");
  auto stream = t.LineIn(gpu, 7, "Stream #7(Compute)");
  t.Event(main, "train", 0, 10, {{"step_num", 0}, {"_r", 1}});
  t.Event(main, "cudaLaunchKernel", 1, 2, {{"correlation_id", uint64_t{1}}});
  t.Event(main, "train", 10, 20, {{"step_num", 1}, {"_r", 1}});
  t.Event(main, "cudaLaunchKernel", 10, 10.5, {{"correlation_id", uint64_t{2}}});
  t.Event(stream, "k_step1", 11, 12, {{"correlation_id", uint64_t{2}}});
  t.Event(stream, "k_step0", 12, 13, {{"correlation_id", uint64_t{1}}});  // late: outside step 0
  t.Event(stream, "k_step0_in", 5, 6, {{"correlation_id", uint64_t{1}}});
  ProfileModel model = Build(t.space);
  ASSERT_EQ(model.steps.size(), 2u);
  EXPECT_EQ(model.steps[0].breakdown.ps(EventType::kDeviceCompute32), Ms(1));
  EXPECT_EQ(model.steps[0].breakdown.ps(EventType::kHostPrepare), Ms(1));
  EXPECT_EQ(model.steps[1].breakdown.ps(EventType::kDeviceCompute32), Ms(2)) << "its own and step 0's late kernel";
  EXPECT_EQ(model.steps[1].breakdown.ps(EventType::kHostPrepare), Ms(0.5));
  for (const StepInfo& step : model.steps) EXPECT_EQ(step.breakdown.total_ps(), Ms(10));
  EXPECT_EQ(model.steps[0].device_busy_ps, Ms(2));
  EXPECT_EQ(model.steps[0].device_end_ps, Ms(13));
  EXPECT_EQ(model.steps[1].device_busy_ps, Ms(1));
}

TEST(BuildProfileModelTest, DropsIncompleteStepsOnlyInSamplingMode) {
  xspace::XSpace space = MakeGpuSpace(7);
  EXPECT_EQ(Build(space).steps.size(), 7u);
  ModelOptions sampling;
  sampling.drop_incomplete_steps = true;
  ProfileModel model = Build(space, sampling);
  ASSERT_EQ(model.steps.size(), 5u);
  EXPECT_EQ(model.steps.front().step_number, 1);
  EXPECT_EQ(model.steps.back().step_number, 5);
}

// A file TensorFlow already grouped: group_id stats, no explicit host marker, a device
// `Steps` line. Step time comes from the device marker; ExecutorState::Process is launch.
TEST(BuildProfileModelTest, TensorFlowGroupedFile) {
  TestSpace t;
  auto executor = t.HostLine(11, "tf_gpu_private");
  auto iterator = t.HostLine(12, "tf_data_iterator_get_next");
  t.Event(executor, "ExecutorState::Process", 0, 10, {{"group_id", 0}, {"iter_num", 0}});
  t.Event(iterator, "IteratorGetNextOp::DoCompute", 1, 3, {{"group_id", 0}});
  t.Event(executor, "FunctionRun", 10, 11, {{"group_id", 1}});  // a tf.data function: no marker
  int gpu = t.Plane("/device:GPU:0");
  auto steps = t.LineIn(gpu, -559038737, "Steps");
  auto stream = t.LineIn(gpu, 3, "Stream #3(Compute)");
  auto ops = t.LineIn(gpu, -559038734, "TensorFlow Ops");
  t.Event(steps, "0", 0.5, 9.5, {{"group_id", 0}, {"step_name", "0"}});
  t.Event(stream, "some_kernel", 4, 6, {{"group_id", 0}, {"correlation_id", uint64_t{5}}, {"kernel_details", "regs:38 shm:0 grid:160,1,1 block:1024,1,1"}});
  t.Event(ops, "derived op line is not activity", 4, 6, {{"group_id", 0}});
  ProfileModel model = Build(t.space);
  EXPECT_EQ(model.step_source, "tf_grouped");
  ASSERT_EQ(model.steps.size(), 1u);
  const StepInfo& step = model.steps[0];
  EXPECT_EQ(step.name, "0");
  EXPECT_EQ(step.step_number, 0);
  EXPECT_EQ(step.time_source, StepTimeSource::kDeviceMarker);
  EXPECT_EQ(step.begin_ps, Ms(0.5));
  EXPECT_EQ(step.duration_ps, Ms(9));
  EXPECT_EQ(step.breakdown.ps(EventType::kHostWaitInput), Ms(2));
  EXPECT_EQ(step.breakdown.ps(EventType::kDeviceCompute32), Ms(2));
  EXPECT_EQ(step.breakdown.ps(EventType::kHostPrepare), Ms(5));
  EXPECT_EQ(step.breakdown.total_ps(), Ms(9));
  ASSERT_EQ(model.devices.size(), 1u);
  EXPECT_EQ(model.devices[0].kernel_count, 1) << "derived lines are skipped";
  ASSERT_EQ(model.kernels.size(), 1u);
  EXPECT_EQ(model.kernels[0].params.registers_per_thread, 38);
  EXPECT_EQ(model.kernels[0].params.grid, (std::array<int64_t, 3>{160, 1, 1}));
}

// A launch record no kernel can have (a legacy ROCm tracer's uninitialised memory): its
// sizes are unknown in the model and the diagnostics say which record, once.
TEST(BuildProfileModelTest, ImpossibleKernelDetailsAreDroppedAndNamed) {
  TestSpace t;
  int gpu = t.Plane("/device:GPU:0");
  auto stream = t.LineIn(gpu, 3, "Stream #3(Compute)");
  for (int i = 0; i < 3; ++i) {
    t.Event(stream, "k" + std::to_string(i), i, i + 0.5,
            {{"correlation_id", uint64_t(i + 1)}, {"kernel_details", "regs:2191500840 static_shared:32462 grid:64,1,1 block:256,1,1"}});
  }
  ProfileModel model = Build(t.space);
  ASSERT_EQ(model.kernels.size(), 3u);
  for (const KernelStats& k : model.kernels) {
    EXPECT_EQ(k.params.registers_per_thread, std::nullopt);
    EXPECT_EQ(k.params.static_shared_memory_bytes, std::nullopt);
    EXPECT_EQ(k.params.grid[0], 64);
  }
  int named = 0;
  for (const std::string& d : model.diagnostics) {
    if (d.find("3 kernel launch records hold sizes no kernel can have") != std::string::npos &&
        d.find("regs:2191500840") != std::string::npos) {
      ++named;
    }
  }
  EXPECT_EQ(named, 1) << ::testing::PrintToString(model.diagnostics);
}

// `_r` markers on two threads with the same step numbers are one step each; a consumer
// on a third thread joins its producer's step.
TEST(BuildProfileModelTest, StepsFromRootsOnSeveralThreads) {
  TestSpace t;
  auto a = t.HostLine(1, "a");
  auto b = t.HostLine(2, "b");
  auto c = t.HostLine(3, "c");
  t.Event(a, "train", 0, 10, {{"step_num", 1}, {"_r", 1}});
  t.Event(a, "enqueue", 1, 2, {{"_pt", 1}, {"_p", uint64_t{42}}});
  t.Event(a, "train", 10, 20, {{"step_num", 2}, {"_r", 1}});
  t.Event(b, "train", 1, 9, {{"step_num", 1}, {"_r", 1}});
  t.Event(b, "train", 11, 21.5, {{"step_num", 2}, {"_r", 1}});
  t.Event(b, "work", 12, 13);
  t.Event(c, "consume", 2, 6, {{"_ct", 1}, {"_c", uint64_t{42}}});
  t.Event(c, "IteratorGetNext", 3, 5);
  t.Event(c, "unrelated", 30, 31);
  ProfileModel model = Build(t.space);
  ASSERT_EQ(model.steps.size(), 2u);
  EXPECT_EQ(model.steps[0].step_number, 1);
  // A step starts with its first marker, on any thread, and lasts until the next one
  // starts; the last until its last marker ends.
  EXPECT_EQ(model.steps[0].duration_ps, Ms(10));
  EXPECT_EQ(model.steps[0].begin_ps, 0);
  EXPECT_EQ(model.steps[1].step_number, 2);
  EXPECT_EQ(model.steps[1].begin_ps, Ms(10));
  EXPECT_EQ(model.steps[1].duration_ps, Ms(11.5));
  // Step 1: enqueue [1,2) + consume [2,6) compute, GetNext [3,5) input; rest unknown.
  const StepBreakdown& first = model.steps[0].breakdown;
  EXPECT_EQ(first.ps(EventType::kHostWaitInput), Ms(2));
  EXPECT_EQ(first.ps(EventType::kHostCompute), Ms(3));
  EXPECT_EQ(first.ps(EventType::kUnknownTime), Ms(5));
  EXPECT_EQ(model.steps[1].breakdown.ps(EventType::kHostCompute), Ms(1));
}

TEST(BuildProfileModelTest, NestedRootLevels) {
  TestSpace t;
  auto a = t.HostLine(1, "a");
  // A level-2 root inside a level-1 root: both start groups (XProf), as separate steps.
  t.Event(a, "epoch", 0, 100, {{"_r", 1}});
  t.Event(a, "train", 10, 20, {{"_r", 2}, {"step_num", 7}});
  t.Event(a, "op", 12, 14);
  ProfileModel model = Build(t.space);
  ASSERT_EQ(model.steps.size(), 2u);
  EXPECT_EQ(model.steps[0].name, "epoch 1") << "group id when there is no step number";
  EXPECT_EQ(model.steps[1].name, "train 7");
  EXPECT_EQ(model.steps[1].breakdown.ps(EventType::kHostCompute), Ms(2));
  EXPECT_EQ(model.steps[0].breakdown.ps(EventType::kHostCompute), 0) << "op belongs to the inner step";
}

TEST(BuildProfileModelTest, LegacyTraceContextRootsWithoutStats) {
  TestSpace t;
  auto main = t.HostLine(1, "main");
  t.Event(main, "TraceContext", 0, 4);
  t.Event(main, "op", 1, 2);
  t.Event(main, "TraceContext", 5, 9);
  ProfileModel model = Build(t.space);
  ASSERT_EQ(model.steps.size(), 2u);
  EXPECT_EQ(model.steps[0].duration_ps, Ms(5)) << "until the next TraceContext";
  EXPECT_EQ(model.steps[0].breakdown.ps(EventType::kHostCompute), Ms(1));
  EXPECT_EQ(model.steps[1].name, "TraceContext 1");
}

// The batch fetched before each step's marker: the fetch for step s+1 lies between the
// markers, inside step s's iteration (a step lasts until the next one starts), so only
// the first fetch, before every step, is outside the steps.
TEST(BuildProfileModelTest, IteratorFetchedOutsideTheStep) {
  TestSpace t;
  auto main = t.HostLine(1, "main");
  for (int s = 0; s < 3; ++s) {
    double b = 10.0 * s;
    t.Event(main, "IteratorGetNext", b, b + 3);  // before the step's marker
    t.Event(main, "train", b + 3, b + 10, {{"step_num", s}, {"_r", 1}});
  }
  ProfileModel model = Build(t.space);
  ASSERT_EQ(model.steps.size(), 3u);
  EXPECT_EQ(model.input_pipeline.get_next_outside_steps, 1);
  EXPECT_TRUE(HasDiagnostic(model, "outside every step"));
  EXPECT_EQ(model.steps[0].breakdown.ps(EventType::kHostWaitInput), Ms(3)) << "step 1's batch, fetched in step 0";
  EXPECT_EQ(model.steps[2].breakdown.ps(EventType::kHostWaitInput), 0) << "the last step fetches nothing";
}

// TensorFlow's grouped steps leave the loop's own work between their markers: the model
// names the outermost host work in the gaps, under the thread's long-lived loop.
TEST(BuildProfileModelTest, WorkBetweenStepsIsNamed) {
  TestSpace t;
  auto main = t.HostLine(1, "main");
  auto loop = t.HostLine(2, "loop");
  t.Event(main, "train", 0, 10, {{"group_id", 0}, {"step_num", 0}});
  t.Event(main, "train", 20, 30, {{"group_id", 1}, {"step_num", 1}});
  t.Event(main, "SaveCheckpoint", 12, 18);
  t.Event(main, "WriteFile", 13, 17);  // inside the checkpoint: counted with it
  t.Event(loop, "training_loop", 0, 30);  // encloses the gap: not the gap's work
  t.Event(loop, "summary", 9, 15);  // 5 ms of it in the gap
  ProfileModel model = Build(t.space);
  ASSERT_EQ(model.steps.size(), 2u);
  const WorkBetweenSteps& work = model.work_between_steps;
  EXPECT_EQ(work.gap_ps, Ms(10));
  ASSERT_EQ(work.ops.size(), 2u);
  EXPECT_EQ(work.ops[0].name, "SaveCheckpoint");
  EXPECT_EQ(work.ops[0].time_ps, Ms(6));
  EXPECT_EQ(work.ops[1].name, "summary");
  EXPECT_EQ(work.ops[1].time_ps, Ms(5));
}

TEST(BuildProfileModelTest, RunEnvironmentAndDroppedEvents) {
  TestSpace t;
  auto main = t.HostLine(1, "main");
  t.Event(main, "train", 0, 1, {{"step_num", 0}, {"_r", 1}});
  int host = t.Plane(xspace::kHostThreadsPlaneName);
  t.PlaneStat(host, "logical_cores", 16);
  t.PlaneStat(host, "process_id", 4242);
  t.PlaneStat(host, "dropped_traces", 12);
  int task = t.Plane(xspace::kTaskEnvPlaneName);
  t.PlaneStat(task, "profile_start_time", 1000);
  t.PlaneStat(task, "profile_stop_time", 5000);
  ModelOptions options;
  options.hostname = "from-caller";
  ProfileModel model = Build(t.space, options);
  ASSERT_EQ(model.run_environment.hosts.size(), 1u);
  const HostEnvironment& env = model.run_environment.hosts[0];
  EXPECT_EQ(env.hostname, "from-caller");
  EXPECT_EQ(env.logical_cores, 16);
  EXPECT_EQ(env.process_id, 4242);
  EXPECT_EQ(env.profile_start_time_ns, 1000);
  EXPECT_EQ(env.profile_stop_time_ns, 5000);
  EXPECT_EQ(model.run_environment.dropped_traces, 12);
  EXPECT_TRUE(HasDiagnostic(model, "12 events were dropped"));
}

// ---- real files ----

std::string XPlaneFile(std::string_view name) {
  return std::string(STEPSCOPE_SHARED_DIR) + "/testdata/xplane/" + std::string(name);
}

TEST(BuildProfileModelTest, RealTensorFlowGpuFile) {
  StatusOr<ProfileModel> built =
      BuildProfileModelFromFile(XPlaneFile("tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb"));
  ASSERT_TRUE(built.ok()) << built.status().ToString();
  const ProfileModel& model = *built;
  EXPECT_EQ(model.hostnames, std::vector<std::string>{"34.83.195.179:6003"});
  EXPECT_EQ(model.step_source, "tf_grouped");
  EXPECT_EQ(model.run_environment.device_type, "GPU");
  EXPECT_EQ(model.run_environment.device_count, 8);
  EXPECT_EQ(model.run_environment.active_device_count, 3);
  ASSERT_GE(model.steps.size(), 1u);
  for (const StepInfo& step : model.steps) {
    EXPECT_GT(step.duration_ps, 0);
    EXPECT_EQ(step.breakdown.total_ps(), step.duration_ps);
    EXPECT_GT(step.breakdown.category_ps(TimeCategory::kDeviceCompute), 0);
  }
  std::vector<int64_t> active;
  for (const DeviceActivity& d : model.devices) {
    if (d.has_activity()) active.push_back(d.device_ordinal);
    if (d.device_ordinal == 4 || d.device_ordinal == 6) {
      EXPECT_GT(d.kernel_count, 0);
      EXPECT_GT(d.kernel_time_ps, 0);
      EXPECT_EQ(d.capabilities.core_count, 80);
      EXPECT_EQ(d.capabilities.memory_bandwidth_bytes_per_s, 898048000000);
    }
    if (d.device_ordinal == 1) {
      EXPECT_EQ(d.kernel_count, 0) << "GPU 1 has copies only";
      EXPECT_EQ(d.memcpy[static_cast<int>(MemcpyDirection::kHostToDevice)].count, 19);
    }
  }
  EXPECT_EQ(active, (std::vector<int64_t>{1, 4, 6}));
  EXPECT_FALSE(model.kernels.empty());
  EXPECT_FALSE(model.device_ops.ops.empty());
  EXPECT_FALSE(model.host_ops.ops.empty());
  EXPECT_GT(model.host_threads.size(), 10u);
  EXPECT_EQ(static_cast<uint64_t>(model.total_events), model.source->num_events());
  EXPECT_GT(model.total_events, 15354) << "host plane alone has 15354";
}

TEST(BuildProfileModelTest, RealJaxFilesAreSane) {
  for (std::string_view name :
       {"tracelens_jax_mi300_te_fused_attn.xplane.pb", "tracelens_jax_mi300_conv_minimal_8gpu.xplane.pb"}) {
    SCOPED_TRACE(name);
    StatusOr<ProfileModel> built = BuildProfileModelFromFile(XPlaneFile(name));
    ASSERT_TRUE(built.ok()) << built.status().ToString();
    EXPECT_EQ(built->run_environment.device_type, "GPU");
    EXPECT_TRUE(built->has_device);
    EXPECT_FALSE(built->kernels.empty());
    EXPECT_FALSE(built->device_ops.ops.empty());
    for (const StepInfo& step : built->steps) EXPECT_EQ(step.breakdown.total_ps(), step.duration_ps);
    for (const DeviceActivity& d : built->devices) {
      EXPECT_GE(d.idle_ps(), 0);
      EXPECT_EQ(d.capabilities.vendor, "AMD");
    }
    // The XLA programs of /host:metadata come with the model (src/hlo tests count them),
    // and a combined model keeps them once.
    ASSERT_NE(built->hlo, nullptr);
    EXPECT_FALSE(built->hlo->modules.empty());
    const size_t modules = built->hlo->modules.size();
    std::vector<ProfileModel> two;
    two.push_back(*built);
    two.push_back(*built);
    ProfileModel combined = CombineHostModels(std::move(two));
    ASSERT_NE(combined.hlo, nullptr);
    EXPECT_EQ(combined.hlo->modules.size(), modules);

    // Kernels -> HLO: every kernel counts once, every kernel with an hlo_op finds its
    // instruction in XLA's own HLO, and the rows add up to the counts.
    int64_t kernels = 0, row_kernels = 0;
    for (const DeviceActivity& d : built->devices) kernels += d.kernel_count;
    EXPECT_EQ(built->hlo_join.kernels, kernels);
    EXPECT_GT(built->hlo_join.kernels_with_hlo_op, 0);
    EXPECT_EQ(built->hlo_join.kernels_joined, built->hlo_join.kernels_with_hlo_op);
    for (const HloOpTime& op : built->hlo_ops) {
      row_kernels += op.kernel_count;
      EXPECT_GE(op.instruction, 0) << op.module_name << " " << op.op_name;
      EXPECT_GE(op.kernel_count, op.occurrences);
    }
    EXPECT_EQ(row_kernels, built->hlo_join.kernels_with_hlo_op);
    EXPECT_EQ(combined.hlo_join.kernels, 2 * kernels);
    EXPECT_EQ(combined.hlo_join.kernels_joined, 2 * built->hlo_join.kernels_joined);
    std::printf("%s: %lld of %lld kernels joined to HLO\n", std::string(name).c_str(),
                static_cast<long long>(built->hlo_join.kernels_joined), static_cast<long long>(kernels));
  }
}

}  // namespace
}  // namespace stepscope::analysis
