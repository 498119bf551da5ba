#include "src/analysis/tools/memory_profile.h"

#include <algorithm>

#include "src/analysis/model/derivations.h"
#include "src/analysis/model/sat_math.h"
#include "src/analysis/model/units.h"
#include "src/analysis/output/text_table.h"

namespace stepscope::analysis {
namespace {

using output::ColumnType;
using output::Table;

}  // namespace

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

Table AllocatorTable(const MemoryProfileResult& r) {
  Table t;
  t.name = "allocators";
  t.title = "Memory ids (peak within the profile)";
  t.columns = {{"memory_id", "Memory id", ColumnType::kString, 2, 30},
               {"allocations", "Allocs", ColumnType::kInt, 2, 0, "count"},
               {"deallocations", "Frees", ColumnType::kInt, 2, 0, "count"},
               {"peak_bytes", "Peak (B)", ColumnType::kInt, 2, 0, "bytes"},
               {"peak_heap_bytes", "Heap at peak (B)", ColumnType::kInt, 2, 0, "bytes"},
               {"peak_stack_bytes", "Stack at peak (B)", ColumnType::kInt, 2, 0, "bytes"},
               {"peak_free_bytes", "Free at peak (B)", ColumnType::kInt, 2, 0, "bytes"},
               {"peak_fragmentation_pct", "Frag at peak %", ColumnType::kDouble, 1, 0, "%"},
               {"peak_time_ms", "Peak at (ms)", ColumnType::kDouble, 3, 0, "ms"},
               {"peak_step_id", "Peak step", ColumnType::kInt},
               {"peak_lifetime_bytes", "Lifetime peak (B)", ColumnType::kInt, 2, 0, "bytes"},
               {"capacity_bytes", "Capacity (B)", ColumnType::kInt, 2, 0, "bytes"},
               {"never_freed", "Never freed", ColumnType::kInt, 2, 0, "count"},
               {"frees_without_allocation", "Frees w/o alloc", ColumnType::kInt, 2, 0, "count"}};
  for (const PerAllocatorMemoryProfile& a : r.allocators) {
    const MemoryProfileSummary& s = a.summary;
    t.AddRow({a.memory_id, s.num_allocations, s.num_deallocations, s.peak_stats.peak_bytes_in_use,
              s.peak_stats.heap_allocated_bytes, s.peak_stats.stack_reserved_bytes, s.peak_stats.free_memory_bytes,
              100.0 * s.peak_stats.fragmentation, PsToMs(s.peak_stats_time_ps), s.peak_step_id,
              s.peak_bytes_usage_lifetime, s.memory_capacity, a.diagnostics.never_freed,
              a.diagnostics.frees_without_allocation});
  }
  return t;
}

Table BreakdownTable(const MemoryProfileResult& r) {
  Table t;
  t.name = "breakdown";
  t.title = "Live allocations at the peak";
  t.columns = {{"memory_id", "Memory id", ColumnType::kString, 2, 20},
               {"rank", "Rank", ColumnType::kInt},
               {"op_name", "Op", ColumnType::kString, 2, 50},
               {"allocation_bytes", "Size (B)", ColumnType::kInt, 2, 0, "bytes"},
               {"requested_bytes", "Requested (B)", ColumnType::kInt, 2, 0, "bytes"},
               {"occurrences", "Count", ColumnType::kInt, 2, 0, "count"},
               {"total_bytes", "Total (B)", ColumnType::kInt, 2, 0, "bytes"},
               {"region_type", "Region", ColumnType::kString, 2, 20},
               {"data_type", "Data type", ColumnType::kString},
               {"shape", "Shape", ColumnType::kString, 2, 30},
               {"step_id", "Step", ColumnType::kInt},
               {"special", "Special", ColumnType::kBool}};
  for (const PerAllocatorMemoryProfile& a : r.allocators) {
    int64_t rank = 0;
    for (const ActiveAllocation& row : a.active_allocations) {
      const MemoryActivityMetadata& m = RowMetadata(a, row);
      int64_t total = 0;
      for (int64_t k = 0; k < row.num_occurrences; ++k) AddTo(total, m.allocation_bytes);
      t.AddRow({a.memory_id, ++rank, m.tf_op_name, m.allocation_bytes, m.requested_bytes, row.num_occurrences, total,
                m.region_type, m.data_type, m.tensor_shape, m.step_id, row.special_index >= 0});
    }
  }
  return t;
}

Table TimelineTable(const MemoryProfileResult& r) {
  Table t;
  t.name = "timeline";
  t.title = "Memory timeline (down-sampled, peak kept)";
  t.columns = {{"memory_id", "Memory id", ColumnType::kString, 2, 20},
               {"time_ms", "Time (ms)", ColumnType::kDouble, 3, 0, "ms"},
               {"heap_bytes", "Heap (B)", ColumnType::kInt, 2, 0, "bytes"},
               {"stack_bytes", "Stack (B)", ColumnType::kInt, 2, 0, "bytes"},
               {"free_bytes", "Free (B)", ColumnType::kInt, 2, 0, "bytes"},
               {"fragmentation_pct", "Frag %", ColumnType::kDouble, 1, 0, "%"},
               {"activity", "Activity", ColumnType::kString},
               {"op_name", "Op", ColumnType::kString, 2, 40},
               {"allocation_bytes", "Size (B)", ColumnType::kInt, 2, 0, "bytes"},
               {"step_id", "Step", ColumnType::kInt}};
  for (const PerAllocatorMemoryProfile& a : r.allocators) {
    for (const MemoryProfileSnapshot& s : a.sampled_timeline) {
      const MemoryAggregationStats& g = s.aggregation_stats;
      const MemoryActivityMetadata& m = s.activity_metadata;
      t.AddRow({a.memory_id, PsToMs(s.time_offset_ps), g.heap_allocated_bytes, g.stack_reserved_bytes,
                g.free_memory_bytes, 100.0 * g.fragmentation, std::string(MemoryActivityName(m.activity)),
                m.tf_op_name, m.allocation_bytes, m.step_id});
    }
  }
  return t;
}

void WriteStats(const MemoryAggregationStats& s, output::JsonWriter* w) {
  w->BeginObject();
  w->Field("stackReservedBytes", s.stack_reserved_bytes);
  w->Field("heapAllocatedBytes", s.heap_allocated_bytes);
  w->Field("freeMemoryBytes", s.free_memory_bytes);
  w->Field("fragmentation", s.fragmentation);
  w->Field("peakBytesInUse", s.peak_bytes_in_use);
  w->EndObject();
}

void WriteMetadata(const MemoryActivityMetadata& m, output::JsonWriter* w) {
  w->BeginObject();
  w->Field("memoryActivity", MemoryActivityName(m.activity));
  w->Field("requestedBytes", m.requested_bytes);
  w->Field("allocationBytes", m.allocation_bytes);
  w->Field("address", m.address);
  w->Field("tfOpName", m.tf_op_name);
  w->Field("stepId", m.step_id);
  w->Field("regionType", m.region_type);
  w->Field("dataType", m.data_type);
  w->Field("tensorShape", m.tensor_shape);
  w->EndObject();
}

void WriteSnapshots(std::string_view key, const std::vector<MemoryProfileSnapshot>& snapshots, output::JsonWriter* w) {
  w->Key(key);
  w->BeginArray();
  for (const MemoryProfileSnapshot& s : snapshots) {
    w->BeginObject();
    w->Field("timeOffsetPs", s.time_offset_ps);
    w->Key("aggregationStats");
    WriteStats(s.aggregation_stats, w);
    w->Key("activityMetadata");
    WriteMetadata(s.activity_metadata, w);
    w->EndObject();
  }
  w->EndArray();
}

void WriteAllocator(const PerAllocatorMemoryProfile& a, output::JsonWriter* w) {
  const MemoryProfileSummary& s = a.summary;
  w->BeginObject();
  w->Key("profileSummary");
  w->BeginObject();
  w->Field("peakBytesUsageLifetime", s.peak_bytes_usage_lifetime);
  w->Key("peakStats");
  WriteStats(s.peak_stats, w);
  w->Field("peakStatsTimePs", s.peak_stats_time_ps);
  w->Field("memoryCapacity", s.memory_capacity);
  w->Field("numAllocations", s.num_allocations);
  w->Field("numDeallocations", s.num_deallocations);
  w->Field("peakStepId", s.peak_step_id);
  w->EndObject();
  w->Key("activeAllocations");
  w->BeginArray();
  for (const ActiveAllocation& row : a.active_allocations) {
    w->BeginObject();
    w->Field("snapshotIndex", row.snapshot_index);
    w->Field("specialIndex", row.special_index);
    w->Field("numOccurrences", row.num_occurrences);
    w->EndObject();
  }
  w->EndArray();
  w->Key("specialAllocations");
  w->BeginArray();
  for (const MemoryActivityMetadata& m : a.special_allocations) WriteMetadata(m, w);
  w->EndArray();
  WriteSnapshots("memoryProfileSnapshots", a.active_snapshots, w);
  WriteSnapshots("sampledTimelineSnapshots", a.sampled_timeline, w);
  w->Field("heapFromSizes", a.heap_from_sizes);
  const MemoryDiagnostics& d = a.diagnostics;
  w->Key("diagnostics");
  w->BeginObject();
  w->Field("neverFreed", d.never_freed);
  w->Field("neverFreedBytes", d.never_freed_bytes);
  w->Field("freesWithoutAllocation", d.frees_without_allocation);
  w->Field("addressReusedWithoutFree", d.address_reused_without_free);
  w->Field("missingStepIds", d.missing_step_ids);
  w->EndObject();
  w->EndObject();
}

}  // namespace

std::vector<Table> BuildTables(const MemoryProfileResult& r) {
  return {AllocatorTable(r), BreakdownTable(r), TimelineTable(r)};
}

void WriteResultJson(const MemoryProfileResult& r, output::JsonWriter* w) {
  w->BeginObject();
  w->Field("tool", "memory_profile");
  w->Key("memoryIds");
  w->BeginArray();
  for (const PerAllocatorMemoryProfile& a : r.allocators) w->String(a.memory_id);
  w->EndArray();
  w->Key("memoryProfilePerAllocator");
  w->BeginObject();
  for (const PerAllocatorMemoryProfile& a : r.allocators) {
    w->Key(a.memory_id);
    WriteAllocator(a, w);
  }
  w->EndObject();
  w->Field("numHosts", r.num_hosts);
  w->Field("version", r.version);
  w->Field("stepFilter", r.step_filter);
  w->Field("totalEvents", r.total_events);
  if (r.time_range.active()) {  // only with a range, so files without one keep their bytes
    w->Key("timeRangePs");
    w->BeginObject();
    for (auto [key, bound] : {std::pair{"start", r.time_range.start_ps}, std::pair{"end", r.time_range.end_ps}}) {
      w->Key(key);
      if (bound) {
        w->Int(*bound);
      } else {
        w->Null();
      }
    }
    w->EndObject();
  }
  w->Key("breakdown");
  output::WriteTableRowsJson(BreakdownTable(r), w);
  w->Key("diagnostics");
  w->BeginArray();
  for (const std::string& d : r.diagnostics) w->String(d);
  w->EndArray();
  w->EndObject();
}

std::string FormatResultText(const MemoryProfileResult& r, const ToolOptions& options) {
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
  out += output::FormatTextTable(BreakdownTable(r), {options.text_max_rows});
  for (const std::string& d : r.diagnostics) out += "note: " + d + "\n";
  return out;
}

namespace {

class MemoryProfileTool final : public Tool {
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
    return std::unique_ptr<ToolResult>(std::make_unique<StructToolResult<MemoryProfileResult>>(
        whole_profile ? MemoryAnalysisOf(model) : ComputeMemoryProfile(model, options)));
  }
};

}  // namespace

std::unique_ptr<Tool> MakeMemoryProfileTool() { return std::make_unique<MemoryProfileTool>(); }

}  // namespace stepscope::analysis
