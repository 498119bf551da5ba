// One profiling session from several run directories. TensorBoard users' top complaint about
// multi-worker profiles: when each worker of a job profiles itself (tf.profiler.experimental
// .start on every worker, a Keras callback per worker), each writes
// plugins/profile/<its own start time>/ and the job's hosts end up in as many runs, none of
// which shows the job. Runs whose capture windows overlap and whose hosts differ are such a
// job: they are listed, loaded and served as one session, named after its first run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/load/capture_window.h"
#include "src/load/profile_loader.h"

namespace stepscope::load {

// Workers start and stop a few seconds apart, and run names have whole seconds.
inline constexpr int64_t kSessionSlackNs = int64_t{2} * 1000000000;

// A run's capture window: the union of its hosts' (capture_window.h).
struct RunWindow {
  int64_t start_ns = 0;
  int64_t stop_ns = 0;
  WindowSource source = WindowSource::kMtime;  // the least exact of its hosts'
};
RunWindow ReadRunWindow(const RunProfiles& run);

// Groups `runs` (ListLogdirRuns' listing) into sessions. Runs join when both directories are
// named after their start time (YYYY_MM_DD_HH_MM_SS..., as workers name their own; a name
// someone chose is a run of its own), they are in the same parent directory, their windows
// overlap (within kSessionSlackNs) and no host is in both;
// each joins the earliest session it fits. A session of one run is that run, unchanged. The
// result is sorted by name, as the listing is.
std::vector<RunProfiles> AssembleSessions(std::vector<RunProfiles> runs);

// The same on given windows (one per run), for tests that set them by construction.
std::vector<RunProfiles> AssembleSessions(std::vector<RunProfiles> runs, const std::vector<RunWindow>& windows);

}  // namespace stepscope::load
