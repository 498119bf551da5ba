// Per-example preprocessing of the input pipeline: decode (deterministic, cacheable) and
// augment (random per epoch, never cached).
//
// Decode   3x3 median denoise (removes the scanner speckle), uint8 -> float, deskew
//          (the classic MNIST normalisation: shear the image so its principal axis is
//          vertical and move its centre of mass to the centre, via image moments and
//          bilinear resampling), then standardise with the MNIST mean/std. Nearly all of
//          the default per-example work (~35 us on the VM), and what --cache saves.
// Augment  kShift (default): a random translation by up to 2 pixels (~1 us).
//          kElastic: Simard et al.'s elastic distortion (random displacement field,
//          Gaussian-smoothed, bilinear resampling), plus the random shift (~30 us that
//          no cache can save).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "examples/mnist_mlp/dataset_generator.h"

namespace mnist_mlp {

enum class Augmentation { kNone, kShift, kElastic };
// "none", "shift", "elastic".
std::string_view AugmentationName(Augmentation augmentation);
bool ParseAugmentation(std::string_view name, Augmentation* augmentation);

// Work buffers reused across examples so preprocessing never allocates per example.
// One per thread.
struct PreprocessScratch {
  std::vector<uint8_t> raw = std::vector<uint8_t>(kImagePixels);
  std::vector<uint8_t> denoised = std::vector<uint8_t>(kImagePixels);
  std::vector<float> decoded = std::vector<float>(kImagePixels);
  std::vector<float> pixels = std::vector<float>(kImagePixels);
  std::vector<float> field_x = std::vector<float>(kImagePixels);
  std::vector<float> field_y = std::vector<float>(kImagePixels);
  std::vector<float> blurred = std::vector<float>(kImagePixels);
};

// 3x3 median filter over a kImageRows x kImageCols image, zero beyond the border:
// removes isolated noisy pixels (the scanner speckle of the dataset) while keeping
// strokes two or more pixels wide. Part of DecodeImage.
void MedianFilter3x3(const uint8_t* in, uint8_t* out);

// `raw` (kImagePixels bytes) -> `decoded` (kImagePixels floats). Deterministic.
void DecodeImage(const uint8_t* raw, float* decoded, PreprocessScratch* scratch);

// `decoded` -> `augmented` (both kImagePixels floats, may not alias). The randomness is a
// function of `seed` only, so the same (example, epoch) is augmented identically by any
// thread.
void AugmentImage(const float* decoded, Augmentation augmentation, uint64_t seed, float* augmented,
                  PreprocessScratch* scratch);

}  // namespace mnist_mlp
