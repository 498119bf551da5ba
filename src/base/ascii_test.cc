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

TEST(AsciiTest, FindsIgnoringCase) {
  EXPECT_TRUE(AsciiContainsIgnoreCase("ncclDevKernel_AllReduce_Sum", "allreduce"));
  EXPECT_TRUE(AsciiContainsIgnoreCase("a%2E%2e/b", "%2e%2e"));  // mixed case in the text
  EXPECT_TRUE(AsciiContainsIgnoreCase("x", ""));
  EXPECT_TRUE(AsciiContainsIgnoreCase("AB", "ab"));
  EXPECT_FALSE(AsciiContainsIgnoreCase("ab", "abc"));
  EXPECT_FALSE(AsciiContainsIgnoreCase("allgather", "allreduce"));
  EXPECT_FALSE(AsciiContainsIgnoreCase("\xC3\x89", "\xC3\xA9"));  // not ASCII letters
  EXPECT_EQ(AsciiLowerCopy("Tesla V100-SXM2"), "tesla v100-sxm2");
}

}  // namespace
}  // namespace stepscope::base
