// `stepscope summarize` and the summaries the multi-host commands read (src/load/
// summary_cache.h), on the real binary: a run's hosts are read once; the second question
// is answered from their summaries with the same bytes (src/load/summary_cache_test.cc holds
// those to the model built from the files, tool by tool); sharded maps (a Slurm job array)
// give the same summaries; a stale summary is rebuilt and the output says so.
#include <filesystem>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/integration/subprocess.h"
#include "tests/integration/test_util.h"

namespace stepscope::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// A logdir with one run of two hosts: the shared two-rank Kineto traces, linked.
std::string TwoRankLogdir(const std::string& name) {
  const std::string logdir = FreshDir(name);
  const fs::path run = fs::path(logdir) / "plugins" / "profile" / "job";
  fs::create_directories(run);
  fs::create_symlink(TraceFile("hta_sampled_rank-0.json.gz"), run / "rank0.pt.trace.json.gz");
  fs::create_symlink(TraceFile("hta_sampled_rank-1.json.gz"), run / "rank1.pt.trace.json.gz");
  return logdir;
}

std::vector<std::string> SummaryFiles(const std::string& logdir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(fs::path(logdir) / "plugins" / "profile" / "job")) {
    const std::string name = entry.path().filename().string();
    if (name.ends_with(".stepscope-summary")) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string Analyze(const std::string& logdir, const std::string& tool) {
  ProcessResult r = RunStepscope({"analyze", logdir, "--tool", tool, "--format", "json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  return r.out;
}

TEST(CliSummarizeTest, TheSecondQuestionIsAnsweredFromSummariesWithTheSameBytes) {
  const std::string logdir = TwoRankLogdir("summaries_same_bytes");
  const std::vector<std::string> tools = {"overview_page", "pod_viewer", "framework_op_stats", "kernel_stats",
                                          "input_pipeline_analyzer", "multi_gpu", "advisor"};
  std::vector<std::string> first;
  for (const std::string& tool : tools) first.push_back(Analyze(logdir, tool));
  EXPECT_EQ(SummaryFiles(logdir), (std::vector<std::string>{".rank0.pt.trace.json.gz.stepscope-summary",
                                                            ".rank1.pt.trace.json.gz.stepscope-summary"}));
  for (size_t i = 0; i < tools.size(); ++i) {
    SCOPED_TRACE(tools[i]);
    EXPECT_EQ(Analyze(logdir, tools[i]), first[i]);
  }
  ProcessResult check = RunStepscope({"check", logdir, "--max", "step_ms=1", "--format", "json"});
  EXPECT_EQ(check.exit_code, 5);
  EXPECT_THAT(check.out, HasSubstr("\"measured\""));
}

// `diff` of two multi-host runs: the first reads the files (and writes the summaries of the
// second run), the second reads every host from its summary, with the same bytes.
TEST(CliSummarizeTest, DiffOfTwoRunsIsTheSameFromSummaries) {
  const std::string a = TwoRankLogdir("summaries_diff_a");
  const std::string b = TwoRankLogdir("summaries_diff_b");
  const fs::path rank2 = fs::path(b) / "plugins" / "profile" / "job" / "rank2.pt.trace.json.gz";
  fs::create_symlink(TraceFile("hta_ns_resolution_rank-0.pt.trace.json.gz"), rank2);
  auto diff = [&] {
    ProcessResult r = RunStepscope({"diff", a, b, "--format", "json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    return r.out;
  };
  const std::string first = diff();
  EXPECT_EQ(SummaryFiles(a).size(), 2u);
  EXPECT_THAT(first, HasSubstr("\"ops\""));
  EXPECT_EQ(diff(), first);
}

TEST(CliSummarizeTest, ShardedMapsWriteTheSummariesOneProcessWrites) {
  const std::string sharded = TwoRankLogdir("summaries_sharded");
  for (const char* shard : {"0/2", "1/2"}) {
    ProcessResult r = RunStepscope({"summarize", sharded, "--shard", shard, "--format", "csv", "--table", "summaries"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr(",built,"));
  }
  const std::string whole = TwoRankLogdir("summaries_whole");
  ProcessResult once = RunStepscope({"summarize", whole});
  ASSERT_EQ(once.exit_code, 0) << once.err;
  for (const std::string& name : SummaryFiles(whole)) {
    SCOPED_TRACE(name);
    // The same bytes but the header's mtime (the symlinks' targets are the same files).
    EXPECT_EQ(ReadBytes(sharded + "/plugins/profile/job/" + name), ReadBytes(whole + "/plugins/profile/job/" + name));
  }
  ProcessResult again = RunStepscope({"summarize", sharded, "--format", "csv", "--table", "summaries"});
  EXPECT_THAT(again.out, HasSubstr("job,rank0,current,"));
  EXPECT_THAT(again.out, HasSubstr("job,rank1,current,"));
  EXPECT_EQ(Analyze(sharded, "overview_page"), Analyze(whole, "overview_page"));
}

TEST(CliSummarizeTest, AStaleSummaryIsRebuiltAndTheOutputSaysSo) {
  const std::string logdir = TwoRankLogdir("summaries_stale");
  const std::string before = Analyze(logdir, "overview_page");
  // rank1 is replaced by another profile: its summary no longer matches its file.
  const fs::path rank1 = fs::path(logdir) / "plugins/profile/job/rank1.pt.trace.json.gz";
  fs::remove(rank1);
  fs::create_symlink(TraceFile("hta_sampled_rank-0.json.gz"), rank1);
  ProcessResult r = RunStepscope({"analyze", logdir, "--tool", "overview_page", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("stale"));
  EXPECT_THAT(r.err, HasSubstr("rebuilt"));
  EXPECT_NE(r.out, before);
  ProcessResult quiet = RunStepscope({"analyze", logdir, "--tool", "overview_page", "--format", "json"});
  EXPECT_EQ(quiet.err, "");
  EXPECT_EQ(quiet.out, r.out);
}

TEST(CliSummarizeTest, BadArgumentsAndUnreadableHostsAreNamed) {
  EXPECT_EQ(RunStepscope({"summarize", TwoRankLogdir("summaries_bad_shard"), "--shard", "2/2"}).exit_code, 2);
  EXPECT_EQ(RunStepscope({"summarize", TwoRankLogdir("summaries_bad_shard2"), "--shard", "x"}).exit_code, 2);
  const std::string logdir = TwoRankLogdir("summaries_unreadable");
  WriteBytes(logdir + "/plugins/profile/job/broken.pt.trace.json", "{\"traceEvents\": [{\"ph\": \"X\"");
  ProcessResult r = RunStepscope({"summarize", logdir, "--format", "csv", "--table", "summaries"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("broken.pt.trace.json"));
  EXPECT_THAT(r.out, HasSubstr("job,rank0,built,"));
  EXPECT_THAT(r.out, HasSubstr("job,broken,failed,"));
}

}  // namespace
}  // namespace stepscope::testing
