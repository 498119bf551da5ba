#include "src/server/loopback_host.h"

#include <gtest/gtest.h>

namespace stepscope::server {
namespace {

TEST(LoopbackHostTest, LoopbackNamesWithAndWithoutPort) {
  for (const char* host : {"localhost", "localhost:6006", "LocalHost:6006", "127.0.0.1", "127.0.0.1:6006",
                           "127.0.0.2:6006", "127.255.255.254:1", "[::1]", "[::1]:6006", "[0:0:0:0:0:0:0:1]:80",
                           "127.0.0.1:65535"}) {
    EXPECT_TRUE(IsLoopbackHost(host)) << host;
  }
}

// Names an attacker's DNS can point at 127.0.0.1: a prefix of "127." is not an address.
TEST(LoopbackHostTest, DnsNamesThatLookLikeLoopbackAreNot) {
  for (const char* host : {"127.evil.example:6006", "127.evil.example", "127.0.0.1.evil.example",
                           "127.0.0.1.evil.example:6006", "localhost.evil.example", "localhost.", "127.0.0.1.",
                           "evil.example", "", "127.1", "127.1:6006", "127.0.1", "0x7f.0.0.1", "2130706433",
                           "0177.0.0.1", "127.000.000.001", "128.0.0.1", "10.0.0.1", "0.0.0.0", "[::]",
                           "[::2]:6006", "[::ffff:127.0.0.1]", "[::1%lo]", "localhost@evil.example",
                           "127.0.0.1/x", " localhost", "localhost "}) {
    EXPECT_FALSE(IsLoopbackHost(host)) << host;
  }
}

TEST(LoopbackHostTest, PortMustBeDigitsInRange) {
  for (const char* host : {"localhost:", "localhost:0", "localhost:65536", "localhost:123456", "localhost:+80",
                           "localhost:80a", "localhost: 80", "localhost:80:80", "127.0.0.1:-1", "[::1]:",
                           "[::1]:0", "[::1]x", "[::1", "::1", "::1:6006"}) {
    EXPECT_FALSE(IsLoopbackHost(host)) << host;
  }
}

TEST(LoopbackHostTest, OriginsAreHttpAndALoopbackHost) {
  EXPECT_TRUE(IsLoopbackOrigin("http://localhost:6006"));
  EXPECT_TRUE(IsLoopbackOrigin("http://127.0.0.2:6006"));
  EXPECT_TRUE(IsLoopbackOrigin("http://[::1]:6006"));
  for (const char* origin : {"http://127.evil.example:6006", "http://127.0.0.1.evil.example", "null", "",
                             "https://localhost:6006", "file://", "http://localhost:6006/", "http://user@localhost",
                             "localhost:6006", "HTTP://localhost"}) {
    EXPECT_FALSE(IsLoopbackOrigin(origin)) << origin;
  }
}

TEST(LoopbackHostTest, BindAddresses) {
  EXPECT_TRUE(IsLoopbackAddress("127.0.0.1"));
  EXPECT_TRUE(IsLoopbackAddress("127.3.2.1"));
  EXPECT_TRUE(IsLoopbackAddress("localhost"));
  EXPECT_TRUE(IsLoopbackAddress("::1"));
  EXPECT_FALSE(IsLoopbackAddress("0.0.0.0"));
  EXPECT_FALSE(IsLoopbackAddress("::"));
  EXPECT_FALSE(IsLoopbackAddress("127.evil.example"));
  EXPECT_FALSE(IsLoopbackAddress("192.168.1.10"));
}

}  // namespace
}  // namespace stepscope::server
