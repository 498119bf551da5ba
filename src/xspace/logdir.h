// The TensorBoard profile logdir layout:
//   <logdir>/plugins/profile/<run>/<host>.xplane.pb
// where <run> defaults to the local time "YYYY_MM_DD_HH_MM_SS" and ':' in a host name
// becomes '_' (TensorFlow's rule, so "10.0.0.1:6009" -> "10.0.0.1_6009.xplane.pb").
// Nested runs (<logdir>/<sub>/plugins/profile/<run>) are listed as "<sub>/<run>", as
// TensorBoard does.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "src/xspace/xplane.h"
#include "stepscope/status.h"

namespace stepscope::xspace {

inline constexpr std::string_view kXPlaneFileSuffix = ".xplane.pb";

struct HostFile {
  std::string host;  // file name without ".xplane.pb"
  std::string path;
};

struct RunInfo {
  std::string name;  // "2026_11_21_10_00_00" or "<sub>/<run>"
  std::string path;  // the run directory
  std::vector<HostFile> hosts;  // sorted by host
};

// "<logdir>/plugins/profile".
std::string ProfileRootDir(std::string_view logdir);
// Host name as used in file names: ':' and '/' replaced by '_'; empty becomes "localhost".
std::string SanitizeHostName(std::string_view host);

// What makes a run or host name unusable by some reader of the logdir, or "" when
// nothing does: a control character (a terminal would act on it, the server refuses it),
// a backslash, or a percent-encoded '.', '/', '\\' or NUL (the server refuses what would
// decode into a path). The server's request rule (src/server/request_params.h) and every
// writer's share it, so no writer names a run that the server then refuses.
std::string_view NameCharacterProblem(std::string_view name);

// A run directory name a writer may create: 1 to 255 bytes, one path segment (no '/', not
// "." or ".."), and no NameCharacterProblem. kInvalidArgument naming the problem.
Status ValidateRunName(std::string_view run);

enum class RunDirMode {
  kJoin,   // use the run directory if it exists (several hosts write one run)
  kFresh,  // a new directory: `run`, else run_2, run_3, ... whichever is free
};
// Creates <logdir>/plugins/profile/<run> for a writer and returns the run's name (with
// kFresh, the name it got: creating the directory is the claim, so two writers racing
// for one name get two). A writer never follows a link out of the logdir: plugins/,
// profile/ or the run being a symbolic link is kInvalidArgument. Stale temporary files
// of dead writers in every run directory are removed (base::RemoveStaleTemporaryFiles).
StatusOr<std::string> CreateRunDir(std::string_view logdir, std::string_view run, RunDirMode mode);

// <logdir>/plugins/profile/<run>/<host>.xplane.pb, its directories created (CreateRunDir
// kJoin). An empty `run` uses the current local time. For writers of their own
// (columnar_writer.h); others use:
StatusOr<std::string> PrepareLogdirHostPath(std::string_view logdir, std::string_view run, std::string_view host);

// Writes `space` to <logdir>/plugins/profile/<run>/<host>.xplane.pb atomically, creating
// directories. An empty `run` uses the current local time. Returns the path written.
// With replace false, a host file already there is kAlreadyExists and stays as it was.
StatusOr<std::string> WriteXSpaceToLogdir(std::string_view logdir, std::string_view run,
                                          std::string_view host, const XSpace& space, bool replace = true);

// Every run under `logdir` (sorted by name), each with its host files. A logdir with no
// runs gives kNotFound with a message saying what was expected.
StatusOr<std::vector<RunInfo>> ListRuns(std::string_view logdir);
// The host files of one run directory, sorted by host.
StatusOr<std::vector<HostFile>> ListHosts(std::string_view run_dir);

enum class ProfilePathKind { kXSpaceFile, kRunDir, kLogdir };
// Tells what a user pointed us at: a file, a run directory (holding *.xplane.pb) or a
// logdir (holding plugins/profile). kNotFound / kInvalidArgument otherwise.
StatusOr<ProfilePathKind> ClassifyProfilePath(std::string_view path);

}  // namespace stepscope::xspace
