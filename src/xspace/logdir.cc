#include "src/xspace/logdir.h"

#include <errno.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "src/base/ascii.h"
#include "src/base/clock.h"
#include "src/base/file_io.h"
#include "src/base/output_file.h"
#include "src/base/status_macros.h"
#include "src/xspace/xspace_io.h"

namespace stepscope::xspace {
namespace fs = std::filesystem;
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// TensorFlow's and every file system's limit on one path segment.
constexpr size_t kMaxRunNameBytes = 255;
// How far CreateRunDir looks for a free name (as the collector's free-name loop).
constexpr int kMaxFreshRunSuffix = 100000;

// Directories under `logdir` searched for plugins/profile: the logdir itself and, like
// TensorBoard, any subdirectory. Depth is bounded so a huge tree cannot stall listing.
constexpr int kMaxRunSearchDepth = 4;

void CollectRuns(const fs::path& dir, const std::string& prefix, int depth, std::vector<RunInfo>* runs) {
  std::error_code ec;
  fs::path root = dir / "plugins" / "profile";
  if (fs::is_directory(root, ec)) {
    for (const auto& entry : fs::directory_iterator(root, ec)) {
      if (!entry.is_directory(ec)) continue;
      RunInfo run;
      run.name = prefix + entry.path().filename().string();
      run.path = entry.path().string();
      auto hosts = ListHosts(run.path);
      if (hosts.ok()) run.hosts = std::move(hosts).value();
      runs->push_back(std::move(run));
    }
  }
  if (depth >= kMaxRunSearchDepth) return;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (!entry.is_directory(ec) || entry.is_symlink(ec)) continue;
    std::string name = entry.path().filename().string();
    if (name == "plugins") continue;
    CollectRuns(entry.path(), prefix + name + "/", depth + 1, runs);
  }
}

Status LinkRefused(const fs::path& dir) {
  return InvalidArgumentError(dir.string() + " is a symbolic link: profiles are written only into directories "
                                             "inside the logdir");
}

}  // namespace

std::string ProfileRootDir(std::string_view logdir) {
  return (fs::path(logdir) / "plugins" / "profile").string();
}

std::string SanitizeHostName(std::string_view host) {
  std::string out(host.empty() ? std::string_view("localhost") : host);
  for (char& c : out) {
    if (c == ':' || c == '/' || c == '\\') c = '_';
  }
  if (out == "." || out == "..") out = "localhost";
  return out;
}

std::string_view NameCharacterProblem(std::string_view name) {
  for (char c : name) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return "contains a control character";
    if (c == '\\') return "contains a backslash";
  }
  // What is left of an encoded traversal after one decoding.
  for (std::string_view encoded : {"%2e", "%2f", "%5c", "%00"}) {
    if (base::AsciiContainsIgnoreCase(name, encoded)) return "contains a percent-encoded '.', '/', '\\' or NUL";
  }
  return {};
}

Status ValidateRunName(std::string_view run) {
  auto refuse = [run](std::string_view why) {
    std::string shown(run.substr(0, 64));
    for (char& c : shown) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';  // never a control character in a message
    }
    return InvalidArgumentError("run name '" + shown + (run.size() > 64 ? "...'" : "'") + " " + std::string(why));
  };
  if (run.empty()) return refuse("is empty");
  if (run.size() > kMaxRunNameBytes) return refuse("is longer than " + std::to_string(kMaxRunNameBytes) + " bytes");
  if (run.find('/') != std::string_view::npos || run == "." || run == "..") {
    return refuse("must be a plain directory name (no '/', not '.' or '..')");
  }
  std::string_view problem = NameCharacterProblem(run);
  if (!problem.empty()) return refuse(problem);
  return OkStatus();
}

StatusOr<std::string> CreateRunDir(std::string_view logdir, std::string_view run, RunDirMode mode) {
  STEPSCOPE_RETURN_IF_ERROR(ValidateRunName(run));
  const fs::path root(ProfileRootDir(logdir));
  std::error_code ec;
  // Checked before anything is created under them (creating through a link would write
  // outside already).
  for (const fs::path& dir : {root.parent_path(), root}) {
    if (fs::is_symlink(dir, ec)) return LinkRefused(dir);
  }
  STEPSCOPE_RETURN_IF_ERROR(base::CreateDirectories(root.string()));
  std::string name(run);
  for (int suffix = 2;; ++suffix) {
    fs::path dir = root / name;
    if (::mkdir(dir.c_str(), 0755) == 0) break;
    if (errno != EEXIST) return base::OutputFileError(errno, "cannot create directory " + dir.string() + ": " + std::strerror(errno));
    if (fs::is_symlink(dir, ec)) return LinkRefused(dir);
    if (!fs::is_directory(dir, ec)) return InvalidArgumentError(dir.string() + " exists and is not a directory");
    if (mode == RunDirMode::kJoin) break;
    if (suffix > kMaxFreshRunSuffix) {
      return ResourceExhaustedError("no free run name from " + std::string(run) + "_2 to " + std::string(run) + "_" +
                                    std::to_string(kMaxFreshRunSuffix) + " in " + root.string());
    }
    name = std::string(run) + "_" + std::to_string(suffix);
  }
  // A writer killed mid-write (kill -9) leaves its temporary file in some run: every
  // run's are swept, as the dead writer's run may never be written again.
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    if (entry.is_directory(ec) && !entry.is_symlink(ec)) base::RemoveStaleTemporaryFiles(entry.path().string());
  }
  return name;
}

StatusOr<std::string> PrepareLogdirHostPath(std::string_view logdir, std::string_view run, std::string_view host) {
  std::string run_name = run.empty() ? base::LocalTimestampString(base::WallNowNs()) : std::string(run);
  STEPSCOPE_ASSIGN_OR_RETURN(run_name, CreateRunDir(logdir, run_name, RunDirMode::kJoin));
  return (fs::path(ProfileRootDir(logdir)) / run_name / (SanitizeHostName(host) + std::string(kXPlaneFileSuffix)))
      .string();
}

StatusOr<std::string> WriteXSpaceToLogdir(std::string_view logdir, std::string_view run,
                                          std::string_view host, const XSpace& space, bool replace) {
  STEPSCOPE_ASSIGN_OR_RETURN(std::string path, PrepareLogdirHostPath(logdir, run, host));
  STEPSCOPE_RETURN_IF_ERROR(WriteXSpaceFile(path, space, /*gzip=*/false, replace));
  return path;
}

StatusOr<std::vector<HostFile>> ListHosts(std::string_view run_dir) {
  std::error_code ec;
  if (!fs::is_directory(run_dir, ec)) return NotFoundError("no such run directory: " + std::string(run_dir));
  std::vector<HostFile> hosts;
  for (const auto& entry : fs::directory_iterator(run_dir, ec)) {
    std::string name = entry.path().filename().string();
    if (!entry.is_regular_file(ec) || !EndsWith(name, kXPlaneFileSuffix)) continue;
    hosts.push_back({name.substr(0, name.size() - kXPlaneFileSuffix.size()), entry.path().string()});
  }
  if (ec) return InvalidArgumentError("cannot list " + std::string(run_dir) + ": " + ec.message());
  std::sort(hosts.begin(), hosts.end(), [](const HostFile& a, const HostFile& b) { return a.host < b.host; });
  return hosts;
}

StatusOr<std::vector<RunInfo>> ListRuns(std::string_view logdir) {
  std::error_code ec;
  if (!fs::is_directory(logdir, ec)) return NotFoundError("no such logdir: " + std::string(logdir));
  std::vector<RunInfo> runs;
  CollectRuns(fs::path(logdir), "", 0, &runs);
  if (runs.empty()) {
    return NotFoundError(std::string(logdir) + " holds no profile runs (expected plugins/profile/<run>/<host>.xplane.pb)");
  }
  std::sort(runs.begin(), runs.end(), [](const RunInfo& a, const RunInfo& b) { return a.name < b.name; });
  return runs;
}

StatusOr<ProfilePathKind> ClassifyProfilePath(std::string_view path) {
  std::error_code ec;
  fs::path p(path);
  if (!fs::exists(p, ec)) return NotFoundError("no such file or directory: " + std::string(path));
  if (fs::is_regular_file(p, ec)) return ProfilePathKind::kXSpaceFile;
  if (!fs::is_directory(p, ec)) return InvalidArgumentError(std::string(path) + " is not a file or directory");
  if (fs::is_directory(p / "plugins" / "profile", ec)) return ProfilePathKind::kLogdir;
  auto hosts = ListHosts(path);
  if (hosts.ok() && !hosts->empty()) return ProfilePathKind::kRunDir;
  auto runs = ListRuns(path);
  if (runs.ok()) return ProfilePathKind::kLogdir;
  return InvalidArgumentError(std::string(path) +
                              " is neither a logdir (plugins/profile/<run>/), a run directory "
                              "(*.xplane.pb) nor an .xplane.pb file");
}

}  // namespace stepscope::xspace
