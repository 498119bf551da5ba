#include "src/collect/recorder/thread_buffer.h"

#include <algorithm>
#include <functional>
#include <new>
#include <string_view>
#include <utility>

#include "src/base/logging.h"

namespace stepscope::collect {

using internal::Record;
using internal::RecordKind;

// ---- DrainedRecords ----

DrainedRecords::DrainedRecords(DrainedRecords&& other) noexcept
    : spans_(std::move(other.spans_)),
      owned_blocks_(std::move(other.owned_blocks_)),
      copies_(std::move(other.copies_)) {
  other.spans_.clear();
  other.owned_blocks_.clear();
}

DrainedRecords& DrainedRecords::operator=(DrainedRecords&& other) noexcept {
  if (this != &other) {
    FreeBlocks();
    spans_ = std::move(other.spans_);
    owned_blocks_ = std::move(other.owned_blocks_);
    copies_ = std::move(other.copies_);
    other.spans_.clear();
    other.owned_blocks_.clear();
  }
  return *this;
}

DrainedRecords::~DrainedRecords() { FreeBlocks(); }

void DrainedRecords::FreeBlocks() {
  for (Block* block : owned_blocks_) delete block;
  owned_blocks_.clear();
}

size_t DrainedRecords::record_count() const {
  size_t count = 0;
  for (const Span& span : spans_) count += static_cast<size_t>(span.end - span.begin);
  return count;
}

// ---- ThreadBuffer ----

ThreadBuffer::ThreadBuffer(uint32_t tid) : tid_(tid) {
  producer_block_ = new Block;
  consumer_block_ = producer_block_;
  cursor = producer_block_->records;
  limit = cursor + kRecordsPerBlock;
}

ThreadBuffer::~ThreadBuffer() {
  // Only the consumer's chain is still ours: blocks before it were handed out or freed.
  Block* block = consumer_block_;
  while (block != nullptr) {
    Block* next = block->next;
    delete block;
    block = next;
  }
}

Record* ThreadBuffer::ReserveSlow(size_t count, uint64_t max_blocks) {
  if (static_cast<size_t>(limit - cursor) >= count) return cursor;
  if (count > kRecordsPerBlock) {
    CountDrop();
    return nullptr;
  }
  uint64_t in_flight = blocks_allocated_ - blocks_released_.load(std::memory_order_acquire);
  if (in_flight >= max_blocks) {
    CountDrop();
    return nullptr;
  }
  Block* block = new (std::nothrow) Block;
  if (block == nullptr) {
    CountDrop();
    return nullptr;
  }
  size_t remaining = static_cast<size_t>(limit - cursor);
  if (remaining > 0) {
    // Published together with the next commit, which lands in the new block.
    cursor->head = internal::MakeRecordHead(RecordKind::kPadding, 0);
    cursor->a = 0;
    cursor->b = 0;
    written += remaining;
  }
  // Link before publishing anything in the new block (see the header's block rules).
  producer_block_->next = block;
  producer_block_ = block;
  ++blocks_allocated_;
  cursor = block->records;
  limit = cursor + kRecordsPerBlock;
  return cursor;
}

ThreadBuffer::InternResult ThreadBuffer::InternName(const char* name, size_t size,
                                                    uint64_t generation) {
  if (name_cache_ == nullptr) name_cache_ = std::make_unique<std::array<NameCacheEntry, kNameCacheSize>>();
  if (generation != name_cache_generation_) {
    // Definitions from an earlier session were consumed with that session: forget them.
    for (NameCacheEntry& entry : *name_cache_) entry.id = 0;
    name_cache_generation_ = generation;
    next_name_counter_ = 1;
  }
  std::string_view view(name, size);
  uint64_t hash = std::hash<std::string_view>{}(view);
  NameCacheEntry& entry = (*name_cache_)[hash % kNameCacheSize];
  if (entry.id != 0 && entry.hash == hash && entry.name == view) return {entry.id, false};
  // The generation in the id keeps a stale definition left in the buffer from being
  // confused with a new one.
  return {MakeNameId(generation, next_name_counter_), true};
}

void ThreadBuffer::ConfirmName(const char* name, size_t size, uint64_t id) {
  std::string_view view(name, size);
  uint64_t hash = std::hash<std::string_view>{}(view);
  NameCacheEntry& entry = (*name_cache_)[hash % kNameCacheSize];
  entry.hash = hash;
  entry.id = id;
  entry.name.assign(view);
  ++next_name_counter_;
}

void ThreadBuffer::Consume(DrainedRecords* out) {
  const uint64_t published_count = published.load(std::memory_order_acquire);
  if (consumed_ >= published_count) return;
  // The block holding the last published record may still be the producer's; every
  // block before it is finished.
  const uint64_t last_block_number = (published_count - 1) / kRecordsPerBlock;
  while (true) {
    const uint64_t block_begin = consumer_block_number_ * kRecordsPerBlock;
    const size_t slot_begin = static_cast<size_t>(consumed_ - block_begin);
    if (consumer_block_number_ < last_block_number) {
      Block* block = consumer_block_;
      Block* next = block->next;
      STEPSCOPE_CHECK(next != nullptr);
      if (out != nullptr && slot_begin < kRecordsPerBlock) {
        out->spans_.push_back({block->records + slot_begin, block->records + kRecordsPerBlock});
        out->owned_blocks_.push_back(block);
      } else {
        delete block;
      }
      // The producer's budget counts blocks it still holds; a handed-out block is the
      // collector's to free.
      blocks_released_.fetch_add(1, std::memory_order_release);
      consumer_block_ = next;
      ++consumer_block_number_;
      consumed_ = block_begin + kRecordsPerBlock;
      continue;
    }
    const size_t slot_end = static_cast<size_t>(published_count - block_begin);
    if (out != nullptr && slot_end > slot_begin) {
      auto copy = std::make_unique<std::vector<Record>>(consumer_block_->records + slot_begin,
                                                        consumer_block_->records + slot_end);
      out->spans_.push_back({copy->data(), copy->data() + copy->size()});
      out->copies_.push_back(std::move(copy));
    }
    consumed_ = published_count;
    return;
  }
}

DrainedRecords ThreadBuffer::Drain() {
  DrainedRecords out;
  Consume(&out);
  return out;
}

void ThreadBuffer::Discard() {
  Consume(nullptr);
  TakeDroppedEvents();
}

uint64_t ThreadBuffer::TakeDroppedEvents() {
  uint64_t total = dropped_events_.load(std::memory_order_relaxed);
  uint64_t taken = total - dropped_reported_;
  dropped_reported_ = total;
  return taken;
}

bool ThreadBuffer::IsFinished() const {
  return thread_exited_.load(std::memory_order_acquire) &&
         consumed_ == published.load(std::memory_order_acquire);
}

}  // namespace stepscope::collect
