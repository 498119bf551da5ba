#include "examples/mnist_mlp/example_order.h"

#include <numeric>

#include "examples/mnist_mlp/random.h"

namespace mnist_mlp {
namespace {

// Purpose tag for DeriveSeed: the shuffle of each epoch.
constexpr uint64_t kShuffleStream = 2;
// Batches in flight span at most two epochs (prefetch depth is far below an epoch);
// four leaves room without keeping permutations of long-gone epochs.
constexpr size_t kCachedEpochs = 4;

}  // namespace

ExampleOrder::ExampleOrder(uint64_t num_examples, uint64_t seed, bool shuffle)
    : num_examples_(num_examples), seed_(seed), shuffle_(shuffle) {}

uint32_t ExampleOrder::ExampleAt(uint64_t position) {
  const uint64_t offset = position % num_examples_;
  if (!shuffle_) return static_cast<uint32_t>(offset);
  return (*Permutation(position / num_examples_))[offset];
}

std::shared_ptr<const std::vector<uint32_t>> ExampleOrder::Permutation(uint64_t epoch) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [cached_epoch, permutation] : recent_) {
      if (cached_epoch == epoch) return permutation;
    }
  }
  // Computed outside the lock (60k elements take ~0.3 ms); two threads may both compute
  // the same epoch, which is harmless because the result is deterministic.
  auto permutation = std::make_shared<std::vector<uint32_t>>(num_examples_);
  std::iota(permutation->begin(), permutation->end(), 0u);
  Random random(DeriveSeed(seed_, kShuffleStream, epoch));
  for (uint64_t i = num_examples_ - 1; i > 0; --i) {
    const uint64_t j = random.NextU64() % (i + 1);
    std::swap((*permutation)[i], (*permutation)[j]);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  recent_.emplace_back(epoch, permutation);
  if (recent_.size() > kCachedEpochs) recent_.pop_front();
  return permutation;
}

}  // namespace mnist_mlp
