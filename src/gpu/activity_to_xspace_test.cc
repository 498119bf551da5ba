// Replays synthesised CUPTI captures through the conversion and pins the planes: names,
// ids, line names, event order and times, and the stats analysis reads (TensorFlow's
// conventions). Needs no GPU and no CUDA.
#include "src/gpu/activity_to_xspace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "src/xspace/dropped_events.h"
#include "src/xspace/schema.h"
#include "src/xspace/xplane_builder.h"
#include "src/xspace/xplane_visitor.h"

namespace stepscope::gpu {
namespace {

using xspace::StatType;

constexpr uint64_t kStart = 1'000'000'000;  // session start, host monotonic ns
constexpr uint64_t kStop = kStart + 1'000'000;

ActivityRecord Kernel(std::string name, uint32_t stream, uint64_t begin_us, uint64_t end_us, uint32_t correlation) {
  ActivityRecord r;
  r.kind = ActivityKind::kKernel;
  r.name = std::move(name);
  r.start_ns = kStart + begin_us * 1000;
  r.end_ns = kStart + end_us * 1000;
  r.stream_id = stream;
  r.context_id = 1;
  r.correlation_id = correlation;
  r.grid = {128, 2, 1};
  r.block = {256, 1, 1};
  r.registers_per_thread = 64;
  r.static_shared_bytes = 1024;
  r.dynamic_shared_bytes = 49152;
  return r;
}

ActivityRecord Copy(CopyKind kind, uint32_t stream, uint64_t begin_us, uint64_t end_us, uint64_t bytes,
                    uint32_t correlation) {
  ActivityRecord r;
  r.kind = ActivityKind::kMemcpy;
  r.copy_kind = kind;
  r.src_kind = kind == CopyKind::kHostToDevice ? "pinned" : "device";
  r.dst_kind = kind == CopyKind::kDeviceToHost ? "pageable" : "device";
  r.bytes = bytes;
  r.start_ns = kStart + begin_us * 1000;
  r.end_ns = kStart + end_us * 1000;
  r.stream_id = stream;
  r.context_id = 1;
  r.correlation_id = correlation;
  return r;
}

// One string per event: "name @begin_ns +duration_ns stat=value ...", stats by name in
// file order; independent of how the converter builds it.
std::vector<std::string> Render(const xspace::XPlaneVisitor& plane, const xspace::XLineVisitor& line) {
  std::vector<std::string> out;
  line.ForEachEvent([&](const xspace::XEventVisitor& event) {
    std::string text = std::string(event.name()) + " @" + std::to_string(event.timestamp_ps() / 1000) + " +" +
                       std::to_string(event.duration_ps() / 1000);
    event.ForEachStat([&](const xspace::XStatVisitor& stat) { text += " " + std::string(stat.name()) + "=" + stat.ToString(); });
    out.push_back(text);
  });
  (void)plane;
  return out;
}

const xspace::XPlane* Plane(const xspace::XSpace& space, std::string_view name) {
  return xspace::FindPlaneWithName(space, name);
}

const xspace::XLine* Line(const xspace::XPlane& plane, int64_t id) {
  for (const xspace::XLine& line : plane.lines()) {
    if (line.id() == id) return &line;
  }
  return nullptr;
}

// Two streams: kernels on 7, an H2D copy on 14 that overlaps a kernel, a D2H copy and a
// memset after it. Delivered in completion order (not start order).
ActivityCapture TwoStreamCapture() {
  ActivityCapture capture;
  DeviceInfo device;
  device.ordinal = 0;
  device.name = "NVIDIA H100 80GB HBM3";
  device.clock_rate_khz = 1980000;
  device.core_count = 132;
  device.memory_bandwidth_bytes_per_s = 3'352'320'000'000;
  device.memory_size_bytes = 85'031'714'816;
  device.compute_cap_major = 9;
  device.compute_cap_minor = 0;
  capture.devices.push_back(device);
  ActivityRecord memset;
  memset.kind = ActivityKind::kMemset;
  memset.dst_kind = "device";
  memset.bytes = 4096;
  memset.start_ns = kStart + 5000;
  memset.end_ns = kStart + 6000;
  memset.stream_id = 14;
  memset.context_id = 1;
  memset.correlation_id = 5;
  memset.async = false;
  ActivityRecord gemm_b = Kernel("gemm_b", 7, 40, 90, 3);  // completes last
  gemm_b.occupancy_pct = 37.5;
  capture.activities = {
      gemm_b,
      Copy(CopyKind::kHostToDevice, 14, 20, 60, 1 << 20, 2),           // overlaps gemm_a and gemm_b
      Kernel("gemm_a", 7, 10, 35, 1),
      memset,
      Copy(CopyKind::kDeviceToHost, 14, 70, 80, 4096, 4),
  };
  return capture;
}

TEST(ActivityToXSpaceTest, DevicePlaneCarriesCapabilitiesAndTensorFlowStatNames) {
  xspace::XSpace space;
  ConversionStats stats = AddCaptureToXSpace(TwoStreamCapture(), kStart, kStop, &space);
  EXPECT_EQ(stats.device_events, 5u);
  const xspace::XPlane* raw = Plane(space, "/device:GPU:0");
  ASSERT_NE(raw, nullptr);
  xspace::XPlaneVisitor plane(raw);
  EXPECT_EQ(plane.id(), 1);
  auto int_stat = [&](std::string_view name) { return plane.GetStat(name)->IntValue(); };
  EXPECT_EQ(int_stat("clock_rate"), 1980000);
  EXPECT_EQ(int_stat("core_count"), 132);
  EXPECT_EQ(int_stat("memory_bandwidth"), 3'352'320'000'000);
  EXPECT_EQ(int_stat("memory_size"), 85'031'714'816);
  EXPECT_EQ(int_stat("compute_cap_major"), 9);
  EXPECT_EQ(int_stat("compute_cap_minor"), 0);
  EXPECT_EQ(int_stat("dropped_traces"), 0);
  EXPECT_EQ(plane.GetStat("device_vendor")->StrOrRefValue(), "Nvidia");
  EXPECT_EQ(plane.GetStat("gpu_device_name")->StrOrRefValue(), "NVIDIA H100 80GB HBM3");
  EXPECT_TRUE(space.warnings().empty());
}

TEST(ActivityToXSpaceTest, OneLinePerStreamNamedByItsWorkWithEventsInStartOrder) {
  xspace::XSpace space;
  AddCaptureToXSpace(TwoStreamCapture(), kStart, kStop, &space);
  const xspace::XPlane* raw = Plane(space, "/device:GPU:0");
  ASSERT_NE(raw, nullptr);
  xspace::XPlaneVisitor plane(raw);
  const xspace::XLine* compute = Line(*raw, 7);
  const xspace::XLine* copies = Line(*raw, 14);
  ASSERT_NE(compute, nullptr);
  ASSERT_NE(copies, nullptr);
  EXPECT_EQ(compute->name(), "Stream #7(Compute)");
  EXPECT_EQ(copies->name(), "Stream #14(MemcpyH2D,MemcpyD2H,Memset)");
  const std::string details = "regs:64 static_shared:1024 dynamic_shared:49152 grid:128,2,1 block:256,1,1";
  EXPECT_EQ(Render(plane, xspace::XLineVisitor(&plane, compute)),
            (std::vector<std::string>{
                "gemm_a @10000 +25000 correlation_id=1 context_id=1 kernel_details=" + details,
                "gemm_b @40000 +50000 correlation_id=3 context_id=1 kernel_details=" + details + " occ_pct:37.5"}));
  EXPECT_EQ(Render(plane, xspace::XLineVisitor(&plane, copies)),
            (std::vector<std::string>{
                "Memset @5000 +1000 correlation_id=5 context_id=1 Memset_details=num_bytes:4096 kind:device async:0",
                "MemcpyH2D @20000 +40000 correlation_id=2 context_id=1 memcpy_details=kind_src:pinned kind_dst:device "
                "size:1048576 async:1",
                "MemcpyD2H @70000 +10000 correlation_id=4 context_id=1 memcpy_details=kind_src:device "
                "kind_dst:pageable size:4096 async:1"}));
}

TEST(ActivityToXSpaceTest, DeliveryOrderDoesNotChangeThePlanes) {
  ActivityCapture capture = TwoStreamCapture();
  xspace::XSpace expected;
  AddCaptureToXSpace(capture, kStart, kStop, &expected);
  xspace::XPlaneVisitor expected_plane(Plane(expected, "/device:GPU:0"));
  std::mt19937 rng(15);
  for (int round = 0; round < 5; ++round) {
    std::shuffle(capture.activities.begin(), capture.activities.end(), rng);
    xspace::XSpace space;
    AddCaptureToXSpace(capture, kStart, kStop, &space);
    const xspace::XPlane* raw = Plane(space, "/device:GPU:0");
    ASSERT_NE(raw, nullptr);
    xspace::XPlaneVisitor plane(raw);
    for (int64_t stream : {7, 14}) {
      EXPECT_EQ(Render(plane, xspace::XLineVisitor(&plane, Line(*raw, stream))),
                Render(expected_plane, xspace::XLineVisitor(&expected_plane, Line(*Plane(expected, "/device:GPU:0"), stream))))
          << "round " << round << " stream " << stream;
    }
  }
}

TEST(ActivityToXSpaceTest, EachDeviceGetsItsPlaneAndPeerCopiesAreNamedP2P) {
  ActivityCapture capture;
  for (uint32_t d : {0u, 1u}) {
    DeviceInfo device;
    device.ordinal = d;
    capture.devices.push_back(device);
  }
  ActivityRecord k = Kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 3, 10, 20, 9);
  k.device_id = 1;
  ActivityRecord p2p = Copy(CopyKind::kPeerToPeer, 3, 25, 30, 256, 10);
  p2p.device_id = 1;
  capture.activities = {k, p2p};
  xspace::XSpace space;
  AddCaptureToXSpace(capture, kStart, kStop, &space);
  const xspace::XPlane* gpu0 = Plane(space, "/device:GPU:0");
  const xspace::XPlane* gpu1 = Plane(space, "/device:GPU:1");
  ASSERT_NE(gpu0, nullptr);
  ASSERT_NE(gpu1, nullptr);
  EXPECT_EQ(gpu0->lines_size(), 0) << "an idle device still gets its plane, without lines";
  EXPECT_EQ(gpu1->id(), 2);
  ASSERT_EQ(gpu1->lines_size(), 1);
  EXPECT_EQ(gpu1->lines(0).name(), "Stream #3(Compute,MemcpyP2P)");
  xspace::XPlaneVisitor plane(gpu1);
  EXPECT_EQ(xspace::XLineVisitor(&plane, &gpu1->lines(0)).event(1).name(), "MemcpyP2P");
}

TEST(ActivityToXSpaceTest, DroppedRecordsAreCountedPerDeviceAndWarnedAbout) {
  ActivityCapture capture = TwoStreamCapture();
  capture.devices[0].dropped_records = 120;
  capture.dropped_records_unattributed = 3;
  xspace::XSpace space;
  ConversionStats stats = AddCaptureToXSpace(capture, kStart, kStop, &space);
  EXPECT_EQ(stats.dropped_records, 123u);
  xspace::XPlaneVisitor plane(Plane(space, "/device:GPU:0"));
  EXPECT_EQ(plane.GetStat("dropped_traces")->IntValue(), 120);
  EXPECT_EQ(xspace::DroppedEventCount(space), 120);
  ASSERT_EQ(space.warnings_size(), 1);
  EXPECT_NE(space.warnings(0).find("123 GPU activity records were lost"), std::string::npos) << space.warnings(0);
}

TEST(ActivityToXSpaceTest, WindowRuleKeepsWorkStartedInsideAndDropsMalformedRecords) {
  ActivityCapture capture;
  capture.activities = {
      Kernel("before_start", 1, 0, 5, 1),
      Kernel("ends_after_stop", 1, 990, 1100, 2),  // issued before stop: kept whole
      Kernel("after_stop", 1, 1001, 1002, 3),
  };
  capture.activities[0].start_ns = kStart - 10;
  ActivityRecord backwards = Kernel("backwards", 1, 50, 40, 4);
  capture.activities.push_back(backwards);
  xspace::XSpace space;
  ConversionStats stats = AddCaptureToXSpace(capture, kStart, kStop, &space);
  EXPECT_EQ(stats.device_events, 1u);
  EXPECT_EQ(stats.outside_window, 2u);
  EXPECT_EQ(stats.malformed, 1u);
  const xspace::XPlane* raw = Plane(space, "/device:GPU:0");
  ASSERT_NE(raw, nullptr);
  xspace::XPlaneVisitor plane(raw);
  ASSERT_EQ(raw->lines_size(), 1);
  EXPECT_EQ(Render(plane, xspace::XLineVisitor(&plane, &raw->lines(0))).size(), 1u);
  EXPECT_EQ(xspace::XLineVisitor(&plane, &raw->lines(0)).event(0).name(), "ends_after_stop");
  EXPECT_EQ(xspace::XLineVisitor(&plane, &raw->lines(0)).event(0).duration_ps(), 110'000'000);
}

// A host thread with a step marker "train" [0, 100us) around "layer" [0, 90us) around
// "forward" [10, 50us): kernels get the innermost annotation open at their launch (never
// the step marker), and the API calls join the thread's line in time order with the
// correlation ids analysis joins on.
TEST(ActivityToXSpaceTest, LaunchesJoinTheirThreadLineAndKernelsCarryTheAnnotationsAround) {
  xspace::XSpace space;
  {
    xspace::XPlaneBuilder host(xspace::FindOrAddMutablePlaneWithName(&space, xspace::kHostThreadsPlaneName));
    xspace::XLineBuilder line = host.GetOrCreateLine(42);
    line.SetName("main");
    line.SetTimestampNs(0);
    xspace::XEventBuilder step = line.AddEvent(*host.GetOrCreateEventMetadata("train"));
    step.SetOffsetPs(0);
    step.SetDurationPs(100'000'000);
    step.AddStatValue(StatType::kStepNum, int64_t{3});
    xspace::XEventBuilder layer = line.AddEvent(*host.GetOrCreateEventMetadata("layer"));
    layer.SetOffsetPs(0);
    layer.SetDurationPs(90'000'000);
    xspace::XEventBuilder forward = line.AddEvent(*host.GetOrCreateEventMetadata("forward"));
    forward.SetOffsetPs(10'000'000);
    forward.SetDurationPs(40'000'000);
  }
  ActivityCapture capture;
  capture.activities = {Kernel("gemm_a", 7, 30, 40, 1), Kernel("sgd", 7, 70, 75, 2), Kernel("late", 7, 96, 98, 4)};
  ApiCallRecord launch_in_forward{"cudaLaunchKernel", kStart + 20'000, kStart + 25'000, 42, 1, 0};
  ApiCallRecord launch_after{"cuLaunchKernel", kStart + 60'000, kStart + 62'000, 42, 2, 0};
  ApiCallRecord other_thread{"cudaMemcpyAsync", kStart + 1'000, kStart + 2'000, 43, 3, 0};
  ApiCallRecord launch_in_step_only{"cudaLaunchKernel", kStart + 95'000, kStart + 96'000, 42, 4, 0};
  capture.api_calls = {launch_after, other_thread, launch_in_forward, launch_in_step_only};
  ConversionStats stats = AddCaptureToXSpace(capture, kStart, kStop, &space);
  EXPECT_EQ(stats.api_events, 4u);

  const xspace::XPlane* host = Plane(space, xspace::kHostThreadsPlaneName);
  xspace::XPlaneVisitor host_plane(host);
  EXPECT_EQ(Render(host_plane, xspace::XLineVisitor(&host_plane, Line(*host, 42))),
            (std::vector<std::string>{"train @0 +100000 step_num=3", "layer @0 +90000", "forward @10000 +40000",
                                      "cudaLaunchKernel @20000 +5000 correlation_id=1 device_id=0",
                                      "cuLaunchKernel @60000 +2000 correlation_id=2 device_id=0",
                                      "cudaLaunchKernel @95000 +1000 correlation_id=4 device_id=0"}));
  const xspace::XLine* other = Line(*host, 43);
  ASSERT_NE(other, nullptr) << "a thread with launches but no annotations gets a line";
  EXPECT_EQ(Render(host_plane, xspace::XLineVisitor(&host_plane, other)),
            (std::vector<std::string>{"cudaMemcpyAsync @1000 +1000 correlation_id=3 device_id=0"}));

  const xspace::XPlane* gpu = Plane(space, "/device:GPU:0");
  xspace::XPlaneVisitor gpu_plane(gpu);
  xspace::XLineVisitor stream(&gpu_plane, Line(*gpu, 7));
  EXPECT_EQ(stream.event(0).GetStat(StatType::kAnnotation)->StrOrRefValue(), "forward");
  EXPECT_EQ(stream.event(1).GetStat(StatType::kAnnotation)->StrOrRefValue(), "layer");
  EXPECT_FALSE(stream.event(2).GetStat(StatType::kAnnotation).has_value()) << "only the step marker was open";
}

TEST(ActivityToXSpaceTest, SyncAndOverheadGoToTheirOwnHostPlaneAndCountersToTheDevice) {
  ActivityCapture capture;
  ActivityRecord sync;
  sync.kind = ActivityKind::kSynchronization;
  sync.name = "cudaStreamSynchronize";
  sync.start_ns = kStart + 100'000;
  sync.end_ns = kStart + 300'000;
  sync.stream_id = 7;
  sync.context_id = 1;
  sync.correlation_id = 11;
  ActivityRecord overhead;
  overhead.kind = ActivityKind::kOverhead;
  overhead.name = "CUPTI buffer flush";
  overhead.start_ns = kStart + 400'000;
  overhead.end_ns = kStart + 401'000;
  capture.activities = {overhead, sync};
  capture.devices.push_back(DeviceInfo{});
  capture.counters = {{0, "sm_utilization_pct", kStart + 200'000, 87.0}, {0, "sm_utilization_pct", kStart + 100'000, 55.0}};
  xspace::XSpace space;
  AddCaptureToXSpace(capture, kStart, kStop, &space);
  const xspace::XPlane* raw = Plane(space, kCuptiActivityPlaneName);
  ASSERT_NE(raw, nullptr);
  xspace::XPlaneVisitor plane(raw);
  EXPECT_EQ(Render(plane, xspace::XLineVisitor(&plane, Line(*raw, 1))),
            (std::vector<std::string>{"cudaStreamSynchronize @100000 +200000 correlation_id=11 context_id=1 stream=7"}));
  EXPECT_EQ(Render(plane, xspace::XLineVisitor(&plane, Line(*raw, 2))),
            (std::vector<std::string>{"CUPTI buffer flush @400000 +1000"}));
  const xspace::XPlane* gpu = Plane(space, "/device:GPU:0");
  xspace::XPlaneVisitor gpu_plane(gpu);
  const xspace::XLine* counters = Line(*gpu, xspace::kCounterEventsLineId);
  ASSERT_NE(counters, nullptr);
  EXPECT_EQ(counters->name(), xspace::kCounterEventsLineName);
  EXPECT_EQ(Render(gpu_plane, xspace::XLineVisitor(&gpu_plane, counters)),
            (std::vector<std::string>{"sm_utilization_pct @100000 +0 value=55", "sm_utilization_pct @200000 +0 value=87"}));
}

// A cudaGraphLaunch that ran three kernels of graph 9 (one correlation id, CUPTI gives them
// the launch's), next to an ordinary launch: the kernels carry their graph and node ids,
// the graph launch how many kernels it ran.
TEST(ActivityToXSpaceTest, GraphKernelsCarryTheirGraphAndTheLaunchCountsThem) {
  ActivityCapture capture;
  std::vector<ActivityRecord> kernels;
  for (int node = 0; node < 3; ++node) {
    ActivityRecord k = Kernel("graph_node_" + std::to_string(node), 7, 10 + 10 * node, 15 + 10 * node, 21);
    k.graph_id = 9;
    k.graph_node_id = 100 + node;
    kernels.push_back(k);
  }
  capture.activities = {kernels[2], Kernel("plain", 7, 50, 55, 22), kernels[0], kernels[1]};
  capture.api_calls = {{"cudaGraphLaunch", kStart + 2'000, kStart + 4'000, 42, 21, 0},
                       {"cudaLaunchKernel", kStart + 40'000, kStart + 41'000, 42, 22, 0}};
  xspace::XSpace space;
  AddCaptureToXSpace(capture, kStart, kStop, &space);

  const xspace::XPlane* host = Plane(space, xspace::kHostThreadsPlaneName);
  xspace::XPlaneVisitor host_plane(host);
  EXPECT_EQ(Render(host_plane, xspace::XLineVisitor(&host_plane, Line(*host, 42))),
            (std::vector<std::string>{
                "cudaGraphLaunch @2000 +2000 correlation_id=21 device_id=0 cuda_graph_id=9 graph_kernels=3",
                "cudaLaunchKernel @40000 +1000 correlation_id=22 device_id=0"}));
  const xspace::XPlane* gpu = Plane(space, "/device:GPU:0");
  xspace::XPlaneVisitor gpu_plane(gpu);
  xspace::XLineVisitor stream(&gpu_plane, Line(*gpu, 7));
  std::vector<std::string> graph_stats;
  stream.ForEachEvent([&](const xspace::XEventVisitor& event) {
    std::string text(event.name());
    event.ForEachStat([&](const xspace::XStatVisitor& stat) {
      if (stat.name() == kCudaGraphIdStatName || stat.name() == kCudaGraphNodeIdStatName) {
        text += " " + std::string(stat.name()) + "=" + stat.ToString();
      }
    });
    graph_stats.push_back(text);
  });
  EXPECT_EQ(graph_stats, (std::vector<std::string>{"graph_node_0 cuda_graph_id=9 cuda_graph_node_id=100",
                                                   "graph_node_1 cuda_graph_id=9 cuda_graph_node_id=101",
                                                   "graph_node_2 cuda_graph_id=9 cuda_graph_node_id=102",
                                                   "plain"}));
}

// NVTX ranges join their thread's line like host annotations (nested ranges, a range on a
// thread with no launches, one outside the session dropped), and the kernels launched
// inside take the innermost range open at their launch, stepscope annotation or NVTX.
TEST(ActivityToXSpaceTest, NvtxRangesBecomeHostAnnotationsAroundLaunches) {
  xspace::XSpace space;
  {
    xspace::XPlaneBuilder host(xspace::FindOrAddMutablePlaneWithName(&space, xspace::kHostThreadsPlaneName));
    xspace::XLineBuilder line = host.GetOrCreateLine(42);
    line.SetName("main");
    line.SetTimestampNs(0);
    xspace::XEventBuilder outer = line.AddEvent(*host.GetOrCreateEventMetadata("stepscope_scope"));
    outer.SetOffsetPs(0);
    outer.SetDurationPs(100'000'000);
  }
  ActivityCapture capture;
  capture.nvtx_ranges = {{"attention", "", kStart + 30'000, kStart + 50'000, 42},
                         {"layer_1", "model", kStart + 20'000, kStart + 60'000, 42},
                         {"loader", "", kStart + 5'000, kStart + 8'000, 77},
                         {"before", "", kStart - 5'000, kStart - 1'000, 42}};
  capture.activities = {Kernel("qk", 7, 40, 45, 1), Kernel("mlp", 7, 58, 62, 2), Kernel("head", 7, 80, 85, 3)};
  capture.api_calls = {{"cudaLaunchKernel", kStart + 35'000, kStart + 36'000, 42, 1, 0},
                       {"cudaLaunchKernel", kStart + 55'000, kStart + 56'000, 42, 2, 0},
                       {"cudaLaunchKernel", kStart + 70'000, kStart + 71'000, 42, 3, 0}};
  ConversionStats stats = AddCaptureToXSpace(capture, kStart, kStop, &space);
  EXPECT_EQ(stats.nvtx_events, 3u);
  EXPECT_EQ(stats.outside_window, 1u);

  const xspace::XPlane* host = Plane(space, xspace::kHostThreadsPlaneName);
  xspace::XPlaneVisitor host_plane(host);
  EXPECT_EQ(Render(host_plane, xspace::XLineVisitor(&host_plane, Line(*host, 42))),
            (std::vector<std::string>{"stepscope_scope @0 +100000", "layer_1 @20000 +40000 nvtx_domain=model",
                                      "attention @30000 +20000",
                                      "cudaLaunchKernel @35000 +1000 correlation_id=1 device_id=0",
                                      "cudaLaunchKernel @55000 +1000 correlation_id=2 device_id=0",
                                      "cudaLaunchKernel @70000 +1000 correlation_id=3 device_id=0"}));
  const xspace::XLine* loader = Line(*host, 77);
  ASSERT_NE(loader, nullptr) << "a thread with ranges alone gets a line";
  EXPECT_EQ(Render(host_plane, xspace::XLineVisitor(&host_plane, loader)),
            (std::vector<std::string>{"loader @5000 +3000"}));

  const xspace::XPlane* gpu = Plane(space, "/device:GPU:0");
  xspace::XPlaneVisitor gpu_plane(gpu);
  xspace::XLineVisitor stream(&gpu_plane, Line(*gpu, 7));
  EXPECT_EQ(stream.event(0).GetStat(StatType::kAnnotation)->StrOrRefValue(), "attention");
  EXPECT_EQ(stream.event(1).GetStat(StatType::kAnnotation)->StrOrRefValue(), "layer_1");
  EXPECT_EQ(stream.event(2).GetStat(StatType::kAnnotation)->StrOrRefValue(), "stepscope_scope");
}

}  // namespace
}  // namespace stepscope::gpu
