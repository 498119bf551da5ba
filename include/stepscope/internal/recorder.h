// The recording hot path, inlined into every annotation site. Not part of the public API:
// users never name anything in stepscope::internal, and it may change without notice.
//
// Cost model (DESIGN.md "Performance architecture"):
//   off: one acquire load of g_host_tracer_level and a branch (acquire is a plain load on
//        x86-64 and ARMv8.3+ LDAPR), nothing else, no argument evaluation.
//   on:  two tick reads and one fixed-size 24-byte record written into the calling
//        thread's own buffer, published with one release store of a counter that only
//        this thread writes. No lock, no shared cache line written per event.
//
// Threading contract: every function here touches only the calling thread's buffer. The
// session (src/collect) reads the buffers through ThreadBuffer's consumer side, which is
// serialised by the session and synchronises with the producer through `published`.
#pragma once

#include <time.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace stepscope::internal {

// Levels as in TensorFlow's TraceMe: an annotation of level L is recorded iff
// 1 <= L <= the active session's host_tracer_level. 0 means "not profiling".
inline constexpr int kLevelCritical = 1;  // user annotations, steps
inline constexpr int kLevelInfo = 2;      // framework internals worth seeing by default
inline constexpr int kLevelVerbose = 3;   // cheap, very frequent events

// The active session's host tracer level, 0 when off. Written only by the session.
extern std::atomic<int> g_host_tracer_level;

// True when ReadTicks() reads the invariant TSC, false when it reads CLOCK_MONOTONIC ns.
// Decided once, before the first session turns g_host_tracer_level on (the release
// store of the level publishes it to threads that acquire-load the level).
extern bool g_ticks_are_tsc;

// A timestamp in clock ticks: TSC cycles or monotonic ns (see g_ticks_are_tsc).
// Converted to ns when the session collects the buffers, never on the hot path.
inline uint64_t ReadTicks() {
#if defined(__x86_64__) || defined(__i386__)
  if (__builtin_expect(g_ticks_are_tsc, 1)) return __builtin_ia32_rdtsc();
#endif
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// True when an annotation of `level` must be recorded now.
inline bool IsLevelEnabled(int level) {
  return level <= g_host_tracer_level.load(std::memory_order_acquire);
}

// One fixed-size record. `head` holds the record kind in its top byte and a payload in
// the low 56 bits; kStaticEvent is kind 0, so a static event's head is simply its name
// pointer (user-space pointers are below 2^56 on every 64-bit Linux target).
struct Record {
  uint64_t head;
  uint64_t a;
  uint64_t b;
};
static_assert(sizeof(Record) == 24, "records are 24 bytes; block layout depends on it");

enum class RecordKind : uint8_t {
  kStaticEvent = 0,     // payload: const char* name; a: start ticks; b: end ticks
  kDynamicEvent = 1,    // payload: per-thread name id; a: start ticks; b: end ticks
  kNameDefinition = 2,  // payload: name id; a: length in bytes; followed by ceil(a/24)
                        // records of raw name bytes
  kInt64Arg = 3,        // payload: const char* key; a: int64 value. Follows its event.
  kPadding = 4,         // rest of the block is unused
};

inline constexpr int kRecordKindShift = 56;
inline constexpr uint64_t kRecordPayloadMask = (uint64_t{1} << kRecordKindShift) - 1;

inline uint64_t MakeRecordHead(RecordKind kind, uint64_t payload) {
  return (static_cast<uint64_t>(kind) << kRecordKindShift) | (payload & kRecordPayloadMask);
}
inline RecordKind RecordKindOf(uint64_t head) {
  return static_cast<RecordKind>(head >> kRecordKindShift);
}

// The producer-side fields of a thread's buffer, the only part the hot path touches.
// The owning thread writes `cursor`, `limit` and `written` and publishes `written` to
// the consumer with a release store of `published`. The rest of the buffer (blocks,
// consumer position, thread name) lives in src/collect/recorder/thread_buffer.h.
struct alignas(64) ThreadBufferHot {
  Record* cursor = nullptr;  // next free slot in the current block
  Record* limit = nullptr;   // one past the last slot of the current block
  uint64_t written = 0;      // records written, padding included (producer's copy)
  std::atomic<uint64_t> published{0};  // records the consumer may read
};

// This thread's buffer, or nullptr before the thread first records.
// constinit: no dynamic initialisation, so access compiles to a plain TLS load with no
// wrapper call.
extern constinit thread_local ThreadBufferHot* t_thread_buffer;

// Out-of-line slow path of ReserveRecords: registers the thread on first use, moves to
// a new block when this one is full, or counts a drop and returns nullptr when the
// per-thread budget is used up.
Record* ReserveRecordsSlow(size_t count);

// `count` contiguous free records in this thread's buffer, or nullptr (dropped and
// counted). Write them, then call CommitRecords(count).
inline Record* ReserveRecords(size_t count) {
  ThreadBufferHot* buffer = t_thread_buffer;
  if (__builtin_expect(buffer != nullptr, 1) &&
      static_cast<size_t>(buffer->limit - buffer->cursor) >= count) {
    return buffer->cursor;
  }
  return ReserveRecordsSlow(count);
}

// Publishes the `count` records just written at the slots ReserveRecords returned.
inline void CommitRecords(size_t count) {
  ThreadBufferHot* buffer = t_thread_buffer;
  buffer->cursor += count;
  buffer->written += count;
  buffer->published.store(buffer->written, std::memory_order_release);
}

// Records a complete event. `head` is a static name pointer (kStaticEvent) or the
// kDynamicEvent head returned by InternDynamicName.
inline void RecordEvent(uint64_t head, uint64_t start_ticks, uint64_t end_ticks) {
  Record* record = ReserveRecords(1);
  if (record == nullptr) return;
  record->head = head;
  record->a = start_ticks;
  record->b = end_ticks;
  CommitRecords(1);
}

// Records a complete event whose name is a string with static storage duration.
inline void RecordStaticEvent(const char* name, uint64_t start_ticks, uint64_t end_ticks) {
  RecordEvent(reinterpret_cast<uintptr_t>(name), start_ticks, end_ticks);
}

// An int64 argument of an event; `key` has static storage duration.
struct StaticInt64Arg {
  const char* key;
  int64_t value;
};

// Records a complete event with int64 arguments, published together so the collector
// sees all of them or none. `head` is a static name pointer or the kDynamicEvent head
// returned by InternDynamicName (names built at run time, e.g. by the Python bindings).
inline void RecordEventWithArgs(uint64_t head, uint64_t start_ticks, uint64_t end_ticks,
                                const StaticInt64Arg* args, size_t arg_count) {
  Record* record = ReserveRecords(1 + arg_count);
  if (record == nullptr) return;
  record[0].head = head;
  record[0].a = start_ticks;
  record[0].b = end_ticks;
  for (size_t i = 0; i < arg_count; ++i) {
    record[1 + i].head =
        MakeRecordHead(RecordKind::kInt64Arg, reinterpret_cast<uintptr_t>(args[i].key));
    record[1 + i].a = static_cast<uint64_t>(args[i].value);
    record[1 + i].b = 0;
  }
  CommitRecords(1 + arg_count);
}

// The same with a name of static storage duration.
inline void RecordStaticEventWithArgs(const char* name, uint64_t start_ticks,
                                      uint64_t end_ticks, const StaticInt64Arg* args,
                                      size_t arg_count) {
  RecordEventWithArgs(reinterpret_cast<uintptr_t>(name), start_ticks, end_ticks, args, arg_count);
}

// Interns a name built at run time (TraceMe-encoded metadata allowed) in this thread's
// table, writing its definition into the buffer on first use in the session. Returns
// the kDynamicEvent record head to end the event with, or 0 when the buffer is full
// (counted as a dropped event). Out of line because it hashes.
uint64_t InternDynamicName(const char* name, size_t name_size);

// Records a complete event whose name was built at run time.
inline void RecordDynamicEvent(const char* name, size_t name_size, uint64_t start_ticks,
                               uint64_t end_ticks) {
  uint64_t head = InternDynamicName(name, name_size);
  if (head != 0) RecordEvent(head, start_ticks, end_ticks);
}

}  // namespace stepscope::internal
