#include "examples/mnist_mlp/dataset_generator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "examples/mnist_mlp/random.h"

namespace mnist_mlp {
namespace {

// Purpose tag for DeriveSeed: the generator's random stream.
constexpr uint64_t kGeneratorStream = 1;

struct Point {
  float x;
  float y;
};
using Polyline = std::vector<Point>;

// An ellipse as a closed polyline in the unit square (y grows downwards, like image rows).
Polyline Ellipse(float cx, float cy, float rx, float ry, float from_rad = 0.0f, float to_rad = 6.2832f) {
  constexpr int kSegments = 16;
  Polyline line;
  for (int i = 0; i <= kSegments; ++i) {
    const float a = from_rad + (to_rad - from_rad) * static_cast<float>(i) / kSegments;
    line.push_back({cx + rx * std::cos(a), cy + ry * std::sin(a)});
  }
  return line;
}

// Stroke templates for the ten digits in the unit square.
const std::array<std::vector<Polyline>, kNumClasses>& DigitTemplates() {
  static const auto* templates = new std::array<std::vector<Polyline>, kNumClasses>{{
      {Ellipse(0.5f, 0.5f, 0.2f, 0.32f)},
      {{{0.40f, 0.26f}, {0.52f, 0.15f}, {0.52f, 0.85f}}},
      {{{0.30f, 0.30f}, {0.40f, 0.18f}, {0.60f, 0.18f}, {0.70f, 0.30f}, {0.65f, 0.45f}, {0.30f, 0.85f},
        {0.74f, 0.85f}}},
      {{{0.30f, 0.20f}, {0.60f, 0.16f}, {0.69f, 0.30f}, {0.50f, 0.48f}, {0.69f, 0.65f}, {0.60f, 0.83f},
        {0.30f, 0.80f}}},
      {{{0.62f, 0.85f}, {0.62f, 0.15f}, {0.27f, 0.62f}, {0.76f, 0.62f}}},
      {{{0.70f, 0.18f}, {0.35f, 0.18f}, {0.32f, 0.48f}, {0.60f, 0.45f}, {0.70f, 0.62f}, {0.60f, 0.82f},
        {0.30f, 0.80f}}},
      {{{0.66f, 0.17f}, {0.40f, 0.40f}, {0.32f, 0.65f}, {0.45f, 0.84f}, {0.62f, 0.80f}, {0.68f, 0.62f},
        {0.55f, 0.50f}, {0.34f, 0.60f}}},
      {{{0.27f, 0.18f}, {0.73f, 0.18f}, {0.44f, 0.85f}}},
      {Ellipse(0.5f, 0.32f, 0.16f, 0.15f), Ellipse(0.5f, 0.65f, 0.2f, 0.18f)},
      {Ellipse(0.5f, 0.34f, 0.17f, 0.16f), {{0.67f, 0.34f}, {0.60f, 0.86f}}},
  }};
  return *templates;
}

float SquaredDistanceToSegment(Point p, Point a, Point b) {
  const float abx = b.x - a.x, aby = b.y - a.y;
  const float apx = p.x - a.x, apy = p.y - a.y;
  const float len2 = abx * abx + aby * aby;
  const float t = len2 > 0 ? std::clamp((apx * abx + apy * aby) / len2, 0.0f, 1.0f) : 0.0f;
  const float dx = apx - t * abx, dy = apy - t * aby;
  return dx * dx + dy * dy;
}

}  // namespace

uint8_t RenderExample(uint64_t seed, uint64_t index, uint8_t* image) {
  Random random(DeriveSeed(seed, kGeneratorStream, index));
  const uint8_t label = static_cast<uint8_t>(random.UniformInt(kNumClasses));

  // Affine jitter around the centre of the unit square: template point p lands on image
  // point q = A (p - c) + c + t, with A = R(angle) * [[scale_x, shear], [0, scale_y]].
  const float angle = random.Uniform(-0.25f, 0.25f);  // about +-14 degrees
  const float scale_x = random.Uniform(0.8f, 1.15f);
  const float scale_y = random.Uniform(0.85f, 1.15f);
  const float shear = random.Uniform(-0.25f, 0.25f);
  const float shift_x = random.Uniform(-0.08f, 0.08f);
  const float shift_y = random.Uniform(-0.06f, 0.06f);
  const float half_width_px = random.Uniform(0.035f, 0.07f) * kImageCols;  // pen half-width
  const float ink = random.Uniform(0.75f, 1.0f);
  const float c = std::cos(angle), s = std::sin(angle);
  const float a00 = c * scale_x, a01 = c * shear - s * scale_y;
  const float a10 = s * scale_x, a11 = s * shear + c * scale_y;
  // Template point -> pixel coordinates (pixel centres at integer + 0.5, as in rendering).
  auto to_pixels = [&](Point p) {
    const float x = a00 * (p.x - 0.5f) + a01 * (p.y - 0.5f) + 0.5f + shift_x;
    const float y = a10 * (p.x - 0.5f) + a11 * (p.y - 0.5f) + 0.5f + shift_y;
    return Point{x * kImageCols, y * kImageRows};
  };

  // Squared distance from each pixel centre to the nearest stroke segment. Each segment
  // only visits the pixels its ink can reach (its bounding box grown by the pen), which
  // keeps generation at a few microseconds per image instead of visiting every pixel for
  // every segment.
  constexpr float kEdgePixels = 1.0f;  // soft anti-aliased edge
  const float reach = half_width_px + kEdgePixels;
  std::array<float, kImagePixels> squared;
  squared.fill(reach * reach);
  for (const Polyline& line : DigitTemplates()[label]) {
    for (size_t k = 1; k < line.size(); ++k) {
      const Point a = to_pixels(line[k - 1]), b = to_pixels(line[k]);
      const int col_lo = std::max(0, static_cast<int>(std::floor(std::min(a.x, b.x) - reach)));
      const int col_hi = std::min(kImageCols - 1, static_cast<int>(std::ceil(std::max(a.x, b.x) + reach)));
      const int row_lo = std::max(0, static_cast<int>(std::floor(std::min(a.y, b.y) - reach)));
      const int row_hi = std::min(kImageRows - 1, static_cast<int>(std::ceil(std::max(a.y, b.y) + reach)));
      for (int row = row_lo; row <= row_hi; ++row) {
        for (int col = col_lo; col <= col_hi; ++col) {
          const Point p{static_cast<float>(col) + 0.5f, static_cast<float>(row) + 0.5f};
          float& best = squared[row * kImageCols + col];
          best = std::min(best, SquaredDistanceToSegment(p, a, b));
        }
      }
    }
  }
  for (int i = 0; i < kImagePixels; ++i) {
    // Full ink inside the pen, a soft edge one pixel wide outside it, sensor noise.
    const float distance = std::sqrt(squared[i]);
    float value = ink * std::clamp((half_width_px + kEdgePixels - distance) / kEdgePixels, 0.0f, 1.0f);
    // Triangular noise with standard deviation 0.08 (variance of u1 + u2 - 1 is 1/6):
    // as good as Gaussian for this purpose at a tenth of the cost.
    value += 0.08f * 2.449f * (random.Uniform() + random.Uniform() - 1.0f);
    image[i] = static_cast<uint8_t>(std::lround(std::clamp(value, 0.0f, 1.0f) * 255.0f));
  }
  return label;
}

}  // namespace mnist_mlp
