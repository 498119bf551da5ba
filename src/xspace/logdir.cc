#include "src/xspace/logdir.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "src/base/clock.h"
#include "src/base/file_io.h"
#include "src/base/status_macros.h"
#include "src/xspace/xspace_io.h"

namespace stepscope::xspace {
namespace fs = std::filesystem;
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

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

StatusOr<std::string> PrepareLogdirHostPath(std::string_view logdir, std::string_view run, std::string_view host) {
  std::string run_name = run.empty() ? base::LocalTimestampString(base::WallNowNs()) : std::string(run);
  if (run_name.find('/') != std::string::npos || run_name == ".." || run_name == ".") {
    return InvalidArgumentError("run name '" + run_name + "' must be a plain directory name");
  }
  fs::path dir = fs::path(ProfileRootDir(logdir)) / run_name;
  STEPSCOPE_RETURN_IF_ERROR(base::CreateDirectories(dir.string()));
  return (dir / (SanitizeHostName(host) + std::string(kXPlaneFileSuffix))).string();
}

StatusOr<std::string> WriteXSpaceToLogdir(std::string_view logdir, std::string_view run,
                                          std::string_view host, const XSpace& space) {
  STEPSCOPE_ASSIGN_OR_RETURN(std::string path, PrepareLogdirHostPath(logdir, run, host));
  STEPSCOPE_RETURN_IF_ERROR(WriteXSpaceFile(path, space));
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
