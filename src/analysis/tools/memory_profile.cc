#include "src/analysis/tools/memory_profile.h"

#include <algorithm>

#include "src/analysis/model/derivations.h"
#include "src/analysis/model/sat_math.h"
#include "src/analysis/model/units.h"
#include "src/analysis/output/text_table.h"

namespace stepscope::analysis {

std::string_view MemoryActivityName(MemoryActivity activity) {
  return activity == MemoryActivity::kAllocation ? "ALLOCATION" : "DEALLOCATION";
}

MemoryProfileResult ComputeMemoryProfile(const ProfileModel& model, const ToolOptions& options) {
  return AnalyzeMemory(model, options.step ? options.step : model.step_group, {options.start_ps, options.end_ps});
}

namespace {

// The breakdown row of an ActiveAllocation: its snapshot's metadata or its special row.
const MemoryActivityMetadata& RowMetadata(const PerAllocatorMemoryProfile& a, const ActiveAllocation& row) {
  return row.special_index >= 0 ? a.special_allocations[row.special_index]
                                : a.active_snapshots[row.snapshot_index].activity_metadata;
}

std::vector<MemoryBreakdownRow> BreakdownRows(const MemoryProfileResult& r) {
  std::vector<MemoryBreakdownRow> rows;
  for (const PerAllocatorMemoryProfile& a : r.allocators) {
    int64_t rank = 0;
    for (const ActiveAllocation& row : a.active_allocations) {
      const MemoryActivityMetadata& m = RowMetadata(a, row);
      int64_t total = 0;
      for (int64_t k = 0; k < row.num_occurrences; ++k) AddTo(total, m.allocation_bytes);
      rows.push_back({a.memory_id, ++rank, m.tf_op_name, m.allocation_bytes, m.requested_bytes, row.num_occurrences,
                      total, m.region_type, m.data_type, m.tensor_shape, m.step_id, row.special_index >= 0});
    }
  }
  return rows;
}

}  // namespace

MemoryProfile MakeMemoryProfile(MemoryProfileResult analysis) {
  MemoryProfile profile{std::move(analysis), {}};
  profile.breakdown = BreakdownRows(profile.analysis);
  return profile;
}

std::vector<MemoryAllocatorRow> MemoryAllocatorRows(const MemoryProfileResult& r) {
  std::vector<MemoryAllocatorRow> rows;
  for (const PerAllocatorMemoryProfile& a : r.allocators) {
    const MemoryProfileSummary& s = a.summary;
    const MemoryAggregationStats& peak = s.peak_stats;
    rows.push_back({a.memory_id, s.num_allocations, s.num_deallocations, peak.peak_bytes_in_use,
                    peak.heap_allocated_bytes, peak.stack_reserved_bytes, peak.free_memory_bytes, peak.fragmentation,
                    s.peak_stats_time_ps, s.peak_step_id, s.peak_bytes_usage_lifetime, s.memory_capacity,
                    a.diagnostics.never_freed, a.diagnostics.frees_without_allocation});
  }
  return rows;
}

std::vector<MemoryTimelineRow> MemoryTimelineRows(const MemoryProfileResult& r) {
  std::vector<MemoryTimelineRow> rows;
  for (const PerAllocatorMemoryProfile& a : r.allocators) {
    for (const MemoryProfileSnapshot& s : a.sampled_timeline) {
      const MemoryAggregationStats& g = s.aggregation_stats;
      const MemoryActivityMetadata& m = s.activity_metadata;
      rows.push_back({a.memory_id, s.time_offset_ps, g.heap_allocated_bytes, g.stack_reserved_bytes,
                      g.free_memory_bytes, g.fragmentation, MemoryActivityName(m.activity), m.tf_op_name,
                      m.allocation_bytes, m.step_id});
    }
  }
  return rows;
}

std::string FormatResultText(const MemoryProfile& profile, const ToolOptions& options) {
  const MemoryProfileResult& r = profile.analysis;
  auto mib = [](int64_t bytes) { return output::FormatFixed(static_cast<double>(bytes) / (1 << 20), 2) + " MiB"; };
  std::string out;
  for (const PerAllocatorMemoryProfile& a : r.allocators) {
    const MemoryProfileSummary& s = a.summary;
    out += output::FormatKeyValues(
        "Memory id " + a.memory_id,
        {{"Events", std::to_string(s.num_allocations) + " allocations, " + std::to_string(s.num_deallocations) +
                        " deallocations"},
         {"Peak (stack + heap)", mib(s.peak_stats.peak_bytes_in_use) + " at " +
                                     output::FormatFixed(PsToMs(s.peak_stats_time_ps), 3) + " ms (step " +
                                     std::to_string(s.peak_step_id) + ")"},
         {"At the peak", "heap " + mib(s.peak_stats.heap_allocated_bytes) + ", stack " +
                             mib(s.peak_stats.stack_reserved_bytes) + ", free " +
                             mib(s.peak_stats.free_memory_bytes) + ", fragmentation " +
                             output::FormatFixed(100.0 * s.peak_stats.fragmentation, 1) + " %"},
         {"Lifetime peak", mib(s.peak_bytes_usage_lifetime)},
         {"Capacity", mib(s.memory_capacity)}});
    out += "\n";
  }
  for (const output::Table& table : output::RecordTables(profile)) {
    if (table.name == "breakdown") out += output::FormatTextTable(table, {options.text_max_rows});
  }
  for (const std::string& d : r.diagnostics) out += "note: " + d + "\n";
  return out;
}

namespace {

class MemoryProfileTool final : public DeclaredTool<MemoryProfile> {
 public:
  std::string_view id() const override { return "memory_profile"; }
  std::string_view description() const override {
    return "Memory per allocator: peak usage and when, heap/stack/free/fragmentation over time, live allocations "
           "at the peak by op.";
  }
  bool IsAvailable(const ProfileModel& model) const override { return !model.memory.allocators.empty(); }
  std::string_view requirement() const override { return "MemoryAllocation / MemoryDeallocation events"; }
  std::vector<std::string_view> option_names() const override { return {"start_ps", "end_ps"}; }
  StatusOr<std::unique_ptr<ToolResult>> Compute(const ProfileModel& model, const ToolOptions& options) const override {
    // Without a step or a time range: the model's memory analysis, which the advisor reads too.
    const bool whole_profile = !options.step && !options.start_ps && !options.end_ps;
    return MakeToolResult(
        MakeMemoryProfile(whole_profile ? MemoryAnalysisOf(model) : ComputeMemoryProfile(model, options)));
  }
};

}  // namespace

std::unique_ptr<Tool> MakeMemoryProfileTool() { return std::make_unique<MemoryProfileTool>(); }

}  // namespace stepscope::analysis
