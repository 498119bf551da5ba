#include "src/importers/assembler/record_vector.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

namespace stepscope::importers {
namespace {

// Records survive growth across the 2 MiB threshold (malloc to mapped and on).
TEST(RecordVectorTest, VectorsGrowAcrossTheThreshold) {
  RecordVector<uint64_t> values;
  for (uint64_t i = 0; i < (uint64_t{3} << 20); ++i) values.push_back(i * 7);
  for (uint64_t i = 0; i < values.size(); i += 4099) ASSERT_EQ(values[i], i * 7);
  RecordVector<uint64_t> moved = std::move(values);
  EXPECT_EQ(moved.back(), ((uint64_t{3} << 20) - 1) * 7);
}

// Growth of a mapped array moves its pages into a larger mapping; every record must be
// where it was, through many doublings (up to 64 MiB) and whichever way each one went.
TEST(RecordVectorTest, MappedArraysKeepTheirRecordsAcrossManyGrowths) {
  struct Record {
    uint64_t a;
    uint32_t b;
    bool operator==(const Record&) const = default;
  };
  RecordVector<Record> records;
  RecordVector<Record> interleaved;  // grows alongside, so in-place growth is often blocked
  const uint64_t count = (uint64_t{64} << 20) / sizeof(Record);
  for (uint64_t i = 0; i < count; ++i) {
    records.push_back({i, static_cast<uint32_t>(i * 3)});
    if (i % 4 == 0) interleaved.emplace_back(Record{i, 1});
  }
  ASSERT_EQ(records.size(), count);
  for (uint64_t i = 0; i < count; i += 997) ASSERT_EQ(records[i], (Record{i, static_cast<uint32_t>(i * 3)})) << i;
  EXPECT_EQ(records.back().a, count - 1);
  EXPECT_EQ(interleaved[interleaved.size() - 1].a, (count - 1) / 4 * 4);
}

// The vector operations the importers use, with std::vector's meaning.
TEST(RecordVectorTest, VectorOperations) {
  RecordVector<int32_t> values = {5, 1, 4};
  const RecordVector<int32_t> more = {9, 2};
  values.insert(values.end(), more.begin(), more.end());
  EXPECT_EQ(values, (RecordVector<int32_t>{5, 1, 4, 9, 2}));
  EXPECT_EQ(values.EraseIf([](int32_t v) { return v % 2 == 0; }), 2u);
  EXPECT_EQ(values, (RecordVector<int32_t>{5, 1, 9}));
  values.resize(5);
  EXPECT_EQ(values, (RecordVector<int32_t>{5, 1, 9, 0, 0}));
  values.resize(2);
  values.pop_back();
  EXPECT_EQ(values, (RecordVector<int32_t>{5}));
  RecordVector<int32_t> copy = values;
  copy.assign(3, -1);
  EXPECT_EQ(copy, (RecordVector<int32_t>{-1, -1, -1}));
  EXPECT_EQ(values, (RecordVector<int32_t>{5}));  // the copy is its own
  // Its own records, appended while it grows (which moves them).
  RecordVector<int32_t> self;
  constexpr int32_t kFirst = 300000;  // 1.2 MB, then past 2 MiB: malloc'ed, then mapped
  for (int32_t i = 0; i < kFirst; ++i) self.push_back(i);
  for (int i = 0; i < 3; ++i) self.insert(self.end(), self.begin(), self.end());
  self.push_back(self[7]);
  self.emplace_back(self[9]);
  ASSERT_EQ(self.size(), size_t{8} * kFirst + 2);
  EXPECT_EQ(self[size_t{7} * kFirst + kFirst - 1], kFirst - 1);
  EXPECT_EQ(self[size_t{8} * kFirst], 7);
  EXPECT_EQ(self[size_t{8} * kFirst + 1], 9);
  RecordVector<int32_t>().swap(copy);
  EXPECT_TRUE(copy.empty());
  EXPECT_FALSE(values == copy);
}

}  // namespace
}  // namespace stepscope::importers
