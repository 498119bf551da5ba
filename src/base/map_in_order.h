// MapInOrder: values produced for the indices [0, count) on several threads and consumed
// on the caller's thread in index order, with at most `window` produced and not yet
// consumed.
//
// Why: a run's hosts are read on every core and folded into one model in host order (the
// order decides the combined tables' ties). Reading a batch, then folding it, left the
// cores idle while the caller folded and held every host's model until the end; here the
// folding overlaps the reading, and memory holds `window` models, not the run's thousands.
// The caller produces too whenever the value it needs next is not ready: it never sleeps
// while there is work to take (a consumer woken per host was 15 % of a 10,000-host reduce,
// in the kernel), and `threads` threads in all run, not one more than the cores.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace stepscope::base {

// produce(i) -> T runs on up to `threads` threads, the caller's included, the next index
// not yet taken each time; consume(i, T&&) -> bool runs on the caller's thread for
// i = 0, 1, ... and returns false to stop: no index after it is consumed, and producing
// stops (indices already taken finish and are dropped). Returns the number of indices
// consumed.
template <typename T, typename Produce, typename Consume>
size_t MapInOrder(size_t count, int threads, size_t window, const Produce& produce, const Consume& consume) {
  std::mutex mu;
  std::condition_variable produced, consumed_one;
  std::vector<std::optional<T>> slots(std::clamp<size_t>(window, 1, std::max<size_t>(count, 1)));
  window = slots.size();
  size_t next = 0;      // the next index to produce
  size_t consumed = 0;  // indices consumed (or given up on)
  bool stop = false;
  // Who sleeps, so that a wake-up is sent only to a thread that waits for it.
  bool consumer_waiting = false;
  size_t producers_waiting = 0;
  auto can_take = [&] { return !stop && next < count && next < consumed + window; };
  // Produces index i and files it; returns with `lock` held again.
  auto produce_one = [&](size_t i, std::unique_lock<std::mutex>& lock) {
    lock.unlock();
    T value = produce(i);
    lock.lock();
    slots[i % window].emplace(std::move(value));
  };
  auto help = [&] {
    std::unique_lock<std::mutex> lock(mu);
    for (;;) {
      ++producers_waiting;
      consumed_one.wait(lock, [&] { return stop || next >= count || next < consumed + window; });
      --producers_waiting;
      if (!can_take()) return;
      produce_one(next++, lock);
      if (consumer_waiting) produced.notify_one();
    }
  };
  const size_t helpers_wanted =
      std::clamp<size_t>(static_cast<size_t>(std::max(threads, 1)), 1, std::max<size_t>(count, 1)) - 1;
  std::vector<std::thread> helpers;
  for (size_t t = 0; t < helpers_wanted; ++t) helpers.emplace_back(help);
  size_t done = 0;
  for (; done < count; ++done) {
    std::optional<T> value;
    bool wake = false;
    {
      std::unique_lock<std::mutex> lock(mu);
      while (!slots[done % window].has_value()) {
        if (can_take()) {  // the value is not ready: produce the next one meanwhile
          produce_one(next++, lock);
          continue;
        }
        consumer_waiting = true;
        produced.wait(lock, [&] { return slots[done % window].has_value() || can_take(); });
        consumer_waiting = false;
      }
      value = std::move(slots[done % window]);
      slots[done % window].reset();
      consumed = done + 1;
      wake = producers_waiting > 0;
    }
    if (wake) consumed_one.notify_all();
    if (!consume(done, std::move(*value))) {
      std::lock_guard<std::mutex> lock(mu);
      stop = true;
      break;
    }
  }
  consumed_one.notify_all();
  for (std::thread& helper : helpers) helper.join();
  return done < count ? done + 1 : done;
}

}  // namespace stepscope::base
