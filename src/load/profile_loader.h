// Turning "what the user pointed at" into ProfileModels, in one place for the CLI
// (`stepscope analyze`) and the server (`stepscope serve`).
//
// A profile is found by a path — a logdir (plugins/profile/<run>/), a run directory or a
// single profile file — plus an optional run and host. A run directory holds one file per
// host: `<host>.xplane.pb` (XSpace, optionally gzip-compressed), and, when the importers
// are built in, trace files other profilers write (`<host>.trace.json.gz`,
// `<worker>.pt.trace.json[.gz]`). When a host has both an XSpace and a trace file, the
// XSpace wins (TensorFlow writes both; the XSpace is the complete one).
//
// Models are built per host; "all hosts" builds each host's model (in parallel) and
// combines them. Nothing here caches: callers that serve many requests (the server) keep
// models keyed by FilesSignature().
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/model/profile_model.h"
#include "stepscope/status.h"

namespace stepscope::load {

enum class ProfileFormat { kXSpace, kTraceJson };

// One host's profile file in a run.
struct HostProfileFile {
  std::string host;  // from the file name ("worker0" for worker0.xplane.pb)
  std::string path;
  ProfileFormat format = ProfileFormat::kXSpace;
  int64_t size_bytes = 0;
  int64_t mtime_ns = 0;  // last write time, Unix ns
};

struct RunProfiles {
  std::string name;  // "2026_11_21_10_00_00", or "<sub>/<run>" for nested logdirs
  std::string path;  // the run directory (an assembled session: its first run's)
  std::vector<HostProfileFile> hosts;  // sorted by host; may be empty (run being written)
  // A session assembled from several run directories (run_sessions.h): their names and
  // paths, in start order (the first is `name`'s). Empty for a run directory on its own.
  std::vector<std::string> member_runs;
  std::vector<std::string> member_paths;
};

struct ListOptions {
  // Assemble the runs that the workers of one job wrote to run directories of their own
  // into one session (run_sessions.h). Off: every run directory is a run.
  bool assemble_sessions = true;
};

// The host name that means "every host of the run, combined".
inline constexpr std::string_view kAllHosts = "all";

// The profile files of one run directory, sorted by host. kNotFound when it is gone.
StatusOr<std::vector<HostProfileFile>> ListRunFiles(const std::string& run_dir);

// Every run under `logdir` with its files, sorted by name. kNotFound when the logdir does
// not exist or holds no runs (the message says what was expected).
StatusOr<std::vector<RunProfiles>> ListLogdirRuns(const std::string& logdir, const ListOptions& options = {});

// The run's files listed again (a server's cached listing may be stale): every member run
// directory's for an assembled session. kNotFound when a directory is gone.
StatusOr<std::vector<HostProfileFile>> RelistRunFiles(const RunProfiles& run);

// Identifies the contents of `files`: equal signatures mean no file was added, removed or
// rewritten (paths, sizes and mtimes are equal).
std::string FilesSignature(const std::vector<HostProfileFile>& files);

// Identifies what a host selection of `run` covers, for cache keys: kAllHosts when
// `files` (the selected ones, non-empty) are all the run's hosts, else the one host's name,
// then FilesSignature. So for a one-host run no host, "all" and the host's name are one
// key, as they are one model.
std::string SelectionKey(const RunProfiles& run, const std::vector<HostProfileFile>& files);

// Builds one host's model. The host name is the file's unless options name one.
// Errors name the file.
StatusOr<analysis::ProfileModel> LoadHostModel(const HostProfileFile& file,
                                               const analysis::ModelOptions& options = {});

// Builds the model of several hosts: each host's model (in parallel), combined. One file
// gives that host's model. kInvalidArgument for an empty list.
StatusOr<analysis::ProfileModel> LoadCombinedModel(const std::vector<HostProfileFile>& files,
                                                   const analysis::ModelOptions& options = {});

// Builds the models of `count` hosts with `build(i)`, a few at a time in parallel (each model
// can be large, and the machine's cores are the limit anyway), and combines them in index
// order; the first error, in index order, otherwise. The one loop for every way a host's
// model is made (from its file, from its summary).
StatusOr<analysis::ProfileModel> CombineHostsBuiltInParallel(
    size_t count, const std::function<StatusOr<analysis::ProfileModel>(size_t)>& build);

// ---- The CLI's entry point ----

struct ProfileRequest {
  std::string path;  // logdir, run directory or profile file
  std::string run;   // logdir only; empty = the newest run (files written last)
  std::string host;  // empty or "all" = every host combined
  analysis::ModelOptions model_options;
  ListOptions list_options;  // how a logdir's runs are listed
};

struct ResolvedProfile {
  std::string run;  // run name (a run directory's own name); empty for a single file
  int run_count = 0;  // runs in the logdir (1 for a run directory), to tell users a choice was made
  std::vector<HostProfileFile> files;  // the selected host files (one, or all)
  std::vector<std::string> all_hosts;  // every host of the run, for messages and UIs
};

// Finds the files `request` names. kNotFound for an unknown run or host (listing the
// valid ones), kInvalidArgument for a path that is not a profile.
StatusOr<ResolvedProfile> ResolveProfile(const ProfileRequest& request);

// The choice ResolveProfile makes in a logdir, among `runs` (its listing, or a caller's
// filtered copy of it): the run named `run` (empty: the newest, files written last) and
// its host `host` (empty or kAllHosts: every host). kNotFound naming the valid runs or
// hosts.
StatusOr<ResolvedProfile> SelectRun(const std::vector<RunProfiles>& runs, const std::string& run,
                                    const std::string& host);

// The paths of `profile`'s files, in its order.
std::vector<std::string> ProfilePaths(const ResolvedProfile& profile);

// ResolveProfile + LoadCombinedModel.
StatusOr<analysis::ProfileModel> LoadProfile(const ProfileRequest& request);

}  // namespace stepscope::load
