#include "src/importers/tf_trace_json/tf_trace_json_importer.h"

#include <gtest/gtest.h>

#include "src/importers/importer_registry.h"
#include "src/importers/testing/trace_facts.h"
#include "src/xspace/schema.h"
#include "src/xspace/xplane_visitor.h"

namespace stepscope::importers {
namespace {

using testing::ImportedEvent;

// What XProf's trace_events_to_json writes (reference/xspace.md §6): planes as pids named
// by process_name, lines as tids, every stat as a string arg, a trailing {}.
constexpr char kTfTrace[] = R"json({"displayTimeUnit":"ns","metadata":{"highres-ticks":true},"traceEvents":[
{"ph":"M","pid":1,"name":"process_name","args":{"name":"/device:GPU:0"}},
{"ph":"M","pid":1,"name":"process_sort_index","args":{"sort_index":1}},
{"ph":"M","pid":1,"tid":7,"name":"thread_name","args":{"name":"Stream #7(Compute)"}},
{"ph":"M","pid":701,"name":"process_name","args":{"name":"/host:CPU"}},
{"ph":"M","pid":701,"tid":42,"name":"thread_name","args":{"name":"python3"}},
{"ph":"X","pid":701,"tid":42,"ts":1000.5,"dur":500,"name":"train 5","args":{"group_id":"5","step_name":"train 5","step_num":"5"}},
{"ph":"X","pid":701,"tid":42,"ts":1010,"dur":20,"name":"MatMul","args":{"long_name":"model/dense/MatMul:MatMul","correlation_id":"12"}},
{"ph":"X","pid":1,"tid":7,"ts":1040,"dur":8.25,"name":"volta_sgemm_128x64_nn","args":{"correlation_id":"12","kernel_details":"regs:128 static_shared:0 dynamic_shared:0 grid:4,1,1 block:256,1,1 occ_pct:12.5","flops":"1.5e9"}},
{}]})json";

TEST(TfTraceJsonImporterTest, SniffsAndRebuildsPlanesLinesAndStats) {
  ImportStats stats;
  xspace::XSpace space;
  ASSERT_TRUE(ImportTraceBytes(kTfTrace, {}, &space, &stats).ok());
  EXPECT_EQ(stats.format, "tf_trace_json");
  EXPECT_EQ(stats.events_read, 9u);
  EXPECT_EQ(stats.events_imported, 3u);
  EXPECT_EQ(stats.metadata_events, 5u);
  EXPECT_EQ(stats.DroppedTotal(), 1u);  // the trailing {}
  ASSERT_GE(space.planes_size(), 2);
  EXPECT_EQ(space.planes(0).name(), "/host:CPU");
  EXPECT_EQ(space.planes(1).name(), "/device:GPU:0");
  EXPECT_EQ(space.planes(1).id(), 0);
  std::vector<ImportedEvent> events = testing::ImportedEvents(space);
  std::map<std::string, const ImportedEvent*> by_name;
  for (const ImportedEvent& event : events) by_name[event.name] = &event;
  // The step marker gets its TraceMe name and _r back.
  ASSERT_TRUE(by_name.count("train"));
  const ImportedEvent& step = *by_name["train"];
  EXPECT_EQ(step.display_name, "train 5");
  EXPECT_EQ(step.stats.at("_r"), "1");
  EXPECT_EQ(step.stats.at("step_num"), "5");
  EXPECT_EQ(step.line, "python3");
  // long_name is the real name; the shown name becomes the display name.
  ASSERT_TRUE(by_name.count("model/dense/MatMul:MatMul"));
  EXPECT_EQ(by_name["model/dense/MatMul:MatMul"]->display_name, "MatMul");
  EXPECT_FALSE(by_name["model/dense/MatMul:MatMul"]->stats.count("long_name"));
  // String args are numbers again where they are numbers.
  const ImportedEvent& kernel = *by_name["volta_sgemm_128x64_nn"];
  EXPECT_EQ(kernel.line, "Stream #7(Compute)");
  EXPECT_EQ(kernel.duration_ps, 8'250'000);
  xspace::XPlaneVisitor gpu(&space.planes(1));
  std::optional<xspace::XStatVisitor> correlation = gpu.line(0).event(0).GetStat(xspace::StatType::kCorrelationId);
  ASSERT_TRUE(correlation.has_value());
  EXPECT_TRUE(correlation->IsNumeric());
  EXPECT_EQ(correlation->IntValue(), 12);
  EXPECT_EQ(gpu.line(0).event(0).GetStat("flops")->value_case(), xspace::XStat::kDoubleValue);
  EXPECT_EQ(kernel.stats.at("kernel_details"), "regs:128 static_shared:0 dynamic_shared:0 grid:4,1,1 block:256,1,1 occ_pct:12.5");
}

}  // namespace
}  // namespace stepscope::importers
