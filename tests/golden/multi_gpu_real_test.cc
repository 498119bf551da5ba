// multi_gpu on real multi-device profiles, held to figures this test computes from the raw
// files on its own (no model): TensorFlow's 8-GPU multi-worker XSpace (events tied to steps
// by their group_id stat) and the PyTorch rank pair (kernels tied to a ProfilerStep#N by
// the time of their cudaLaunch* call, joined on the correlation id, read with simdjson).
#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/tools/multi_gpu.h"
#include "src/base/file_io.h"
#include "src/base/gzip.h"
#include "src/importers/importer_registry.h"
#include "src/load/profile_loader.h"
#include "src/xspace/schema.h"
#include "src/xspace/xspace_io.h"

namespace stepscope {
namespace {

using analysis::MultiGpuDeviceRow;
using analysis::MultiGpuResult;

std::string SharedPath(const std::string& sub, const std::string& file) {
  return std::string(STEPSCOPE_SHARED_DIR) + "/testdata/" + sub + "/" + file;
}

const MultiGpuDeviceRow* Row(const MultiGpuResult& r, const std::string& host, const std::string& device) {
  for (const MultiGpuDeviceRow& row : r.devices) {
    if (row.device == device && (host.empty() || row.host == host)) return &row;
  }
  return nullptr;
}

struct RawStep {
  double active_us = 0;
  double collective_us = 0;
};

TEST(MultiGpuRealTest, TensorFlowEightGpuFileMatchesItsRawEvents) {
  const std::string path = SharedPath("xplane", "tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb");
  StatusOr<analysis::ProfileModel> model = analysis::BuildProfileModelFromFile(path);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const MultiGpuResult r = analysis::ComputeMultiGpu(*model);

  // Raw: per GPU plane and group_id, summed durations of stream events (derived lines
  // and counters skipped), and NCCL time.
  StatusOr<xspace::XSpace> space = xspace::ReadXSpaceFile(path);
  ASSERT_TRUE(space.ok()) << space.status().ToString();
  std::set<int64_t> step_groups;
  for (const analysis::StepInfo& step : model->steps) step_groups.insert(step.group_id);
  int checked = 0;
  for (const xspace::XPlane& plane : space->planes()) {
    if (!xspace::IsGpuPlaneName(plane.name())) continue;
    int64_t group_stat = -1;
    for (const auto& [id, md] : plane.stat_metadata()) {
      if (md.name() == "group_id") group_stat = id;
    }
    std::map<int64_t, RawStep> by_group;
    for (const xspace::XLine& line : plane.lines()) {
      if (xspace::IsDerivedLineName(line.name()) || line.id() == xspace::kCounterEventsLineId) continue;
      for (const xspace::XEvent& e : line.events()) {
        for (const xspace::XStat& s : e.stats()) {
          if (s.metadata_id() != group_stat || !step_groups.count(s.int64_value())) continue;
          RawStep& raw = by_group[s.int64_value()];
          raw.active_us += e.duration_ps() / 1e6;
          const std::string& name = plane.event_metadata().at(e.metadata_id()).name();
          if (name.rfind("nccl", 0) == 0) raw.collective_us += e.duration_ps() / 1e6;
        }
      }
    }
    const MultiGpuDeviceRow* row = Row(r, "", plane.name());
    if (by_group.empty()) {
      if (row != nullptr) {
        EXPECT_EQ(row->steps, 0) << plane.name();
      }
      continue;
    }
    ASSERT_NE(row, nullptr) << plane.name();
    double active = 0, collective = 0;
    for (const auto& [group, raw] : by_group) {
      active += raw.active_us;
      collective += raw.collective_us;
    }
    const double steps = static_cast<double>(by_group.size());
    EXPECT_EQ(row->steps, static_cast<int64_t>(by_group.size())) << plane.name();
    EXPECT_NEAR(row->avg_active_ms, active / 1000 / steps, 1e-6) << plane.name();
    EXPECT_NEAR(row->avg_collective_ms, collective / 1000 / steps, 1e-6) << plane.name();
    ++checked;
  }
  EXPECT_GE(checked, 2) << "the file has several GPUs with work inside steps";
  EXPECT_GE(r.steps, 1);
  std::printf("TF 8-GPU file: %lld active devices, %lld compared steps, straggler %s, imbalance %.3f ms\n",
              static_cast<long long>(r.device_count), static_cast<long long>(r.steps), r.straggler.c_str(),
              r.avg_imbalance_ms);
}

// Per ProfilerStep number: device time of kernels/copies whose launch lies in the step.
std::map<int64_t, RawStep> RawKinetoSteps(const std::string& path) {
  StatusOr<std::string> gz = base::ReadFile(path, 64 << 20);
  EXPECT_TRUE(gz.ok());
  StatusOr<std::string> json = base::GunzipWithLimit(*gz, uint64_t{1} << 30);
  EXPECT_TRUE(json.ok());
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(*json);
  struct Window {
    double begin, end;
    int64_t number;
  };
  std::vector<Window> windows;
  std::map<int64_t, double> launch_ts;  // correlation -> cudaLaunch*/cudaMemcpy* ts
  std::vector<simdjson::dom::element> device_events;
  for (simdjson::dom::element e : doc["traceEvents"].get_array()) {
    std::string_view cat, name;
    if (e["cat"].get(cat) != simdjson::SUCCESS) continue;
    if (e["name"].get(name) != simdjson::SUCCESS) continue;
    if (name.rfind("ProfilerStep#", 0) == 0) {
      windows.push_back({double(e["ts"]), double(e["ts"]) + double(e["dur"]), std::stoll(std::string(name.substr(13)))});
    } else if (cat == "cuda_runtime") {
      int64_t correlation = 0;
      if (e["args"]["correlation"].get(correlation) == simdjson::SUCCESS) launch_ts[correlation] = double(e["ts"]);
    } else if (cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset") {
      device_events.push_back(e);
    }
  }
  std::map<int64_t, RawStep> steps;
  for (simdjson::dom::element e : device_events) {
    int64_t correlation = 0;
    if (e["args"]["correlation"].get(correlation) != simdjson::SUCCESS) continue;
    auto launch = launch_ts.find(correlation);
    if (launch == launch_ts.end()) continue;
    for (const Window& w : windows) {
      if (launch->second < w.begin || launch->second >= w.end) continue;
      RawStep& raw = steps[w.number];
      const double dur = double(e["dur"]);
      raw.active_us += dur;
      std::string name{std::string_view(e["name"])};
      std::transform(name.begin(), name.end(), name.begin(), ::tolower);
      if (std::string_view(e["cat"]) == "kernel" && name.find("nccl") != std::string::npos) raw.collective_us += dur;
    }
  }
  return steps;
}

// The PyTorch rank pair of the shared traces: rank N's file, and both as one model.
std::string RankHost(int rank) { return "rank" + std::to_string(rank); }
std::string RankPath(int rank) { return SharedPath("traces", "hta_sampled_rank-" + std::to_string(rank) + ".json.gz"); }

StatusOr<analysis::ProfileModel> LoadRankPair() {
  std::vector<load::HostProfileFile> files;
  for (int rank : {0, 1}) {
    load::HostProfileFile file;
    file.host = RankHost(rank);
    file.path = RankPath(rank);
    file.format = load::ProfileFormat::kTraceJson;
    files.push_back(file);
  }
  return load::LoadCombinedModel(files);
}

TEST(MultiGpuRealTest, PyTorchRankPairMatchesItsRawEvents) {
  StatusOr<analysis::ProfileModel> model = LoadRankPair();
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  ASSERT_TRUE(analysis::HasSeveralDevices(*model));
  const MultiGpuResult r = analysis::ComputeMultiGpu(*model);
  ASSERT_EQ(r.device_count, 2);

  std::map<int64_t, std::vector<double>> compute_by_step;  // step -> each rank's compute (ms)
  for (int rank : {0, 1}) {
    const std::map<int64_t, RawStep> raw = RawKinetoSteps(RankPath(rank));
    ASSERT_FALSE(raw.empty());
    const MultiGpuDeviceRow* row = nullptr;
    for (const MultiGpuDeviceRow& d : r.devices) {
      if (d.host == RankHost(rank)) row = &d;
    }
    ASSERT_NE(row, nullptr) << RankHost(rank);
    double active = 0, collective = 0;
    for (const auto& [number, step] : raw) {
      active += step.active_us;
      collective += step.collective_us;
      compute_by_step[number].push_back((step.active_us - step.collective_us) / 1000);
    }
    const double steps = static_cast<double>(raw.size());
    EXPECT_EQ(row->steps, static_cast<int64_t>(raw.size())) << row->host;
    EXPECT_NEAR(row->avg_active_ms, active / 1000 / steps, 1e-6) << row->host;
    EXPECT_NEAR(row->avg_collective_ms, collective / 1000 / steps, 1e-6) << row->host;
    std::printf("%s: %.0f steps, active %.3f ms, collectives %.3f ms per step (raw: %.3f, %.3f)\n", row->host.c_str(),
                steps, row->avg_active_ms, row->avg_collective_ms, active / 1000 / steps, collective / 1000 / steps);
  }
  ASSERT_EQ(r.step_rows.size(), compute_by_step.size());
  for (const analysis::MultiGpuStepRow& step : r.step_rows) {
    const std::vector<double>& raw = compute_by_step[step.step_number];
    ASSERT_EQ(raw.size(), 2u) << step.step_number;
    EXPECT_NEAR(step.max_compute_ms, std::max(raw[0], raw[1]), 1e-6) << step.step_number;
    EXPECT_NEAR(step.min_compute_ms, std::min(raw[0], raw[1]), 1e-6) << step.step_number;
    EXPECT_EQ(step.straggler, raw[1] > raw[0] ? "rank1:/device:GPU:1" : "rank0:/device:GPU:0") << step.step_number;
  }
}

// JAX's 8-GPU file has no step markers: the devices are compared over the whole profile;
// each device's kernel time and first activity against the raw planes.
TEST(MultiGpuRealTest, JaxEightGpuFileIsComparedOverTheWholeProfile) {
  const std::string path = SharedPath("xplane", "tracelens_jax_mi300_conv_minimal_8gpu.xplane.pb");
  StatusOr<analysis::ProfileModel> model = analysis::BuildProfileModelFromFile(path);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const MultiGpuResult r = analysis::ComputeMultiGpu(*model);
  ASSERT_EQ(r.basis, "profile");
  ASSERT_EQ(r.device_count, 8);
  StatusOr<xspace::XSpace> space = xspace::ReadXSpaceFile(path);
  ASSERT_TRUE(space.ok()) << space.status().ToString();
  std::map<std::string, std::pair<double, int64_t>> raw;  // plane -> (kernel+op ms, first begin ps)
  for (const xspace::XPlane& plane : space->planes()) {
    if (!xspace::IsGpuPlaneName(plane.name())) continue;
    auto& [ms, first] = raw[plane.name()];
    first = INT64_MAX;
    for (const xspace::XLine& line : plane.lines()) {
      if (xspace::IsDerivedLineName(line.name()) || line.id() == xspace::kCounterEventsLineId) continue;
      for (const xspace::XEvent& e : line.events()) {
        const std::string& name = plane.event_metadata().at(e.metadata_id()).name();
        first = std::min<int64_t>(first, line.timestamp_ns() * 1000 + e.offset_ps());
        if (name.rfind("Memcpy", 0) == 0 || name.rfind("Memset", 0) == 0) continue;
        ms += e.duration_ps() / 1e9;
      }
    }
  }
  int64_t earliest = INT64_MAX;
  for (const auto& [name, entry] : raw) earliest = std::min(earliest, entry.second);
  for (const MultiGpuDeviceRow& row : r.devices) {
    ASSERT_TRUE(raw.count(row.device)) << row.device;
    EXPECT_NEAR(row.kernel_ms, raw[row.device].first, 1e-6) << row.device;
    EXPECT_NEAR(row.first_kernel_offset_ms, (raw[row.device].second - earliest) / 1e9, 1e-6) << row.device;
  }
  double max_compute = 0, min_compute = 1e300;
  for (const MultiGpuDeviceRow& row : r.devices) {
    max_compute = std::max(max_compute, row.kernel_ms - row.total_collective_ms);
    min_compute = std::min(min_compute, row.kernel_ms - row.total_collective_ms);
  }
  EXPECT_NEAR(r.avg_imbalance_ms, max_compute - min_compute, 1e-9);
  std::printf("JAX 8-GPU file: straggler %s, imbalance %.3f ms, skew %.3f ms over the profile\n", r.straggler.c_str(),
              r.avg_imbalance_ms, r.avg_launch_skew_ms);
}

// ---------------------------------------------------------------------------------------
// Collectives' sizes and bandwidth.

const analysis::MultiGpuCollectiveRow* CollectiveRow(const MultiGpuResult& r, const std::string& device,
                                                     const std::string& kind) {
  for (const analysis::MultiGpuCollectiveRow& row : r.collective_rows) {
    if (row.device == device && row.collective == kind) return &row;
  }
  return nullptr;
}

// One host, two A100s (NVLink 3: 300 GB/s), world size 2, one step. GPU:0's all-reduce is
// sized the PyTorch >= 2.1 way (record_param_comms: 25,000,000 Float = 100 MB) and runs
// 10 ms; GPU:1's all-gather the older way (nccl:all_gather with Input Dims [[1000000]] of
// c10::BFloat16 = a 2 MB shard, 4 MB gathered over 2 ranks) and runs 2 ms.
constexpr char kTwoGpuCollectives[] = R"json({
  "schemaVersion": 1,
  "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 2},
  "deviceProperties": [
    {"id": 0, "name": "NVIDIA A100-SXM4-40GB", "computeMajor": 8, "computeMinor": 0, "numSms": 108, "totalGlobalMem": 42505273344},
    {"id": 1, "name": "NVIDIA A100-SXM4-40GB", "computeMajor": 8, "computeMinor": 0, "numSms": 108, "totalGlobalMem": 42505273344}],
  "traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 1000, "dur": 20000, "args": {"External id": 1}},
    {"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 1, "ts": 1100, "dur": 50,
     "args": {"External id": 2, "Collective name": "allreduce", "dtype": "Float", "In msg nelems": 25000000,
              "Out msg nelems": 25000000, "Group size": 2}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1110, "dur": 5,
     "args": {"External id": 2, "correlation": 11}},
    {"ph": "X", "cat": "user_annotation", "name": "nccl:all_gather", "pid": 1, "tid": 1, "ts": 1200, "dur": 50,
     "args": {"External id": 3, "Input Dims": [[1000000]], "Input type": ["c10::BFloat16"]}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1210, "dur": 5,
     "args": {"External id": 3, "correlation": 12}},
    {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
     "pid": 0, "tid": 7, "ts": 2000, "dur": 10000, "args": {"device": 0, "stream": 7, "correlation": 11, "External id": 2}},
    {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllGather_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
     "pid": 1, "tid": 8, "ts": 3000, "dur": 2000, "args": {"device": 1, "stream": 8, "correlation": 12, "External id": 3}}
  ]})json";

TEST(MultiGpuCollectivesTest, HandChosenSizesAndTimesGiveNcclsBandwidths) {
  xspace::XSpace space;
  const Status imported = importers::ImportTraceBytes(kTwoGpuCollectives, {}, &space);
  ASSERT_TRUE(imported.ok()) << imported.ToString();
  StatusOr<analysis::ProfileModel> model = analysis::BuildProfileModelFromXSpace(space);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  analysis::ToolOptions options;
  options.parameter_count = 25'000'000;
  const MultiGpuResult r = analysis::ComputeMultiGpu(*model, options);
  ASSERT_EQ(r.device_count, 2);
  EXPECT_EQ(r.steps, 1);

  const analysis::MultiGpuCollectiveRow* all_reduce = CollectiveRow(r, "/device:GPU:0", "all_reduce");
  ASSERT_NE(all_reduce, nullptr);
  EXPECT_EQ(all_reduce->count, 1);
  EXPECT_EQ(all_reduce->sized, 1);
  EXPECT_EQ(all_reduce->ranks, 2);
  EXPECT_EQ(all_reduce->ranks_source, "group_size");
  EXPECT_NEAR(all_reduce->size_mb, 100, 1e-9);
  EXPECT_NEAR(all_reduce->algbw_gbps, 100e6 / 10e-3 / 1e9, 1e-9);             // 10 GB/s
  EXPECT_NEAR(all_reduce->busbw_gbps, 10 * 2.0 * (2 - 1) / 2, 1e-9);          // x 2(n-1)/n
  EXPECT_EQ(all_reduce->link_gbps, 300);
  EXPECT_NEAR(all_reduce->link_percent, 100.0 * 10 / 300, 1e-9);

  const analysis::MultiGpuCollectiveRow* all_gather = CollectiveRow(r, "/device:GPU:1", "all_gather");
  ASSERT_NE(all_gather, nullptr);
  EXPECT_EQ(all_gather->ranks, 2);
  EXPECT_EQ(all_gather->ranks_source, "world_size");
  EXPECT_NEAR(all_gather->size_mb, 4, 1e-9);
  EXPECT_NEAR(all_gather->algbw_gbps, 4e6 / 2e-3 / 1e9, 1e-9);               // 2 GB/s
  EXPECT_NEAR(all_gather->busbw_gbps, 2 * 1.0 / 2, 1e-9);                     // x (n-1)/n

  EXPECT_EQ(r.sized_collectives, 2);
  EXPECT_NEAR(r.algbw_gbps, 104e6 / 12e-3 / 1e9, 1e-9);
  EXPECT_NEAR(r.busbw_gbps, (100e6 * 1.0 + 4e6 * 0.5) / 12e-3 / 1e9, 1e-9);
  EXPECT_EQ(r.link_gbps, 300);
  EXPECT_NEAR(r.link_percent, 100.0 * r.busbw_gbps / 300, 1e-9);
  // All-reduce per device and step: 100 MB and 10 ms over two device-steps.
  EXPECT_NEAR(r.all_reduce_mb_per_step, 50, 1e-9);
  EXPECT_NEAR(r.all_reduce_ms_per_step, 5, 1e-9);
  // The guide's estimate: 25e6 parameters x 4 B / 300 GB/s.
  EXPECT_NEAR(r.estimated_all_reduce_ms, 25e6 * 4 / 300e9 * 1e3, 1e-9);

  options.link_bandwidth_gbps = 20;
  const MultiGpuResult slow = analysis::ComputeMultiGpu(*model, options);
  EXPECT_EQ(slow.link, "option");
  EXPECT_NEAR(slow.link_percent, 100.0 * slow.busbw_gbps / 20, 1e-9);
}

// Bytes per element of the "Input type" names in the rank pair.
int64_t ElementBytes(std::string_view type) {
  if (type == "float" || type == "int") return 4;
  if (type == "long") return 8;
  if (type == "signed char" || type == "unsigned char") return 1;
  return 0;
}

struct RawCollectives {
  double size_bytes = 0, bus_bytes = 0, seconds = 0;
  int count = 0;
};

// Per collective kind: each NCCL kernel's launch (cudaLaunchKernel, same correlation), the
// nccl:<kind> scope around it on the same thread, that scope's first input tensor; sizes and
// bus bytes by nccl-tests' rules with world_size ranks.
std::map<std::string, RawCollectives> RawRankCollectives(const std::string& path) {
  StatusOr<std::string> gz = base::ReadFile(path, 64 << 20);
  EXPECT_TRUE(gz.ok());
  StatusOr<std::string> json = base::GunzipWithLimit(*gz, uint64_t{1} << 30);
  EXPECT_TRUE(json.ok());
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(*json);
  const int64_t n = int64_t(doc["distributedInfo"]["world_size"]);
  struct Scope {
    int64_t tid;
    double begin, end;
    std::string kind;
    double bytes;
  };
  std::vector<Scope> scopes;
  std::map<int64_t, std::pair<int64_t, double>> launches;  // correlation -> (tid, ts)
  std::vector<std::pair<int64_t, double>> kernels;         // (correlation, dur us)
  for (simdjson::dom::element e : doc["traceEvents"].get_array()) {
    std::string_view cat, name;
    if (e["cat"].get(cat) != simdjson::SUCCESS || e["name"].get(name) != simdjson::SUCCESS) continue;
    if (name.rfind("nccl:", 0) == 0) {
      simdjson::dom::array dims = e["args"]["Input Dims"].at(0).get_array();
      double elements = 1;
      for (simdjson::dom::element d : dims) elements *= double(int64_t(d));
      std::string_view type = e["args"]["Input type"].at(0).get_string();
      std::string kind(name.substr(5));
      if (kind == "_all_gather_base") kind = "all_gather";
      scopes.push_back({int64_t(e["tid"]), double(e["ts"]), double(e["ts"]) + double(e["dur"]), kind,
                        elements * double(ElementBytes(type))});
    } else if (cat == "cuda_runtime") {
      int64_t correlation = 0;
      if (e["args"]["correlation"].get(correlation) == simdjson::SUCCESS) {
        launches[correlation] = {int64_t(e["tid"]), double(e["ts"])};
      }
    } else if (cat == "kernel" && name.find("nccl") != std::string_view::npos) {
      kernels.emplace_back(int64_t(e["args"]["correlation"]), double(e["dur"]));
    }
  }
  std::map<std::string, RawCollectives> out;
  for (const auto& [correlation, dur_us] : kernels) {
    const auto& [tid, ts] = launches.at(correlation);
    for (const Scope& s : scopes) {
      if (s.tid != tid || ts < s.begin || ts >= s.end) continue;
      double size = s.bytes, factor = 1;
      if (s.kind == "all_reduce") factor = 2.0 * (n - 1) / n;
      if (s.kind == "all_gather") {
        size *= n;
        factor = double(n - 1) / n;
      }
      if (s.kind == "all_to_all") factor = double(n - 1) / n;
      RawCollectives& raw = out[s.kind];
      raw.size_bytes += size;
      raw.bus_bytes += size * factor;
      raw.seconds += dur_us / 1e6;
      ++raw.count;
      break;
    }
  }
  return out;
}

TEST(MultiGpuCollectivesTest, PyTorchRankPairSizesMatchTheirNcclScopes) {
  StatusOr<analysis::ProfileModel> model = LoadRankPair();
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const MultiGpuResult r = analysis::ComputeMultiGpu(*model);
  int checked = 0;
  for (int rank : {0, 1}) {
    const std::map<std::string, RawCollectives> raw = RawRankCollectives(RankPath(rank));
    ASSERT_FALSE(raw.empty());
    for (const auto& [kind, expected] : raw) {
      const analysis::MultiGpuCollectiveRow* row = nullptr;
      for (const analysis::MultiGpuCollectiveRow& c : r.collective_rows) {
        if (c.host == RankHost(rank) && c.collective == kind) row = &c;
      }
      ASSERT_NE(row, nullptr) << RankHost(rank) << " " << kind;
      EXPECT_EQ(row->sized, expected.count) << kind;
      EXPECT_EQ(row->ranks, 128) << "distributedInfo.world_size";
      EXPECT_EQ(row->ranks_source, "world_size");
      EXPECT_NEAR(row->size_mb, expected.size_bytes / 1e6, 1e-6) << kind;
      EXPECT_NEAR(row->algbw_gbps, expected.size_bytes / expected.seconds / 1e9, 1e-6) << kind;
      EXPECT_NEAR(row->busbw_gbps, expected.bus_bytes / expected.seconds / 1e9, 1e-6) << kind;
      EXPECT_EQ(row->link_gbps, 0) << "the files name no GPU";
      std::printf("%s %s: %d sized, %.1f MB, alg %.2f GB/s, bus %.2f GB/s (raw: %.1f MB, %.2f, %.2f)\n",
                  row->host.c_str(), kind.c_str(), expected.count, row->size_mb, row->algbw_gbps, row->busbw_gbps,
                  expected.size_bytes / 1e6, expected.size_bytes / expected.seconds / 1e9,
                  expected.bus_bytes / expected.seconds / 1e9);
      ++checked;
    }
  }
  EXPECT_GE(checked, 6) << "all-reduce, all-gather and all-to-all on both ranks";
  EXPECT_EQ(r.sized_collectives, r.collectives);
  EXPECT_EQ(r.link_gbps, 0);
}

TEST(MultiGpuCollectivesTest, TensorFlowEightGpuFileHasNoSizesAndUsesGpuPrivateThreads) {
  const std::string path = SharedPath("xplane", "tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb");
  StatusOr<analysis::ProfileModel> model = analysis::BuildProfileModelFromFile(path);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const MultiGpuResult r = analysis::ComputeMultiGpu(*model);
  EXPECT_EQ(r.sized_collectives, 0);
  // Raw: threads named tf_gpu_private_* and tf_data*.
  StatusOr<xspace::XSpace> space = xspace::ReadXSpaceFile(path);
  ASSERT_TRUE(space.ok());
  int64_t gpu_private = 0, tf_data = 0;
  for (const xspace::XPlane& plane : space->planes()) {
    if (plane.name() != "/host:CPU") continue;
    for (const xspace::XLine& line : plane.lines()) {
      gpu_private += line.name().rfind("tf_gpu_private", 0) == 0 ? 1 : 0;
      tf_data += line.name().rfind("tf_data", 0) == 0 ? 1 : 0;
    }
  }
  ASSERT_TRUE(r.launch_threads.measured);
  EXPECT_EQ(r.launch_threads.gpu_private_threads, gpu_private);
  EXPECT_EQ(r.launch_threads.input_threads, tf_data);
  std::printf("TF 8-GPU file: %lld collectives, %lld sized; %lld launch threads, %lld tf_gpu_private, %lld tf.data, "
              "overlap %.3f ms (%.1f %%)\n",
              static_cast<long long>(r.collectives), static_cast<long long>(r.sized_collectives),
              static_cast<long long>(r.launch_threads.launch_threads),
              static_cast<long long>(r.launch_threads.gpu_private_threads),
              static_cast<long long>(r.launch_threads.input_threads), r.launch_threads.overlap_ms,
              r.launch_threads.overlap_percent);
}

}  // namespace
}  // namespace stepscope
