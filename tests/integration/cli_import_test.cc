// `stepscope import` end to end: the real binary on the shared PyTorch traces.
#include <gtest/gtest.h>

#include <filesystem>

#include "src/base/gzip.h"
#include "src/xspace/xspace_io.h"
#include "tests/integration/subprocess.h"
#include "tests/integration/test_util.h"

namespace stepscope::testing {
namespace {

TEST(CliImportTest, TwoRanksBecomeTwoHostsOfOneRun) {
  std::string logdir = FreshDir("import_ranks");
  ProcessResult result = RunStepscope({"import", TraceFile("hta_sampled_rank-0.json.gz"),
                                       TraceFile("hta_sampled_rank-1.json.gz"), "--logdir", logdir, "--run", "job"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "");
  std::string run = logdir + "/plugins/profile/job";
  for (const char* host : {"rank0", "rank1"}) {
    StatusOr<xspace::XSpace> space = xspace::ReadXSpaceFile(run + "/" + host + ".xplane.pb");
    ASSERT_TRUE(space.ok()) << host << ": " << space.status().ToString();
    ASSERT_EQ(space->hostnames_size(), 1);
    EXPECT_EQ(space->hostnames(0), host);
  }
  // The counts per file: events read as the README gives them, nothing dropped.
  EXPECT_NE(result.out.find("host rank0: 4855 events read"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("host rank1: 4720 events read"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("0 dropped"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("2 steps"), std::string::npos) << result.out;
  ProcessResult info = RunStepscope({"info", run});
  EXPECT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find("(2 hosts)"), std::string::npos) << info.out;
}

// Without --run the run is named after the files, so `info <logdir>` and the dashboard's
// Run menu tell imports apart; importing again never adds hosts to the earlier run.
TEST(CliImportTest, RunsAreNamedAfterTheirFiles) {
  std::string logdir = FreshDir("import_run_names");
  ProcessResult ranks = RunStepscope({"import", TraceFile("hta_sampled_rank-0.json.gz"),
                                      TraceFile("hta_sampled_rank-1.json.gz"), "--logdir", logdir});
  ASSERT_EQ(ranks.exit_code, 0) << ranks.err;
  ProcessResult one = RunStepscope({"import", TraceFile("hta_ns_resolution_rank-0.pt.trace.json.gz"), "--logdir", logdir});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  ProcessResult again = RunStepscope({"import", TraceFile("hta_ns_resolution_rank-0.pt.trace.json.gz"), "--logdir", logdir});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  std::string root = logdir + "/plugins/profile/";
  EXPECT_TRUE(std::filesystem::exists(root + "hta_sampled_rank/rank0.xplane.pb"));
  EXPECT_TRUE(std::filesystem::exists(root + "hta_sampled_rank/rank1.xplane.pb"));
  EXPECT_TRUE(std::filesystem::is_directory(root + "hta_ns_resolution_rank-0"));
  EXPECT_TRUE(std::filesystem::is_directory(root + "hta_ns_resolution_rank-0_2"));
  ProcessResult info = RunStepscope({"info", logdir});
  EXPECT_EQ(info.exit_code, 0) << info.err;
  for (const char* run : {"hta_sampled_rank", "hta_ns_resolution_rank-0", "hta_ns_resolution_rank-0_2"}) {
    EXPECT_NE(info.out.find(run), std::string::npos) << run << "\n" << info.out;
  }
}

TEST(CliImportTest, SameHostTwiceGetsADistinctName) {
  std::string logdir = FreshDir("import_twice");
  std::string file = TraceFile("perfetto_flow_events_json_v1.json");
  ProcessResult result = RunStepscope({"import", file, file, "--logdir", logdir, "--run", "r"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(std::filesystem::exists(logdir + "/plugins/profile/r/perfetto_flow_events_json_v1.xplane.pb"));
  EXPECT_TRUE(std::filesystem::exists(logdir + "/plugins/profile/r/perfetto_flow_events_json_v1_2.xplane.pb"));
  EXPECT_EQ(result.ErrLines(), 1) << result.err;
}

// A run name the server would refuse to serve (400) is refused when the run is named,
// before anything is written.
TEST(CliImportTest, RunNamesWithControlCharactersAreRefused) {
  std::string logdir = FreshDir("import_control");
  for (const char* run : {"bad\x1b[2Jname", "tab\there", "back\\slash", "a%2fb"}) {
    ProcessResult result =
        RunStepscope({"import", TraceFile("perfetto_flow_events_json_v1.json"), "--logdir", logdir, "--run", run});
    EXPECT_EQ(result.exit_code, 2) << run;
    EXPECT_EQ(result.err.find('\x1b'), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("run name"), std::string::npos) << result.err;
  }
  EXPECT_FALSE(std::filesystem::exists(logdir + "/plugins/profile")) << "nothing written";
}

TEST(CliImportTest, TruncatedAndForeignFilesExitWithTwoAndOneLine) {
  std::string dir = FreshDir("import_bad");
  std::string json = R"({"traceEvents": [{"ph": "X", "name": "a", "ts": 1, "dur": 1, "pid": 1, "tid": 1},
                                         {"ph": "X", "name": "b", "ts": 2, "dur": 1, "pid": 1, "tid": 1},
                                         {"ph": "X", "name": "c", "ts": 3, "du)";
  WriteBytes(dir + "/cut.json", json);
  ProcessResult cut = RunStepscope({"import", dir + "/cut.json", "--logdir", dir + "/logdir"});
  EXPECT_EQ(cut.exit_code, 2);
  EXPECT_EQ(cut.ErrLines(), 1) << cut.err;
  EXPECT_NE(cut.err.find("truncated"), std::string::npos) << cut.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/logdir/plugins"));

  ProcessResult lenient = RunStepscope({"import", dir + "/cut.json", "--logdir", dir + "/logdir", "--allow_truncated"});
  EXPECT_EQ(lenient.exit_code, 0) << lenient.err;
  EXPECT_NE(lenient.out.find("truncated"), std::string::npos) << lenient.out;

  StatusOr<std::string> gz = base::Gzip(std::string(json) + "\": 1}]}");
  ASSERT_TRUE(gz.ok());
  WriteBytes(dir + "/cut.json.gz", gz->substr(0, gz->size() / 2));
  ProcessResult cut_gz = RunStepscope({"import", dir + "/cut.json.gz", "--logdir", dir + "/logdir"});
  EXPECT_EQ(cut_gz.exit_code, 2);
  EXPECT_EQ(cut_gz.ErrLines(), 1) << cut_gz.err;

  WriteBytes(dir + "/notes.txt", "just some text\n");
  ProcessResult foreign = RunStepscope({"import", dir + "/notes.txt", "--logdir", dir + "/logdir"});
  EXPECT_EQ(foreign.exit_code, 2);
  EXPECT_EQ(foreign.ErrLines(), 1) << foreign.err;
  EXPECT_NE(foreign.err.find("notes.txt"), std::string::npos) << foreign.err;

  ProcessResult missing = RunStepscope({"import", dir + "/missing.json"});
  EXPECT_EQ(missing.exit_code, 2);
  ProcessResult none = RunStepscope({"import"});
  EXPECT_EQ(none.exit_code, 2);
}

TEST(CliImportTest, WarningsShowWhatWasChanged) {
  std::string logdir = FreshDir("import_warnings");
  ProcessResult result =
      RunStepscope({"import", TraceFile("xprof_tf_trace_viewer_demo_trace.json"), "--logdir", logdir, "--run", "r"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("dropped 3 of 37 events: unsupported phase 'P'"), std::string::npos) << result.out;
}

}  // namespace
}  // namespace stepscope::testing
