// The memory analysis behind memory_profile: per memory id (allocator / device), where memory peaked and what was
// live then (XProf's memory_profile tool, reference/xspace.md "Memory profile").
//
// Input: ProfileModel::memory, the MemoryAllocation / MemoryDeallocation events the model
// read (allocator state after each event: stack/heap/free bytes, fragmentation, lifetime
// peak; and the allocation: op, sizes, address, step, region, data type, shape).
// Per memory id, in time order, as XProf:
//   - events without a step id take the last valid step id + 1;
//   - a deallocation takes the op / region / data type / shape of the allocation at its
//     address;
//   - the in-window peak is the event with the largest stack + heap bytes (the latest of
//     equal ones); the lifetime peak is the last event's peak_bytes_in_use;
//   - the breakdown at peak: the allocations of the peak's step made up to the peak time
//     and not freed before it, sorted by (-allocation bytes, -requested bytes, op, region,
//     data type, shape), identical ones merged (occurrences); heap bytes at the peak that
//     no such allocation explains form the special row "unused preallocated device
//     memory", the reserved stack bytes the row "stack";
//   - the timeline is down-sampled to at most kMaxTimelinePoints by a max box filter on
//     stack + heap, so the peak survives.
// A time range (ToolOptions::start_ps / end_ps, the UI's brush) narrows the window the
// summary, the timeline and the choice of the peak read to the events inside it, as
// XProf's memory profile does for a selected window; the breakdown stays "what was live at
// that peak", so it still counts allocations made before the range that were not freed.
// The JSON keeps XProf's MemoryProfile field names (docs/tools.md lists what differs).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/analysis/model/memory_events.h"
#include "src/analysis/model/profile_model.h"

namespace stepscope::analysis {

inline constexpr size_t kMaxTimelinePoints = 1000;  // XProf's max_num_snapshots

// XProf's MemoryAggregationStats: the allocator's state.
struct MemoryAggregationStats {
  int64_t stack_reserved_bytes = 0;
  int64_t heap_allocated_bytes = 0;
  int64_t free_memory_bytes = 0;
  double fragmentation = 0;
  int64_t peak_bytes_in_use = 0;
};

// XProf's MemoryActivityMetadata: one allocation or deallocation.
struct MemoryActivityMetadata {
  MemoryActivity activity = MemoryActivity::kAllocation;
  int64_t requested_bytes = 0;
  int64_t allocation_bytes = 0;
  uint64_t address = 0;
  std::string tf_op_name;
  int64_t step_id = 0;
  std::string region_type;
  std::string data_type;  // "float", "INVALID", ...
  std::string tensor_shape;
};

struct MemoryProfileSnapshot {
  int64_t time_offset_ps = 0;
  MemoryAggregationStats aggregation_stats;
  MemoryActivityMetadata activity_metadata;
};

struct MemoryProfileSummary {
  int64_t peak_bytes_usage_lifetime = 0;
  // The state at the in-window peak; its peak_bytes_in_use is stack + heap there.
  MemoryAggregationStats peak_stats;
  int64_t peak_stats_time_ps = 0;
  int64_t memory_capacity = 0;  // stack + heap + free at the peak
  // stepscope additions.
  int64_t num_allocations = 0;
  int64_t num_deallocations = 0;
  int64_t peak_step_id = 0;
};

// A row of the breakdown at peak: a snapshot (index into active_snapshots) or a special
// row (index into special_allocations), as XProf's ActiveAllocation.
struct ActiveAllocation {
  int64_t snapshot_index = -1;  // -1 - special_index for special rows
  int64_t special_index = -1;
  int64_t num_occurrences = 1;
};

// Events that do not pair up (stepscope addition), over the whole profile of the memory id.
struct MemoryDiagnostics {
  int64_t never_freed = 0;  // allocations with no deallocation at their address
  int64_t never_freed_bytes = 0;
  int64_t frees_without_allocation = 0;
  int64_t address_reused_without_free = 0;  // a second allocation at a live address
  int64_t missing_step_ids = 0;             // events without group_id (filled as XProf)
};

struct PerAllocatorMemoryProfile {
  std::string memory_id;
  // XProf's memory_profile_snapshots after its last pass: the allocation events the
  // breakdown rows point at (in breakdown order).
  std::vector<MemoryProfileSnapshot> active_snapshots;
  MemoryProfileSummary summary;
  std::vector<ActiveAllocation> active_allocations;  // the breakdown, largest first
  std::vector<MemoryActivityMetadata> special_allocations;
  std::vector<MemoryProfileSnapshot> sampled_timeline;  // <= kMaxTimelinePoints, in time order
  MemoryDiagnostics diagnostics;
  // stepscope addition: the events had no addresses and no totals, so the bytes in use are
  // the running sum of their sizes (MemoryAllocatorEvents::heap_from_sizes) and there is
  // no breakdown.
  bool heap_from_sizes = false;
  // stepscope addition: heap bytes after the last event of each step, in step-id order
  // (step id, bytes), over the window. The advisor's growth check reads it.
  std::vector<std::pair<int64_t, int64_t>> heap_at_step_end;
};

// Events with start_ps <= time_ps <= end_ps (ps on the profile's timeline, as
// timeOffsetPs); an unset bound is open.
struct MemoryTimeRange {
  std::optional<int64_t> start_ps;
  std::optional<int64_t> end_ps;
  bool active() const { return start_ps.has_value() || end_ps.has_value(); }
};

// What a memory id whose events have sizes but no addresses shows, and why.
inline constexpr std::string_view kHeapFromSizesNote =
    "its events carry sizes but no addresses or totals (PyTorch before 1.10 wrote [memory] events so): memory in "
    "use is the running sum of their sizes from the start of the profile (allocations made before it are not "
    "counted), and the buffers live at the peak cannot be listed";

struct MemoryProfileResult {
  std::vector<PerAllocatorMemoryProfile> allocators;  // sorted by memory id
  int64_t num_hosts = 1;
  int64_t version = 1;
  std::optional<int64_t> step_filter;  // only this step's events were used
  MemoryTimeRange time_range;          // only the events in this range set the peak
  int64_t total_events = 0;
  std::vector<std::string> diagnostics;
};

// All memory ids of the model, for `step_filter` (nullopt: every step) and `time_range`.
// Tools read the whole-profile one, cached: MemoryAnalysisOf(model).
MemoryProfileResult AnalyzeMemory(const ProfileModel& model, std::optional<int64_t> step_filter,
                                  const MemoryTimeRange& time_range);
// The same for one memory id's events (tests and benchmarks use it directly).
PerAllocatorMemoryProfile ComputeAllocatorProfile(const MemoryAllocatorEvents& allocator,
                                                  const std::vector<std::string>& names,
                                                  std::optional<int64_t> step_filter = std::nullopt,
                                                  size_t max_timeline_points = kMaxTimelinePoints,
                                                  const MemoryTimeRange& time_range = {});

}  // namespace stepscope::analysis
