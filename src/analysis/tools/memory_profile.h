// memory_profile: per memory id (allocator / device), where memory peaked and what was
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
//
// The computation is the model's (src/analysis/model/memory_analysis.h: the whole-profile
// result is derived once per model and also read by the advisor); this file presents it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/analysis/model/memory_analysis.h"
#include "src/analysis/model/profile_model.h"
#include "src/analysis/tool.h"

namespace stepscope::analysis {

// The model's memory analysis (MemoryAnalysisOf) without a step or time range in `options`;
// computed for that step or range otherwise.
MemoryProfileResult ComputeMemoryProfile(const ProfileModel& model, const ToolOptions& options = {});

// "ALLOCATION" / "DEALLOCATION", as XProf's enum names.
std::string_view MemoryActivityName(MemoryActivity activity);

// ---- The result's declaration (output/schema.h): its JSON, tables, TypeScript and docs. ----
//
// The JSON keeps XProf's MemoryProfile field names (camelCase, memory_profile.proto), an
// external contract; each table column is named as the JSON key of its quantity.

// memory_profile's result: the model's memory analysis (XProf's MemoryProfile) and, as
// rows, its breakdowns at the peak.
struct MemoryBreakdownRow {
  std::string memory_id;
  int64_t rank = 0;  // within its memory id
  std::string tf_op_name;
  int64_t allocation_bytes = 0;
  int64_t requested_bytes = 0;
  int64_t num_occurrences = 0;
  int64_t total_bytes = 0;  // allocation bytes x occurrences
  std::string region_type;
  std::string data_type;
  std::string tensor_shape;
  int64_t step_id = 0;
  bool special = false;
};

struct MemoryProfile {
  MemoryProfileResult analysis;
  // Every memory id's activeAllocations resolved to their snapshots or special rows, in
  // memory id order.
  std::vector<MemoryBreakdownRow> breakdown;
};

// `analysis` with its breakdown rows.
MemoryProfile MakeMemoryProfile(MemoryProfileResult analysis);

// One memory id's peak: a row of the table `allocators`.
struct MemoryAllocatorRow {
  std::string memory_id;
  int64_t num_allocations = 0;
  int64_t num_deallocations = 0;
  int64_t peak_bytes_in_use = 0;
  int64_t heap_allocated_bytes = 0;
  int64_t stack_reserved_bytes = 0;
  int64_t free_memory_bytes = 0;
  double fragmentation = 0;
  int64_t peak_stats_time_ps = 0;
  int64_t peak_step_id = 0;
  int64_t peak_bytes_usage_lifetime = 0;
  int64_t memory_capacity = 0;
  int64_t never_freed = 0;
  int64_t frees_without_allocation = 0;
};
std::vector<MemoryAllocatorRow> MemoryAllocatorRows(const MemoryProfileResult& result);

// One sampled timeline snapshot: a row of the table `timeline`.
struct MemoryTimelineRow {
  std::string memory_id;
  int64_t time_offset_ps = 0;
  int64_t heap_allocated_bytes = 0;
  int64_t stack_reserved_bytes = 0;
  int64_t free_memory_bytes = 0;
  double fragmentation = 0;
  std::string_view memory_activity;
  std::string tf_op_name;
  int64_t allocation_bytes = 0;
  int64_t step_id = 0;
};
std::vector<MemoryTimelineRow> MemoryTimelineRows(const MemoryProfileResult& result);

// What a quantity means, wherever it is written (the snapshots, the summary, the tables).
namespace memory_fields {
inline constexpr output::FieldInfo kMemoryId{
    .label = "Memory id",
    .description = "the allocator or device (`GPU_0_bfc`, `cuda:0`, ...): a key of `memoryProfilePerAllocator`",
    .max_width = 30};
inline constexpr std::string_view kHeap = "bytes allocated on the heap (in use by live allocations)";
inline constexpr std::string_view kStack = "bytes reserved on the stack";
inline constexpr std::string_view kFree = "bytes free in the allocator";
inline constexpr std::string_view kFragmentation =
    "(free bytes - largest free chunk) / free bytes, a fraction from 0 to 1";
inline constexpr std::string_view kPeakInUse =
    "in `peakStats`: stack + heap bytes at the peak; in a snapshot: the allocator's own peak so far (its "
    "`peak_bytes_in_use` stat)";
inline constexpr std::string_view kPeakStep = "the step of the peak's event";
inline constexpr output::FieldInfo kTimeOffset{
    .label = "Time (ps)", .unit = "ps", .description = "the event's time on the profile's timeline"};
inline constexpr output::FieldInfo kActivity{.label = "Activity",
                                             .description = "`ALLOCATION` or `DEALLOCATION`"};
inline constexpr output::FieldInfo kOpName{
    .label = "Op",
    .description = "the framework op that allocated (a deallocation: the op of the allocation it frees); with no "
                   "op, a name from the XLA buffer assignment when the profile holds a buffer allocation of exactly "
                   "its requested size (`XLA temporaries of jit_step(7), allocation 12`), else empty",
    .max_width = 50};
inline constexpr output::FieldInfo kAllocationBytes{
    .label = "Size (B)", .unit = "bytes", .description = "what the allocator handed out (rounded up)"};
inline constexpr output::FieldInfo kRequestedBytes{
    .label = "Requested (B)", .unit = "bytes", .description = "what the caller asked for"};
inline constexpr output::FieldInfo kStepId{
    .label = "Step", .description = "the event's step (group id); events without one take the last step + 1"};
inline constexpr output::FieldInfo kRegionType{
    .label = "Region", .description = "empty when unknown", .max_width = 20};
inline constexpr output::FieldInfo kDataType{
    .label = "Data type", .description = "TF's DataType name; empty when unknown (data type 0)"};
inline constexpr output::FieldInfo kShape{.label = "Shape", .max_width = 30};
inline constexpr output::FieldInfo kNeverFreed{
    .label = "Never freed", .unit = "count", .description = "allocations with no deallocation at their address"};
inline constexpr output::FieldInfo kFreesWithoutAllocation{
    .label = "Frees w/o alloc", .unit = "count", .description = "deallocations with no allocation at their address"};
}  // namespace memory_fields

constexpr auto DescribeRecord(std::type_identity<MemoryAggregationStats>) {
  using R = MemoryAggregationStats;
  namespace f = memory_fields;
  return output::Record(
      "MemoryAggregationStats",
      output::Field("stackReservedBytes", &R::stack_reserved_bytes, {.unit = "bytes", .description = f::kStack}),
      output::Field("heapAllocatedBytes", &R::heap_allocated_bytes, {.unit = "bytes", .description = f::kHeap}),
      output::Field("freeMemoryBytes", &R::free_memory_bytes, {.unit = "bytes", .description = f::kFree}),
      output::Field("fragmentation", &R::fragmentation, {.description = f::kFragmentation}),
      output::Field("peakBytesInUse", &R::peak_bytes_in_use, {.unit = "bytes", .description = f::kPeakInUse}));
}

constexpr auto DescribeRecord(std::type_identity<MemoryActivityMetadata>) {
  using R = MemoryActivityMetadata;
  namespace f = memory_fields;
  return output::Record(
      "MemoryActivityMetadata",
      output::Computed<R>("memoryActivity", [](const R& m) { return MemoryActivityName(m.activity); }, f::kActivity),
      output::Field("requestedBytes", &R::requested_bytes, f::kRequestedBytes),
      output::Field("allocationBytes", &R::allocation_bytes, f::kAllocationBytes),
      output::Field("address", &R::address, {.description = "the allocation's address"}),
      output::Field("tfOpName", &R::tf_op_name, f::kOpName), output::Field("stepId", &R::step_id, f::kStepId),
      output::Field("regionType", &R::region_type, f::kRegionType),
      output::Field("dataType", &R::data_type, f::kDataType),
      output::Field("tensorShape", &R::tensor_shape, f::kShape));
}

constexpr auto DescribeRecord(std::type_identity<MemoryProfileSnapshot>) {
  using R = MemoryProfileSnapshot;
  return output::Record("MemoryProfileSnapshot",
                        output::Field("timeOffsetPs", &R::time_offset_ps, memory_fields::kTimeOffset),
                        output::Field("aggregationStats", &R::aggregation_stats,
                                      {.description = "the allocator's state after the event"}),
                        output::Field("activityMetadata", &R::activity_metadata));
}

constexpr auto DescribeRecord(std::type_identity<MemoryProfileSummary>) {
  using R = MemoryProfileSummary;
  return output::Record(
      "MemoryProfileSummary",
      output::Field("peakBytesUsageLifetime", &R::peak_bytes_usage_lifetime,
                    {.unit = "bytes", .description = "the allocator's own peak since it started (the last event's)"}),
      output::Field("peakStats", &R::peak_stats,
                    {.description = "the state at the in-window peak: the event with the most stack + heap bytes "
                                    "(the latest of equal ones)"}),
      output::Field("peakStatsTimePs", &R::peak_stats_time_ps,
                    {.unit = "ps", .description = "when the peak was, on the profile's timeline"}),
      output::Field("memoryCapacity", &R::memory_capacity,
                    {.unit = "bytes", .description = "stack + heap + free at the peak"}),
      output::Field("numAllocations", &R::num_allocations, {.unit = "count"}),
      output::Field("numDeallocations", &R::num_deallocations, {.unit = "count"}),
      output::Field("peakStepId", &R::peak_step_id, {.description = memory_fields::kPeakStep}));
}

constexpr auto DescribeRecord(std::type_identity<ActiveAllocation>) {
  using R = ActiveAllocation;
  return output::Record(
      "ActiveAllocation",
      output::Field("snapshotIndex", &R::snapshot_index,
                    {.description = "index into `memoryProfileSnapshots`; -1 - specialIndex for special rows"}),
      output::Field("specialIndex", &R::special_index,
                    {.description = "index into `specialAllocations`; -1 for allocations"}),
      output::Field("numOccurrences", &R::num_occurrences,
                    {.unit = "count", .description = "identical allocations merged into the row"}));
}

constexpr auto DescribeRecord(std::type_identity<MemoryDiagnostics>) {
  using R = MemoryDiagnostics;
  namespace f = memory_fields;
  return output::Record(
      "MemoryDiagnostics", output::Field("neverFreed", &R::never_freed, f::kNeverFreed),
      output::Field("neverFreedBytes", &R::never_freed_bytes, {.unit = "bytes"}),
      output::Field("freesWithoutAllocation", &R::frees_without_allocation, f::kFreesWithoutAllocation),
      output::Field("addressReusedWithoutFree", &R::address_reused_without_free,
                    {.unit = "count", .description = "a second allocation at a live address"}),
      output::Field("missingStepIds", &R::missing_step_ids,
                    {.unit = "count", .description = "events without a step id (group_id), filled as XProf does"}));
}

constexpr auto DescribeRecord(std::type_identity<PerAllocatorMemoryProfile>) {
  using R = PerAllocatorMemoryProfile;
  return output::Record(
      "PerAllocatorMemoryProfile", output::Field("profileSummary", &R::summary),
      output::Field("activeAllocations", &R::active_allocations,
                    {.description = "the breakdown at the peak, largest first: the allocations of the peak's step "
                                    "made up to the peak and not freed before it, identical ones merged; special "
                                    "rows: heap bytes no such allocation explains (\"unused preallocated device "
                                    "memory\") and the stack"}),
      output::Field("specialAllocations", &R::special_allocations),
      output::Field("memoryProfileSnapshots", &R::active_snapshots,
                    {.description = "the allocation events the breakdown rows point at, in breakdown order (as "
                                    "XProf's after its last pass)"}),
      output::Field("sampledTimelineSnapshots", &R::sampled_timeline,
                    {.description = "the events in time order, down-sampled to at most 1000 by a max box filter on "
                                    "stack + heap (the peak survives)"}),
      output::Field("heapFromSizes", &R::heap_from_sizes,
                    {.description = "the events had sizes but no addresses or totals (PyTorch before 1.10 wrote "
                                    "`[memory]` events so): bytes in use are the running sum of their sizes from the "
                                    "start of the profile, as PyTorch's TensorBoard plugin drew them, and there is "
                                    "no breakdown"}),
      output::Field("diagnostics", &R::diagnostics,
                    {.description = "events that do not pair up, over the whole profile of the memory id"}));
}

constexpr auto DescribeRecord(std::type_identity<MemoryTimeRange>) {
  using R = MemoryTimeRange;
  return output::Record("MemoryTimeRange",
                        output::Field("start", &R::start_ps, {.unit = "ps", .description = "null: open"}),
                        output::Field("end", &R::end_ps, {.unit = "ps", .description = "null: open"}));
}

// The analysis's own fields, inlined into MemoryProfile's JSON.
constexpr auto DescribeRecord(std::type_identity<MemoryProfileResult>) {
  using R = MemoryProfileResult;
  return output::Record(
      "MemoryProfileResult",
      output::Computed<R>("memoryIds",
                          [](const R& r) {
                            std::vector<std::string> ids;
                            for (const PerAllocatorMemoryProfile& a : r.allocators) ids.push_back(a.memory_id);
                            return ids;
                          },
                          {.description = "every memory id, sorted (with several hosts: `<host>:<id>`)"}),
      // A map by memory id (a JSON object, as XProf's) of the allocators the model keeps in order.
      output::KeyedBy("memoryProfilePerAllocator", &R::allocators, &PerAllocatorMemoryProfile::memory_id,
                      {.description = "per memory id, in `memoryIds` order"}),
      output::Field("numHosts", &R::num_hosts, {.unit = "count"}),
      output::Field("version", &R::version, {.description = "as XProf's (1)"}),
      output::Field("stepFilter", &R::step_filter, {.description = "only this step's events were used; null: all"}),
      output::Field("totalEvents", &R::total_events, {.unit = "count", .description = "memory events read"}),
      output::Computed<R>("timeRangePs",
                          [](const R& r) { return output::OptionalIf(r.time_range.active(), r.time_range); },
                          {.description = "only the events in this range set the peak, the summary and the timeline",
                           .when = "a time range was given (`start_ps` / `end_ps`)"}));
}

constexpr auto DescribeRecord(std::type_identity<MemoryAllocatorRow>) {
  using R = MemoryAllocatorRow;
  namespace f = memory_fields;
  return output::Record(
      "MemoryAllocatorRow", output::Field("memoryId", &R::memory_id, f::kMemoryId),
      output::Field("numAllocations", &R::num_allocations, {.label = "Allocs", .unit = "count"}),
      output::Field("numDeallocations", &R::num_deallocations, {.label = "Frees", .unit = "count"}),
      output::Field("peakBytesInUse", &R::peak_bytes_in_use,
                    {.label = "Peak (B)", .unit = "bytes", .description = "stack + heap bytes at the peak"}),
      output::Field("heapAllocatedBytes", &R::heap_allocated_bytes,
                    {.label = "Heap at peak (B)", .unit = "bytes", .description = f::kHeap}),
      output::Field("stackReservedBytes", &R::stack_reserved_bytes,
                    {.label = "Stack at peak (B)", .unit = "bytes", .description = f::kStack}),
      output::Field("freeMemoryBytes", &R::free_memory_bytes,
                    {.label = "Free at peak (B)", .unit = "bytes", .description = f::kFree}),
      output::Field("fragmentation", &R::fragmentation,
                    {.label = "Frag at peak", .description = f::kFragmentation, .decimals = 3}),
      output::Field("peakStatsTimePs", &R::peak_stats_time_ps,
                    {.label = "Peak at (ps)", .unit = "ps", .description = "on the profile's timeline"}),
      output::Field("peakStepId", &R::peak_step_id, {.label = "Peak step", .description = f::kPeakStep}),
      output::Field("peakBytesUsageLifetime", &R::peak_bytes_usage_lifetime,
                    {.label = "Lifetime peak (B)",
                     .unit = "bytes",
                     .description = "the allocator's own peak since it started"}),
      output::Field("memoryCapacity", &R::memory_capacity,
                    {.label = "Capacity (B)", .unit = "bytes", .description = "stack + heap + free at the peak"}),
      output::Field("neverFreed", &R::never_freed, f::kNeverFreed),
      output::Field("freesWithoutAllocation", &R::frees_without_allocation, f::kFreesWithoutAllocation));
}

constexpr auto DescribeRecord(std::type_identity<MemoryBreakdownRow>) {
  using R = MemoryBreakdownRow;
  namespace f = memory_fields;
  return output::Record(
      "MemoryBreakdownRow", output::Field("memoryId", &R::memory_id, f::kMemoryId),
      output::Field("rank", &R::rank, {.label = "Rank", .description = "1 = the largest, within the memory id"}),
      output::Field("tfOpName", &R::tf_op_name, f::kOpName),
      output::Field("allocationBytes", &R::allocation_bytes, f::kAllocationBytes),
      output::Field("requestedBytes", &R::requested_bytes, f::kRequestedBytes),
      output::Field("numOccurrences", &R::num_occurrences,
                    {.label = "Count", .unit = "count", .description = "identical allocations merged into the row"}),
      output::Field("totalBytes", &R::total_bytes,
                    {.label = "Total (B)", .unit = "bytes", .description = "allocationBytes x numOccurrences"}),
      output::Field("regionType", &R::region_type, f::kRegionType),
      output::Field("dataType", &R::data_type, f::kDataType), output::Field("tensorShape", &R::tensor_shape, f::kShape),
      output::Field("stepId", &R::step_id, f::kStepId),
      output::Field("special", &R::special,
                    {.label = "Special",
                     .description = "a special row: heap bytes no live allocation explains (\"unused preallocated "
                                    "device memory\") or the stack"}));
}

constexpr auto DescribeRecord(std::type_identity<MemoryTimelineRow>) {
  using R = MemoryTimelineRow;
  namespace f = memory_fields;
  return output::Record(
      "MemoryTimelineRow", output::Field("memoryId", &R::memory_id, f::kMemoryId),
      output::Field("timeOffsetPs", &R::time_offset_ps, f::kTimeOffset),
      output::Field("heapAllocatedBytes", &R::heap_allocated_bytes,
                    {.label = "Heap (B)", .unit = "bytes", .description = f::kHeap}),
      output::Field("stackReservedBytes", &R::stack_reserved_bytes,
                    {.label = "Stack (B)", .unit = "bytes", .description = f::kStack}),
      output::Field("freeMemoryBytes", &R::free_memory_bytes,
                    {.label = "Free (B)", .unit = "bytes", .description = f::kFree}),
      output::Field("fragmentation", &R::fragmentation,
                    {.label = "Frag", .description = f::kFragmentation, .decimals = 3}),
      output::Field("memoryActivity", &R::memory_activity, f::kActivity),
      output::Field("tfOpName", &R::tf_op_name, f::kOpName),
      output::Field("allocationBytes", &R::allocation_bytes, f::kAllocationBytes),
      output::Field("stepId", &R::step_id, f::kStepId));
}

constexpr auto DescribeRecord(std::type_identity<MemoryProfile>) {
  using R = MemoryProfile;
  return output::Record(
      "MemoryProfile", output::Constant("tool", "memory_profile"), output::Inline(&R::analysis),
      output::TableView<R>("allocators", [](const R& r) { return MemoryAllocatorRows(r.analysis); },
                           "Memory ids (peak within the profile)",
                           {.description = "one row per memory id: `memoryProfilePerAllocator`'s `profileSummary` "
                                           "(its `peakStats` flattened) and `diagnostics`"}),
      output::TableField("breakdown", &R::breakdown, "Live allocations at the peak",
                         {.description = "every memory id's `activeAllocations` resolved to the snapshot or special "
                                         "row each points at"}),
      output::TableView<R>("timeline", [](const R& r) { return MemoryTimelineRows(r.analysis); },
                           "Memory timeline (down-sampled, peak kept)",
                           {.description = "every memory id's `sampledTimelineSnapshots`, flattened"}),
      // After the breakdown, where the JSON has always had it.
      output::Computed<R>("diagnostics",
                          [](const R& r) -> const std::vector<std::string>& { return r.analysis.diagnostics; },
                          {.description = "in words: frees without an allocation, addresses allocated twice without "
                                          "a free, allocations not freed by the end, no events in the asked step or "
                                          "time range"}));
}

std::string FormatResultText(const MemoryProfile& result, const ToolOptions& options);

std::unique_ptr<Tool> MakeMemoryProfileTool();

}  // namespace stepscope::analysis
