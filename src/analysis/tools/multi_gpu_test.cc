#include "src/analysis/tools/multi_gpu.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "src/analysis/tools/advisor.h"
#include "src/analysis/tools/test_model_util.h"

namespace stepscope::analysis {
namespace {

using tools_testing::MakeGpu;
using tools_testing::Ms;

DeviceStepActivity Activity(int64_t step, double first_kernel_ms, double active_ms, double collective_ms) {
  DeviceStepActivity a;
  a.step_number = step;
  a.group_id = step;
  a.first_begin_ps = Ms(first_kernel_ms);
  a.first_kernel_begin_ps = Ms(first_kernel_ms);
  a.last_end_ps = Ms(first_kernel_ms + active_ms);
  a.active_ps = Ms(active_ms);
  a.collective_ps = Ms(collective_ms);
  a.collective_count = collective_ms > 0 ? 1 : 0;
  return a;
}

// Two GPUs, two steps starting at 0 and 100 ms. GPU:1 computes 10 ms longer in step 1
// and 6 ms longer in step 2 (both over 5 % of the step); its collectives are shorter, as
// the others wait inside theirs.
ProfileModel TwoGpuModel() {
  ProfileModel m;
  m.hostnames = {"host0"};
  for (int64_t n : {1, 2}) {
    StepInfo step;
    step.step_number = n;
    step.group_id = n;
    step.begin_ps = Ms((n - 1) * 100.0);
    step.duration_ps = Ms(100);
    m.steps.push_back(step);
  }
  DeviceActivity gpu0 = MakeGpu(0, 80);
  gpu0.step_activity = {Activity(1, 1.0, 50, 20), Activity(2, 101.0, 46, 18)};
  DeviceActivity gpu1 = MakeGpu(1, 70);
  gpu1.step_activity = {Activity(1, 3.0, 50, 10), Activity(2, 101.5, 46, 12)};
  m.devices = {gpu0, gpu1};
  return m;
}

TEST(MultiGpuTest, FindsTheStragglerAndHowLongTheOthersWait) {
  MultiGpuResult r = ComputeMultiGpu(TwoGpuModel());
  EXPECT_EQ(r.device_count, 2);
  EXPECT_EQ(r.steps, 2);
  EXPECT_EQ(r.straggler, "/device:GPU:1");
  EXPECT_EQ(r.straggler_steps, 2);
  // Compute: GPU:0 30 and 28 ms, GPU:1 40 and 34 ms.
  EXPECT_NEAR(r.avg_imbalance_ms, (10 + 6) / 2.0, 1e-9);
  ASSERT_EQ(r.devices.size(), 2u);
  EXPECT_NEAR(r.devices[0].avg_compute_ms, 29, 1e-9);
  EXPECT_NEAR(r.devices[0].avg_collective_ms, 19, 1e-9);
  EXPECT_NEAR(r.devices[0].avg_wait_ms, 8, 1e-9);
  EXPECT_NEAR(r.devices[1].avg_wait_ms, 0, 1e-9);
  EXPECT_EQ(r.devices[1].straggler_steps, 2);
  EXPECT_NEAR(r.devices[0].collective_percent, 100.0 * 38 / 96, 1e-9);
  EXPECT_NEAR(r.collective_percent, 100.0 * 60 / 192, 1e-9);
  EXPECT_NEAR(r.devices[0].busy_ms, 80, 1e-9);
  ASSERT_EQ(r.step_rows.size(), 2u);
  EXPECT_NEAR(r.step_rows[0].imbalance_ms, 10, 1e-9);
  EXPECT_NEAR(r.step_rows[0].avg_collective_ms, 15, 1e-9);
}

TEST(MultiGpuTest, LaunchSkewIsMeasuredFromEachHostsOwnStepStart) {
  MultiGpuResult r = ComputeMultiGpu(TwoGpuModel());
  // Step 1: first kernels at 1 and 3 ms -> 2 ms; step 2: 101 and 101.5 -> 0.5 ms.
  EXPECT_NEAR(r.step_rows[0].launch_skew_ms.value_or(-1), 2, 1e-9);
  EXPECT_NEAR(r.step_rows[1].launch_skew_ms.value_or(-1), 0.5, 1e-9);
  EXPECT_NEAR(r.avg_launch_skew_ms.value_or(-1), 1.25, 1e-9);
  EXPECT_NEAR(r.devices[1].avg_launch_skew_ms.value_or(-1), 1.25, 1e-9);
  EXPECT_NEAR(r.devices[0].avg_launch_skew_ms.value_or(-1), 0, 1e-9);

  // Two hosts whose clocks differ by 1000 ms: the skew is relative to each host's step.
  ProfileModel m = TwoGpuModel();
  m.hostnames = {"host0", "host1"};
  m.devices[1].host_index = 1;
  for (DeviceStepActivity& a : m.devices[1].step_activity) {
    a.first_kernel_begin_ps += Ms(1000);
    a.first_begin_ps += Ms(1000);
    a.last_end_ps += Ms(1000);
  }
  for (StepInfo& step : m.steps) {
    step.per_host = {{0, step.begin_ps, step.duration_ps, {}}, {1, step.begin_ps + Ms(1000), step.duration_ps, {}}};
  }
  MultiGpuResult shifted = ComputeMultiGpu(m);
  EXPECT_NEAR(shifted.avg_launch_skew_ms.value_or(-1), 1.25, 1e-9);
  EXPECT_EQ(shifted.straggler, "host1:/device:GPU:1");
}

// A difference below 5 % of the step is balance, not a straggler; devices whose work for
// a step does not overlap ran it at different times: no skew, no straggler, and a note.
TEST(MultiGpuTest, StragglerIsRelativeToTheStepAndNeedsConcurrentWork) {
  ProfileModel m = TwoGpuModel();
  m.devices[1].step_activity = {Activity(1, 3.0, 40.04, 10), Activity(2, 101.5, 38.04, 10)};  // +0.04 ms
  MultiGpuResult balanced = ComputeMultiGpu(m);
  EXPECT_EQ(balanced.straggler, "");
  EXPECT_EQ(balanced.step_rows[0].straggler, "");
  EXPECT_NEAR(balanced.step_rows[0].imbalance_ms, 0.04, 1e-9) << "the imbalance is still reported";

  ProfileModel apart = TwoGpuModel();
  // GPU:1 runs step 1 from 600 ms, long after GPU:0 finished it (a 100 ms step).
  apart.devices[1].step_activity[0] = Activity(1, 600.0, 50, 10);
  MultiGpuResult r = ComputeMultiGpu(apart);
  ASSERT_EQ(r.step_rows.size(), 2u);
  EXPECT_FALSE(r.step_rows[0].concurrent);
  EXPECT_FALSE(r.step_rows[0].launch_skew_ms.has_value());
  EXPECT_EQ(r.step_rows[0].straggler, "");
  EXPECT_TRUE(r.step_rows[1].concurrent);
  EXPECT_EQ(r.non_concurrent_steps, 1);
  EXPECT_NEAR(r.avg_launch_skew_ms.value_or(-1), 0.5, 1e-9) << "only the concurrent step's skew";
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_NE(r.diagnostics[0].find("step 1: the devices' work for it does not overlap"), std::string::npos);

  apart.devices[1].step_activity[1] = Activity(2, 700.0, 46, 10);
  MultiGpuResult none = ComputeMultiGpu(apart);
  EXPECT_FALSE(none.avg_launch_skew_ms.has_value()) << "no concurrent step: no skew, not 0";
  StructToolResult<MultiGpuResult> result(std::move(none));
  EXPECT_NE(result.ToJson(false).find("\"avg_launch_skew_ms\":null"), std::string::npos);
}

TEST(MultiGpuTest, OneDeviceIsNotAvailableAndSaysSo) {
  ProfileModel m = TwoGpuModel();
  EXPECT_TRUE(HasSeveralDevices(m));
  m.devices.pop_back();
  EXPECT_FALSE(HasSeveralDevices(m));
  MultiGpuResult r = ComputeMultiGpu(m);
  EXPECT_EQ(r.steps, 0);
  EXPECT_THAT(r.diagnostics, testing::Contains(testing::HasSubstr("fewer than two devices")));
}

TEST(MultiGpuTest, TablesAndJsonCarryTheSameRows) {
  MultiGpuResult r = ComputeMultiGpu(TwoGpuModel());
  std::vector<output::Table> tables = output::RecordTables(r);
  ASSERT_EQ(tables.size(), 3u);
  EXPECT_EQ(tables[0].name, "devices");
  EXPECT_EQ(tables[0].rows.size(), 2u);
  EXPECT_EQ(tables[1].name, "steps");
  EXPECT_EQ(tables[1].rows.size(), 2u);
  EXPECT_EQ(tables[2].name, "collectives");
  EXPECT_EQ(tables[2].rows.size(), 0u) << "the hand-made model has no collective traffic";
  for (const output::Table& t : tables) {
    for (const output::Column& c : t.columns) {
      if (c.type == output::ColumnType::kDouble) {
        EXPECT_FALSE(c.unit.empty()) << t.name << "." << c.id;
      }
    }
  }
  StructToolResult<MultiGpuResult> result(r);
  const std::string json = result.ToJson(false);
  EXPECT_THAT(json, testing::HasSubstr("\"straggler\":\"/device:GPU:1\""));
  EXPECT_THAT(json, testing::HasSubstr("\"avg_wait_ms\":8"));
  EXPECT_THAT(result.FormatText({}), testing::HasSubstr("Straggler"));
}

// The columns (CSV headers) are the declared ids, in the declared order; the summary is
// one object of the result's figures, the launch threads' under their summary names.
TEST(MultiGpuTest, DeclaredColumnsAndSummary) {
  StructToolResult<MultiGpuResult> result(ComputeMultiGpu(TwoGpuModel()));
  auto header = [&](const char* table) {
    auto csv = result.TableCsv(table);
    return csv.ok() ? csv->substr(0, csv->find("\r\n")) : csv.status().ToString();  // CSV records end in CRLF
  };
  EXPECT_EQ(header("devices"),
            "host,device,steps,avg_active_ms,avg_compute_ms,avg_collective_ms,collective_percent,collectives,busy_ms,"
            "straggler_steps,avg_wait_ms,avg_launch_skew_ms,kernel_ms,total_collective_ms,first_kernel_offset_ms");
  EXPECT_EQ(header("steps"),
            "step_number,devices,concurrent,straggler,max_compute_ms,min_compute_ms,imbalance_ms,avg_collective_ms,"
            "launch_skew_ms");
  EXPECT_EQ(header("collectives"),
            "host,device,collective,count,sized,ranks,ranks_source,time_ms,size_mb,size_per_step_mb,algbw_gbps,"
            "busbw_gbps,link_gbps,link,link_percent");
  const std::string json = result.ToJson(false);
  EXPECT_THAT(json, testing::StartsWith("{\"tool\":\"multi_gpu\",\"summary\":{\"basis\":\"steps\",\"device_count\":2,"));
  EXPECT_THAT(json, testing::HasSubstr("\"estimated_all_reduce_ms\":0,\"launch_threads_measured\":false,"
                                       "\"launch_threads\":0,\"input_threads\":0,\"gpu_private_threads\":0,"
                                       "\"launch_input_overlap_ms\":0,\"launch_input_overlap_percent\":0},"
                                       "\"devices\":[{\"host\":"));
}

// Collective traffic written by hand into the model: an 8-rank all-reduce on each GPU,
// 2 x 50 MB in 8 ms on GPU:0 and 2 x 50 MB in 10 ms on GPU:1, on H100s (NVLink 4, 450 GB/s).
ProfileModel TwoH100sWithAllReduces() {
  ProfileModel m = TwoGpuModel();
  const double ms[] = {8, 10};
  for (int i = 0; i < 2; ++i) {
    DeviceActivity& d = m.devices[i];
    d.capabilities.device_name = "NVIDIA H100 80GB HBM3";
    d.capabilities.compute_capability_major = 9;
    CollectiveTraffic t;
    t.kind = CollectiveKind::kAllReduce;
    t.count = 3;  // one without a size
    t.time_ps = Ms(ms[i] + 1);
    t.sized_count = 2;
    t.sized_time_ps = Ms(ms[i]);
    t.size_bytes = 100'000'000;
    t.bus_bytes = 100e6 * 2 * 7 / 8;
    t.ranks = 8;
    t.ranks_source = "group_size";
    d.collective_traffic = {t};
  }
  return m;
}

TEST(MultiGpuTest, CollectiveBandwidthFromTheModelsTraffic) {
  ProfileModel m = TwoH100sWithAllReduces();
  ToolOptions options;
  options.parameter_count = 50'000'000;
  MultiGpuResult r = ComputeMultiGpu(m, options);
  ASSERT_EQ(r.collective_rows.size(), 2u);
  const MultiGpuCollectiveRow& gpu0 = r.collective_rows[0];
  EXPECT_EQ(gpu0.collective, "all_reduce");
  EXPECT_NEAR(gpu0.algbw_gbps, 100e6 / 8e-3 / 1e9, 1e-9);
  EXPECT_NEAR(gpu0.busbw_gbps, 100e6 * 1.75 / 8e-3 / 1e9, 1e-9);
  EXPECT_NEAR(gpu0.size_per_step_mb, 50, 1e-9) << "two steps";
  EXPECT_EQ(gpu0.link_gbps, 450);
  EXPECT_NEAR(gpu0.link_percent, 100.0 * gpu0.busbw_gbps / 450, 1e-9);
  EXPECT_EQ(r.collectives, 6);
  EXPECT_EQ(r.sized_collectives, 4);
  EXPECT_NEAR(r.busbw_gbps, 2 * 100e6 * 1.75 / 18e-3 / 1e9, 1e-9);
  EXPECT_NEAR(r.all_reduce_ms_per_step, (9 + 11) / 4.0, 1e-9) << "all all-reduce time, per device and step";
  EXPECT_NEAR(r.estimated_all_reduce_ms, 50e6 * 4 / 450e9 * 1e3, 1e-9);
  EXPECT_EQ(r.estimate_basis, "parameters");
  // Without the count, the all-reduce bytes per device and step stand for it: 50 MB.
  MultiGpuResult measured = ComputeMultiGpu(m);
  EXPECT_EQ(measured.estimate_basis, "all_reduce_bytes");
  EXPECT_EQ(measured.parameter_count, 12'500'000);
  EXPECT_NEAR(measured.estimated_all_reduce_ms, 50e6 / 450e9 * 1e3, 1e-9);
  EXPECT_THAT(r.diagnostics, testing::Contains(testing::HasSubstr("2 of 6 collectives have no known size")));
  StructToolResult<MultiGpuResult> result(r);
  EXPECT_THAT(result.FormatText({}), testing::HasSubstr("collectives reach"));
}

// The advisor's collective_heavy finding cites the bus bandwidth and the link: 2 x 50 MB
// in 18 ms at 1.75 bus bytes per byte is 19.4 GB/s, 4.3 % of NVLink 4: not link-bound.
TEST(MultiGpuTest, CollectiveHeavyFindingComparesTheBusBandwidthWithTheLink) {
  AdvisorReport report = ComputeAdvice(TwoH100sWithAllReduces());
  const Finding* heavy = nullptr;
  for (const Finding& f : report.findings) {
    if (f.id == "collective_heavy") heavy = &f;
  }
  ASSERT_NE(heavy, nullptr) << "collectives are 30.2 % of device time";
  EXPECT_THAT(heavy->evidence, testing::HasSubstr("19.4 GB/s bus bandwidth"));
  EXPECT_THAT(heavy->evidence, testing::HasSubstr("4.3 % of the 450 GB/s link (NVLink 4 (18 links))"));
  EXPECT_THAT(heavy->advice, testing::HasSubstr("not link-bound"));
}

TEST(MultiGpuTest, WithoutSharedStepsDevicesAreComparedOverTheWholeProfile) {
  ProfileModel m;
  m.hostnames = {"host0"};
  DeviceActivity gpu0 = MakeGpu(0, 50);
  gpu0.kernel_time_ps = Ms(40);
  gpu0.collective_ps = Ms(10);
  gpu0.first_begin_ps = Ms(2);
  DeviceActivity gpu1 = MakeGpu(1, 60);
  gpu1.kernel_time_ps = Ms(55);
  gpu1.collective_ps = Ms(5);
  gpu1.first_begin_ps = Ms(5);
  m.devices = {gpu0, gpu1};
  MultiGpuResult r = ComputeMultiGpu(m);
  EXPECT_EQ(r.basis, "profile");
  EXPECT_EQ(r.steps, 0);
  EXPECT_EQ(r.straggler, "/device:GPU:1");
  EXPECT_NEAR(r.avg_imbalance_ms, (55 - 5) - (40 - 10), 1e-9);
  EXPECT_NEAR(r.avg_launch_skew_ms.value_or(-1), 3, 1e-9);
  EXPECT_NEAR(r.collective_percent, 100.0 * 15 / 95, 1e-9);
  EXPECT_NEAR(r.devices[1].first_kernel_offset_ms, 3, 1e-9);
  EXPECT_NEAR(r.devices[0].total_collective_ms, 10, 1e-9);
  EXPECT_THAT(r.diagnostics, testing::Contains(testing::HasSubstr("whole profile")));
  EXPECT_EQ(ComputeMultiGpu(TwoGpuModel()).basis, "steps");
}

}  // namespace
}  // namespace stepscope::analysis
