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

// gRPC reads "unix:1234" as a Unix socket named 1234 in the current directory.
TEST(ServiceAddressTest, AGrpcSchemeIsNeverAHost) {
  for (const char* bad : {"grpc://unix:1234", "unix:1234", "ipv4:6009", "dns:6009", "grpc://vsock:1",
                          "grpc://unix:/tmp/x.sock"}) {
    auto addresses = ParseServiceAddresses(bad);
    ASSERT_FALSE(addresses.ok()) << bad;
    EXPECT_EQ(addresses.status().code(), StatusCode::kInvalidArgument) << bad;
  }
  // Even where Unix sockets are allowed, behind grpc:// "unix" is a host.
  EXPECT_FALSE(ParseServiceAddresses("grpc://unix:1234", UnixSockets::kAllowed).ok());
  EXPECT_EQ(ChannelTarget("localhost:6009"), "dns:///localhost:6009");
  EXPECT_EQ(ChannelTarget("[::1]:6009"), "dns:///[::1]:6009");
}

TEST(ServiceAddressTest, UnixSocketsOnlyWhenAskedForExplicitly) {
  EXPECT_FALSE(ParseServiceAddresses("unix:/run/w.sock").ok());  // the server's rule
  auto allowed = ParseServiceAddresses("unix:/run/w.sock, h:1", UnixSockets::kAllowed);
  ASSERT_TRUE(allowed.ok()) << allowed.status().ToString();
  EXPECT_EQ(*allowed, (std::vector<std::string>{"unix:/run/w.sock", "h:1"}));
  EXPECT_EQ(ChannelTarget("unix:/run/w.sock"), "unix:/run/w.sock");
  auto relative = ParseServiceAddresses("unix:w.sock", UnixSockets::kAllowed);
  ASSERT_FALSE(relative.ok());
  EXPECT_NE(relative.status().message().find("absolute"), std::string::npos);
}

}  // namespace
}  // namespace stepscope::remote
