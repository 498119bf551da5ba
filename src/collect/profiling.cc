// The process-wide API: StartProfiling / StopProfiling / FlushProfiles / ScopedProfile.
// One Session started here at a time; stopped sessions go to the ProfileWriter.
#include <cstdlib>
#include <mutex>
#include <string>
#include <utility>

#include "src/base/clock.h"
#include "src/base/file_io.h"
#include "src/collect/fork_guard.h"
#include "src/collect/profile_writer.h"
#include "src/collect/run_environment.h"
#include "src/collect/session_internal.h"
#include "src/xspace/logdir.h"
#include "stepscope/session.h"

namespace stepscope {
namespace {

struct GlobalProfile {
  std::unique_ptr<Session> session;
  collect::ProfileDestination destination;
};

std::mutex g_api_mu;
GlobalProfile* g_profile = nullptr;  // guarded by g_api_mu; the session StartProfiling began

// At exit: stop an active session so its data is not lost, write everything, and join
// the collector thread before static destructors (protobuf's included) run.
void ShutdownAtExit() {
  if (collect::InForkedChild()) return;  // the parent's session and writer are not ours
  if (IsProfiling() && StopProfiling().code() == StatusCode::kFailedPrecondition) {
    // An in-memory session nobody collected: there is nowhere to write it, but its
    // tracers must stop before static destructors run.
    std::string discarded;
    StopProfilingInMemory(&discarded).IgnoreError();
  }
  collect::ProfileWriter::Get().Shutdown();
}

void RegisterExitHandlerOnce() {
  static std::once_flag once;
  std::call_once(once, [] { std::atexit(ShutdownAtExit); });
}


// Starts the process-wide session with `destination` (an empty logdir: in memory).
Status StartGlobalProfile(const char* context, collect::ProfileDestination destination, const ProfileOptions& options) {
  if (options.run_name.find('\0') != std::string::npos) {
    return InvalidArgumentError(std::string(context) + ": the logdir or run name contains a NUL byte");
  }
  if (collect::InForkedChild()) {
    return FailedPreconditionError(std::string(context) + ": " + collect::ForkedChildMessage());
  }
  std::lock_guard<std::mutex> lock(g_api_mu);
  if (g_profile != nullptr) {
    const std::string where = g_profile->destination.logdir.empty() ? "in memory" : "logdir " + g_profile->destination.logdir;
    return AlreadyExistsError(std::string(context) + ": a profiling session is already active (" + where +
                              "); call StopProfiling first");
  }
  if (!options.run_name.empty()) {
    Status named = xspace::ValidateRunName(options.run_name);
    if (!named.ok()) return named.WithContext(context);
  }
  if (!destination.logdir.empty()) {
    // Fail now, not at stop, when the logdir cannot be created or written: the session's
    // whole recording would be lost at stop.
    Status created = base::CreateDirectories(destination.logdir);
    if (created.ok()) created = base::CheckWritableDirectory(destination.logdir);
    if (!created.ok()) return created.WithContext(context);
  }
  RegisterExitHandlerOnce();

  auto profile = std::make_unique<GlobalProfile>();
  profile->destination = std::move(destination);
  profile->destination.run = options.run_name;
  if (profile->destination.run.empty()) {
    profile->destination.run = base::LocalTimestampString(base::WallNowNs());
    profile->destination.run_is_default = true;
  }
  profile->destination.host =
      options.host_name.empty() ? collect::CurrentRunEnvironment().host_name : options.host_name;

  StatusOr<std::unique_ptr<Session>> session = Session::Start(options);
  if (!session.ok()) return session.status().WithContext(context);
  profile->session = std::move(session).value();
  g_profile = profile.release();
  return OkStatus();
}

// Detaches the active session started here, stopped. `accept` may refuse it with `refusal`.
StatusOr<std::unique_ptr<GlobalProfile>> TakeStoppedProfile(const char* context,
                                                            bool (*accept)(const GlobalProfile&),
                                                            const char* refusal) {
  if (collect::InForkedChild()) {
    return FailedPreconditionError(std::string(context) + ": " + collect::ForkedChildMessage());
  }
  std::lock_guard<std::mutex> lock(g_api_mu);
  if (g_profile == nullptr) {
    return FailedPreconditionError(std::string(context) + ": no session started by StartProfiling is active");
  }
  if (!accept(*g_profile)) return FailedPreconditionError(std::string(context) + ": " + refusal);
  std::unique_ptr<GlobalProfile> profile(g_profile);
  g_profile = nullptr;
  Status stopped = profile->session->Stop();
  if (!stopped.ok()) return stopped.WithContext(context);
  return profile;
}

bool HasLogdir(const GlobalProfile& profile) { return !profile.destination.logdir.empty(); }
bool AnyProfile(const GlobalProfile&) { return true; }

}  // namespace

Status StartProfiling(const std::string& logdir, const ProfileOptions& options) {
  if (logdir.empty()) return InvalidArgumentError("StartProfiling: the logdir is empty");
  if (logdir.find('\0') != std::string::npos) {
    return InvalidArgumentError("StartProfiling: the logdir or run name contains a NUL byte");
  }
  return StartGlobalProfile("StartProfiling", {.logdir = logdir}, options);
}

Status StartProfilingInMemory(const ProfileOptions& options) {
  return StartGlobalProfile("StartProfilingInMemory", {}, options);
}

Status StopProfiling() {
  StatusOr<std::unique_ptr<GlobalProfile>> profile = TakeStoppedProfile(
      "StopProfiling", HasLogdir,
      "the session was started in memory (StartProfilingInMemory); collect it with StopProfilingInMemory");
  if (!profile.ok()) return profile.status();
  collect::ProfileWriter::Get().Enqueue(std::move((*profile)->session), std::move((*profile)->destination));
  return OkStatus();
}

Status StopProfilingInMemory(std::string* serialized_xspace) {
  if (serialized_xspace == nullptr) return InvalidArgumentError("StopProfilingInMemory: no output string");
  StatusOr<std::unique_ptr<GlobalProfile>> profile = TakeStoppedProfile("StopProfilingInMemory", AnyProfile, "");
  if (!profile.ok()) return profile.status();
  return (*profile)->session->CollectSerializedXSpace(serialized_xspace).WithContext("StopProfilingInMemory");
}

bool IsProfiling() { return !collect::InForkedChild() && collect::IsSessionActive(); }

Status FlushProfiles(std::vector<std::string>* written_paths) {
  if (collect::InForkedChild()) return OkStatus();  // nothing of the child's to write
  return collect::ProfileWriter::Get().Flush(written_paths);
}

ScopedProfile::ScopedProfile(const std::string& logdir, const ProfileOptions& options)
    : status_(StartProfiling(logdir, options)) {}

ScopedProfile::~ScopedProfile() {
  if (status_.ok() && !collect::InForkedChild()) StopProfiling().IgnoreError();
}

}  // namespace stepscope
