#include "src/analysis/trace/trace_flows.h"

#include <gtest/gtest.h>

#include <string>

#include "src/analysis/trace/trace_test_util.h"
#include "src/xspace/columnar/columnar_reader.h"
#include "src/xspace/schema.h"

namespace stepscope::analysis::trace {
namespace {

using testing::AddEventPs;
using testing::IndexOf;
using testing::TrackNamed;
using xspace::XLineBuilder;
using xspace::XPlaneBuilder;
using xspace::XSpace;

constexpr char kTfGpuFile[] =
    STEPSCOPE_SHARED_DIR "/testdata/xplane/tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb";

// The correlation_id of an event, or 0.
uint64_t CorrelationOf(const TraceIndex& index, uint32_t track, uint32_t event) {
  const auto& plane = index.plane_of(track);
  xspace::ColumnarStat stat;
  if (!plane.FindStat(event, xspace::StatType::kCorrelationId, &stat)) return 0;
  return static_cast<uint64_t>(xspace::ColumnarPlane::AsInt64(stat));
}

TEST(TraceFlowsTest, LaunchAndKernelLinkBothWays) {
  XSpace space;
  XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  XLineBuilder thread = host.GetOrCreateLine(100);
  thread.SetName("python3");
  AddEventPs(host, thread, "dense/MatMul", 0, 50'000'000);
  xspace::XEventBuilder launch = AddEventPs(host, thread, "cudaLaunchKernel", 1'000'000, 2'000'000);
  launch.AddStatValue(*host.GetOrCreateStatMetadata("correlation_id"), uint64_t{42});
  xspace::XEventBuilder other = AddEventPs(host, thread, "cudaLaunchKernel", 5'000'000, 2'000'000);
  other.AddStatValue(*host.GetOrCreateStatMetadata("correlation_id"), uint64_t{43});
  XPlaneBuilder gpu(space.add_planes());
  gpu.SetName("/device:GPU:0");
  XLineBuilder stream = gpu.GetOrCreateLine(7);
  stream.SetName("Stream #7(Compute)");
  // The kernel runs 3 s later: found by the growing window.
  xspace::XEventBuilder kernel = AddEventPs(gpu, stream, "sgemm", 3'000'000'000'000, 10'000'000);
  kernel.AddStatValue(*gpu.GetOrCreateStatMetadata("correlation_id"), int64_t{42});
  xspace::XEventBuilder kernel2 = AddEventPs(gpu, stream, "relu", 3'100'000'000'000, 10'000'000);
  kernel2.AddStatValue(*gpu.GetOrCreateStatMetadata("correlation_id"), int64_t{43});
  TraceIndex index = IndexOf(space);
  uint32_t host_track = TrackNamed(index, "python3");
  uint32_t gpu_track = TrackNamed(index, "Stream #7(Compute)");
  // Event 1 of the host line is the launch with correlation 42.
  auto flows = FindFlows(index, host_track, 1);
  ASSERT_TRUE(flows.ok()) << flows.status().ToString();
  ASSERT_EQ(flows->size(), 1u);
  EXPECT_EQ((*flows)[0].kind, TraceFlow::Kind::kCorrelation);
  EXPECT_EQ((*flows)[0].id, 42u);
  EXPECT_EQ((*flows)[0].from.track, host_track);
  EXPECT_EQ((*flows)[0].to.track, gpu_track);
  EXPECT_EQ((*flows)[0].to.name, "sgemm");
  // And from the kernel back to its launch.
  auto back = FindFlows(index, gpu_track, (*flows)[0].to.event);
  ASSERT_TRUE(back.ok());
  ASSERT_EQ(back->size(), 1u);
  EXPECT_EQ((*back)[0].from.track, host_track);
  EXPECT_EQ((*back)[0].from.event, 1u);
  // An event without links has none.
  auto none = FindFlows(index, host_track, 0);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST(TraceFlowsTest, XFlowStatsLinkProducerToConsumer) {
  XSpace space;
  XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  XLineBuilder a = host.GetOrCreateLine(1);
  a.SetName("producer");
  XLineBuilder b = host.GetOrCreateLine(2);
  b.SetName("consumer");
  const uint64_t id = 99;
  xspace::XEventBuilder produce = AddEventPs(host, a, "Produce", 1000, 100);
  produce.AddStatValue(*host.GetOrCreateStatMetadata("flow"), (id << 2) | 2);  // out
  xspace::XEventBuilder consume = AddEventPs(host, b, "Consume", 500, 100);  // earlier, but "in"
  consume.AddStatValue(*host.GetOrCreateStatMetadata("flow"), (id << 2) | 1);
  TraceIndex index = IndexOf(space);
  const uint32_t consumer = TrackNamed(index, "consumer");
  // Event ids are the plane's: the consumer's only event is the plane's second.
  auto flows = FindFlows(index, consumer, index.row_view(index.tracks()[consumer].row_begin).event(0));
  ASSERT_TRUE(flows.ok());
  ASSERT_EQ(flows->size(), 1u);
  EXPECT_EQ((*flows)[0].kind, TraceFlow::Kind::kFlow);
  EXPECT_EQ((*flows)[0].id, id);
  EXPECT_EQ((*flows)[0].from.name, "Produce");
  EXPECT_EQ((*flows)[0].to.name, "Consume");
}

TEST(TraceFlowsTest, RealTensorFlowLaunchesLinkToTheirKernels) {
  auto space = xspace::ReadColumnarXSpaceFile(kTfGpuFile);
  ASSERT_TRUE(space.ok()) << space.status().ToString();
  std::vector<TraceSourceInput> sources;
  sources.push_back(
      TraceSourceInput{"34.83.195.179:6003", std::make_shared<const xspace::ColumnarXSpace>(std::move(space).value())});
  auto index = TraceIndex::Build(std::move(sources));
  ASSERT_TRUE(index.ok()) << index.status().ToString();
  int launches = 0, linked = 0;
  for (uint32_t t = 0; t < index->tracks().size() && launches < 40; ++t) {
    if (index->sections()[index->tracks()[t].section].kind != SectionKind::kHost) continue;
    const TraceTrack& track = index->tracks()[t];
    for (uint32_t r = track.row_begin; r < track.row_end && launches < 40; ++r) {
      RowView row = index->row_view(r);
      for (uint64_t i = 0; i < row.size() && launches < 40; i += 7) {
        uint64_t correlation = CorrelationOf(*index, t, row.event(i));
        if (correlation == 0) continue;
        ++launches;
        auto flows = FindFlows(*index, t, row.event(i));
        ASSERT_TRUE(flows.ok());
        for (const TraceFlow& flow : *flows) {
          EXPECT_EQ(flow.from.track, t);
          EXPECT_EQ(index->sections()[index->tracks()[flow.to.track].section].kind, SectionKind::kDevice);
          EXPECT_EQ(CorrelationOf(*index, flow.to.track, flow.to.event), correlation);
          EXPECT_GE(flow.to.start_ps, flow.from.start_ps) << "a kernel starts after its launch";
          // The kernel links back to this launch.
          auto back = FindFlows(*index, flow.to.track, flow.to.event);
          ASSERT_TRUE(back.ok());
          bool found = false;
          for (const TraceFlow& b : *back) found = found || (b.from.track == t && b.from.event == row.event(i));
          EXPECT_TRUE(found);
        }
        linked += flows->empty() ? 0 : 1;
      }
    }
  }
  EXPECT_GE(launches, 20) << "the TF demo file has correlation_id on host launches";
  // Every sampled launch finds its kernel (the file holds both sides of the window).
  EXPECT_GE(linked * 10, launches * 9) << linked << " of " << launches << " launches linked";
}

}  // namespace
}  // namespace stepscope::analysis::trace
