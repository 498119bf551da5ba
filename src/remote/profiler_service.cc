#include "src/remote/profiler_service.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <string>

#include "src/base/clock.h"
#include "src/remote/capture_plan.h"
#include "src/remote/grpc_status.h"
#include "src/remote/repository.h"
#include "src/xspace/xspace_io.h"
#include "stepscope/session.h"

namespace stepscope::remote {
namespace {

// How often a waiting capture checks whether its client went away. gRPC's sync API has
// no cancellation callback; Terminate and shutdown wake the wait at once, so only client
// disconnects see this latency.
constexpr std::chrono::milliseconds kCancellationPollInterval{10};

std::string LocalHostName() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0 || name[0] == '\0') return "localhost";
  return name;
}

}  // namespace

ProfilerServiceImpl::ProfilerServiceImpl(const ProfilerServerOptions& options) : options_(options) {}

void ProfilerServiceImpl::BeginShutdown() {
  std::lock_guard<std::mutex> lock(mu_);
  shutting_down_ = true;
  cv_.notify_all();
}

ProfilerServiceImpl::WaitEnd ProfilerServiceImpl::WaitFor(grpc::ServerContext* context, uint64_t duration_ms) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(duration_ms);
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    if (shutting_down_) return WaitEnd::kShutdown;
    if (terminate_requested_) return WaitEnd::kTerminated;
    if (context->IsCancelled()) return WaitEnd::kCancelled;
    auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return WaitEnd::kReached;
    cv_.wait_until(lock, std::min(deadline, now + kCancellationPollInterval));
  }
}

ProfilerServiceImpl::WaitEnd ProfilerServiceImpl::WaitUntilWall(grpc::ServerContext* context,
                                                                 uint64_t until_wall_ns) {
  uint64_t now_ns = base::WallNowNs();
  if (until_wall_ns <= now_ns) return WaitEnd::kReached;
  // Rounded up so recording never starts before the requested time.
  return WaitFor(context, (until_wall_ns - now_ns + 999999) / 1000000);
}

void ProfilerServiceImpl::EndCapture() {
  std::lock_guard<std::mutex> lock(mu_);
  capturing_ = false;
  terminate_requested_ = false;
  active_session_id_.clear();
  active_peer_.clear();
}

grpc::Status ProfilerServiceImpl::Profile(grpc::ServerContext* context,
                                          const tensorflow::ProfileRequest* request,
                                          tensorflow::ProfileResponse* response) {
  uint64_t now_wall_ns = base::WallNowNs();
  StatusOr<CapturePlan> planned = PlanCapture(*request, options_, now_wall_ns, LocalHostName());
  if (!planned.ok()) return ToGrpcStatus(planned.status());
  const CapturePlan& plan = *planned;

  {
    std::lock_guard<std::mutex> lock(mu_);
    if (shutting_down_) {
      return grpc::Status(grpc::StatusCode::UNAVAILABLE, "the profiler server is shutting down");
    }
    if (capturing_) {
      uint64_t left_ms = active_end_wall_ns_ > now_wall_ns ? (active_end_wall_ns_ - now_wall_ns) / 1000000 : 0;
      return grpc::Status(grpc::StatusCode::ALREADY_EXISTS,
                          "busy: this process is already being profiled (session '" + active_session_id_ +
                              "' requested by " + active_peer_ + ", about " + std::to_string(left_ms) +
                              " ms left); one capture at a time, retry after it ends");
    }
    capturing_ = true;
    terminate_requested_ = false;
    active_session_id_ = plan.session_id;
    active_peer_ = context->peer();
    active_end_wall_ns_ = std::max(now_wall_ns, plan.start_wall_ns) + plan.duration_ms * 1000000;
  }
  struct CaptureSlot {
    ProfilerServiceImpl* service;
    ~CaptureSlot() { service->EndCapture(); }
  } slot{this};

  WaitEnd waited = plan.start_wall_ns != 0 ? WaitUntilWall(context, plan.start_wall_ns) : WaitEnd::kReached;
  if (waited == WaitEnd::kCancelled) return grpc::Status(grpc::StatusCode::CANCELLED, "the client cancelled");
  if (waited == WaitEnd::kShutdown) {
    return grpc::Status(grpc::StatusCode::UNAVAILABLE, "the profiler server is shutting down");
  }

  if (waited == WaitEnd::kTerminated) {
    // Terminated before recording began: nothing recorded, nothing saved.
    response->set_empty_trace(true);
    return grpc::Status::OK;
  }
  StatusOr<std::unique_ptr<Session>> started = Session::Start(plan.options);
  if (!started.ok()) {
    if (started.status().code() == StatusCode::kAlreadyExists) {
      return grpc::Status(grpc::StatusCode::ALREADY_EXISTS,
                          "busy: the program is running its own stepscope profiling session; "
                          "retry after it ends");
    }
    return ToGrpcStatus(started.status().WithContext("starting the profiling session"));
  }
  std::unique_ptr<Session> session = std::move(started).value();
  waited = WaitFor(context, plan.duration_ms);
  Status stopped = session->Stop();
  if (!stopped.ok()) return ToGrpcStatus(stopped.WithContext("stopping the profiling session"));
  if (waited == WaitEnd::kCancelled) return grpc::Status(grpc::StatusCode::CANCELLED, "the client cancelled");
  if (waited == WaitEnd::kShutdown) {
    return grpc::Status(grpc::StatusCode::UNAVAILABLE, "the profiler server shut down during the capture");
  }

  xspace::XSpace local_space;
  xspace::XSpace* space = plan.emit_xspace ? response->mutable_xspace() : &local_space;
  Status collected = session->CollectXSpace(space);
  if (!collected.ok()) return ToGrpcStatus(collected.WithContext("collecting the profile"));
  response->set_empty_trace(XSpaceHasNoEvents(*space));

  if (plan.repository.has_value()) {
    StatusOr<std::string> bytes = xspace::SerializeXSpace(*space);
    Status written = bytes.ok() ? WriteRepositoryFile(*plan.repository, *bytes) : bytes.status();
    if (!written.ok()) return ToGrpcStatus(written.WithContext("saving the profile to " + plan.save_path));
    if (plan.return_xplane_tool_data) {
      tensorflow::ProfileToolData* tool = response->add_tool_data();
      tool->set_name("xplane.pb");
      tool->set_data(std::move(bytes).value());
    }
  }
  return grpc::Status::OK;
}

grpc::Status ProfilerServiceImpl::Terminate(grpc::ServerContext* context,
                                            const tensorflow::TerminateRequest* request,
                                            tensorflow::TerminateResponse* response) {
  std::lock_guard<std::mutex> lock(mu_);
  if (capturing_ && request->session_id() == active_session_id_) {
    terminate_requested_ = true;
    cv_.notify_all();
  }
  return grpc::Status::OK;
}

grpc::Status ProfilerServiceImpl::Monitor(grpc::ServerContext* context,
                                          const tensorflow::MonitorRequest* request,
                                          tensorflow::MonitorResponse* response) {
  return grpc::Status(grpc::StatusCode::UNIMPLEMENTED,
                      "Monitor is not implemented by the stepscope profiler server (nor by "
                      "TensorFlow's open-source one); use Profile");
}

}  // namespace stepscope::remote
