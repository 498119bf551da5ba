// The server's view of a logdir: runs listed on demand, models and tool results computed
// once and cached.
//
// Everything goes through src/load (the same loading the CLI uses) and the tool registry
// (RunTool / AvailableTools), so the server adds no analysis of its own.
//
// Freshness: the run list is re-read from disk at most every kRunListTtl (and always by
// ListRuns(), i.e. /api/runs), so new runs appear without a restart. Each request for a
// run re-lists that run's files and keys caches by their path+size+mtime, so a profile
// rewritten in place is recomputed and the stale entries age out of the LRU.
//
// Thread safety: all methods may be called concurrently (one per HTTP worker thread).
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/model/profile_model.h"
#include "src/analysis/tool.h"
#include "src/load/profile_loader.h"
#include "src/load/summary_cache.h"
#include "src/server/result_cache.h"
#include "stepscope/status.h"

namespace stepscope::server {

// How long a run listing is reused before the logdir is walked again. Short enough that a
// run written a moment ago shows up on the next click; long enough that a burst of
// requests for one page walks the directory tree once.
inline constexpr std::chrono::milliseconds kRunListTtl{1000};

struct ProfileStoreOptions {
  std::string logdir;
  // Budget for finished tool results (JSON text and tables), LRU by bytes.
  size_t result_cache_bytes = size_t{256} << 20;
  // Budget for profile models (analysis::ModelMemoryBytes: what each keeps), LRU. 0: half
  // the process's memory budget (base::MemoryBudgetBytes, --max_memory_mb).
  size_t model_cache_bytes = 0;
  // How runs are listed: sessions assembled from run directories (load::ListOptions).
  load::ListOptions list_options;
  // Where multi-host models' summaries are read and written (load::SummaryOptions).
  load::SummaryOptions summaries;
};

// One tool run's output, kept by the cache.
struct CachedResult {
  std::string json;  // exactly what `stepscope analyze --format json` prints
  std::unique_ptr<analysis::ToolResult> result;  // for CSV of its tables
  std::vector<std::string> table_names;
};

class ProfileStore {
 public:
  explicit ProfileStore(ProfileStoreOptions options);

  const std::string& logdir() const { return options_.logdir; }
  // False once the logdir has been deleted (or was never there).
  bool LogdirExists() const;

  // Every run, re-read from disk. An existing logdir with no runs yet gives an empty list.
  StatusOr<std::vector<load::RunProfiles>> ListRuns();
  // The run named exactly `name`, with its files re-listed; kNotFound otherwise.
  StatusOr<load::RunProfiles> FindRun(std::string_view name);

  // The host names a client may ask for in `run`: each host, plus "all" first when the
  // run has several.
  static std::vector<std::string> HostChoices(const load::RunProfiles& run);

  // The model of one host of `run`, or of all hosts combined for "all" / empty; with
  // `step`, of that step alone (ModelOptions::step; kNotFound when there is no such step).
  StatusOr<std::shared_ptr<const analysis::ProfileModel>> GetModel(const load::RunProfiles& run,
                                                                   std::string_view host,
                                                                   std::optional<int64_t> step = std::nullopt);
  // The result of `tool_id` on that model.
  StatusOr<std::shared_ptr<const CachedResult>> GetResult(const load::RunProfiles& run, std::string_view host,
                                                          std::string_view tool_id,
                                                          const analysis::ToolOptions& options,
                                                          std::optional<int64_t> step = std::nullopt);

  ResultCacheStats model_cache_stats() const { return models_.stats(); }
  ResultCacheStats result_cache_stats() const { return results_.stats(); }

 private:
  // The files `host` selects in `run`; kNotFound naming the valid hosts.
  StatusOr<std::vector<load::HostProfileFile>> SelectFiles(const load::RunProfiles& run, std::string_view host) const;
  StatusOr<std::vector<load::RunProfiles>> RunsFromCacheOrDisk(bool force_refresh);
  StatusOr<analysis::ProfileModel> LoadModel(const std::vector<load::HostProfileFile>& files,
                                             std::optional<int64_t> step) const;
  StatusOr<std::shared_ptr<const analysis::ProfileModel>> KeepIfItFits(analysis::ProfileModel model,
                                                                       const std::string& run) const;

  const ProfileStoreOptions options_;
  ResultCache<analysis::ProfileModel> models_;
  ResultCache<CachedResult> results_;

  std::mutex runs_mutex_;
  std::vector<load::RunProfiles> runs_;  // guarded by runs_mutex_
  std::chrono::steady_clock::time_point runs_listed_at_{};
  bool runs_valid_ = false;
};


}  // namespace stepscope::server
