// The rules `analyze --parameters/--link_gbps` and the HTTP API share.
#include "src/analysis/tools/multi_gpu_options.h"

#include <gtest/gtest.h>

namespace stepscope::analysis {
namespace {

TEST(MultiGpuOptionsTest, ParameterCountIsAWholeNumberFromOneToTenToTheFifteen) {
  EXPECT_EQ(*ParseParameterCount("parameters", "1"), 1);
  EXPECT_EQ(*ParseParameterCount("parameters", "175000000000"), 175'000'000'000);
  EXPECT_EQ(*ParseParameterCount("parameters", "1000000000000000"), 1'000'000'000'000'000);
  for (const char* bad : {"", "0", "-5", "+5", " 5", "5 ", "1e9", "1.5", "lots", "1000000000000001",
                          "99999999999999999999999"}) {
    StatusOr<int64_t> count = ParseParameterCount("--parameters", bad);
    ASSERT_FALSE(count.ok()) << bad;
    EXPECT_EQ(count.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(count.status().message(),
              "--parameters takes a parameter count from 1 to 10^15, not '" + std::string(bad) + "'");
  }
}

TEST(MultiGpuOptionsTest, LinkGbpsIsAPositiveNumberUpToAMillion) {
  EXPECT_EQ(*ParseLinkGbps("link_gbps", "450"), 450);
  EXPECT_EQ(*ParseLinkGbps("link_gbps", "37.5"), 37.5);
  EXPECT_EQ(*ParseLinkGbps("link_gbps", "1e3"), 1000);
  EXPECT_EQ(*ParseLinkGbps("link_gbps", "1000000"), 1e6);
  for (const char* bad : {"", "0", "-1", "+1", " 5", "5x", "fast", "nan", "inf", "1000001", "1e400"}) {
    StatusOr<double> gbps = ParseLinkGbps("link_gbps", bad);
    ASSERT_FALSE(gbps.ok()) << bad;
    EXPECT_EQ(gbps.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(gbps.status().message(),
              "link_gbps takes a bandwidth in GB/s above 0 and at most 10^6, not '" + std::string(bad) + "'");
  }
}

}  // namespace
}  // namespace stepscope::analysis
