// CorrelationMap: correlation id -> an int32 of the host event that launched it (its dense
// group, or its framework op's index), for the device analysis to look each device event's
// launch up (model_builder.h: HostAnalysis).
//
// Ids come in dense runs: CUPTI and ROCm count them up from a process-wide (or per-device)
// start, so a process's ids are one run and a file that merges processes or devices holds
// a few runs far apart (the synthetic pod's GPUs start at g x 10^9). A device plane looks
// them up in nearly increasing order. So the ids are bucketed by their high bits, each
// bucket that holds an id gets a dense slice of one array, and a lookup is a bucket found
// (the last one first, then a binary search over the few buckets) and one array read next
// to the previous one. A hash probe per device event instead destroyed that locality: on
// a 1 GB host with 8 runs of ids it was a third of the model's time. Ids too scattered for
// buckets (more slots than a few per id) fall back to a hash map.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "src/analysis/model/flat_map.h"

namespace stepscope::analysis::internal {

class CorrelationMap {
 public:
  static constexpr int32_t kNone = -1;  // kNoGroup: the id is unknown
  static constexpr int kBucketBits = 12;  // 4096 ids a bucket

  void Add(uint64_t correlation_id, int32_t value) { pending_.push_back({correlation_id, value}); }

  // Call once after the last Add. Where one id has several values, a non-negative one wins
  // over a negative one (else the last added).
  void Finish() {
    if (pending_.empty()) return;
    std::vector<uint64_t> buckets;
    for (const auto& [id, value] : pending_) {
      // Launches come thread by thread in time order: mostly the previous id's bucket.
      if (buckets.empty() || buckets.back() != id >> kBucketBits) buckets.push_back(id >> kBucketBits);
    }
    std::sort(buckets.begin(), buckets.end());
    buckets.erase(std::unique(buckets.begin(), buckets.end()), buckets.end());
    // Memory at most a few int32 per id (and 4 MiB): else the ids are scattered.
    if ((buckets.size() << kBucketBits) <= pending_.size() * 4 + (size_t{1} << 20)) {
      buckets_ = std::move(buckets);
      slots_.assign(buckets_.size() << kBucketBits, kNone);
      for (const auto& [id, value] : pending_) {
        int32_t& slot = slots_[SliceOf(id >> kBucketBits) + (id & kBucketMask)];
        if (value >= 0 || slot < 0) slot = value;
      }
    } else {
      use_map_ = true;
      for (const auto& [id, value] : pending_) {
        if (value < 0 && static_cast<int32_t>(map_.Find(id)) >= 0) continue;
        map_.Set(id, static_cast<uint32_t>(value));
      }
    }
    pending_ = {};
  }

  int32_t Find(uint64_t correlation_id) const {
    if (use_map_) {
      const uint32_t value = map_.Find(correlation_id);
      return value == FlatUint64Map::kAbsent ? kNone : static_cast<int32_t>(value);
    }
    if (buckets_.empty()) return kNone;
    const uint64_t bucket = correlation_id >> kBucketBits;
    // The last bucket found first: a device plane's ids mostly rise one by one.
    size_t at = last_.at.load(std::memory_order_relaxed);
    if (at >= buckets_.size() || buckets_[at] != bucket) {
      auto it = std::lower_bound(buckets_.begin(), buckets_.end(), bucket);
      if (it == buckets_.end() || *it != bucket) return kNone;
      at = static_cast<size_t>(it - buckets_.begin());
      last_.at.store(at, std::memory_order_relaxed);
    }
    return slots_[(at << kBucketBits) + (correlation_id & kBucketMask)];
  }

 private:
  static constexpr uint64_t kBucketMask = (uint64_t{1} << kBucketBits) - 1;

  size_t SliceOf(uint64_t bucket) const {
    return static_cast<size_t>(std::lower_bound(buckets_.begin(), buckets_.end(), bucket) - buckets_.begin())
           << kBucketBits;
  }

  std::vector<std::pair<uint64_t, int32_t>> pending_;
  std::vector<uint64_t> buckets_;  // sorted: bucket i's ids are slots_[i << kBucketBits, ...)
  std::vector<int32_t> slots_;
  // The bucket of the last lookup: a hint, atomic so that lookups from several threads
  // stay defined (each still reads the right slot).
  struct Hint {
    std::atomic<size_t> at{0};
    Hint() = default;
    Hint(const Hint&) {}  // a copy starts without a hint
    Hint& operator=(const Hint&) { return at.store(0), *this; }
  };
  mutable Hint last_;
  bool use_map_ = false;
  FlatUint64Map map_;
};

}  // namespace stepscope::analysis::internal
