// The event tree of one host thread: events nest by time on their line.
//
// Order: begin ascending, longer first on equal begins (so a parent precedes the
// children that start with it), file order last. Parent = the innermost earlier event
// still open at the child's begin (an event that begins where another ends is its next
// sibling; only a zero-length one at the very end is its child: files in whole
// microseconds truncate an op's last instant onto its parent's end). Self time = duration
// minus the immediate children's time inside it, which is PyTorch's key_averages() self
// time (EventList._populate_cpu_children). A child that sticks out of its parent
// (malformed input) still counts as its child, clipped for self time.
#pragma once

#include <cstdint>
#include <vector>

#include "src/analysis/model/profile_model.h"
#include "src/xspace/columnar/columnar_xspace.h"

namespace stepscope::analysis {

// Builds the tree of `plane.lines[line_index]`. Aggregated events (no time position) are
// left out. O(n log n) for unsorted lines, O(n) for lines already in order.
HostThread BuildHostThread(const xspace::ColumnarPlane& plane, uint32_t plane_index, uint32_t line_index);

// Self time of every event of `thread` (time order): duration minus the time of its
// immediate children inside it, never negative.
std::vector<int64_t> ComputeSelfTimes(const xspace::ColumnarPlane& plane, const HostThread& thread);

// One past the last descendant of each event (time-order indices): the subtree of i is
// [i, subtree_end[i]).
std::vector<uint32_t> ComputeSubtreeEnds(const HostThread& thread);

}  // namespace stepscope::analysis
