// The threads that answer requests: a fixed core, plus a spare thread for each worker
// that waits on a client.
//
// A worker writing a response to a client that stopped reading waits (up to the write
// stall timeout) for the socket to drain. With a fixed pool, 16 sockets that asked for a
// trace export and never read held all 8 workers and a real request waited 10 s. Here a
// worker about to wait on a client says so (ClientWait); while fewer than `core` workers
// are free to run, the pool starts another thread, up to `max_threads`. A spare thread
// leaves when it finds no work while `core` others could run. So requests that compute
// share `core` threads, and a stalled client costs one thread, not a place in the queue.
//
// Thread safety: Enqueue and Shutdown from any thread; ClientWait on a worker thread.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <list>
#include <mutex>
#include <thread>
#include <vector>

namespace stepscope::server {

class WorkerPool {
 public:
  WorkerPool(size_t core, size_t max_threads);
  ~WorkerPool();  // Shutdown()
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  void Enqueue(std::function<void()> task);
  // Runs what is queued, then joins every thread. Enqueue after it drops the task.
  void Shutdown();

  // Marks the calling worker as waiting on a client for the scope's life. Outside a
  // pool's worker (a test calling a handler directly) it does nothing.
  class ClientWait {
   public:
    ClientWait();
    ~ClientWait();
    ClientWait(const ClientWait&) = delete;
    ClientWait& operator=(const ClientWait&) = delete;

   private:
    WorkerPool* pool_;
  };

  size_t threads() const;       // live threads now
  size_t peak_threads() const;  // the most at once

 private:
  void StartThreadLocked();
  void JoinExitedLocked(std::unique_lock<std::mutex>& lock);
  void Work();
  bool SurplusLocked() const { return threads_ - waiting_ > core_; }

  const size_t core_;
  const size_t max_threads_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> queue_;
  std::list<std::thread> running_;
  std::vector<std::thread::id> exited_;  // spare threads that left; joined lazily
  size_t threads_ = 0;  // live threads (running_ less exited_)
  size_t waiting_ = 0;  // of them, inside a ClientWait
  size_t peak_ = 0;
  bool stopping_ = false;
};

}  // namespace stepscope::server
