#include "src/importers/assembler/trace_assembler.h"

#include <gtest/gtest.h>

#include "src/xspace/schema.h"
#include "src/xspace/xplane_visitor.h"

namespace stepscope::importers {
namespace {

using xspace::XPlaneVisitor;

TEST(TraceAssemblerTest, WritesSortedLinesWithOffsetsFromTheEarliestEvent) {
  ImportStats stats;
  TraceAssembler assembler(&stats);
  uint32_t gpu = assembler.GetOrCreatePlane("/device:GPU:0", 0);
  uint32_t host = assembler.GetOrCreatePlane("/host:CPU", 0);
  LineRef worker = assembler.GetOrCreateLine(host, 7);
  assembler.SetLineName(worker, "worker");
  LineRef main = assembler.GetOrCreateLine(host, 3);
  assembler.SetLineName(main, "main");
  LineRef stream = assembler.GetOrCreateLine(gpu, 7);
  assembler.SetLineName(stream, "Stream #7");

  EventRef late = assembler.AddEvent(main, "child", 5'000'500, 1'000);
  uint32_t key = assembler.Intern("External id");
  assembler.AddInt(late, key, 42);
  EventRef parent = assembler.AddEvent(main, "parent", 5'000'000, 10'000);
  assembler.AddRef(parent, assembler.Intern("Input type"), "float");
  assembler.AddEvent(worker, "other", 6'000'123, 0);
  EventRef kernel = assembler.AddEvent(stream, "kernel", 5'003'000, 2'000);
  assembler.AddUint(kernel, assembler.Intern("correlation_id"), 9);
  assembler.AddInt(late, assembler.Intern("late"), 1);  // after other events: a late stat
  assembler.AddHostname("rank0");
  assembler.SetWallClockOfTimeZeroNs(1'000'000'000);

  xspace::XSpace space;
  ASSERT_TRUE(assembler.Finish(&space).ok());
  ASSERT_EQ(space.planes_size(), 3);
  EXPECT_EQ(space.planes(0).name(), "/host:CPU");
  EXPECT_EQ(space.planes(1).name(), "/device:GPU:0");
  EXPECT_EQ(space.planes(2).name(), "Task Environment");
  EXPECT_EQ(space.hostnames(0), "rank0");
  EXPECT_EQ(stats.xevents_written, 4u);

  XPlaneVisitor host_plane(&space.planes(0));
  ASSERT_EQ(host_plane.num_lines(), 2);
  EXPECT_EQ(host_plane.line(0).name(), "main");  // host lines sorted by name
  EXPECT_EQ(host_plane.line(1).name(), "worker");
  xspace::XLineVisitor main_line = host_plane.line(0);
  ASSERT_EQ(main_line.num_events(), 2);
  EXPECT_EQ(main_line.timestamp_ns(), 0);
  EXPECT_EQ(main_line.event(0).name(), "parent");
  EXPECT_EQ(main_line.event(0).offset_ps(), 0);  // the origin is the earliest event (floored to ns)
  EXPECT_EQ(main_line.event(1).name(), "child");
  EXPECT_EQ(main_line.event(1).offset_ps(), 500);
  EXPECT_EQ(main_line.event(1).GetStat("External id")->IntValue(), 42);
  EXPECT_EQ(main_line.event(1).GetStat("late")->IntValue(), 1);
  EXPECT_EQ(main_line.event(0).GetStat("Input type")->StrOrRefValue(), "float");
  EXPECT_EQ(main_line.event(0).GetStat("Input type")->value_case(), xspace::XStat::kRefValue);
  EXPECT_EQ(host_plane.line(1).event(0).offset_ps(), 1'000'123);

  XPlaneVisitor gpu_plane(&space.planes(1));
  EXPECT_EQ(gpu_plane.line(0).event(0).GetStat(xspace::StatType::kCorrelationId)->UintValue(), 9u);

  XPlaneVisitor task(&space.planes(2));
  EXPECT_EQ(task.GetStat(xspace::StatType::kProfileStartTime)->UintValue(), 1'000'005'000u);
  EXPECT_EQ(task.GetStat(xspace::StatType::kProfileStopTime)->UintValue(), 1'000'006'001u);
}

TEST(TraceAssemblerTest, FlowsBindAndPackLikeXFlow) {
  ImportStats stats;
  TraceAssembler assembler(&stats);
  uint32_t host = assembler.GetOrCreatePlane("/host:CPU", 0);
  LineRef a = assembler.GetOrCreateLine(host, 1);
  LineRef b = assembler.GetOrCreateLine(host, 2);
  assembler.AddEvent(a, "sender", 0, 100);
  assembler.AddEvent(b, "receiver", 500, 100);
  stats.flow_events = 3;
  assembler.AddFlowPoint(a, {10, 77, 9, FlowDirection::kOut, FlowBinding::kEnclosing});
  assembler.AddFlowPoint(b, {400, 77, 9, FlowDirection::kIn, FlowBinding::kNext});
  assembler.AddFlowPoint(b, {900, 78, 0, FlowDirection::kIn, FlowBinding::kNext});  // nothing after it

  xspace::XSpace space;
  ASSERT_TRUE(assembler.Finish(&space).ok());
  XPlaneVisitor plane(&space.planes(0));
  uint64_t out = plane.line(0).event(0).GetStat(xspace::StatType::kFlow)->UintValue();
  uint64_t in = plane.line(1).event(0).GetStat(xspace::StatType::kFlow)->UintValue();
  EXPECT_EQ(out & 3, 2u);
  EXPECT_EQ(in & 3, 1u);
  EXPECT_EQ((out >> 2) & ((uint64_t{1} << 56) - 1), 77u);
  EXPECT_EQ(out >> 58, 9u);
  EXPECT_EQ(out >> 2, in >> 2);
  EXPECT_EQ(stats.flow_events, 2u);
  EXPECT_EQ(stats.DroppedTotal(), 1u);
}

TEST(TraceAssemblerTest, DroppedEventsAreNotWrittenAndOverlapsAreCounted) {
  ImportStats stats;
  TraceAssembler assembler(&stats);
  uint32_t host = assembler.GetOrCreatePlane("/host:CPU", 0);
  LineRef line = assembler.GetOrCreateLine(host, 1);
  assembler.AddEvent(line, "outer", 0, 100'000);
  assembler.AddEvent(line, "overlap", 90'000, 200'000);
  EventRef gone = assembler.AddEvent(line, "open B", 5, -1);
  assembler.event(gone).flags |= kEventDropped;
  xspace::XSpace space;
  ASSERT_TRUE(assembler.Finish(&space).ok());
  ASSERT_EQ(space.planes(0).lines(0).events_size(), 2);
  EXPECT_EQ(space.planes(0).lines(0).events(0).duration_ps(), 90'000);
  EXPECT_EQ(stats.trimmed_ps, 10'000);
  EXPECT_EQ(stats.fixed.size(), 1u);
  bool warned = false;
  for (const std::string& warning : space.warnings()) warned = warned || warning.find("overlapping") != std::string::npos;
  EXPECT_TRUE(warned);
}

}  // namespace
}  // namespace stepscope::importers
