// Making one line's events nest, as XSpace requires ("events within a line may nest but
// must not partially overlap").
//
// Real traces break this: Kineto writes slices on one thread that partially overlap
// (a Python function that ends a few microseconds after a ProfilerStep it encloses
// began; a kernel that starts 1 ns before the previous one on its stream ended). The fix,
// for an event E that starts inside open events C1..Ck but ends after them:
//   - trim E to end with the innermost open event, or
//   - trim C1..Ck to end where E starts,
// whichever removes less time; step markers are never the ones trimmed (so a step keeps
// its exact duration). When both sides are step markers, E moves to an overflow line
// instead, where it keeps its time untouched. Every fix is counted.
#pragma once

#include <cstdint>
#include <vector>

#include "src/importers/assembler/pending_trace.h"

namespace stepscope::importers {

struct NestingResult {
  // Per event of the (sorted, nested) main line: index of its parent, or -1.
  RecordVector<int32_t> parents;
  // Events moved off the line, in time order; the caller writes them to an overflow line
  // (after nesting them the same way).
  PendingEvents overflow;
  uint64_t trimmed_event = 0;      // times E was trimmed
  uint64_t trimmed_enclosing = 0;  // times C1..Ck were trimmed
  int64_t trimmed_ps = 0;
};

// Sorts `events` by (start, longer first, insertion order), then fixes partial overlaps
// as described above. Events flagged kEventDropped must have been removed already.
// With `allow_overflow` false (the last overflow level), step markers are trimmed too.
void NestLineEvents(PendingEvents* events, bool allow_overflow, NestingResult* result);

// The innermost event of a nested line whose span [start, end] contains `timestamp_ps`,
// or -1. `parents` is NestingResult::parents for the same events.
int32_t FindEnclosingEvent(const PendingEvents& events, const RecordVector<int32_t>& parents,
                           int64_t timestamp_ps);
// The first event that starts at or after `timestamp_ps`, or -1.
int32_t FindNextEvent(const PendingEvents& events, int64_t timestamp_ps);

// The event each flow point binds to (FindEnclosingEvent for kEnclosing points on a
// nested line, FindNextEvent otherwise), or -1, in the order of `points`. One sweep over
// the points in time order instead of a binary search each: a line of a large trace
// has millions of events and as many flow points.
std::vector<int32_t> BindFlowPoints(const PendingEvents& events, const RecordVector<int32_t>& parents,
                                    bool nested, const PendingFlowPoints& points);

}  // namespace stepscope::importers
