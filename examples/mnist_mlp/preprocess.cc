#include "examples/mnist_mlp/preprocess.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "examples/mnist_mlp/random.h"

namespace mnist_mlp {
namespace {

// MNIST's published pixel mean and standard deviation (on [0, 1] pixels). The synthetic
// set is close enough that inputs end up roughly zero-mean, unit-variance.
constexpr float kPixelMean = 0.1307f;
constexpr float kPixelStd = 0.3081f;
// Background after standardisation: what shifted-in pixels are filled with.
constexpr float kBackground = (0.0f - kPixelMean) / kPixelStd;

// Simard, Steinkraus & Platt (2003) found alpha = 34, sigma = 4 best for 28x28 digits.
constexpr float kElasticAlpha = 34.0f;
constexpr float kElasticSigma = 4.0f;
// 2 sigma: the truncated tails hold ~5 % of the kernel's mass, invisible in a field that
// is scaled and resampled anyway, and the blur costs two thirds of a 3-sigma one.
constexpr int kElasticRadius = 8;
constexpr int kMaxShiftPixels = 2;

// Bilinear sample of `image` at (x, y) in pixel coordinates; `outside` beyond the border.
float Sample(const float* image, float x, float y, float outside) {
  const float fx = std::floor(x), fy = std::floor(y);
  const int x0 = static_cast<int>(fx), y0 = static_cast<int>(fy);
  const float wx = x - fx, wy = y - fy;
  auto at = [&](int r, int c) {
    return (r < 0 || r >= kImageRows || c < 0 || c >= kImageCols) ? outside : image[r * kImageCols + c];
  };
  const float top = at(y0, x0) + wx * (at(y0, x0 + 1) - at(y0, x0));
  const float bottom = at(y0 + 1, x0) + wx * (at(y0 + 1, x0 + 1) - at(y0 + 1, x0));
  return top + wy * (bottom - top);
}

const float* GaussianKernel() {
  static const float* kernel = [] {
    auto* k = new float[2 * kElasticRadius + 1];
    float sum = 0;
    for (int i = -kElasticRadius; i <= kElasticRadius; ++i) {
      k[i + kElasticRadius] = std::exp(-0.5f * static_cast<float>(i * i) / (kElasticSigma * kElasticSigma));
      sum += k[i + kElasticRadius];
    }
    for (int i = 0; i <= 2 * kElasticRadius; ++i) k[i] /= sum;
    return k;
  }();
  return kernel;
}

// Separable Gaussian blur of `field` in place (zero beyond the border), using `tmp`.
void GaussianBlur(float* field, float* tmp) {
  const float* kernel = GaussianKernel();
  for (int r = 0; r < kImageRows; ++r) {
    for (int c = 0; c < kImageCols; ++c) {
      float sum = 0;
      const int lo = std::max(-kElasticRadius, -c), hi = std::min(kElasticRadius, kImageCols - 1 - c);
      for (int k = lo; k <= hi; ++k) sum += kernel[k + kElasticRadius] * field[r * kImageCols + c + k];
      tmp[r * kImageCols + c] = sum;
    }
  }
  for (int r = 0; r < kImageRows; ++r) {
    for (int c = 0; c < kImageCols; ++c) {
      float sum = 0;
      const int lo = std::max(-kElasticRadius, -r), hi = std::min(kElasticRadius, kImageRows - 1 - r);
      for (int k = lo; k <= hi; ++k) sum += kernel[k + kElasticRadius] * tmp[(r + k) * kImageCols + c];
      field[r * kImageCols + c] = sum;
    }
  }
}

// Median of 9 with Paeth's 19-comparison exchange network: branch-free min/max, several
// times faster than a general selection on 9 bytes.

}  // namespace

std::string_view AugmentationName(Augmentation augmentation) {
  switch (augmentation) {
    case Augmentation::kNone: return "none";
    case Augmentation::kShift: return "shift";
    case Augmentation::kElastic: return "elastic";
  }
  return "?";
}

bool ParseAugmentation(std::string_view name, Augmentation* augmentation) {
  for (Augmentation a : {Augmentation::kNone, Augmentation::kShift, Augmentation::kElastic}) {
    if (name == AugmentationName(a)) {
      *augmentation = a;
      return true;
    }
  }
  return false;
}

void MedianFilter3x3(const uint8_t* in, uint8_t* out) {
  auto sort2 = [](uint8_t& a, uint8_t& b) {
    const uint8_t lo = std::min(a, b);
    b = std::max(a, b);
    a = lo;
  };
  auto at = [in](int r, int c) -> uint8_t {
    return (r < 0 || r >= kImageRows || c < 0 || c >= kImageCols) ? 0 : in[r * kImageCols + c];
  };
  for (int r = 0; r < kImageRows; ++r) {
    for (int c = 0; c < kImageCols; ++c) {
      uint8_t p0 = at(r - 1, c - 1), p1 = at(r - 1, c), p2 = at(r - 1, c + 1);
      uint8_t p3 = at(r, c - 1), p4 = at(r, c), p5 = at(r, c + 1);
      uint8_t p6 = at(r + 1, c - 1), p7 = at(r + 1, c), p8 = at(r + 1, c + 1);
      sort2(p1, p2); sort2(p4, p5); sort2(p7, p8);
      sort2(p0, p1); sort2(p3, p4); sort2(p6, p7);
      sort2(p1, p2); sort2(p4, p5); sort2(p7, p8);
      sort2(p0, p3); sort2(p5, p8); sort2(p4, p7);
      sort2(p3, p6); sort2(p1, p4); sort2(p2, p5);
      sort2(p4, p7); sort2(p4, p2); sort2(p6, p4);
      sort2(p4, p2);
      out[r * kImageCols + c] = p4;
    }
  }
}

void DecodeImage(const uint8_t* raw, float* decoded, PreprocessScratch* scratch) {
  uint8_t* denoised = scratch->denoised.data();
  MedianFilter3x3(raw, denoised);
  float* pixels = scratch->pixels.data();
  double mass = 0, sum_x = 0, sum_y = 0;
  for (int r = 0; r < kImageRows; ++r) {
    for (int c = 0; c < kImageCols; ++c) {
      const float v = static_cast<float>(denoised[r * kImageCols + c]) * (1.0f / 255.0f);
      pixels[r * kImageCols + c] = v;
      mass += v;
      sum_x += v * c;
      sum_y += v * r;
    }
  }
  const float center = 0.5f * (kImageCols - 1);
  float mean_x = center, mean_y = center, skew = 0;
  if (mass > 0) {
    mean_x = static_cast<float>(sum_x / mass);
    mean_y = static_cast<float>(sum_y / mass);
    double cov_xy = 0, var_y = 0;
    for (int r = 0; r < kImageRows; ++r) {
      for (int c = 0; c < kImageCols; ++c) {
        const double v = pixels[r * kImageCols + c];
        cov_xy += v * (c - mean_x) * (r - mean_y);
        var_y += v * (r - mean_y) * (r - mean_y);
      }
    }
    if (var_y > 0) skew = static_cast<float>(cov_xy / var_y);
  }
  // Output pixel (c, r) samples the input at x = c + skew * (r - center) + (mean - center):
  // rows are sheared back by the skew and the centre of mass lands in the middle.
  for (int r = 0; r < kImageRows; ++r) {
    for (int c = 0; c < kImageCols; ++c) {
      const float dy = static_cast<float>(r) - center;
      const float x = static_cast<float>(c) + skew * dy + (mean_x - center);
      const float y = static_cast<float>(r) + (mean_y - center);
      decoded[r * kImageCols + c] = (Sample(pixels, x, y, 0.0f) - kPixelMean) * (1.0f / kPixelStd);
    }
  }
}

void AugmentImage(const float* decoded, Augmentation augmentation, uint64_t seed, float* augmented,
                  PreprocessScratch* scratch) {
  if (augmentation == Augmentation::kNone) {
    std::memcpy(augmented, decoded, kImagePixels * sizeof(float));
    return;
  }
  Random random(seed);
  const int shift_x = static_cast<int>(random.UniformInt(2 * kMaxShiftPixels + 1)) - kMaxShiftPixels;
  const int shift_y = static_cast<int>(random.UniformInt(2 * kMaxShiftPixels + 1)) - kMaxShiftPixels;
  if (augmentation == Augmentation::kShift) {
    for (int r = 0; r < kImageRows; ++r) {
      for (int c = 0; c < kImageCols; ++c) {
        const int sr = r - shift_y, sc = c - shift_x;
        const bool inside = sr >= 0 && sr < kImageRows && sc >= 0 && sc < kImageCols;
        augmented[r * kImageCols + c] = inside ? decoded[sr * kImageCols + sc] : kBackground;
      }
    }
    return;
  }
  float* field_x = scratch->field_x.data();
  float* field_y = scratch->field_y.data();
  for (int i = 0; i < kImagePixels; ++i) {
    field_x[i] = random.Uniform(-1.0f, 1.0f);
    field_y[i] = random.Uniform(-1.0f, 1.0f);
  }
  GaussianBlur(field_x, scratch->blurred.data());
  GaussianBlur(field_y, scratch->blurred.data());
  for (int r = 0; r < kImageRows; ++r) {
    for (int c = 0; c < kImageCols; ++c) {
      const int i = r * kImageCols + c;
      const float x = static_cast<float>(c - shift_x) + kElasticAlpha * field_x[i];
      const float y = static_cast<float>(r - shift_y) + kElasticAlpha * field_y[i];
      augmented[i] = Sample(decoded, x, y, kBackground);
    }
  }
}

}  // namespace mnist_mlp
