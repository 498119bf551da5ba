#include "src/remote/service_address.h"

#include <gtest/gtest.h>

namespace stepscope::remote {
namespace {

TEST(ServiceAddressTest, StripsGrpcSchemeAndSpacesKeepsOrder) {
  auto addresses = ParseServiceAddresses(" grpc://10.0.0.2:6009, localhost:6010,grpc://[::1]:7000,");
  ASSERT_TRUE(addresses.ok()) << addresses.status().ToString();
  EXPECT_EQ(*addresses, (std::vector<std::string>{"10.0.0.2:6009", "localhost:6010", "[::1]:7000"}));
}

TEST(ServiceAddressTest, RejectsWhatTensorFlowRejects) {
  for (const char* bad : {"localhost", "localhost:", ":6009", "host:port", "host:60x9", "a/b:6009",
                          "host:6009/x", "host:0", "host:70000", "http://host:6009", "a:1:2", "[::1]6009",
                          "[::1:6009"}) {
    auto addresses = ParseServiceAddresses(bad);
    ASSERT_FALSE(addresses.ok()) << bad;
    EXPECT_EQ(addresses.status().code(), StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(addresses.status().message().find("host:port"), std::string::npos) << bad;
  }
}

TEST(ServiceAddressTest, EmptyListsAndDuplicatesAreErrors) {
  EXPECT_FALSE(ParseServiceAddresses("").ok());
  EXPECT_FALSE(ParseServiceAddresses(" , ,").ok());
  auto duplicate = ParseServiceAddresses("grpc://h:1,h:1");
  ASSERT_FALSE(duplicate.ok());
  EXPECT_NE(duplicate.status().message().find("twice"), std::string::npos);
}

}  // namespace
}  // namespace stepscope::remote
