// A bounded, thread-safe cache of computed values in which each key is computed once.
//
// The server caches two kinds of value this way: profile models per (run, host) and
// tool results per (run, host, tool, options). Both are expensive (a model walks every
// event of a profile), so:
//   - concurrent requests for the same key share one computation: the first caller
//     computes, the others wait for its result (single flight), and a failure is handed
//     to every waiter but not kept, so the next request tries again;
//   - the cache holds at most `capacity_bytes` of finished values (as measured by the
//     size function), evicting the least recently used first. A value larger than the
//     whole budget is returned to its callers but not kept.
// Keys carry everything that makes a value differ (callers put the input files'
// mtime+size in them), so a changed profile is a new key and stale entries age out.
//
// Thread safety: every method may be called from any thread. `compute` runs without the
// cache's lock held, on the calling thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <future>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

#include "stepscope/status.h"

namespace stepscope::server {

struct ResultCacheStats {
  int64_t hits = 0;          // served from a finished entry
  int64_t joins = 0;         // waited for another request's computation of the same key
  int64_t computations = 0;  // times `compute` ran
  int64_t evictions = 0;
  size_t entries = 0;        // finished entries held
  size_t bytes = 0;          // their total size
  size_t capacity_bytes = 0; // the budget they are held within
};

template <typename V>
class ResultCache {
 public:
  using Value = std::shared_ptr<const V>;
  using Compute = std::function<StatusOr<Value>()>;
  using SizeFn = std::function<size_t(const V&)>;

  ResultCache(size_t capacity_bytes, SizeFn size_of)
      : capacity_bytes_(capacity_bytes), size_of_(std::move(size_of)) {}
  ResultCache(const ResultCache&) = delete;
  ResultCache& operator=(const ResultCache&) = delete;

  // The value for `key`: cached, being computed by another caller (waits for it), or
  // computed now by `compute`.
  StatusOr<Value> GetOrCompute(const std::string& key, const Compute& compute) {
    std::unique_lock<std::mutex> lock(mutex_);
    auto it = entries_.find(key);
    if (it != entries_.end()) {
      Entry& entry = it->second;
      if (entry.ready) {
        ++stats_.hits;
        lru_.splice(lru_.begin(), lru_, entry.lru_position);
        return entry.value;
      }
      ++stats_.joins;
      std::shared_future<StatusOr<Value>> pending = entry.pending;
      lock.unlock();
      return pending.get();
    }

    auto promise = std::make_shared<std::promise<StatusOr<Value>>>();
    Entry& entry = entries_[key];
    entry.pending = promise->get_future().share();
    const uint64_t generation = entry.generation = ++next_generation_;
    ++stats_.computations;
    lock.unlock();

    StatusOr<Value> result = compute();
    if (result.ok() && *result == nullptr) result = InternalError("cache computation for '" + key + "' returned null");
    size_t bytes = result.ok() ? size_of_(**result) : 0;

    lock.lock();
    auto mine = entries_.find(key);
    // Clear() may have dropped the entry meanwhile; then the result is only handed out.
    bool still_mine = mine != entries_.end() && mine->second.generation == generation;
    if (still_mine) {
      if (!result.ok() || bytes > capacity_bytes_) {
        entries_.erase(mine);
      } else {
        Entry& done = mine->second;
        done.ready = true;
        done.value = *result;
        done.bytes = bytes;
        done.pending = {};
        lru_.push_front(key);
        done.lru_position = lru_.begin();
        stats_.bytes += bytes;
        ++stats_.entries;
        EvictOverBudgetLocked();
      }
    }
    lock.unlock();
    promise->set_value(result);
    return result;
  }

  // The finished value for `key` (counted as a hit), or null when there is none yet:
  // nothing is computed or waited for.
  Value Peek(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(key);
    if (it == entries_.end() || !it->second.ready) return nullptr;
    ++stats_.hits;
    lru_.splice(lru_.begin(), lru_, it->second.lru_position);
    return it->second.value;
  }

  // Measures the finished entry for `key` again (a value that grew after it was cached,
  // e.g. a model whose derivations were computed by later requests) and evicts least
  // recently used entries past the budget, this one too if it alone is over it. No-op
  // when there is no finished entry.
  void Remeasure(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(key);
    if (it == entries_.end() || !it->second.ready) return;
    const size_t bytes = size_of_(*it->second.value);
    stats_.bytes = stats_.bytes - it->second.bytes + bytes;
    it->second.bytes = bytes;
    EvictOverBudgetLocked();
  }

  // Drops every finished entry; computations in flight finish and are not kept.
  void Clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    entries_.clear();
    lru_.clear();
    stats_.bytes = 0;
    stats_.entries = 0;
  }

  ResultCacheStats stats() const {
    std::lock_guard<std::mutex> lock(mutex_);
    ResultCacheStats stats = stats_;
    stats.capacity_bytes = capacity_bytes_;
    return stats;
  }
  size_t capacity_bytes() const { return capacity_bytes_; }

 private:
  struct Entry {
    bool ready = false;
    Value value;
    size_t bytes = 0;
    uint64_t generation = 0;
    std::shared_future<StatusOr<Value>> pending;  // valid while computing
    std::list<std::string>::iterator lru_position;
  };

  void EvictOverBudgetLocked() {
    while (stats_.bytes > capacity_bytes_ && !lru_.empty()) {
      auto victim = entries_.find(lru_.back());
      lru_.pop_back();
      stats_.bytes -= victim->second.bytes;
      --stats_.entries;
      ++stats_.evictions;
      entries_.erase(victim);
    }
  }

  const size_t capacity_bytes_;
  const SizeFn size_of_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
  std::list<std::string> lru_;  // finished keys, most recently used first
  uint64_t next_generation_ = 0;
  ResultCacheStats stats_;
};

}  // namespace stepscope::server
