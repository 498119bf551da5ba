#include "examples/mnist_mlp/worker_pool.h"

#include "stepscope/annotation.h"

namespace mnist_mlp {

WorkerPool::WorkerPool(int num_threads, const std::string& name_prefix) {
  for (int i = 0; i < num_threads; ++i) {
    threads_.emplace_back(&WorkerPool::WorkerLoop, this, i, name_prefix + "/" + std::to_string(i));
  }
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

void WorkerPool::ParallelFor(int count, const std::function<void(int, int)>& fn) {
  if (count <= 0) return;
  std::unique_lock<std::mutex> lock(mutex_);
  fn_ = &fn;
  count_ = count;
  next_index_ = 0;
  unfinished_ = count;
  ++generation_;
  work_ready_.notify_all();
  work_done_.wait(lock, [this] { return unfinished_ == 0; });
  fn_ = nullptr;
}

void WorkerPool::WorkerLoop(int worker, std::string name) {
  stepscope::SetCurrentThreadName(name);
  uint64_t seen_generation = 0;
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    work_ready_.wait(lock, [&] { return stopping_ || (generation_ != seen_generation && next_index_ < count_); });
    if (stopping_) return;
    // Take indices of the current loop until none are left. The lock is held only to
    // hand out an index and to count completions, never while fn runs.
    while (next_index_ < count_) {
      const int index = next_index_++;
      const std::function<void(int, int)>* fn = fn_;
      lock.unlock();
      (*fn)(index, worker);
      lock.lock();
      if (--unfinished_ == 0) work_done_.notify_one();
    }
    seen_generation = generation_;
  }
}

}  // namespace mnist_mlp
