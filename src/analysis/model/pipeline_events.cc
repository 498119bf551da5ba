#include "src/analysis/model/pipeline_events.h"

#include <string_view>
#include <tuple>
#include <unordered_map>

#include "src/base/batch_heap.h"
#include "src/xspace/columnar/columnar_xspace.h"

namespace stepscope::analysis {
namespace {

constexpr std::string_view kIteratorPrefix = "Iterator::";

// What a stat of the plane means to the extraction, by dense stat-metadata index.
enum class StatRole : uint8_t { kNone = 0, kId, kParentId, kElementId, kSetting };

std::vector<StatRole> StatRoles(const xspace::ColumnarPlane& plane) {
  std::vector<StatRole> roles(plane.stat_metadata.size(), StatRole::kNone);
  for (size_t i = 0; i < plane.stat_metadata.size(); ++i) {
    std::string_view name = plane.stat_metadata[i].name;
    if (name == "id") roles[i] = StatRole::kId;
    if (name == "parent_id") roles[i] = StatRole::kParentId;
    if (name == "element_id") roles[i] = StatRole::kElementId;
    // tf.data's TraceMe metadata for ParallelMap's workers and Prefetch's buffer.
    if (name == "parallelism" || name == "buffer_limit") roles[i] = StatRole::kSetting;
  }
  return roles;
}

// An event's stats as read, before its iterator stats are shared.
struct ReadEventStats {
  PipelineIteratorStats iterator;
  int64_t element_id = 0;
  uint8_t flags = 0;
};

void ApplyStat(const xspace::ColumnarStat& stat, const std::vector<StatRole>& roles, ReadEventStats* out) {
  if (stat.metadata_index >= roles.size() || !xspace::ColumnarPlane::IsNumeric(stat.kind)) return;
  const int64_t value = xspace::ColumnarPlane::AsInt64(stat);
  switch (roles[stat.metadata_index]) {
    case StatRole::kId: out->iterator.id = value; out->flags |= PipelineEvent::kHasId; break;
    case StatRole::kParentId: out->iterator.parent_id = value; out->flags |= PipelineEvent::kHasParentId; break;
    case StatRole::kElementId: out->element_id = value; out->flags |= PipelineEvent::kHasElementId; break;
    case StatRole::kSetting: out->iterator.setting = value; break;
    case StatRole::kNone: break;
  }
}

// Metadata stats first, so the event's own stats win.
ReadEventStats ReadStats(const xspace::ColumnarPlane& plane, uint32_t event_index, const std::vector<StatRole>& roles) {
  ReadEventStats out;
  const xspace::ColumnarEventMetadata& metadata = plane.event_metadata[plane.event_metadata_index[event_index]];
  for (uint32_t i = metadata.stats_begin; i < metadata.stats_end; ++i) ApplyStat(plane.other_stats[i], roles, &out);
  for (uint32_t i = plane.event_stats_begin[event_index], end = plane.event_stats_begin[event_index + 1]; i < end; ++i) {
    ApplyStat(plane.event_stat(i), roles, &out);
  }
  return out;
}

// Shares equal iterator stats among events: one entry of PipelineEvents::iterator_stats
// per distinct (id, parent_id, setting). Consecutive events of a thread mostly repeat the
// last one, which is answered without hashing.
class IteratorStatsTable {
 public:
  explicit IteratorStatsTable(std::vector<PipelineIteratorStats>* stats) : stats_(stats) {
    index_.emplace(Key(stats->front()), 0);
  }

  uint32_t Intern(const PipelineIteratorStats& stats) {
    if ((*stats_)[last_] == stats) return last_;
    auto [it, inserted] = index_.try_emplace(Key(stats), static_cast<uint32_t>(stats_->size()));
    if (inserted) stats_->push_back(stats);
    last_ = it->second;
    return last_;
  }

 private:
  using StatsKey = std::tuple<int64_t, int64_t, int64_t>;
  struct KeyHash {
    size_t operator()(const StatsKey& k) const {
      uint64_t h = static_cast<uint64_t>(std::get<0>(k)) * 0x9E3779B97F4A7C15ull;
      h ^= static_cast<uint64_t>(std::get<1>(k)) + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
      h ^= static_cast<uint64_t>(std::get<2>(k)) + 0x8CB92BA72F3D8DD7ull + (h << 6) + (h >> 2);
      return static_cast<size_t>(h);
    }
  };
  static StatsKey Key(const PipelineIteratorStats& s) { return {s.id, s.parent_id, s.setting}; }

  std::vector<PipelineIteratorStats>* stats_;
  std::unordered_map<StatsKey, uint32_t, KeyHash> index_;
  uint32_t last_ = 0;
};

struct PlaneTables {
  std::vector<StatRole> roles;
  // By dense event-metadata index: index into PipelineEvents::names + 1, 0 when the name
  // is no pipeline event.
  std::vector<uint32_t> name_of_metadata;
  std::vector<PipelineEventKind> kind_of_metadata;
  bool has_iterators = false;
};

PlaneTables TablesFor(const xspace::ColumnarPlane& plane, PipelineEvents* out) {
  PlaneTables tables;
  tables.name_of_metadata.assign(plane.event_metadata.size(), 0);
  tables.kind_of_metadata.assign(plane.event_metadata.size(), PipelineEventKind::kIterator);
  for (size_t i = 0; i < plane.event_metadata.size(); ++i) {
    PipelineEventKind kind;
    if (!ClassifyPipelineEventName(plane.event_metadata[i].name, &kind)) continue;
    tables.has_iterators |= kind == PipelineEventKind::kIterator;
    out->names.push_back(plane.event_metadata[i].name);
    tables.name_of_metadata[i] = static_cast<uint32_t>(out->names.size());
    tables.kind_of_metadata[i] = kind;
  }
  if (tables.has_iterators) tables.roles = StatRoles(plane);
  return tables;
}

// One lookup per event: most threads (the training loop, runtime threads) have none.
size_t CountPipelineEvents(const xspace::ColumnarPlane& plane, const HostThread& thread, const PlaneTables& tables) {
  size_t count = 0;
  for (size_t i = 0; i < thread.size(); ++i) {
    count += tables.name_of_metadata[plane.event_metadata_index[thread.event(i)]] != 0;
  }
  return count;
}

void ExtractThread(const xspace::ColumnarPlane& plane, const HostThread& thread, const PlaneTables& tables,
                   uint32_t thread_index, IteratorStatsTable* iterator_stats, PipelineEvents* out) {
  // nearest[i]: the pipeline event (index into out->events) that is tree node i or its
  // innermost pipeline ancestor; -1 when none. Parents precede children in time order.
  std::vector<int32_t> nearest(thread.size(), -1);
  for (size_t i = 0; i < thread.size(); ++i) {
    const int32_t tree_parent = thread.parent[i];
    const int32_t enclosing = tree_parent >= 0 ? nearest[tree_parent] : -1;
    nearest[i] = enclosing;
    const uint32_t e = thread.event(i);
    const uint32_t metadata = plane.event_metadata_index[e];
    const uint32_t name = tables.name_of_metadata[metadata];
    if (name == 0) continue;
    PipelineEvent event;
    event.begin_ps = plane.event_start_ps[e];
    event.end_ps = plane.event_end_ps(e);
    event.enclosing = enclosing;
    event.name = name - 1;
    event.thread = thread_index;
    event.kind = tables.kind_of_metadata[metadata];
    const ReadEventStats stats = ReadStats(plane, e, tables.roles);
    event.element_id = stats.element_id;
    event.flags = stats.flags;
    event.stats = iterator_stats->Intern(stats.iterator);
    nearest[i] = static_cast<int32_t>(out->events.size());
    out->events.push_back(event);
  }
}

}  // namespace

bool ClassifyPipelineEventName(std::string_view name, PipelineEventKind* kind) {
  if (name.size() > kIteratorPrefix.size() && name.substr(0, kIteratorPrefix.size()) == kIteratorPrefix) {
    *kind = PipelineEventKind::kIterator;
    return true;
  }
  auto ends_with = [&](std::string_view suffix) {
    return name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix;
  };
  // "PrefetchProduce" etc.: a word before the suffix, no spaces or separators (so user
  // annotations such as "train/produce" or "Produce" alone are not taken).
  if (name.find_first_of(" /:#") != std::string_view::npos) return false;
  if (ends_with("Produce")) {
    *kind = PipelineEventKind::kProduce;
    return true;
  }
  if (ends_with("Consume")) {
    *kind = PipelineEventKind::kConsume;
    return true;
  }
  return false;
}

PipelineEvents ExtractPipelineEvents(const xspace::ColumnarXSpace& space, const std::vector<HostThread>& threads) {
  PipelineEvents out;
  // Tables per plane, built on first use (host threads of one model share one plane).
  std::vector<PlaneTables> tables(space.planes.size());
  std::vector<bool> built(space.planes.size(), false);
  // Counted first, so that the events take their exact size: a tf.data-heavy host has
  // millions, and a growing vector would hold them up to three times over while it moves
  // them (10 M-event profile: 407 MB instead of 134, the largest block of `analyze`).
  std::vector<size_t> counts(threads.size(), 0);
  size_t total = 0;
  for (size_t t = 0; t < threads.size(); ++t) {
    const HostThread& thread = threads[t];
    if (thread.plane_index >= space.planes.size()) continue;
    const xspace::ColumnarPlane& plane = space.planes[thread.plane_index];
    if (!built[thread.plane_index]) {
      tables[thread.plane_index] = TablesFor(plane, &out);
      built[thread.plane_index] = true;
    }
    if (tables[thread.plane_index].has_iterators) counts[t] = CountPipelineEvents(plane, thread, tables[thread.plane_index]);
    total += counts[t];
  }
  // The events are one block, larger than what malloc serves from its heap: the model's
  // freed temporaries, still resident in that heap, are handed back first, so the block
  // adds to what is alive only (10 M-event profile: +100 MB at `analyze`'s end, not +134).
  if (total * sizeof(PipelineEvent) >= base::kLargeBlockBytes) base::ReleaseFreedHeapMemory();
  out.events.reserve(total);
  IteratorStatsTable iterator_stats(&out.iterator_stats);
  for (size_t t = 0; t < threads.size(); ++t) {
    if (counts[t] == 0) continue;
    const HostThread& thread = threads[t];
    out.threads.push_back(thread.name);
    ExtractThread(space.planes[thread.plane_index], thread, tables[thread.plane_index],
                  static_cast<uint32_t>(out.threads.size() - 1), &iterator_stats, &out);
  }
  return out;
}

void ForEachHostPipelineEvents(const ProfileModel& model,
                               const std::function<void(int host_index, const PipelineEvents& events)>& visit) {
  if (model.pipeline_events.empty() && model.source != nullptr) {
    visit(0, ExtractPipelineEvents(*model.source, model.host_threads));
    return;
  }
  for (size_t h = 0; h < model.pipeline_events.size(); ++h) visit(static_cast<int>(h), model.pipeline_events[h]);
}

void KeepPipelineEvents(ProfileModel* model) {
  if (!model->pipeline_events.empty() || model->source == nullptr) return;
  model->pipeline_events.push_back(ExtractPipelineEvents(*model->source, model->host_threads));
}

}  // namespace stepscope::analysis
