// Kineto variants not covered by the shared test files: the 2021 category names, the
// legacy autograd-profiler export, DataLoader events and overlapping steps (one trace per
// PyTorch generation: kineto_generations_test.cc).
#include <gtest/gtest.h>

#include "src/importers/importer_registry.h"
#include "src/importers/testing/trace_facts.h"
#include "src/xspace/schema.h"

namespace stepscope::importers {
namespace {

using testing::ImportedEvent;

struct Result {
  Status status;
  ImportStats stats;
  xspace::XSpace space;
  std::vector<ImportedEvent> events;
};

Result Import(std::string_view json) {
  Result result;
  result.status = ImportTraceBytes(json, {}, &result.space, &result.stats);
  result.events = testing::ImportedEvents(result.space);
  return result;
}

const ImportedEvent* Find(const Result& result, std::string_view display_name) {
  for (const ImportedEvent& event : result.events) {
    if (event.display_name == display_name) return &event;
  }
  return nullptr;
}

TEST(KinetoDialectsTest, Categories2021MapLikeTheCurrentOnes) {
  Result result = Import(R"json({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "Operator", "name": "ProfilerStep#7", "pid": 10, "tid": 10, "ts": 100, "dur": 50},
    {"ph": "X", "cat": "Operator", "name": "aten::mm", "pid": 10, "tid": 10, "ts": 110, "dur": 10,
     "args": {"Input dims": [[2, 3], [3, 4]], "external id": 5}},
    {"ph": "X", "cat": "Runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 112, "dur": 3,
     "args": {"correlation": 77, "external id": 5, "cbid": 211}},
    {"ph": "X", "cat": "Kernel", "name": "gemm", "pid": 0, "tid": "stream 7", "ts": 120, "dur": 4,
     "args": {"queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 77, "external id": 5,
              "registers per thread": 64, "shared memory": 1024, "blocks per SM": 2.0, "warps per SM": 8.0,
              "grid": [4, 2, 1], "block": [128, 1, 1], "theoretical occupancy %": 50}},
    {"ph": "X", "cat": "Memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": "stream 7",
     "ts": 130, "dur": 2, "args": {"device": 0, "stream": 7, "correlation": 78, "bytes": 4096}},
    {"ph": "X", "cat": "Memset", "name": "Memset (Device)", "pid": 0, "tid": "stream 7", "ts": 133, "dur": 1,
     "args": {"device": 0, "stream": 7, "correlation": 79, "bytes": 64}},
    {"ph": "s", "id": 77, "pid": 10, "tid": 10, "ts": 112, "cat": "ac2g", "name": "ac2g"},
    {"ph": "f", "id": 77, "pid": 0, "tid": "stream 7", "ts": 120, "cat": "ac2g", "name": "ac2g", "bp": "e"}
  ]})json");
  ASSERT_TRUE(result.status.ok()) << result.status.ToString();
  EXPECT_EQ(result.stats.format, "kineto_json");
  const ImportedEvent* step = Find(result, "ProfilerStep#7");
  ASSERT_NE(step, nullptr);
  EXPECT_EQ(step->name, "ProfilerStep");
  EXPECT_EQ(step->stats.at("step_num"), "7");
  EXPECT_EQ(step->stats.at("_r"), "1");
  const ImportedEvent* kernel = Find(result, "gemm");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(kernel->plane, "/device:GPU:0");
  EXPECT_EQ(kernel->line, "Stream #7");
  EXPECT_EQ(kernel->stats.at("kernel_details"),
            "regs:64 static_shared:1024 dynamic_shared:0 grid:4,2,1 block:128,1,1 occ_pct:50");
  EXPECT_EQ(kernel->stats.at("correlation_id"), "77");
  EXPECT_EQ(Find(result, "cudaLaunchKernel")->stats.at("correlation_id"), "77");
  const ImportedEvent* memcpy = Find(result, "Memcpy HtoD (Pageable -> Device)");
  ASSERT_NE(memcpy, nullptr);
  EXPECT_EQ(memcpy->name, "MemcpyHtoD");
  EXPECT_EQ(memcpy->stats.at("memcpy_details"), "kind_src:pageable kind_dst:device size:4096");
  const ImportedEvent* memset = Find(result, "Memset (Device)");
  ASSERT_NE(memset, nullptr);
  EXPECT_EQ(memset->name, "Memset");
  EXPECT_EQ(memset->stats.at("Memset_details"), "kind:device num_bytes:64");
  // The ac2g flow joins the launch and the kernel.
  EXPECT_EQ(Find(result, "cudaLaunchKernel")->stats.at("flow"), std::to_string((9ull << 58) | (77ull << 2) | 2));
  EXPECT_EQ(kernel->stats.at("flow"), std::to_string((9ull << 58) | (77ull << 2) | 1));
}

// A kernel's occupancy is computed from its launch and the device's limits where the trace
// has both: Kineto's own "est. achieved occupancy %" is 0 for kernels with more than 48 KiB
// of shared memory (and bounded by the grid), and is kept beside it. Without the limits
// (an older deviceProperties, or none) the trace's figure stays.
TEST(KinetoDialectsTest, OccupancyIsComputedFromTheDeviceLimits) {
  constexpr std::string_view kKernels = R"json(
    {"ph": "X", "cat": "kernel", "name": "sm80_xmma_fprop", "pid": 0, "tid": 7, "ts": 120, "dur": 4,
     "args": {"device": 0, "stream": 7, "correlation": 77, "registers per thread": 168, "shared memory": 122880,
              "grid": [1, 392, 1], "block": [128, 1, 1], "est. achieved occupancy %": 0}},
    {"ph": "X", "cat": "kernel", "name": "small", "pid": 0, "tid": 7, "ts": 130, "dur": 4,
     "args": {"device": 0, "stream": 7, "correlation": 78, "registers per thread": 32, "shared memory": 0,
              "grid": [1, 1, 1], "block": [32, 1, 1], "est. achieved occupancy %": 0}}]})json";
  const std::string full_limits = R"json({"deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3",
    "computeMajor": 9, "computeMinor": 0, "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,
    "regsPerBlock": 65536, "warpSize": 32, "sharedMemPerBlock": 49152, "numSms": 132, "regsPerMultiprocessor": 65536,
    "sharedMemPerBlockOptin": 232448, "sharedMemPerMultiprocessor": 233472}], "traceEvents": [)json" +
                                  std::string(kKernels);
  Result result = Import(full_limits);
  ASSERT_TRUE(result.status.ok()) << result.status.ToString();
  const ImportedEvent* big = Find(result, "sm80_xmma_fprop");
  ASSERT_NE(big, nullptr);
  // 1 block of 4 warps of 64 (src/xspace/kernel_occupancy_test.cc works it out).
  EXPECT_EQ(big->stats.at("kernel_details"),
            "regs:168 static_shared:122880 dynamic_shared:0 grid:1,392,1 block:128,1,1 occ_pct:6.25");
  EXPECT_EQ(big->stats.at("est. achieved occupancy %"), "0");
  const ImportedEvent* small = Find(result, "small");
  ASSERT_NE(small, nullptr);
  // One-warp blocks: the 32-block limit of the SM, 32 of 64 warps.
  EXPECT_NE(small->stats.at("kernel_details").find(" occ_pct:50"), std::string::npos);

  // The same kernels under a deviceProperties of PyTorch 1.9 (no limits): Kineto's figure.
  Result old = Import(R"json({"deviceProperties": [{"id": 0, "name": "Tesla V100-SXM2-16GB", "computeMajor": 7,
    "computeMinor": 0, "numSms": 80}], "traceEvents": [)json" + std::string(kKernels));
  ASSERT_TRUE(old.status.ok()) << old.status.ToString();
  const ImportedEvent* old_big = Find(old, "sm80_xmma_fprop");
  ASSERT_NE(old_big, nullptr);
  EXPECT_NE(old_big->stats.at("kernel_details").find(" occ_pct:0"), std::string::npos);
  EXPECT_EQ(old_big->stats.count("est. achieved occupancy %"), 0u);
}

TEST(KinetoDialectsTest, LegacyAutogradExport) {
  Result result = Import(R"json([{"name": "aten::add", "ph": "X", "ts": 10.5, "dur": 4.25, "tid": 0, "pid": "CPU functions", "args": {}},
    {"name": "aten::mul", "ph": "X", "ts": 11, "dur": 1, "tid": 0, "pid": "CPU functions", "args": {}},
    {"name": "aten::add", "ph": "s", "ts": 10.5, "tid": 0, "pid": "CPU functions", "id": 0, "cat": "cpu_to_cuda", "args": {}},
    {"name": "add_kernel", "ph": "X", "ts": 20, "dur": 2, "tid": 1, "pid": "CUDA functions", "args": {}},
    {"name": "add_kernel", "ph": "f", "ts": 20, "tid": 1, "pid": "CUDA functions", "id": 0, "cat": "cpu_to_cuda", "args": {}}])json");
  ASSERT_TRUE(result.status.ok()) << result.status.ToString();
  EXPECT_EQ(result.stats.format, "kineto_json");
  EXPECT_EQ(result.stats.DroppedTotal(), 0u);
  const ImportedEvent* add = Find(result, "aten::add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->plane, "/host:CPU");
  EXPECT_EQ(add->duration_ps, 4'250'000);
  const ImportedEvent* kernel = Find(result, "add_kernel");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(kernel->plane, "/device:GPU:1");
  uint64_t out = std::stoull(add->stats.at("flow"));
  uint64_t in = std::stoull(kernel->stats.at("flow"));
  EXPECT_EQ(out >> 2, in >> 2);
}

TEST(KinetoDialectsTest, DataLoaderEventsKeepTheirName) {
  // PyTorch's name is what users look for; the analyses classify it as an input wait
  // (src/analysis/model/op_name.h), the importer does not rename it.
  Result result = Import(R"json({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
    {"ph": "X", "cat": "user_annotation", "name": "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__",
     "pid": 1, "tid": 1, "ts": 1, "dur": 40},
    {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 1, "tid": 1, "ts": 50, "dur": 10}
  ]})json");
  ASSERT_TRUE(result.status.ok()) << result.status.ToString();
  const ImportedEvent* wait = Find(result, "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__");
  ASSERT_NE(wait, nullptr);
  EXPECT_EQ(wait->name, "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__");
  EXPECT_EQ(wait->duration_ps, 40'000'000);
  EXPECT_EQ(Find(result, "aten::linear")->name, "aten::linear");
}

TEST(KinetoDialectsTest, OverlapsNeverShortenSteps) {
  // A Python frame that began before the step and ends inside it, and one that begins
  // inside it and ends after it: both are trimmed, the step keeps its duration.
  Result result = Import(R"json({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "python_function", "name": "enter", "pid": 1, "tid": 1, "ts": 0, "dur": 12},
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 10, "dur": 100},
    {"ph": "X", "cat": "python_function", "name": "step()", "pid": 1, "tid": 1, "ts": 105, "dur": 20}
  ]})json");
  ASSERT_TRUE(result.status.ok()) << result.status.ToString();
  EXPECT_EQ(Find(result, "ProfilerStep#1")->duration_ps, 100'000'000);
  EXPECT_EQ(Find(result, "enter")->duration_ps, 10'000'000);
  EXPECT_EQ(Find(result, "step()")->duration_ps, 5'000'000);
  EXPECT_EQ(result.stats.trimmed_ps, 17'000'000);
  EXPECT_EQ(result.stats.fixed.size(), 2u);
}

}  // namespace
}  // namespace stepscope::importers
