// `stepscope runs` and the sessions every command reads: the workers of one job that each
// wrote plugins/profile/<own start time>/ are one session when their capture windows overlap
// (src/load/run_sessions.h); --separate_runs reads the directories on their own.
#include <filesystem>
#include <string>
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
constexpr int64_t kSecond = 1000000000;

// TensorFlow's demo profile as worker `host`, recorded over [start, stop] (its Task
// Environment plane says so), in the run directory `run` of `logdir`.
void WriteWorker(const std::string& logdir, const std::string& run, const std::string& host, int64_t start_ns,
                 int64_t stop_ns) {
  StatusOr<xspace::XSpace> space = xspace::ReadXSpaceFile(TfDemoFile());
  ASSERT_TRUE(space.ok()) << space.status().ToString();
  xspace::XPlaneBuilder task(xspace::FindOrAddMutablePlaneWithName(&*space, xspace::kTaskEnvPlaneName));
  task.AddStatValue(xspace::StatType::kProfileStartTime, static_cast<uint64_t>(start_ns));
  task.AddStatValue(xspace::StatType::kProfileStopTime, static_cast<uint64_t>(stop_ns));
  const std::string dir = logdir + "/plugins/profile/" + run;
  std::filesystem::create_directories(dir);
  ASSERT_TRUE(xspace::WriteXSpaceFile(dir + "/" + host + ".xplane.pb", *space).ok());
}

std::string JobLogdir() {
  const std::string logdir = FreshDir("runs_sessions");
  const int64_t t = 1'800'000'000 * kSecond;
  WriteWorker(logdir, "2027_01_15_08_00_00", "worker0", t, t + 10 * kSecond);
  WriteWorker(logdir, "2027_01_15_08_00_01", "worker1", t + kSecond, t + 11 * kSecond);
  return logdir;
}

int64_t HostsOf(const std::string& analyze_json) {
  simdjson::dom::parser parser;
  simdjson::padded_string json(analyze_json);
  simdjson::dom::array hosts;
  if (parser.parse(json)["run_environment"]["hosts"].get(hosts)) return -1;
  return static_cast<int64_t>(hosts.size());
}

TEST(CliRunsTest, ListsTheSessionWithItsRunDirectoriesAndHosts) {
  const std::string logdir = JobLogdir();
  ProcessResult text = RunStepscope({"runs", logdir});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("2027_01_15_08_00_00                2      2"));
  EXPECT_THAT(text.out, HasSubstr("2027_01_15_08_00_01  worker1"));
  EXPECT_THAT(text.out, HasSubstr("task_environment"));

  ProcessResult csv = RunStepscope({"runs", logdir, "--separate_runs", "--format", "csv", "--table", "sessions"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_THAT(csv.out, HasSubstr("2027_01_15_08_00_00,1,1,"));
  EXPECT_THAT(csv.out, HasSubstr("2027_01_15_08_00_01,1,1,"));

  ProcessResult json = RunStepscope({"runs", logdir, "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  simdjson::dom::parser parser;
  simdjson::padded_string parsed(json.out);
  simdjson::dom::array sessions;
  ASSERT_FALSE(parser.parse(parsed)["sessions"].get(sessions)) << json.out;
  EXPECT_EQ(sessions.size(), 1u);
}

TEST(CliRunsTest, AnalyzeReadsTheSessionAndSeparateRunsTheNewestDirectory) {
  const std::string logdir = JobLogdir();
  ProcessResult session = RunStepscope({"analyze", logdir, "--tool", "overview_page", "--format", "json"});
  ASSERT_EQ(session.exit_code, 0) << session.err;
  EXPECT_EQ(HostsOf(session.out), 2);
  // A member's name selects its whole session.
  ProcessResult by_member = RunStepscope(
      {"analyze", logdir, "--run", "2027_01_15_08_00_01", "--tool", "overview_page", "--format", "json"});
  EXPECT_EQ(by_member.out, session.out);
  ProcessResult separate =
      RunStepscope({"analyze", logdir, "--separate_runs", "--tool", "overview_page", "--format", "json"});
  ASSERT_EQ(separate.exit_code, 0) << separate.err;
  EXPECT_EQ(HostsOf(separate.out), 1);
  EXPECT_THAT(separate.err, HasSubstr("2 runs in"));
}

TEST(CliRunsTest, ABadLogdirIsOneErrorLine) {
  ProcessResult r = RunStepscope({"runs", FreshDir("runs_empty") + "/nothing"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.ErrLines(), 1) << r.err;
  ProcessResult usage = RunStepscope({"runs"});
  EXPECT_EQ(usage.exit_code, 2);
}

}  // namespace
}  // namespace stepscope::testing
