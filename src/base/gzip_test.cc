#include "src/base/gzip.h"

#include <gtest/gtest.h>

namespace stepscope::base {
namespace {

TEST(GzipTest, RoundTrip) {
  std::string data;
  for (int i = 0; i < 100000; ++i) data += std::to_string(i);
  auto packed = Gzip(data);
  ASSERT_TRUE(packed.ok());
  EXPECT_TRUE(IsGzip(*packed));
  auto unpacked = GunzipWithLimit(*packed, 1 << 30);
  ASSERT_TRUE(unpacked.ok()) << unpacked.status().ToString();
  EXPECT_EQ(*unpacked, data);
}

TEST(GzipTest, ConcatenatedMembers) {
  auto a = Gzip("hello ");
  auto b = Gzip("world");
  auto unpacked = GunzipWithLimit(*a + *b, 1 << 20);
  ASSERT_TRUE(unpacked.ok());
  EXPECT_EQ(*unpacked, "hello world");
}

TEST(GzipTest, TruncatedIsDataLoss) {
  std::string data(50000, 'x');
  for (size_t i = 0; i < data.size(); i += 7) data[i] = static_cast<char>('a' + i % 26);
  auto packed = Gzip(data);
  auto unpacked = GunzipWithLimit(packed->substr(0, packed->size() / 2), 1 << 20);
  EXPECT_EQ(unpacked.status().code(), StatusCode::kDataLoss);
}

TEST(GzipTest, GarbageIsDataLoss) {
  std::string garbage = "\x1f\x8b\x08\x00garbage-garbage-garbage";
  EXPECT_EQ(GunzipWithLimit(garbage, 1 << 20).status().code(), StatusCode::kDataLoss);
}

TEST(GzipTest, BombIsStoppedAtTheLimit) {
  auto packed = Gzip(std::string(10 << 20, '\0'));
  ASSERT_LT(packed->size(), 100000u);
  auto unpacked = GunzipWithLimit(*packed, 1 << 20);
  EXPECT_EQ(unpacked.status().code(), StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace stepscope::base
