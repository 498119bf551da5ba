#include "src/remote/capture_client.h"

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <filesystem>
#include <memory>
#include <thread>

#include "proto/stepscope/profiler_service.grpc.pb.h"
#include "src/base/capture_settings.h"
#include "src/base/clock.h"
#include "src/base/file_io.h"
#include "src/base/output_file.h"
#include "src/remote/grpc_status.h"
#include "src/remote/service_address.h"
#include "src/xspace/dropped_events.h"
#include "src/xspace/logdir.h"
#include "src/xspace/validate.h"
#include "src/xspace/xspace_io.h"

namespace stepscope::remote {
namespace {

// TensorFlow's client asks for at most this many events (servers may ignore it).
constexpr uint64_t kMaxEvents = 1000000;
// TensorFlow's max_session_duration floor: a short capture still gets a minute.
constexpr uint64_t kMinDeadlineMs = 60000;
// The tools TensorFlow's client lists; TPU servers use them, others ignore all but
// "xplane.pb". Sent as-is so servers see the request they expect.
constexpr const char* kRequestedTools[] = {"trace_viewer",   "op_profile",    "input_pipeline",
                                           "kernel_stats",   "memory_viewer", "memory_profile",
                                           "overview_page",  "pod_viewer",    "tensorflow_stats",
                                           "xplane.pb"};

using SystemClock = std::chrono::system_clock;

bool ShouldRetry(const grpc::Status& status) {
  return status.error_code() == grpc::StatusCode::UNAVAILABLE ||
         status.error_code() == grpc::StatusCode::ALREADY_EXISTS ||
         // A worker that restarted can answer UNKNOWN "Stream removed" (TensorFlow retries too).
         (status.error_code() == grpc::StatusCode::UNKNOWN && status.error_message() == "Stream removed");
}

// gRPC refuses a response over SetMaxReceiveMessageSize with RESOURCE_EXHAUSTED "Received
// message larger than max (N vs. M)"; a server's own RESOURCE_EXHAUSTED says otherwise.
bool IsOverReceiveLimit(const grpc::Status& status) {
  return status.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED &&
         status.error_message().find("larger than max") != std::string::npos;
}

uint64_t CountEvents(const tensorflow::profiler::XSpace& space) {
  uint64_t events = 0;
  for (const auto& plane : space.planes()) {
    for (const auto& line : plane.lines()) events += static_cast<uint64_t>(line.events_size());
  }
  return events;
}

// Waits until the channel is connected or has failed to connect. Failure to connect is
// left to the RPC, which fails at once with gRPC's own explanation ("Connection
// refused", a DNS error); only a connection attempt that hangs (a host that drops
// packets) is cut here.
grpc::Status AwaitConnection(grpc::Channel& channel, const std::string& address, uint64_t timeout_ms) {
  auto deadline = SystemClock::now() + std::chrono::milliseconds(timeout_ms);
  grpc_connectivity_state state = channel.GetState(/*try_to_connect=*/true);
  while (state == GRPC_CHANNEL_IDLE || state == GRPC_CHANNEL_CONNECTING) {
    if (!channel.WaitForStateChange(state, deadline)) {
      return grpc::Status(grpc::StatusCode::UNAVAILABLE,
                          "no connection to " + address + " within " + std::to_string(timeout_ms) +
                              " ms (host down or unreachable?)");
    }
    state = channel.GetState(/*try_to_connect=*/true);
  }
  return grpc::Status::OK;
}

grpc::Status ProfileOnce(const std::string& address, const tensorflow::ProfileRequest& request,
                         const CaptureOptions& options, tensorflow::ProfileResponse* response) {
  auto attempt_start = SystemClock::now();
  grpc::ChannelArguments args;
  // Profiles are large (TensorFlow's client allows INT_MAX); ours is bounded by this
  // worker's share of max_response_bytes (capture_client.h).
  args.SetMaxReceiveMessageSize(static_cast<int>(std::min<uint64_t>(options.max_response_bytes, INT_MAX)));
  // A fresh connection per attempt: a shared subchannel of a worker that died would still
  // be in reconnect backoff when the worker is back.
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  std::shared_ptr<grpc::Channel> channel =
      grpc::CreateCustomChannel(ChannelTarget(address), grpc::InsecureChannelCredentials(), args);
  grpc::Status connected = AwaitConnection(*channel, address, options.connect_timeout_ms);
  if (!connected.ok()) return connected;
  auto stub = tensorflow::ProfilerService::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(attempt_start + std::chrono::milliseconds(CaptureDeadlineMs(options)));
  return stub->Profile(&context, request, response);
}

bool IsSafeFileNamePart(const std::string& name) {
  return !name.empty() && name.find('/') == std::string::npos && name.find("..") == std::string::npos;
}

// kDataLoss unless `bytes` read as a profile `info` accepts.
Status CheckProfileBytes(std::string_view bytes) {
  StatusOr<xspace::XSpace> space = xspace::ParseXSpace(bytes, "the worker's profile");
  Status valid = space.ok() ? xspace::ValidateXSpace(*space) : space.status();
  if (valid.ok()) return OkStatus();
  return DataLossError("the worker's response (" + std::to_string(bytes.size()) +
                       " bytes) is not a usable profile: " + valid.message());
}

// Saves what a successful, non-empty response carries. Sets path/bytes/events/note.
Status SaveResponse(const tensorflow::ProfileResponse& response, const CaptureOptions& options,
                    const std::string& run, WorkerCapture* worker) {
  std::string run_dir = xspace::ProfileRootDir(options.logdir) + "/" + run;
  std::string expected_path = run_dir + "/" + worker->host + std::string(xspace::kXPlaneFileSuffix);
  if (response.has_xspace()) {
    // Checked as `info` would read it: a worker's bytes that are no profile are refused
    // here, not reported as saved.
    Status valid = xspace::ValidateXSpace(response.xspace());
    if (!valid.ok()) return DataLossError("the worker's response is not a usable profile: " + valid.message());
    StatusOr<std::string> path =
        xspace::WriteXSpaceToLogdir(options.logdir, run, worker->host, response.xspace(), options.overwrite);
    if (!path.ok()) return path.status();
    worker->path = *path;
    worker->event_count = CountEvents(response.xspace());
    worker->dropped_events = xspace::DroppedEventCount(response.xspace());
    worker->warnings.assign(response.xspace().warnings().begin(), response.xspace().warnings().end());
  } else if (response.tool_data_size() > 0) {
    // A server that returns files instead of an XSpace; TensorFlow's client saves each
    // as <host>.<name>.
    // Only a profile this machine can read counts: the "xplane.pb" entry must be one.
    const tensorflow::ProfileToolData* profile = nullptr;
    for (const tensorflow::ProfileToolData& tool : response.tool_data()) {
      if (!IsSafeFileNamePart(tool.name())) {
        return DataLossError("the server sent tool data with an unusable name '" + tool.name() + "'");
      }
      if (tool.name() == "xplane.pb") profile = &tool;
    }
    if (profile == nullptr) {
      return DataLossError("the worker sent tool data but no xplane.pb profile (" +
                           std::to_string(response.tool_data_size()) + " other files)");
    }
    Status valid = CheckProfileBytes(profile->data());
    if (!valid.ok()) return valid;
    StatusOr<std::string> created = xspace::CreateRunDir(options.logdir, run, xspace::RunDirMode::kJoin);
    if (!created.ok()) return created.status();
    for (const tensorflow::ProfileToolData& tool : response.tool_data()) {
      std::string path = run_dir + "/" + worker->host + "." + tool.name();
      Status written = base::WriteOutputFile(path, {.sync = true, .replace = options.overwrite},
                                             [&tool](base::OutputFile* file) {
                                               file->Write(tool.data());
                                               return OkStatus();
                                             });
      if (!written.ok()) return written;
      if (&tool == profile) worker->path = path;
    }
    worker->note = "saved from the server's tool data";
  } else {
    // Older servers ignore emit_xspace and save into repository_root themselves.
    std::error_code ec;
    if (!std::filesystem::is_regular_file(expected_path, ec)) {
      return UnimplementedError("the server neither returned the profile nor saved it where this machine can "
                                "see it (" + expected_path + "); it may have saved it on its own filesystem");
    }
    StatusOr<std::string> bytes = base::ReadFile(expected_path, xspace::kMaxProtobufXSpaceBytes);
    if (!bytes.ok()) return bytes.status();
    Status valid = CheckProfileBytes(*bytes);
    if (!valid.ok()) return valid;
    worker->path = expected_path;
    worker->note = "saved by the server";
  }
  std::error_code ec;
  worker->file_bytes = std::filesystem::file_size(worker->path, ec);
  return OkStatus();
}

// Saturating: a duration past INT64_MAX is reported as INT64_MAX, not as a negative number.
int64_t AsInt64(uint64_t value) { return static_cast<int64_t>(std::min<uint64_t>(value, INT64_MAX)); }

base::CaptureSettings SettingsOf(const CaptureOptions& options) {
  base::CaptureSettings settings;
  settings.duration_ms = AsInt64(options.duration_ms);
  settings.host_tracer_level = options.host_tracer_level;
  settings.device_tracer_level = options.device_tracer_level;
  settings.python_tracer_level = options.python_tracer_level;
  settings.retries = options.retries;
  settings.delay_ms = AsInt64(options.delay_ms);
  return settings;
}

}  // namespace

uint64_t CaptureDeadlineMs(const CaptureOptions& options) {
  return std::max(kMinDeadlineMs, 2 * options.duration_ms) + options.delay_ms;
}

Status ValidateCaptureOptions(const CaptureOptions& options) {
  if (options.logdir.empty()) return InvalidArgumentError("no logdir given (--logdir DIR)");
  Status valid = base::ValidateCaptureSettings(SettingsOf(options));
  if (!valid.ok()) return valid;
  if (options.connect_timeout_ms == 0) return InvalidArgumentError("connect_timeout_ms must be > 0");
  if (options.max_workers < 1) {
    return InvalidArgumentError("max_workers must be at least 1, got " + std::to_string(options.max_workers));
  }
  if (options.max_response_bytes < kMinResponseBytesPerWorker) {
    return InvalidArgumentError("max_response_bytes must be at least " + std::to_string(kMinResponseBytesPerWorker) +
                                " (1 MiB), got " + std::to_string(options.max_response_bytes));
  }
  if (!options.run.empty()) return xspace::ValidateRunName(options.run);
  return OkStatus();
}

tensorflow::ProfileRequest BuildProfileRequest(std::string_view address, const CaptureOptions& options,
                                               std::string_view run, uint64_t start_wall_ns) {
  tensorflow::ProfileRequest request;
  request.set_duration_ms(options.duration_ms);  // legacy field, still read by old servers
  request.set_max_events(kMaxEvents);
  for (const char* tool : kRequestedTools) request.add_tools(tool);
  request.set_repository_root(xspace::ProfileRootDir(options.logdir));
  request.set_session_id(std::string(run));
  request.set_host_name(std::string(address));
  request.set_emit_xspace(true);
  tensorflow::ProfileOptions* opts = request.mutable_opts();
  opts->set_version(1);
  opts->set_include_dataset_ops(true);
  opts->set_host_tracer_level(static_cast<uint32_t>(options.host_tracer_level));
  opts->set_device_tracer_level(static_cast<uint32_t>(options.device_tracer_level));
  opts->set_python_tracer_level(static_cast<uint32_t>(options.python_tracer_level));
  opts->set_enable_hlo_proto(true);
  opts->set_duration_ms(options.duration_ms);
  opts->set_start_timestamp_ns(start_wall_ns);
  opts->set_repository_path(options.logdir);
  opts->set_session_id(std::string(run));
  return request;
}

WorkerCapture CaptureWorker(const std::string& address, const CaptureOptions& options, const std::string& run,
                            uint64_t start_wall_ns) {
  WorkerCapture worker;
  worker.address = address;
  worker.host = xspace::SanitizeHostName(address);
  const int max_attempts = 1 + std::max(0, options.retries);
  std::string last_problem;
  for (int attempt = 1; attempt <= max_attempts; ++attempt) {
    worker.attempts = attempt;
    uint64_t start_ns = attempt == 1 || options.delay_ms == 0
                            ? start_wall_ns
                            : base::WallNowNs() + options.delay_ms * 1000000;
    tensorflow::ProfileRequest request = BuildProfileRequest(address, options, run, start_ns);
    tensorflow::ProfileResponse response;
    grpc::Status rpc = ProfileOnce(address, request, options, &response);
    bool retry = false;
    if (IsOverReceiveLimit(rpc)) {
      worker.status = ResourceExhaustedError(
          "the profile is larger than the " + std::to_string(options.max_response_bytes) +
          " bytes this capture may hold per worker (max_response_bytes divided among the workers); raise "
          "max_response_bytes, capture fewer workers at once or record a shorter window");
      return worker;
    }
    if (!rpc.ok()) {
      worker.status = FromGrpcStatus(rpc);
      last_problem = worker.status.message();
      retry = ShouldRetry(rpc);
    } else if (response.empty_trace()) {
      worker.status = UnavailableError("the capture came back empty (no events were recorded: is the program "
                                       "instrumented and running steps?)");
      last_problem = worker.status.message();
      retry = true;
    } else {
      worker.status = SaveResponse(response, options, run, &worker);
      if (worker.status.ok()) return worker;
      worker.status = worker.status.WithContext("saving the profile");
      return worker;
    }
    if (!retry || attempt == max_attempts) break;
    if (options.progress) {
      options.progress(address + ": attempt " + std::to_string(attempt) + " of " + std::to_string(max_attempts) +
                       " failed: " + last_problem + "; retrying");
    }
    if (rpc.error_code() != grpc::StatusCode::OK) {
      std::this_thread::sleep_for(std::chrono::milliseconds(options.retry_backoff_ms));
    }
  }
  if (worker.attempts > 1) {
    worker.status = Status(worker.status.code(), worker.status.message() + " (after " +
                                                      std::to_string(worker.attempts) + " attempts)");
  }
  return worker;
}

}  // namespace stepscope::remote
