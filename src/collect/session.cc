// stepscope::Session: one recording window, its tracers and the XSpace it produces.
#include "stepscope/session.h"

#include <algorithm>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "src/base/capture_settings.h"
#include "src/base/clock.h"
#include "src/base/logging.h"
#include "src/collect/fork_guard.h"
#include "src/collect/host_tracer.h"
#include "src/collect/run_environment.h"
#include "src/collect/session_internal.h"
#include "src/collect/tick_clock.h"
#include "src/collect/tracer.h"
#include "src/xspace/schema.h"
#include "src/xspace/xplane_builder.h"

namespace stepscope {
namespace {

std::mutex g_session_mu;
bool g_session_active = false;  // guarded by g_session_mu

// The tracer levels' ranges are the capture settings' (src/base/capture_settings.h): the
// same rule and message as `stepscope capture` and POST /api/capture.
Status ValidateOptions(const ProfileOptions& options) {
  return base::ValidateCaptureSettings({.host_tracer_level = options.host_tracer_level,
                                        .device_tracer_level = options.device_tracer_level,
                                        .python_tracer_level = options.python_tracer_level});
}

// Levels the session accepts but no tracer in this process acts on (no device or Python
// tracer is built into stepscope yet): one warning each, so the profile does not pass
// for one that looked and found no GPU activity. `created` lists the kinds of the
// registered tracers made for this session (a tracer that then fails to start has its
// own warning).
std::vector<std::string> IneffectiveLevelWarnings(const ProfileOptions& options,
                                                  const std::vector<collect::TracerKind>& created) {
  auto has = [&](collect::TracerKind kind) { return std::find(created.begin(), created.end(), kind) != created.end(); };
  std::vector<std::string> warnings;
  if (options.device_tracer_level > 0 && !has(collect::TracerKind::kDevice)) {
    warnings.push_back("device tracer level " + std::to_string(options.device_tracer_level) +
                       " requested: no device tracer is built into this process; no GPU activity recorded");
  }
  if (options.python_tracer_level > 0 && !has(collect::TracerKind::kPython)) {
    warnings.push_back("python tracer level " + std::to_string(options.python_tracer_level) +
                       " requested: no Python tracer is built into this process; no Python calls recorded");
  }
  return warnings;
}

}  // namespace

struct Session::State {
  ProfileOptions options;
  std::unique_ptr<collect::HostTracer> host;  // null when host_tracer_level == 0
  std::vector<std::unique_ptr<collect::Tracer>> tracers;  // registered ones that started
  std::vector<std::string> warnings;          // tracer start/stop failures
  collect::SessionTimes times;
  bool running = false;
  bool collected = false;
  uint64_t dropped_events = 0;
};

Session::Session(std::unique_ptr<State> state) : state_(std::move(state)) {}

StatusOr<std::unique_ptr<Session>> Session::Start(const ProfileOptions& options) {
  Status valid = ValidateOptions(options);
  if (!valid.ok()) return valid;
  if (collect::InForkedChild()) return FailedPreconditionError(collect::ForkedChildMessage());
  collect::InstallForkGuard();
  std::lock_guard<std::mutex> lock(g_session_mu);
  if (g_session_active) {
    return AlreadyExistsError(
        "a profiling session is already active in this process; stop it first");
  }
  collect::InitTickClock();

  auto state = std::make_unique<State>();
  state->options = options;
  if (options.host_tracer_level > 0) {
    state->host = std::make_unique<collect::HostTracer>(options);
    Status started = state->host->Start();
    if (!started.ok()) return started.WithContext("starting the host tracer");
  }
  std::vector<collect::TracerKind> created;
  for (std::unique_ptr<collect::Tracer>& tracer : collect::CreateRegisteredTracers(options)) {
    created.push_back(tracer->kind());
    Status started = tracer->Start();
    if (started.ok()) {
      state->tracers.push_back(std::move(tracer));
    } else {
      state->warnings.push_back(std::string(tracer->name()) +
                                " tracer did not start, profiling without it: " +
                                started.ToString());
    }
  }

  for (std::string& warning : IneffectiveLevelWarnings(options, created)) {
    // Said at start (on stderr of the recorded process) and kept in the profile.
    base::LogWarning("%s", warning.c_str());
    state->warnings.push_back(std::move(warning));
  }

  state->times.start_wall_ns = base::WallNowNs();
  state->times.start_monotonic_ns = base::MonotonicNowNs();
  // Publishes g_ticks_are_tsc and the fresh buffers to threads that see the level.
  internal::g_host_tracer_level.store(options.host_tracer_level, std::memory_order_release);
  state->running = true;
  g_session_active = true;
  return std::unique_ptr<Session>(new Session(std::move(state)));
}

Session::~Session() {
  if (state_ != nullptr && state_->running) Stop().IgnoreError();
}

Status Session::Stop() {
  std::lock_guard<std::mutex> lock(g_session_mu);
  if (!state_->running) return FailedPreconditionError("the profiling session is already stopped");
  internal::g_host_tracer_level.store(0, std::memory_order_release);
  state_->times.stop_monotonic_ns = base::MonotonicNowNs();
  state_->times.stop_wall_ns = base::WallNowNs();
  if (state_->host != nullptr) {
    state_->host->Stop().IgnoreError();
    state_->dropped_events = state_->host->dropped_events();
  }
  for (std::unique_ptr<collect::Tracer>& tracer : state_->tracers) {
    Status stopped = tracer->Stop();
    if (!stopped.ok()) {
      state_->warnings.push_back(std::string(tracer->name()) + " tracer failed to stop: " +
                                 stopped.ToString());
    }
  }
  state_->running = false;
  g_session_active = false;
  return OkStatus();
}

bool Session::is_running() const { return state_->running; }

const ProfileOptions& Session::options() const { return state_->options; }

uint64_t Session::dropped_events() const { return state_->dropped_events; }

Status Session::CollectXSpace(tensorflow::profiler::XSpace* space) {
  if (state_->running) return FailedPreconditionError("stop the session before collecting it");
  if (state_->collected) return FailedPreconditionError("the session was already collected");
  state_->collected = true;
  space->Clear();

  // The host plane comes first and always exists: it carries the run environment.
  xspace::XPlane* host_plane = xspace::FindOrAddMutablePlaneWithName(space, xspace::kHostThreadsPlaneName);
  if (state_->host != nullptr) {
    Status collected = state_->host->CollectData(state_->times, space);
    if (!collected.ok()) state_->warnings.push_back("host tracer: " + collected.ToString());
    state_->host.reset();
  }
  for (std::unique_ptr<collect::Tracer>& tracer : state_->tracers) {
    Status collected = tracer->CollectData(state_->times, space);
    if (!collected.ok()) {
      state_->warnings.push_back(std::string(tracer->name()) + " tracer: " + collected.ToString());
    }
  }
  state_->tracers.clear();
  // Planes may have been added since: look the host plane up again.
  host_plane = xspace::FindMutablePlaneWithName(space, xspace::kHostThreadsPlaneName);
  collect::AddRunEnvironment(collect::CurrentRunEnvironment(), state_->times.start_wall_ns,
                             host_plane, space);

  xspace::XPlaneBuilder task_environment(
      xspace::FindOrAddMutablePlaneWithName(space, xspace::kTaskEnvPlaneName));
  task_environment.AddStatValue(xspace::StatType::kProfileStartTime, state_->times.start_wall_ns);
  task_environment.AddStatValue(xspace::StatType::kProfileStopTime, state_->times.stop_wall_ns);

  for (const std::string& warning : state_->warnings) space->add_warnings(warning);
  return OkStatus();
}

Status Session::CollectSerializedXSpace(std::string* bytes) {
  xspace::XSpace space;
  Status collected = CollectXSpace(&space);
  if (!collected.ok()) return collected;
  if (!space.SerializeToString(bytes)) {
    return ResourceExhaustedError("the profile is too large to serialize as one XSpace message (2 GiB limit)");
  }
  return OkStatus();
}

namespace collect {
bool IsSessionActive() {
  std::lock_guard<std::mutex> lock(g_session_mu);
  return g_session_active;
}
}  // namespace collect

}  // namespace stepscope
