// libFuzzer target for the memory-event path: bytes -> the columnar XSpace reader -> the
// profile model's memory events (memory_events.h: stat roles, clamping, interning, the
// step group and the op around each event) -> the memory_profile tool (pairing by
// address, step fill, peak, breakdown, down-sampling) -> its JSON, tables and text, for
// the whole profile, for one step and for time ranges. Hostile allocator events
// (negative or 2^63 sizes, frees without allocations, addresses reused without a free,
// NaN fragmentation) must come out as counted diagnostics, never as a crash or undefined
// behaviour. The bytes are also read with memory events decoded into records by the
// reader (ParseOptions::memory_event_records, what `stepscope analyze` reads): the
// model's memory profile and diagnostics must be the same, byte for byte.
//
// Built as a fuzzer with -DSTEPSCOPE_BUILD_FUZZERS=ON (clang); replayed over
// tests/fuzz/corpus/memory_profile/ by the normal test build (fuzz_replay_test).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/tools/memory_profile.h"
#include "src/xspace/columnar/columnar_reader.h"

namespace {

using namespace stepscope;  // NOLINT: fuzz driver

uint64_t Present(const analysis::MemoryProfileResult& result) {
  analysis::StructToolResult<analysis::MemoryProfile> tool(analysis::MakeMemoryProfile(result));
  uint64_t sum = tool.ToJson(false).size() + tool.FormatText({}).size();
  for (const std::string& name : tool.TableNames()) {
    auto csv = tool.TableCsv(name);
    if (csv.ok()) sum += csv->size();
  }
  return sum;
}

std::string JsonOf(const analysis::MemoryProfileResult& result) {
  return analysis::StructToolResult<analysis::MemoryProfile>(analysis::MakeMemoryProfile(result)).ToJson(false);
}

// The same bytes read with memory events as records give the same model memory, steps
// and diagnostics (and fail where the plain read fails).
void CheckRecordsReadTheSame(std::string_view bytes, const StatusOr<analysis::ProfileModel>& plain) {
  xspace::ParseOptions options;
  options.memory_event_records = analysis::IsHostThreadsPlaneName;
  auto space = xspace::ParseColumnarXSpace(bytes, "fuzz", options);
  if (!space.ok()) {
    if (plain.ok()) __builtin_trap();
    return;
  }
  auto model = analysis::BuildProfileModel(std::make_shared<const xspace::ColumnarXSpace>(std::move(*space)));
  if (model.ok() != plain.ok()) __builtin_trap();
  if (!model.ok()) return;
  if (model->diagnostics != plain->diagnostics || model->steps.size() != plain->steps.size()) __builtin_trap();
  if (model->memory.size() != plain->memory.size()) __builtin_trap();
  if (JsonOf(analysis::ComputeMemoryProfile(*model)) != JsonOf(analysis::ComputeMemoryProfile(*plain))) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto space = xspace::ParseColumnarXSpace(bytes, "fuzz");
  if (!space.ok()) {
    CheckRecordsReadTheSame(bytes, space.status());
    return 0;
  }
  auto model = analysis::BuildProfileModel(std::make_shared<const xspace::ColumnarXSpace>(std::move(*space)));
  CheckRecordsReadTheSame(bytes, model);
  if (!model.ok()) return 0;
  volatile uint64_t sink = model->memory.size();
  analysis::MemoryProfileResult all = analysis::ComputeMemoryProfile(*model);
  sink = sink + Present(all);
  for (const analysis::PerAllocatorMemoryProfile& a : all.allocators) {
    // Invariants that hold whatever the input: the timeline is bounded and in time
    // order, every breakdown row points at something that exists.
    if (a.sampled_timeline.size() > analysis::kMaxTimelinePoints) __builtin_trap();
    for (size_t i = 1; i < a.sampled_timeline.size(); ++i) {
      if (a.sampled_timeline[i].time_offset_ps < a.sampled_timeline[i - 1].time_offset_ps) __builtin_trap();
    }
    for (const analysis::ActiveAllocation& row : a.active_allocations) {
      const bool special = row.special_index >= 0;
      if (special && static_cast<size_t>(row.special_index) >= a.special_allocations.size()) __builtin_trap();
      if (!special && (row.snapshot_index < 0 || static_cast<size_t>(row.snapshot_index) >= a.active_snapshots.size())) {
        __builtin_trap();
      }
      if (row.num_occurrences < 1) __builtin_trap();
    }
    analysis::ToolOptions one_step;
    one_step.step = a.summary.peak_step_id >= 0 ? a.summary.peak_step_id : 0;
    sink = sink + Present(analysis::ComputeMemoryProfile(*model, one_step));
    // A time range (the UI's brush) over the middle third of the timeline, and ranges open
    // on one side at the extremes: the peak must fall inside the range.
    if (a.sampled_timeline.empty()) continue;
    const size_t n = a.sampled_timeline.size();
    analysis::ToolOptions ranged;
    ranged.start_ps = a.sampled_timeline[n / 3].time_offset_ps;
    ranged.end_ps = a.sampled_timeline[(2 * n) / 3].time_offset_ps;
    const analysis::MemoryProfileResult in_range = analysis::ComputeMemoryProfile(*model, ranged);
    for (const analysis::PerAllocatorMemoryProfile& r : in_range.allocators) {
      if (r.sampled_timeline.empty()) continue;
      const int64_t peak_ps = r.summary.peak_stats_time_ps;
      if (peak_ps < *ranged.start_ps || peak_ps > *ranged.end_ps) __builtin_trap();
      if (r.sampled_timeline.front().time_offset_ps < *ranged.start_ps) __builtin_trap();
      if (r.sampled_timeline.back().time_offset_ps > *ranged.end_ps) __builtin_trap();
    }
    sink = sink + Present(in_range);
    analysis::ToolOptions extremes;
    extremes.start_ps = INT64_MIN;
    extremes.end_ps = INT64_MAX;
    sink = sink + Present(analysis::ComputeMemoryProfile(*model, extremes));
  }
  (void)sink;
  return 0;
}
