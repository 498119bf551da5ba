// PyTorch's [memory] instants (Kineto traces recorded with profile_memory=True) imported
// as TensorFlow's MemoryAllocation / MemoryDeallocation events and read by the
// memory_profile tool: the memory id is the device, the op is the ATen op around the
// instant, the step is the ProfilerStep the model found.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/tools/framework_op_stats.h"
#include "src/analysis/tools/memory_profile.h"
#include "src/importers/importer_registry.h"
#include "src/importers/testing/trace_facts.h"

namespace stepscope::golden {
namespace {

using analysis::MemoryProfileResult;
using analysis::PerAllocatorMemoryProfile;

MemoryProfileResult ProfileOf(const std::string& json) {
  xspace::XSpace space;
  importers::ImportStats stats;
  Status imported = importers::ImportTraceBytes(json, {}, &space, &stats);
  EXPECT_TRUE(imported.ok()) << imported.ToString();
  StatusOr<analysis::ProfileModel> model = analysis::BuildProfileModelFromXSpace(space);
  EXPECT_TRUE(model.ok()) << model.status().ToString();
  return model.ok() ? analysis::ComputeMemoryProfile(*model) : MemoryProfileResult();
}

const PerAllocatorMemoryProfile* Find(const MemoryProfileResult& r, const std::string& id) {
  for (const PerAllocatorMemoryProfile& a : r.allocators) {
    if (a.memory_id == id) return &a;
  }
  return nullptr;
}

std::string Memory(double ts, int64_t bytes, int64_t address, int64_t total, int device_type, int device_id) {
  return R"({"ph":"i","cat":"cpu_instant_event","s":"t","name":"[memory]","pid":1,"tid":1,"ts":)" +
         std::to_string(ts) + R"(,"args":{"Total Reserved":8388608,"Total Allocated":)" + std::to_string(total) +
         R"(,"Bytes":)" + std::to_string(bytes) + R"(,"Addr":)" + std::to_string(address) +
         R"(,"Device Id":)" + std::to_string(device_id) + R"(,"Device Type":)" + std::to_string(device_type) + "}}";
}

TEST(KinetoMemoryTest, MemoryInstantsBecomeAllocationsWithTheirAtenOp) {
  constexpr int64_t kMiB = 1 << 20;
  std::string json = R"({"traceEvents":[
    {"ph":"X","cat":"user_annotation","name":"ProfilerStep#7","pid":1,"tid":1,"ts":100,"dur":1000,"args":{}},
    {"ph":"X","cat":"cpu_op","name":"aten::empty","pid":1,"tid":1,"ts":110,"dur":10,"args":{"External id":1}},
    {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":130,"dur":10,"args":{"External id":2}},
  )" + Memory(112, kMiB, 4096, kMiB, 1, 0) + ",\n" +
                     Memory(132, 2 * kMiB, 8192, 3 * kMiB, 1, 0) + ",\n" +
                     Memory(150, -kMiB, 4096, 2 * kMiB, 1, 0) + ",\n" +
                     Memory(160, 16, 64, 16, 0, -1) + "]}";
  MemoryProfileResult r = ProfileOf(json);
  ASSERT_EQ(r.allocators.size(), 2u);
  const PerAllocatorMemoryProfile* cuda = Find(r, "cuda:0");
  ASSERT_NE(cuda, nullptr);
  ASSERT_NE(Find(r, "cpu"), nullptr);
  EXPECT_EQ(cuda->summary.num_allocations, 2);
  EXPECT_EQ(cuda->summary.num_deallocations, 1);
  EXPECT_EQ(cuda->summary.peak_stats.heap_allocated_bytes, 3 * kMiB);
  EXPECT_EQ(cuda->summary.peak_stats.free_memory_bytes, 8 * kMiB - 3 * kMiB);  // reserved - allocated
  EXPECT_EQ(cuda->summary.peak_bytes_usage_lifetime, 3 * kMiB);
  // Both allocations are live at the peak, largest first, each named by its ATen op.
  ASSERT_EQ(cuda->active_snapshots.size(), 2u);
  EXPECT_EQ(cuda->active_snapshots[0].activity_metadata.tf_op_name, "aten::mm");
  EXPECT_EQ(cuda->active_snapshots[0].activity_metadata.allocation_bytes, 2 * kMiB);
  EXPECT_EQ(cuda->active_snapshots[1].activity_metadata.tf_op_name, "aten::empty");
  // The deallocation shows the op of the allocation it frees.
  ASSERT_EQ(cuda->sampled_timeline.size(), 3u);
  EXPECT_EQ(cuda->sampled_timeline[2].activity_metadata.tf_op_name, "aten::empty");
  // All three sit in ProfilerStep#7's group.
  EXPECT_EQ(cuda->sampled_timeline[0].activity_metadata.step_id, cuda->sampled_timeline[2].activity_metadata.step_id);
  EXPECT_EQ(cuda->diagnostics.missing_step_ids, 0);
}

// A real PyTorch trace (Qwen 1.5 0.5B chat on an H100, TraceLens): per device, the event
// counts and the peak of "Total Allocated" read from the JSON here.
TEST(KinetoMemoryTest, RealTraceMatchesTheFilesTotals) {
  const std::string path = importers::testing::TraceTestFile("tracelens_h100_qwen1.5_0.5b_chat.json.gz");
  const std::string json = importers::testing::ReadInflated(path);
  std::string error;
  importers::testing::FileFacts facts = importers::testing::ReadFileFacts(json, &error);
  ASSERT_TRUE(error.empty()) << error;
  struct Expected {
    int64_t allocations = 0, deallocations = 0, peak = 0;
  };
  std::map<std::string, Expected> expected;
  for (const importers::testing::FileEvent& e : facts.events) {
    if (e.name != "[memory]") continue;
    const int type = std::atoi(e.args.at("Device Type").c_str());
    const int id = std::atoi(e.args.at("Device Id").c_str());
    Expected& x = expected[type == 0 ? "cpu" : "cuda:" + std::to_string(id)];
    (std::atoll(e.args.at("Bytes").c_str()) < 0 ? x.deallocations : x.allocations)++;
    x.peak = std::max<int64_t>(x.peak, std::atoll(e.args.at("Total Allocated").c_str()));
  }
  ASSERT_EQ(expected.size(), 2u);
  MemoryProfileResult r = ProfileOf(json);
  ASSERT_EQ(r.allocators.size(), expected.size());
  for (const auto& [id, x] : expected) {
    SCOPED_TRACE(id);
    const PerAllocatorMemoryProfile* a = Find(r, id);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->summary.num_allocations, x.allocations);
    EXPECT_EQ(a->summary.num_deallocations, x.deallocations);
    EXPECT_EQ(a->summary.peak_stats.peak_bytes_in_use, x.peak);
    EXPECT_FALSE(a->active_allocations.empty());
    std::printf("qwen %s: %lld allocations, %lld frees, peak %lld B; largest live at peak: %s\n", id.c_str(),
                static_cast<long long>(x.allocations), static_cast<long long>(x.deallocations),
                static_cast<long long>(x.peak),
                a->active_snapshots.empty() ? "-" : a->active_snapshots[0].activity_metadata.tf_op_name.c_str());
  }
}

// PyTorch 1.9's [memory] instants: no "cat", and only the device and a signed "Bytes" (no
// "Addr", no "Total Allocated"). Bytes in use are the running sum of the sizes, as
// PyTorch's TensorBoard plugin drew it; the peak is its maximum, never 0; no breakdown is
// claimed, and the tool says why.
TEST(KinetoMemoryTest, PyTorch19SizesWithoutAddressesAreARunningSum) {
  auto memory = [](double ts, int64_t bytes, int device_type) {
    return R"({"ph":"i","s":"t","name":"[memory]","pid":1,"tid":1,"ts":)" + std::to_string(ts) +
           R"(,"args":{"Device Type":)" + std::to_string(device_type) + R"(,"Device Id":)" +
           (device_type == 0 ? "-1" : "0") + R"(,"Bytes":)" + std::to_string(bytes) + "}}";
  };
  std::string json = R"({"traceEvents":[
    {"ph":"X","cat":"Operator","name":"ProfilerStep#1","pid":1,"tid":1,"ts":100,"dur":1000,"args":{}},
    {"ph":"X","cat":"Operator","name":"aten::empty","pid":1,"tid":1,"ts":105,"dur":60,"args":{}},
  )" + memory(110, 4096, 1) + ",\n" + memory(120, 8192, 1) + ",\n" + memory(130, -4096, 1) + ",\n" +
                     memory(140, 1024, 1) + ",\n" + memory(150, -8192, 1) + ",\n" + memory(160, 512, 0) + "]}";
  MemoryProfileResult r = ProfileOf(json);
  const PerAllocatorMemoryProfile* cuda = Find(r, "cuda:0");
  ASSERT_NE(cuda, nullptr);
  EXPECT_TRUE(cuda->heap_from_sizes);
  EXPECT_EQ(cuda->summary.num_allocations, 3);
  EXPECT_EQ(cuda->summary.num_deallocations, 2);
  EXPECT_EQ(cuda->summary.peak_stats.heap_allocated_bytes, 12288);
  EXPECT_EQ(cuda->summary.peak_bytes_usage_lifetime, 12288);
  std::vector<int64_t> in_use;
  for (const analysis::MemoryProfileSnapshot& s : cuda->sampled_timeline) {
    in_use.push_back(s.aggregation_stats.heap_allocated_bytes);
  }
  EXPECT_EQ(in_use, (std::vector<int64_t>{4096, 12288, 8192, 9216, 1024}));
  EXPECT_TRUE(cuda->active_allocations.empty()) << "no addresses: no buffer is claimed live at the peak";
  EXPECT_EQ(cuda->diagnostics.frees_without_allocation, 0);
  EXPECT_EQ(cuda->diagnostics.address_reused_without_free, 0);
  const PerAllocatorMemoryProfile* cpu = Find(r, "cpu");
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(cpu->summary.peak_stats.heap_allocated_bytes, 512);
  int notes = 0;
  for (const std::string& d : r.diagnostics) notes += d.find("no addresses") != std::string::npos ? 1 : 0;
  EXPECT_EQ(notes, 2) << "one note per memory id";
}

// key_averages()' memory columns by construction: an op's memory is the sum of the [memory]
// sizes within [begin, end] on any thread, its self memory that minus its children's; the
// CPU and CUDA allocators apart.
TEST(KinetoMemoryTest, OpMemoryColumnsAreKeyAveragesRule) {
  std::string json = R"({"traceEvents":[
    {"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":100,"dur":100,"args":{}},
    {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":120,"dur":30,"args":{}},
    {"ph":"X","cat":"cpu_op","name":"aten::other","pid":1,"tid":2,"ts":105,"dur":35,"args":{}},
  )" + Memory(110, 1024, 64, 1024, 0, -1) + ",\n" + Memory(130, 4096, 128, 5120, 0, -1) + ",\n" +
                     Memory(140, 2048, 4096, 2048, 1, 0) + ",\n" + Memory(160, -1024, 64, 4096, 0, -1) + ",\n" +
                     Memory(300, 512, 256, 4608, 0, -1) + "]}";
  xspace::XSpace space;
  importers::ImportStats stats;
  ASSERT_TRUE(importers::ImportTraceBytes(json, {}, &space, &stats).ok());
  StatusOr<analysis::ProfileModel> model = analysis::BuildProfileModelFromXSpace(space);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  EXPECT_TRUE(model->host_ops.has_memory);
  std::map<std::string, const analysis::OpMetrics*> ops;
  for (const analysis::OpMetrics& op : model->host_ops.ops) ops[op.name] = &op;
  ASSERT_EQ(ops.count("aten::linear"), 1u);
  ASSERT_EQ(ops.count("aten::mm"), 1u);
  ASSERT_EQ(ops.count("aten::other"), 1u);
  const analysis::OpMetrics& linear = *ops["aten::linear"];
  EXPECT_EQ(linear.cpu_memory_bytes, 1024 + 4096 - 1024);
  EXPECT_EQ(linear.self_cpu_memory_bytes, 0) << "all of it is aten::mm's";
  EXPECT_EQ(linear.device_memory_bytes, 2048);
  EXPECT_EQ(linear.self_device_memory_bytes, 0);
  const analysis::OpMetrics& mm = *ops["aten::mm"];
  EXPECT_EQ(mm.cpu_memory_bytes, 4096);
  EXPECT_EQ(mm.self_cpu_memory_bytes, 4096);
  EXPECT_EQ(mm.device_memory_bytes, 2048);
  EXPECT_EQ(mm.self_device_memory_bytes, 2048);
  // Another thread's op over [105, 140] counts every event in it, whichever thread
  // allocated (PyTorch matches by time alone), its end included.
  const analysis::OpMetrics& other = *ops["aten::other"];
  EXPECT_EQ(other.cpu_memory_bytes, 1024 + 4096);
  EXPECT_EQ(other.self_cpu_memory_bytes, 1024 + 4096);
  EXPECT_EQ(other.device_memory_bytes, 2048);
  analysis::FrameworkOpStats op_stats = analysis::ComputeFrameworkOpStats(*model, false);
  EXPECT_TRUE(op_stats.host_has_memory);
  EXPECT_FALSE(op_stats.host_has_types) << "PyTorch ops have no types: no Type column";
  const std::vector<analysis::output::Table> tables = analysis::output::RecordTables(op_stats);
  std::vector<std::string> columns;
  for (const analysis::output::Column& c : tables[0].columns) columns.push_back(c.id);
  EXPECT_NE(std::find(columns.begin(), columns.end(), "self_cpu_memory_bytes"), columns.end());
  EXPECT_EQ(std::find(columns.begin(), columns.end(), "type"), columns.end());
}

}  // namespace
}  // namespace stepscope::golden
