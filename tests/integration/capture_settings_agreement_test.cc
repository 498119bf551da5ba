// One rule, one message: the same bad capture setting is refused with the same words by
// `stepscope capture`, POST /api/capture, the capture client library and
// stepscope::Session (all through base::ValidateCaptureSettings). Runs the CLI command
// and the HTTP route in process; nothing connects anywhere (the values are refused first).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "src/base/capture_settings.h"
#include "src/cli/commands.h"
#include "src/remote/capture_client.h"
#include "src/server/capture_route.h"
#include "stepscope/session.h"

namespace stepscope {
namespace {

using ::testing::HasSubstr;

struct BadValue {
  std::string field;
  int64_t value;
};

// The rule's message, from the validation function itself (not a copy of its text).
std::string ExpectedMessage(const BadValue& bad) {
  base::CaptureSettings settings;
  if (bad.field == "duration_ms") settings.duration_ms = bad.value;
  if (bad.field == "host_tracer_level") settings.host_tracer_level = bad.value;
  if (bad.field == "device_tracer_level") settings.device_tracer_level = bad.value;
  if (bad.field == "python_tracer_level") settings.python_tracer_level = bad.value;
  if (bad.field == "retries") settings.retries = bad.value;
  if (bad.field == "delay_ms") settings.delay_ms = bad.value;
  Status status = base::ValidateCaptureSettings(settings);
  EXPECT_FALSE(status.ok()) << bad.field << "=" << bad.value;
  return status.message();
}

// stderr of `stepscope capture grpc://127.0.0.1:1 --logdir DIR --<field> <value>`.
std::string CliError(const BadValue& bad, int* exit_code) {
  std::ostringstream out, err;
  cli::CommandContext context{{"grpc://127.0.0.1:1", "--logdir", ::testing::TempDir(), "--" + bad.field,
                               std::to_string(bad.value)},
                              out,
                              err};
  *exit_code = cli::RunCaptureCommand(context);
  return err.str();
}

std::string RouteError(const BadValue& bad, int* http_status) {
  server::CaptureRoute route(::testing::TempDir());
  std::string body = R"({"service_addresses": "grpc://127.0.0.1:1", ")" + bad.field +
                     "\": " + std::to_string(bad.value) + "}";
  server::HttpReply reply = route.Handle("application/json", body);
  *http_status = reply.status;
  return reply.body;
}

const std::vector<BadValue>& BadValues() {
  static const std::vector<BadValue> values = {
      {"duration_ms", 0},         {"duration_ms", 600001},        {"host_tracer_level", 4},
      {"host_tracer_level", -1},  {"device_tracer_level", 3},     {"device_tracer_level", int64_t{1} << 40},
      {"python_tracer_level", 2}, {"retries", -1},                {"retries", 101},
      {"delay_ms", -1},           {"delay_ms", 600001}};
  return values;
}

TEST(CaptureSettingsAgreementTest, CliAndHttpRouteGiveTheSameMessageForTheSameBadValue) {
  for (const BadValue& bad : BadValues()) {
    SCOPED_TRACE(bad.field + "=" + std::to_string(bad.value));
    std::string expected = ExpectedMessage(bad);
    ASSERT_THAT(expected, HasSubstr(bad.field));
    int exit_code = 0, http_status = 0;
    std::string cli = CliError(bad, &exit_code);
    EXPECT_EQ(exit_code, 2);
    EXPECT_EQ(cli, "stepscope: capture: " + expected + "\n");
    std::string route = RouteError(bad, &http_status);
    EXPECT_EQ(http_status, 400);
    EXPECT_THAT(route, HasSubstr("\"" + expected + "\"")) << route;
  }
}

TEST(CaptureSettingsAgreementTest, TheLibraryAndSessionGiveTheSameMessageToo) {
  for (const BadValue& bad : BadValues()) {
    SCOPED_TRACE(bad.field + "=" + std::to_string(bad.value));
    std::string expected = ExpectedMessage(bad);
    // Values that fit the library's types (an int level, a uint64 duration).
    remote::CaptureOptions options;
    options.logdir = ::testing::TempDir();
    bool fits = true;
    if (bad.field == "duration_ms") options.duration_ms = static_cast<uint64_t>(bad.value);
    if (bad.field == "host_tracer_level") options.host_tracer_level = static_cast<int>(bad.value);
    if (bad.field == "device_tracer_level") fits = bad.value == static_cast<int>(bad.value);
    if (bad.field == "device_tracer_level") options.device_tracer_level = static_cast<int>(bad.value);
    if (bad.field == "python_tracer_level") options.python_tracer_level = static_cast<int>(bad.value);
    if (bad.field == "retries") options.retries = static_cast<int>(bad.value);
    if (bad.field == "delay_ms") fits = bad.value >= 0;  // delay_ms is unsigned there
    if (bad.field == "delay_ms" && fits) options.delay_ms = static_cast<uint64_t>(bad.value);
    if (fits) {
      EXPECT_EQ(remote::ValidateCaptureOptions(options).message(), expected);
    }

    if (bad.field.find("tracer_level") == std::string::npos || !fits) continue;
    ProfileOptions profile;
    if (bad.field == "host_tracer_level") profile.host_tracer_level = static_cast<int>(bad.value);
    if (bad.field == "device_tracer_level") profile.device_tracer_level = static_cast<int>(bad.value);
    if (bad.field == "python_tracer_level") profile.python_tracer_level = static_cast<int>(bad.value);
    StatusOr<std::unique_ptr<Session>> session = Session::Start(profile);
    ASSERT_FALSE(session.ok());
    EXPECT_EQ(session.status().message(), expected);
  }
}

}  // namespace
}  // namespace stepscope
