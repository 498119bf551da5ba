#include "stepscope/status.h"

#include <gtest/gtest.h>

#include "src/base/status_macros.h"

namespace stepscope {
namespace {

StatusOr<int> ParsePositive(int v) {
  if (v <= 0) return InvalidArgumentError("not positive: " + std::to_string(v));
  return v;
}

Status DoubleInto(int v, int* out) {
  STEPSCOPE_ASSIGN_OR_RETURN(int parsed, ParsePositive(v));
  *out = parsed * 2;
  return OkStatus();
}

TEST(StatusTest, OkAndErrorsCarryCodeAndMessage) {
  EXPECT_TRUE(OkStatus().ok());
  Status s = DataLossError("truncated");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_EQ(s.ToString(), "data loss: truncated");
  EXPECT_EQ(s.WithContext("a.pb").message(), "a.pb: truncated");
  EXPECT_EQ(s.WithContext("a.pb").code(), StatusCode::kDataLoss);
}

TEST(StatusTest, AssignOrReturnPropagates) {
  int out = 0;
  EXPECT_TRUE(DoubleInto(4, &out).ok());
  EXPECT_EQ(out, 8);
  Status s = DoubleInto(-1, &out);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(out, 8);
}

}  // namespace
}  // namespace stepscope
