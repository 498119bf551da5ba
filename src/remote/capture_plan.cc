#include "src/remote/capture_plan.h"

#include <algorithm>
#include <string>
#include <string_view>

#include "src/base/capture_settings.h"
#include "src/base/clock.h"
#include "src/xspace/logdir.h"

namespace stepscope::remote {
namespace {

// TensorFlow's DefaultOptions() (profiler_session.h), used for version-0 requests.
constexpr int kDefaultHostTracerLevel = 2;
constexpr int kDefaultDeviceTracerLevel = 1;
constexpr int kDefaultPythonTracerLevel = 0;

int ClampLevel(uint32_t level, int64_t max_level) {
  return static_cast<int>(std::min<int64_t>(level, max_level));
}

std::string HostForFileName(const tensorflow::ProfileRequest& request, const std::string& default_host) {
  const tensorflow::ProfileOptions& opts = request.opts();
  if (!opts.override_hostname().empty()) return opts.override_hostname();
  auto it = opts.advanced_configuration().find("override_hostname");
  if (it != opts.advanced_configuration().end() && !it->second.string_value().empty()) {
    return it->second.string_value();
  }
  if (!request.host_name().empty()) return request.host_name();
  return default_host;
}

}  // namespace

StatusOr<CapturePlan> PlanCapture(const tensorflow::ProfileRequest& request,
                                  const ProfilerServerOptions& limits, uint64_t now_wall_ns,
                                  const std::string& default_host) {
  const tensorflow::ProfileOptions& opts = request.opts();
  CapturePlan plan;
  plan.duration_ms = opts.duration_ms() != 0 ? opts.duration_ms() : request.duration_ms();
  if (plan.duration_ms == 0) {
    return InvalidArgumentError(
        "duration_ms is 0: set ProfileRequest.opts.duration_ms to how long to record");
  }
  if (plan.duration_ms > limits.max_duration_ms) {
    return InvalidArgumentError("duration_ms " + std::to_string(plan.duration_ms) +
                                " exceeds this server's limit of " +
                                std::to_string(limits.max_duration_ms) +
                                " ms; capture a shorter window");
  }

  if (opts.version() == 0) {
    plan.options.host_tracer_level = kDefaultHostTracerLevel;
    plan.options.device_tracer_level = kDefaultDeviceTracerLevel;
    plan.options.python_tracer_level = kDefaultPythonTracerLevel;
  } else {
    // Clamped, not refused: TensorFlow's server ignores levels past the highest it knows,
    // and its clients expect that. The ranges are the capture settings' (capture_settings.h).
    plan.options.host_tracer_level = ClampLevel(opts.host_tracer_level(), base::kMaxHostTracerLevel);
    plan.options.device_tracer_level = ClampLevel(opts.device_tracer_level(), base::kMaxDeviceTracerLevel);
    plan.options.python_tracer_level = ClampLevel(opts.python_tracer_level(), base::kMaxPythonTracerLevel);
  }

  if (opts.start_timestamp_ns() > now_wall_ns) {
    uint64_t delay_ms = (opts.start_timestamp_ns() - now_wall_ns) / 1000000;
    if (delay_ms > limits.max_duration_ms) {
      return InvalidArgumentError("start_timestamp_ns is " + std::to_string(delay_ms) +
                                  " ms in the future, more than this server's limit of " +
                                  std::to_string(limits.max_duration_ms) +
                                  " ms (is the client's clock far off?)");
    }
    plan.start_wall_ns = opts.start_timestamp_ns();
  }

  plan.session_id = !request.session_id().empty() ? request.session_id() : opts.session_id();
  plan.emit_xspace = request.emit_xspace();
  std::string host = xspace::SanitizeHostName(HostForFileName(request, default_host));
  plan.options.host_name = host;
  if (!plan.emit_xspace) {
    if (limits.repository_root.empty()) {
      return PermissionDeniedError(
          "this worker writes no profile files: it was started without a repository root (start it with "
          "--profiler_repository DIR, ProfilerServerOptions::repository_root); or ask for emit_xspace to get "
          "the profile in the response");
    }
    StatusOr<std::string> root = NormalizeRepositoryRoot(limits.repository_root);
    if (!root.ok()) return root.status();
    if (plan.session_id.empty()) plan.session_id = base::LocalTimestampString(now_wall_ns);
    StatusOr<RepositoryTarget> target =
        ResolveRepositoryTarget(*root, request.repository_root(), plan.session_id, host);
    if (!target.ok()) return target.status();
    plan.save_path = target->path();
    plan.repository = std::move(target).value();
    plan.return_xplane_tool_data =
        limits.return_xplane_tool_data &&
        std::find(request.tools().begin(), request.tools().end(), "xplane.pb") != request.tools().end();
  }
  return plan;
}

bool XSpaceHasNoEvents(const tensorflow::profiler::XSpace& space) {
  for (const auto& plane : space.planes()) {
    for (const auto& line : plane.lines()) {
      if (line.events_size() > 0) return false;
    }
  }
  return true;
}

}  // namespace stepscope::remote
