#include "src/server/worker_pool.h"

#include <algorithm>
#include <utility>

namespace stepscope::server {
namespace {

thread_local WorkerPool* current_pool = nullptr;

}  // namespace

WorkerPool::WorkerPool(size_t core, size_t max_threads)
    : core_(std::max<size_t>(1, core)), max_threads_(std::max(core_, max_threads)) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t i = 0; i < core_; ++i) StartThreadLocked();
}

WorkerPool::~WorkerPool() { Shutdown(); }

void WorkerPool::StartThreadLocked() {
  ++threads_;
  peak_ = std::max(peak_, threads_);
  running_.emplace_back([this] { Work(); });
}

// Joins spare threads that have left. A leaving thread has released the lock for the
// last time once it is in exited_, so its join returns at once.
void WorkerPool::JoinExitedLocked(std::unique_lock<std::mutex>& lock) {
  if (exited_.empty()) return;
  std::vector<std::thread> done;
  for (std::thread::id id : exited_) {
    auto it = std::find_if(running_.begin(), running_.end(), [id](const std::thread& t) { return t.get_id() == id; });
    if (it == running_.end()) continue;
    done.push_back(std::move(*it));
    running_.erase(it);
  }
  exited_.clear();
  lock.unlock();
  for (std::thread& thread : done) thread.join();
  lock.lock();
}

void WorkerPool::Enqueue(std::function<void()> task) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (stopping_) return;
  JoinExitedLocked(lock);
  queue_.push_back(std::move(task));
  wake_.notify_one();
}

void WorkerPool::Work() {
  current_pool = this;
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return !queue_.empty() || stopping_ || SurplusLocked(); });
    if (queue_.empty()) {
      if (stopping_ || SurplusLocked()) break;
      continue;
    }
    std::function<void()> task = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    task();
    lock.lock();
  }
  --threads_;
  if (!stopping_) exited_.push_back(std::this_thread::get_id());
}

void WorkerPool::Shutdown() {
  std::list<std::thread> all;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    wake_.notify_all();
    all.swap(running_);
    exited_.clear();
  }
  for (std::thread& thread : all) thread.join();
}

WorkerPool::ClientWait::ClientWait() : pool_(current_pool) {
  if (pool_ == nullptr) return;
  std::lock_guard<std::mutex> lock(pool_->mutex_);
  ++pool_->waiting_;
  if (pool_->threads_ - pool_->waiting_ < pool_->core_ && pool_->threads_ < pool_->max_threads_ && !pool_->stopping_) {
    pool_->StartThreadLocked();
  }
}

WorkerPool::ClientWait::~ClientWait() {
  if (pool_ == nullptr) return;
  std::lock_guard<std::mutex> lock(pool_->mutex_);
  --pool_->waiting_;
  pool_->wake_.notify_all();  // a spare thread may now be surplus
}

size_t WorkerPool::threads() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return threads_;
}

size_t WorkerPool::peak_threads() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return peak_;
}

}  // namespace stepscope::server
