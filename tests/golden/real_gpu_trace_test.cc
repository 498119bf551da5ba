// A real PyTorch CUDA trace (tests/data/h100_pytorch_cnn.pt.trace.json.gz, recorded on an
// H100 by tools/device/torch_trace.py) held to what PyTorch itself measured during the
// same steps and to facts of the hardware: the memory profile's peak and capacity are the
// CUDA caching allocator's own peak allocated and peak reserved bytes, and no kernel shows
// an occupancy of 0 % (each ran, so at least one block of it fit on an SM).
#include <string>

#include <gtest/gtest.h>
#include <simdjson.h>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/tool_registry.h"
#include "src/analysis/tools/memory_profile.h"
#include "src/importers/importer_registry.h"

namespace stepscope::golden {
namespace {

// Printed by torch_trace.py from torch.cuda.max_memory_allocated() / max_memory_reserved()
// over the recorded steps (tests/data/README.md).
constexpr int64_t kTorchPeakAllocated = 130380288;
constexpr int64_t kTorchPeakReserved = 180355072;

class RealGpuTraceTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::string path = std::string(STEPSCOPE_TEST_DATA_DIR) + "/h100_pytorch_cnn.pt.trace.json.gz";
    xspace::XSpace space;
    importers::ImportStats stats;
    Status imported = importers::ImportTraceFile(path, {}, &space, &stats);
    ASSERT_TRUE(imported.ok()) << imported.ToString();
    dropped_ = stats.DroppedTotal();
    StatusOr<analysis::ProfileModel> model = analysis::BuildProfileModelFromXSpace(space);
    ASSERT_TRUE(model.ok()) << model.status().ToString();
    model_ = new analysis::ProfileModel(std::move(*model));
  }
  static void TearDownTestSuite() {
    delete model_;
    model_ = nullptr;
  }
  static inline analysis::ProfileModel* model_ = nullptr;
  static inline uint64_t dropped_ = 0;
};

TEST_F(RealGpuTraceTest, ImportsWholeWithItsSixSteps) {
  ASSERT_NE(model_, nullptr);
  EXPECT_EQ(dropped_, 0u);
  EXPECT_EQ(model_->steps.size(), 6u);
}

TEST_F(RealGpuTraceTest, MemoryPeakIsTheCudaAllocatorsOwn) {
  ASSERT_NE(model_, nullptr);
  analysis::MemoryProfileResult result = analysis::ComputeMemoryProfile(*model_);
  const analysis::PerAllocatorMemoryProfile* cuda = nullptr;
  for (const analysis::PerAllocatorMemoryProfile& a : result.allocators) {
    if (a.memory_id == "cuda:0") cuda = &a;
  }
  ASSERT_NE(cuda, nullptr);
  EXPECT_EQ(cuda->summary.peak_stats.heap_allocated_bytes, kTorchPeakAllocated);
  EXPECT_EQ(cuda->summary.peak_stats.stack_reserved_bytes, 0);
  // Reserved at the peak (heap + free) is the allocator's peak reservation in this run.
  EXPECT_EQ(cuda->summary.memory_capacity, kTorchPeakReserved);
  EXPECT_EQ(cuda->summary.num_allocations, cuda->summary.num_deallocations);
}

TEST_F(RealGpuTraceTest, EveryKernelHasTheOccupancyOfItsLaunch) {
  ASSERT_NE(model_, nullptr);
  auto result = analysis::RunTool("kernel_stats", *model_);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  const std::string json = (*result)->ToJson(/*pretty=*/false);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS);
  simdjson::dom::array kernels;
  ASSERT_EQ(doc["kernels"].get_array().get(kernels), simdjson::SUCCESS);
  int rows = 0;
  bool saw_fprop = false;
  for (simdjson::dom::element row : kernels) {
    ++rows;
    std::string_view name = row["kernel_name"].get_string().value_unsafe();
    const double occupancy = row["occupancy_pct"].get_double().value_unsafe();
    EXPECT_GT(occupancy, 0.0) << name;
    EXPECT_LE(occupancy, 100.0) << name;
    // 168 registers, 122,880 B of shared memory, 128 threads on an H100: one block of
    // four warps an SM of 64 (Kineto wrote "est. achieved occupancy %": 0).
    if (name.starts_with("sm80_xmma_fprop_implicit_gemm_tf32f32")) {
      saw_fprop = true;
      EXPECT_DOUBLE_EQ(occupancy, 6.25);
    }
  }
  EXPECT_EQ(rows, 94);
  EXPECT_TRUE(saw_fprop);
}

}  // namespace
}  // namespace stepscope::golden
