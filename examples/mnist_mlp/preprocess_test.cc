#include "examples/mnist_mlp/preprocess.h"

#include <algorithm>
#include <array>
#include <set>
#include <cmath>
#include <vector>

#include "examples/mnist_mlp/random.h"
#include "gtest/gtest.h"

namespace mnist_mlp {
namespace {

using RawImage = std::array<uint8_t, kImagePixels>;
using FloatImage = std::array<float, kImagePixels>;

uint8_t ReferenceMedian(const RawImage& image, int r, int c) {
  std::vector<uint8_t> window;
  for (int dr = -1; dr <= 1; ++dr) {
    for (int dc = -1; dc <= 1; ++dc) {
      const int rr = r + dr, cc = c + dc;
      window.push_back((rr < 0 || rr >= kImageRows || cc < 0 || cc >= kImageCols) ? 0 : image[rr * kImageCols + cc]);
    }
  }
  std::sort(window.begin(), window.end());
  return window[4];
}

TEST(PreprocessTest, MedianFilterMatchesASortingReference) {
  Random random(5);
  for (int trial = 0; trial < 50; ++trial) {
    RawImage image{}, filtered{};
    // Mixed content: random bytes, and few distinct values (many ties).
    for (uint8_t& v : image) v = trial % 2 == 0 ? static_cast<uint8_t>(random.NextU64()) : (random.UniformInt(3) * 120);
    MedianFilter3x3(image.data(), filtered.data());
    for (int r = 0; r < kImageRows; ++r) {
      for (int c = 0; c < kImageCols; ++c) {
        ASSERT_EQ(filtered[r * kImageCols + c], ReferenceMedian(image, r, c)) << "trial " << trial << " at " << r << "," << c;
      }
    }
  }
}

TEST(PreprocessTest, MedianFilterRemovesSpecklesButKeepsStrokes) {
  RawImage image{}, filtered{};
  image[3 * kImageCols + 3] = 255;  // an isolated speckle
  for (int r = 5; r < 20; ++r) image[r * kImageCols + 14] = image[r * kImageCols + 15] = 255;  // 2 px stroke
  MedianFilter3x3(image.data(), filtered.data());
  EXPECT_EQ(filtered[3 * kImageCols + 3], 0);
  for (int r = 6; r < 19; ++r) EXPECT_EQ(filtered[r * kImageCols + 14], 255) << r;
}

// Moments of a decoded image (back on the [0, 1] pixel scale).
struct Moments {
  double mean_x, mean_y, cov_xy, var_y;
};
Moments ComputeMoments(const FloatImage& decoded) {
  double mass = 0, sx = 0, sy = 0;
  for (int r = 0; r < kImageRows; ++r) {
    for (int c = 0; c < kImageCols; ++c) {
      const double v = std::max(0.0, decoded[r * kImageCols + c] * 0.3081 + 0.1307);
      mass += v, sx += v * c, sy += v * r;
    }
  }
  Moments m{sx / mass, sy / mass, 0, 0};
  for (int r = 0; r < kImageRows; ++r) {
    for (int c = 0; c < kImageCols; ++c) {
      const double v = std::max(0.0, decoded[r * kImageCols + c] * 0.3081 + 0.1307);
      m.cov_xy += v * (c - m.mean_x) * (r - m.mean_y);
      m.var_y += v * (r - m.mean_y) * (r - m.mean_y);
    }
  }
  return m;
}

// Deskewing makes a slanted, off-centre stroke upright and centred.
TEST(PreprocessTest, DecodeDeskewsAndCentres) {
  RawImage raw{};
  for (int r = 4; r < 22; ++r) {
    const int c = 6 + (r - 4) / 2;  // leans right going down: skew 0.5
    for (int w = 0; w < 3; ++w) raw[r * kImageCols + c + w] = 255;
  }
  PreprocessScratch scratch;
  FloatImage decoded{};
  DecodeImage(raw.data(), decoded.data(), &scratch);
  const Moments m = ComputeMoments(decoded);
  EXPECT_NEAR(m.mean_x, 13.5, 0.6);
  EXPECT_NEAR(m.mean_y, 13.5, 0.6);
  EXPECT_LT(std::fabs(m.cov_xy / m.var_y), 0.08) << "skew left after deskewing";
  // Background is standardised to (0 - mean) / std.
  EXPECT_NEAR(decoded[0], -0.1307f / 0.3081f, 1e-5);
}

TEST(PreprocessTest, ShiftMovesContentByAtMostTwoPixels) {
  FloatImage decoded{}, shifted{};
  const float background = -0.1307f / 0.3081f;
  decoded.fill(background);
  decoded[14 * kImageCols + 14] = 3.0f;  // one bright pixel in the middle
  PreprocessScratch scratch;
  std::set<std::pair<int, int>> offsets;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    AugmentImage(decoded.data(), Augmentation::kShift, seed, shifted.data(), &scratch);
    const int at = static_cast<int>(std::max_element(shifted.begin(), shifted.end()) - shifted.begin());
    const int dr = at / kImageCols - 14, dc = at % kImageCols - 14;
    EXPECT_LE(std::abs(dr), 2);
    EXPECT_LE(std::abs(dc), 2);
    EXPECT_EQ(shifted[at], 3.0f);
    offsets.insert({dr, dc});
  }
  EXPECT_EQ(offsets.size(), 25u) << "every shift in [-2, 2]^2 should occur";
}

TEST(PreprocessTest, AugmentationIsAFunctionOfTheSeed) {
  RawImage raw{};
  for (int r = 6; r < 22; ++r) raw[r * kImageCols + 13] = raw[r * kImageCols + 14] = 200;
  PreprocessScratch scratch;
  FloatImage decoded{}, a{}, b{}, c{};
  DecodeImage(raw.data(), decoded.data(), &scratch);
  for (Augmentation kind : {Augmentation::kShift, Augmentation::kElastic}) {
    AugmentImage(decoded.data(), kind, 7, a.data(), &scratch);
    AugmentImage(decoded.data(), kind, 7, b.data(), &scratch);
    EXPECT_EQ(a, b);
    bool differs = false;
    for (uint64_t seed = 8; seed < 12 && !differs; ++seed) {
      AugmentImage(decoded.data(), kind, seed, c.data(), &scratch);
      differs = a != c;
    }
    EXPECT_TRUE(differs) << AugmentationName(kind);
  }
  AugmentImage(decoded.data(), Augmentation::kNone, 7, a.data(), &scratch);
  EXPECT_EQ(a, decoded);
}

TEST(PreprocessTest, AugmentationNamesRoundTrip) {
  for (Augmentation kind : {Augmentation::kNone, Augmentation::kShift, Augmentation::kElastic}) {
    Augmentation parsed = Augmentation::kNone;
    ASSERT_TRUE(ParseAugmentation(AugmentationName(kind), &parsed));
    EXPECT_EQ(parsed, kind);
  }
  Augmentation parsed;
  EXPECT_FALSE(ParseAugmentation("Elastic", &parsed));
}

}  // namespace
}  // namespace mnist_mlp
