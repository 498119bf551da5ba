#include "src/collect/recorder/thread_registry.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "stepscope/annotation.h"

namespace stepscope::internal {
std::atomic<int> g_host_tracer_level{0};
constinit thread_local ThreadBufferHot* t_thread_buffer = nullptr;
}  // namespace stepscope::internal

namespace stepscope::collect {
namespace {

using internal::Record;
using internal::RecordKind;

// Set once the thread's thread_local teardown has started: recording must not
// re-register it (that would construct a new thread_local during destruction).
constinit thread_local bool t_thread_exiting = false;

// Marks the buffer as exited when the thread ends. Touched only on registration, so
// threads that never record pay nothing for it.
struct ThreadExitGuard {
  ThreadBuffer* buffer = nullptr;
  ~ThreadExitGuard() {
    t_thread_exiting = true;
    internal::t_thread_buffer = nullptr;
    if (buffer != nullptr) buffer->MarkThreadExited();
  }
};
thread_local ThreadExitGuard t_exit_guard;

uint32_t CurrentTid() { return static_cast<uint32_t>(syscall(SYS_gettid)); }

std::string CurrentOsThreadName() {
  char name[64] = {};
  if (pthread_getname_np(pthread_self(), name, sizeof(name)) != 0 || name[0] == '\0') return {};
  return name;
}

}  // namespace

ThreadRegistry& ThreadRegistry::Get() {
  static ThreadRegistry* registry = new ThreadRegistry();  // leaked on purpose
  return *registry;
}

ThreadBuffer* ThreadRegistry::CurrentThreadBuffer() {
  if (internal::t_thread_buffer != nullptr) {
    return static_cast<ThreadBuffer*>(internal::t_thread_buffer);
  }
  if (t_thread_exiting) return nullptr;
  uint32_t tid = CurrentTid();
  auto buffer = std::make_unique<ThreadBuffer>(tid);
  ThreadBuffer* raw = buffer.get();
  {
    std::lock_guard<std::mutex> lock(mu_);
    entries_.push_back({std::move(buffer), CurrentOsThreadName()});
  }
  t_exit_guard.buffer = raw;
  internal::t_thread_buffer = raw;
  return raw;
}

void ThreadRegistry::SetCurrentThreadName(std::string_view name) {
  ThreadBuffer* buffer = CurrentThreadBuffer();
  if (buffer == nullptr) return;
  std::lock_guard<std::mutex> lock(mu_);
  for (Entry& entry : entries_) {
    if (entry.buffer.get() == buffer) entry.name.assign(name);
  }
}

void ThreadRegistry::SetMaxBytesPerThread(uint64_t bytes) {
  max_blocks_per_thread_.store(std::max<uint64_t>(2, bytes / kBlockBytes), std::memory_order_relaxed);
}

void ThreadRegistry::DiscardAll() {
  std::lock_guard<std::mutex> lock(mu_);
  for (Entry& entry : entries_) entry.buffer->Discard();
  RemoveFinishedLocked();
}

std::vector<DrainedThread> ThreadRegistry::DrainAll() {
  std::vector<DrainedThread> drained;
  std::lock_guard<std::mutex> lock(mu_);
  for (Entry& entry : entries_) {
    DrainedThread thread;
    thread.tid = entry.buffer->tid();
    thread.name = entry.name;
    thread.records = entry.buffer->Drain();
    thread.dropped_events = entry.buffer->TakeDroppedEvents();
    if (!thread.records.empty() || thread.dropped_events > 0) drained.push_back(std::move(thread));
  }
  RemoveFinishedLocked();
  return drained;
}

size_t ThreadRegistry::registered_thread_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.size();
}

void ThreadRegistry::RemoveFinishedLocked() {
  entries_.erase(std::remove_if(entries_.begin(), entries_.end(),
                                [](const Entry& entry) { return entry.buffer->IsFinished(); }),
                 entries_.end());
}

}  // namespace stepscope::collect

namespace stepscope::internal {

Record* ReserveRecordsSlow(size_t count) {
  auto& registry = collect::ThreadRegistry::Get();
  collect::ThreadBuffer* buffer = registry.CurrentThreadBuffer();
  if (buffer == nullptr) return nullptr;  // thread teardown: nothing can be recorded
  return buffer->ReserveSlow(count, registry.max_blocks_per_thread());
}

uint64_t InternDynamicName(const char* name, size_t name_size) {
  auto& registry = collect::ThreadRegistry::Get();
  collect::ThreadBuffer* buffer = registry.CurrentThreadBuffer();
  if (buffer == nullptr) return 0;
  name_size = std::min(name_size, collect::kMaxDynamicNameBytes);
  collect::ThreadBuffer::InternResult interned =
      buffer->InternName(name, name_size, registry.generation());
  if (interned.needs_definition) {
    const size_t count = collect::NameDefinitionRecordCount(name_size);
    Record* records = ReserveRecords(count);
    if (records == nullptr) return 0;  // counted as dropped
    records[0].head = MakeRecordHead(RecordKind::kNameDefinition, interned.id);
    records[0].a = name_size;
    records[0].b = 0;
    std::memcpy(&records[1], name, name_size);
    CommitRecords(count);
    buffer->ConfirmName(name, name_size, interned.id);
  }
  return MakeRecordHead(RecordKind::kDynamicEvent, interned.id);
}

}  // namespace stepscope::internal

namespace stepscope {
void SetCurrentThreadName(std::string_view name) {
  collect::ThreadRegistry::Get().SetCurrentThreadName(name);
}
}  // namespace stepscope
