#include "src/importers/assembler/line_nesting.h"

#include <gtest/gtest.h>

#include <random>
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

}  // namespace
}  // namespace stepscope::importers
