#include "src/importers/assembler/line_nesting.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace stepscope::importers {
namespace {

PendingEvent Event(int64_t start, int64_t duration, uint32_t seq, uint8_t flags = 0) {
  PendingEvent event;
  event.timestamp_ps = start;
  event.duration_ps = duration;
  event.seq = seq;
  event.name_id = seq;
  event.flags = flags;
  return event;
}

// True when every event ends within its parent and siblings do not overlap.
bool IsProperlyNested(const PendingEvents& events) {
  std::vector<int64_t> open_ends;
  for (const PendingEvent& event : events) {
    while (!open_ends.empty() && open_ends.back() <= event.timestamp_ps) open_ends.pop_back();
    if (!open_ends.empty() && event.end_ps() > open_ends.back()) return false;
    open_ends.push_back(event.end_ps());
  }
  return true;
}

TEST(LineNestingTest, NestedEventsAreSortedAndKeepTheirTimes) {
  PendingEvents events = {Event(10, 5, 0), Event(0, 100, 1), Event(10, 20, 2), Event(40, 0, 3)};
  NestingResult result;
  NestLineEvents(&events, true, &result);
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0].seq, 1u);  // [0,100)
  EXPECT_EQ(events[1].seq, 2u);  // [10,30): longer first at equal start
  EXPECT_EQ(events[2].seq, 0u);  // [10,15)
  EXPECT_EQ(events[3].seq, 3u);  // instant at 40
  EXPECT_EQ(result.parents, (RecordVector<int32_t>{-1, 0, 1, 0}));
  EXPECT_EQ(result.trimmed_event + result.trimmed_enclosing, 0u);
  EXPECT_EQ(events[1].duration_ps, 20);
}

TEST(LineNestingTest, TheCheaperSideOfAPartialOverlapIsTrimmed) {
  // [0,100) and [90,300): trimming the later one costs 200, the earlier one 10.
  PendingEvents events = {Event(0, 100, 0), Event(90, 210, 1)};
  NestingResult result;
  NestLineEvents(&events, true, &result);
  EXPECT_EQ(events[0].duration_ps, 90);
  EXPECT_EQ(events[1].duration_ps, 210);
  EXPECT_EQ(result.trimmed_enclosing, 1u);
  EXPECT_EQ(result.trimmed_ps, 10);
  // [0,100) and [10,105): trimming the later one costs 5.
  events = {Event(0, 100, 0), Event(10, 95, 1)};
  result = {};
  NestLineEvents(&events, true, &result);
  EXPECT_EQ(events[0].duration_ps, 100);
  EXPECT_EQ(events[1].duration_ps, 90);
  EXPECT_EQ(result.trimmed_event, 1u);
  EXPECT_EQ(result.parents[1], 0);
}

TEST(LineNestingTest, StepMarkersKeepTheirDuration) {
  // The Kineto case: a Python function [0,107) and a ProfilerStep [100,4500) that
  // starts inside it. Trimming the step would be cheaper by the cost rule's reversed
  // case below, so both directions are checked.
  PendingEvents events = {Event(0, 107, 0), Event(100, 4400, 1, kEventStepMarker)};
  NestingResult result;
  NestLineEvents(&events, true, &result);
  EXPECT_EQ(events[1].duration_ps, 4400);
  EXPECT_EQ(events[0].duration_ps, 100);
  // A step [0,100) and a later op [99,10000): the op is trimmed although that costs more.
  events = {Event(0, 100, 0, kEventStepMarker), Event(99, 9901, 1)};
  result = {};
  NestLineEvents(&events, true, &result);
  EXPECT_EQ(events[0].duration_ps, 100);
  EXPECT_EQ(events[1].duration_ps, 1);
}

TEST(LineNestingTest, OverlappingStepMarkersGoToTheOverflowLine) {
  PendingEvents events = {Event(0, 100, 0, kEventStepMarker), Event(50, 100, 1, kEventStepMarker),
                                      Event(60, 10, 2)};
  NestingResult result;
  NestLineEvents(&events, true, &result);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].duration_ps, 100);
  EXPECT_EQ(events[1].seq, 2u);
  EXPECT_EQ(result.parents[1], 0);
  ASSERT_EQ(result.overflow.size(), 1u);
  EXPECT_EQ(result.overflow[0].seq, 1u);
  EXPECT_EQ(result.overflow[0].duration_ps, 100);
}

TEST(LineNestingTest, RandomLinesAlwaysEndProperlyNestedWithoutLosingEvents) {
  std::mt19937_64 random(42);
  for (int round = 0; round < 200; ++round) {
    PendingEvents events;
    int n = 1 + static_cast<int>(random() % 60);
    for (int i = 0; i < n; ++i) {
      uint8_t flags = random() % 7 == 0 ? kEventStepMarker : 0;
      events.push_back(Event(static_cast<int64_t>(random() % 1000), static_cast<int64_t>(random() % 300),
                             static_cast<uint32_t>(i), flags));
    }
    PendingEvents original = events;
    size_t total = 0;
    PendingEvents line = events;
    for (int level = 0; !line.empty(); ++level) {
      NestingResult result;
      NestLineEvents(&line, level < 4, &result);
      ASSERT_TRUE(IsProperlyNested(line)) << "round " << round << " level " << level;
      for (const PendingEvent& event : line) {
        const PendingEvent& before = original[event.seq];
        EXPECT_EQ(event.timestamp_ps, before.timestamp_ps);
        EXPECT_LE(event.duration_ps, before.duration_ps);
        EXPECT_GE(event.duration_ps, 0);
        if ((event.flags & kEventStepMarker) && level < 4) {
          EXPECT_EQ(event.duration_ps, before.duration_ps);
        }
      }
      total += line.size();
      line = std::move(result.overflow);
    }
    EXPECT_EQ(total, original.size()) << "round " << round;
  }
}

TEST(LineNestingTest, FindEnclosingAndNext) {
  PendingEvents events = {Event(0, 100, 0), Event(10, 20, 1), Event(50, 10, 2), Event(200, 5, 3)};
  NestingResult result;
  NestLineEvents(&events, true, &result);
  EXPECT_EQ(FindEnclosingEvent(events, result.parents, 15), 1);
  EXPECT_EQ(FindEnclosingEvent(events, result.parents, 40), 0);  // after [10,30), inside [0,100)
  EXPECT_EQ(FindEnclosingEvent(events, result.parents, 10), 1);  // starts exactly there
  EXPECT_EQ(FindEnclosingEvent(events, result.parents, 150), -1);
  EXPECT_EQ(FindEnclosingEvent(events, result.parents, -5), -1);
  EXPECT_EQ(FindNextEvent(events, 31), 2);
  EXPECT_EQ(FindNextEvent(events, 50), 2);
  EXPECT_EQ(FindNextEvent(events, 201), -1);
}

// The sweep binds every point as the one-at-a-time searches do, whatever the order of the
// points and however the events nest.
TEST(LineNestingTest, BindFlowPointsAgreesWithTheSearches) {
  std::mt19937 random(7);
  for (int round = 0; round < 50; ++round) {
    PendingEvents events;
    for (uint32_t i = 0; i < 200; ++i) {
      events.push_back(Event(static_cast<int64_t>(random() % 1000), static_cast<int64_t>(random() % 60), i));
    }
    NestingResult result;
    NestLineEvents(&events, true, &result);
    PendingFlowPoints points;
    for (int i = 0; i < 300; ++i) {
      PendingFlowPoint point;
      point.timestamp_ps = static_cast<int64_t>(random() % 1100) - 50;
      point.binding = random() % 2 == 0 ? FlowBinding::kEnclosing : FlowBinding::kNext;
      points.push_back(point);
    }
    for (bool nested : {true, false}) {
      std::vector<int32_t> targets = BindFlowPoints(events, result.parents, nested, points);
      ASSERT_EQ(targets.size(), points.size());
      for (size_t i = 0; i < points.size(); ++i) {
        int32_t expected = nested && points[i].binding == FlowBinding::kEnclosing
                               ? FindEnclosingEvent(events, result.parents, points[i].timestamp_ps)
                               : FindNextEvent(events, points[i].timestamp_ps);
        EXPECT_EQ(targets[i], expected) << "round " << round << " point " << i;
      }
    }
  }
}

// The overlap fix as first written: each partial overlap rescans every open event
// (O(n^2) on a staircase of overlaps). The reference the running sums must match.
void ReferenceNest(PendingEvents* events, bool allow_overflow, NestingResult* result) {
  std::stable_sort(events->begin(), events->end(), [](const PendingEvent& a, const PendingEvent& b) {
    if (a.timestamp_ps != b.timestamp_ps) return a.timestamp_ps < b.timestamp_ps;
    if (a.duration_ps != b.duration_ps) return a.duration_ps > b.duration_ps;
    return a.seq < b.seq;
  });
  PendingEvents& kept = *events;
  result->parents.assign(kept.size(), -1);
  std::vector<int32_t> stack;
  size_t out = 0;
  for (size_t in = 0; in < kept.size(); ++in) {
    PendingEvent event = kept[in];
    const int64_t start = event.timestamp_ps;
    while (!stack.empty() && kept[stack.back()].end_ps() <= start) stack.pop_back();
    if (!stack.empty() && event.end_ps() > kept[stack.back()].end_ps()) {
      size_t first = stack.size();
      while (first > 0 && kept[stack[first - 1]].end_ps() < event.end_ps()) --first;
      const int64_t cost_event = event.end_ps() - kept[stack.back()].end_ps();
      int64_t cost_enclosing = 0;
      bool enclosing_protected = false;
      for (size_t i = first; i < stack.size(); ++i) {
        cost_enclosing += kept[stack[i]].end_ps() - start;
        enclosing_protected = enclosing_protected || (kept[stack[i]].flags & kEventStepMarker) != 0;
      }
      bool event_protected = (event.flags & kEventStepMarker) != 0;
      if (!allow_overflow) event_protected = enclosing_protected = false;
      if (event_protected && enclosing_protected) {
        result->overflow.push_back(event);
        continue;
      }
      if (enclosing_protected || (!event_protected && cost_event <= cost_enclosing)) {
        event.duration_ps = kept[stack.back()].end_ps() - start;
        result->trimmed_ps += cost_event;
        ++result->trimmed_event;
      } else {
        for (size_t i = first; i < stack.size(); ++i) kept[stack[i]].duration_ps = start - kept[stack[i]].timestamp_ps;
        stack.resize(first);
        result->trimmed_ps += cost_enclosing;
        ++result->trimmed_enclosing;
      }
    }
    result->parents[out] = stack.empty() ? -1 : stack.back();
    kept[out] = event;
    stack.push_back(static_cast<int32_t>(out++));
  }
  kept.resize(out);
  result->parents.resize(out);
}

// Random lines full of partial overlaps, step markers among them: the same events, times,
// parents, overflow and counts as the reference.
TEST(LineNestingTest, RunningSumsGiveTheReferencesResult) {
  std::mt19937 random(11);
  for (int round = 0; round < 200; ++round) {
    PendingEvents events;
    const uint32_t n = 1 + random() % 120;
    for (uint32_t i = 0; i < n; ++i) {
      events.push_back(Event(static_cast<int64_t>(random() % 500), static_cast<int64_t>(random() % 200), i,
                             random() % 6 == 0 ? kEventStepMarker : 0));
    }
    for (bool allow_overflow : {true, false}) {
      PendingEvents fast = events, reference = events;
      NestingResult fast_result, reference_result;
      NestLineEvents(&fast, allow_overflow, &fast_result);
      ReferenceNest(&reference, allow_overflow, &reference_result);
      SCOPED_TRACE("round " + std::to_string(round));
      ASSERT_EQ(fast.size(), reference.size());
      for (size_t i = 0; i < fast.size(); ++i) {
        EXPECT_EQ(fast[i].seq, reference[i].seq);
        EXPECT_EQ(fast[i].timestamp_ps, reference[i].timestamp_ps);
        EXPECT_EQ(fast[i].duration_ps, reference[i].duration_ps);
        EXPECT_EQ(fast_result.parents[i], reference_result.parents[i]);
      }
      ASSERT_EQ(fast_result.overflow.size(), reference_result.overflow.size());
      EXPECT_EQ(fast_result.trimmed_event, reference_result.trimmed_event);
      EXPECT_EQ(fast_result.trimmed_enclosing, reference_result.trimmed_enclosing);
      EXPECT_EQ(fast_result.trimmed_ps, reference_result.trimmed_ps);
      EXPECT_TRUE(IsProperlyNested(fast));
    }
  }
}

// The staircase that was quadratic (issue 33): each event starts 1 us after the last and
// outlasts every open one. Each is trimmed to the first one's end, one level deeper.
TEST(LineNestingTest, AStaircaseOfOverlapsNestsEveryEvent) {
  constexpr uint32_t kEvents = 200'000;
  constexpr int64_t kUs = 1'000'000, kLong = int64_t{1'000'000'000} * kUs;
  PendingEvents events;
  for (uint32_t i = 0; i < kEvents; ++i) events.push_back(Event(i * kUs, kLong, i));
  NestingResult result;
  NestLineEvents(&events, true, &result);
  ASSERT_EQ(events.size(), kEvents);
  EXPECT_EQ(result.trimmed_event, kEvents - 1);
  EXPECT_EQ(result.trimmed_enclosing, 0u);
  EXPECT_EQ(events.back().end_ps(), kLong) << "trimmed to the first event's end";
  EXPECT_EQ(result.parents.back(), static_cast<int32_t>(kEvents - 2));
  EXPECT_TRUE(IsProperlyNested(events));
}

}  // namespace
}  // namespace stepscope::importers
