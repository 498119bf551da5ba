// multi_gpu on real multi-device profiles, held to figures this test computes from the raw
// files on its own (no model): TensorFlow's 8-GPU multi-worker XSpace (events tied to steps
// by their group_id stat) and the PyTorch rank pair (kernels tied to a ProfilerStep#N by
// the time of their cudaLaunch* call, joined on the correlation id, read with simdjson).
#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/tools/multi_gpu.h"
#include "src/base/file_io.h"
#include "src/base/gzip.h"
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

TEST(MultiGpuRealTest, PyTorchRankPairMatchesItsRawEvents) {
  std::vector<load::HostProfileFile> files;
  for (int rank : {0, 1}) {
    load::HostProfileFile file;
    file.host = "rank" + std::to_string(rank);
    file.path = SharedPath("traces", "hta_sampled_rank-" + std::to_string(rank) + ".json.gz");
    file.format = load::ProfileFormat::kTraceJson;
    files.push_back(file);
  }
  StatusOr<analysis::ProfileModel> model = load::LoadCombinedModel(files);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  ASSERT_TRUE(analysis::HasSeveralDevices(*model));
  const MultiGpuResult r = analysis::ComputeMultiGpu(*model);
  ASSERT_EQ(r.device_count, 2);

  std::map<int64_t, std::vector<double>> compute_by_step;  // step -> each rank's compute (ms)
  for (int rank : {0, 1}) {
    const std::map<int64_t, RawStep> raw = RawKinetoSteps(files[rank].path);
    ASSERT_FALSE(raw.empty());
    const MultiGpuDeviceRow* row = nullptr;
    for (const MultiGpuDeviceRow& d : r.devices) {
      if (d.host == files[rank].host) row = &d;
    }
    ASSERT_NE(row, nullptr) << files[rank].host;
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

}  // namespace
}  // namespace stepscope
