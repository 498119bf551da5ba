// Wire compatibility of the profiler server with tensorflow.ProfilerService: requests
// built from field numbers only (as in the reference, not from our .proto), sent to the
// method paths TensorFlow's clients use, and responses read back by field number.
#include <gtest/gtest.h>


#include "proto/stepscope/xplane.pb.h"
#include "stepscope/profiler_server.h"
#include "tests/integration/remote_raw_call.h"
#include "tests/integration/training_steps.h"

namespace stepscope::testing {
namespace {

// ProfileRequest / ProfileOptions / ProfileResponse field numbers from the reference
// (docs: TSL profiler_service.proto, profiler_options.proto).
constexpr int kRequestOpts = 4;
constexpr int kRequestEmitXSpace = 9;
constexpr int kRequestDurationMs = 1;
constexpr int kRequestRepositoryRoot = 5;
constexpr int kOptionsVersion = 5;
constexpr int kOptionsHostTracerLevel = 2;
constexpr int kOptionsDeviceTracerLevel = 3;
constexpr int kOptionsDurationMs = 9;
constexpr int kResponseEmptyTrace = 7;
constexpr int kResponseXSpace = 8;

class RemoteWireTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ProfilerServerOptions options;
    auto server = StartProfilerServer(options);
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    server_ = std::move(server).value();
    channel_ = grpc::CreateChannel(server_->address(), grpc::InsecureChannelCredentials());
  }

  std::unique_ptr<ProfilerServer> server_;
  std::shared_ptr<grpc::Channel> channel_;
  TrainingSteps training_;
};

std::string OptionsBytes(uint64_t duration_ms) {
  std::string options;
  PutVarintField(kOptionsVersion, 1, &options);
  PutVarintField(kOptionsHostTracerLevel, 2, &options);
  PutVarintField(kOptionsDeviceTracerLevel, 1, &options);
  PutVarintField(kOptionsDurationMs, duration_ms, &options);
  return options;
}

TEST_F(RemoteWireTest, ARequestBuiltFromFieldNumbersIsUnderstood) {
  std::string request;
  PutBytesField(kRequestOpts, OptionsBytes(200), &request);
  PutVarintField(kRequestEmitXSpace, 1, &request);
  RawReply reply = CallRaw(channel_, "/tensorflow.ProfilerService/Profile", request);
  ASSERT_TRUE(reply.status.ok()) << reply.status.error_message();

  std::multimap<int, WireField> fields;
  ASSERT_TRUE(ParseWire(reply.bytes, &fields));
  for (int reserved = 1; reserved <= 5; ++reserved) EXPECT_EQ(fields.count(reserved), 0u) << reserved;
  // empty_trace is false, so proto3 leaves field 7 out.
  EXPECT_EQ(fields.count(kResponseEmptyTrace), 0u);
  ASSERT_EQ(fields.count(kResponseXSpace), 1u);
  const WireField& xspace_field = fields.find(kResponseXSpace)->second;
  EXPECT_EQ(xspace_field.wire_type, 2);
  tensorflow::profiler::XSpace space;
  ASSERT_TRUE(space.ParseFromString(xspace_field.bytes));
  int train_events = 0;
  for (const auto& plane : space.planes()) {
    for (const auto& line : plane.lines()) {
      for (const auto& event : line.events()) {
        auto it = plane.event_metadata().find(event.metadata_id());
        if (it != plane.event_metadata().end() && it->second.name() == "train") ++train_events;
      }
    }
  }
  EXPECT_GE(train_events, 10);
}

TEST_F(RemoteWireTest, LegacyDurationFieldAndVersionZeroOptionsWork) {
  // An old client: duration only in ProfileRequest.duration_ms, options without version.
  std::string request;
  PutVarintField(kRequestDurationMs, 100, &request);
  PutBytesField(kRequestOpts, "", &request);
  PutVarintField(kRequestEmitXSpace, 1, &request);
  RawReply reply = CallRaw(channel_, "/tensorflow.ProfilerService/Profile", request);
  ASSERT_TRUE(reply.status.ok()) << reply.status.error_message();
  std::multimap<int, WireField> fields;
  ASSERT_TRUE(ParseWire(reply.bytes, &fields));
  EXPECT_EQ(fields.count(kResponseXSpace), 1u);
}

TEST_F(RemoteWireTest, MethodPathsAreTensorFlows) {
  std::string terminate;
  PutBytesField(1, "some_session", &terminate);  // TerminateRequest.session_id = 1
  EXPECT_TRUE(CallRaw(channel_, "/tensorflow.ProfilerService/Terminate", terminate).status.ok());
  std::string monitor;
  PutVarintField(1, 100, &monitor);  // MonitorRequest.duration_ms = 1
  EXPECT_EQ(CallRaw(channel_, "/tensorflow.ProfilerService/Monitor", monitor).status.error_code(),
            grpc::StatusCode::UNIMPLEMENTED);
  // Another package or service name is not served.
  std::string request;
  PutBytesField(kRequestOpts, OptionsBytes(50), &request);
  EXPECT_EQ(CallRaw(channel_, "/stepscope.ProfilerService/Profile", request).status.error_code(),
            grpc::StatusCode::UNIMPLEMENTED);
  EXPECT_EQ(CallRaw(channel_, "/tensorflow.profiler.ProfilerService/Profile", request).status.error_code(),
            grpc::StatusCode::UNIMPLEMENTED);
}

TEST_F(RemoteWireTest, MalformedAndOversizedRequestsAreRefusedAndTheServerStaysUp) {
  // Not a protobuf message: a length that runs past the end.
  RawReply reply = CallRaw(channel_, "/tensorflow.ProfilerService/Profile", std::string("\x22\xff\xff\x01", 4));
  EXPECT_FALSE(reply.status.ok());
  reply = CallRaw(channel_, "/tensorflow.ProfilerService/Profile", std::string("\xff\xff\xff\xff\xff\xff", 6));
  EXPECT_FALSE(reply.status.ok());
  // A 1 MiB repository_root: over the 64 KiB request limit.
  std::string big;
  PutBytesField(kRequestOpts, OptionsBytes(50), &big);
  PutBytesField(kRequestRepositoryRoot, std::string(1 << 20, 'a'), &big);
  reply = CallRaw(channel_, "/tensorflow.ProfilerService/Profile", big);
  EXPECT_EQ(reply.status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << reply.status.error_message();
  // Still serving.
  std::string request;
  PutBytesField(kRequestOpts, OptionsBytes(50), &request);
  PutVarintField(kRequestEmitXSpace, 1, &request);
  EXPECT_TRUE(CallRaw(channel_, "/tensorflow.ProfilerService/Profile", request).status.ok());
}

}  // namespace
}  // namespace stepscope::testing
