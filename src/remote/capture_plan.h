// What a ProfileRequest asks the server to do, validated before anything is recorded.
//
// Kept apart from the gRPC service so every rule (duration limits, TensorFlow's
// version-0 option defaults, where the profile goes) is a pure function with unit tests.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "proto/stepscope/profiler_service.pb.h"
#include "src/remote/repository.h"
#include "stepscope/profiler_server.h"
#include "stepscope/session.h"
#include "stepscope/status.h"

namespace stepscope::remote {

struct CapturePlan {
  uint64_t duration_ms = 0;
  // Wall-clock Unix ns at which recording should begin; 0 = at once.
  uint64_t start_wall_ns = 0;
  ProfileOptions options;  // tracer levels for the stepscope::Session
  // Set when the profile is to be written (no emit_xspace): below the worker's root.
  std::optional<RepositoryTarget> repository;
  // repository->path(), "" when the request only asks for the XSpace back.
  std::string save_path;  // <root>/<request's part>/<session_id>/<host>.xplane.pb
  std::string session_id;  // matched by Terminate
  bool emit_xspace = false;
  bool return_xplane_tool_data = false;
};

// Validates `request` against the server's limits and works out the plan.
//   - duration: opts.duration_ms, or the legacy request.duration_ms when that is 0;
//     0 overall -> kInvalidArgument (TensorFlow's server would record nothing);
//     more than limits.max_duration_ms -> kInvalidArgument naming the limit.
//   - opts.version 0 (a client older than the level fields): TensorFlow's defaults
//     (host 2, device 1, python 0), as its ProfilerSession does.
//   - levels past the highest known are clamped to it (host 3, device 2, python 1;
//     TensorFlow ignores levels past verbose).
//   - start_timestamp_ns more than max_duration_ms ahead of `now_wall_ns` ->
//     kInvalidArgument (a client clock far off, or an absurd delay).
//   - without emit_xspace the profile is saved below the worker's repository root
//     (limits.repository_root) as repository.h resolves it; without a configured root
//     such a request is kPermissionDenied saying how to start the worker with one.
// The host in the file name is opts.override_hostname, else
// advanced_configuration["override_hostname"], else request.host_name, else
// `default_host`; ':' and '/' become '_'.
StatusOr<CapturePlan> PlanCapture(const tensorflow::ProfileRequest& request,
                                  const ProfilerServerOptions& limits, uint64_t now_wall_ns,
                                  const std::string& default_host);

// True when no line of any plane holds an event (TensorFlow's IsEmpty(XSpace), which sets
// ProfileResponse.empty_trace and makes clients retry).
bool XSpaceHasNoEvents(const tensorflow::profiler::XSpace& space);

}  // namespace stepscope::remote
