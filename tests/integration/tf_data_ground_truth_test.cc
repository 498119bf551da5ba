// Ground truth by construction for tf_data_bottleneck_analysis (issue 16): examples/mnist_mlp
// with a deliberately slow decode (--slow_decode_us sleeps in every decode, inside the Map
// stage) must be named input bound with the Map stage as the bottleneck. Parallelising the
// map and prefetching (--input_threads 4 --prefetch 4) must move the bottleneck off the
// sequential map or end the input-bound verdict, and cut the wait per fetch. The advisor
// and the input pipeline analyzer name the slow run's stage. The assertions are on structure and ratios with margins, not on exact times: the
// decode sleeps, so four workers overlap their sleeps even on a loaded two-core machine.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <simdjson.h>

#include "tests/integration/subprocess.h"
#include "tests/integration/test_util.h"

namespace stepscope::testing {
namespace {

struct Bottleneck {
  bool input_bound = false;
  std::string stage;  // empty when none
  std::string kind;
  double share_of_step_percent = 0;  // the top pipeline's
  double avg_latency_us = 0;         // its average fetch
  std::string root;
};

class TfDataGroundTruthTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { dir_ = new std::string(FreshDir("tf_data_ground_truth")); }
  static void TearDownTestSuite() {
    std::error_code ec;
    std::filesystem::remove_all(*dir_, ec);
    delete dir_;
  }

  void RunProgram(const std::vector<std::string>& flags, const std::string& logdir) {
    std::vector<std::string> argv = {MNIST_MLP_PATH, "--log_every", "0", "--shards", "2", "--data_dir",
                                     *dir_ + "/data", "--train_examples", "2048", "--steps", "20",
                                     "--logdir", logdir};
    argv.insert(argv.end(), flags.begin(), flags.end());
    ProcessResult run = RunProcess(argv);
    ASSERT_EQ(run.exit_code, 0) << run.err;
  }

  Bottleneck Analyze(const std::string& logdir) {
    ProcessResult run = RunStepscope({"analyze", logdir, "--tool", "tf_data_bottleneck_analysis", "--format", "json"});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    std::printf("%s\n", run.out.substr(0, 600).c_str());
    simdjson::dom::parser parser;
    simdjson::padded_string json(run.out);
    auto doc = parser.parse(json);
    Bottleneck b;
    if (doc.error()) {
      ADD_FAILURE() << run.out;
      return b;
    }
    EXPECT_FALSE(doc["iterator_bound"].get(b.input_bound));
    simdjson::dom::element bottleneck = doc["bottleneck"];
    if (!bottleneck.is_null()) {
      std::string_view stage, kind;
      EXPECT_FALSE(bottleneck["stage"].get(stage));
      EXPECT_FALSE(bottleneck["kind"].get(kind));
      b.stage = stage;
      b.kind = kind;
    }
    simdjson::dom::array pipelines;
    EXPECT_FALSE(doc["pipelines"].get(pipelines));
    if (pipelines.size() > 0) {
      std::string_view root;
      EXPECT_FALSE(pipelines.at(0)["root"].get(root));
      b.root = root;
      EXPECT_FALSE(pipelines.at(0)["step_time_percent"].get(b.share_of_step_percent));
      EXPECT_FALSE(pipelines.at(0)["avg_latency_us"].get(b.avg_latency_us));
    }
    return b;
  }

  // The advisor's input_bound finding and the input pipeline analyzer's link to the stage.
  void ExpectLinksTo(const std::string& logdir, const std::string& stage) {
    ProcessResult advisor = RunStepscope({"analyze", logdir, "--tool", "advisor", "--format", "json"});
    ASSERT_EQ(advisor.exit_code, 0) << advisor.err;
    simdjson::dom::parser parser;
    simdjson::padded_string advisor_json(advisor.out);
    simdjson::dom::array findings;
    ASSERT_FALSE(parser.parse(advisor_json)["findings"].get(findings)) << advisor.out;
    bool found = false;
    for (simdjson::dom::element f : findings) {
      std::string_view id, title, tool;
      if (f["id"].get(id) || id != "input_bound") continue;
      found = true;
      EXPECT_FALSE(f["title"].get(title));
      EXPECT_FALSE(f["tool"].get(tool));
      EXPECT_NE(std::string(title).find("the bottleneck is stage " + stage), std::string::npos) << title;
      EXPECT_EQ(tool, "tf_data_bottleneck_analysis");
    }
    EXPECT_TRUE(found) << advisor.out;

    ProcessResult input = RunStepscope({"analyze", logdir, "--tool", "input_pipeline_analyzer", "--format", "json"});
    ASSERT_EQ(input.exit_code, 0) << input.err;
    simdjson::dom::parser input_parser;
    simdjson::padded_string input_json(input.out);
    std::string_view linked;
    ASSERT_FALSE(input_parser.parse(input_json)["pipeline_bottleneck"]["stage"].get(linked)) << input.out;
    EXPECT_EQ(linked, stage);
  }

  static std::string* dir_;
};
std::string* TfDataGroundTruthTest::dir_ = nullptr;

TEST_F(TfDataGroundTruthTest, SlowDecodeIsNamedAndParallelPrefetchMovesIt) {
  const std::string slow_logdir = *dir_ + "/slow";
  RunProgram({"--slow_decode_us", "200", "--input_threads", "0", "--prefetch", "0"}, slow_logdir);
  const Bottleneck slow = Analyze(slow_logdir);
  EXPECT_TRUE(slow.input_bound);
  EXPECT_EQ(slow.root, "Iterator::Batch");
  EXPECT_EQ(slow.stage, "Iterator::Batch::Map") << "the decode runs in the Map stage";
  EXPECT_EQ(slow.kind, "sequential_map");
  EXPECT_GT(slow.share_of_step_percent, 30.0) << "64 decodes of >= 200 µs each per step, on the training thread";
  ExpectLinksTo(slow_logdir, "Iterator::Batch::Map");

  const std::string fixed_logdir = *dir_ + "/fixed";
  RunProgram({"--slow_decode_us", "200", "--input_threads", "4", "--prefetch", "4"}, fixed_logdir);
  const Bottleneck fixed = Analyze(fixed_logdir);
  EXPECT_EQ(fixed.root, "Iterator::Prefetch");
  EXPECT_TRUE(!fixed.input_bound || (fixed.stage != slow.stage && fixed.kind != "sequential_map"))
      << "bottleneck still " << fixed.stage;
  // The training step is short next to 64 slow decodes, so the share may stay high; the
  // wait per fetch must fall (four workers sleep at once: ideally to a quarter).
  EXPECT_LT(fixed.avg_latency_us, 0.6 * slow.avg_latency_us)
      << "four workers sleeping in parallel and a prefetch buffer must cut the wait per fetch";
  EXPECT_LE(fixed.share_of_step_percent, slow.share_of_step_percent + 1.0);
}

}  // namespace
}  // namespace stepscope::testing
