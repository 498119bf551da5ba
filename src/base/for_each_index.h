// ForEachIndex: the indices [0, count) handed out in order to up to `threads` threads,
// with the first failure in index order reported the same whatever the threads' timing.
//
// Why one helper: the trace assembler readies lines and writes planes this way, and the
// columnar reader parses planes this way, where a broken file must name the plane a
// single thread would stop at. Stopping every thread on a plain "failed" flag broke that:
// a thread that had just taken index 0 dropped it when index 1 failed first (found by the
// columnar fuzzer, under load). Here a thread drops only indices after the earliest
// failure found so far, so every index before it runs to its end.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace stepscope::base {

// Runs the indices [0, count) on up to `threads` threads, the caller's included. Each
// thread calls make_worker() once and then worker(i) for each index it takes, the next
// one not yet taken: per-thread state (a parser, scratch space) lives in the worker.
// worker(i) returns false when index i failed; no index after the earliest failure found
// so far is started. Returns the earliest failing index, count when none failed: the index
// a single thread would have stopped at.
template <typename MakeWorker>
size_t ForEachIndex(size_t count, int threads, const MakeWorker& make_worker) {
  std::atomic<size_t> next{0};
  std::atomic<size_t> first_failed{count};
  auto work = [&] {
    auto worker = make_worker();
    for (size_t i = next++; i < count && i < first_failed; i = next++) {
      if (worker(i)) continue;
      size_t seen = first_failed.load();
      while (i < seen && !first_failed.compare_exchange_weak(seen, i)) {
      }
      return;
    }
  };
  const size_t workers = std::clamp<size_t>(static_cast<size_t>(std::max(threads, 1)), 1, std::max<size_t>(count, 1));
  std::vector<std::thread> helpers;
  for (size_t t = 1; t < workers; ++t) helpers.emplace_back(work);
  work();
  for (std::thread& helper : helpers) helper.join();
  return first_failed;
}

}  // namespace stepscope::base
