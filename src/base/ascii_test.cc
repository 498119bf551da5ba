#include "src/base/ascii.h"

#include <gtest/gtest.h>

namespace stepscope::base {
namespace {

TEST(AsciiTest, FoldsOnlyAsciiLetters) {
  EXPECT_EQ(AsciiLower('A'), 'a');
  EXPECT_EQ(AsciiLower('Z'), 'z');
  EXPECT_EQ(AsciiLower('a'), 'a');
  EXPECT_EQ(AsciiLower('@'), '@');  // just below 'A'
  EXPECT_EQ(AsciiLower('['), '[');  // just above 'Z'
  EXPECT_EQ(AsciiLower('\xC3'), '\xC3');  // UTF-8 bytes are left alone
}

TEST(AsciiTest, ComparesIgnoringCase) {
  EXPECT_TRUE(AsciiEqualsIgnoreCase("Content-Length", "content-length"));
  EXPECT_FALSE(AsciiEqualsIgnoreCase("Content-Length", "content-lengt"));
  EXPECT_FALSE(AsciiEqualsIgnoreCase("\xC3\x89t\xC3\xA9", "\xC3\xA9t\xC3\xA9"));  // Été vs été: not ASCII
  EXPECT_TRUE(AsciiEqualsIgnoreCase("", ""));
  EXPECT_TRUE(AsciiStartsWithIgnoreCase("MemcpyHtoD", "memcpy"));
  EXPECT_TRUE(AsciiStartsWithIgnoreCase("kernel", ""));
  EXPECT_FALSE(AsciiStartsWithIgnoreCase("mem", "memcpy"));
  static_assert(AsciiEqualsIgnoreCase("GPU_MEMCPY", "gpu_memcpy"));
}

}  // namespace
}  // namespace stepscope::base
