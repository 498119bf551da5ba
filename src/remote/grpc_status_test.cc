#include "src/remote/grpc_status.h"

#include <gtest/gtest.h>

namespace stepscope::remote {
namespace {

TEST(GrpcStatusTest, PermissionDeniedRoundTrips) {
  grpc::Status sent = ToGrpcStatus(PermissionDeniedError("only below /srv/profiles"));
  EXPECT_EQ(sent.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(sent.error_message(), "only below /srv/profiles");
  Status received = FromGrpcStatus(sent);
  EXPECT_EQ(received.code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(received.message(), "PERMISSION_DENIED: only below /srv/profiles");
}

TEST(GrpcStatusTest, EveryStepscopeCodeMapsToItsGrpcCodeAndBack) {
  for (StatusCode code : {StatusCode::kInvalidArgument, StatusCode::kNotFound, StatusCode::kAlreadyExists,
                          StatusCode::kFailedPrecondition, StatusCode::kPermissionDenied,
                          StatusCode::kResourceExhausted, StatusCode::kDataLoss, StatusCode::kUnavailable,
                          StatusCode::kDeadlineExceeded, StatusCode::kUnimplemented, StatusCode::kInternal}) {
    EXPECT_EQ(FromGrpcStatus(ToGrpcStatus(Status(code, "m"))).code(), code) << StatusCodeName(code);
  }
  EXPECT_TRUE(ToGrpcStatus(OkStatus()).ok());
}

}  // namespace
}  // namespace stepscope::remote
