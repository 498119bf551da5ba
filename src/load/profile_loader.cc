#include "src/load/profile_loader.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <system_error>
#include <thread>
#include <utility>

#include "src/analysis/model/combine_hosts.h"
#include "src/base/cores.h"
#include "src/base/map_in_order.h"
#include "src/base/status_macros.h"
#include "src/load/run_sessions.h"
#include "src/load/trace_import.h"
#include "src/xspace/logdir.h"

namespace stepscope::load {
namespace fs = std::filesystem;
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Suffixes of trace files a run directory may hold, longest first so "x.pt.trace.json.gz"
// gives host "x".
constexpr std::string_view kTraceSuffixes[] = {".pt.trace.json.gz", ".pt.trace.json", ".trace.json.gz",
                                               ".trace.json"};

// The host and format a file name stands for; false for files that are not profiles.
bool ParseProfileFileName(std::string_view name, std::string* host, ProfileFormat* format) {
  if (EndsWith(name, xspace::kXPlaneFileSuffix)) {
    *host = std::string(name.substr(0, name.size() - xspace::kXPlaneFileSuffix.size()));
    *format = ProfileFormat::kXSpace;
    return !host->empty();
  }
  for (std::string_view suffix : kTraceSuffixes) {
    if (EndsWith(name, suffix)) {
      *host = std::string(name.substr(0, name.size() - suffix.size()));
      *format = ProfileFormat::kTraceJson;
      return !host->empty();
    }
  }
  return false;
}

StatusOr<HostProfileFile> StatFile(const fs::path& path, std::string host, ProfileFormat format) {
  std::error_code ec;
  HostProfileFile file;
  file.host = std::move(host);
  file.path = path.string();
  file.format = format;
  file.size_bytes = static_cast<int64_t>(fs::file_size(path, ec));
  if (ec) return NotFoundError(file.path + ": " + ec.message());
  auto mtime = fs::last_write_time(path, ec);
  if (ec) return NotFoundError(file.path + ": " + ec.message());
  // As Unix time: file_clock's own epoch is implementation-defined (2174 in libstdc++).
  file.mtime_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::file_clock::to_sys(mtime).time_since_epoch())
                      .count();
  return file;
}

std::string HostList(const std::vector<HostProfileFile>& files) {
  std::string list;
  for (const HostProfileFile& file : files) list += (list.empty() ? "" : ", ") + file.host;
  return list.empty() ? "(none)" : list;
}

// Host name of a single profile file given directly.
std::string HostOfFile(const fs::path& path, ProfileFormat* format) {
  std::string host;
  std::string name = path.filename().string();
  if (EndsWith(name, ".gz") && EndsWith(name.substr(0, name.size() - 3), xspace::kXPlaneFileSuffix)) {
    name.resize(name.size() - 3);
  }
  if (ParseProfileFileName(name, &host, format)) return host;
  *format = IsTraceFileName(name) ? ProfileFormat::kTraceJson : ProfileFormat::kXSpace;
  return path.stem().string();
}

// The run written last (by its files' mtimes; ties by name). Run names are free-form
// (ProfileOptions::run_name), so they do not sort by time in general.
const RunProfiles* NewestRun(const std::vector<RunProfiles>& runs) {
  const RunProfiles* newest = nullptr;
  int64_t newest_ns = 0;
  for (const RunProfiles& run : runs) {
    int64_t run_ns = 0;
    for (const HostProfileFile& file : run.hosts) run_ns = std::max(run_ns, file.mtime_ns);
    if (newest == nullptr || run_ns > newest_ns || (run_ns == newest_ns && run.name > newest->name)) {
      newest = &run;
      newest_ns = run_ns;
    }
  }
  return newest;
}

}  // namespace

StatusOr<std::vector<HostProfileFile>> ListRunFiles(const std::string& run_dir) {
  std::error_code ec;
  if (!fs::is_directory(run_dir, ec)) return NotFoundError("no such run directory: " + run_dir);
  std::map<std::string, HostProfileFile> by_host;
  fs::directory_iterator it(run_dir, ec);
  if (ec) return NotFoundError("cannot list " + run_dir + ": " + ec.message());
  for (const auto& entry : it) {
    std::string host;
    ProfileFormat format;
    if (!entry.is_regular_file(ec) || !ParseProfileFileName(entry.path().filename().string(), &host, &format)) {
      continue;
    }
    if (format == ProfileFormat::kTraceJson && !TraceImportAvailable()) continue;
    auto existing = by_host.find(host);
    if (existing != by_host.end() && existing->second.format == ProfileFormat::kXSpace) continue;
    auto file = StatFile(entry.path(), host, format);
    if (!file.ok()) continue;  // removed while listing
    by_host[host] = std::move(file).value();
  }
  std::vector<HostProfileFile> files;
  for (auto& [host, file] : by_host) files.push_back(std::move(file));
  return files;
}

StatusOr<std::vector<RunProfiles>> ListLogdirRuns(const std::string& logdir, const ListOptions& options) {
  STEPSCOPE_ASSIGN_OR_RETURN(std::vector<xspace::RunInfo> runs, xspace::ListRuns(logdir));
  std::vector<RunProfiles> result;
  result.reserve(runs.size());
  for (xspace::RunInfo& run : runs) {
    RunProfiles profiles;
    profiles.name = std::move(run.name);
    profiles.path = std::move(run.path);
    auto files = ListRunFiles(profiles.path);
    // A directory with no profile (a writer killed before its first rename left only its
    // temporary file) is no run: listed, it would show no hosts and load nothing.
    if (!files.ok() || files->empty()) continue;
    profiles.hosts = std::move(files).value();
    result.push_back(std::move(profiles));
  }
  if (result.empty()) {
    return NotFoundError(logdir + " holds no profile runs: its run directories hold no profile files (" +
                         std::to_string(runs.size()) + " without)");
  }
  if (options.assemble_sessions) return AssembleSessions(std::move(result));
  return result;
}

StatusOr<std::vector<HostProfileFile>> RelistRunFiles(const RunProfiles& run) {
  if (run.member_paths.empty()) return ListRunFiles(run.path);
  std::vector<HostProfileFile> files;
  for (const std::string& path : run.member_paths) {
    STEPSCOPE_ASSIGN_OR_RETURN(std::vector<HostProfileFile> member, ListRunFiles(path));
    files.insert(files.end(), std::make_move_iterator(member.begin()), std::make_move_iterator(member.end()));
  }
  std::sort(files.begin(), files.end(),
            [](const HostProfileFile& a, const HostProfileFile& b) { return a.host < b.host; });
  return files;
}

std::string FilesSignature(const std::vector<HostProfileFile>& files) {
  std::string signature;
  for (const HostProfileFile& file : files) {
    signature += file.path;
    signature += '|';
    signature += std::to_string(file.size_bytes);
    signature += '|';
    signature += std::to_string(file.mtime_ns);
    signature += '\n';
  }
  return signature;
}

std::string SelectionKey(const RunProfiles& run, const std::vector<HostProfileFile>& files) {
  std::string key(files.size() == run.hosts.size() ? kAllHosts : std::string_view(files.front().host));
  key += '\0';
  key += FilesSignature(files);
  return key;
}

StatusOr<analysis::ProfileModel> LoadHostModel(const HostProfileFile& file, const analysis::ModelOptions& options) {
  analysis::ModelOptions with_host = options;
  if (with_host.hostname.empty()) with_host.hostname = file.host;
  StatusOr<analysis::ProfileModel> model = InternalError("unreachable");
  if (file.format == ProfileFormat::kTraceJson) {
    STEPSCOPE_ASSIGN_OR_RETURN(xspace::ColumnarXSpace space, ImportTraceFileColumnar(file.path));
    model = analysis::BuildProfileModel(std::make_shared<const xspace::ColumnarXSpace>(std::move(space)), with_host);
  } else {
    model = analysis::BuildProfileModelFromFile(file.path, with_host);
  }
  // Every error names the file it is about, once.
  if (!model.ok() && model.status().message().find(file.path) == std::string::npos) {
    return model.status().WithContext(file.path);
  }
  return model;
}

StatusOr<analysis::ProfileModel> LoadCombinedModel(const std::vector<HostProfileFile>& files,
                                                   const analysis::ModelOptions& options) {
  if (files.empty()) return InvalidArgumentError("no profile files to load");
  if (files.size() == 1) return LoadHostModel(files[0], options);
  analysis::ModelOptions host_options = options;
  host_options.hostname.clear();
  return CombineHostsBuiltInParallel(files.size(), [&](size_t i) { return LoadHostModel(files[i], host_options); });
}

StatusOr<analysis::ProfileModel> CombineHostsBuiltInParallel(
    size_t count, const std::function<StatusOr<analysis::ProfileModel>(size_t)>& build) {
  if (count == 0) return InvalidArgumentError("no profile files to load");
  const int cores = std::max(1, base::UsableCores());
  // Hosts are built on every core and folded in host order on this thread as they come: a
  // few hosts' models in memory at a time, never the run's.
  analysis::HostCombiner combiner;
  Status failed = OkStatus();
  base::MapInOrder<StatusOr<analysis::ProfileModel>>(
      count, cores, 2 * static_cast<size_t>(cores), build, [&](size_t, StatusOr<analysis::ProfileModel> model) {
        if (!model.ok()) {
          failed = model.status();
          return false;
        }
        combiner.Add(std::move(*model));
        return true;
      });
  if (!failed.ok()) return failed;
  return std::move(combiner).Finish();
}

std::vector<std::string> ProfilePaths(const ResolvedProfile& profile) {
  std::vector<std::string> paths;
  for (const HostProfileFile& file : profile.files) paths.push_back(file.path);
  return paths;
}

namespace {

// Completes `resolved` (its run named) with `files`, the run's: all of them for an empty
// host or kAllHosts, else the one of `host`.
StatusOr<ResolvedProfile> SelectHost(ResolvedProfile resolved, std::vector<HostProfileFile> files,
                                     const std::string& host) {
  if (files.empty()) return NotFoundError("run " + resolved.run + " holds no profile files (*.xplane.pb)");
  for (const HostProfileFile& file : files) resolved.all_hosts.push_back(file.host);
  if (host.empty() || host == kAllHosts) {
    resolved.files = std::move(files);
    return resolved;
  }
  for (HostProfileFile& file : files) {
    if (file.host == host) {
      resolved.files.push_back(std::move(file));
      return resolved;
    }
  }
  return NotFoundError("no host '" + host + "' in run " + resolved.run + "; hosts: " + HostList(files));
}

}  // namespace

StatusOr<ResolvedProfile> SelectRun(const std::vector<RunProfiles>& runs, const std::string& run,
                                    const std::string& host) {
  ResolvedProfile resolved;
  resolved.run_count = static_cast<int>(runs.size());
  const RunProfiles* chosen = nullptr;
  if (run.empty()) {
    chosen = NewestRun(runs);
    if (chosen == nullptr) return NotFoundError("no runs");
  } else {
    std::string names;
    for (const RunProfiles& candidate : runs) {
      // A session is also found by the name of any run directory it was assembled from.
      const bool member = std::find(candidate.member_runs.begin(), candidate.member_runs.end(), run) !=
                          candidate.member_runs.end();
      if (candidate.name == run || member) chosen = &candidate;
      names += (names.empty() ? "" : ", ") + candidate.name;
    }
    if (chosen == nullptr) return NotFoundError("no run '" + run + "'; runs: " + names);
  }
  resolved.run = chosen->name;
  return SelectHost(std::move(resolved), chosen->hosts, host);
}

StatusOr<ResolvedProfile> ResolveProfile(const ProfileRequest& request) {
  STEPSCOPE_ASSIGN_OR_RETURN(xspace::ProfilePathKind kind, xspace::ClassifyProfilePath(request.path));
  if (kind != xspace::ProfilePathKind::kLogdir && !request.run.empty()) {
    return InvalidArgumentError("--run applies to a logdir, and " + request.path + " is a " +
                                (kind == xspace::ProfilePathKind::kRunDir ? "run directory" : "file"));
  }
  if (kind == xspace::ProfilePathKind::kXSpaceFile) {
    if (!request.host.empty() && request.host != kAllHosts) {
      return InvalidArgumentError("--host applies to a run or logdir, not to one file");
    }
    ProfileFormat format;
    std::string host = HostOfFile(request.path, &format);
    if (format == ProfileFormat::kTraceJson && !TraceImportAvailable()) {
      return UnimplementedError(request.path + ": trace JSON files need the importers, which this build lacks");
    }
    STEPSCOPE_ASSIGN_OR_RETURN(HostProfileFile file, StatFile(request.path, host, format));
    ResolvedProfile resolved;
    resolved.files.push_back(file);
    resolved.all_hosts.push_back(file.host);
    return resolved;
  }
  if (kind == xspace::ProfilePathKind::kRunDir) {
    STEPSCOPE_ASSIGN_OR_RETURN(std::vector<HostProfileFile> files, ListRunFiles(request.path));
    ResolvedProfile resolved;
    resolved.run = fs::path(request.path).filename().string();
    resolved.run_count = 1;
    return SelectHost(std::move(resolved), std::move(files), request.host);
  }
  STEPSCOPE_ASSIGN_OR_RETURN(std::vector<RunProfiles> runs, ListLogdirRuns(request.path, request.list_options));
  return SelectRun(runs, request.run, request.host);
}

StatusOr<analysis::ProfileModel> LoadProfile(const ProfileRequest& request) {
  STEPSCOPE_ASSIGN_OR_RETURN(ResolvedProfile resolved, ResolveProfile(request));
  return LoadCombinedModel(resolved.files, request.model_options);
}

}  // namespace stepscope::load
