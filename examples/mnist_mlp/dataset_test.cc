#include "examples/mnist_mlp/dataset.h"

#include <array>
#include <filesystem>
#include <fstream>
#include <vector>

#include "examples/mnist_mlp/dataset_generator.h"
#include "examples/mnist_mlp/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mnist_mlp {
namespace {

using Image = std::array<uint8_t, kImagePixels>;

TEST(DatasetGeneratorTest, ExamplesAreAFunctionOfSeedAndIndex) {
  Image a{}, b{}, c{}, d{};
  const uint8_t label_a = RenderExample(7, 123, a.data());
  const uint8_t label_b = RenderExample(7, 123, b.data());
  RenderExample(7, 124, c.data());
  RenderExample(8, 123, d.data());
  EXPECT_EQ(label_a, label_b);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_NE(a, d);
}

TEST(DatasetGeneratorTest, ClassesAreBalancedAndHaveInk) {
  std::array<int, kNumClasses> count{};
  Image image{};
  for (int i = 0; i < 2000; ++i) {
    const uint8_t label = RenderExample(1, i, image.data());
    ASSERT_LT(label, kNumClasses);
    ++count[label];
    int ink = 0;
    for (uint8_t v : image) ink += v > 128 ? 1 : 0;
    // A digit covers roughly 5-30 % of an MNIST image.
    EXPECT_GT(ink, 20) << "example " << i;
    EXPECT_LT(ink, 400) << "example " << i;
  }
  for (int c = 0; c < kNumClasses; ++c) {
    EXPECT_GT(count[c], 140) << "class " << c;
    EXPECT_LT(count[c], 260) << "class " << c;
  }
}

// The dataset must be learnable: even a nearest-class-mean classifier on raw pixels,
// fitted on 2000 examples, must beat chance by far on the next 1000.
TEST(DatasetGeneratorTest, ClassesAreSeparable) {
  std::vector<std::vector<double>> mean(kNumClasses, std::vector<double>(kImagePixels, 0.0));
  std::array<int, kNumClasses> count{};
  Image image{};
  for (int i = 0; i < 2000; ++i) {
    const uint8_t label = RenderExample(1, i, image.data());
    ++count[label];
    for (int p = 0; p < kImagePixels; ++p) mean[label][p] += image[p];
  }
  for (int c = 0; c < kNumClasses; ++c) {
    for (double& v : mean[c]) v /= count[c];
  }
  int correct = 0;
  for (int i = 2000; i < 3000; ++i) {
    const uint8_t label = RenderExample(1, i, image.data());
    int best = 0;
    double best_distance = 1e300;
    for (int c = 0; c < kNumClasses; ++c) {
      double distance = 0;
      for (int p = 0; p < kImagePixels; ++p) distance += (image[p] - mean[c][p]) * (image[p] - mean[c][p]);
      if (distance < best_distance) best_distance = distance, best = c;
    }
    correct += best == label ? 1 : 0;
  }
  EXPECT_GT(correct, 500) << "nearest-mean accuracy " << correct / 10.0 << " % (chance is 10 %)";
  EXPECT_LT(correct, 1000) << "the task should not be trivial";
}

TEST(DatasetTest, GeneratesOnceAndReadsWhatWasGenerated) {
  ScopedTempDir dir;
  DatasetSpec spec{.num_examples = 250, .num_shards = 3, .seed = 5};
  bool generated = false;
  ASSERT_TRUE(EnsureDataset(dir.path(), spec, &generated).ok());
  EXPECT_TRUE(generated);
  ASSERT_TRUE(EnsureDataset(dir.path(), spec, &generated).ok());
  EXPECT_FALSE(generated) << "a complete dataset must be reused";

  // Shards split the examples into near-equal slices of real MNIST-format files.
  EXPECT_EQ(ShardBegin(spec, 0), 0u);
  EXPECT_EQ(ShardBegin(spec, 1), 83u);
  EXPECT_EQ(ShardBegin(spec, 3), 250u);
  EXPECT_EQ(std::filesystem::file_size(ImageShardPath(dir.path(), spec, 1)), 16u + 83u * 784u);
  EXPECT_EQ(std::filesystem::file_size(LabelShardPath(dir.path(), spec, 2)), 8u + 84u);

  stepscope::StatusOr<std::unique_ptr<Dataset>> dataset = Dataset::Open(dir.path(), spec);
  ASSERT_TRUE(dataset.ok()) << dataset.status().ToString();
  EXPECT_EQ((*dataset)->num_examples(), 250u);
  Image read{}, expected{};
  for (uint64_t i : {0u, 1u, 82u, 83u, 84u, 165u, 166u, 249u}) {
    uint8_t label = 255;
    ASSERT_TRUE((*dataset)->Read(i, read.data(), &label).ok()) << i;
    EXPECT_EQ(label, RenderExample(spec.seed, i, expected.data())) << i;
    EXPECT_EQ(read, expected) << i;
  }
  uint8_t label;
  EXPECT_EQ((*dataset)->Read(250, read.data(), &label).code(), stepscope::StatusCode::kInvalidArgument);
}

TEST(DatasetTest, RegeneratesWhenAShardIsDamagedOrTheSpecChanges) {
  ScopedTempDir dir;
  DatasetSpec spec{.num_examples = 40, .num_shards = 2, .seed = 5};
  ASSERT_TRUE(EnsureDataset(dir.path(), spec).ok());

  // Truncate one shard: opening fails, EnsureDataset repairs it.
  std::filesystem::resize_file(ImageShardPath(dir.path(), spec, 1), 100);
  EXPECT_FALSE(Dataset::Open(dir.path(), spec).ok());
  bool generated = false;
  ASSERT_TRUE(EnsureDataset(dir.path(), spec, &generated).ok());
  EXPECT_TRUE(generated);
  EXPECT_TRUE(Dataset::Open(dir.path(), spec).ok());

  // A missing label shard.
  std::filesystem::remove(LabelShardPath(dir.path(), spec, 0));
  ASSERT_TRUE(EnsureDataset(dir.path(), spec, &generated).ok());
  EXPECT_TRUE(generated);

  // Another seed means other images: regenerate even though all sizes match.
  spec.seed = 6;
  ASSERT_TRUE(EnsureDataset(dir.path(), spec, &generated).ok());
  EXPECT_TRUE(generated);
  stepscope::StatusOr<std::unique_ptr<Dataset>> dataset = Dataset::Open(dir.path(), spec);
  ASSERT_TRUE(dataset.ok());
  Image read{}, expected{};
  uint8_t label;
  ASSERT_TRUE((*dataset)->Read(3, read.data(), &label).ok());
  RenderExample(6, 3, expected.data());
  EXPECT_EQ(read, expected);
}

TEST(DatasetTest, RejectsSpecsWithoutAnExamplePerShard) {
  ScopedTempDir dir;
  EXPECT_EQ(EnsureDataset(dir.path(), {.num_examples = 2, .num_shards = 3}).code(),
            stepscope::StatusCode::kInvalidArgument);
  EXPECT_EQ(EnsureDataset(dir.path(), {.num_examples = 2, .num_shards = 0}).code(),
            stepscope::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace mnist_mlp
