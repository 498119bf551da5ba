#include "src/analysis/trace/trace_event_list.h"

#include <gtest/gtest.h>

#include "src/analysis/trace/trace_test_util.h"
#include "src/xspace/schema.h"

namespace stepscope::analysis::trace {
namespace {

using testing::AddEventPs;
using testing::IndexOf;
using xspace::XLineBuilder;
using xspace::XPlaneBuilder;
using xspace::XSpace;

// Thread a: "step" [0, 1000) with "matmul" [100, 300) inside; "step" [1000, 2000).
// Thread b: "copy" [50, 60), "MatMul" [1500, 1600), an instant "mark" at 700.
XSpace TwoThreads() {
  XSpace space;
  XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  XLineBuilder a = host.GetOrCreateLine(1);
  a.SetName("a");
  XLineBuilder b = host.GetOrCreateLine(2);
  b.SetName("b");
  AddEventPs(host, a, "step", 0, 1000);
  AddEventPs(host, a, "matmul", 100, 200);
  AddEventPs(host, a, "step", 1000, 1000);
  AddEventPs(host, b, "copy", 50, 10);
  AddEventPs(host, b, "MatMul", 1500, 100);
  AddEventPs(host, b, "mark", 700, 0);
  return space;
}

std::vector<std::string> Names(const TraceIndex& index, const EventList& list) {
  std::vector<std::string> names;
  for (const ListedEvent& e : list.events) names.emplace_back(index.EventName(e.track, e.event));
  return names;
}

TEST(TraceEventListTest, ListsTheEventsOverlappingTheRangeInTimeOrder) {
  TraceIndex index = IndexOf(TwoThreads());
  auto list = ListEvents(index, {.start_ps = 200, .end_ps = 1200});
  ASSERT_TRUE(list.ok()) << list.status().ToString();
  // "step" [0, 1000) overlaps from before; "copy" ended before 200.
  EXPECT_EQ(Names(index, *list), (std::vector<std::string>{"step", "matmul", "mark", "step"}));
  EXPECT_EQ(list->total, 4u);
  EXPECT_FALSE(list->truncated());
  EXPECT_EQ(list->events[1].depth, 1u);
  EXPECT_EQ(list->events[1].duration_ps, 200);
}

TEST(TraceEventListTest, KeepsTheEarliestUpToTheLimitAndCountsTheRest) {
  TraceIndex index = IndexOf(TwoThreads());
  auto list = ListEvents(index, {.limit = 2});
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(Names(index, *list), (std::vector<std::string>{"step", "copy"}));
  EXPECT_EQ(list->total, 6u);
  EXPECT_TRUE(list->truncated());
}

TEST(TraceEventListTest, AQueryKeepsTheMatchesInTheRange) {
  TraceIndex index = IndexOf(TwoThreads());
  auto all = ListEvents(index, {.query = "MATMUL"});
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(Names(index, *all), (std::vector<std::string>{"matmul", "MatMul"}));
  auto late = ListEvents(index, {.query = "matmul", .start_ps = 300, .end_ps = 2000});
  ASSERT_TRUE(late.ok());
  EXPECT_EQ(Names(index, *late), (std::vector<std::string>{"MatMul"}));  // [100, 300) ends at 300
  EXPECT_EQ(late->total, 1u);
}

TEST(TraceEventListTest, AnEmptyRangeHoldsTheEventsAtOrAcrossItsInstant) {
  TraceIndex index = IndexOf(TwoThreads());
  auto list = ListEvents(index, {.start_ps = 700, .end_ps = 700});
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(Names(index, *list), (std::vector<std::string>{"step", "mark"}));
  auto matched = ListEvents(index, {.query = "mark", .start_ps = 700, .end_ps = 700});
  ASSERT_TRUE(matched.ok());
  EXPECT_EQ(matched->total, 1u);
}

TEST(TraceEventListTest, RefusesBadRequests) {
  TraceIndex index = IndexOf(TwoThreads());
  EXPECT_EQ(ListEvents(index, {.start_ps = 10, .end_ps = 5}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ListEvents(index, {.limit = 0}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ListEvents(index, {.limit = kMaxListedEvents + 1}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ListEvents(index, {.query = std::string(300, 'x')}).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace stepscope::analysis::trace
