#include "src/cli/xspace_summary.h"

#include <gtest/gtest.h>

#include "src/xspace/columnar/columnar_reader.h"
#include "src/xspace/columnar/xspace_to_columnar.h"
#include "src/xspace/xplane_builder.h"
#include "src/xspace/xspace_io.h"

namespace stepscope::cli {
namespace {

using xspace::StatType;

std::string TestFile(const std::string& name) {
  return std::string(STEPSCOPE_SHARED_DIR) + "/testdata/xplane/" + name;
}

// Built messages take the path real files take: serialized, then the streaming reader.
XSpaceSummary Summarize(const xspace::XSpace& space) {
  StatusOr<xspace::ColumnarXSpace> columnar = xspace::ConvertXSpaceToColumnar(space);
  EXPECT_TRUE(columnar.ok()) << columnar.status().ToString();
  return columnar.ok() ? SummarizeXSpace(*columnar) : XSpaceSummary{};
}

XSpaceSummary SummarizeFile(const std::string& name) {
  StatusOr<xspace::ColumnarXSpace> columnar = xspace::ReadColumnarXSpaceFile(TestFile(name));
  EXPECT_TRUE(columnar.ok()) << columnar.status().ToString();
  return columnar.ok() ? SummarizeXSpace(*columnar) : XSpaceSummary{};
}

const PlaneSummary* FindPlane(const XSpaceSummary& s, const std::string& name) {
  for (const PlaneSummary& p : s.planes) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

const StatSummary* FindStat(const PlaneSummary& p, const std::string& name) {
  for (const StatSummary& s : p.stats) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

TEST(XSpaceSummaryTest, CountsStepsDroppedEventsAndEnvironment) {
  xspace::XSpace space;
  space.add_hostnames("worker-0");
  space.add_warnings("buffer full on thread 12");
  xspace::XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  host.AddStatValue(StatType::kHostName, "worker-0");
  host.AddStatValue(StatType::kLogicalCores, int64_t{16});
  host.AddStatValue(StatType::kDroppedTraces, uint64_t{5});
  xspace::XLineBuilder line = host.GetOrCreateLine(42);
  line.SetName("main");
  line.SetTimestampNs(100);
  for (int step = 0; step < 3; ++step) {
    xspace::XEventBuilder e = line.AddEvent(*host.GetOrCreateEventMetadata("train"));
    e.SetTimestampNs(1000 + step * 10'000'000);            // 10 ms apart
    e.SetEndTimestampNs(1000 + step * 10'000'000 + (step + 1) * 2'000'000);  // 2, 4, 6 ms
    e.AddStatValue(StatType::kStepNum, int64_t{step});
    e.AddStatValue(StatType::kIsRoot, int64_t{1});
  }
  line.AddEvent(*host.GetOrCreateEventMetadata("agg")).SetNumOccurrences(9);  // no time: not in the span
  xspace::XPlaneBuilder gpu(space.add_planes());
  gpu.SetName(xspace::GpuPlaneName(0));
  gpu.AddStatValue(StatType::kDroppedTraces, int64_t{2});
  gpu.AddStatValue(StatType::kDevCapCoreCount, int64_t{80});
  gpu.AddBytesStatValue(*gpu.GetOrCreateStatMetadata("blob"), "abc");

  XSpaceSummary s = Summarize(space);
  EXPECT_EQ(s.hostnames, std::vector<std::string>{"worker-0"});
  EXPECT_EQ(s.warnings.size(), 1u);
  ASSERT_EQ(s.planes.size(), 2u);
  EXPECT_EQ(s.lines, 1);
  EXPECT_EQ(s.events, 4);
  EXPECT_EQ(s.dropped_events, 7);  // summed over planes

  const LineSummary& l = s.planes[0].lines[0];
  EXPECT_EQ(l.name, "main");
  EXPECT_EQ(l.events, 4);
  EXPECT_EQ(*l.begin_ps, 1000 * 1000);
  EXPECT_EQ(*l.end_ps, (1000 + 20'000'000 + 6'000'000) * 1000LL);

  const StatSummary* cores = FindStat(s.planes[0], "logical_cores");
  ASSERT_NE(cores, nullptr);
  EXPECT_EQ(cores->kind, StatSummary::Kind::kInt);
  EXPECT_EQ(cores->int_value, 16);
  EXPECT_EQ(FindStat(s.planes[0], "host_name")->text, "worker-0");
  EXPECT_EQ(FindStat(s.planes[1], "blob")->kind, StatSummary::Kind::kBytes);
  EXPECT_EQ(FindStat(s.planes[1], "blob")->text, "<3 bytes>");

  ASSERT_EQ(s.step_series.size(), 1u);
  EXPECT_EQ(s.step_series[0].name, "train");
  EXPECT_EQ(s.step_series[0].stats.count, 3);
  EXPECT_DOUBLE_EQ(s.step_series[0].stats.mean_ps, 4e9);
  EXPECT_EQ(s.step_series[0].stats.min_ps, 2'000'000'000);
  EXPECT_EQ(s.step_series[0].stats.max_ps, 6'000'000'000);
}

TEST(XSpaceSummaryTest, NoDroppedTracesStatMeansUnknownNotZero) {
  xspace::XSpace space;
  xspace::XPlaneBuilder(space.add_planes()).SetName(xspace::kHostThreadsPlaneName);
  EXPECT_FALSE(Summarize(space).dropped_events.has_value());
}

TEST(XSpaceSummaryTest, HostileDroppedTracesSaturate) {
  xspace::XSpace space;
  for (int i = 0; i < 2; ++i) {
    xspace::XPlaneBuilder plane(space.add_planes());
    plane.SetName("p" + std::to_string(i));
    plane.AddStatValue(StatType::kDroppedTraces, INT64_MAX);
  }
  EXPECT_EQ(Summarize(space).dropped_events, INT64_MAX);
}

// Counts checked against `protoc --decode=tensorflow.profiler.XSpace` of the same file
// (an independent decoder), and against testdata/xplane/README.md.
TEST(XSpaceSummaryTest, TensorFlowMultiWorkerDemoFile) {
  XSpaceSummary s = SummarizeFile("tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb");
  EXPECT_EQ(s.hostnames, std::vector<std::string>{"34.83.195.179:6003"});
  EXPECT_EQ(s.planes.size(), 9u);
  EXPECT_EQ(s.lines, 37);
  EXPECT_EQ(s.events, 23128);
  EXPECT_FALSE(s.dropped_events.has_value());
  EXPECT_TRUE(s.warnings.empty());
  EXPECT_TRUE(s.errors.empty());

  const PlaneSummary* host = FindPlane(s, "/host:CPU");
  ASSERT_NE(host, nullptr);
  EXPECT_EQ(host->lines.size(), 22u);
  EXPECT_EQ(host->events, 15354);
  EXPECT_EQ(host->event_metadata, 5056);
  EXPECT_EQ(host->stat_metadata, 1367);
  const LineSummary* python = nullptr;
  for (const LineSummary& l : host->lines) {
    if (l.name == "python3") python = &l;
  }
  ASSERT_NE(python, nullptr);
  EXPECT_EQ(python->id, 1630881670);
  EXPECT_EQ(python->events, 2393);
  EXPECT_EQ(*python->end_ps - *python->begin_ps, 2646593648000LL);

  // Only GPUs 1, 4 and 6 have events; every GPU plane carries the V100 capabilities.
  for (int gpu = 0; gpu < 8; ++gpu) {
    const PlaneSummary* p = FindPlane(s, xspace::GpuPlaneName(gpu));
    ASSERT_NE(p, nullptr) << gpu;
    EXPECT_EQ(p->events > 0, gpu == 1 || gpu == 4 || gpu == 6) << gpu;
    ASSERT_NE(FindStat(*p, "clock_rate"), nullptr);
    EXPECT_EQ(FindStat(*p, "clock_rate")->int_value, 1530000);
    EXPECT_EQ(FindStat(*p, "core_count")->int_value, 80);
    EXPECT_EQ(FindStat(*p, "memory_size")->uint_value, 16945512448ULL);
    EXPECT_EQ(FindStat(*p, "compute_cap_major")->int_value, 7);
  }
  EXPECT_EQ(FindPlane(s, "/device:GPU:4")->events, 3875);
  EXPECT_EQ(FindPlane(s, "/device:GPU:4")->event_metadata, 739);
  EXPECT_EQ(FindPlane(s, "/device:GPU:4")->stat_metadata, 1402);
  EXPECT_EQ(FindPlane(s, "/device:GPU:6")->events, 3880);
  EXPECT_EQ(FindPlane(s, "/device:GPU:1")->events, 19);

  ASSERT_EQ(s.step_series.size(), 2u);
  EXPECT_EQ(s.step_series[0].plane_name, "/device:GPU:4");
  EXPECT_EQ(s.step_series[0].stats.count, 1);
  EXPECT_EQ(s.step_series[0].stats.max_ps, 19865491000LL);
  EXPECT_EQ(s.step_series[1].plane_name, "/device:GPU:6");
  EXPECT_EQ(s.step_series[1].stats.max_ps, 21310352000LL);
}

TEST(XSpaceSummaryTest, JaxFiles) {
  XSpaceSummary a = SummarizeFile("tracelens_jax_mi300_te_fused_attn.xplane.pb");
  EXPECT_EQ(a.hostnames, std::vector<std::string>{"934987a2fc2f"});
  EXPECT_EQ(a.planes.size(), 12u);
  EXPECT_EQ(FindPlane(a, "/host:CPU")->events, 1842);
  ASSERT_EQ(FindPlane(a, "/device:GPU:0")->lines.size(), 1u);
  EXPECT_EQ(FindPlane(a, "/device:GPU:0")->lines[0].name, "Stream #2");
  EXPECT_EQ(FindPlane(a, "/device:GPU:0")->lines[0].events, 150);
  EXPECT_EQ(FindStat(*FindPlane(a, "/device:GPU:3"), "device_vendor")->text, "AMD");
  const PlaneSummary* env = FindPlane(a, "Task Environment");
  ASSERT_NE(env, nullptr);
  ASSERT_NE(FindStat(*env, "profile_start_time"), nullptr);
  EXPECT_TRUE(a.step_series.empty());

  XSpaceSummary c = SummarizeFile("tracelens_jax_mi300_conv_minimal_8gpu.xplane.pb");
  EXPECT_EQ(c.planes.size(), 11u);
  EXPECT_EQ(c.lines, 43);
  EXPECT_EQ(c.events, 3650);
  EXPECT_EQ(FindPlane(c, "/host:CPU")->lines.size(), 32u);
  EXPECT_EQ(FindPlane(c, "/host:CPU")->events, 3415);
  EXPECT_EQ(FindPlane(c, "/device:GPU:0")->events, 60);
  for (int gpu = 1; gpu < 8; ++gpu) EXPECT_EQ(FindPlane(c, xspace::GpuPlaneName(gpu))->events, 25) << gpu;
}

// info reads with the streaming reader; protobuf's decoder, an independent one, must see
// the same planes, lines, events and metadata in every shared profile.
TEST(XSpaceSummaryTest, AgreesWithTheProtobufDecoderOnEverySharedProfile) {
  for (const char* name : {"tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb",
                           "tracelens_jax_mi300_te_fused_attn.xplane.pb",
                           "tracelens_jax_mi300_conv_minimal_8gpu.xplane.pb"}) {
    SCOPED_TRACE(name);
    auto space = xspace::ReadXSpaceFile(TestFile(name));
    ASSERT_TRUE(space.ok()) << space.status().ToString();
    XSpaceSummary s = SummarizeFile(name);
    EXPECT_EQ(s.hostnames, std::vector<std::string>(space->hostnames().begin(), space->hostnames().end()));
    ASSERT_EQ(s.planes.size(), static_cast<size_t>(space->planes_size()));
    for (int p = 0; p < space->planes_size(); ++p) {
      const xspace::XPlane& plane = space->planes(p);
      const PlaneSummary& summary = s.planes[p];
      EXPECT_EQ(summary.name, plane.name());
      EXPECT_EQ(summary.event_metadata, plane.event_metadata_size()) << plane.name();
      EXPECT_EQ(summary.stat_metadata, plane.stat_metadata_size()) << plane.name();
      EXPECT_EQ(summary.stats.size(), static_cast<size_t>(plane.stats_size())) << plane.name();
      ASSERT_EQ(summary.lines.size(), static_cast<size_t>(plane.lines_size())) << plane.name();
      for (int l = 0; l < plane.lines_size(); ++l) {
        EXPECT_EQ(summary.lines[l].events, plane.lines(l).events_size()) << plane.name() << " line " << l;
      }
    }
  }
}

// Ids that events or stats use but the plane never defines are not the file's metadata.
TEST(XSpaceSummaryTest, UndefinedMetadataIdsAreNotCounted) {
  xspace::XSpace space;
  xspace::XPlane* plane = space.add_planes();
  plane->set_name(std::string(xspace::kHostThreadsPlaneName));
  (*plane->mutable_event_metadata())[1].set_id(1);
  (*plane->mutable_event_metadata())[1].set_name("defined");
  (*plane->mutable_stat_metadata())[3].set_id(3);
  (*plane->mutable_stat_metadata())[3].set_name("known");
  xspace::XLine* line = plane->add_lines();
  for (int64_t metadata_id : {1, 7}) {
    xspace::XEvent* event = line->add_events();
    event->set_metadata_id(metadata_id);
    xspace::XStat* stat = event->add_stats();
    stat->set_metadata_id(metadata_id == 1 ? 3 : 9);  // 9: never defined
    stat->set_int64_value(5);
  }
  XSpaceSummary s = Summarize(space);
  ASSERT_EQ(s.planes.size(), 1u);
  EXPECT_EQ(s.planes[0].events, 2);
  EXPECT_EQ(s.planes[0].event_metadata, 1);
  EXPECT_EQ(s.planes[0].stat_metadata, 1);
}

}  // namespace
}  // namespace stepscope::cli
