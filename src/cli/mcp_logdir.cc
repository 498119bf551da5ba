#include "src/cli/mcp_logdir.h"

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <memory>

namespace stepscope::cli::mcp {
namespace {

namespace fs = std::filesystem;

// The canonical absolute path of `path` with every symlink resolved, or "" when it does
// not exist (or cannot be resolved).
std::string RealPath(const std::string& path) {
  std::unique_ptr<char, decltype(&std::free)> real(::realpath(path.c_str(), nullptr), &std::free);
  return real == nullptr ? "" : std::string(real.get());
}

}  // namespace

std::string NoRunsMessage(const std::string& logdir) {
  return "the logdir " + logdir + " holds no profile runs yet (a run is a directory " + logdir +
         "/plugins/profile/<run>/ of <host>.xplane.pb or trace JSON files)";
}

Status CheckName(std::string_view what, std::string_view name) {
  const std::string quoted = "'" + std::string(name) + "'";
  if (name.empty()) return InvalidArgumentError(std::string(what) + " name is empty");
  for (char c : name) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      return InvalidArgumentError(std::string(what) + " name holds a control character");
    }
    if (c == '\\') return InvalidArgumentError(std::string(what) + " " + quoted + " is a path, not a name");
  }
  if (name.front() == '/') {
    return InvalidArgumentError(std::string(what) + " " + quoted + " is an absolute path; give a name from list_runs");
  }
  size_t begin = 0;
  while (begin <= name.size()) {
    const size_t end = std::min(name.find('/', begin), name.size());
    const std::string_view part = name.substr(begin, end - begin);
    if (part == "." || part == ".." || part.empty()) {
      return InvalidArgumentError(std::string(what) + " " + quoted +
                                  " leaves or walks the logdir; give a name from list_runs");
    }
    begin = end + 1;
  }
  return OkStatus();
}

StatusOr<ConfinedLogdir> ConfinedLogdir::Open(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return NotFoundError("no such logdir: " + path);
  if (!fs::is_directory(path, ec)) return InvalidArgumentError(path + " is not a directory (give a logdir)");
  std::string real = RealPath(path);
  if (real.empty()) return NotFoundError("cannot resolve the logdir " + path);
  while (real.size() > 1 && real.back() == '/') real.pop_back();
  return ConfinedLogdir(path, std::move(real));
}

bool ConfinedLogdir::Inside(const std::string& path) const {
  const std::string real = RealPath(path);
  if (real.empty()) return false;
  if (real_path_ == "/") return true;
  return real.size() > real_path_.size() && real.compare(0, real_path_.size(), real_path_) == 0 &&
         real[real_path_.size()] == '/';
}

StatusOr<std::vector<load::RunProfiles>> ConfinedLogdir::Runs() const {
  StatusOr<std::vector<load::RunProfiles>> listed = load::ListLogdirRuns(path_);
  // A logdir that exists but holds no run yet is an empty list: runs may come later.
  if (!listed.ok()) return listed.status().code() == StatusCode::kNotFound ? std::vector<load::RunProfiles>{} : listed;
  std::vector<load::RunProfiles> runs;
  for (load::RunProfiles& run : *listed) {
    if (!Inside(run.path)) continue;
    std::vector<load::HostProfileFile> inside;
    for (load::HostProfileFile& file : run.hosts) {
      if (Inside(file.path)) inside.push_back(std::move(file));
    }
    if (inside.empty()) continue;
    run.hosts = std::move(inside);
    runs.push_back(std::move(run));
  }
  return runs;
}

StatusOr<load::ResolvedProfile> ConfinedLogdir::Select(const std::string& run, const std::string& host) const {
  if (!run.empty()) {
    if (Status name = CheckName("run", run); !name.ok()) return name;
  }
  if (!host.empty()) {
    if (Status name = CheckName("host", host); !name.ok()) return name;
  }
  StatusOr<std::vector<load::RunProfiles>> runs = Runs();
  if (!runs.ok()) return runs.status();
  if (runs->empty()) return NotFoundError(NoRunsMessage(path_));
  return load::SelectRun(*runs, run, host);
}

}  // namespace stepscope::cli::mcp
