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

void WriteResultJson(const MemoryProfileResult& result, output::JsonWriter* writer);
std::vector<output::Table> BuildTables(const MemoryProfileResult& result);
std::string FormatResultText(const MemoryProfileResult& result, const ToolOptions& options);

std::unique_ptr<Tool> MakeMemoryProfileTool();

}  // namespace stepscope::analysis
