// Small deterministic random number generation for the example.
//
// The dataset, the shuffle order and every augmentation are functions of (seed, index)
// only, so a batch is the same whichever thread builds it, with or without the cache.
// std::mt19937 + std::*_distribution would not give that: the distributions are
// implementation-defined, so the data would change between standard libraries.
#pragma once

#include <cmath>
#include <cstdint>

namespace mnist_mlp {

// SplitMix64's finaliser: a bijective mix of 64 bits, good enough to derive independent
// seeds from (seed, index) pairs.
inline uint64_t MixBits(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Seed for stream `stream` (e.g. an example index) under a run seed and a purpose tag,
// so that e.g. the generator and the augmenter never see correlated numbers.
inline uint64_t DeriveSeed(uint64_t seed, uint64_t purpose, uint64_t stream) {
  return MixBits(MixBits(seed ^ (purpose * 0xd1b54a32d192ed03ull)) ^ stream);
}

// xorshift64* : tiny state, fast, plenty for noise and shuffles.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(MixBits(seed) | 1) {}

  uint64_t NextU64() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return state_ * 0x2545f4914f6cdd1dull;
  }
  // Uniform in [0, 1) with 24 bits, exactly representable as float.
  float Uniform() { return static_cast<float>(NextU64() >> 40) * (1.0f / 16777216.0f); }
  // Uniform in [lo, hi).
  float Uniform(float lo, float hi) { return lo + (hi - lo) * Uniform(); }
  // Uniform integer in [0, n); n > 0. The modulo bias (n / 2^64) is irrelevant here.
  uint32_t UniformInt(uint32_t n) { return static_cast<uint32_t>(NextU64() % n); }
  // Standard normal (Box-Muller; one value per call keeps the stream simple).
  float Normal() {
    const float u1 = 1.0f - Uniform();  // (0, 1], log is finite
    const float u2 = Uniform();
    return std::sqrt(-2.0f * std::log(u1)) * std::cos(6.2831853f * u2);
  }

 private:
  uint64_t state_;
};

}  // namespace mnist_mlp
