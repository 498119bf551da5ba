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

  // Affine jitter, drawn in the unit square around its centre: image point q maps back to
  // template point p = inverse(A) (q - c - t) + c.
  const float angle = random.Uniform(-0.25f, 0.25f);  // about +-14 degrees
  const float scale_x = random.Uniform(0.8f, 1.15f);
  const float scale_y = random.Uniform(0.85f, 1.15f);
  const float shear = random.Uniform(-0.25f, 0.25f);
  const float shift_x = random.Uniform(-0.08f, 0.08f);
  const float shift_y = random.Uniform(-0.06f, 0.06f);
  const float half_width = random.Uniform(0.035f, 0.07f);  // stroke half-width, unit square
  const float ink = random.Uniform(0.75f, 1.0f);
  // A = R(angle) * [[sx, shear], [0, sy]]; its inverse is applied per pixel.
  const float c = std::cos(angle), s = std::sin(angle);
  const float a00 = c * scale_x, a01 = c * shear - s * scale_y;
  const float a10 = s * scale_x, a11 = s * shear + c * scale_y;
  const float det = a00 * a11 - a01 * a10;
  const float i00 = a11 / det, i01 = -a01 / det, i10 = -a10 / det, i11 = a00 / det;

  const std::vector<Polyline>& strokes = DigitTemplates()[label];
  for (int row = 0; row < kImageRows; ++row) {
    for (int col = 0; col < kImageCols; ++col) {
      const float qx = (static_cast<float>(col) + 0.5f) / kImageCols - 0.5f - shift_x;
      const float qy = (static_cast<float>(row) + 0.5f) / kImageRows - 0.5f - shift_y;
      const Point p{i00 * qx + i01 * qy + 0.5f, i10 * qx + i11 * qy + 0.5f};
      float squared = 1.0f;
      for (const Polyline& line : strokes) {
        for (size_t k = 1; k < line.size(); ++k) {
          squared = std::min(squared, SquaredDistanceToSegment(p, line[k - 1], line[k]));
        }
      }
      const float distance = std::sqrt(squared);
      // Full ink inside the stroke, a soft edge about one pixel wide outside it.
      const float edge = 1.0f / kImageCols;
      float value = ink * std::clamp((half_width + edge - distance) / edge, 0.0f, 1.0f);
      value += 0.08f * random.Normal();  // sensor noise
      image[row * kImageCols + col] = static_cast<uint8_t>(std::lround(std::clamp(value, 0.0f, 1.0f) * 255.0f));
    }
  }
  return label;
}

}  // namespace mnist_mlp
