// Conversions between stepscope::Status and grpc::Status, in one place so the server and
// the client agree on which code means what (the client retries on UNAVAILABLE and
// ALREADY_EXISTS, as TensorFlow's does).
#pragma once

#include <grpcpp/support/status.h>

#include "stepscope/status.h"

namespace stepscope::remote {

grpc::Status ToGrpcStatus(const Status& status);
// Codes without a stepscope equivalent (CANCELLED, UNKNOWN, UNAUTHENTICATED, ...) map
// to the nearest one; the gRPC code name is kept in the message so nothing is lost.
Status FromGrpcStatus(const grpc::Status& status);
// "UNAVAILABLE", "DEADLINE_EXCEEDED", ... for messages.
const char* GrpcCodeName(grpc::StatusCode code);

}  // namespace stepscope::remote
