// `stepscope diff` and `stepscope check` on the real binary: what they accept (files, run
// directories, logdirs, imported traces), their formats, and check's exit codes — 0 when
// every budget holds, 5 when one is broken or cannot be measured, 2 for a bad key, value,
// file or command line, each failure one "stepscope: ..." line on stderr.
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include "tests/integration/subprocess.h"
#include "tests/integration/test_util.h"

namespace stepscope::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// src/cli/exit_code.h, restated: the test must not take the code's word for them.
constexpr int kOk = 0;
constexpr int kUsage = 2;
constexpr int kBudgetBroken = 5;

std::string TraceDir() { return std::string(STEPSCOPE_SHARED_DIR) + "/testdata/traces"; }

void ExpectOneErrorLine(const ProcessResult& r, const std::string& needle) {
  EXPECT_FALSE(r.signaled) << r.err;
  EXPECT_EQ(r.ErrLines(), 1) << r.err;
  EXPECT_THAT(r.err, StartsWith("stepscope: "));
  EXPECT_THAT(r.err, HasSubstr(needle));
}

double MeanStepMs(const std::string& path) {
  simdjson::dom::parser parser;
  ProcessResult analyze = RunStepscope({"analyze", path, "--tool", "overview_page", "--format", "json"});
  simdjson::padded_string json(analyze.out);
  double mean = 0;
  EXPECT_FALSE(parser.parse(json)["avg_step_time_ms"].get(mean)) << analyze.out.substr(0, 300);
  return mean;
}

TEST(CliCheckTest, BudgetsThatHoldExitZeroAndPrintEachWithItsValue) {
  const double mean = MeanStepMs(TfDemoFile());
  ASSERT_GT(mean, 0);
  ProcessResult r = RunStepscope({"check", TfDemoFile(), "--max", "step_ms=" + std::to_string(mean * 1.01), "--max",
                                  "input_pct=100", "--min", "steps=1"});
  EXPECT_EQ(r.exit_code, kOk) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_THAT(r.out, HasSubstr("PASS  step_ms = "));
  EXPECT_THAT(r.out, HasSubstr("PASS  input_pct = "));
  EXPECT_THAT(r.out, HasSubstr("PASS  steps = "));
  EXPECT_THAT(r.out, HasSubstr("all 3 budgets hold"));
}

TEST(CliCheckTest, ABrokenBudgetExitsFiveSayingWhichOne) {
  const double mean = MeanStepMs(TfDemoFile());
  ProcessResult r = RunStepscope(
      {"check", TfDemoFile(), "--max", "step_ms=" + std::to_string(mean * 0.99), "--max", "input_pct=100"});
  EXPECT_EQ(r.exit_code, kBudgetBroken) << r.err;
  EXPECT_THAT(r.out, HasSubstr("FAIL  step_ms = "));
  EXPECT_THAT(r.out, HasSubstr("PASS  input_pct"));
  ExpectOneErrorLine(r, "1 of 2 budgets broken");
  // --min, JSON and CSV tell the same.
  ProcessResult json = RunStepscope({"check", TfDemoFile(), "--min", "steps=1000000", "--format", "json"});
  EXPECT_EQ(json.exit_code, kBudgetBroken);
  simdjson::dom::parser parser;
  simdjson::padded_string text(json.out);
  bool all_hold = true;
  ASSERT_FALSE(parser.parse(text)["all_hold"].get(all_hold)) << json.out;
  EXPECT_FALSE(all_hold);
  ProcessResult csv = RunStepscope({"check", TfDemoFile(), "--min", "steps=1000000", "--format", "csv"});
  EXPECT_EQ(csv.exit_code, kBudgetBroken);
  EXPECT_THAT(csv.out, StartsWith("status,key,label,bound,limit,measured,unit,note\r\nfail,steps,"));
}

TEST(CliCheckTest, ABudgetTheProfileCannotMeasureIsBroken) {
  // A Chrome trace of plain events: no steps, so no step time to hold to a budget.
  std::string json = R"({"traceEvents": [)";
  for (int i = 0; i < 20; ++i) {
    json += (i == 0 ? "" : ",") + std::string(R"({"name": "op", "ph": "X", "ts": )") + std::to_string(i * 10) +
            R"(, "dur": 5, "pid": 1, "tid": 1})";
  }
  json += "]}";
  const std::string path = FreshDir("check_no_steps") + "/trace.json";
  WriteBytes(path, json);
  ProcessResult r = RunStepscope({"check", path, "--max", "step_ms=1000000"});
  EXPECT_EQ(r.exit_code, kBudgetBroken) << r.err;
  EXPECT_THAT(r.out, HasSubstr("FAIL  step_ms not measured: the profile has no steps"));
}

TEST(CliCheckTest, BudgetFileLinesAndFlagsAddUp) {
  const std::string dir = FreshDir("check_budget_file");
  WriteBytes(dir + "/ok.budget", "# CI budgets\nstep_ms <= 1000000\n\ninput_pct <= 100\nsteps >= 1\n");
  ProcessResult ok = RunStepscope({"check", TfDemoFile(), "--budget", dir + "/ok.budget"});
  EXPECT_EQ(ok.exit_code, kOk) << ok.err << ok.out;
  EXPECT_THAT(ok.out, HasSubstr("all 3 budgets hold"));
  ProcessResult broken = RunStepscope({"check", TfDemoFile(), "--budget", dir + "/ok.budget", "--max", "step_ms=0.001"});
  EXPECT_EQ(broken.exit_code, kBudgetBroken);
  EXPECT_THAT(broken.out, HasSubstr("1 of 4 budgets broken"));
}

TEST(CliCheckTest, BadKeysValuesAndFilesAreUsageErrorsNamingTheProblem) {
  ProcessResult key = RunStepscope({"check", TfDemoFile(), "--max", "step_time=3"});
  EXPECT_EQ(key.exit_code, kUsage);
  ExpectOneErrorLine(key, "unknown budget key 'step_time'; keys: step_ms,");
  ProcessResult value = RunStepscope({"check", TfDemoFile(), "--max", "step_ms=fast"});
  EXPECT_EQ(value.exit_code, kUsage);
  ExpectOneErrorLine(value, "budget step_ms: 'fast' is not a number");
  ProcessResult form = RunStepscope({"check", TfDemoFile(), "--min", "steps"});
  EXPECT_EQ(form.exit_code, kUsage);
  ExpectOneErrorLine(form, "KEY=VALUE");
  ProcessResult none = RunStepscope({"check", TfDemoFile()});
  EXPECT_EQ(none.exit_code, kUsage);
  ExpectOneErrorLine(none, "no budgets");
  const std::string dir = FreshDir("check_bad_file");
  WriteBytes(dir + "/bad.budget", "step_ms <= 10\nwall_ms <= 3\n");
  ProcessResult file = RunStepscope({"check", TfDemoFile(), "--budget", dir + "/bad.budget"});
  EXPECT_EQ(file.exit_code, kUsage);
  ExpectOneErrorLine(file, "line 2: unknown budget key 'wall_ms'");
  ProcessResult missing = RunStepscope({"check", TfDemoFile(), "--budget", dir + "/none.budget"});
  EXPECT_EQ(missing.exit_code, kUsage);
  ExpectOneErrorLine(missing, "none.budget");
  ProcessResult profile = RunStepscope({"check", dir + "/no_such.xplane.pb", "--max", "step_ms=1"});
  EXPECT_EQ(profile.exit_code, kUsage);
  ExpectOneErrorLine(profile, "no_such.xplane.pb");
}

// One quantity, one number: what diff and check report for a profile is what its overview
// page shows (a TensorFlow GPU profile and an imported PyTorch trace).
TEST(CliDiffTest, DiffAndCheckShowTheOverviewsNumbers) {
  for (const std::string& path : {TfDemoFile(), TraceDir() + "/hta_sampled_rank-0.json.gz"}) {
    simdjson::dom::parser overview_parser, diff_parser, check_parser;
    ProcessResult overview = RunStepscope({"analyze", path, "--tool", "overview_page", "--format", "json"});
    ASSERT_EQ(overview.exit_code, kOk) << overview.err;
    simdjson::padded_string overview_json(overview.out);
    simdjson::dom::element page = overview_parser.parse(overview_json);
    double avg_step = 0, input_percent = 0;
    ASSERT_FALSE(page["avg_step_time_ms"].get(avg_step));
    ASSERT_FALSE(page["input_bound_percent"].get(input_percent));

    ProcessResult diff = RunStepscope({"diff", path, path, "--format", "json", "--table", "summary"});
    ASSERT_EQ(diff.exit_code, kOk) << diff.err;
    simdjson::padded_string diff_json(diff.out);
    for (simdjson::dom::element row : diff_parser.parse(diff_json).get_array()) {
      std::string_view metric;
      ASSERT_FALSE(row["metric"].get(metric));
      double a = -1, b = -2;
      if (metric != "step_time_mean_ms" && metric != "input_bound_percent") continue;
      ASSERT_FALSE(row["a"].get(a));
      ASSERT_FALSE(row["b"].get(b));
      EXPECT_EQ(a, metric == "step_time_mean_ms" ? avg_step : input_percent) << path << " " << metric;
      EXPECT_EQ(b, a);
    }

    ProcessResult check = RunStepscope({"check", path, "--max", "step_ms=1e9", "--max", "input_pct=100", "--format", "json"});
    ASSERT_EQ(check.exit_code, kOk) << check.err;
    simdjson::padded_string check_json(check.out);
    simdjson::dom::array budgets = check_parser.parse(check_json)["budgets"].get_array();
    double measured_step = 0, measured_input = 0;
    ASSERT_FALSE(budgets.at(0)["measured"].get(measured_step));
    ASSERT_FALSE(budgets.at(1)["measured"].get(measured_input));
    EXPECT_EQ(measured_step, avg_step) << path;
    EXPECT_EQ(measured_input, input_percent) << path;
  }
}

TEST(CliDiffTest, AProfileAgainstItselfChangesNothing) {
  ProcessResult r = RunStepscope({"diff", TfDemoFile(), TfDemoFile(), "--format", "json"});
  ASSERT_EQ(r.exit_code, kOk) << r.err;
  simdjson::dom::parser parser;
  simdjson::padded_string json(r.out);
  auto doc = parser.parse(json);
  ASSERT_FALSE(doc.error()) << r.out.substr(0, 300);
  std::string_view tool;
  ASSERT_FALSE(doc["tool"].get(tool));
  EXPECT_EQ(tool, "diff");
  int64_t rows = 0;
  for (auto row : doc["summary"].get_array()) {
    double delta = 1;
    if (row["delta"].get(delta) == simdjson::SUCCESS) {
      EXPECT_EQ(delta, 0.0);
    }
    ++rows;
  }
  EXPECT_GT(rows, 5);
  int64_t ops = 0;
  for (auto row : doc["ops"].get_array()) {
    std::string_view change;
    ASSERT_FALSE(row["change"].get(change));
    EXPECT_EQ(change, "matched");
    ++ops;
  }
  EXPECT_GT(ops, 0);
  int64_t kernels = 0;
  for (auto row : doc["kernels"].get_array()) {
    (void)row;
    ++kernels;
  }
  EXPECT_GT(kernels, 0) << "a GPU profile's kernels are compared too";
}

TEST(CliDiffTest, TwoImportedPyTorchRankTracesTextJsonAndCsv) {
  const std::string rank0 = TraceDir() + "/hta_sampled_rank-0.json.gz";
  const std::string rank1 = TraceDir() + "/hta_sampled_rank-1.json.gz";
  ProcessResult text = RunStepscope({"diff", rank0, rank1});
  ASSERT_EQ(text.exit_code, kOk) << text.err;
  EXPECT_THAT(text.out, HasSubstr("A: " + rank0));
  EXPECT_THAT(text.out, HasSubstr("Mean step time"));
  EXPECT_THAT(text.out, HasSubstr("Average step time by category"));
  EXPECT_THAT(text.out, HasSubstr("Ops whose self time changed most"));
  ProcessResult csv = RunStepscope({"diff", rank0, rank1, "--format", "csv", "--table", "kernels"});
  ASSERT_EQ(csv.exit_code, kOk) << csv.err;
  EXPECT_THAT(csv.out, StartsWith("kernel_name,change,a_total_time_ms,b_total_time_ms,delta_ms,delta_percent,"));
  ProcessResult json = RunStepscope({"diff", rank0, rank1, "--format", "json", "--table", "summary"});
  ASSERT_EQ(json.exit_code, kOk) << json.err;
  EXPECT_THAT(json.out, HasSubstr("\"metric\": \"step_time_mean_ms\""));
}

TEST(CliDiffTest, RunsOfALogdirAndUsageErrors) {
  const std::string logdir = FreshDir("diff_logdir");
  WriteBytes(logdir + "/plugins/profile/before/h1.xplane.pb", ReadBytes(TfDemoFile()));
  WriteBytes(logdir + "/plugins/profile/after/h1.xplane.pb", ReadBytes(TfDemoFile()));
  ProcessResult r = RunStepscope({"diff", logdir, logdir, "--run_a", "before", "--run_b", "after"});
  ASSERT_EQ(r.exit_code, kOk) << r.err;
  EXPECT_THAT(r.out, HasSubstr("A: run before (host h1)"));
  EXPECT_THAT(r.out, HasSubstr("B: run after (host h1)"));
  ProcessResult once = RunStepscope({"diff", logdir, "--run_a", "before", "--run_b", "after"});
  EXPECT_EQ(once.exit_code, kOk) << once.err;
  EXPECT_EQ(once.out, r.out) << "one logdir with --run_a and --run_b is the same comparison";
  ProcessResult newest = RunStepscope({"diff", logdir, logdir + "/plugins/profile/before"});
  ASSERT_EQ(newest.exit_code, kOk) << newest.err;
  EXPECT_THAT(newest.err, HasSubstr("choose with --run_a")) << "the choice made for the user is said";

  ProcessResult one = RunStepscope({"diff", TfDemoFile()});
  EXPECT_EQ(one.exit_code, kUsage);
  ExpectOneErrorLine(one, "expected two profiles");
  ProcessResult csv = RunStepscope({"diff", TfDemoFile(), TfDemoFile(), "--format", "csv"});
  EXPECT_EQ(csv.exit_code, kUsage);
  ExpectOneErrorLine(csv, "--table NAME");
  ProcessResult table = RunStepscope({"diff", TfDemoFile(), TfDemoFile(), "--table", "nope"});
  EXPECT_EQ(table.exit_code, kUsage);
  ExpectOneErrorLine(table, "tables: summary, step_time_breakdown, input_verdicts, ops, kernels");
  ProcessResult run = RunStepscope({"diff", logdir, logdir, "--run_a", "gone"});
  EXPECT_EQ(run.exit_code, kUsage);
  ExpectOneErrorLine(run, "no run 'gone'");
}

}  // namespace
}  // namespace stepscope::testing
