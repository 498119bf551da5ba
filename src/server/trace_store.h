// The trace viewer's server-side state: one TraceIndex per (run, host), built on first
// use and kept in an LRU by bytes, plus recent search results per index.
//
// An index is built from the run's files the way src/load reads them (XSpace files with
// the streaming columnar reader; trace JSON files through the importers), so the viewer
// shows exactly what the tools analyse. For one host it indexes the columnar data the
// profile model already holds (the UI has built that model to list the tools), so a
// profile is not held in memory twice. Keys carry the files' path+size+mtime, so a
// rewritten profile gets a new index and the old one ages out.
//
// Thread safety: every method may be called concurrently; building is single-flight.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/trace/trace_index.h"
#include "src/analysis/trace/trace_search.h"
#include "src/load/profile_loader.h"
#include "src/server/profile_store.h"
#include "src/server/result_cache.h"
#include "stepscope/status.h"

namespace stepscope::server {

// Indexes kept at once: the index holds the columnar profile (~1.1x the file), so this
// is a few large profiles on a workstation, and one 100 M-event profile.
inline constexpr size_t kDefaultTraceIndexCacheBytes = size_t{6} << 30;
// Search results kept (each up to 16 MB of matches).
inline constexpr size_t kDefaultTraceSearchCacheBytes = size_t{128} << 20;

class TraceStore {
 public:
  // `profiles` (may be null) provides models whose columnar data the index can share.
  explicit TraceStore(ProfileStore* profiles, size_t index_cache_bytes = kDefaultTraceIndexCacheBytes,
                      size_t search_cache_bytes = kDefaultTraceSearchCacheBytes);

  struct IndexHandle {
    std::string key;  // identifies the index (and its files' versions)
    std::shared_ptr<const analysis::trace::TraceIndex> index;
  };
  // The index of `host` in `run` ("all" or empty: every host). kNotFound naming the
  // valid hosts for an unknown one.
  StatusOr<IndexHandle> GetIndex(const load::RunProfiles& run, std::string_view host);
  // The (cached) search of `query` over that index.
  StatusOr<std::shared_ptr<const analysis::trace::SearchResult>> Search(const IndexHandle& handle,
                                                                       std::string_view query);

  ResultCacheStats index_cache_stats() const { return indexes_.stats(); }

 private:
  ProfileStore* profiles_;
  ResultCache<analysis::trace::TraceIndex> indexes_;
  ResultCache<analysis::trace::SearchResult> searches_;
};

}  // namespace stepscope::server
