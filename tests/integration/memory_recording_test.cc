// Issue 14 end to end: a toy arena reports its allocations through
// stepscope::RecordAllocation / RecordDeallocation inside stepscope::Step scopes, a real
// session records them, and the memory_profile tool finds the peak, the op owning the
// largest live buffer, the fragmentation and the step the arena's own bookkeeping says.
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/tools/memory_profile.h"
#include "src/xspace/xplane.h"
#include "stepscope/stepscope.h"

namespace stepscope {
namespace {

// A bump arena with a free list per size: the numbers it reports are its own.
class ToyArena {
 public:
  explicit ToyArena(int64_t capacity) : capacity_(capacity) {}
  uint64_t Allocate(int64_t bytes, const char* op) {
    const int64_t rounded = (bytes + 255) / 256 * 256;
    uint64_t address;
    auto& free_list = free_[rounded];
    if (!free_list.empty()) {
      address = free_list.back();
      free_list.pop_back();
    } else {
      address = next_;
      next_ += static_cast<uint64_t>(rounded);
    }
    live_[address] = rounded;
    in_use_ += rounded;
    peak_ = std::max(peak_, in_use_);
    RecordAllocation({.allocator_name = "toy_arena", .address = address, .requested_bytes = bytes,
                      .allocation_bytes = rounded, .op_name = op, .region_type = "output", .data_type = 1},
                     State());
    return address;
  }
  void Free(uint64_t address) {
    const int64_t rounded = live_[address];
    live_.erase(address);
    in_use_ -= rounded;
    free_[rounded].push_back(address);
    RecordDeallocation("toy_arena", address, rounded, State());
  }
  int64_t in_use() const { return in_use_; }

 private:
  AllocatorState State() const {
    // Free bytes sitting in free lists count as fragmented: only the untouched tail is one chunk.
    const int64_t tail = capacity_ - static_cast<int64_t>(next_ - kBase);
    const int64_t free = capacity_ - in_use_;
    return {in_use_, peak_, 0, free, free > 0 ? static_cast<double>(free - tail) / static_cast<double>(free) : 0.0};
  }
  static constexpr uint64_t kBase = 1 << 20;
  int64_t capacity_;
  uint64_t next_ = kBase;
  int64_t in_use_ = 0, peak_ = 0;
  std::map<uint64_t, int64_t> live_;
  std::map<int64_t, std::vector<uint64_t>> free_;
};

TEST(MemoryRecordingEndToEndTest, ToolFindsTheArenasPeakAndItsOwner) {
  StatusOr<std::unique_ptr<Session>> session = Session::Start({});
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  ToyArena arena(64 << 20);
  int64_t expected_peak = 0;
  double expected_fragmentation = 0;
  {
    Step step("train", 1);
    const uint64_t weights = arena.Allocate(8 << 20, "weights");  // lives across steps
    (void)weights;
    const uint64_t a = arena.Allocate(1 << 20, "layer1/MatMul");
    arena.Free(a);
  }
  {
    Step step("train", 2);
    const uint64_t x = arena.Allocate(3 << 20, "layer1/MatMul");
    const uint64_t y = arena.Allocate(5 << 20, "layer2/Conv2D");  // the largest at the peak
    const uint64_t z = arena.Allocate(1000, "layer2/Relu");
    expected_peak = arena.in_use();
    arena.Free(x);
    arena.Free(z);
    arena.Free(y);
  }
  ASSERT_TRUE((*session)->Stop().ok());
  xspace::XSpace space;
  ASSERT_TRUE((*session)->CollectXSpace(&space).ok());
  StatusOr<analysis::ProfileModel> model = analysis::BuildProfileModelFromXSpace(space);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  analysis::MemoryProfileResult r = analysis::ComputeMemoryProfile(*model);
  ASSERT_EQ(r.allocators.size(), 1u);
  const analysis::PerAllocatorMemoryProfile& a = r.allocators[0];
  EXPECT_EQ(a.memory_id, "toy_arena");
  EXPECT_EQ(expected_peak, (8 << 20) + (3 << 20) + (5 << 20) + 1024);
  EXPECT_EQ(a.summary.peak_stats.peak_bytes_in_use, expected_peak);
  EXPECT_EQ(a.summary.num_allocations, 5);
  EXPECT_EQ(a.summary.num_deallocations, 4);
  // At the peak the 1 MiB freed in step 1 sits in a free list: 1 MiB of the free memory
  // is not the tail chunk.
  const int64_t free_at_peak = (64 << 20) - expected_peak;
  expected_fragmentation = static_cast<double>(1 << 20) / static_cast<double>(free_at_peak);
  EXPECT_DOUBLE_EQ(a.summary.peak_stats.fragmentation, expected_fragmentation);
  // The peak is in step 2's group; the weights (step 1) are the unexplained heap row.
  ASSERT_EQ(model->steps.size(), 2u);
  EXPECT_EQ(a.summary.peak_step_id, model->steps[1].group_id);
  ASSERT_FALSE(a.active_snapshots.empty());
  EXPECT_EQ(a.active_snapshots[0].activity_metadata.tf_op_name, "layer2/Conv2D");
  EXPECT_EQ(a.active_snapshots[0].activity_metadata.allocation_bytes, 5 << 20);
  ASSERT_FALSE(a.special_allocations.empty());
  EXPECT_EQ(a.special_allocations[0].tf_op_name, "unused preallocated device memory");
  EXPECT_EQ(a.special_allocations[0].allocation_bytes, 8 << 20);
  EXPECT_EQ(a.diagnostics.never_freed, 1);  // the weights
  EXPECT_EQ(a.diagnostics.frees_without_allocation, 0);

  // The model of step 1 alone (`--step 1`, `step=1`): memory_profile keeps to that step's
  // group without being told, so its peak is step 1's (weights + the 1 MiB buffer).
  analysis::ModelOptions step_one;
  step_one.step = 1;
  StatusOr<analysis::ProfileModel> one = analysis::BuildProfileModelFromXSpace(space, step_one);
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  ASSERT_TRUE(one->step_group.has_value());
  analysis::MemoryProfileResult r1 = analysis::ComputeMemoryProfile(*one);
  EXPECT_EQ(r1.step_filter, one->step_group);
  ASSERT_EQ(r1.allocators.size(), 1u);
  EXPECT_EQ(r1.allocators[0].summary.peak_stats.peak_bytes_in_use, (8 << 20) + (1 << 20));
  EXPECT_EQ(r1.allocators[0].summary.peak_step_id, *one->step_group);
}

}  // namespace
}  // namespace stepscope
