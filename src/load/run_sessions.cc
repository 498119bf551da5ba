#include "src/load/run_sessions.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <string_view>
#include <utility>

namespace stepscope::load {
namespace {

// "sub/2026_12_07_10_00_00" -> "sub"; a top-level run -> "".
std::string_view ParentOf(std::string_view run_name) {
  const size_t slash = run_name.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : run_name.substr(0, slash);
}

std::string_view DirNameOf(std::string_view run_name) {
  const size_t slash = run_name.rfind('/');
  return slash == std::string_view::npos ? run_name : run_name.substr(slash + 1);
}

struct Session {
  std::vector<size_t> runs;  // indexes into the listing, in start order
  std::set<std::string> hosts;
  int64_t start_ns = 0;
  int64_t stop_ns = 0;
};

// Only directories named after their start time, as each worker names its own, are ever
// assembled: a name someone chose ("baseline", an import's) is a run of its own.
bool Assemblable(const RunProfiles& run) { return RunNameStartNs(DirNameOf(run.name)).has_value(); }

bool Fits(const Session& session, std::string_view parent, const RunProfiles& run, const RunWindow& window,
          const std::vector<RunProfiles>& all) {
  if (!Assemblable(run) || !Assemblable(all[session.runs.front()])) return false;
  if (ParentOf(all[session.runs.front()].name) != parent) return false;
  if (window.start_ns > session.stop_ns + kSessionSlackNs || session.start_ns > window.stop_ns + kSessionSlackNs) {
    return false;
  }
  return std::none_of(run.hosts.begin(), run.hosts.end(),
                      [&](const HostProfileFile& file) { return session.hosts.count(file.host) > 0; });
}

RunProfiles Merge(const Session& session, std::vector<RunProfiles>& runs) {
  RunProfiles merged;
  merged.name = runs[session.runs.front()].name;
  merged.path = runs[session.runs.front()].path;
  for (size_t index : session.runs) {
    RunProfiles& run = runs[index];
    merged.member_runs.push_back(run.name);
    merged.member_paths.push_back(run.path);
    for (HostProfileFile& file : run.hosts) merged.hosts.push_back(std::move(file));
  }
  std::sort(merged.hosts.begin(), merged.hosts.end(),
            [](const HostProfileFile& a, const HostProfileFile& b) { return a.host < b.host; });
  return merged;
}

}  // namespace

RunWindow ReadRunWindow(const RunProfiles& run) {
  RunWindow window;
  bool first = true;
  for (const HostProfileFile& file : run.hosts) {
    const CaptureWindow host = ReadCaptureWindow(file, DirNameOf(run.name));
    window.start_ns = first ? host.start_ns : std::min(window.start_ns, host.start_ns);
    window.stop_ns = first ? host.stop_ns : std::max(window.stop_ns, host.stop_ns);
    window.source = first ? host.source : std::max(window.source, host.source);
    first = false;
  }
  return window;
}

std::vector<RunProfiles> AssembleSessions(std::vector<RunProfiles> runs) {
  // Reading windows costs a few small reads per file: only when there is a choice to make.
  if (std::count_if(runs.begin(), runs.end(), Assemblable) < 2) return runs;
  std::vector<RunWindow> windows;
  windows.reserve(runs.size());
  for (const RunProfiles& run : runs) windows.push_back(ReadRunWindow(run));
  return AssembleSessions(std::move(runs), windows);
}

std::vector<RunProfiles> AssembleSessions(std::vector<RunProfiles> runs, const std::vector<RunWindow>& windows) {
  std::vector<size_t> order(runs.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return windows[a].start_ns < windows[b].start_ns; });
  std::vector<Session> sessions;
  for (size_t index : order) {
    const RunProfiles& run = runs[index];
    const std::string_view parent = ParentOf(run.name);
    auto home = std::find_if(sessions.begin(), sessions.end(), [&](const Session& session) {
      return Fits(session, parent, run, windows[index], runs);
    });
    if (home == sessions.end()) {
      sessions.push_back({.start_ns = windows[index].start_ns, .stop_ns = windows[index].stop_ns});
      home = sessions.end() - 1;
    }
    home->runs.push_back(index);
    for (const HostProfileFile& file : run.hosts) home->hosts.insert(file.host);
    home->start_ns = std::min(home->start_ns, windows[index].start_ns);
    home->stop_ns = std::max(home->stop_ns, windows[index].stop_ns);
  }
  std::vector<RunProfiles> result;
  result.reserve(sessions.size());
  for (const Session& session : sessions) {
    if (session.runs.size() == 1) {
      result.push_back(std::move(runs[session.runs.front()]));
    } else {
      result.push_back(Merge(session, runs));
    }
  }
  std::sort(result.begin(), result.end(), [](const RunProfiles& a, const RunProfiles& b) { return a.name < b.name; });
  return result;
}

}  // namespace stepscope::load
