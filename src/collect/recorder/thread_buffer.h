// One thread's event buffer: a single-producer / single-consumer chain of fixed-size
// blocks of 24-byte records.
//
// Producer = the owning thread (the hot path in include/stepscope/internal/recorder.h
// plus ReserveSlow here). Consumer = the profiling session, which serialises all
// consumer calls (ThreadRegistry holds a lock around them). The only shared state per
// event is `published`, written by the producer with a release store and read by the
// consumer with an acquire load at drain time, never during recording.
//
// Block rules that make lock-free hand-over safe:
//   - every block holds exactly kRecordsPerBlock slots, so record index i lives in block
//     i / kRecordsPerBlock of the chain;
//   - a group of records (an event and its arguments, or a name definition and its
//     event) never spans blocks: when it does not fit, the rest of the block is marked
//     kPadding and the group starts the next block;
//   - the producer links a new block before it publishes any record in it, and never
//     touches a block again once it has published a record in a later one. So the
//     consumer may take (or free) every block before the one holding the last published
//     record, and copies what it needs from that last one.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "stepscope/internal/recorder.h"

namespace stepscope::collect {

// 64 KiB blocks, as TSL's lock-free queue uses: one allocation per ~2,700 events keeps
// the slow path rare, and an idle registered thread costs only one block.
inline constexpr size_t kBlockBytes = 64 * 1024;
inline constexpr size_t kRecordsPerBlock = (kBlockBytes - sizeof(void*)) / sizeof(internal::Record);

struct Block {
  Block* next = nullptr;
  internal::Record records[kRecordsPerBlock];
};

// A dynamic name's id: the low 24 bits of the session generation it was interned in,
// above a counter that restarts with each generation. Events carry the id, so the
// collector tells an event whose name was interned before its session started (the
// definition went out with an earlier session's records) from one whose definition must
// be in its session's records. Within a generation ids are unique: a thread writes far
// fewer than 2^32 definitions between two session starts (each takes 48 bytes or more of
// a bounded buffer).
inline constexpr int kNameIdCounterBits = 32;
inline constexpr uint64_t kNameIdCounterMask = (uint64_t{1} << kNameIdCounterBits) - 1;
inline constexpr uint64_t kNameIdGenerationMask =
    internal::kRecordPayloadMask >> kNameIdCounterBits;  // 24 bits

inline uint64_t MakeNameId(uint64_t generation, uint64_t counter) {
  return ((generation & kNameIdGenerationMask) << kNameIdCounterBits) |
         (counter & kNameIdCounterMask);
}
// True when `id` was interned under session generation `generation`.
inline bool IsNameIdOfGeneration(uint64_t id, uint64_t generation) {
  return (id >> kNameIdCounterBits) == (generation & kNameIdGenerationMask);
}

// Names longer than this are truncated: a definition must fit well inside one block, and
// no sane annotation needs 4 KiB of metadata.
inline constexpr size_t kMaxDynamicNameBytes = 4096;

// Records taken out of a thread's buffer, in order. Owns the whole blocks it was given
// and a copy of the partially read last block. Move-only.
class DrainedRecords {
 public:
  struct Span {
    const internal::Record* begin;
    const internal::Record* end;
  };

  DrainedRecords() = default;
  DrainedRecords(DrainedRecords&& other) noexcept;
  DrainedRecords& operator=(DrainedRecords&& other) noexcept;
  ~DrainedRecords();

  // Spans in recording order. Each span lies within one block.
  const std::vector<Span>& spans() const { return spans_; }
  size_t record_count() const;
  bool empty() const { return spans_.empty(); }

 private:
  friend class ThreadBuffer;
  void FreeBlocks();

  std::vector<Span> spans_;
  std::vector<Block*> owned_blocks_;
  // Copies of tail records; a deque-like list of vectors so spans stay valid.
  std::vector<std::unique_ptr<std::vector<internal::Record>>> copies_;
};

class ThreadBuffer : public internal::ThreadBufferHot {
 public:
  explicit ThreadBuffer(uint32_t tid);
  ~ThreadBuffer();
  ThreadBuffer(const ThreadBuffer&) = delete;
  ThreadBuffer& operator=(const ThreadBuffer&) = delete;

  uint32_t tid() const { return tid_; }

  // ---- Producer side (owning thread only) ----

  // `count` contiguous free records, moving to a new block if this one lacks room and
  // fewer than `max_blocks` blocks are in flight; else counts a dropped event and
  // returns nullptr. `count` must be <= kRecordsPerBlock.
  internal::Record* ReserveSlow(size_t count, uint64_t max_blocks);
  // Counts one event that could not be recorded.
  void CountDrop() { dropped_events_.fetch_add(1, std::memory_order_relaxed); }

  // Interns a dynamic name for this thread: returns its id (see MakeNameId) and whether
  // the caller must write a kNameDefinition group first (first use in this session
  // generation). `generation` must be read before the definition is written: that order
  // is what guarantees the definition reaches the session of that generation (see
  // ThreadRegistry::AdvanceGeneration).
  struct InternResult {
    uint64_t id;
    bool needs_definition;
  };
  InternResult InternName(const char* name, size_t size, uint64_t generation);
  // Marks the name as defined (called after the definition group was committed); the
  // next new name gets the next id. A definition that was dropped uses up no id.
  void ConfirmName(const char* name, size_t size, uint64_t id);

  // ---- Consumer side (serialised by the caller) ----

  // Takes every record published so far.
  DrainedRecords Drain();
  // Drops every record published so far (stale records from between sessions).
  void Discard();
  // Events dropped since the last Drain() or Discard() (which reset the count).
  uint64_t TakeDroppedEvents();
  // True when the owning thread has exited and everything it published was consumed.
  bool IsFinished() const;
  void MarkThreadExited() { thread_exited_.store(true, std::memory_order_release); }

 private:
  struct NameCacheEntry {
    uint64_t hash = 0;
    uint64_t id = 0;  // 0 = empty
    std::string name;
  };
  static constexpr size_t kNameCacheSize = 256;  // direct-mapped; misses only cost a definition

  // Consumer: walks records up to `published`, handing them to `out` (or freeing them
  // when `out` is null).
  void Consume(DrainedRecords* out);

  const uint32_t tid_;

  // Producer-owned.
  Block* producer_block_;
  uint64_t blocks_allocated_ = 1;
  std::unique_ptr<std::array<NameCacheEntry, kNameCacheSize>> name_cache_;
  uint64_t name_cache_generation_ = 0;
  uint64_t next_name_counter_ = 1;  // within name_cache_generation_

  // Written by the producer, read by the consumer.
  std::atomic<uint64_t> dropped_events_{0};
  std::atomic<bool> thread_exited_{false};
  // Written by the consumer, read by the producer's slow path.
  std::atomic<uint64_t> blocks_released_{0};

  // Consumer-owned.
  Block* consumer_block_;
  uint64_t consumer_block_number_ = 0;
  uint64_t consumed_ = 0;
  uint64_t dropped_reported_ = 0;
};

// Number of records a name definition of `size` bytes occupies (header + bytes).
inline size_t NameDefinitionRecordCount(size_t size) {
  return 1 + (size + sizeof(internal::Record) - 1) / sizeof(internal::Record);
}

}  // namespace stepscope::collect
