#include "src/server/request_params.h"

#include <gtest/gtest.h>

#include <string>

namespace stepscope::server {
namespace {

TEST(ValidateNameTest, AcceptsRunHostAndToolNames) {
  for (const char* name : {"2026_11_21_10_00_00", "train/2026_11_21", "worker-0.example.com_6009", "overview_page",
                           "a..b", "run.1", "%41bc"}) {
    EXPECT_TRUE(ValidateName("run", name).ok()) << name;
  }
}

TEST(ValidateNameTest, RefusesTraversalInEveryForm) {
  // What reaches us after HTTP's single decoding of "../", "%2e%2e%2f", "%252e%252e%252f", ...
  for (std::string name : {"..", "../etc/passwd", "a/../../b", "a/..", "/etc/passwd", "./x", "a//b", "a/",
                           "%2e%2e%2fetc", "%2E%2E/x", "a%2fb", "..%5c..", "x%00", "a\\..\\b"}) {
    Status status = ValidateName("run", name);
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << name;
    EXPECT_NE(status.message().find("invalid run name"), std::string::npos) << status.message();
  }
}

TEST(ValidateNameTest, RefusesControlBytesEmptyAndHugeNames) {
  EXPECT_FALSE(ValidateName("host", "").ok());
  EXPECT_FALSE(ValidateName("host", std::string("a\0b", 3)).ok());
  EXPECT_FALSE(ValidateName("host", "a\nb").ok());
  EXPECT_FALSE(ValidateName("host", std::string(kMaxNameBytes + 1, 'a')).ok());
  EXPECT_TRUE(ValidateName("host", std::string(kMaxNameBytes, 'a')).ok());
}

}  // namespace
}  // namespace stepscope::server
