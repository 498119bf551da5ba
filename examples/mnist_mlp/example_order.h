// Which dataset example sits at each position of the (endless) training stream.
//
// Position p belongs to epoch p / N and is example Permutation(epoch)[p % N], so every
// example appears exactly once per epoch and batches may straddle epoch boundaries (no
// examples are dropped). The permutation of an epoch is a Fisher-Yates shuffle seeded by
// (seed, epoch): the same whatever thread or order asks for it.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace mnist_mlp {

class ExampleOrder {
 public:
  // shuffle = false gives the dataset order in every epoch.
  ExampleOrder(uint64_t num_examples, uint64_t seed, bool shuffle);

  // The example at stream position `position`. Thread-safe.
  uint32_t ExampleAt(uint64_t position);

 private:
  std::shared_ptr<const std::vector<uint32_t>> Permutation(uint64_t epoch);

  const uint64_t num_examples_;
  const uint64_t seed_;
  const bool shuffle_;
  std::mutex mutex_;
  // The most recently used epochs (at most kCachedEpochs); guarded by mutex_.
  std::deque<std::pair<uint64_t, std::shared_ptr<const std::vector<uint32_t>>>> recent_;
};

}  // namespace mnist_mlp
