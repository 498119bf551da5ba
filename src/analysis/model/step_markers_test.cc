#include "src/analysis/model/step_markers.h"

#include <gtest/gtest.h>

#include <string>

#include "src/xspace/xplane_builder.h"
#include "src/xspace/xspace_io.h"

namespace stepscope::analysis {
namespace {

using xspace::StatType;
using xspace::XEventBuilder;
using xspace::XLineBuilder;
using xspace::XPlaneBuilder;

constexpr int64_t kMs = 1'000'000;  // ns per ms

// Adds `name` on `line` over [begin_ns, end_ns) with the given int stats.
XEventBuilder AddEvent(XPlaneBuilder& plane, XLineBuilder& line, std::string_view name, int64_t begin_ns,
                       int64_t end_ns) {
  XEventBuilder event = line.AddEvent(*plane.GetOrCreateEventMetadata(name));
  event.SetTimestampNs(begin_ns);
  event.SetEndTimestampNs(end_ns);
  return event;
}

void AddTrainStep(XPlaneBuilder& plane, XLineBuilder& line, int64_t step, int64_t begin_ns, int64_t end_ns,
                  int64_t root_level = 1) {
  XEventBuilder event = AddEvent(plane, line, "train", begin_ns, end_ns);
  event.AddStatValue(StatType::kStepNum, step);
  event.AddStatValue(StatType::kIsRoot, root_level);
}

TEST(StepMarkersTest, FindsHostRootsWithStepNumbersAndTimes) {
  xspace::XSpace space;
  XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  XLineBuilder main = host.GetOrCreateLine(100);
  main.SetName("main");
  main.SetTimestampNs(1000);
  AddTrainStep(host, main, 7, 1000, 1000 + 10 * kMs);
  AddEvent(host, main, "forward", 2000, 3000);  // not a marker
  AddTrainStep(host, main, 8, 1000 + 10 * kMs, 1000 + 40 * kMs);

  std::vector<StepMarker> markers = FindStepMarkers(space);
  ASSERT_EQ(markers.size(), 2u);
  EXPECT_EQ(markers[0].kind, StepMarkerKind::kHostRoot);
  EXPECT_EQ(markers[0].name, "train");
  EXPECT_EQ(markers[0].step_num, 7);
  EXPECT_EQ(markers[0].root_level, 1);
  EXPECT_EQ(markers[0].begin_ps, 1000 * 1000);
  EXPECT_EQ(markers[0].duration_ps(), 10 * kMs * 1000);
  EXPECT_EQ(markers[0].plane_name, "/host:CPU");
  EXPECT_EQ(markers[0].line_id, 100);
  EXPECT_EQ(markers[0].line_name, "main");
  EXPECT_EQ(markers[1].step_num, 8);
  EXPECT_EQ(markers[1].duration_ps(), 30 * kMs * 1000);

  StepTimeStats stats = ComputeStepTimeStats(markers);
  EXPECT_EQ(stats.count, 2);
  EXPECT_DOUBLE_EQ(stats.mean_ps, 20.0 * kMs * 1000);
  EXPECT_EQ(stats.min_ps, 10 * kMs * 1000);
  EXPECT_EQ(stats.max_ps, 30 * kMs * 1000);
}

TEST(StepMarkersTest, IterNumWinsOverStepNumAndGroupIdIsTheLastResort) {
  xspace::XSpace space;
  XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  XLineBuilder line = host.GetOrCreateLine(1);
  XEventBuilder a = AddEvent(host, line, "step", 0, 10);
  a.AddStatValue(StatType::kIsRoot, int64_t{1});
  a.AddStatValue(StatType::kStepNum, int64_t{3});
  a.AddStatValue(StatType::kIterNum, int64_t{30});
  XEventBuilder b = AddEvent(host, line, "step", 20, 30);
  b.AddStatValue(StatType::kIsRoot, int64_t{1});
  b.AddStatValue(StatType::kGroupId, int64_t{4});
  XEventBuilder c = AddEvent(host, line, "step", 40, 50);
  c.AddStatValue(StatType::kIsRoot, int64_t{1});

  std::vector<StepMarker> markers = FindStepMarkers(space);
  ASSERT_EQ(markers.size(), 3u);
  EXPECT_EQ(markers[0].step_num, 30);
  EXPECT_EQ(markers[1].step_num, 4);
  EXPECT_EQ(markers[2].step_num, std::nullopt);
}

TEST(StepMarkersTest, NestedRootOfTheSameLevelIsNotAStepButOtherLevelsAre) {
  xspace::XSpace space;
  XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  XLineBuilder line = host.GetOrCreateLine(1);
  AddTrainStep(host, line, 1, 0, 100);
  AddTrainStep(host, line, 2, 10, 20);      // inside step 1, same level: part of step 1
  AddTrainStep(host, line, 3, 30, 40, 2);   // inside step 1, level 2: its own root
  AddTrainStep(host, line, 4, 100, 200);    // starts where step 1 ends: a new step

  std::vector<StepMarker> markers = FindStepMarkers(space);
  ASSERT_EQ(markers.size(), 3u);
  EXPECT_EQ(markers[0].step_num, 1);
  EXPECT_EQ(markers[1].step_num, 3);
  EXPECT_EQ(markers[1].root_level, 2);
  EXPECT_EQ(markers[2].step_num, 4);

  // Level 2 roots are reported first, each level as its own series.
  std::vector<StepSeries> series = GroupStepMarkers(markers);
  ASSERT_EQ(series.size(), 2u);
  EXPECT_EQ(series[0].root_level, 2);
  EXPECT_EQ(series[0].markers.size(), 1u);
  EXPECT_EQ(series[1].root_level, 1);
  EXPECT_EQ(series[1].markers.size(), 2u);
}

TEST(StepMarkersTest, RootsOnTwoThreadsAreBothFoundAndOneSeries) {
  xspace::XSpace space;
  XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  XLineBuilder a = host.GetOrCreateLine(1);
  XLineBuilder b = host.GetOrCreateLine(2);
  AddTrainStep(host, a, 1, 0, 100);
  AddTrainStep(host, b, 1, 50, 120);  // overlaps in time but on another thread
  std::vector<StepMarker> markers = FindStepMarkers(space);
  ASSERT_EQ(markers.size(), 2u);
  EXPECT_EQ(markers[0].line_id, 1);
  EXPECT_EQ(markers[1].line_id, 2);
  ASSERT_EQ(GroupStepMarkers(markers).size(), 1u);
}

TEST(StepMarkersTest, RootStatInEventMetadataCounts) {
  // Stats constant for every event of a metadata may live on the metadata.
  xspace::XSpace space;
  XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  xspace::XEventMetadata* step = host.GetOrCreateEventMetadata("train");
  xspace::XStatsBuilder<xspace::XEventMetadata>(step, &host).AddStatValue(StatType::kIsRoot, int64_t{1});
  XLineBuilder line = host.GetOrCreateLine(1);
  line.AddEvent(*step).SetDurationPs(5);
  ASSERT_EQ(FindStepMarkers(space).size(), 1u);
}

TEST(StepMarkersTest, LegacyTraceContextIsALevelOneRoot) {
  xspace::XSpace space;
  XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  XLineBuilder line = host.GetOrCreateLine(1);
  AddEvent(host, line, "TraceContext", 0, 10).AddStatValue(StatType::kStepNum, int64_t{12});
  AddEvent(host, line, "TraceContext", 10, 25);
  std::vector<StepMarker> markers = FindStepMarkers(space);
  ASSERT_EQ(markers.size(), 2u);
  EXPECT_EQ(markers[0].kind, StepMarkerKind::kTraceContext);
  EXPECT_EQ(markers[0].root_level, 1);
  EXPECT_EQ(markers[0].step_num, 12);
  EXPECT_EQ(markers[1].duration_ps(), 15000);
}

TEST(StepMarkersTest, DeviceStepsLineEventsAreStepsOnlyOnDevicePlanes) {
  xspace::XSpace space;
  XPlaneBuilder gpu(space.add_planes());
  gpu.SetName(xspace::GpuPlaneName(2));
  gpu.SetId(2);
  XLineBuilder steps = gpu.GetOrCreateLine(xspace::kThreadIdDerivedMin);
  steps.SetName(xspace::kStepLineName);
  XEventBuilder s0 = AddEvent(gpu, steps, "0", 0, 1000);
  s0.AddStatValue(StatType::kGroupId, int64_t{0});
  s0.AddStatValue(StatType::kStepName, "0");
  XEventBuilder s1 = AddEvent(gpu, steps, "1", 1000, 3000);
  s1.AddStatValue(StatType::kGroupId, int64_t{1});
  s1.AddStatValue(StatType::kStepName, "train 41");
  AddEvent(gpu, steps, "x", 3000, 4000).SetNumOccurrences(3);  // aggregated: no time, no step
  XLineBuilder stream = gpu.GetOrCreateLine(7);
  stream.SetName("Stream #7(Compute)");
  AddEvent(gpu, stream, "kernel", 10, 20);

  // A "Steps" line on the host plane is not a device step line.
  XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  XLineBuilder host_steps = host.GetOrCreateLine(1);
  host_steps.SetName(xspace::kStepLineName);
  AddEvent(host, host_steps, "0", 0, 10);

  std::vector<StepMarker> markers = FindStepMarkers(space);
  ASSERT_EQ(markers.size(), 2u);
  EXPECT_EQ(markers[0].kind, StepMarkerKind::kDeviceStep);
  EXPECT_EQ(markers[0].name, "0");
  EXPECT_EQ(markers[0].step_num, 0);
  EXPECT_EQ(markers[0].plane_id, 2);
  EXPECT_EQ(markers[0].line_name, "Steps");
  EXPECT_EQ(markers[1].name, "train 41");
  EXPECT_EQ(markers[1].step_num, 41);
  EXPECT_EQ(markers[1].duration_ps(), 2'000'000);
}

TEST(StepMarkersTest, HostSeriesComeBeforeDeviceSeries) {
  xspace::XSpace space;
  XPlaneBuilder gpu(space.add_planes());
  gpu.SetName(xspace::GpuPlaneName(0));
  XLineBuilder steps = gpu.GetOrCreateLine(1);
  steps.SetName(xspace::kStepLineName);
  AddEvent(gpu, steps, "0", 0, 10);
  XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  XLineBuilder line = host.GetOrCreateLine(1);
  AddTrainStep(host, line, 0, 0, 10);
  AddEvent(host, line, "eval", 20, 30).AddStatValue(StatType::kIsRoot, int64_t{1});
  AddTrainStep(host, line, 1, 40, 50);

  std::vector<StepSeries> series = GroupStepMarkers(FindStepMarkers(space));
  ASSERT_EQ(series.size(), 3u);
  EXPECT_EQ(series[0].name, "train");  // the host series with more markers
  EXPECT_EQ(series[0].markers.size(), 2u);
  EXPECT_EQ(series[1].name, "eval");
  EXPECT_EQ(series[2].kind, StepMarkerKind::kDeviceStep);
  EXPECT_EQ(series[2].plane_name, "/device:GPU:0");
  EXPECT_EQ(series[2].name, "Steps");
}

TEST(StepMarkersTest, EmptySpaceHasNoMarkers) {
  EXPECT_TRUE(FindStepMarkers(xspace::XSpace()).empty());
  StepTimeStats stats = ComputeStepTimeStats({});
  EXPECT_EQ(stats.count, 0);
  EXPECT_EQ(stats.max_ps, 0);
}

std::string TestFile(const std::string& name) {
  return std::string(STEPSCOPE_SHARED_DIR) + "/testdata/xplane/" + name;
}

// The TensorFlow 2.4 demo file: no host roots (TF 2.4 grouped by executor loops), one
// derived `Steps` event on each of GPU:4 and GPU:6, both group 0 named "0". Durations and
// offsets as decoded by `protoc --decode` (line timestamp_ns 245747).
TEST(StepMarkersTest, TensorFlowDemoFileHasOneDeviceStepOnGpu4AndGpu6) {
  auto space = xspace::ReadXSpaceFile(TestFile("tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb"));
  ASSERT_TRUE(space.ok()) << space.status().ToString();
  std::vector<StepMarker> markers = FindStepMarkers(*space);
  ASSERT_EQ(markers.size(), 2u);
  EXPECT_EQ(markers[0].plane_name, "/device:GPU:4");
  EXPECT_EQ(markers[0].kind, StepMarkerKind::kDeviceStep);
  EXPECT_EQ(markers[0].name, "0");
  EXPECT_EQ(markers[0].step_num, 0);
  EXPECT_EQ(markers[0].line_id, -559038737);
  EXPECT_EQ(markers[0].begin_ps, 245747LL * 1000 + 1921054081000LL);
  EXPECT_EQ(markers[0].duration_ps(), 19865491000LL);
  EXPECT_EQ(markers[1].plane_name, "/device:GPU:6");
  EXPECT_EQ(markers[1].duration_ps(), 21310352000LL);
  std::vector<StepSeries> series = GroupStepMarkers(markers);
  ASSERT_EQ(series.size(), 2u);
  EXPECT_EQ(series[0].plane_name, "/device:GPU:4");
}

TEST(StepMarkersTest, JaxFilesWithoutStepAnnotationsHaveNoMarkers) {
  for (const char* name : {"tracelens_jax_mi300_te_fused_attn.xplane.pb", "tracelens_jax_mi300_conv_minimal_8gpu.xplane.pb"}) {
    auto space = xspace::ReadXSpaceFile(TestFile(name));
    ASSERT_TRUE(space.ok()) << space.status().ToString();
    EXPECT_TRUE(FindStepMarkers(*space).empty()) << name;
  }
}

}  // namespace
}  // namespace stepscope::analysis
