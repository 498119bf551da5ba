#include "src/cli/mcp_profile_cache.h"

#include <list>
#include <utility>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/model/model_memory.h"
#include "src/base/memory_budget.h"
#include "src/load/trace_index_loader.h"

namespace stepscope::cli::mcp {
namespace {

// One kind of cached value, most recently used first.
template <typename V>
struct Lru {
  struct Entry {
    std::string key;
    std::shared_ptr<const V> value;
    size_t bytes = 0;
  };
  size_t max_entries;
  std::list<Entry> entries;

  std::shared_ptr<const V> Find(const std::string& key) {
    for (auto it = entries.begin(); it != entries.end(); ++it) {
      if (it->key != key) continue;
      entries.splice(entries.begin(), entries, it);
      return entries.front().value;
    }
    return nullptr;
  }
  size_t bytes() const {
    size_t total = 0;
    for (const Entry& e : entries) total += e.bytes;
    return total;
  }
};

// The key of a selection: its run and the selected files' paths, sizes and mtimes (so
// "all" of a one-host run and that host are one key, as they are one model).
std::string SelectionKeyOf(const load::ResolvedProfile& profile) {
  return profile.run + '\0' + load::FilesSignature(profile.files);
}

}  // namespace

struct ProfileCache::Entries {
  Lru<analysis::ProfileModel> models{kMaxCachedModels, {}};
  Lru<analysis::trace::TraceIndex> traces{kMaxCachedTraceIndexes, {}};

  // Drops the least recently used entries until both kinds fit their counts and together
  // half the memory budget; the newest entry of each kind always stays (it is in use).
  void Evict() {
    const size_t budget = static_cast<size_t>(base::MemoryBudgetBytes() / 2);
    while (models.entries.size() > models.max_entries) models.entries.pop_back();
    while (traces.entries.size() > traces.max_entries) traces.entries.pop_back();
    while (models.bytes() + traces.bytes() > budget) {
      // The larger of the two oldest goes first.
      const bool can_model = models.entries.size() > 1;
      const bool can_trace = traces.entries.size() > 1;
      if (!can_model && !can_trace) return;
      if (can_model && (!can_trace || models.entries.back().bytes >= traces.entries.back().bytes)) {
        models.entries.pop_back();
      } else {
        traces.entries.pop_back();
      }
    }
  }
};

ProfileCache::ProfileCache() : entries_(std::make_unique<Entries>()) {}
ProfileCache::~ProfileCache() = default;

StatusOr<std::shared_ptr<const analysis::ProfileModel>> ProfileCache::Model(const load::ResolvedProfile& profile,
                                                                             std::optional<int64_t> step) {
  const std::string key = SelectionKeyOf(profile) + '\0' + (step ? std::to_string(*step) : "all");
  if (auto cached = entries_->models.Find(key)) return cached;
  analysis::ModelOptions options;
  // As `stepscope analyze` (command_profile.cc): tools read the summarised model only.
  options.keep_event_tree = false;
  options.step = step;
  StatusOr<analysis::ProfileModel> model = load::LoadCombinedModel(profile.files, options);
  if (!model.ok()) return model.status();
  auto shared = std::make_shared<const analysis::ProfileModel>(std::move(*model));
  entries_->models.entries.push_front({key, shared, analysis::ModelMemoryBytes(*shared)});
  entries_->Evict();
  return shared;
}

StatusOr<std::shared_ptr<const analysis::trace::TraceIndex>> ProfileCache::TraceIndex(
    const load::ResolvedProfile& profile) {
  const std::string key = SelectionKeyOf(profile);
  if (auto cached = entries_->traces.Find(key)) return cached;
  StatusOr<analysis::trace::TraceIndex> index = load::LoadTraceIndex(profile.files);
  if (!index.ok()) return index.status();
  auto shared = std::make_shared<const analysis::trace::TraceIndex>(std::move(*index));
  entries_->traces.entries.push_front({key, shared, shared->MemoryBytes()});
  entries_->Evict();
  return shared;
}

size_t ProfileCache::entries() const { return entries_->models.entries.size() + entries_->traces.entries.size(); }
size_t ProfileCache::bytes() const { return entries_->models.bytes() + entries_->traces.bytes(); }

}  // namespace stepscope::cli::mcp
