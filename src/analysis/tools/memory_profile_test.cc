#include "src/analysis/tools/memory_profile.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/model/model_test_util.h"
#include "src/analysis/tool_registry.h"
#include "src/analysis/tools/advisor.h"
#include "src/base/file_io.h"
#include "src/base/gzip.h"
#include "src/xspace/columnar/columnar_reader.h"
#include "src/xspace/xspace_io.h"

namespace stepscope::analysis {
namespace {

using testing::StatArg;
using testing::TestSpace;
constexpr int64_t kMiB = int64_t{1} << 20;

// A toy allocator that writes the events TF's BFC allocator writes, with its state after
// each event computed here: heap = sum of live allocations, stack fixed, free = capacity
// - heap - stack. The expected numbers of the tests come from this bookkeeping.
class ToyAllocator {
 public:
  ToyAllocator(TestSpace* space, std::string name, int64_t capacity, int64_t stack)
      : space_(space), line_(space->HostLine(7, "tf_Compute")), name_(std::move(name)), capacity_(capacity),
        stack_(stack) {}

  void Alloc(double ms, int64_t step, const char* op, uint64_t addr, int64_t bytes, int64_t requested,
             double fragmentation, int data_type = 1, const char* shape = "[1024,256]", const char* region = "output") {
    live_[addr] = bytes;
    heap_ += bytes;
    peak_ = std::max(peak_, heap_);
    Emit("MemoryAllocation", ms, step, op, addr, bytes, requested, fragmentation, data_type, shape, region);
  }
  void Free(double ms, int64_t step, uint64_t addr, double fragmentation) {
    const int64_t bytes = live_[addr];
    live_.erase(addr);
    heap_ -= bytes;
    Emit("MemoryDeallocation", ms, step, "", addr, bytes, 0, fragmentation, 0, "", "");
  }
  int64_t heap() const { return heap_; }

 private:
  void Emit(const char* event, double ms, int64_t step, const char* op, uint64_t addr, int64_t bytes,
            int64_t requested, double fragmentation, int data_type, const char* shape, const char* region) {
    std::vector<StatArg> stats = {{"allocator_name", name_.c_str(), false},
                                  {"bytes_reserved", stack_},
                                  {"bytes_allocated", heap_},
                                  {"bytes_available", capacity_ - heap_ - stack_},
                                  {"fragmentation", fragmentation},
                                  {"peak_bytes_in_use", peak_},
                                  {"requested_bytes", requested},
                                  {"allocation_bytes", bytes},
                                  {"addr", addr},
                                  {"group_id", step},
                                  {"data_type", data_type}};
    if (*op) stats.push_back({"tf_op", op, false});
    if (*shape) stats.push_back({"shape", shape, false});
    if (*region) stats.push_back({"region_type", region, false});
    AddEvent(event, ms, stats);
  }
  void AddEvent(const char* name, double ms, const std::vector<StatArg>& stats) {
    xspace::XPlaneBuilder plane(space_->space.mutable_planes(line_.plane));
    xspace::XLineBuilder l = plane.GetOrCreateLine(line_.id);
    xspace::XEventBuilder e = l.AddEvent(*plane.GetOrCreateEventMetadata(name));
    e.SetOffsetPs(testing::Ms(ms));
    for (const StatArg& s : stats) {
      const xspace::XStatMetadata& md = *plane.GetOrCreateStatMetadata(s.name);
      if (const auto* i = std::get_if<int64_t>(&s.value)) e.AddStatValue(md, *i);
      if (const auto* u = std::get_if<uint64_t>(&s.value)) e.AddStatValue(md, *u);
      if (const auto* d = std::get_if<double>(&s.value)) e.AddStatValue(md, *d);
      if (const auto* str = std::get_if<std::string>(&s.value)) e.AddStatValue(md, std::string_view(*str));
    }
  }

  TestSpace* space_;
  TestSpace::Line line_;
  std::string name_;
  int64_t capacity_, stack_;
  int64_t heap_ = 0, peak_ = 0;
  std::map<uint64_t, int64_t> live_;
};

MemoryProfileResult Profile(const xspace::XSpace& space, const ToolOptions& options = {}) {
  return ComputeMemoryProfile(testing::BuildModelOrFail(space), options);
}

const MemoryActivityMetadata& Row(const PerAllocatorMemoryProfile& a, size_t i) {
  const ActiveAllocation& row = a.active_allocations.at(i);
  return row.special_index >= 0 ? a.special_allocations.at(row.special_index)
                                : a.active_snapshots.at(row.snapshot_index).activity_metadata;
}

// Ground truth by construction: a persistent weight from step 1, then step 2 allocates
// activations, frees one, and peaks after its last allocation.
TEST(MemoryProfileTest, PeakBreakdownAndFragmentationOfAKnownScenario) {
  TestSpace t;
  const int64_t stack = 4 * kMiB, capacity = 1024 * kMiB;
  ToyAllocator gpu(&t, "GPU_0_bfc", capacity, stack);
  gpu.Alloc(1, 1, "model/embedding/weights", 0x1000, 64 * kMiB, 64 * kMiB, 0.0);
  gpu.Alloc(10, 2, "dense/MatMul", 0x2000, 32 * kMiB, 30 * kMiB, 0.05);
  gpu.Alloc(11, 2, "conv/Conv2D", 0x3000, 128 * kMiB, 120 * kMiB, 0.10, 19, "[64,3,224,224]");
  gpu.Alloc(12, 2, "relu/Relu", 0x4000, 16 * kMiB, 16 * kMiB, 0.12);
  gpu.Alloc(13, 2, "relu/Relu", 0x5000, 16 * kMiB, 16 * kMiB, 0.15);
  gpu.Free(14, 2, 0x2000, 0.20);
  gpu.Alloc(15, 2, "softmax/Softmax", 0x6000, 48 * kMiB, 48 * kMiB, 0.25);
  const int64_t heap_at_peak = gpu.heap();
  gpu.Free(16, 2, 0x3000, 0.3);
  gpu.Free(17, 2, 0x4000, 0.3);
  gpu.Free(18, 2, 0x5000, 0.3);
  gpu.Free(19, 2, 0x6000, 0.3);
  gpu.Alloc(20, 3, "dense/MatMul", 0x2000, 100 * kMiB, 100 * kMiB, 0.4);  // smaller than the peak
  gpu.Free(21, 3, 0x2000, 0.4);

  MemoryProfileResult r = Profile(t.space);
  ASSERT_EQ(r.allocators.size(), 1u);
  const PerAllocatorMemoryProfile& a = r.allocators[0];
  EXPECT_EQ(a.memory_id, "GPU_0_bfc");
  EXPECT_EQ(heap_at_peak, (64 + 128 + 16 + 16 + 48) * kMiB);
  EXPECT_EQ(a.summary.peak_stats.peak_bytes_in_use, heap_at_peak + stack);
  EXPECT_EQ(a.summary.peak_stats.heap_allocated_bytes, heap_at_peak);
  EXPECT_EQ(a.summary.peak_stats.stack_reserved_bytes, stack);
  EXPECT_EQ(a.summary.peak_stats.free_memory_bytes, capacity - heap_at_peak - stack);
  EXPECT_DOUBLE_EQ(a.summary.peak_stats.fragmentation, 0.25);
  EXPECT_EQ(a.summary.peak_stats_time_ps, testing::Ms(15));
  EXPECT_EQ(a.summary.memory_capacity, capacity);
  EXPECT_EQ(a.summary.peak_step_id, 2);
  EXPECT_EQ(a.summary.num_allocations, 7);
  EXPECT_EQ(a.summary.num_deallocations, 6);

  // Breakdown: the step-1 weight is not an allocation of the peak step, so it is the
  // "unused preallocated" heap; then the stack; then step 2's live buffers by size.
  ASSERT_EQ(a.active_allocations.size(), 5u);
  EXPECT_EQ(Row(a, 0).tf_op_name, "unused preallocated device memory");
  EXPECT_EQ(Row(a, 0).allocation_bytes, 64 * kMiB);
  EXPECT_EQ(Row(a, 1).tf_op_name, "stack");
  EXPECT_EQ(Row(a, 1).allocation_bytes, stack);
  EXPECT_EQ(Row(a, 2).tf_op_name, "conv/Conv2D");  // the largest live buffer at the peak
  EXPECT_EQ(Row(a, 2).allocation_bytes, 128 * kMiB);
  EXPECT_EQ(Row(a, 2).requested_bytes, 120 * kMiB);
  EXPECT_EQ(Row(a, 2).data_type, "half");
  EXPECT_EQ(Row(a, 2).tensor_shape, "[64,3,224,224]");
  EXPECT_EQ(Row(a, 2).region_type, "output");
  EXPECT_EQ(Row(a, 3).tf_op_name, "softmax/Softmax");
  EXPECT_EQ(Row(a, 4).tf_op_name, "relu/Relu");
  EXPECT_EQ(a.active_allocations[4].num_occurrences, 2);
  // Rows explain the whole peak.
  int64_t explained = 0;
  for (size_t i = 0; i < a.active_allocations.size(); ++i) {
    explained += Row(a, i).allocation_bytes * a.active_allocations[i].num_occurrences;
  }
  EXPECT_EQ(explained, a.summary.peak_stats.peak_bytes_in_use);
  // Only the weight is never freed.
  EXPECT_EQ(a.diagnostics.never_freed, 1);
  EXPECT_EQ(a.diagnostics.never_freed_bytes, 64 * kMiB);
  EXPECT_EQ(a.diagnostics.frees_without_allocation, 0);
  // Deallocations show the op of the allocation they free.
  ASSERT_EQ(a.sampled_timeline.size(), 13u);
  EXPECT_EQ(a.sampled_timeline[5].activity_metadata.activity, MemoryActivity::kDeallocation);
  EXPECT_EQ(a.sampled_timeline[5].activity_metadata.tf_op_name, "dense/MatMul");

  // The CSV table carries the same rows.
  StructToolResult<MemoryProfile> result(MakeMemoryProfile(r));
  StatusOr<std::string> csv = result.TableCsv("breakdown");
  ASSERT_TRUE(csv.ok()) << csv.status().ToString();
  EXPECT_THAT(*csv, ::testing::HasSubstr("GPU_0_bfc,3,conv/Conv2D," + std::to_string(128 * kMiB) + "," +
                                         std::to_string(120 * kMiB) + ",1,"));
}

// What an allocator writes when it does not know (a "(null)" op or region, data type 0
// "INVALID") is no value: empty in the tool's output (a page shows it as absent), and the
// advisor never names "(null)".
TEST(MemoryProfileTest, NullNamesAndInvalidTypesAreAbsent) {
  TestSpace t;
  ToyAllocator gpu(&t, "GPU_0_bfc", 1024 * kMiB, 0);
  gpu.Alloc(1, 1, "(null)", 0x10, 600 * kMiB, 600 * kMiB, 0.1, /*data_type=*/0, "(null)", "(null)");
  gpu.Alloc(2, 1, "small", 0x20, 10 * kMiB, 10 * kMiB, 0.1);
  MemoryProfileResult r = Profile(t.space);
  ASSERT_EQ(r.allocators.size(), 1u);
  const PerAllocatorMemoryProfile& a = r.allocators[0];
  ASSERT_FALSE(a.active_allocations.empty());
  EXPECT_EQ(Row(a, 0).allocation_bytes, 600 * kMiB);
  EXPECT_EQ(Row(a, 0).tf_op_name, "");
  EXPECT_EQ(Row(a, 0).region_type, "");
  EXPECT_EQ(Row(a, 0).tensor_shape, "");
  EXPECT_EQ(Row(a, 0).data_type, "");
  StructToolResult<MemoryProfile> result(MakeMemoryProfile(std::move(r)));
  EXPECT_EQ(result.ToJson(false).find("(null)"), std::string::npos);
  EXPECT_EQ(result.ToJson(false).find("INVALID"), std::string::npos);
  AdvisorReport advice = ComputeAdvice(testing::BuildModelOrFail(t.space));
  for (const Finding& f : advice.findings) EXPECT_EQ(f.title.find("(null)"), std::string::npos) << f.title;
}

TEST(MemoryProfileTest, StepFilterUsesOnlyThatStep) {
  TestSpace t;
  ToyAllocator gpu(&t, "GPU_0_bfc", 1024 * kMiB, 0);
  gpu.Alloc(1, 1, "a", 0x10, 200 * kMiB, 200 * kMiB, 0);
  gpu.Free(2, 1, 0x10, 0);
  gpu.Alloc(3, 2, "b", 0x20, 50 * kMiB, 50 * kMiB, 0);
  gpu.Free(4, 2, 0x20, 0);
  ToolOptions options;
  options.step = 2;
  MemoryProfileResult r = Profile(t.space, options);
  ASSERT_EQ(r.allocators.size(), 1u);
  const PerAllocatorMemoryProfile& a = r.allocators[0];
  EXPECT_EQ(a.summary.peak_stats.peak_bytes_in_use, 50 * kMiB);
  EXPECT_EQ(a.summary.peak_step_id, 2);
  ASSERT_EQ(a.active_allocations.size(), 1u);
  EXPECT_EQ(Row(a, 0).tf_op_name, "b");
  EXPECT_EQ(a.sampled_timeline.size(), 2u);
  // Without the filter the peak is step 1's.
  EXPECT_EQ(Profile(t.space).allocators[0].summary.peak_stats.peak_bytes_in_use, 200 * kMiB);
}

// A time range (the UI's brush): the peak, summary and timeline come from the events in
// it; the breakdown is what was live at that peak, including an allocation made before the
// range and not yet freed.
TEST(MemoryProfileTest, TimeRangeSetsThePeakAndTheBreakdownFollowsIt) {
  TestSpace t;
  const int64_t capacity = 1024 * kMiB;
  ToyAllocator gpu(&t, "GPU_0_bfc", capacity, 0);
  gpu.Alloc(1, 1, "weights", 0x10, 10 * kMiB, 10 * kMiB, 0.0);
  gpu.Alloc(2, 1, "big/MatMul", 0x20, 300 * kMiB, 300 * kMiB, 0.1);  // the whole profile's peak
  gpu.Free(3, 1, 0x20, 0.1);
  gpu.Alloc(5, 1, "small/Relu", 0x30, 40 * kMiB, 40 * kMiB, 0.2);  // the range's peak: 50 MiB
  gpu.Free(6, 1, 0x30, 0.2);
  gpu.Alloc(8, 1, "late/Add", 0x40, 20 * kMiB, 20 * kMiB, 0.3);

  const PerAllocatorMemoryProfile whole = Profile(t.space).allocators.at(0);
  EXPECT_EQ(whole.summary.peak_stats.heap_allocated_bytes, 310 * kMiB);
  EXPECT_EQ(whole.summary.peak_stats_time_ps, testing::Ms(2));

  ToolOptions options;
  options.start_ps = testing::Ms(4);
  options.end_ps = testing::Ms(6);
  const MemoryProfileResult r = Profile(t.space, options);
  EXPECT_EQ(r.time_range.start_ps, testing::Ms(4));
  const PerAllocatorMemoryProfile& a = r.allocators.at(0);
  EXPECT_EQ(a.summary.peak_stats.heap_allocated_bytes, 50 * kMiB);
  EXPECT_EQ(a.summary.peak_stats_time_ps, testing::Ms(5));
  EXPECT_DOUBLE_EQ(a.summary.peak_stats.fragmentation, 0.2);
  EXPECT_EQ(a.summary.peak_bytes_usage_lifetime, 310 * kMiB);  // the allocator's own, at the range's end
  ASSERT_EQ(a.sampled_timeline.size(), 2u);  // the events at 5 and 6 ms
  EXPECT_EQ(a.sampled_timeline[0].time_offset_ps, testing::Ms(5));
  EXPECT_EQ(a.sampled_timeline[1].activity_metadata.tf_op_name, "small/Relu");
  // At the range's peak: small/Relu, and the weights allocated before the range.
  ASSERT_EQ(a.active_allocations.size(), 2u);
  EXPECT_EQ(Row(a, 0).tf_op_name, "small/Relu");
  EXPECT_EQ(Row(a, 1).tf_op_name, "weights");
  // Counts and diagnostics stay those of the whole profile.
  EXPECT_EQ(a.summary.num_allocations, whole.summary.num_allocations);
  EXPECT_EQ(a.diagnostics.never_freed, 2);

  // Open on one side; a range with no event says so.
  options.end_ps.reset();
  EXPECT_EQ(Profile(t.space, options).allocators.at(0).summary.peak_stats.heap_allocated_bytes, 50 * kMiB);
  options.start_ps = testing::Ms(100);
  const MemoryProfileResult empty = Profile(t.space, options);
  EXPECT_TRUE(empty.allocators.at(0).sampled_timeline.empty());
  EXPECT_THAT(empty.diagnostics, ::testing::Contains(::testing::HasSubstr("no memory events in the time range")));
  // The JSON says which range it is for; without one the key is absent.
  StructToolResult<MemoryProfile> ranged(MakeMemoryProfile(r));
  EXPECT_THAT(ranged.ToJson(false), ::testing::HasSubstr("\"timeRangePs\":{\"start\":" +
                                                          std::to_string(testing::Ms(4)) + ",\"end\":" +
                                                          std::to_string(testing::Ms(6)) + "}"));
  StructToolResult<MemoryProfile> plain(MakeMemoryProfile(Profile(t.space)));
  EXPECT_THAT(plain.ToJson(false), ::testing::Not(::testing::HasSubstr("timeRangePs")));
}

TEST(MemoryProfileTest, TimelineIsDownSampledWithThePeakKept) {
  MemoryAllocatorEvents allocator;
  allocator.memory_id = "m";
  const int n = 12345;
  for (int i = 0; i < n; ++i) {
    MemoryEvent e;
    e.time_ps = i;
    e.heap_allocated_bytes = (i * 7919) % 1000;  // saw-tooth noise
    if (i == 4321) e.heap_allocated_bytes = 5000;  // one spike
    e.address = static_cast<uint64_t>(i);
    e.step_id = 0;
    ASSERT_TRUE(allocator.events.push_back(e));
  }
  PerAllocatorMemoryProfile a = ComputeAllocatorProfile(allocator, {""});
  EXPECT_EQ(a.sampled_timeline.size(), kMaxTimelinePoints);
  EXPECT_EQ(a.summary.peak_stats.heap_allocated_bytes, 5000);
  bool kept = false;
  for (size_t i = 0; i < a.sampled_timeline.size(); ++i) {
    kept = kept || a.sampled_timeline[i].aggregation_stats.heap_allocated_bytes == 5000;
    if (i > 0) {
      EXPECT_LE(a.sampled_timeline[i - 1].time_offset_ps, a.sampled_timeline[i].time_offset_ps);
    }
  }
  EXPECT_TRUE(kept);
  EXPECT_EQ(a.diagnostics.never_freed, n);
}

// Hostile values: negative sizes, 2^63, NaN fragmentation, address reuse without free,
// frees without allocation, events without allocator or step. Counted, never fatal.
TEST(MemoryProfileTest, HostileEventsAreCountedNotFatal) {
  TestSpace t;
  TestSpace::Line line = t.HostLine(3, "worker");
  const uint64_t huge = uint64_t{1} << 63;
  t.Event(line, "MemoryAllocation", 1, 1,
          {{"allocator_name", "bad", false}, {"allocation_bytes", int64_t{-5}}, {"addr", uint64_t{8}},
           {"bytes_allocated", huge}, {"fragmentation", std::nan("")}});
  t.Event(line, "MemoryAllocation", 2, 2,
          {{"allocator_name", "bad", false}, {"allocation_bytes", huge}, {"addr", uint64_t{8}},
           {"bytes_allocated", int64_t{-1}}, {"bytes_reserved", huge}, {"bytes_available", huge},
           {"fragmentation", 7.0}, {"data_type", int64_t{1} << 40}});
  t.Event(line, "MemoryDeallocation", 3, 3,
          {{"allocator_name", "bad", false}, {"allocation_bytes", int64_t{64}}, {"addr", huge}});
  t.Event(line, "MemoryDeallocation", 4, 4, {{"addr", uint64_t{8}}, {"group_id", int64_t{-7}}});
  t.Event(line, "MemoryAllocation", 5, 5, {});
  ProfileModel model = testing::BuildModelOrFail(t.space);
  EXPECT_GE(model.memory.invalid_values, 8);
  EXPECT_THAT(model.diagnostics, ::testing::Contains(::testing::HasSubstr("clamped")));
  MemoryProfileResult r = ComputeMemoryProfile(model);
  ASSERT_EQ(r.allocators.size(), 2u);  // "" (no allocator name) and "bad"
  const PerAllocatorMemoryProfile& bad = r.allocators[1];
  EXPECT_EQ(bad.memory_id, "bad");
  EXPECT_EQ(bad.diagnostics.address_reused_without_free, 1);
  EXPECT_EQ(bad.diagnostics.frees_without_allocation, 1);
  EXPECT_EQ(bad.diagnostics.never_freed, 1);
  EXPECT_LE(bad.summary.peak_stats.peak_bytes_in_use, 2 * kMaxMemoryBytes);
  EXPECT_GE(bad.summary.peak_stats.fragmentation, 0.0);
  EXPECT_LE(bad.summary.peak_stats.fragmentation, 1.0);
  EXPECT_THAT(r.diagnostics, ::testing::Contains(::testing::HasSubstr("no allocation at their address")));
  EXPECT_THAT(r.diagnostics, ::testing::Contains(::testing::HasSubstr("reuse an address")));
  // Every output form works on it.
  StructToolResult<MemoryProfile> result(MakeMemoryProfile(r));
  EXPECT_FALSE(result.ToJson(false).empty());
  EXPECT_FALSE(result.FormatText({}).empty());
}

TEST(MemoryProfileTest, ToolIsRegisteredAndOnlyAvailableWithMemoryEvents) {
  StatusOr<const Tool*> tool = FindTool("memory_profile");
  ASSERT_TRUE(tool.ok());
  EXPECT_FALSE((*tool)->IsAvailable(ProfileModel()));
  TestSpace t;
  ToyAllocator gpu(&t, "GPU_0_bfc", 1024, 0);
  gpu.Alloc(1, 1, "a", 1, 8, 8, 0);
  EXPECT_TRUE((*tool)->IsAvailable(testing::BuildModelOrFail(t.space)));
}

// ---- Real files, against numbers computed here from the raw XSpace protobuf ----

struct RawMemoryEvent {
  int64_t time_ps = 0;
  bool is_allocation = true;
  std::map<std::string, int64_t> ints;
  std::string op;
};

// Reads MemoryAllocation / MemoryDeallocation of /host:CPU by walking the protobuf, per
// allocator, in time order.
std::map<std::string, std::vector<RawMemoryEvent>> RawMemoryEvents(const std::string& path) {
  std::map<std::string, std::vector<RawMemoryEvent>> out;
  StatusOr<xspace::XSpace> space = xspace::ReadXSpaceFile(path);
  EXPECT_TRUE(space.ok()) << space.status().ToString();
  if (!space.ok()) return out;
  for (const xspace::XPlane& plane : space->planes()) {
    if (plane.name() != "/host:CPU") continue;
    for (const xspace::XLine& line : plane.lines()) {
      for (const xspace::XEvent& event : line.events()) {
        const std::string& name = plane.event_metadata().at(event.metadata_id()).name();
        if (name != "MemoryAllocation" && name != "MemoryDeallocation") continue;
        // Without a tf_op stat, the op is the shortest other event of the line around it.
        std::string around;
        int64_t around_ps = INT64_MAX;
        for (const xspace::XEvent& other : line.events()) {
          const std::string& other_name = plane.event_metadata().at(other.metadata_id()).name();
          if (other_name == "MemoryAllocation" || other_name == "MemoryDeallocation") continue;
          if (other.offset_ps() <= event.offset_ps() && event.offset_ps() < other.offset_ps() + other.duration_ps() &&
              other.duration_ps() < around_ps) {
            around = other_name;
            around_ps = other.duration_ps();
          }
        }
        RawMemoryEvent raw;
        raw.time_ps = line.timestamp_ns() * 1000 + event.offset_ps();
        raw.is_allocation = name == "MemoryAllocation";
        std::string allocator;
        for (const xspace::XStat& stat : event.stats()) {
          const std::string& key = plane.stat_metadata().at(stat.metadata_id()).name();
          if (key == "allocator_name") allocator = stat.has_ref_value() ? plane.stat_metadata().at(stat.ref_value()).name() : stat.str_value();
          else if (key == "tf_op") raw.op = stat.has_ref_value() ? plane.stat_metadata().at(stat.ref_value()).name() : stat.str_value();
          else if (stat.has_int64_value()) raw.ints[key] = stat.int64_value();
          else if (stat.has_uint64_value()) raw.ints[key] = static_cast<int64_t>(stat.uint64_value());
        }
        if (raw.op.empty()) raw.op = around;
        out[allocator].push_back(raw);
      }
    }
  }
  for (auto& [id, events] : out) {
    std::stable_sort(events.begin(), events.end(),
                     [](const RawMemoryEvent& a, const RawMemoryEvent& b) { return a.time_ps < b.time_ps; });
  }
  return out;
}

struct IndependentPeak {
  int64_t peak_bytes = 0;
  int64_t peak_time_ps = 0;
  int64_t lifetime_peak = 0;
  std::vector<std::pair<int64_t, std::string>> live;  // (allocation bytes, op) of the peak step, largest first
};

IndependentPeak ComputeIndependently(const std::vector<RawMemoryEvent>& events) {
  IndependentPeak p;
  size_t peak = 0;
  std::vector<int64_t> steps;
  int64_t last_step = -1;
  for (size_t i = 0; i < events.size(); ++i) {
    auto get = [&](const char* k) { auto it = events[i].ints.find(k); return it == events[i].ints.end() ? 0 : it->second; };
    const int64_t sum = get("bytes_reserved") + get("bytes_allocated");
    if (sum >= p.peak_bytes) {
      p.peak_bytes = sum;
      peak = i;
    }
    auto g = events[i].ints.find("group_id");
    if (g == events[i].ints.end()) {
      steps.push_back(last_step + 1);
    } else {
      steps.push_back(g->second);
      last_step = g->second;
    }
    p.lifetime_peak = get("peak_bytes_in_use");
  }
  p.peak_time_ps = events[peak].time_ps;
  std::map<int64_t, size_t> live;  // address -> event
  for (size_t i = 0; i < events.size() && events[i].time_ps <= p.peak_time_ps; ++i) {
    if (steps[i] != steps[peak]) continue;
    const int64_t addr = events[i].ints.at("addr");
    if (events[i].is_allocation) live[addr] = i;
    else live.erase(addr);
  }
  for (const auto& [addr, i] : live) p.live.push_back({events[i].ints.at("allocation_bytes"), events[i].op});
  std::sort(p.live.begin(), p.live.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  return p;
}

void CheckAgainstRawEvents(const std::string& file, size_t expected_allocators) {
  const std::string path = std::string(STEPSCOPE_SHARED_DIR) + "/testdata/xplane/" + file;
  std::map<std::string, std::vector<RawMemoryEvent>> raw = RawMemoryEvents(path);
  StatusOr<ProfileModel> model = BuildProfileModelFromFile(path);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  MemoryProfileResult r = ComputeMemoryProfile(*model);
  ASSERT_EQ(r.allocators.size(), expected_allocators);
  ASSERT_EQ(raw.size(), expected_allocators);
  for (const PerAllocatorMemoryProfile& a : r.allocators) {
    SCOPED_TRACE(a.memory_id);
    ASSERT_TRUE(raw.count(a.memory_id));
    const std::vector<RawMemoryEvent>& events = raw[a.memory_id];
    IndependentPeak expected = ComputeIndependently(events);
    EXPECT_EQ(a.summary.num_allocations + a.summary.num_deallocations, static_cast<int64_t>(events.size()));
    EXPECT_EQ(a.summary.peak_stats.peak_bytes_in_use, expected.peak_bytes);
    EXPECT_EQ(a.summary.peak_stats_time_ps, expected.peak_time_ps);
    EXPECT_EQ(a.summary.peak_bytes_usage_lifetime, expected.lifetime_peak);
    // Non-special rows, expanded by occurrences, are the live allocations of the peak step.
    std::vector<std::pair<int64_t, std::string>> rows;
    for (size_t i = 0; i < a.active_allocations.size(); ++i) {
      if (a.active_allocations[i].special_index >= 0) continue;
      for (int64_t k = 0; k < a.active_allocations[i].num_occurrences; ++k) {
        rows.push_back({Row(a, i).allocation_bytes, Row(a, i).tf_op_name});
      }
    }
    ASSERT_EQ(rows.size(), expected.live.size());
    for (size_t i = 0; i < std::min<size_t>(rows.size(), 5); ++i) {
      EXPECT_EQ(rows[i].first, expected.live[i].first) << "row " << i;
    }
    if (!rows.empty()) {
      // The largest live buffer's op (ties on size may order differently: compare the set of
      // ops with the top size).
      std::set<std::string> ours, theirs;
      for (const auto& [bytes, op] : rows) if (bytes == rows[0].first) ours.insert(op);
      for (const auto& [bytes, op] : expected.live) if (bytes == expected.live[0].first) theirs.insert(op);
      EXPECT_EQ(ours, theirs);
    }
    std::printf("%s %s: %zu events, peak %lld B at %lld ps, lifetime peak %lld B, %zu live at peak",
                file.c_str(), a.memory_id.c_str(), events.size(), static_cast<long long>(expected.peak_bytes),
                static_cast<long long>(expected.peak_time_ps), static_cast<long long>(expected.lifetime_peak),
                expected.live.size());
    if (!expected.live.empty()) {
      std::printf(", largest %lld B (%s)", static_cast<long long>(expected.live[0].first), expected.live[0].second.c_str());
    }
    std::printf("\n");
  }
}

TEST(MemoryProfileTest, TensorFlowEightGpuFileMatchesRawEvents) {
  CheckAgainstRawEvents("tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb", 4);
}

TEST(MemoryProfileTest, JaxFileMatchesRawEvents) {
  CheckAgainstRawEvents("tracelens_jax_mi300_te_fused_attn.xplane.pb", 1);
}

// `stepscope analyze` (no event trees) reads memory events as records, decoded by the
// reader (columnar_memory_events.h); the same columns read plainly give the same model:
// every tool's JSON is the same, and so are the memory profile of each peak step and the
// diagnostics. The records path is checked to be the one taken.
std::string ToolJson(const ProfileModel& model, const Tool& tool, const ToolOptions& options = {}) {
  StatusOr<std::unique_ptr<ToolResult>> result = tool.Run(model, options);
  return result.ok() ? (*result)->ToJson(false) : result.status().ToString();
}

void ExpectRecordsReadTheSame(const std::string& path, size_t expected_memory_events) {
  ModelOptions no_tree;
  no_tree.keep_event_tree = false;
  StatusOr<ProfileModel> records = BuildProfileModelFromFile(path, no_tree);
  StatusOr<xspace::ColumnarXSpace> plain_space = xspace::ReadColumnarXSpaceFile(path);
  ASSERT_TRUE(records.ok()) << records.status().ToString();
  ASSERT_TRUE(plain_space.ok()) << plain_space.status().ToString();
  no_tree.hostname = records->hostnames.at(0);
  StatusOr<ProfileModel> columns =
      BuildProfileModel(std::make_shared<const xspace::ColumnarXSpace>(std::move(*plain_space)), no_tree);
  ASSERT_TRUE(columns.ok()) << columns.status().ToString();
  EXPECT_EQ(records->memory.size(), static_cast<int64_t>(expected_memory_events));
  EXPECT_EQ(records->diagnostics, columns->diagnostics);
  for (const Tool* tool : AllTools()) {
    SCOPED_TRACE(tool->id());
    EXPECT_EQ(ToolJson(*records, *tool), ToolJson(*columns, *tool));
  }
  const Tool& memory = **FindTool("memory_profile");
  for (const PerAllocatorMemoryProfile& a : ComputeMemoryProfile(*columns).allocators) {
    ToolOptions step;
    step.step = a.summary.peak_step_id;
    EXPECT_EQ(ToolJson(*records, memory, step), ToolJson(*columns, memory, step)) << a.memory_id;
  }
  // The records path was taken: the host plane holds the memory events as records, and
  // their stats are not in its columns.
  xspace::ColumnarReadOptions read;
  read.memory_event_records = IsHostThreadsPlaneName;
  StatusOr<xspace::ColumnarXSpace> with_records = xspace::ReadColumnarXSpaceFile(path, read);
  StatusOr<xspace::ColumnarXSpace> without = xspace::ReadColumnarXSpaceFile(path);
  ASSERT_TRUE(with_records.ok() && without.ok());
  size_t in_records = 0, stats_with = 0, stats_without = 0;
  for (const xspace::ColumnarPlane& plane : with_records->planes) {
    in_records += plane.memory.size();
    stats_with += plane.num_stats();
  }
  for (const xspace::ColumnarPlane& plane : without->planes) stats_without += plane.num_stats();
  EXPECT_EQ(in_records, expected_memory_events);
  EXPECT_LT(stats_with, stats_without);
}

// The serialized space read plainly and with memory events as records: the same memory
// profile, diagnostics and steps. Returns how many memory events were records.
size_t ExpectSameBothWays(const xspace::XSpace& proto) {
  std::string bytes;
  EXPECT_TRUE(proto.SerializeToString(&bytes));
  auto plain_space = xspace::ParseColumnarXSpace(bytes, "plain");
  xspace::ParseOptions options;
  options.memory_event_records = IsHostThreadsPlaneName;
  auto record_space = xspace::ParseColumnarXSpace(bytes, "records", options);
  EXPECT_TRUE(plain_space.ok() && record_space.ok());
  if (!plain_space.ok() || !record_space.ok()) return 0;
  size_t records = 0;
  for (const xspace::ColumnarPlane& plane : record_space->planes) records += plane.memory.size();
  StatusOr<ProfileModel> plain = BuildProfileModel(std::make_shared<const xspace::ColumnarXSpace>(std::move(*plain_space)));
  StatusOr<ProfileModel> from_records =
      BuildProfileModel(std::make_shared<const xspace::ColumnarXSpace>(std::move(*record_space)));
  EXPECT_TRUE(plain.ok() && from_records.ok());
  if (!plain.ok() || !from_records.ok()) return records;
  EXPECT_EQ(from_records->diagnostics, plain->diagnostics);
  EXPECT_EQ(from_records->step_source, plain->step_source);
  EXPECT_EQ(from_records->steps.size(), plain->steps.size());
  EXPECT_EQ(from_records->memory.invalid_values, plain->memory.invalid_values);
  const Tool& memory = **FindTool("memory_profile");
  EXPECT_EQ(ToolJson(*from_records, memory), ToolJson(*plain, memory));
  for (const StepInfo& step : plain->steps) {
    ToolOptions one;
    one.step = step.step_number;
    EXPECT_EQ(ToolJson(*from_records, memory, one), ToolJson(*plain, memory, one)) << "step " << step.step_number;
  }
  return records;
}

// What the records path must get right besides plain events: names and steps taken from
// the thread (no tf_op / group_id), numeric memory ids, hostile values, two threads of one
// allocator, a line out of time order (placed thread by thread), memory events inside step
// markers, and a plane whose memory event metadata carries stats (read the plain way).
TEST(MemoryProfileTest, EdgeCasesReadTheSameAsRecords) {
  TestSpace t;
  TestSpace::Line main = t.HostLine(1, "main");
  TestSpace::Line worker = t.HostLine(2, "worker");
  for (int step = 0; step < 3; ++step) {
    const double base = step * 10.0;
    t.Event(main, "train", base, base + 9, {{"step_num", step}, {"_r", 1}});
    t.Event(main, "aten::matmul", base + 1, base + 5);
    t.Event(main, "MemoryAllocation", base + 2, base + 2,
            {{"allocator_name", "cpu", false}, {"addr", uint64_t{100} + step}, {"allocation_bytes", int64_t{64}},
             {"bytes_allocated", int64_t{64}}});
    t.Event(worker, "MemoryAllocation", base + 3, base + 3,
            {{"allocator_name", "cpu", false}, {"addr", uint64_t{200} + step}, {"allocation_bytes", int64_t{32}},
             {"bytes_allocated", int64_t{96}}, {"tf_op", "worker_op"}, {"group_id", int64_t{step}}});
    t.Event(worker, "MemoryDeallocation", base + 4, base + 4,
            {{"index_on_host", int64_t{3}}, {"addr", uint64_t{7}}, {"allocation_bytes", int64_t{-1}},
             {"fragmentation", std::nan("")}, {"shape", "[2,2]", false}, {"region_type", "temp"}});
    t.Event(main, "MemoryDeallocation", base + 6, base + 6,
            {{"allocator_name", "cpu", false}, {"addr", uint64_t{100} + step}, {"allocation_bytes", int64_t{64}},
             {"bytes_allocated", int64_t{32}}, {"requested_bytes", uint64_t{1} << 63}, {"data_type", int64_t{19}}});
  }
  // A line written out of time order.
  TestSpace::Line late = t.HostLine(3, "late");
  t.Event(late, "MemoryAllocation", 8, 8, {{"allocator_name", "cpu", false}, {"addr", uint64_t{300}}});
  t.Event(late, "MemoryAllocation", 7, 7, {{"allocator_name", "gpu", false}, {"addr", uint64_t{301}}});
  EXPECT_GT(ExpectSameBothWays(t.space), 0u);

  // Memory event metadata with stats of its own: that plane is read from the columns.
  TestSpace m;
  TestSpace::Line line = m.HostLine(1, "main");
  m.Event(line, "MemoryAllocation", 1, 1, {{"addr", uint64_t{1}}, {"allocation_bytes", int64_t{8}}});
  xspace::XPlane* plane = m.space.mutable_planes(0);
  for (auto& [id, metadata] : *plane->mutable_event_metadata()) {
    if (metadata.name() != "MemoryAllocation") continue;
    xspace::XStat* stat = metadata.add_stats();
    stat->set_metadata_id(plane->stat_metadata().begin()->first);
    stat->set_int64_value(5);
  }
  EXPECT_EQ(ExpectSameBothWays(m.space), 0u);
}

// The last event written on `line`, to give it a shape TestSpace does not write.
xspace::XEvent* LastEvent(TestSpace* t, TestSpace::Line line) {
  xspace::XPlane* plane = t->space.mutable_planes(line.plane);
  for (xspace::XLine& l : *plane->mutable_lines()) {
    if (l.id() == line.id) return l.mutable_events(l.events_size() - 1);
  }
  return nullptr;
}

int64_t StatId(const xspace::XPlane& plane, std::string_view name) {
  for (const auto& [id, metadata] : plane.stat_metadata()) {
    if (metadata.name() == name) return id;
  }
  return -1;
}

// The reader decodes a memory event from the wire when it has the shape writers emit, and
// otherwise from the stat columns (MemoryRecordDecoder::Decode) - also when it finds out
// half way through the event's stats, after some were applied. Either way the records are
// what the plain read gives, hostile values counted once.
TEST(MemoryProfileTest, MemoryEventsOfEveryWireShapeReadTheSameAsRecords) {
  TestSpace t;
  TestSpace::Line line = t.HostLine(1, "main");
  t.Event(line, "train", 0, 100, {{"step_num", 1}, {"_r", 1}});
  // Writers' shape, with hostile values: from the wire.
  t.Event(line, "MemoryAllocation", 1, 1,
          {{"allocator_name", "gpu", false}, {"allocation_bytes", int64_t{-5}}, {"addr", uint64_t{1}},
           {"bytes_allocated", int64_t{64}}, {"fragmentation", 0.5}, {"tf_op", "op_a"}, {"group_id", int64_t{1}},
           {"shape", "[4]", false}});
  // A string too long to intern twice, after a clamped value and names: from the columns.
  const std::string long_op(100, 'x');
  t.Event(line, "MemoryAllocation", 2, 2,
          {{"allocator_name", "gpu", false}, {"allocation_bytes", int64_t{-7}}, {"addr", uint64_t{2}},
           {"region_type", "temp"}, {"bytes_allocated", int64_t{128}}, {"tf_op", long_op.c_str(), false}});
  // A stat without a value, after a clamped fragmentation.
  t.Event(line, "MemoryDeallocation", 3, 3,
          {{"allocator_name", "gpu", false}, {"addr", uint64_t{1}}, {"fragmentation", 7.0}, {"shape", "[4]", false}});
  xspace::XPlane* plane = t.space.mutable_planes(line.plane);
  LastEvent(&t, line)->add_stats()->set_metadata_id(StatId(*plane, "shape"));
  // An unknown field after every stat.
  t.Event(line, "MemoryAllocation", 4, 4,
          {{"allocator_name", "gpu", false}, {"addr", uint64_t{3}}, {"requested_bytes", uint64_t{1} << 63},
           {"tf_op", "op_b"}});
  xspace::XEvent* unknown = LastEvent(&t, line);
  unknown->GetReflection()->MutableUnknownFields(unknown)->AddVarint(99, 1);
  // Ids beyond the flat tables: a ref value and a stat's metadata id of 2^21 and more.
  (*plane->mutable_stat_metadata())[int64_t{1} << 21].set_name("big/op");
  (*plane->mutable_stat_metadata())[int64_t{1} << 21].set_id(int64_t{1} << 21);
  (*plane->mutable_stat_metadata())[int64_t{1} << 22].set_name("bytes_reserved");
  (*plane->mutable_stat_metadata())[int64_t{1} << 22].set_id(int64_t{1} << 22);
  t.Event(line, "MemoryAllocation", 5, 5, {{"allocator_name", "gpu", false}, {"addr", uint64_t{4}}});
  xspace::XStat* big_ref = LastEvent(&t, line)->add_stats();
  big_ref->set_metadata_id(StatId(*plane, "tf_op"));
  big_ref->set_ref_value(int64_t{1} << 21);
  t.Event(line, "MemoryAllocation", 6, 6, {{"allocator_name", "gpu", false}, {"addr", uint64_t{5}}});
  xspace::XStat* big_id = LastEvent(&t, line)->add_stats();
  big_id->set_metadata_id(int64_t{1} << 22);
  big_id->set_int64_value(-4096);
  // A second metadata id (the last wins): not a memory event after all.
  t.Event(line, "MemoryAllocation", 7, 7, {{"allocator_name", "gpu", false}, {"addr", uint64_t{6}}});
  int64_t train_id = 0;
  for (const auto& [id, metadata] : plane->event_metadata()) {
    if (metadata.name() == "train") train_id = id;
  }
  xspace::XEvent* renamed = LastEvent(&t, line);
  renamed->GetReflection()->MutableUnknownFields(renamed)->AddVarint(1, static_cast<uint64_t>(train_id));
  // Writers' shape again, after all of them.
  t.Event(line, "MemoryDeallocation", 8, 8,
          {{"allocator_name", "gpu", false}, {"addr", uint64_t{2}}, {"tf_op", "op_c", false},
           {"group_id", int64_t{1}}});
  EXPECT_EQ(ExpectSameBothWays(t.space), 7u);
}

TEST(MemoryProfileTest, TensorFlowEightGpuFileReadsTheSameAsRecords) {
  ExpectRecordsReadTheSame(
      std::string(STEPSCOPE_SHARED_DIR) + "/testdata/xplane/tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb",
      1859 + 634);
}

TEST(MemoryProfileTest, JaxFileReadsTheSameAsRecords) {
  ExpectRecordsReadTheSame(std::string(STEPSCOPE_SHARED_DIR) + "/testdata/xplane/tracelens_jax_mi300_te_fused_attn.xplane.pb",
                           59);
}

// Field names: every key of XProf's golden memory_profile JSON is one of ours.
std::set<std::string> JsonKeys(const std::string& json) {
  std::set<std::string> keys;
  static const std::regex kKey("\"([A-Za-z_][A-Za-z0-9_]*)\"\\s*:");
  for (auto it = std::sregex_iterator(json.begin(), json.end(), kKey); it != std::sregex_iterator(); ++it) {
    keys.insert((*it)[1].str());
  }
  return keys;
}

TEST(MemoryProfileTest, JsonHasEveryKeyOfXProfsGoldenFile) {
  const std::string golden_path =
      std::string(STEPSCOPE_SHARED_DIR) + "/testdata/xplane/xprof_golden__tpu_training.memory_profile.json.gz";
  StatusOr<std::string> gz = base::ReadFile(golden_path, 1 << 24);
  ASSERT_TRUE(gz.ok()) << gz.status().ToString();
  StatusOr<std::string> golden = base::GunzipWithLimit(*gz, uint64_t{1} << 26);
  ASSERT_TRUE(golden.ok()) << golden.status().ToString();
  const std::set<std::string> theirs = JsonKeys(*golden);
  ASSERT_GT(theirs.size(), 20u);

  TestSpace t;
  ToyAllocator gpu(&t, "0", 1024 * kMiB, 8 * kMiB);
  gpu.Alloc(1, 1, "a", 0x10, 4 * kMiB, 4 * kMiB, 0.1);
  gpu.Alloc(2, 1, "b", 0x20, 2 * kMiB, 2 * kMiB, 0.1);
  gpu.Free(3, 1, 0x10, 0.1);
  StructToolResult<MemoryProfile> result(MakeMemoryProfile(Profile(t.space)));
  const std::set<std::string> ours = JsonKeys(result.ToJson(false));
  std::vector<std::string> missing;
  std::set_difference(theirs.begin(), theirs.end(), ours.begin(), ours.end(), std::back_inserter(missing));
  EXPECT_THAT(missing, ::testing::IsEmpty());
  std::vector<std::string> added;
  std::set_difference(ours.begin(), ours.end(), theirs.begin(), theirs.end(), std::back_inserter(added));
  std::printf("XProf golden keys: %zu; ours add:", theirs.size());
  for (const std::string& k : added) std::printf(" %s", k.c_str());
  std::printf("\n");
}


// One name per quantity: every table column is a JSON key, each table's rows are the JSON's
// (`breakdown` itself; `allocators` and `timeline` flattened from the per-id objects), and
// the per-id objects are a JSON object keyed by memory id, in `memoryIds` order.
TEST(MemoryProfileTest, TablesNameEachQuantityAsItsJsonKey) {
  TestSpace t;
  ToyAllocator gpu(&t, "GPU_0_bfc", 1024 * kMiB, 2 * kMiB);
  gpu.Alloc(1, 1, "a", 0x10, 4 * kMiB, 4 * kMiB, 0.25);
  gpu.Alloc(2, 1, "b", 0x20, 2 * kMiB, 2 * kMiB, 0.5);
  gpu.Free(3, 1, 0x10, 0.5);
  ToyAllocator cpu(&t, "cpu", 64 * kMiB, 0);
  cpu.Alloc(4, 1, "c", 0x30, kMiB, kMiB, 0);
  const MemoryProfileResult r = Profile(t.space);
  ASSERT_EQ(r.allocators.size(), 2u);
  StructToolResult<MemoryProfile> result(MakeMemoryProfile(r));
  const std::string json = result.ToJson(false);
  EXPECT_THAT(json, ::testing::HasSubstr(R"("memoryIds":["GPU_0_bfc","cpu"],)"
                                         R"("memoryProfilePerAllocator":{"GPU_0_bfc":{"profileSummary":)"));
  EXPECT_LT(json.find(R"("GPU_0_bfc":{"profileSummary")"), json.find(R"("cpu":{"profileSummary")"));

  const std::set<std::string> keys = JsonKeys(json);
  std::vector<std::string> names;
  for (const output::Table& table : result.Tables()) {
    names.push_back(table.name);
    for (const output::Column& c : table.columns) EXPECT_TRUE(keys.count(c.id)) << table.name << "." << c.id;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"allocators", "breakdown", "timeline"}));

  // The heap at the peak, in the JSON's units: the same number under the same name.
  const std::vector<output::Table> tables = result.Tables();
  const output::Table& allocators = tables[0];
  ASSERT_EQ(allocators.rows.size(), 2u);
  const MemoryAggregationStats& peak = r.allocators[0].summary.peak_stats;
  EXPECT_EQ(std::get<int64_t>(allocators.rows[0][allocators.ColumnIndex("heapAllocatedBytes")]),
            peak.heap_allocated_bytes);
  EXPECT_EQ(std::get<double>(allocators.rows[0][allocators.ColumnIndex("fragmentation")]), peak.fragmentation);
  EXPECT_EQ(std::get<int64_t>(allocators.rows[0][allocators.ColumnIndex("peakStatsTimePs")]),
            r.allocators[0].summary.peak_stats_time_ps);
  EXPECT_THAT(json, ::testing::HasSubstr("\"heapAllocatedBytes\":" + std::to_string(peak.heap_allocated_bytes)));
  // The timeline: every sampled snapshot of every id, once.
  EXPECT_EQ(tables[2].rows.size(), r.allocators[0].sampled_timeline.size() + r.allocators[1].sampled_timeline.size());
  // The breakdown's JSON rows are its table's rows.
  EXPECT_THAT(json, ::testing::HasSubstr(R"("breakdown":[{"memoryId":"GPU_0_bfc","rank":1,"tfOpName":)"));
  EXPECT_EQ(tables[1].rows.size(), result.value().breakdown.size());
}

// ---- Advisor findings backed by this tool ----

MemoryEvent Event(int64_t t, MemoryActivity activity, uint64_t address, int64_t bytes, int64_t heap, int64_t step,
                  uint32_t op, int64_t free_bytes = 1024 * kMiB, double fragmentation = 0) {
  MemoryEvent e;
  e.time_ps = t;
  e.activity = activity;
  e.address = address;
  e.allocation_bytes = e.requested_bytes = bytes;
  e.heap_allocated_bytes = heap;
  e.free_memory_bytes = free_bytes;
  e.fragmentation = fragmentation;
  e.step_id = step;
  e.op_name = op;
  return e;
}

ProfileModel ModelWith(std::vector<MemoryEvent> events) {
  ProfileModel model;
  model.memory.names = {"", "encoder/attention/softmax", "small"};
  model.memory.allocators.push_back({"GPU_0_bfc", 0, MemoryEventArray(events)});
  return model;
}

std::set<std::string> FiredIds(const ProfileModel& model) {
  std::set<std::string> ids;
  for (const Finding& f : ComputeAdvice(model).findings) ids.insert(f.id);
  return ids;
}

TEST(MemoryAdvisorTest, OneOpDominatingThePeakIsNamed) {
  const auto alloc = MemoryActivity::kAllocation;
  ProfileModel model = ModelWith({Event(1, alloc, 0x10, 60 * kMiB, 60 * kMiB, 0, 1), Event(2, alloc, 0x20, 10 * kMiB, 70 * kMiB, 0, 2)});
  AdvisorReport report = ComputeAdvice(model);
  auto it = std::find_if(report.findings.begin(), report.findings.end(),
                         [](const Finding& f) { return f.id == "memory_peak_one_op"; });
  ASSERT_NE(it, report.findings.end());
  EXPECT_THAT(it->title, ::testing::HasSubstr("encoder/attention/softmax"));
  EXPECT_NEAR(it->impact_percent, 100.0 * 60 / 70, 1e-9);
  EXPECT_EQ(it->tool, "memory_profile");
  EXPECT_FALSE(FiredIds(model).count("memory_growth"));
}

TEST(MemoryAdvisorTest, FragmentationWhenMemoryIsTight) {
  const auto alloc = MemoryActivity::kAllocation;
  // 100 MiB used of 110: 10 MiB free, 80 % of it in small pieces.
  ProfileModel tight = ModelWith({Event(1, alloc, 0x10, 100 * kMiB, 100 * kMiB, 0, 2, 10 * kMiB, 0.8)});
  EXPECT_TRUE(FiredIds(tight).count("memory_fragmentation"));
  // The same fragmentation with most memory free is no risk.
  ProfileModel roomy = ModelWith({Event(1, alloc, 0x10, 100 * kMiB, 100 * kMiB, 0, 2, 900 * kMiB, 0.8)});
  EXPECT_FALSE(FiredIds(roomy).count("memory_fragmentation"));
}

TEST(MemoryAdvisorTest, HeapGrowingStepOverStepIsALeak) {
  const auto alloc = MemoryActivity::kAllocation, free = MemoryActivity::kDeallocation;
  std::vector<MemoryEvent> events;
  int64_t heap = 0, t = 0;
  for (int step = 0; step < 5; ++step) {
    // Each step allocates a 4 MiB temporary and frees it, and keeps 2 MiB.
    heap += 4 * kMiB;
    events.push_back(Event(++t, alloc, 0x1000, 4 * kMiB, heap, step, 2));
    heap += 2 * kMiB;
    events.push_back(Event(++t, alloc, 0x2000 + step, 2 * kMiB, heap, step, 1));
    heap -= 4 * kMiB;
    events.push_back(Event(++t, free, 0x1000, 4 * kMiB, heap, step, 0));
  }
  AdvisorReport report = ComputeAdvice(ModelWith(events));
  auto it = std::find_if(report.findings.begin(), report.findings.end(),
                         [](const Finding& f) { return f.id == "memory_growth"; });
  ASSERT_NE(it, report.findings.end());
  EXPECT_EQ(it->severity, Severity::kHigh);
  EXPECT_THAT(it->title, ::testing::HasSubstr("8.0 MiB over 5 steps"));
  // Without growth (every step frees what it took) nothing fires.
  std::vector<MemoryEvent> steady;
  for (int step = 0; step < 5; ++step) {
    steady.push_back(Event(2 * step + 1, alloc, 0x1000, 4 * kMiB, 4 * kMiB, step, 2));
    steady.push_back(Event(2 * step + 2, free, 0x1000, 4 * kMiB, 0, step, 0));
  }
  EXPECT_FALSE(FiredIds(ModelWith(steady)).count("memory_growth"));
}

TEST(MemoryAdvisorTest, ChecksSayWhyWithoutMemoryEvents) {
  AdvisorReport report = ComputeAdvice(ProfileModel());
  int memory_checks = 0;
  for (const CheckOutcome& c : report.checks) {
    if (c.id.starts_with("memory_")) {
      ++memory_checks;
      EXPECT_FALSE(c.fired);
      EXPECT_THAT(c.detail, ::testing::HasSubstr("no allocator events"));
    }
  }
  EXPECT_EQ(memory_checks, 3);
}

}  // namespace
}  // namespace stepscope::analysis
