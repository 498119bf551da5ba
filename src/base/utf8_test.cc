#include "src/base/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace stepscope::base {
namespace {

TEST(Utf8Test, WellFormedTextIsAccepted) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8("void at::native::vectorized_elementwise_kernel<4>"));
  EXPECT_TRUE(IsValidUtf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \xEF\xBF\xBF \xF4\x8F\xBF\xBF"));
  EXPECT_TRUE(IsValidUtf8(std::string("a\0b", 3)));  // NUL is a character
}

TEST(Utf8Test, MalformedTextIsRejected) {
  EXPECT_FALSE(IsValidUtf8("\x80"));                  // lone continuation byte
  EXPECT_FALSE(IsValidUtf8("abc\xC3"));               // sequence cut at the end
  EXPECT_FALSE(IsValidUtf8("\xC3\x28"));              // bad continuation
  EXPECT_FALSE(IsValidUtf8("\xC0\xAF"));              // overlong '/'
  EXPECT_FALSE(IsValidUtf8("\xE0\x80\xAF"));          // overlong, 3 bytes
  EXPECT_FALSE(IsValidUtf8("\xED\xA0\x80"));          // surrogate U+D800
  EXPECT_FALSE(IsValidUtf8("\xF4\x90\x80\x80"));      // past U+10FFFF
  EXPECT_FALSE(IsValidUtf8("\xF5\x80\x80\x80"));      // lead byte that never occurs
  EXPECT_FALSE(IsValidUtf8("12345678\xFF" "abcdefgh"));  // after the ASCII fast path
  // One flipped top bit in an ASCII name, the usual bit-flip corruption.
  EXPECT_FALSE(IsValidUtf8("jit(_uniform)/shift_right\xEFlogical"));
}

}  // namespace
}  // namespace stepscope::base
