#include "src/analysis/trace/event_details.h"

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

const DetailStat* Find(const EventDetails& details, std::string_view name) {
  for (const DetailStat& stat : details.stats) {
    if (stat.name == name) return &stat;
  }
  return nullptr;
}

TEST(EventDetailsTest, ReturnsEveryStatIncludingMetadataStats) {
  XSpace space;
  XPlaneBuilder gpu(space.add_planes());
  gpu.SetName("/device:GPU:0");
  XLineBuilder stream = gpu.GetOrCreateLine(7);
  stream.SetName("Stream #7(Compute)");
  xspace::XEventMetadata* kernel = gpu.GetOrCreateEventMetadata("volta_sgemm_128x64_nn");
  kernel->set_display_name("sgemm");
  xspace::XStatsBuilder<xspace::XEventMetadata>(kernel, &gpu).AddStatValue(xspace::StatType::kFlops, uint64_t{4096});
  AddEventPs(gpu, stream, "other", 0, 10);
  xspace::XEventBuilder event = stream.AddEvent(*kernel);
  event.SetOffsetPs(2'000'000);
  event.SetDurationPs(1'500'000);
  event.AddStatValue(*gpu.GetOrCreateStatMetadata("correlation_id"), uint64_t{77});
  event.AddRefStatValue(*gpu.GetOrCreateStatMetadata("kernel_details"), "regs:32 grid:80,1,1 block:256,1,1");
  event.AddStatValue(*gpu.GetOrCreateStatMetadata("occupancy"), 0.5);
  event.AddStatValue(*gpu.GetOrCreateStatMetadata("tf_op"), "dense/MatMul:MatMul");
  event.AddStatValue(*gpu.GetOrCreateStatMetadata("negative"), int64_t{-3});
  TraceIndex index = IndexOf(space);
  ASSERT_EQ(index.tracks().size(), 1u);
  RowView row = index.row_view(0);
  ASSERT_EQ(row.size(), 2u);
  auto details = GetEventDetails(index, 0, row.event(1));
  ASSERT_TRUE(details.ok()) << details.status().ToString();
  EXPECT_EQ(details->name, "sgemm");
  EXPECT_EQ(details->long_name, "volta_sgemm_128x64_nn");
  EXPECT_EQ(details->start_ps, 2'000'000);
  EXPECT_EQ(details->duration_ps, 1'500'000);
  ASSERT_EQ(details->stats.size(), 6u);
  EXPECT_EQ(details->stats[0].name, "flops");  // metadata stats first
  EXPECT_TRUE(details->stats[0].from_metadata);
  EXPECT_EQ(details->stats[0].uint_value, 4096u);
  ASSERT_NE(Find(*details, "kernel_details"), nullptr);
  EXPECT_EQ(Find(*details, "kernel_details")->string_value, "regs:32 grid:80,1,1 block:256,1,1");
  EXPECT_DOUBLE_EQ(Find(*details, "occupancy")->double_value, 0.5);
  EXPECT_EQ(Find(*details, "tf_op")->string_value, "dense/MatMul:MatMul");
  EXPECT_EQ(Find(*details, "negative")->int_value, -3);
  EXPECT_FALSE(Find(*details, "correlation_id")->from_metadata);
  ASSERT_TRUE(details->correlation_id.has_value());
  EXPECT_EQ(*details->correlation_id, 77u);
}

TEST(EventDetailsTest, UnknownEventsAreNotFound) {
  XSpace space;
  XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  XLineBuilder line = host.GetOrCreateLine(1);
  line.SetName("t");
  AddEventPs(host, line, "a", 0, 10);
  TraceIndex index = IndexOf(space);
  EXPECT_EQ(GetEventDetails(index, 0, 5).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(GetEventDetails(index, 3, 0).status().code(), StatusCode::kNotFound);
}

TEST(EventDetailsTest, DecodesXFlowValues) {
  uint64_t value = (uint64_t{5} << 58) | (uint64_t{123456} << 2) | 2;
  XFlowValue flow = DecodeXFlow(value);
  EXPECT_EQ(flow.id, 123456u);
  EXPECT_EQ(flow.direction, 2);
  EXPECT_EQ(flow.category, 5);
}

}  // namespace
}  // namespace stepscope::analysis::trace
