#include "src/server/trace_store.h"

#include <utility>

#include "src/base/status_macros.h"
#include "src/load/trace_index_loader.h"

namespace stepscope::server {
namespace {

using analysis::trace::SearchResult;
using analysis::trace::TraceIndex;
using analysis::trace::TraceSourceInput;

StatusOr<std::vector<load::HostProfileFile>> SelectFiles(const load::RunProfiles& run, std::string_view host) {
  if (run.hosts.empty()) return NotFoundError("run '" + run.name + "' holds no profile files yet");
  if (host.empty() || host == load::kAllHosts) return run.hosts;
  std::string valid;
  for (const load::HostProfileFile& file : run.hosts) {
    if (file.host == host) return std::vector<load::HostProfileFile>{file};
    valid += (valid.empty() ? "" : ", ") + file.host;
  }
  return NotFoundError("no host '" + std::string(host) + "' in run '" + run.name + "'; hosts: " + valid);
}

std::string Lowercase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return out;
}

}  // namespace

TraceStore::TraceStore(ProfileStore* profiles, size_t index_cache_bytes, size_t search_cache_bytes)
    : profiles_(profiles),
      indexes_(index_cache_bytes, [](const TraceIndex& index) { return index.MemoryBytes(); }),
      searches_(search_cache_bytes, [](const SearchResult& result) { return result.MemoryBytes(); }) {}

StatusOr<TraceStore::IndexHandle> TraceStore::GetIndex(const load::RunProfiles& run, std::string_view host) {
  STEPSCOPE_ASSIGN_OR_RETURN(std::vector<load::HostProfileFile> files, SelectFiles(run, host));
  IndexHandle handle;
  // Keyed by the files the selection covers, as models are: a one-host run's index is one
  // whatever the host is called.
  handle.key = run.name + '\0' + load::SelectionKey(run, files);
  STEPSCOPE_ASSIGN_OR_RETURN(handle.index, indexes_.GetOrCompute(handle.key, [&]() -> StatusOr<std::shared_ptr<const TraceIndex>> {
    if (files.size() == 1 && profiles_ != nullptr) {
      // The model of this host keeps its columnar source: index that.
      auto model = profiles_->GetModel(run, host);
      if (model.ok() && (*model)->source != nullptr) {
        std::vector<TraceSourceInput> sources;
        sources.push_back(TraceSourceInput{files[0].host, (*model)->source});
        STEPSCOPE_ASSIGN_OR_RETURN(TraceIndex index, TraceIndex::Build(std::move(sources)));
        return std::make_shared<const TraceIndex>(std::move(index));
      }
    }
    STEPSCOPE_ASSIGN_OR_RETURN(TraceIndex index, load::LoadTraceIndex(files));
    return std::make_shared<const TraceIndex>(std::move(index));
  }));
  return handle;
}

StatusOr<std::shared_ptr<const SearchResult>> TraceStore::Search(const IndexHandle& handle, std::string_view query) {
  std::string key = handle.key + '\0' + Lowercase(query);
  return searches_.GetOrCompute(key, [&]() -> StatusOr<std::shared_ptr<const SearchResult>> {
    STEPSCOPE_ASSIGN_OR_RETURN(SearchResult result, analysis::trace::SearchEvents(*handle.index, query));
    return std::make_shared<const SearchResult>(std::move(result));
  });
}

}  // namespace stepscope::server
