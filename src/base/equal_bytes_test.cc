#include "src/base/equal_bytes.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace stepscope::base {
namespace {

// Every length up to 40 and every position of a single differing byte: EqualBytes agrees
// with string_view's ==. Each string sits at the very end of its own allocation, so a
// load past either end would be caught by ASan.
TEST(EqualBytesTest, AgreesWithMemcmpForEveryLengthAndDifference) {
  for (size_t n = 0; n <= 40; ++n) {
    std::unique_ptr<char[]> a(new char[n + 1]);
    std::unique_ptr<char[]> b(new char[n + 1]);
    for (size_t i = 0; i < n; ++i) a[i] = b[i] = static_cast<char>('a' + i % 26);
    std::string_view va(a.get(), n), vb(b.get(), n);
    EXPECT_TRUE(EqualBytes(va, vb)) << n;
    for (size_t d = 0; d < n; ++d) {
      b[d] ^= 0x20;
      EXPECT_FALSE(EqualBytes(va, vb)) << "length " << n << ", byte " << d;
      EXPECT_FALSE(EqualBytes(vb, va)) << "length " << n << ", byte " << d;
      b[d] ^= 0x20;
    }
    if (n > 0) {
      EXPECT_FALSE(EqualBytes(va, va.substr(0, n - 1))) << n;
    }
  }
  EXPECT_TRUE(EqualBytes(std::string_view(), ""));
  EXPECT_FALSE(EqualBytes("External id", "external id"));
}

}  // namespace
}  // namespace stepscope::base
