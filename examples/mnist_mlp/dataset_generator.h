// A deterministic generator of MNIST-shaped digits with learnable structure.
//
// Every example is a function of (seed, index) only: a class label, a hand-drawn-like
// stroke template for that digit, a random affine jitter (rotation, scale, shear,
// translation), a random stroke width, and background/pixel noise. Classes are therefore
// separable but not trivially (an MLP reaches high accuracy after a few hundred steps
// and the loss clearly falls within the first hundred), which is what the example needs
// to show that training does real work.
#pragma once

#include <cstdint>

namespace mnist_mlp {

inline constexpr int kImageRows = 28;
inline constexpr int kImageCols = 28;
inline constexpr int kImagePixels = kImageRows * kImageCols;
inline constexpr int kNumClasses = 10;

// Renders example `index` of the dataset with `seed` into `image` (kImagePixels bytes,
// row-major, 0 = background, 255 = ink, like MNIST) and returns its label in [0, 10).
uint8_t RenderExample(uint64_t seed, uint64_t index, uint8_t* image);

}  // namespace mnist_mlp
