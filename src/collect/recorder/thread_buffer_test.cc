#include "src/collect/recorder/thread_buffer.h"

#include <atomic>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace stepscope::collect {
namespace {

using internal::Record;
using internal::RecordKind;

// Writes `count` one-record events carrying `first`, `first+1`, ... in `a`, through the
// same reserve/commit protocol the hot path uses (here on an explicit buffer).
// Returns how many were accepted.
uint64_t WriteSequence(ThreadBuffer* buffer, uint64_t first, uint64_t count, uint64_t max_blocks,
                       size_t group_size = 1) {
  uint64_t accepted = 0;
  for (uint64_t i = 0; i < count; ++i) {
    Record* records = static_cast<size_t>(buffer->limit - buffer->cursor) >= group_size
                          ? buffer->cursor
                          : buffer->ReserveSlow(group_size, max_blocks);
    if (records == nullptr) continue;
    for (size_t k = 0; k < group_size; ++k) {
      records[k].head = internal::MakeRecordHead(k == 0 ? RecordKind::kDynamicEvent : RecordKind::kInt64Arg, 7);
      records[k].a = first + i;
      records[k].b = k;
    }
    buffer->cursor += group_size;
    buffer->written += group_size;
    buffer->published.store(buffer->written, std::memory_order_release);
    ++accepted;
  }
  return accepted;
}

// The `a` values of every event record (group leaders), skipping padding.
std::vector<uint64_t> EventValues(const DrainedRecords& drained) {
  std::vector<uint64_t> values;
  for (const DrainedRecords::Span& span : drained.spans()) {
    for (const Record* r = span.begin; r < span.end; ++r) {
      RecordKind kind = internal::RecordKindOf(r->head);
      if (kind == RecordKind::kPadding) break;
      if (kind == RecordKind::kDynamicEvent) values.push_back(r->a);
    }
  }
  return values;
}

TEST(ThreadBufferTest, DrainReturnsRecordsInOrderAcrossBlocks) {
  ThreadBuffer buffer(1);
  const uint64_t count = 3 * kRecordsPerBlock + 17;
  ASSERT_EQ(WriteSequence(&buffer, 100, count, /*max_blocks=*/16), count);
  DrainedRecords drained = buffer.Drain();
  std::vector<uint64_t> values = EventValues(drained);
  ASSERT_EQ(values.size(), count);
  for (uint64_t i = 0; i < count; ++i) ASSERT_EQ(values[i], 100 + i) << "at " << i;
  EXPECT_EQ(buffer.TakeDroppedEvents(), 0u);
  // Nothing new: a second drain is empty.
  EXPECT_TRUE(buffer.Drain().empty());
}

TEST(ThreadBufferTest, FullBufferDropsAndCountsExactly) {
  ThreadBuffer buffer(1);
  const uint64_t max_blocks = 2;
  const uint64_t capacity = max_blocks * kRecordsPerBlock;
  const uint64_t attempted = capacity + 1000;
  EXPECT_EQ(WriteSequence(&buffer, 0, attempted, max_blocks), capacity);
  EXPECT_EQ(buffer.TakeDroppedEvents(), 1000u);
  EXPECT_EQ(buffer.TakeDroppedEvents(), 0u) << "the count resets when taken";
  std::vector<uint64_t> values = EventValues(buffer.Drain());
  ASSERT_EQ(values.size(), capacity);
  EXPECT_EQ(values.back(), capacity - 1) << "the earliest events are kept, later ones dropped";
}

TEST(ThreadBufferTest, DrainingFreesBudgetForTheNextSession) {
  ThreadBuffer buffer(1);
  const uint64_t max_blocks = 2;
  const uint64_t capacity = max_blocks * kRecordsPerBlock;
  EXPECT_EQ(WriteSequence(&buffer, 0, capacity + 5, max_blocks), capacity);
  buffer.Discard();
  EXPECT_EQ(buffer.TakeDroppedEvents(), 0u) << "Discard resets the drop count";
  // The block the producer is still in stays allocated; at least one more fits.
  uint64_t accepted = WriteSequence(&buffer, 50000, kRecordsPerBlock, max_blocks);
  EXPECT_EQ(accepted, kRecordsPerBlock);
  std::vector<uint64_t> values = EventValues(buffer.Drain());
  ASSERT_EQ(values.size(), kRecordsPerBlock);
  EXPECT_EQ(values.front(), 50000u) << "discarded records must not come back";
}

TEST(ThreadBufferTest, GroupsNeverSpanBlocks) {
  ThreadBuffer buffer(1);
  // The group size must not divide the block size, so padding has to be inserted.
  constexpr size_t kGroup = 4;
  ASSERT_NE(kRecordsPerBlock % kGroup, 0u);
  const uint64_t groups = 2 * kRecordsPerBlock / kGroup + 3;
  ASSERT_EQ(WriteSequence(&buffer, 0, groups, 16, kGroup), groups);
  DrainedRecords drained = buffer.Drain();
  uint64_t seen = 0;
  for (const DrainedRecords::Span& span : drained.spans()) {
    const Record* r = span.begin;
    while (r < span.end) {
      if (internal::RecordKindOf(r->head) == RecordKind::kPadding) break;
      ASSERT_EQ(internal::RecordKindOf(r->head), RecordKind::kDynamicEvent);
      ASSERT_LE(r + kGroup, span.end) << "group split across blocks";
      for (size_t k = 1; k < kGroup; ++k) ASSERT_EQ(r[k].a, r->a);
      ASSERT_EQ(r->a, seen);
      ++seen;
      r += kGroup;
    }
  }
  EXPECT_EQ(seen, groups);
}

TEST(ThreadBufferTest, ConcurrentProducerAndDrainsLoseNothing) {
  ThreadBuffer buffer(1);
  const uint64_t count = 20 * kRecordsPerBlock;
  std::atomic<bool> done{false};
  std::thread producer([&] {
    WriteSequence(&buffer, 0, count, /*max_blocks=*/1u << 20);
    done.store(true);
  });
  std::vector<uint64_t> all;
  std::vector<DrainedRecords> keep;  // keep spans alive until checked
  while (!done.load()) {
    DrainedRecords drained = buffer.Drain();
    std::vector<uint64_t> values = EventValues(drained);
    all.insert(all.end(), values.begin(), values.end());
    keep.push_back(std::move(drained));
  }
  producer.join();
  std::vector<uint64_t> rest = EventValues(buffer.Drain());
  all.insert(all.end(), rest.begin(), rest.end());
  ASSERT_EQ(all.size(), count);
  for (uint64_t i = 0; i < count; ++i) ASSERT_EQ(all[i], i) << "at " << i;
}

TEST(ThreadBufferTest, InternedNamesAreDefinedOncePerGeneration) {
  ThreadBuffer buffer(1);
  const char name[] = "read#bytes=5#";
  ThreadBuffer::InternResult first = buffer.InternName(name, sizeof(name) - 1, 1);
  EXPECT_TRUE(first.needs_definition);
  buffer.ConfirmName(name, sizeof(name) - 1, first.id);
  ThreadBuffer::InternResult second = buffer.InternName(name, sizeof(name) - 1, 1);
  EXPECT_FALSE(second.needs_definition);
  EXPECT_EQ(second.id, first.id);
  ThreadBuffer::InternResult next_session = buffer.InternName(name, sizeof(name) - 1, 2);
  EXPECT_TRUE(next_session.needs_definition) << "a new session must see the definition again";
  EXPECT_NE(next_session.id, first.id) << "ids are never reused";
}

TEST(ThreadBufferTest, NameIdsCarryTheGenerationTheyWereInternedUnder) {
  ThreadBuffer buffer(1);
  const char a[] = "a#k=1#";
  const char b[] = "b#k=2#";
  ThreadBuffer::InternResult first = buffer.InternName(a, sizeof(a) - 1, 7);
  EXPECT_TRUE(IsNameIdOfGeneration(first.id, 7));
  EXPECT_FALSE(IsNameIdOfGeneration(first.id, 6));
  EXPECT_FALSE(IsNameIdOfGeneration(first.id, 8));
  // A definition that could not be written (full buffer) is not confirmed: it uses up
  // no id, and the next intern asks for the definition again.
  ThreadBuffer::InternResult retried = buffer.InternName(a, sizeof(a) - 1, 7);
  EXPECT_TRUE(retried.needs_definition);
  EXPECT_EQ(retried.id, first.id);
  buffer.ConfirmName(a, sizeof(a) - 1, retried.id);
  ThreadBuffer::InternResult other = buffer.InternName(b, sizeof(b) - 1, 7);
  EXPECT_NE(other.id, first.id);
  EXPECT_TRUE(IsNameIdOfGeneration(other.id, 7));
  // The tag wraps with the generation's low bits; the payload stays within a record head.
  const uint64_t big = kNameIdGenerationMask + 5;
  ThreadBuffer::InternResult wrapped = buffer.InternName(a, sizeof(a) - 1, big);
  EXPECT_TRUE(IsNameIdOfGeneration(wrapped.id, big));
  EXPECT_EQ(wrapped.id & ~internal::kRecordPayloadMask, 0u);
}

}  // namespace
}  // namespace stepscope::collect
