// Every thread that has recorded (or was named) since the process started, and the
// consumer operations the session runs over all of them.
//
// Threads register themselves on their first recorded event, once (thread_local), under
// a lock. A thread that exits keeps its buffer here until the session has consumed
// everything it recorded, then the buffer is freed.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "src/collect/recorder/thread_buffer.h"

namespace stepscope::collect {

// What one thread recorded during a session.
struct DrainedThread {
  uint32_t tid = 0;
  std::string name;
  DrainedRecords records;
  uint64_t dropped_events = 0;
};

class ThreadRegistry {
 public:
  // The process-wide registry (never destroyed, so threads exiting during static
  // destruction can still unregister).
  static ThreadRegistry& Get();

  // ---- Called by the owning thread ----

  // The calling thread's buffer, registering the thread on first use. nullptr while the
  // thread is being torn down (its thread_local state is gone).
  ThreadBuffer* CurrentThreadBuffer();
  void SetCurrentThreadName(std::string_view name);

  // ---- Called by the session (serialised by the session's own lock) ----

  // Per-thread budget for the next session; at least two blocks.
  void SetMaxBytesPerThread(uint64_t bytes);
  uint64_t max_blocks_per_thread() const { return max_blocks_per_thread_.load(std::memory_order_relaxed); }
  // Throws away everything recorded so far (before a session starts).
  void DiscardAll();
  // Takes everything recorded so far, one entry per thread that recorded anything or
  // dropped events. Frees buffers of exited threads once consumed.
  std::vector<DrainedThread> DrainAll();
  // Starts a new session generation and returns it: per-thread dynamic-name caches are
  // invalidated, and names interned from now on carry it in their ids. Call it after
  // DiscardAll(): a thread reads the generation before it writes a definition, so every
  // definition written under the new generation comes after the discarded records and
  // reaches the next DrainAll() (the acquire load that returns the new value
  // synchronises with this update, which follows the discard's reads of `published`).
  uint64_t AdvanceGeneration() { return generation_.fetch_add(1, std::memory_order_acq_rel) + 1; }
  uint64_t generation() const { return generation_.load(std::memory_order_acquire); }

  // Registered threads whose buffers are still held (for tests).
  size_t registered_thread_count() const;

 private:
  ThreadRegistry() = default;

  struct Entry {
    std::unique_ptr<ThreadBuffer> buffer;
    std::string name;
  };
  void RemoveFinishedLocked();

  mutable std::mutex mu_;
  std::vector<Entry> entries_;  // guarded by mu_
  std::atomic<uint64_t> max_blocks_per_thread_{128};
  std::atomic<uint64_t> generation_{1};
};

}  // namespace stepscope::collect
