// A fixed set of named threads that run the iterations of one parallel loop at a time:
// the "parallel map" part of the input pipeline.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mnist_mlp {

class WorkerPool {
 public:
  // Starts `num_threads` (> 0) threads named "<name_prefix>/<i>" in the profile.
  WorkerPool(int num_threads, const std::string& name_prefix);
  // Joins the threads. No ParallelFor may be running.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int num_threads() const { return static_cast<int>(threads_.size()); }

  // Runs fn(index, worker) for every index in [0, count) on the pool's threads
  // (worker in [0, num_threads), so callers can keep per-worker scratch) and returns when
  // all have finished. Indices are handed out one at a time, so uneven costs balance.
  // The calling thread only waits. One ParallelFor at a time (callers serialise).
  void ParallelFor(int count, const std::function<void(int index, int worker)>& fn);

 private:
  void WorkerLoop(int worker, std::string name);

  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable work_done_;
  // The current loop; guarded by mutex_.
  const std::function<void(int, int)>* fn_ = nullptr;
  int count_ = 0;
  int next_index_ = 0;
  int unfinished_ = 0;
  uint64_t generation_ = 0;  // bumped per ParallelFor so workers see new work
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace mnist_mlp
