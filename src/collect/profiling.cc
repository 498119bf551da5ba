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
  if (IsProfiling()) StopProfiling().IgnoreError();
  collect::ProfileWriter::Get().Shutdown();
}

void RegisterExitHandlerOnce() {
  static std::once_flag once;
  std::call_once(once, [] { std::atexit(ShutdownAtExit); });
}

}  // namespace

Status StartProfiling(const std::string& logdir, const ProfileOptions& options) {
  if (logdir.empty()) return InvalidArgumentError("StartProfiling: the logdir is empty");
  if (logdir.find('\0') != std::string::npos || options.run_name.find('\0') != std::string::npos) {
    return InvalidArgumentError("StartProfiling: the logdir or run name contains a NUL byte");
  }
  if (collect::InForkedChild()) {
    return FailedPreconditionError(std::string("StartProfiling: ") + collect::ForkedChildMessage());
  }
  std::lock_guard<std::mutex> lock(g_api_mu);
  if (g_profile != nullptr) {
    return AlreadyExistsError("StartProfiling: a profiling session is already active (logdir " +
                              g_profile->destination.logdir + "); call StopProfiling first");
  }
  if (!options.run_name.empty()) {
    Status named = xspace::ValidateRunName(options.run_name);
    if (!named.ok()) return named.WithContext("StartProfiling");
  }
  // Fail now, not at stop, when the logdir cannot be created or written: the session's
  // whole recording would be lost at stop.
  Status created = base::CreateDirectories(logdir);
  if (created.ok()) created = base::CheckWritableDirectory(logdir);
  if (!created.ok()) return created.WithContext("StartProfiling");
  RegisterExitHandlerOnce();

  auto profile = std::make_unique<GlobalProfile>();
  profile->destination.logdir = logdir;
  profile->destination.run = options.run_name;
  if (profile->destination.run.empty()) {
    profile->destination.run = base::LocalTimestampString(base::WallNowNs());
    profile->destination.run_is_default = true;
  }
  profile->destination.host =
      options.host_name.empty() ? collect::CurrentRunEnvironment().host_name : options.host_name;

  StatusOr<std::unique_ptr<Session>> session = Session::Start(options);
  if (!session.ok()) return session.status().WithContext("StartProfiling");
  profile->session = std::move(session).value();
  g_profile = profile.release();
  return OkStatus();
}

Status StopProfiling() {
  if (collect::InForkedChild()) {
    return FailedPreconditionError(std::string("StopProfiling: ") + collect::ForkedChildMessage());
  }
  std::unique_ptr<GlobalProfile> profile;
  {
    std::lock_guard<std::mutex> lock(g_api_mu);
    if (g_profile == nullptr) {
      return FailedPreconditionError("StopProfiling: no session started by StartProfiling is active");
    }
    profile.reset(g_profile);
    g_profile = nullptr;
    Status stopped = profile->session->Stop();
    if (!stopped.ok()) return stopped.WithContext("StopProfiling");
  }
  collect::ProfileWriter::Get().Enqueue(std::move(profile->session), std::move(profile->destination));
  return OkStatus();
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
