#include "examples/mnist_mlp/pipeline.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "examples/mnist_mlp/dataset_generator.h"
#include "examples/mnist_mlp/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mnist_mlp {
namespace {

constexpr uint32_t kExamples = 300;
constexpr int kBatchSize = 32;

class PipelineTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new ScopedTempDir();
    ASSERT_TRUE(EnsureDataset(dir_->path(), Spec()).ok());
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static DatasetSpec Spec() { return {.num_examples = kExamples, .num_shards = 3, .seed = 9}; }

  void SetUp() override {
    stepscope::StatusOr<std::unique_ptr<Dataset>> dataset = Dataset::Open(dir_->path(), Spec());
    ASSERT_TRUE(dataset.ok()) << dataset.status().ToString();
    dataset_ = std::move(dataset).value();
  }

  std::unique_ptr<InputPipeline> MakePipeline(PipelineOptions options) {
    options.batch_size = kBatchSize;
    stepscope::StatusOr<std::unique_ptr<InputPipeline>> pipeline = InputPipeline::Create(dataset_.get(), options);
    EXPECT_TRUE(pipeline.ok()) << pipeline.status().ToString();
    return pipeline.ok() ? std::move(pipeline).value() : nullptr;
  }

  // The first `count` batches of a pipeline with these options.
  std::vector<Batch> TakeBatches(const PipelineOptions& options, int count, PipelineCounters* counters = nullptr) {
    std::unique_ptr<InputPipeline> pipeline = MakePipeline(options);
    std::vector<Batch> batches;
    if (pipeline == nullptr) return batches;
    for (int i = 0; i < count; ++i) {
      Batch batch;
      stepscope::Status status = pipeline->GetNext(&batch);
      EXPECT_TRUE(status.ok()) << status.ToString();
      batches.push_back(std::move(batch));
    }
    if (counters != nullptr) *counters = pipeline->counters();
    return batches;
  }

  static ScopedTempDir* dir_;
  std::unique_ptr<Dataset> dataset_;
};

ScopedTempDir* PipelineTest::dir_ = nullptr;

struct Mode {
  const char* name;
  int input_threads;
  int prefetch;
  bool cache;
};
const Mode kModes[] = {
    {"sync", 0, 0, false},         {"sync_cache", 0, 0, true},          {"parallel_map", 3, 0, false},
    {"prefetch", 0, 2, false},     {"parallel_prefetch", 4, 4, false},  {"fast", 4, 4, true},
};

// Two and a half epochs: enough to cover epoch boundaries inside a batch and cache hits.
constexpr int kBatchesFor2Point5Epochs = (kExamples * 5 / 2 + kBatchSize - 1) / kBatchSize;

TEST_F(PipelineTest, EveryExampleExactlyOncePerEpochInEveryMode) {
  for (const Mode& mode : kModes) {
    SCOPED_TRACE(mode.name);
    PipelineOptions options{.input_threads = mode.input_threads, .prefetch = mode.prefetch, .cache = mode.cache};
    const std::vector<Batch> batches = TakeBatches(options, kBatchesFor2Point5Epochs);
    std::vector<uint32_t> stream;
    for (size_t i = 0; i < batches.size(); ++i) {
      ASSERT_EQ(batches[i].index, static_cast<int64_t>(i));
      ASSERT_EQ(batches[i].size(), kBatchSize);
      stream.insert(stream.end(), batches[i].example_ids.begin(), batches[i].example_ids.end());
    }
    ASSERT_GE(stream.size(), 2 * kExamples);
    for (int epoch = 0; epoch < 2; ++epoch) {
      std::vector<uint32_t> ids(stream.begin() + epoch * kExamples, stream.begin() + (epoch + 1) * kExamples);
      std::sort(ids.begin(), ids.end());
      for (uint32_t i = 0; i < kExamples; ++i) ASSERT_EQ(ids[i], i) << "epoch " << epoch;
    }
  }
}

TEST_F(PipelineTest, EpochsAreShuffledDifferently) {
  const std::vector<Batch> batches = TakeBatches({}, kBatchesFor2Point5Epochs);
  std::vector<uint32_t> stream;
  for (const Batch& batch : batches) stream.insert(stream.end(), batch.example_ids.begin(), batch.example_ids.end());
  const std::vector<uint32_t> epoch0(stream.begin(), stream.begin() + kExamples);
  const std::vector<uint32_t> epoch1(stream.begin() + kExamples, stream.begin() + 2 * kExamples);
  EXPECT_NE(epoch0, epoch1);
  std::vector<uint32_t> identity(kExamples);
  for (uint32_t i = 0; i < kExamples; ++i) identity[i] = i;
  EXPECT_NE(epoch0, identity);

  const std::vector<Batch> unshuffled = TakeBatches({.shuffle = false}, 2);
  EXPECT_EQ(unshuffled[1].example_ids[0], static_cast<uint32_t>(kBatchSize));
}

// Threads, prefetching and the cache change when batches are made, never what is in them.
TEST_F(PipelineTest, BatchesAreIdenticalInEveryMode) {
  const std::vector<Batch> reference = TakeBatches({}, kBatchesFor2Point5Epochs);
  for (const Mode& mode : kModes) {
    SCOPED_TRACE(mode.name);
    PipelineOptions options{.input_threads = mode.input_threads, .prefetch = mode.prefetch, .cache = mode.cache};
    const std::vector<Batch> batches = TakeBatches(options, kBatchesFor2Point5Epochs);
    ASSERT_EQ(batches.size(), reference.size());
    for (size_t i = 0; i < batches.size(); ++i) {
      ASSERT_EQ(batches[i].example_ids, reference[i].example_ids) << "batch " << i;
      ASSERT_EQ(batches[i].labels, reference[i].labels) << "batch " << i;
      ASSERT_EQ(batches[i].images, reference[i].images) << "batch " << i;  // bit-identical floats
    }
  }
}

TEST_F(PipelineTest, LabelsMatchTheDatasetAndImagesAreStandardised) {
  const std::vector<Batch> batches = TakeBatches({.augmentation = Augmentation::kNone}, 3);
  for (const Batch& batch : batches) {
    double sum = 0, sum_squares = 0;
    for (int row = 0; row < batch.size(); ++row) {
      uint8_t image[kImagePixels];
      EXPECT_EQ(batch.labels[row], RenderExample(Spec().seed, batch.example_ids[row], image));
    }
    for (float v : batch.images) sum += v, sum_squares += double{v} * v;
    const double n = static_cast<double>(batch.images.size());
    const double mean = sum / n, stddev = std::sqrt(sum_squares / n - mean * mean);
    // MNIST's mean/std applied to MNIST-like digits: roughly zero mean, unit variance.
    EXPECT_NEAR(mean, 0.0, 0.5);
    EXPECT_NEAR(stddev, 1.0, 0.5);
  }
}

TEST_F(PipelineTest, AugmentationDiffersPerEpochButNotPerRun) {
  PipelineOptions options{.shuffle = false, .augmentation = Augmentation::kElastic};
  // With shuffle off, example 0 sits at positions 0, N, 2N, ...
  std::unique_ptr<InputPipeline> pipeline = MakePipeline(options);
  ASSERT_NE(pipeline, nullptr);
  std::vector<float> first_epoch_row0, second_epoch_row0;
  Batch batch;
  for (int position = 0; position < 2 * static_cast<int>(kExamples); position += kBatchSize) {
    ASSERT_TRUE(pipeline->GetNext(&batch).ok());
    for (int row = 0; row < batch.size(); ++row) {
      if (batch.example_ids[row] != 0) continue;
      std::vector<float> image(batch.images.begin() + row * kImagePixels,
                               batch.images.begin() + (row + 1) * kImagePixels);
      (first_epoch_row0.empty() ? first_epoch_row0 : second_epoch_row0) = image;
    }
  }
  ASSERT_FALSE(first_epoch_row0.empty());
  ASSERT_FALSE(second_epoch_row0.empty());
  EXPECT_NE(first_epoch_row0, second_epoch_row0) << "example 0 must be augmented differently each epoch";
}

TEST_F(PipelineTest, CacheReadsEachRecordOnce) {
  PipelineCounters counters;
  TakeBatches({.cache = true}, kBatchesFor2Point5Epochs, &counters);
  const uint64_t positions = uint64_t{kBatchesFor2Point5Epochs} * kBatchSize;
  EXPECT_EQ(counters.records_read, kExamples);
  EXPECT_EQ(counters.cache_hits, positions - kExamples);

  TakeBatches({.cache = false}, kBatchesFor2Point5Epochs, &counters);
  EXPECT_EQ(counters.records_read, positions);
  EXPECT_EQ(counters.cache_hits, 0u);

  // Threads may race to decode an example whose slot is being written; never more than
  // a handful of extra reads, and never fewer than one read per example.
  TakeBatches({.input_threads = 4, .prefetch = 4, .cache = true}, kBatchesFor2Point5Epochs, &counters);
  EXPECT_GE(counters.records_read, kExamples);
  EXPECT_LE(counters.records_read, kExamples + 16);
  // The prefetch thread may have built up to prefetch + 1 batches beyond those taken.
  EXPECT_GE(counters.records_read + counters.cache_hits, positions);
  EXPECT_LE(counters.records_read + counters.cache_hits, positions + 5 * kBatchSize);
}

TEST_F(PipelineTest, InputCostRepeatsWorkWithoutChangingTheResult) {
  const std::vector<Batch> once = TakeBatches({}, 2);
  const std::vector<Batch> thrice = TakeBatches({.input_cost = 3}, 2);
  EXPECT_EQ(once[1].images, thrice[1].images);
}

TEST_F(PipelineTest, RejectsBadOptions) {
  for (PipelineOptions options : {PipelineOptions{.batch_size = 0}, PipelineOptions{.input_threads = -1},
                                  PipelineOptions{.prefetch = -1}, PipelineOptions{.input_cost = 0},
                                  PipelineOptions{.read_delay_us = -5}}) {
    stepscope::StatusOr<std::unique_ptr<InputPipeline>> pipeline = InputPipeline::Create(dataset_.get(), options);
    EXPECT_EQ(pipeline.status().code(), stepscope::StatusCode::kInvalidArgument);
  }
}

// A read error (here: a shard truncated while the pipeline runs) reaches GetNext in every
// mode instead of hanging or crashing, and stays reported.
TEST(PipelineErrorTest, ReadErrorsReachTheConsumer) {
  for (const Mode& mode : kModes) {
    SCOPED_TRACE(mode.name);
    ScopedTempDir dir;
    const DatasetSpec spec{.num_examples = 64, .num_shards = 1, .seed = 2};
    ASSERT_TRUE(EnsureDataset(dir.path(), spec).ok());
    stepscope::StatusOr<std::unique_ptr<Dataset>> dataset = Dataset::Open(dir.path(), spec);
    ASSERT_TRUE(dataset.ok());
    std::filesystem::resize_file(ImageShardPath(dir.path(), spec, 0), 16 + 10 * kImagePixels);
    PipelineOptions options{.batch_size = 16, .input_threads = mode.input_threads, .prefetch = mode.prefetch,
                            .cache = mode.cache, .shuffle = false};
    stepscope::StatusOr<std::unique_ptr<InputPipeline>> pipeline = InputPipeline::Create(dataset->get(), options);
    ASSERT_TRUE(pipeline.ok());
    Batch batch;
    stepscope::Status status = (*pipeline)->GetNext(&batch);  // examples 0..15: 10..15 are gone
    EXPECT_EQ(status.code(), stepscope::StatusCode::kDataLoss) << status.ToString();
    EXPECT_THAT(status.message(), ::testing::HasSubstr("unexpected end of file"));
    if (mode.prefetch > 0) {
      EXPECT_FALSE((*pipeline)->GetNext(&batch).ok()) << "the error must stay reported";
    }
  }
}

// Destroying a pipeline whose prefetch queue is full, or that never delivered a batch,
// must not hang (the test's timeout would catch it).
TEST_F(PipelineTest, ShutsDownWithBatchesInFlight) {
  for (int i = 0; i < 5; ++i) {
    std::unique_ptr<InputPipeline> pipeline = MakePipeline({.input_threads = 2, .prefetch = 3});
    ASSERT_NE(pipeline, nullptr);
    if (i % 2 == 1) {
      Batch batch;
      ASSERT_TRUE(pipeline->GetNext(&batch).ok());
    }
  }
}

}  // namespace
}  // namespace mnist_mlp
