#include "src/base/capture_settings.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace stepscope::base {
namespace {

using ::testing::HasSubstr;

// The message for `settings`, "" when they are valid.
std::string Problem(const CaptureSettings& settings) {
  Status status = ValidateCaptureSettings(settings);
  if (!status.ok()) {
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  }
  return status.message();
}

TEST(CaptureSettingsTest, UnsetFieldsAreNotChecked) { EXPECT_EQ(Problem({}), ""); }

TEST(CaptureSettingsTest, DurationIsOneMsToTheLimit) {
  EXPECT_EQ(Problem({.duration_ms = 1}), "");
  EXPECT_EQ(Problem({.duration_ms = kMaxCaptureDurationMs}), "");
  EXPECT_EQ(Problem({.duration_ms = 0}), "duration_ms must be 1..600000 (ms), got 0");
  EXPECT_EQ(Problem({.duration_ms = kMaxCaptureDurationMs + 1}), "duration_ms must be 1..600000 (ms), got 600001");
  EXPECT_EQ(Problem({.duration_ms = -5}), "duration_ms must be 1..600000 (ms), got -5");
}

TEST(CaptureSettingsTest, HostTracerLevelIsZeroToThree) {
  EXPECT_EQ(Problem({.host_tracer_level = 0}), "");
  EXPECT_EQ(Problem({.host_tracer_level = 3}), "");
  EXPECT_EQ(Problem({.host_tracer_level = 4}), "host_tracer_level must be 0..3, got 4");
  EXPECT_EQ(Problem({.host_tracer_level = -1}), "host_tracer_level must be 0..3, got -1");
}

TEST(CaptureSettingsTest, DeviceTracerLevelIsZeroToTwo) {
  EXPECT_EQ(Problem({.device_tracer_level = 2}), "");
  EXPECT_EQ(Problem({.device_tracer_level = 3}), "device_tracer_level must be 0..2, got 3");
  // Not wrapped: a value that would overflow an int is reported as typed.
  EXPECT_EQ(Problem({.device_tracer_level = int64_t{1} << 40}),
            "device_tracer_level must be 0..2, got 1099511627776");
}

TEST(CaptureSettingsTest, PythonTracerLevelIsZeroOrOne) {
  EXPECT_EQ(Problem({.python_tracer_level = 1}), "");
  EXPECT_EQ(Problem({.python_tracer_level = 2}), "python_tracer_level must be 0..1, got 2");
}

TEST(CaptureSettingsTest, RetriesAreZeroToOneHundred) {
  EXPECT_EQ(Problem({.retries = 0}), "");
  EXPECT_EQ(Problem({.retries = kMaxCaptureRetries}), "");
  EXPECT_EQ(Problem({.retries = -1}), "retries must be 0..100, got -1");
  EXPECT_EQ(Problem({.retries = 101}), "retries must be 0..100, got 101");
}

TEST(CaptureSettingsTest, DelayIsZeroToTheLimit) {
  EXPECT_EQ(Problem({.delay_ms = 0}), "");
  EXPECT_EQ(Problem({.delay_ms = kMaxCaptureDelayMs}), "");
  EXPECT_EQ(Problem({.delay_ms = -1}), "delay_ms must be 0..600000 (ms), got -1");
  EXPECT_EQ(Problem({.delay_ms = kMaxCaptureDelayMs + 1}), "delay_ms must be 0..600000 (ms), got 600001");
}

TEST(CaptureSettingsTest, EveryViolatedRuleIsNamedOnOneLine) {
  std::string problem = Problem({.duration_ms = 0, .host_tracer_level = 9, .retries = -1});
  EXPECT_EQ(problem,
            "duration_ms must be 1..600000 (ms), got 0; host_tracer_level must be 0..3, got 9; "
            "retries must be 0..100, got -1");
  EXPECT_THAT(problem, ::testing::Not(HasSubstr("\n")));
}

}  // namespace
}  // namespace stepscope::base
