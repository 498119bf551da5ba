// Ground truth for the analyses (issue 3): examples/mnist_mlp times its own steps and its
// own wait for input with steady_clock at the boundaries of its `train` and
// `IteratorGetNext` events, and prints them. We run it badly input bound and with a fast
// input pipeline, analyse each profile with the real `stepscope analyze`, and hold the
// analysis to the program's numbers: average step time within 2 %, input share within 3
// points, and the verdict the program's own input share implies. `stepscope diff` of the
// two runs is held to the change the program measured between them.
#include <cmath>
#include <cstdio>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <simdjson.h>

#include "tests/integration/subprocess.h"
#include "tests/integration/test_util.h"

namespace stepscope::testing {
namespace {

// The TF Profiler's verdict thresholds (src/analysis/tools/input_pipeline.h), restated
// here on purpose: the test must not take the code under test's word for them.
constexpr double kHighlyPercent = 20.0;
constexpr double kModeratelyPercent = 5.0;
// The program and the recorder read the clock a few instructions apart; on a loaded
// machine a preemption between the two reads moves up to one time slice from one side of
// a boundary to the other. Within this distance of a threshold, both verdicts are right.
constexpr double kThresholdSlackPercent = 1.0;

struct ProgramNumbers {
  int64_t steps = 0;
  double mean_step_ms = 0;
  double mean_input_ms = 0;
  double input_percent = 0;
};

struct AnalysisNumbers {
  int64_t steps = 0;
  double avg_step_time_ms = 0;
  double input_bound_percent = 0;
  std::string verdict;
};

std::string VerdictFor(double input_percent) {
  if (input_percent >= kHighlyPercent) return "highly";
  if (input_percent >= kModeratelyPercent) return "moderately";
  return "not";
}

bool NearThreshold(double percent) {
  return std::fabs(percent - kHighlyPercent) < kThresholdSlackPercent ||
         std::fabs(percent - kModeratelyPercent) < kThresholdSlackPercent;
}

// "mnist_mlp: steps=40 first_step=0 last_step=39 mean_step_ms=12.107 mean_input_ms=6.474 input_percent=53.5"
bool ParseProgramLine(const std::string& out, ProgramNumbers* numbers) {
  static const std::regex kLine(
      R"(mnist_mlp: steps=(\d+) first_step=\d+ last_step=\d+ mean_step_ms=([0-9.]+) mean_input_ms=([0-9.]+) input_percent=([0-9.]+))");
  std::smatch m;
  if (!std::regex_search(out, m, kLine)) return false;
  numbers->steps = std::stoll(m[1]);
  numbers->mean_step_ms = std::stod(m[2]);
  numbers->mean_input_ms = std::stod(m[3]);
  numbers->input_percent = std::stod(m[4]);
  return true;
}

class AnalysisGroundTruthTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { dir_ = new std::string(FreshDir("ground_truth")); }
  static void TearDownTestSuite() {
    std::error_code ec;
    std::filesystem::remove_all(*dir_, ec);
    delete dir_;
  }

  // Runs mnist_mlp with a small generated dataset (shared by the tests) into `logdir`.
  ProgramNumbers RunProgram(const std::vector<std::string>& flags, const std::string& logdir) {
    std::vector<std::string> argv = {MNIST_MLP_PATH, "--log_every", "0", "--shards", "2", "--data_dir",
                                     *dir_ + "/data", "--logdir", logdir};
    argv.insert(argv.end(), flags.begin(), flags.end());
    std::string command;
    for (const std::string& a : argv) command += a + " ";
    ProcessResult run = RunProcess(argv);
    EXPECT_EQ(run.exit_code, 0) << command << "\n" << run.err;
    ProgramNumbers numbers;
    EXPECT_TRUE(ParseProgramLine(run.out, &numbers)) << command << "\n" << run.out;
    std::printf("$ %s\n%s", command.c_str(), run.out.substr(run.out.rfind("mnist_mlp: every step")).c_str());
    return numbers;
  }

  AnalysisNumbers Analyze(const std::string& logdir) {
    ProcessResult run = RunStepscope({"analyze", logdir, "--tool", "input_pipeline_analyzer", "--format", "json"});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    simdjson::dom::parser parser;
    simdjson::padded_string json(run.out);
    auto doc = parser.parse(json);
    EXPECT_FALSE(doc.error()) << run.out;
    AnalysisNumbers a;
    if (doc.error()) return a;
    std::string_view verdict;
    EXPECT_FALSE(doc["steps"].get(a.steps));
    EXPECT_FALSE(doc["avg_step_time_ms"].get(a.avg_step_time_ms));
    EXPECT_FALSE(doc["input_bound_percent"].get(a.input_bound_percent));
    EXPECT_FALSE(doc["input_bound_verdict"].get(verdict));
    a.verdict = std::string(verdict);
    std::printf("$ stepscope analyze %s --tool input_pipeline_analyzer --format json\n"
                "  steps %lld, avg_step_time_ms %.3f, input_bound_percent %.2f, input_bound_verdict %s\n",
                logdir.c_str(), static_cast<long long>(a.steps), a.avg_step_time_ms, a.input_bound_percent,
                a.verdict.c_str());
    return a;
  }

  static void ExpectAgreement(const ProgramNumbers& program, const AnalysisNumbers& analysis) {
    EXPECT_EQ(analysis.steps, program.steps);
    EXPECT_NEAR(analysis.avg_step_time_ms, program.mean_step_ms, 0.02 * program.mean_step_ms)
        << "average step time must be within 2 % of the program's own";
    EXPECT_NEAR(analysis.input_bound_percent, program.input_percent, 3.0)
        << "input share must be within 3 points of the program's own";
    if (!NearThreshold(program.input_percent)) {
      EXPECT_EQ(analysis.verdict, VerdictFor(program.input_percent))
          << "the program measured " << program.input_percent << " % input";
    }
  }

  static std::string* dir_;
};

std::string* AnalysisGroundTruthTest::dir_ = nullptr;

TEST_F(AnalysisGroundTruthTest, BadlyInputBoundRun) {
  // The whole pipeline (read, decode, augment) runs on the training thread inside GetNext.
  const std::string logdir = *dir_ + "/slow";
  ProgramNumbers program =
      RunProgram({"--steps", "40", "--train_examples", "2048", "--input_threads", "0", "--prefetch", "0"}, logdir);
  AnalysisNumbers analysis = Analyze(logdir);
  ExpectAgreement(program, analysis);
  // The configuration is input bound by construction; the analysis must say so.
  EXPECT_GE(program.input_percent, kHighlyPercent + kThresholdSlackPercent);
  EXPECT_EQ(analysis.verdict, "highly");
}

TEST_F(AnalysisGroundTruthTest, FastInputPipelineRun) {
  // Threads + prefetch + cache; the window starts after the first epoch (1024 examples =
  // 16 steps), when the cache is warm and the prefetch queue is full, as a user would
  // profile steady state (--profile_steps, like Keras' profile_batch).
  // The premise needs the input threads to get CPU time: on a machine loaded far beyond its
  // cores the program itself measures tens of percent of input wait. The run is then
  // repeated (at most three times); every run must still agree with the analysis.
  ProgramNumbers program;
  AnalysisNumbers analysis;
  for (int attempt = 0; attempt < 3; ++attempt) {
    const std::string logdir = *dir_ + "/fast" + std::to_string(attempt);
    program = RunProgram({"--steps", "80", "--profile_steps", "20,79", "--train_examples", "1024", "--input_threads",
                          "2", "--prefetch", "16", "--cache"},
                         logdir);
    analysis = Analyze(logdir);
    ExpectAgreement(program, analysis);
    EXPECT_EQ(analysis.steps, 60);
    if (program.input_percent < kModeratelyPercent - kThresholdSlackPercent) break;
  }
  // Not input bound by construction (0.2-0.3 % on a quiet machine).
  EXPECT_LT(program.input_percent, kModeratelyPercent - kThresholdSlackPercent);
  EXPECT_EQ(analysis.verdict, "not");
}

// Did the faster input pipeline help, by how much? `stepscope diff slow fast` must say what
// the program itself measured: the change of mean step time within 2 % of the program's
// change, the change of input share within 3 points.
TEST_F(AnalysisGroundTruthTest, DiffOfSlowAndFastRunsIsTheProgramsOwnChange) {
  const std::string slow_logdir = *dir_ + "/diff_slow";
  const std::string fast_logdir = *dir_ + "/diff_fast";
  ProgramNumbers slow = RunProgram(
      {"--steps", "40", "--train_examples", "2048", "--input_threads", "0", "--prefetch", "0"}, slow_logdir);
  ProgramNumbers fast = RunProgram({"--steps", "80", "--profile_steps", "20,79", "--train_examples", "1024",
                                    "--input_threads", "2", "--prefetch", "16", "--cache"},
                                   fast_logdir);
  ProcessResult run = RunStepscope({"diff", slow_logdir, fast_logdir, "--format", "json", "--table", "summary"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  simdjson::dom::parser parser;
  simdjson::padded_string json(run.out);
  auto rows = parser.parse(json).get_array();
  ASSERT_FALSE(rows.error()) << run.out;
  std::map<std::string, simdjson::dom::element> by_metric;
  for (simdjson::dom::element row : rows.value()) {
    std::string_view metric;
    ASSERT_FALSE(row["metric"].get(metric));
    by_metric[std::string(metric)] = row;
  }
  ASSERT_TRUE(by_metric.count("step_time_mean_ms") && by_metric.count("input_bound_percent")) << run.out;
  double step_a = 0, step_b = 0, step_delta = 0, step_delta_percent = 0, input_a = 0, input_b = 0, input_delta = 0;
  ASSERT_FALSE(by_metric["step_time_mean_ms"]["a"].get(step_a));
  ASSERT_FALSE(by_metric["step_time_mean_ms"]["b"].get(step_b));
  ASSERT_FALSE(by_metric["step_time_mean_ms"]["delta"].get(step_delta));
  ASSERT_FALSE(by_metric["step_time_mean_ms"]["delta_percent"].get(step_delta_percent));
  ASSERT_FALSE(by_metric["input_bound_percent"]["a"].get(input_a));
  ASSERT_FALSE(by_metric["input_bound_percent"]["b"].get(input_b));
  ASSERT_FALSE(by_metric["input_bound_percent"]["delta"].get(input_delta));

  const double program_delta = fast.mean_step_ms - slow.mean_step_ms;
  const double program_delta_percent = 100.0 * program_delta / slow.mean_step_ms;
  const double program_input_delta = fast.input_percent - slow.input_percent;
  std::printf("$ stepscope diff %s %s --format json --table summary\n"
              "  mean step time: diff %.3f -> %.3f ms, change %+.3f ms (%+.1f %%); program %.3f -> %.3f ms, "
              "change %+.3f ms (%+.1f %%)\n"
              "  input share:    diff %.1f -> %.1f %%, change %+.1f points; program %.1f -> %.1f %%, change %+.1f points\n",
              slow_logdir.c_str(), fast_logdir.c_str(), step_a, step_b, step_delta, step_delta_percent,
              slow.mean_step_ms, fast.mean_step_ms, program_delta, program_delta_percent, input_a, input_b, input_delta,
              slow.input_percent, fast.input_percent, program_input_delta);
  EXPECT_NEAR(step_delta, program_delta, 0.02 * std::fabs(program_delta))
      << "the step time change must be within 2 % of the program's own";
  EXPECT_NEAR(step_delta_percent, program_delta_percent, 2.0);
  EXPECT_NEAR(input_delta, program_input_delta, 3.0) << "the input share change must be within 3 points";
  // Not asserted: that the fast configuration is faster. On a quiet machine it is (about
  // -40 % step time, -40 points of input); when other work takes the input threads' cores
  // it may not be, and diff must then report what the program measured all the same.
}

}  // namespace
}  // namespace stepscope::testing
