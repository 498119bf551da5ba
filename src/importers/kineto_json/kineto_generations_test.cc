// Every generation of the PyTorch profiler's JSON (src/importers/testing/kineto_generations.h)
// imported right: each element of the file accounted for (imported, metadata, flow point
// or dropped with its true reason), every device event with its correlation id and the
// launch that has the same id, every flow point bound to the slice it belongs to however
// its tid is spelled, zero-length device events kept and counted.
#include <cstdint>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "src/importers/importer_registry.h"
#include "src/importers/testing/kineto_generations.h"
#include "src/importers/testing/trace_facts.h"
#include "src/xspace/columnar/columnar_test_util.h"
#include "src/xspace/columnar/xspace_to_columnar.h"
#include "src/xspace/schema.h"
#include "src/xspace/xplane_visitor.h"

namespace stepscope::importers {
namespace {

using testing::ImportedEvent;
using testing::KinetoGeneration;
using testing::KinetoGenerationNamed;

constexpr uint64_t kGpuLaunchFlowCategory = 9;

struct Imported {
  Status status;
  ImportStats stats;
  xspace::XSpace space;
  std::vector<ImportedEvent> events;
};

Imported Import(std::string_view json) {
  Imported result;
  result.status = ImportTraceBytes(json, {}, &result.space, &result.stats);
  result.events = testing::ImportedEvents(result.space);
  return result;
}

// A `flow` stat: category << 58 | id << 2 | direction (1 in, 2 out, 3 both).
struct Flow {
  uint64_t category = 0;
  uint64_t id = 0;
  uint64_t direction = 0;
};

std::optional<Flow> FlowOf(const ImportedEvent& event) {
  auto it = event.stats.find("flow");
  if (it == event.stats.end()) return std::nullopt;
  const uint64_t value = std::stoull(it->second);
  return Flow{value >> 58, (value >> 2) & ((uint64_t{1} << 56) - 1), value & 3};
}

// Device work: a kernel, copy or memset on a device stream's line (not its sync line).
bool IsDeviceOp(const ImportedEvent& event) {
  return event.plane.rfind("/device:", 0) == 0 && event.line.rfind("Stream #", 0) == 0 &&
         !xspace::IsDeviceInfoLineName(event.line);
}

const ImportedEvent* Find(const Imported& imported, std::string_view display_name) {
  for (const ImportedEvent& event : imported.events) {
    if (event.display_name == display_name) return &event;
  }
  return nullptr;
}

// What the import says about device events and their launches.
struct LaunchReport {
  int device_events = 0;     // kernels, copies, memsets (device stream lines)
  int zero_length = 0;       // of those, duration 0
  int with_correlation = 0;  // carrying correlation_id
  int with_launch = 0;       // whose correlation_id is on a host event (the runtime / driver call)
  int flow_from_launch = 0;  // with an incoming launch flow whose outgoing end is on a host event
                             // (the launch itself when the format has correlation ids)
};

LaunchReport ReportLaunches(const Imported& imported) {
  std::map<std::string, const ImportedEvent*> host_by_correlation;
  std::map<uint64_t, const ImportedEvent*> host_flow_sources;
  for (const ImportedEvent& event : imported.events) {
    if (event.plane != xspace::kHostThreadsPlaneName) continue;
    if (auto it = event.stats.find("correlation_id"); it != event.stats.end()) host_by_correlation[it->second] = &event;
    if (std::optional<Flow> flow = FlowOf(event); flow && (flow->direction & 2)) host_flow_sources[flow->id] = &event;
  }
  LaunchReport report;
  for (const ImportedEvent& event : imported.events) {
    if (!IsDeviceOp(event)) continue;
    ++report.device_events;
    if (event.duration_ps == 0) ++report.zero_length;
    auto correlation = event.stats.find("correlation_id");
    const ImportedEvent* launch = nullptr;
    if (correlation != event.stats.end()) {
      ++report.with_correlation;
      auto it = host_by_correlation.find(correlation->second);
      if (it != host_by_correlation.end()) {
        ++report.with_launch;
        launch = it->second;
      }
    }
    std::optional<Flow> flow = FlowOf(event);
    if (!flow || !(flow->direction & 1) || flow->category != kGpuLaunchFlowCategory) continue;
    auto source = host_flow_sources.find(flow->id);
    if (source == host_flow_sources.end()) continue;
    // XPU's driver call inside its runtime call has the runtime call's correlation id.
    auto source_correlation = source->second->stats.find("correlation_id");
    if (launch == nullptr || source->second == launch ||
        (source_correlation != source->second->stats.end() && source_correlation->second == correlation->second)) {
      ++report.flow_from_launch;
    }
  }
  return report;
}

struct Expected {
  std::string_view generation;
  uint64_t read, imported, metadata, flows;
  std::map<std::string, uint64_t> dropped;
  int device_events;
  int zero_length;
  bool correlated;  // the format has correlation ids (all but the legacy exporter)
};

void PrintTo(const Expected& expected, std::ostream* os) { *os << expected.generation; }

// The truth of each trace, counted by hand from the trace (kineto_generations.cc).
const std::vector<Expected>& AllExpected() {
  static const std::vector<Expected> expected = {
      {"pytorch_1_9", 42, 21, 9, 12, {}, 6, 1, true},
      {"pytorch_1_10", 38, 13, 15, 10, {}, 4, 1, true},
      {"pytorch_1_12", 39, 15, 14, 10, {}, 4, 1, true},
      {"pytorch_2", 57, 25, 18, 14, {}, 6, 1, true},
      {"rocm", 30, 13, 8, 9, {}, 4, 1, true},
      {"legacy_autograd", 16, 10, 0, 6, {}, 3, 1, false},
      {"cuda_graph", 19, 9, 3, 7, {}, 5, 0, true},
      {"display_ns", 16, 6, 6, 4, {}, 2, 1, true},
      // The Event Sync's "f" sits on its stream's row, where nothing runs then.
      {"cuda_sync", 30, 14, 12, 3, {{"flow point with no slice to bind to on its thread", 1}}, 1, 0, true},
      {"mtia", 27, 11, 10, 6, {}, 3, 1, true},
      {"xpu", 25, 12, 9, 4, {}, 2, 0, true},
      {"gaudi", 18, 7, 7, 4, {}, 2, 0, true},
      {"privateuse1", 14, 8, 2, 4, {}, 2, 0, true},
  };
  return expected;
}

class KinetoGenerationTest : public ::testing::TestWithParam<Expected> {};

TEST_P(KinetoGenerationTest, EveryEventAccountedForAndEveryDeviceEventWithItsLaunch) {
  const Expected& expected = GetParam();
  const KinetoGeneration& generation = KinetoGenerationNamed(expected.generation);
  Imported imported = Import(generation.json);
  ASSERT_TRUE(imported.status.ok()) << imported.status.ToString();
  const ImportStats& stats = imported.stats;
  EXPECT_EQ(stats.format, "kineto_json");

  // Every element counted once, as what it is.
  EXPECT_EQ(stats.events_read, stats.events_imported + stats.metadata_events + stats.flow_events + stats.DroppedTotal());
  EXPECT_EQ(stats.events_read, expected.read);
  EXPECT_EQ(stats.events_imported, expected.imported);
  EXPECT_EQ(stats.metadata_events, expected.metadata);
  EXPECT_EQ(stats.flow_events, expected.flows);
  EXPECT_EQ(stats.dropped, expected.dropped);
  EXPECT_TRUE(stats.fixed.empty()) << stats.fixed.begin()->first;  // well-formed files need no repair

  // The file's own counts (read without the importer) agree: every flow point is bound.
  std::string error;
  const testing::FileFacts facts = testing::ReadFileFacts(std::string(generation.json), &error);
  ASSERT_TRUE(error.empty()) << error;
  EXPECT_EQ(facts.events.size(), expected.read);
  uint64_t dropped_flow_points = 0;
  for (const auto& [reason, count] : expected.dropped) {
    if (reason.rfind("flow point", 0) == 0) dropped_flow_points += count;
  }
  EXPECT_EQ(stats.flow_events + dropped_flow_points,
            static_cast<uint64_t>(facts.count_by_ph.count("s") ? facts.count_by_ph.at("s") : 0) +
                (facts.count_by_ph.count("f") ? facts.count_by_ph.at("f") : 0));

  // Device events: kept (zero-length ones too, counted), each with its launch.
  const LaunchReport report = ReportLaunches(imported);
  EXPECT_EQ(report.device_events, expected.device_events);
  EXPECT_EQ(report.zero_length, expected.zero_length);
  EXPECT_EQ(stats.zero_length_device_events, static_cast<uint64_t>(expected.zero_length));
  if (expected.correlated) {
    EXPECT_EQ(report.with_correlation, expected.device_events);
    EXPECT_EQ(report.with_launch, expected.device_events);
  }
  EXPECT_EQ(report.flow_from_launch, expected.device_events);

  // For the report of issue 11: one row per generation.
  std::cout << "generation " << expected.generation << ": read " << stats.events_read << ", imported "
            << stats.events_imported << ", metadata " << stats.metadata_events << ", flow points bound "
            << stats.flow_events << ", dropped " << stats.DroppedTotal() << "; device events " << report.device_events
            << " (zero-length " << report.zero_length << "), with launch " << report.with_launch
            << ", launch flow bound " << report.flow_from_launch << "\n";
}

INSTANTIATE_TEST_SUITE_P(Generations, KinetoGenerationTest, ::testing::ValuesIn(AllExpected()),
                         [](const ::testing::TestParamInfo<Expected>& info) {
                           return std::string(info.param.generation);
                         });

// Analysis reads imports as columns written directly (import_output.h): for every
// generation they must be the columns the streaming reader makes of the imported message,
// index for index, with the import's accounting unchanged.
TEST_P(KinetoGenerationTest, DirectColumnsAreTheMessagesColumns) {
  const testing::KinetoGeneration& generation = testing::KinetoGenerationNamed(GetParam().generation);
  xspace::XSpace space;
  ImportStats message_stats;
  ASSERT_TRUE(ImportTraceBytes(generation.json, {}, &space, &message_stats).ok());
  StatusOr<xspace::ColumnarXSpace> want = xspace::ConvertXSpaceToColumnar(space);
  ASSERT_TRUE(want.ok()) << want.status().ToString();
  xspace::ColumnarXSpace got;
  ImportStats direct_stats;
  ASSERT_TRUE(ImportTraceBytes(generation.json, {}, ImportOutput{.columnar = &got}, &direct_stats).ok());
  xspace::ExpectSameColumns(*want, got);
  EXPECT_EQ(direct_stats.xevents_written, message_stats.xevents_written);
  EXPECT_EQ(direct_stats.dropped, message_stats.dropped);
  EXPECT_EQ(direct_stats.fixed, message_stats.fixed);
}

TEST(KinetoGenerationsTest, EveryGenerationHasItsTruth) {
  ASSERT_EQ(testing::KinetoGenerations().size(), AllExpected().size());
  for (size_t i = 0; i < AllExpected().size(); ++i) {
    EXPECT_EQ(testing::KinetoGenerations()[i].name, AllExpected()[i].generation);
  }
}

TEST(KinetoGenerationsTest, PyTorch19StringTidsAndStreamNames) {
  Imported imported = Import(KinetoGenerationNamed("pytorch_1_9").json);
  ASSERT_TRUE(imported.status.ok()) << imported.status.ToString();
  // "1348" and 1348 are one thread: the launches carry their outgoing flows.
  int launches_with_flow = 0;
  for (const ImportedEvent& event : imported.events) {
    if (event.name.rfind("cuda", 0) != 0) continue;
    EXPECT_EQ(event.plane, xspace::kHostThreadsPlaneName);
    std::optional<Flow> flow = FlowOf(event);
    ASSERT_TRUE(flow.has_value()) << event.name;
    EXPECT_EQ(flow->direction, 2u);
    EXPECT_EQ(flow->category, kGpuLaunchFlowCategory);
    EXPECT_EQ(std::to_string(flow->id), event.stats.at("correlation_id"));
    ++launches_with_flow;
  }
  EXPECT_EQ(launches_with_flow, 6);
  EXPECT_EQ(Find(imported, "aten::conv2d")->line, "python");
  EXPECT_EQ(Find(imported, "aten::convolution_backward")->line, "pt_autograd_0");
  // The names PyTorch gave stay; the step marker is the step.
  const ImportedEvent* loader = Find(imported, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
  ASSERT_NE(loader, nullptr);
  EXPECT_EQ(loader->name, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
  EXPECT_EQ(Find(imported, "ProfilerStep#5")->stats.at("step_num"), "5");
  // "stream 7 user" is the GPU annotation of stream 7, not a host thread.
  const ImportedEvent* annotation = Find(imported, "conv_block");
  ASSERT_NE(annotation, nullptr);
  EXPECT_EQ(annotation->plane, "/device:GPU:0");
  EXPECT_EQ(annotation->line, xspace::kFrameworkNameScopeLineName);
  // The peer copy names no "device": its pid is the device.
  const ImportedEvent* peer = Find(imported, "Memcpy PtoP (Device -> Device)");
  ASSERT_NE(peer, nullptr);
  EXPECT_EQ(peer->plane, "/device:GPU:1");
  EXPECT_EQ(peer->line, "Stream #9");
  EXPECT_EQ(peer->name, "MemcpyPtoP");
  EXPECT_EQ(peer->stats.at("memcpy_details"), "kind_src:device kind_dst:device size:1048576");
}

TEST(KinetoGenerationsTest, PyTorch110LaunchAndForwardBackwardFlows) {
  Imported imported = Import(KinetoGenerationNamed("pytorch_1_10").json);
  ASSERT_TRUE(imported.status.ok()) << imported.status.ToString();
  std::optional<Flow> forward = FlowOf(*Find(imported, "aten::linear"));
  std::optional<Flow> backward = FlowOf(*Find(imported, "autograd::engine::evaluate_function: AddmmBackward"));
  ASSERT_TRUE(forward && backward);
  EXPECT_EQ(forward->id, backward->id);
  EXPECT_EQ(forward->direction, 2u);
  EXPECT_EQ(backward->direction, 1u);
  EXPECT_EQ(forward->category, 0u);  // not a launch
  const ImportedEvent* kernel = Find(imported, "volta_sgemm_128x64_tn");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(kernel->line, "Stream #7");
  EXPECT_EQ(FlowOf(*kernel)->id, 40u);
  EXPECT_EQ(Find(imported, "linear_block")->line, xspace::kFrameworkNameScopeLineName);
}

TEST(KinetoGenerationsTest, PyTorch112MemoryWithoutCategoryAndRank) {
  Imported imported = Import(KinetoGenerationNamed("pytorch_1_12").json);
  ASSERT_TRUE(imported.status.ok()) << imported.status.ToString();
  const ImportedEvent* allocation = Find(imported, xspace::kMemoryAllocationEventName);
  ASSERT_NE(allocation, nullptr);
  EXPECT_EQ(allocation->stats.at("allocator_name"), "cuda:0");
  EXPECT_EQ(allocation->stats.at("requested_bytes"), "8192");
  ASSERT_EQ(imported.space.hostnames_size(), 1);
  EXPECT_EQ(imported.space.hostnames(0), "rank1");
}

TEST(KinetoGenerationsTest, PyTorch2DriverLaunchesStreamsAndWallClock) {
  Imported imported = Import(KinetoGenerationNamed("pytorch_2").json);
  ASSERT_TRUE(imported.status.ok()) << imported.status.ToString();
  EXPECT_EQ(Find(imported, "triton_poi_fused_relu_0")->stats.at("correlation_id"),
            Find(imported, "cuLaunchKernel")->stats.at("correlation_id"));
  EXPECT_EQ(Find(imported, "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)")->line,
            "Stream #13");
  // baseTimeNanoseconds + ts, to the nanosecond.
  EXPECT_EQ(Find(imported, "ProfilerStep#101")->wall_ns, 1727000000000000000 + 4203669600010250);
  for (const ImportedEvent& event : imported.events) {
    if (event.name == "cudaLaunchKernel" && event.stats.at("correlation_id") == "5000") {
      EXPECT_EQ(event.duration_ps, 5'250'000);  // 5.250 us exactly
    }
  }
  ASSERT_EQ(imported.space.hostnames_size(), 1);
  EXPECT_EQ(imported.space.hostnames(0), "rank3");
}

TEST(KinetoGenerationsTest, RocmLaunchParametersReachTheKernel) {
  Imported imported = Import(KinetoGenerationNamed("rocm").json);
  ASSERT_TRUE(imported.status.ok()) << imported.status.ToString();
  const ImportedEvent* gemm = Find(imported, "Cijk_Alik_Bljk_SB_MT64x16x32_MI16x16x1");
  ASSERT_NE(gemm, nullptr);
  EXPECT_EQ(gemm->plane, "/device:GPU:2");
  EXPECT_EQ(gemm->stats.at("kernel_details"), "regs:0 static_shared:0 dynamic_shared:0 grid:256,1,1 block:256,1,1");
  // Kineto's "f" for a call that started no device work binds to the call.
  std::optional<Flow> flow = FlowOf(*Find(imported, "hipGetDevicePropertiesR0600"));
  ASSERT_TRUE(flow.has_value());
  EXPECT_EQ(flow->id, 119u);
  EXPECT_EQ(flow->direction, 1u);
}

TEST(KinetoGenerationsTest, LegacyExportFlowsJoinOpsToKernels) {
  Imported imported = Import(KinetoGenerationNamed("legacy_autograd").json);
  ASSERT_TRUE(imported.status.ok()) << imported.status.ToString();
  for (auto [op, kernel] : std::vector<std::pair<std::string_view, std::string_view>>{
           {"aten::cudnn_convolution", "implicit_convolve_sgemm"},
           {"aten::add_", "add_kernel"},
           {"aten::clamp_min", "clamp_min_kernel"}}) {
    std::optional<Flow> out = FlowOf(*Find(imported, op));
    std::optional<Flow> in = FlowOf(*Find(imported, kernel));
    ASSERT_TRUE(out && in) << op;
    EXPECT_EQ(out->id, in->id) << op;
    EXPECT_EQ(out->direction, 2u);
    EXPECT_EQ(in->direction, 1u);
    EXPECT_EQ(in->category, kGpuLaunchFlowCategory);
    EXPECT_EQ(Find(imported, kernel)->plane, "/device:GPU:0");
  }
}

TEST(KinetoGenerationsTest, CudaGraphNodesShareTheirLaunch) {
  Imported imported = Import(KinetoGenerationNamed("cuda_graph").json);
  ASSERT_TRUE(imported.status.ok()) << imported.status.ToString();
  int nodes = 0;
  for (const ImportedEvent& event : imported.events) {
    if (!IsDeviceOp(event) || event.stats.at("correlation_id") != "8000") continue;
    ++nodes;
    EXPECT_EQ(FlowOf(event)->id, 8000u);
  }
  EXPECT_EQ(nodes, 4);
  std::optional<Flow> launch = FlowOf(*Find(imported, "cudaGraphLaunch"));
  ASSERT_TRUE(launch.has_value());
  EXPECT_EQ(launch->id, 8000u);
  EXPECT_EQ(launch->direction, 2u);
}

TEST(KinetoGenerationsTest, DisplayTimeUnitNsKeepsMicrosecondsExact) {
  Imported imported = Import(KinetoGenerationNamed("display_ns").json);
  ASSERT_TRUE(imported.status.ok()) << imported.status.ToString();
  const ImportedEvent* launch = Find(imported, "cudaLaunchKernel");
  const ImportedEvent* kernel = nullptr;
  for (const ImportedEvent& event : imported.events) {
    if (IsDeviceOp(event) && event.name.rfind("void", 0) == 0) kernel = &event;
  }
  ASSERT_TRUE(launch != nullptr && kernel != nullptr);
  EXPECT_EQ(kernel->duration_ps, 896'000);
  EXPECT_EQ(kernel->offset_ps - launch->offset_ps, 39'891'000);
  EXPECT_EQ(kernel->wall_ns, 1712195495505583124);
}

// Flow points spell the thread or stream as they like; each binds to the slice that
// encloses it on the track the events of that thread or stream are on.
TEST(KinetoGenerationsTest, FlowsBindWhateverTheTidSpelling) {
  Imported imported = Import(R"json({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "cuda_runtime", "name": "launch_a", "pid": 1, "tid": "1", "ts": 0, "dur": 5, "args": {"correlation": 1}},
    {"ph": "s", "id": 1, "pid": 1, "tid": 1, "ts": 1, "cat": "ac2g", "name": "ac2g"},
    {"ph": "X", "cat": "cuda_runtime", "name": "launch_b", "pid": 1, "tid": 2, "ts": 0, "dur": 5, "args": {"correlation": 2}},
    {"ph": "s", "id": 2, "pid": 1, "tid": "2", "ts": 1, "cat": "ac2g", "name": "ac2g"},
    {"ph": "X", "cat": "cuda_runtime", "name": "launch_c", "pid": 1, "tid": 1, "ts": 10, "dur": 5, "args": {"correlation": 3}},
    {"ph": "s", "id": 3, "pid": 1, "tid": "1", "ts": 10, "cat": "ac2g", "name": "ac2g"},
    {"ph": "X", "cat": "kernel", "name": "k_a", "pid": 0, "tid": "stream 7", "ts": 20, "dur": 5, "args": {"correlation": 1}},
    {"ph": "f", "id": 1, "pid": 0, "tid": 7, "ts": 20, "cat": "ac2g", "name": "ac2g", "bp": "e"},
    {"ph": "X", "cat": "kernel", "name": "k_b", "pid": 0, "tid": "stream 7", "ts": 30, "dur": 5, "args": {"correlation": 2}},
    {"ph": "f", "id": 2, "pid": 0, "tid": "7", "ts": 31, "cat": "ac2g", "name": "ac2g", "bp": "e"},
    {"ph": "X", "cat": "kernel", "name": "k_c", "pid": 0, "tid": 8, "ts": 40, "dur": 5, "args": {"correlation": 3}},
    {"ph": "f", "id": 3, "pid": 0, "tid": "stream 8", "ts": 40, "cat": "ac2g", "name": "ac2g", "bp": "e"}
  ]})json");
  ASSERT_TRUE(imported.status.ok()) << imported.status.ToString();
  EXPECT_EQ(imported.stats.flow_events, 6u);
  EXPECT_TRUE(imported.stats.dropped.empty()) << imported.stats.dropped.begin()->first;
  for (auto [launch, kernel, id] : std::vector<std::tuple<std::string_view, std::string_view, uint64_t>>{
           {"launch_a", "k_a", 1}, {"launch_b", "k_b", 2}, {"launch_c", "k_c", 3}}) {
    std::optional<Flow> out = FlowOf(*Find(imported, launch));
    std::optional<Flow> in = FlowOf(*Find(imported, kernel));
    ASSERT_TRUE(out && in) << launch;
    EXPECT_EQ(out->id, id);
    EXPECT_EQ(in->id, id);
  }
}

// What cannot be bound is dropped with the reason that is true for it.
TEST(KinetoGenerationsTest, UnboundFlowPointsAreCountedWithTheirTrueReason) {
  Imported imported = Import(R"json({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 0, "dur": 5, "args": {"correlation": 1}},
    {"ph": "s", "id": 1, "pid": 1, "tid": 1, "ts": 1, "cat": "ac2g", "name": "ac2g"},
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 20, "dur": 5, "args": {"correlation": 1}},
    {"ph": "f", "id": 1, "pid": 0, "tid": 7, "ts": 20, "cat": "ac2g", "name": "ac2g", "bp": "e"},
    {"ph": "f", "id": 2, "pid": 0, "tid": 9, "ts": 20, "cat": "ac2g", "name": "ac2g", "bp": "e"},
    {"ph": "s", "id": 3, "pid": 1, "tid": 99, "ts": 1, "cat": "ac2g", "name": "ac2g"},
    {"ph": "f", "id": 4, "pid": 0, "tid": 7, "ts": 30, "cat": "ac2g", "name": "ac2g", "bp": "e"}
  ]})json");
  ASSERT_TRUE(imported.status.ok()) << imported.status.ToString();
  // Stream 9 of device 0 and thread 99 have no events; at 30 nothing runs on stream 7.
  const std::map<std::string, uint64_t> expected = {
      {"flow point on a thread that has no slices", 2},
      {"flow point with no slice to bind to on its thread", 1},
  };
  EXPECT_EQ(imported.stats.dropped, expected);
  EXPECT_EQ(imported.stats.flow_events, 2u);
  EXPECT_EQ(imported.stats.events_read, 7u);
}


// ---- Every device type Kineto writes (issue 32) ----

// A device plane's stat as text, or "" when the plane or the stat is missing.
std::string PlaneStat(const xspace::XSpace& space, std::string_view plane_name, xspace::StatType type) {
  for (const xspace::XPlane& plane : space.planes()) {
    if (plane.name() != plane_name) continue;
    xspace::XPlaneVisitor visitor(&plane);
    if (std::optional<xspace::XStatVisitor> stat = visitor.GetStat(type)) return stat->ToString();
  }
  return "";
}

std::vector<std::string> DevicePlaneNames(const xspace::XSpace& space) {
  std::vector<std::string> names;
  for (const xspace::XPlane& plane : space.planes()) {
    if (xspace::IsDevicePlaneName(plane.name())) names.push_back(plane.name());
  }
  return names;
}

struct DeviceTruth {
  std::string_view generation;
  std::string_view device_type;  // every device plane's device_type stat
  std::vector<std::string> planes;
  std::string_view device_name;  // deviceProperties "name", on every device plane
  std::string_view vendor;
  std::vector<std::string_view> device_ops;  // names that must be device work, not host events
};

// Which accelerator each trace ran on, as the trace says it: MTIA's own device ops, Gaudi's
// hpu_op on a device pid, XPU's SYCL deviceProperties and xpu_* launches, a PrivateUse1
// backend's launches; a CUDA trace stays GPU with all of Kineto's other records in it.
TEST(KinetoDevicesTest, EveryDevicePlaneSaysWhichAcceleratorAndModelItIs) {
  const std::vector<DeviceTruth> truths = {
      {"mtia", "MTIA", {"/device:GPU:0", "/device:GPU:1"}, "MTIA v2", "Meta",
       {"fused_linear_bf16", "relu_bf16", "dma_copy_d2d"}},
      {"xpu", "XPU", {"/device:GPU:0"}, "Intel(R) Data Center GPU Max 1550", "Intel",
       {"gemm_kernel", "Memcpy H2D (Host -> Device)"}},
      {"gaudi", "HPU", {"/device:GPU:0"}, "GAUDI2", "Intel", {"matmul_fwd_bf16", "add_fwd_bf16"}},
      {"privateuse1", "PrivateUse1", {"/device:GPU:0"}, "Example NPU X1", "Example Corp",
       {"add_kernel", "Memcpy HtoD (Pageable -> Device)"}},
      {"cuda_sync", "GPU", {"/device:GPU:0"}, "A100-PG509-200", "Nvidia", {"mul_kernel"}},
      {"pytorch_2", "GPU", {"/device:GPU:0"}, "NVIDIA H100 80GB HBM3", "Nvidia", {}},
      {"rocm", "GPU", {"/device:GPU:2"}, "AMD Instinct MI250X", "AMD", {}},
  };
  for (const DeviceTruth& truth : truths) {
    SCOPED_TRACE(std::string(truth.generation));
    Imported imported = Import(KinetoGenerationNamed(truth.generation).json);
    ASSERT_TRUE(imported.status.ok()) << imported.status.ToString();
    EXPECT_EQ(DevicePlaneNames(imported.space), truth.planes);
    for (const std::string& plane : truth.planes) {
      EXPECT_EQ(PlaneStat(imported.space, plane, xspace::StatType::kDeviceType), truth.device_type) << plane;
      EXPECT_EQ(PlaneStat(imported.space, plane, xspace::StatType::kGpuDeviceName), truth.device_name) << plane;
      EXPECT_EQ(PlaneStat(imported.space, plane, xspace::StatType::kDevVendor), truth.vendor) << plane;
    }
    for (std::string_view name : truth.device_ops) {
      const ImportedEvent* op = nullptr;  // the device op of that name (a profiler range may share it)
      for (const ImportedEvent& event : imported.events) {
        if (event.display_name == name && IsDeviceOp(event)) op = &event;
      }
      ASSERT_NE(op, nullptr) << name << " is not device work";
      EXPECT_FALSE(op->stats.at("correlation_id").empty()) << name;
      // A device op without launch dimensions is still a kernel (kernel stats list it);
      // copies are copies.
      if (op->name.rfind("Memcpy", 0) != 0) EXPECT_EQ(op->stats.count("kernel_details"), 1u) << name;
    }
    // No host line holds device work, and device planes hold nothing else.
    for (const ImportedEvent& event : imported.events) {
      if (event.plane != xspace::kHostThreadsPlaneName) continue;
      for (std::string_view name : truth.device_ops) EXPECT_NE(event.display_name, name) << event.line;
    }
    int device_ops = 0;
    for (const ImportedEvent& event : imported.events) device_ops += IsDeviceOp(event) ? 1 : 0;
    if (!truth.device_ops.empty()) EXPECT_EQ(device_ops, static_cast<int>(truth.device_ops.size()));
  }
}

// MTIA: the device ops are MTIA's kernels, tied to their mtia_runtime launch by
// correlation id and ac2g flow; no launch dimensions, so kernel_details says none.
TEST(KinetoDevicesTest, MtiaDeviceOpsAreKernelsOfTheirLaunches) {
  Imported imported = Import(KinetoGenerationNamed("mtia").json);
  ASSERT_TRUE(imported.status.ok()) << imported.status.ToString();
  const ImportedEvent* kernel = Find(imported, "fused_linear_bf16");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(kernel->plane, "/device:GPU:0");
  EXPECT_EQ(kernel->line, "Stream #1");
  EXPECT_EQ(kernel->stats.at("kernel_details"), "regs:0 static_shared:0 dynamic_shared:0");
  EXPECT_EQ(FlowOf(*kernel)->id, 600u);
  EXPECT_EQ(FlowOf(*kernel)->category, kGpuLaunchFlowCategory);
  const ImportedEvent* copy = Find(imported, "dma_copy_d2d");
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->plane, "/device:GPU:1");
  EXPECT_EQ(copy->line, "Stream #2");
  int launches = 0;
  for (const ImportedEvent& event : imported.events) {
    if (event.name.rfind("mtia", 0) != 0) continue;
    ++launches;
    EXPECT_EQ(event.plane, xspace::kHostThreadsPlaneName);
    EXPECT_EQ(event.line, "python");
    EXPECT_EQ(std::to_string(FlowOf(event)->id), event.stats.at("correlation_id"));
  }
  EXPECT_EQ(launches, 3);
}

// XPU: both the runtime call and the driver call inside it are launches with the same
// correlation id; kernels sit on their SYCL queue's line; xpu_sync and overhead records
// (pid -1) are host lines of their own; collective_comm stays on its thread with its args.
TEST(KinetoDevicesTest, XpuLaunchesQueuesAndHostRecords) {
  Imported imported = Import(KinetoGenerationNamed("xpu").json);
  ASSERT_TRUE(imported.status.ok()) << imported.status.ToString();
  EXPECT_EQ(Find(imported, "urEnqueueKernelLaunch")->stats.at("correlation_id"), "700");
  EXPECT_EQ(Find(imported, "zeCommandListAppendLaunchKernel")->stats.at("correlation_id"), "700");
  const ImportedEvent* kernel = Find(imported, "gemm_kernel");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(kernel->line, "Stream #1");
  EXPECT_EQ(kernel->stats.at("sycl queue"), "1");
  const ImportedEvent* copy = Find(imported, "Memcpy H2D (Host -> Device)");
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->name, "MemcpyH2D");
  EXPECT_EQ(copy->stats.at("memcpy_details"), "kind_src:host kind_dst:device size:4194304");
  const ImportedEvent* sync = Find(imported, "zeEventHostSynchronize");
  ASSERT_NE(sync, nullptr);
  EXPECT_EQ(sync->plane, xspace::kHostThreadsPlaneName);
  EXPECT_EQ(sync->line, "Synchronization (thread 8100)");
  EXPECT_EQ(sync->stats.count("correlation_id"), 0u);  // a wait, not a launch
  const ImportedEvent* overhead = Find(imported, "Buffer Flush");
  ASSERT_NE(overhead, nullptr);
  EXPECT_EQ(overhead->plane, xspace::kHostThreadsPlaneName);
  EXPECT_EQ(overhead->line, "Profiler overhead (thread 8105)");
  EXPECT_EQ(overhead->stats.at("overhead cost"), "4000");
  const ImportedEvent* allreduce = Find(imported, "xccl::allreduce");
  ASSERT_NE(allreduce, nullptr);
  EXPECT_EQ(allreduce->plane, xspace::kHostThreadsPlaneName);
  EXPECT_EQ(allreduce->line, "python");
  EXPECT_EQ(allreduce->stats.at("Communicator_id"), "3");
  EXPECT_EQ(PlaneStat(imported.space, xspace::kHostThreadsPlaneName, xspace::StatType::kProcessId), "8100");
  // SYCL's compute units are not SMs: no core_count.
  EXPECT_EQ(PlaneStat(imported.space, "/device:GPU:0", xspace::StatType::kDevCapCoreCount), "");
}

// Gaudi writes hpu_op on both sides: on the process's pid a runtime call (a launch), on a
// device pid the device's op.
TEST(KinetoDevicesTest, GaudiHpuOpsAreLaunchesOnTheHostAndKernelsOnTheDevice) {
  Imported imported = Import(KinetoGenerationNamed("gaudi").json);
  ASSERT_TRUE(imported.status.ok()) << imported.status.ToString();
  int host_calls = 0;
  for (const ImportedEvent& event : imported.events) {
    if (event.name != "synLaunch") continue;
    ++host_calls;
    EXPECT_EQ(event.plane, xspace::kHostThreadsPlaneName);
    EXPECT_EQ(FlowOf(event)->direction, 2u);
  }
  EXPECT_EQ(host_calls, 2);
  const ImportedEvent* add = Find(imported, "add_fwd_bf16");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->plane, "/device:GPU:0");
  EXPECT_EQ(add->line, "Stream #4");
  EXPECT_EQ(add->stats.at("correlation_id"), "801");
  EXPECT_EQ(add->stats.at("HW event name"), "TPC1");
}

// CUDA's other records: sync waits and CUDA events on their stream's sync line (shown, not
// device work), the Stream Sync's flow bound there, the range profiler's records on a line
// of their own, CUPTI's overhead on a host line named as Kineto names its pid.
TEST(KinetoDevicesTest, CudaSyncEventsRangesAndOverheadGoWhereTheyBelong) {
  Imported imported = Import(KinetoGenerationNamed("cuda_sync").json);
  ASSERT_TRUE(imported.status.ok()) << imported.status.ToString();
  for (std::string_view name : {"Stream Sync", "Event Sync", "cudaEvent"}) {
    const ImportedEvent* event = Find(imported, name);
    ASSERT_NE(event, nullptr) << name;
    EXPECT_EQ(event->plane, "/device:GPU:0") << name;
    EXPECT_EQ(event->line, "Stream #7 (sync)") << name;
    EXPECT_TRUE(xspace::IsDeviceInfoLineName(event->line));
    EXPECT_EQ(event->stats.count("correlation_id"), 0u) << name;  // waits are not the launch's work
  }
  const ImportedEvent* stream_sync = Find(imported, "Stream Sync");
  EXPECT_EQ(FlowOf(*stream_sync)->id, 1002u);
  EXPECT_EQ(FlowOf(*stream_sync)->direction, 1u);
  EXPECT_EQ(Find(imported, "Context Sync")->line, "All streams (sync)");
  const ImportedEvent* range = nullptr;
  for (const ImportedEvent& event : imported.events) {
    if (event.line == xspace::kProfilerRangesLineName) range = &event;
  }
  ASSERT_NE(range, nullptr);
  EXPECT_EQ(range->plane, "/device:GPU:0");
  EXPECT_EQ(range->name, "mul_kernel");
  EXPECT_EQ(range->stats.at("sm__throughput.avg.pct_of_peak_sustained_elapsed"), "42.5");
  const ImportedEvent* overhead = Find(imported, "Buffer Flush");
  ASSERT_NE(overhead, nullptr);
  EXPECT_EQ(overhead->plane, xspace::kHostThreadsPlaneName);
  EXPECT_EQ(overhead->line, "CUPTI Overhead (thread 0)");
  // The process is the one with the host's events, not Kineto's pid -1.
  EXPECT_EQ(PlaneStat(imported.space, xspace::kHostThreadsPlaneName, xspace::StatType::kProcessId), "6200");
}

// Broken and hostile variants import without crashing, each event accounted for: an
// unknown category on a device-like pid stays a host event; device ops with impossible
// ordinals go to the host (a counted fix); hpu_op on a negative pid is a host call; sync
// records without a stream and profiler ranges anywhere; deviceProperties of wrong types.
TEST(KinetoDevicesTest, OddDeviceRecordsImportWithoutCrashing) {
  Imported imported = Import(R"json({"schemaVersion": 1,
    "deviceProperties": [{"id": 0, "name": 7, "maxComputeUnits": "many", "vendor": ["x"]},
                         {"id": -3, "name": "ghost"}, {"id": 5000, "name": "far"}, "not an object"],
    "traceEvents": [
    {"ph": "X", "cat": "my_accelerator_op", "name": "mystery", "pid": 0, "tid": 3, "ts": 0, "dur": 5},
    {"ph": "X", "cat": "mtia_ccp_events", "name": "far_kernel", "pid": 99999, "tid": 1, "ts": 1, "dur": 2,
     "args": {"correlation": 1}},
    {"ph": "X", "cat": "mtia_ccp_events", "name": "negative_device", "pid": 0, "tid": 1, "ts": 2, "dur": 1,
     "args": {"device": -2}},
    {"ph": "X", "cat": "hpu_op", "name": "negative_pid", "pid": -5, "tid": 1, "ts": 3, "dur": 1},
    {"ph": "X", "cat": "hpu_op", "name": "device_arg", "pid": 77777, "tid": 2, "ts": 3, "dur": 1, "args": {"device": 1}},
    {"ph": "X", "cat": "cuda_sync", "name": "Stream Sync", "pid": 0, "tid": 9223372036854775807, "ts": 4, "dur": 1},
    {"ph": "X", "cat": "cuda_sync", "name": "Context Sync", "pid": 0, "tid": 1, "ts": 4, "dur": 1,
     "args": {"stream": -9223372036854775808}},
    {"ph": "X", "cat": "cuda_profiler_range", "name": "r", "pid": 4096, "tid": 0, "ts": 5, "dur": 1},
    {"ph": "B", "cat": "cuda_event", "name": "open", "pid": 0, "tid": 7, "ts": 6},
    {"ph": "X", "cat": "overhead", "name": "o", "pid": -1, "tid": -1, "ts": 7, "dur": 1},
    {"ph": "i", "cat": "xpu_sync", "name": "instant", "pid": -1, "tid": 2, "ts": 8, "s": "t"},
    {"ph": "X", "cat": "", "name": "no_cat", "pid": 1, "tid": 1, "ts": 9, "dur": 1},
    {"ph": "X", "cat": "xpu_runtime", "name": "no_correlation", "pid": 1, "tid": 1, "ts": 10, "dur": 1}
  ]})json");
  ASSERT_TRUE(imported.status.ok()) << imported.status.ToString();
  const ImportStats& stats = imported.stats;
  EXPECT_EQ(stats.events_read, stats.events_imported + stats.metadata_events + stats.flow_events + stats.DroppedTotal());
  const ImportedEvent* mystery = Find(imported, "mystery");
  ASSERT_NE(mystery, nullptr);
  EXPECT_EQ(mystery->plane, xspace::kHostThreadsPlaneName);
  EXPECT_EQ(Find(imported, "far_kernel")->plane, xspace::kHostThreadsPlaneName);
  EXPECT_EQ(Find(imported, "far_kernel")->stats.count("kernel_details"), 0u);  // not a device's kernel
  EXPECT_EQ(Find(imported, "negative_device")->plane, xspace::kHostThreadsPlaneName);
  EXPECT_EQ(stats.fixed.at("device event with an impossible device ordinal placed with the host threads"), 3u);
  EXPECT_EQ(Find(imported, "negative_pid")->plane, xspace::kHostThreadsPlaneName);
  EXPECT_EQ(Find(imported, "device_arg")->plane, "/device:GPU:1");
  EXPECT_EQ(PlaneStat(imported.space, "/device:GPU:1", xspace::StatType::kDeviceType), "HPU");
  // deviceProperties of the wrong types: the plane exists, without a name.
  EXPECT_EQ(PlaneStat(imported.space, "/device:GPU:0", xspace::StatType::kGpuDeviceName), "");
  EXPECT_EQ(DevicePlaneNames(imported.space), (std::vector<std::string>{"/device:GPU:0", "/device:GPU:1"}));
}

}  // namespace
}  // namespace stepscope::importers
