// The framework's own words and advice (issue 12, item 2): each framework's input ops on
// the input pipeline page with their share, advice that names that framework's knobs,
// and metrics that do not apply to it hidden rather than shown as 0. Synthetic profiles
// (a PyTorch trace through the Kineto importer; TensorFlow, JAX and stepscope XSpaces
// written with the builder) with known numbers, then the shared files.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/model/model_test_util.h"
#include "src/analysis/tools/advisor.h"
#include "src/analysis/tools/framework.h"
#include "src/analysis/tools/input_pipeline.h"
#include "src/importers/importer_registry.h"
#include "src/xspace/schema.h"

namespace stepscope::golden {
namespace {

using analysis::Framework;
using analysis::InputPipelineAnalysis;
using analysis::ProfileModel;
using analysis::testing::TestSpace;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

ProfileModel FromKineto(std::string_view json) {
  xspace::XSpace space;
  importers::ImportStats stats;
  Status imported = importers::ImportTraceBytes(json, {}, &space, &stats);
  EXPECT_TRUE(imported.ok()) << imported.ToString();
  StatusOr<ProfileModel> model = analysis::BuildProfileModelFromXSpace(space);
  EXPECT_TRUE(model.ok()) << model.status().ToString();
  return model.ok() ? std::move(*model) : ProfileModel();
}

ProfileModel FromSpace(const xspace::XSpace& space) {
  StatusOr<ProfileModel> model = analysis::BuildProfileModelFromXSpace(space);
  EXPECT_TRUE(model.ok()) << model.status().ToString();
  return model.ok() ? std::move(*model) : ProfileModel();
}

ProfileModel FromSharedFile(const std::string& sub, const std::string& file) {
  const std::string path = std::string(STEPSCOPE_SHARED_DIR) + "/testdata/" + sub + "/" + file;
  if (sub == "xplane") {
    StatusOr<ProfileModel> model = analysis::BuildProfileModelFromFile(path);
    EXPECT_TRUE(model.ok()) << model.status().ToString();
    return model.ok() ? std::move(*model) : ProfileModel();
  }
  StatusOr<xspace::XSpace> space = importers::ImportTraceFile(path);
  EXPECT_TRUE(space.ok()) << space.status().ToString();
  return space.ok() ? FromSpace(*space) : ProfileModel();
}

const analysis::InputOpRow* FindInputOp(const InputPipelineAnalysis& a, std::string_view name, bool on_device,
                                        std::string_view type_part = "") {
  for (const analysis::InputOpRow& row : a.input_ops) {
    if (row.name == name && row.on_device == on_device && row.type.find(type_part) != std::string::npos) return &row;
  }
  return nullptr;
}

std::vector<std::string> BreakdownKeys(const InputPipelineAnalysis& a) {
  std::vector<std::string> keys;
  for (const analysis::HostBreakdownRow& row : a.host_breakdown) keys.push_back(row.category);
  return keys;
}

// One 100 us ProfilerStep: the DataLoader's __next__ [0, 60) (pinning the batch [40, 55)
// inside it), then two copies to the GPU issued by aten::copy_ - 4 us from pageable memory
// at [62, 66), 2 us from pinned memory at [68, 70) - and a 20 us GEMM at [72, 92).
constexpr std::string_view kDataLoaderBoundTrace = R"json({"schemaVersion": 1, "traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#7", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
  {"ph": "X", "cat": "user_annotation", "name": "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
   "pid": 1, "tid": 1, "ts": 0, "dur": 60},
  {"ph": "X", "cat": "cpu_op", "name": "aten::pin_memory", "pid": 1, "tid": 1, "ts": 40, "dur": 15, "args": {"External id": 101}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::copy_", "pid": 1, "tid": 1, "ts": 60, "dur": 4, "args": {"External id": 102}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 1, "tid": 1, "ts": 61, "dur": 1,
   "args": {"correlation": 20}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::copy_", "pid": 1, "tid": 1, "ts": 66, "dur": 2, "args": {"External id": 103}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 1, "tid": 1, "ts": 66, "dur": 1,
   "args": {"correlation": 21}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 70, "dur": 3, "args": {"External id": 104}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 71, "dur": 1,
   "args": {"correlation": 22}},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7, "ts": 62, "dur": 4,
   "args": {"device": 0, "stream": 7, "correlation": 20, "bytes": 4096}},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "pid": 0, "tid": 7, "ts": 68, "dur": 2,
   "args": {"device": 0, "stream": 7, "correlation": 21, "bytes": 4096}},
  {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 72, "dur": 20,
   "args": {"device": 0, "stream": 7, "correlation": 22}}
]})json";

TEST(PyTorchInputTest, DataLoaderPinnedAndDeviceCopiesAreListedWithTheirShare) {
  const ProfileModel model = FromKineto(kDataLoaderBoundTrace);
  const InputPipelineAnalysis a = analysis::ComputeInputPipelineAnalysis(model);
  EXPECT_EQ(a.summary.framework.framework, Framework::kPyTorch);
  ASSERT_EQ(a.summary.step_count, 1);

  // The input share, split in the framework's words: 60 us waiting for the DataLoader,
  // 6 us of copies (nothing else runs then), 66 % in all.
  ASSERT_EQ(a.input_share.size(), 2u);
  EXPECT_THAT(a.input_share[0].label, HasSubstr("DataLoader"));
  EXPECT_NEAR(a.input_share[0].percent, 60.0, 1e-9);
  EXPECT_THAT(a.input_share[1].label, HasSubstr("aten::copy_"));
  EXPECT_NEAR(a.input_share[1].percent, 6.0, 1e-9);
  EXPECT_NEAR(a.summary.input_percent, 66.0, 1e-9);

  // The input ops: the DataLoader (its self time: 60 - 15 us of pinning), the pinning,
  // and each device copy by the op that issued it and its source memory.
  const analysis::InputOpRow* loader =
      FindInputOp(a, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", /*on_device=*/false);
  ASSERT_NE(loader, nullptr);
  EXPECT_EQ(loader->category, "data_loader");
  EXPECT_NEAR(loader->self_time_ms, 0.045, 1e-12);
  EXPECT_NEAR(loader->step_time_percent.value_or(-1), 45.0, 1e-9);
  const analysis::InputOpRow* pin = FindInputOp(a, "aten::pin_memory", false);
  ASSERT_NE(pin, nullptr);
  EXPECT_EQ(pin->category, "pin_memory");
  EXPECT_NEAR(pin->step_time_percent.value_or(-1), 15.0, 1e-9);
  const analysis::InputOpRow* pageable = FindInputOp(a, "aten::copy_", true, "pageable");
  const analysis::InputOpRow* pinned = FindInputOp(a, "aten::copy_", true, "pinned");
  ASSERT_NE(pageable, nullptr);
  ASSERT_NE(pinned, nullptr);
  EXPECT_EQ(pageable->category, "host_to_device");
  EXPECT_NEAR(pageable->total_time_ms, 0.004, 1e-12);
  EXPECT_NEAR(pinned->total_time_ms, 0.002, 1e-12);
  EXPECT_FALSE(pageable->self_time_percent.has_value()) << "a device row has no share of host op time";
  EXPECT_NEAR(pageable->step_time_percent.value_or(-1), 4.0, 1e-9);

  // PyTorch's host classes only: no tf.data file reads or preprocessing shown as 0.
  EXPECT_EQ(BreakdownKeys(a), (std::vector<std::string>{"data_loader", "pin_memory"}));
  // Nor a compilation category PyTorch traces never record.
  EXPECT_FALSE(a.summary.category_applies[static_cast<int>(analysis::TimeCategory::kCompilation)]);

  // The advice names the DataLoader's knobs, and pin_memory / non_blocking for the
  // pageable copy; not tf.data's, not stepscope's annotations.
  EXPECT_THAT(a.recommendation, AllOf(HasSubstr("num_workers"), HasSubstr("persistent_workers"),
                                      HasSubstr("prefetch_factor"), HasSubstr("pin_memory=True"),
                                      HasSubstr("non_blocking=True"), HasSubstr("1 of 2 host-to-device copies")));
  EXPECT_THAT(a.recommendation, AllOf(Not(HasSubstr("tf.data")), Not(HasSubstr("ScopedIterator"))));
  // The advisor passes it on, and its other advice speaks PyTorch too.
  const analysis::AdvisorReport report = analysis::ComputeAdvice(model);
  ASSERT_FALSE(report.findings.empty());
  EXPECT_EQ(report.findings[0].id, "input_bound");
  EXPECT_EQ(report.findings[0].advice, a.recommendation);
}

TEST(PyTorchInputTest, CopyBoundStepIsToldToPinAndCopyAsynchronously) {
  // 10 us of DataLoader, then a 70 us copy from pageable memory the host does not wait in
  // (the launch returns at once), in a 100 us step.
  const ProfileModel model = FromKineto(R"json({"traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
    {"ph": "X", "cat": "user_annotation", "name": "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__",
     "pid": 1, "tid": 1, "ts": 0, "dur": 10},
    {"ph": "X", "cat": "cpu_op", "name": "aten::to", "pid": 1, "tid": 1, "ts": 10, "dur": 4, "args": {"External id": 105}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::copy_", "pid": 1, "tid": 1, "ts": 11, "dur": 2, "args": {"External id": 106}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 1, "tid": 1, "ts": 11, "dur": 1,
     "args": {"correlation": 5}},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7, "ts": 15,
     "dur": 70, "args": {"device": 0, "stream": 7, "correlation": 5, "bytes": 1048576}}
  ]})json");
  const InputPipelineAnalysis a = analysis::ComputeInputPipelineAnalysis(model);
  EXPECT_EQ(a.summary.framework.framework, Framework::kPyTorch);
  EXPECT_NEAR(a.summary.input_percent, 80.0, 1e-9);
  ASSERT_NE(FindInputOp(a, "aten::copy_", true, "pageable"), nullptr);
  EXPECT_THAT(a.recommendation, AllOf(HasSubstr("Host-to-device copies take 0.07 ms"), HasSubstr("pin_memory=True"),
                                      HasSubstr("non_blocking=True")));
  EXPECT_THAT(a.recommendation, Not(HasSubstr("num_workers")));
}

// TensorFlow: a tf.data pipeline on a worker thread feeding IteratorGetNext, with TF ops.
TEST(TensorFlowInputTest, TfDataOpsAndTheirKnobs) {
  TestSpace t;
  auto main = t.HostLine(1, "python");
  auto worker = t.HostLine(2, "tf_data_private_threadpool");
  for (int k = 0; k < 4; ++k) {
    const double b = 10.0 * k;
    t.Event(main, "train", b, b + 10, {{"step_num", k}, {"_r", 1}});
    t.Event(main, "IteratorGetNext", b, b + 5);
    t.Event(main, "model/dense/MatMul:MatMul", b + 5, b + 9);
    t.Event(worker, "Iterator::Prefetch::Map", b, b + 4);
    t.Event(worker, "Iterator::Prefetch::Map::TFRecord", b, b + 1);
  }
  const ProfileModel model = FromSpace(t.space);
  const InputPipelineAnalysis a = analysis::ComputeInputPipelineAnalysis(model);
  EXPECT_EQ(a.summary.framework.framework, Framework::kTensorFlow);
  EXPECT_NEAR(a.summary.input_percent, 50.0, 1e-9);
  EXPECT_THAT(a.input_share[0].label, HasSubstr("IteratorGetNext"));
  const analysis::InputOpRow* map = FindInputOp(a, "Iterator::Prefetch::Map", false);
  ASSERT_NE(map, nullptr);
  EXPECT_EQ(map->category, "preprocessing");
  EXPECT_NEAR(map->self_time_ms, 12.0, 1e-9);
  EXPECT_EQ(FindInputOp(a, "Iterator::Prefetch::Map::TFRecord", false)->category, "advanced_file_read");
  // XProf's five classes; PyTorch's hidden.
  EXPECT_EQ(BreakdownKeys(a), (std::vector<std::string>{"demanded_file_read", "advanced_file_read", "preprocessing",
                                                        "enqueue_to_device", "other"}));
  EXPECT_THAT(a.recommendation, AllOf(HasSubstr("num_parallel_calls=tf.data.AUTOTUNE"), HasSubstr(".cache()"),
                                      HasSubstr(".prefetch(tf.data.AUTOTUNE)")));
  EXPECT_THAT(a.recommendation, AllOf(Not(HasSubstr("num_workers")), Not(HasSubstr("stepscope"))));
}

// JAX: jitted steps fed by device_put; the transfers are its input ops.
TEST(JaxInputTest, DevicePutIsTheInputAndTheAdviceIsJaxs) {
  TestSpace t;
  auto main = t.HostLine(1, "python");
  for (int k = 0; k < 3; ++k) {
    const double b = 10.0 * k;
    t.Event(main, "train", b, b + 10, {{"step_num", k}, {"_r", 1}});
    t.Event(main, "IteratorGetNext", b, b + 3);
    t.Event(main, "DevicePutWithSharding", b + 3, b + 5);
    t.Event(main, "PjitFunction(train_step)", b + 5, b + 10);
  }
  const InputPipelineAnalysis a = analysis::ComputeInputPipelineAnalysis(FromSpace(t.space));
  EXPECT_EQ(a.summary.framework.framework, Framework::kJax);
  const analysis::InputOpRow* put = FindInputOp(a, "DevicePutWithSharding", false);
  ASSERT_NE(put, nullptr);
  EXPECT_EQ(put->category, "enqueue_to_device");
  EXPECT_NEAR(put->self_time_ms, 6.0, 1e-9);
  EXPECT_THAT(a.recommendation, AllOf(HasSubstr("jax.device_put"), HasSubstr("prefetch_to_device")));
  EXPECT_THAT(a.recommendation, Not(HasSubstr("num_workers")));
}

// stepscope's own recorder (C++): tf.data-style stage names, but stepscope's advice.
TEST(StepscopeInputTest, RecorderProfilesGetStepscopesApiNotTfData) {
  TestSpace t;
  auto main = t.HostLine(1, "train_loop");
  t.PlaneStat(t.Plane(xspace::kHostThreadsPlaneName), "logical_cores", 8);
  for (int k = 0; k < 4; ++k) {
    const double b = 10.0 * k;
    t.Event(main, "train", b, b + 10, {{"step_num", k}, {"_r", 1}});
    t.Event(main, "IteratorGetNext", b, b + 6);
    t.Event(main, "Iterator::Batch::Map", b, b + 5);
  }
  const ProfileModel model = FromSpace(t.space);
  const InputPipelineAnalysis a = analysis::ComputeInputPipelineAnalysis(model);
  EXPECT_EQ(a.summary.framework.framework, Framework::kStepscope);
  EXPECT_THAT(a.input_share[0].label, HasSubstr("stepscope::ScopedGetNext"));
  EXPECT_THAT(a.recommendation, AllOf(HasSubstr("ScopedIterator"), HasSubstr("several threads")));
  EXPECT_THAT(a.recommendation, AllOf(Not(HasSubstr("tf.data")), Not(HasSubstr("num_workers"))));
  // A CPU-only program: the device categories do not apply, and are not shown as 0.
  const analysis::output::Table breakdown = analysis::StepBreakdownTable(a.summary, /*for_people=*/false);
  std::vector<std::string> categories;
  for (const analysis::output::Row& row : breakdown.rows) categories.push_back(std::get<std::string>(row[0]));
  EXPECT_EQ(categories, (std::vector<std::string>{"compilation", "input", "host_compute", "other"}));
  std::string json;
  analysis::output::JsonWriter w(&json);
  analysis::output::WriteRecordJson(a, &w);
  EXPECT_THAT(json, Not(HasSubstr("device_compute")));
  EXPECT_THAT(json, HasSubstr("\"framework\":\"stepscope\""));
}

// The shared files: each framework found, and PyTorch's device copies listed by op and
// source memory (hta_sampled_rank-0: aten::copy_ issued 16 copies from pageable and 8
// from pinned memory, the file's "Memcpy HtoD (... -> Device)" events).
TEST(SharedFilesFrameworkTest, EachFileSpeaksItsFramework) {
  struct Case {
    const char* sub;
    const char* file;
    Framework framework;
  };
  for (const Case& c : {Case{"traces", "hta_sampled_rank-0.json.gz", Framework::kPyTorch},
                        Case{"traces", "hta_amd_mi250_minitoy_train_ROCm6_2_kineto.json.gz", Framework::kPyTorch},
                        Case{"traces", "tracelens_h100_bert_small.json.gz", Framework::kPyTorch},
                        Case{"traces", "perfetto_flow_events_json_v1.json", Framework::kUnknown},
                        Case{"xplane", "tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb",
                             Framework::kTensorFlow},
                        Case{"xplane", "tracelens_jax_mi300_conv_minimal_8gpu.xplane.pb", Framework::kJax},
                        Case{"xplane", "tracelens_jax_mi300_te_fused_attn.xplane.pb", Framework::kJax}}) {
    const ProfileModel model = FromSharedFile(c.sub, c.file);
    const analysis::FrameworkGuess guess = analysis::DetectFramework(model);
    EXPECT_EQ(guess.framework, c.framework) << c.file << ": " << guess.evidence;
  }
  const InputPipelineAnalysis a =
      analysis::ComputeInputPipelineAnalysis(FromSharedFile("traces", "hta_sampled_rank-0.json.gz"));
  const analysis::InputOpRow* pageable = FindInputOp(a, "aten::copy_", true, "pageable");
  const analysis::InputOpRow* pinned = FindInputOp(a, "aten::copy_", true, "pinned");
  ASSERT_NE(pageable, nullptr);
  ASSERT_NE(pinned, nullptr);
  EXPECT_EQ(pageable->count, 16);
  EXPECT_EQ(pinned->count, 8);
  // JAX's transfers to the device are its input ops.
  const InputPipelineAnalysis jax = analysis::ComputeInputPipelineAnalysis(
      FromSharedFile("xplane", "tracelens_jax_mi300_conv_minimal_8gpu.xplane.pb"));
  const analysis::InputOpRow* put = FindInputOp(jax, "DevicePutWithSharding", false);
  ASSERT_NE(put, nullptr);
  EXPECT_EQ(put->count, 5);
  EXPECT_EQ(put->category, "enqueue_to_device");
}

}  // namespace
}  // namespace stepscope::golden
