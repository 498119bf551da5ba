#include "examples/mnist_mlp/trainer.h"

#include <cmath>
#include <memory>
#include <vector>

#include "examples/mnist_mlp/dataset.h"
#include "examples/mnist_mlp/test_util.h"
#include "gtest/gtest.h"

namespace mnist_mlp {
namespace {

double MeanLoss(const std::vector<StepRecord>& records, size_t begin, size_t end) {
  double sum = 0;
  for (size_t i = begin; i < end; ++i) sum += records[i].loss;
  return sum / static_cast<double>(end - begin);
}

// The example must do real learning: over 100 steps of the real pipeline (elastic
// augmentation included) the loss falls well below its starting value.
TEST(TrainerTest, LossDecreasesOver100Steps) {
  ScopedTempDir dir;
  const DatasetSpec spec{.num_examples = 3000, .num_shards = 2, .seed = 20240601};
  ASSERT_TRUE(EnsureDataset(dir.path(), spec).ok());
  stepscope::StatusOr<std::unique_ptr<Dataset>> dataset = Dataset::Open(dir.path(), spec);
  ASSERT_TRUE(dataset.ok());
  stepscope::StatusOr<std::unique_ptr<InputPipeline>> pipeline =
      InputPipeline::Create(dataset->get(), {.batch_size = 32, .input_threads = 2, .prefetch = 2,
                                             .augmentation = Augmentation::kElastic});
  ASSERT_TRUE(pipeline.ok());
  Mlp model(MlpConfig{.hidden_units = 128});

  int callbacks = 0;
  stepscope::StatusOr<std::vector<StepRecord>> records =
      RunTraining(pipeline->get(), &model, 100, [&](const StepRecord& record) { EXPECT_EQ(record.step, callbacks++); });
  ASSERT_TRUE(records.ok()) << records.status().ToString();
  ASSERT_EQ(records->size(), 100u);
  EXPECT_EQ(callbacks, 100);

  const double first = MeanLoss(*records, 0, 10);
  const double last = MeanLoss(*records, 90, 100);
  EXPECT_NEAR(first, std::log(10.0), 1.0) << "an untrained 10-class model starts near ln(10)";
  EXPECT_LT(last, 0.5 * first) << "loss " << first << " -> " << last;
  int correct = 0, examples = 0;
  for (size_t i = 90; i < 100; ++i) correct += (*records)[i].correct, examples += (*records)[i].batch_size;
  EXPECT_GT(correct, examples / 2) << "accuracy after 100 steps";

  for (const StepRecord& record : *records) {
    EXPECT_GE(record.input_ms, 0);
    EXPECT_GE(record.step_ms, record.input_ms);
    EXPECT_EQ(record.batch_size, 32);
  }
}

TEST(TrainerTest, SummarizeStepsAveragesTheWindow) {
  std::vector<StepRecord> records;
  for (int64_t step = 0; step < 5; ++step) {
    records.push_back({.step = step, .step_ms = 10.0 * (step + 1), .input_ms = 1.0 * (step + 1)});
  }
  TimingSummary all = SummarizeSteps(records, 0, 100);
  EXPECT_EQ(all.steps, 5);
  EXPECT_DOUBLE_EQ(all.mean_step_ms, 30.0);
  EXPECT_DOUBLE_EQ(all.mean_input_ms, 3.0);
  EXPECT_DOUBLE_EQ(all.input_percent, 10.0);

  TimingSummary window = SummarizeSteps(records, 3, 4);  // steps 3 and 4: 40 + 50 ms
  EXPECT_EQ(window.steps, 2);
  EXPECT_DOUBLE_EQ(window.mean_step_ms, 45.0);
  EXPECT_DOUBLE_EQ(window.mean_input_ms, 4.5);

  TimingSummary empty = SummarizeSteps(records, 10, 20);
  EXPECT_EQ(empty.steps, 0);
  EXPECT_EQ(empty.input_percent, 0);
}

}  // namespace
}  // namespace mnist_mlp
