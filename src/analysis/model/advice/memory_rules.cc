// The advisor's rules about memory (the memory analysis per allocator): one op holding the
// peak, fragmentation at the peak, heap growth from step to step.
#include <algorithm>

#include "src/analysis/model/advice/rule_context.h"

namespace stepscope::analysis::advice {

// The breakdown row holding the most bytes at an allocator's peak.
void Rules::MemoryPeakOneOp() {
  if (NoMemory("memory_peak_one_op")) return;
  const PerAllocatorMemoryProfile* best = nullptr;
  const MemoryActivityMetadata* best_row = nullptr;
  double best_percent = 0;
  for (const PerAllocatorMemoryProfile& a : c_.memory.allocators) {
    const int64_t peak = a.summary.peak_stats.peak_bytes_in_use;
    if (peak < kMemoryMinPeakBytes) continue;
    for (const ActiveAllocation& row : a.active_allocations) {
      if (row.special_index >= 0) continue;
      const MemoryActivityMetadata& m = a.active_snapshots[row.snapshot_index].activity_metadata;
      const double percent = Percent(static_cast<double>(m.allocation_bytes) * row.num_occurrences, peak);
      if (percent > best_percent) {
        best_percent = percent;
        best = &a;
        best_row = &m;
      }
    }
  }
  if (best == nullptr || best_percent < kMemoryOneOpPercent) {
    Check("memory_peak_one_op", false,
          "largest share of an allocator's peak held by one op " + Pct(best_percent) + " < " + Pct(kMemoryOneOpPercent));
    return;
  }
  const std::string op = best_row->tf_op_name.empty() ? "(unnamed op)" : best_row->tf_op_name;
  Fire({"memory_peak_one_op", Severity::kMedium,
        op + " holds " + Pct(best_percent) + " of " + best->memory_id + "'s peak memory",
        "at the peak of " + best->memory_id + " (" + MiB(best->summary.peak_stats.peak_bytes_in_use) + "), the live buffers of " + op +
            " add up to " + Pct(best_percent) + " of it",
        {{"op_share_of_peak_percent", best_percent, "%"},
         {"peak_bytes", static_cast<double>(best->summary.peak_stats.peak_bytes_in_use), "bytes"}},
        "Shrink what " + op + " keeps alive: recompute it in the backward pass instead of storing it "
            "(activation checkpointing), store it in 16-bit, or lower the batch size.",
        "memory_profile", best_percent});
}

void Rules::MemoryFragmentation() {
  if (NoMemory("memory_fragmentation")) return;
  const PerAllocatorMemoryProfile* worst = nullptr;
  for (const PerAllocatorMemoryProfile& a : c_.memory.allocators) {
    const MemoryAggregationStats& p = a.summary.peak_stats;
    if (p.peak_bytes_in_use < kMemoryMinPeakBytes) continue;
    const double free_percent = Percent(p.free_memory_bytes, a.summary.memory_capacity);
    if (100.0 * p.fragmentation >= kMemoryFragmentationPercent && free_percent <= kMemoryTightFreePercent &&
        (worst == nullptr || p.fragmentation > worst->summary.peak_stats.fragmentation)) {
      worst = &a;
    }
  }
  if (worst == nullptr) {
    double max_fragmentation = 0;
    for (const PerAllocatorMemoryProfile& a : c_.memory.allocators) {
      max_fragmentation = std::max(max_fragmentation, 100.0 * a.summary.peak_stats.fragmentation);
    }
    Check("memory_fragmentation", false,
          "fragmentation at the peak at most " + Pct(max_fragmentation) + " (fires at >= " +
              Pct(kMemoryFragmentationPercent) + " with <= " + Pct(kMemoryTightFreePercent) + " of capacity free)");
    return;
  }
  const MemoryAggregationStats& p = worst->summary.peak_stats;
  const double fragmentation = 100.0 * p.fragmentation;
  const double free_percent = Percent(p.free_memory_bytes, worst->summary.memory_capacity);
  Fire({"memory_fragmentation", Severity::kMedium,
        worst->memory_id + " is " + Pct(fragmentation) + " fragmented at its peak",
        "at the peak " + Pct(free_percent) + " of " + worst->memory_id + "'s capacity is free (" +
            MiB(p.free_memory_bytes) + "), and " + Pct(fragmentation) + " of that lies outside the largest free chunk",
        {{"fragmentation_percent", fragmentation, "%"}, {"free_percent_of_capacity", free_percent, "%"}},
        "Allocate the large, long-lived buffers first and keep tensor shapes stable between steps (varying "
            "shapes leave holes); a fixed pool for the largest buffers avoids splitting.",
        "memory_profile", fragmentation});
}

void Rules::MemoryGrowth() {
  if (NoMemory("memory_growth")) return;
  const PerAllocatorMemoryProfile* grower = nullptr;
  double growth_percent = 0;
  int64_t growth_bytes = 0, run_steps = 0;
  for (const PerAllocatorMemoryProfile& a : c_.memory.allocators) {
    const std::vector<std::pair<int64_t, int64_t>>& ends = a.heap_at_step_end;
    const int64_t peak_heap = a.summary.peak_stats.heap_allocated_bytes;
    if (peak_heap < kMemoryMinPeakBytes || ends.size() < static_cast<size_t>(kMemoryGrowthSteps)) continue;
    // The last run of steps whose end-of-step heap only grew.
    size_t first = ends.size() - 1;
    while (first > 0 && ends[first - 1].second < ends[first].second) --first;
    const int64_t steps = static_cast<int64_t>(ends.size() - first);
    const int64_t bytes = ends.back().second - ends[first].second;
    const double percent = Percent(static_cast<double>(bytes), peak_heap);
    if (steps >= kMemoryGrowthSteps && percent >= kMemoryGrowthPercent && percent > growth_percent) {
      grower = &a;
      growth_percent = percent;
      growth_bytes = bytes;
      run_steps = steps;
    }
  }
  if (grower == nullptr) {
    Check("memory_growth", false,
          "no allocator's heap grew at the end of " + Num(kMemoryGrowthSteps) + "+ steps in a row by >= " +
              Pct(kMemoryGrowthPercent) + " of its peak");
    return;
  }
  Fire({"memory_growth", Severity::kHigh,
        grower->memory_id + " grows by " + MiB(growth_bytes) + " over " + Num(run_steps) + " steps",
        "the heap left at the end of each of the last " + Num(run_steps) + " steps grew every step, by " +
            MiB(growth_bytes) + " in all (" + Pct(growth_percent) + " of the peak heap); " +
            Num(grower->diagnostics.never_freed) + " allocations are never freed",
        {{"growth_bytes", static_cast<double>(growth_bytes), "bytes"},
         {"growth_percent_of_peak", growth_percent, "%"},
         {"steps", static_cast<double>(run_steps), ""}},
        "Something keeps memory from step to step: tensors held in a Python list or a metric accumulated "
            "with its graph (loss instead of loss.item()), or a cache without a bound. The memory profile's "
            "never-freed allocations name the ops.",
        "memory_profile", growth_percent});
}

}  // namespace stepscope::analysis::advice
