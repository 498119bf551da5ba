// Host summaries on disk (analysis/model/host_summary.h): read a host's summary when it is
// current, else build the host's model and write its summary, so that a run's hosts are
// read once and every later multi-host question is answered from the summaries.
//
// Where: beside the host's file (".<file name>.stepscope-summary", hidden, in the run
// directory; every machine that sees the file sees it), or, when that directory is not
// writable (no write bit, or the write fails), in the cache directory
// ($STEPSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/stepscope, else ~/.cache/stepscope) under a
// name made from the file's absolute path.
//
// The file: a header with the key below, then the encoded model, gzip'ed.
//
// Current: the summary's key is the file's size, its mtime and a hash of its first and
// last 4 KiB, plus the summary format's version. A summary whose key differs (stale) or
// that cannot be decoded (corrupt) is never used: the host is read again and the summary
// rewritten, and the result says why.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/model/profile_model.h"
#include "src/load/profile_loader.h"
#include "stepscope/status.h"

namespace stepscope::load {

struct SummaryOptions {
  std::string cache_dir;  // empty: the default above
  bool write = true;      // false: use current summaries, write none (read-only servers)
};

enum class SummaryFound {
  kCurrent,  // used
  kNone,     // no summary yet: built
  kStale,    // the file changed, or another format version: rebuilt
  kCorrupt,  // unreadable: rebuilt
};

// "current", "built", "rebuilt_stale", "rebuilt_corrupt": how reports name what was found.
std::string_view SummaryStateName(SummaryFound found);

struct SummarizedHost {
  analysis::ProfileModel model;
  SummaryFound found = SummaryFound::kNone;
  std::string summary_path;  // read, or written; empty when none was written
  std::string note;          // why a summary was not used ("stale: the file changed"), or why none was written
  int64_t summary_bytes = 0;
};

// A host file of a run, for maps over every host a path names.
struct HostInRun {
  std::string run;  // empty for a single file
  HostProfileFile file;
};

// Every host file `path` names (a host file, a run directory, or a logdir: every host of
// every run directory), in path order: what `stepscope summarize` and a cluster's map take.
StatusOr<std::vector<HostInRun>> ListHostFiles(const std::string& path);

// Whether the host has a current summary (one SummarizeHost would use), without building.
bool HasCurrentSummary(const HostProfileFile& file, const SummaryOptions& options = {});

// The host's model, from its current summary or built (and its summary written).
StatusOr<SummarizedHost> SummarizeHost(const HostProfileFile& file, const SummaryOptions& options = {});

// Several hosts, each from its summary (read, or built and written; a few at a time in
// parallel), combined: every tool but the trace viewer gives what it gives on
// LoadCombinedModel's model with keep_event_tree off. `notes` (may be null) receives one
// line per host whose summary was stale or corrupt, and so rebuilt.
StatusOr<analysis::ProfileModel> LoadCombinedModelFromSummaries(const std::vector<HostProfileFile>& files,
                                                                const SummaryOptions& options,
                                                                std::vector<std::string>* notes);

// A run's model as every command and the server read it: several hosts without a step
// from their summaries (LoadCombinedModelFromSummaries, `notes` as there); one host, or
// one step's model (a summary holds the whole profile's), from the files with `options`.
StatusOr<analysis::ProfileModel> LoadRunModel(const std::vector<HostProfileFile>& files,
                                              const analysis::ModelOptions& options, const SummaryOptions& summaries,
                                              std::vector<std::string>* notes);

// The cache directory SummaryOptions::cache_dir names or the environment gives.
std::string SummaryCacheDir(const SummaryOptions& options);

}  // namespace stepscope::load
