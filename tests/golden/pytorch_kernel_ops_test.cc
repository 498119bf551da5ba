// PyTorch (Kineto) traces: every kernel the host launched is attributed to the PyTorch op
// around its launch (docs/model.md, "Op metrics"), checked on the shared H100 traces
// against counts read from the file's JSON here, not through the importer.
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/tool_registry.h"
#include "src/importers/importer_registry.h"
#include "src/importers/testing/trace_facts.h"

namespace stepscope::golden {
namespace {

// Kernel events of the file whose correlation id is also on a host runtime / driver call
// (the kernels the host launched inside the capture).
int64_t LaunchedKernels(const std::string& path) {
  std::string error;
  const importers::testing::FileFacts file =
      importers::testing::ReadFileFacts(importers::testing::ReadInflated(path), &error);
  EXPECT_TRUE(error.empty()) << path << ": " << error;
  std::set<std::string> launches;  // correlation ids as written
  std::vector<std::string> kernels;
  for (const importers::testing::FileEvent& event : file.events) {
    auto correlation = event.args.find("correlation");
    if (correlation == event.args.end()) continue;
    if (event.cat == "cuda_runtime" || event.cat == "cuda_driver") launches.insert(correlation->second);
    if (event.cat == "kernel") kernels.push_back(correlation->second);
  }
  int64_t launched = 0;
  for (const std::string& k : kernels) launched += static_cast<int64_t>(launches.count(k));
  return launched;
}

analysis::ProfileModel Load(const std::string& path) {
  StatusOr<xspace::XSpace> space = importers::ImportTraceFile(path);
  EXPECT_TRUE(space.ok()) << space.status().ToString();
  if (!space.ok()) return {};
  StatusOr<analysis::ProfileModel> model = analysis::BuildProfileModelFromXSpace(*space);
  EXPECT_TRUE(model.ok()) << model.status().ToString();
  return model.ok() ? std::move(*model) : analysis::ProfileModel();
}

int64_t KernelsWithOp(const analysis::ProfileModel& model) {
  int64_t n = 0;
  for (const analysis::KernelStats& k : model.kernels) {
    if (!k.op_name.empty()) n += k.occurrences;
  }
  return n;
}

TEST(PyTorchKernelOpsTest, BertKernelsRunForAtenOps) {
  const std::string path = importers::testing::TraceTestFile("tracelens_h100_bert_small.json.gz");
  analysis::ProfileModel model = Load(path);
  ASSERT_FALSE(model.kernels.empty());
  EXPECT_EQ(LaunchedKernels(path), 60);
  EXPECT_EQ(KernelsWithOp(model), 60);
  bool addmm_eligible = false;
  for (const analysis::KernelStats& k : model.kernels) {
    EXPECT_TRUE(k.op_name.starts_with("aten::")) << k.kernel_name << " -> '" << k.op_name << "'";
    if (k.op_name == "aten::addmm") addmm_eligible = k.is_op_tensor_core_eligible;
  }
  EXPECT_TRUE(addmm_eligible);
  // framework_op_stats' device ops are the aten ops (the one copy is aten::_local_scalar_dense's).
  for (const analysis::OpMetrics& op : model.device_ops.ops) {
    EXPECT_TRUE(op.name.starts_with("aten::")) << op.name;
    EXPECT_EQ(op.category, analysis::OpCategory::kPyTorch) << op.name;
  }
  // And the tools say so in their JSON.
  auto kernel_stats = analysis::RunTool("kernel_stats", model);
  ASSERT_TRUE(kernel_stats.ok()) << kernel_stats.status().ToString();
  const std::string json = (*kernel_stats)->ToJson(/*pretty=*/false);
  EXPECT_EQ(json.find("\"op_name\":\"\""), std::string::npos);
  EXPECT_NE(json.find("\"op_name\":\"aten::addmm\""), std::string::npos);
  auto op_stats = analysis::RunTool("framework_op_stats", model);
  ASSERT_TRUE(op_stats.ok()) << op_stats.status().ToString();
  EXPECT_EQ((*op_stats)->ToJson(false).find("device_kernel"), std::string::npos);
}

// Qwen: 436 of its 1465 kernels were launched before the host trace starts (their
// correlation ids are on no host event): those keep their kernel names.
TEST(PyTorchKernelOpsTest, QwenLaunchedKernelsRunForAtenOps) {
  const std::string path = importers::testing::TraceTestFile("tracelens_h100_qwen1.5_0.5b_chat.json.gz");
  analysis::ProfileModel model = Load(path);
  const int64_t launched = LaunchedKernels(path);
  EXPECT_EQ(launched, 1029);
  EXPECT_EQ(KernelsWithOp(model), launched);
  for (const analysis::KernelStats& k : model.kernels) {
    if (!k.op_name.empty()) {
      EXPECT_TRUE(k.op_name.starts_with("aten::")) << k.op_name;
    }
    if (k.op_name == "aten::mm" || k.op_name == "aten::addmm") {
      EXPECT_TRUE(k.is_op_tensor_core_eligible) << k.kernel_name;
    }
  }
}

}  // namespace
}  // namespace stepscope::golden
