// `stepscope analyze` end to end: formats, tables, run/host selection, and one-line
// errors with exit code 2.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include "src/xspace/schema.h"
#include "src/xspace/xplane_builder.h"
#include "src/xspace/xspace_io.h"
#include "tests/integration/subprocess.h"
#include "tests/integration/test_util.h"

namespace stepscope::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string JaxFile() { return XPlaneTestDataDir() + "/tracelens_jax_mi300_te_fused_attn.xplane.pb"; }

// A logdir with two runs; run_b has two hosts.
std::string MakeLogdir() {
  const std::string logdir = FreshDir("analyze_logdir");
  const std::string jax = ReadBytes(JaxFile());
  WriteBytes(logdir + "/plugins/profile/run_a/h1.xplane.pb", ReadBytes(TfDemoFile()));
  WriteBytes(logdir + "/plugins/profile/run_b/h1.xplane.pb", jax);
  WriteBytes(logdir + "/plugins/profile/run_b/h2.xplane.pb", jax);
  // run_b is the newest by file time.
  std::filesystem::last_write_time(logdir + "/plugins/profile/run_a/h1.xplane.pb",
                                   std::filesystem::file_time_type::clock::now() - std::chrono::hours(1));
  return logdir;
}

TEST(CliAnalyzeTest, JsonOfEveryToolParsesAndNamesTheTool) {
  simdjson::dom::parser parser;
  for (const char* tool : {"overview_page", "input_pipeline_analyzer", "framework_op_stats", "kernel_stats", "advisor"}) {
    ProcessResult run = RunStepscope({"analyze", TfDemoFile(), "--tool", tool, "--format", "json"});
    ASSERT_EQ(run.exit_code, 0) << tool << ": " << run.err;
    EXPECT_EQ(run.err, "");
    simdjson::padded_string json(run.out);
    auto doc = parser.parse(json);
    ASSERT_FALSE(doc.error()) << tool;
    std::string_view id;
    ASSERT_FALSE(doc["tool"].get(id));
    EXPECT_EQ(id, tool);
  }
}

TEST(CliAnalyzeTest, AllIsOverviewAndAdvisor) {
  ProcessResult text = RunStepscope({"analyze", TfDemoFile()});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("Performance summary"));
  EXPECT_THAT(text.out, HasSubstr("Advisor findings"));
  ProcessResult json = RunStepscope({"analyze", TfDemoFile(), "--tool", "all", "--format", "json"});
  ASSERT_EQ(json.exit_code, 0);
  simdjson::dom::parser parser;
  simdjson::padded_string padded(json.out);
  auto doc = parser.parse(padded);
  ASSERT_FALSE(doc.error());
  simdjson::dom::object overview;
  EXPECT_FALSE(doc["overview_page"].get(overview));
  simdjson::dom::object advisor;
  EXPECT_FALSE(doc["advisor"].get(advisor));
}

TEST(CliAnalyzeTest, CsvOfATable) {
  ProcessResult run = RunStepscope({"analyze", TfDemoFile(), "--tool", "kernel_stats", "--format", "csv", "--table", "kernels"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, StartsWith("rank,kernel_name,registers_per_thread,shmem_bytes,block_dim,grid_dim,occupancy_pct,"
                                  "is_op_tensor_core_eligible,is_kernel_using_tensor_core,op_name,occurrences,"
                                  "total_duration_us,avg_duration_us,min_duration_us,max_duration_us\r\n"));
  EXPECT_THAT(run.out, HasSubstr("\r\n1,"));
}

TEST(CliAnalyzeTest, NewestRunIsTheDefaultAndSaidOnStderr) {
  const std::string logdir = MakeLogdir();
  ProcessResult run = RunStepscope({"analyze", logdir, "--tool", "overview_page", "--format", "csv", "--table", "hosts"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.err, HasSubstr("2 runs in " + logdir + "; using the newest, run_b (choose with --run)"));
  EXPECT_EQ(run.ErrLines(), 1);
  // run_b's two hosts are combined.
  EXPECT_EQ(std::count(run.out.begin(), run.out.end(), '\n'), 3) << run.out;
  ProcessResult one = RunStepscope({"analyze", logdir, "--run", "run_b", "--host", "h2", "--tool", "overview_page",
                                    "--format", "csv", "--table", "hosts"});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(one.err, "");
  EXPECT_EQ(std::count(one.out.begin(), one.out.end(), '\n'), 2) << one.out;
}

TEST(CliAnalyzeTest, StepAnalysesOneStepAndANumberThatIsNoStepsIsExitTwo) {
  const std::string trace = std::string(STEPSCOPE_SHARED_DIR) + "/testdata/traces/hta_ns_resolution_rank-0.pt.trace.json.gz";
  simdjson::dom::parser parser;
  ProcessResult all = RunStepscope({"analyze", trace, "--tool", "kernel_stats", "--format", "json"});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  simdjson::padded_string all_json(all.out);
  const int64_t all_launches = int64_t(parser.parse(all_json)["summary"]["launches"]);
  // Five steps of the same loop: each step's launches are a fifth of all of them.
  int64_t sum = 0;
  for (const char* step : {"101", "102", "103", "104", "105"}) {
    ProcessResult one = RunStepscope({"analyze", trace, "--tool", "kernel_stats", "--format", "json", "--step", step});
    ASSERT_EQ(one.exit_code, 0) << one.err;
    simdjson::padded_string json(one.out);
    sum += int64_t(parser.parse(json)["summary"]["launches"]);
  }
  EXPECT_EQ(sum, all_launches) << "every launch of this trace is in exactly one step";
  ProcessResult overview = RunStepscope({"analyze", trace, "--tool", "overview_page", "--format", "json", "--step", "103"});
  ASSERT_EQ(overview.exit_code, 0);
  simdjson::padded_string overview_json(overview.out);
  EXPECT_EQ(int64_t(parser.parse(overview_json)["steps"]), 1);

  for (const std::vector<std::string>& args : {std::vector<std::string>{"analyze", trace, "--step", "7"},
                                               std::vector<std::string>{"analyze", trace, "--step", "two"}}) {
    ProcessResult bad = RunStepscope(args);
    EXPECT_EQ(bad.exit_code, 2) << bad.err;
    EXPECT_EQ(bad.ErrLines(), 1) << bad.err;
    EXPECT_EQ(bad.out, "");
  }
  EXPECT_THAT(RunStepscope({"analyze", trace, "--step", "7"}).err, HasSubstr("no step 7 in this profile; its 5 steps are numbered 101 to 105"));
  EXPECT_THAT(RunStepscope({"analyze", trace, "--step", "two"}).err, HasSubstr("--step: a step number (or 'all') is expected, not 'two'"));
}

// memory_profile's time range: --start_ps / --end_ps reach the tool (its JSON names the
// range); a bound that is no integer, or start after end, is one line and exit 2.
TEST(CliAnalyzeTest, MemoryProfileTimeRangeFlags) {
  const std::string file = std::string(STEPSCOPE_SHARED_DIR) +
                           "/testdata/xplane/tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb";
  ProcessResult ranged = RunStepscope({"analyze", file, "--tool", "memory_profile", "--format", "json",
                                       "--start_ps", "1000000000000", "--end_ps", "2000000000000"});
  ASSERT_EQ(ranged.exit_code, 0) << ranged.err;
  EXPECT_THAT(ranged.out, HasSubstr("\"timeRangePs\": {\n    \"start\": 1000000000000,\n    \"end\": 2000000000000"));
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"analyze", file, "--tool", "memory_profile", "--start_ps", "soon"},
        std::vector<std::string>{"analyze", file, "--tool", "memory_profile", "--start_ps", "10", "--end_ps", "5"}}) {
    ProcessResult bad = RunStepscope(args);
    EXPECT_EQ(bad.exit_code, 2) << bad.err;
    EXPECT_EQ(bad.ErrLines(), 1) << bad.err;
  }
  EXPECT_THAT(RunStepscope({"analyze", file, "--tool", "memory_profile", "--start_ps", "soon"}).err,
              HasSubstr("--start_ps must be a time in picoseconds, not 'soon'"));
}

// multi_gpu's --link_gbps / --parameters reach the tool; a bad value is one line and exit 2,
// with the message the HTTP API gives for link_gbps= / parameters= (server_api_test).
TEST(CliAnalyzeTest, MultiGpuLinkAndParameterFlags) {
  // The PyTorch rank pair as one run: its collectives are sized.
  const std::string logdir = FreshDir("multi_gpu_ranks");
  for (const char* rank : {"0", "1"}) {
    WriteBytes(logdir + "/plugins/profile/ranks/rank" + rank + ".pt.trace.json.gz",
               ReadBytes(std::string(STEPSCOPE_SHARED_DIR) + "/testdata/traces/hta_sampled_rank-" + rank + ".json.gz"));
  }
  ProcessResult given = RunStepscope({"analyze", logdir, "--tool", "multi_gpu", "--format", "csv", "--table",
                                      "collectives", "--link_gbps", "123.5", "--parameters", "25000000"});
  ASSERT_EQ(given.exit_code, 0) << given.err;
  EXPECT_THAT(given.out, HasSubstr(",123.5,option,"));
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"--link_gbps", "fast"}, "--link_gbps takes a bandwidth in GB/s above 0 and at most 10^6, not 'fast'"},
      {{"--link_gbps", "0"}, "--link_gbps takes a bandwidth in GB/s above 0 and at most 10^6, not '0'"},
      {{"--parameters", "-5"}, "--parameters takes a parameter count from 1 to 10^15, not '-5'"},
      {{"--parameters", "1.5"}, "--parameters takes a parameter count from 1 to 10^15, not '1.5'"},
  };
  for (const auto& [flag, message] : cases) {
    std::vector<std::string> args = {"analyze", TfDemoFile(), "--tool", "multi_gpu"};
    args.insert(args.end(), flag.begin(), flag.end());
    ProcessResult bad = RunStepscope(args);
    EXPECT_EQ(bad.exit_code, 2) << bad.err;
    EXPECT_EQ(bad.ErrLines(), 1) << bad.err;
    EXPECT_THAT(bad.err, HasSubstr(message));
  }
}

TEST(CliAnalyzeTest, BadInputIsOneLineAndExitTwo) {
  const std::string logdir = MakeLogdir();
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const Case cases[] = {
      {{"analyze", TfDemoFile(), "--tool", "overview"},
       "unknown tool 'overview'; valid tools: overview_page, input_pipeline_analyzer, framework_op_stats, kernel_stats, advisor"},
      {{"analyze", logdir, "--run", "zzz"}, "no run 'zzz'"},
      {{"analyze", logdir, "--run", "run_b", "--host", "h9"}, "no host 'h9'"},
      {{"analyze", TfDemoFile(), "--format", "csv"}, "--format csv prints one table: add --table NAME"},
      {{"analyze", TfDemoFile(), "--table", "nope"}, "no table 'nope'; tables: "},
      {{"analyze", TfDemoFile(), "--format", "xml"}, "format"},
      {{"analyze", "/nonexistent/profile"}, "/nonexistent/profile"},
      {{"analyze", XPlaneTestDataDir() + "/README.md"}, "README.md"},
      {{"analyze"}, "expected one path"},
  };
  for (const Case& c : cases) {
    ProcessResult run = RunStepscope(c.args);
    EXPECT_EQ(run.exit_code, 2) << c.message << "\n" << run.err;
    EXPECT_FALSE(run.signaled);
    EXPECT_EQ(run.ErrLines(), 1) << run.err;
    EXPECT_THAT(run.err, StartsWith("stepscope: "));
    EXPECT_THAT(run.err, HasSubstr(c.message));
    EXPECT_EQ(run.out, "");
  }
}

TEST(CliAnalyzeTest, KernelStatsWithoutGpuIsAClearError) {
  // A CPU-only profile written with the builder: one thread, two steps.
  xspace::XSpace space;
  xspace::XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  xspace::XLineBuilder line = host.GetOrCreateLine(1);
  line.SetName("main");
  for (int step = 0; step < 2; ++step) {
    xspace::XEventBuilder train = line.AddEvent(*host.GetOrCreateEventMetadata("train"));
    train.SetTimestampNs(step * 10'000'000);
    train.SetDurationNs(9'000'000);
    train.AddStatValue(*host.GetOrCreateStatMetadata("step_num"), int64_t{step});
    train.AddStatValue(*host.GetOrCreateStatMetadata("_r"), int64_t{1});
  }
  const std::string path = FreshDir("cpu_only") + "/cpu.xplane.pb";
  ASSERT_TRUE(xspace::WriteXSpaceFile(path, space).ok());
  ProcessResult run = RunStepscope({"analyze", path, "--tool", "kernel_stats"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.ErrLines(), 1);
  EXPECT_THAT(run.err, HasSubstr("tool 'kernel_stats' does not apply to this profile (it needs a /device:GPU: plane)"));
  ProcessResult overview = RunStepscope({"analyze", path, "--tool", "overview_page", "--format", "json"});
  EXPECT_EQ(overview.exit_code, 0) << overview.err;
  EXPECT_THAT(overview.out, HasSubstr("\"steps\": 2"));
}

}  // namespace
}  // namespace stepscope::testing
