// The tensorflow.ProfilerService implementation that runs inside the training process.
//
// Profile records with a stepscope::Session on the gRPC handler thread (never on a
// training thread): it waits for opts.start_timestamp_ns, records for the duration, then
// collects the XSpace and returns it (emit_xspace) or saves it under repository_root.
// The wait ends early, successfully, on Terminate(session_id); with CANCELLED when the
// client cancels or disconnects; with UNAVAILABLE when the server shuts down. In every
// case the session is stopped before the handler returns.
//
// One capture at a time: a Profile while another is running (or while the program runs
// its own stepscope session) gets ALREADY_EXISTS with a message naming the cause.
// Terminate only applies to the capture in progress; unknown session ids are ignored
// (OK), like TensorFlow's. Monitor is UNIMPLEMENTED, like the open-source TensorFlow
// server.
#pragma once

#include <condition_variable>
#include <mutex>
#include <string>

#include "proto/stepscope/profiler_service.grpc.pb.h"
#include "stepscope/profiler_server.h"

namespace stepscope::remote {

class ProfilerServiceImpl final : public tensorflow::ProfilerService::Service {
 public:
  explicit ProfilerServiceImpl(const ProfilerServerOptions& options);

  grpc::Status Profile(grpc::ServerContext* context, const tensorflow::ProfileRequest* request,
                       tensorflow::ProfileResponse* response) override;
  grpc::Status Terminate(grpc::ServerContext* context, const tensorflow::TerminateRequest* request,
                         tensorflow::TerminateResponse* response) override;
  grpc::Status Monitor(grpc::ServerContext* context, const tensorflow::MonitorRequest* request,
                       tensorflow::MonitorResponse* response) override;

  // Interrupts a capture in progress (it returns UNAVAILABLE) and refuses new ones. Call
  // before grpc::Server::Shutdown so Shutdown does not wait for a long capture.
  void BeginShutdown();

 private:
  enum class WaitEnd { kReached, kTerminated, kCancelled, kShutdown };
  // Wait until the wall-clock time `until_wall_ns` (a delayed start) / for `duration_ms`,
  // ending early on Terminate, client cancellation or shutdown.
  WaitEnd WaitUntilWall(grpc::ServerContext* context, uint64_t until_wall_ns);
  WaitEnd WaitFor(grpc::ServerContext* context, uint64_t duration_ms);
  void EndCapture();

  const ProfilerServerOptions options_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool capturing_ = false;          // guarded by mu_
  bool terminate_requested_ = false;  // guarded by mu_; for the capture in progress
  bool shutting_down_ = false;      // guarded by mu_
  std::string active_session_id_;   // guarded by mu_
  std::string active_peer_;         // guarded by mu_
  uint64_t active_end_wall_ns_ = 0;  // guarded by mu_; for the busy message
};

}  // namespace stepscope::remote
