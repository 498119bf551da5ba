#include "src/xspace/columnar/columnar_finalize.h"

#include <algorithm>
#include <limits>
#include <string>

#include "src/base/status_macros.h"
#include "src/xspace/columnar/columnar_memory_decoder.h"

namespace stepscope::xspace {
namespace {

// Raw id -> dense index. A flat vector when ids are small and dense (what every writer
// we know produces: sequential from 1), a hash map for anything else.
class IdTable {
 public:
  static constexpr uint32_t kAbsent = UINT32_MAX;

  template <typename Entries, typename KeyOf>
  void Build(const Entries& entries, KeyOf key_of) {
    int64_t max_key = -1;
    bool all_small = true;
    for (const auto& entry : entries) {
      int64_t key = key_of(entry);
      if (key < 0) all_small = false;
      max_key = std::max(max_key, key);
    }
    // 4x + 64Ki: a vector no more than a few times the entries' own size.
    if (all_small && max_key < static_cast<int64_t>(entries.size()) * 4 + 65536) {
      direct_.assign(static_cast<size_t>(max_key + 1), kAbsent);
    }
    for (uint32_t i = 0; i < entries.size(); ++i) Set(key_of(entries[i]), i);  // later duplicates win
  }
  uint32_t Find(int64_t raw) const {
    if (raw >= 0 && static_cast<uint64_t>(raw) < direct_.size()) return direct_[static_cast<size_t>(raw)];
    auto it = map_.find(raw);
    return it == map_.end() ? kAbsent : it->second;
  }
  void Set(int64_t raw, uint32_t index) {
    if (raw >= 0 && static_cast<uint64_t>(raw) < direct_.size()) {
      direct_[static_cast<size_t>(raw)] = index;
    } else {
      map_[raw] = index;
    }
  }

 private:
  std::vector<uint32_t> direct_;
  std::unordered_map<int64_t, uint32_t> map_;
};

// Lays `entries` out by id (entries[id].id == id, later duplicates win, holes filled by
// make_placeholder) when all ids are non-negative and the table would stay within a few
// times its size, covering ids up to max_used. Returns false (entries untouched) otherwise.
template <typename Entry, typename MakePlaceholder>
bool LayOutById(std::vector<Entry>* entries, uint64_t max_used, MakePlaceholder make_placeholder) {
  uint64_t max_id = max_used;
  for (const Entry& entry : *entries) {
    if (entry.id < 0) return false;
    max_id = std::max<uint64_t>(max_id, static_cast<uint64_t>(entry.id));
  }
  // 4x + 64Ki: the same bound as IdTable's flat vector.
  if (max_id >= entries->size() * 4 + 65536) return false;
  std::vector<Entry> by_id(max_id + 1);
  std::vector<bool> filled(max_id + 1);
  for (Entry& entry : *entries) {
    size_t id = static_cast<size_t>(entry.id);
    by_id[id] = std::move(entry);
    filled[id] = true;
  }
  for (size_t id = 0; id <= max_id; ++id) {
    if (!filled[id]) by_id[id] = make_placeholder(static_cast<int64_t>(id));
  }
  *entries = std::move(by_id);
  return true;
}


// ValidateXSpace's rule: a plane with events of which none names defined metadata is
// not something any writer produces (a corrupt or foreign file). Stops at the first
// named event, normally event 0.
Status CheckSomeEventIsNamed(const ColumnarPlane& plane) {
  const uint32_t events = plane.num_events();
  for (uint32_t i = 0; i < events; ++i) {
    if (plane.event_metadata[plane.event_metadata_index[i]].defined) return OkStatus();
  }
  if (events == 0) return OkStatus();
  return DataLossError("plane '" + plane.name + "' has " + std::to_string(events) +
                       " events but none refers to known event metadata (corrupt file?)");
}

}  // namespace

uint64_t PlaneIds::InternString(std::string_view value, ColumnarPlane* plane) {
  if (value.size() <= kMaxDedupStringBytes) {
    auto it = string_index_.find(value);
    if (it != string_index_.end()) return it->second;
    string_index_.emplace(std::string(value), static_cast<uint32_t>(plane->strings.size()));
  }
  plane->strings.emplace_back(value);
  return plane->strings.size() - 1;
}

Status FinalizePlane(PlaneIds* ids, ColumnarPlane* plane, const MemoryRecordDecoder* memory) {
  if (ids->overflowed()) return ResourceExhaustedError("too many distinct out-of-range metadata ids");

  // ---- stat metadata ----
  // When every id the plane defines or uses is small (what every writer produces), the
  // table is laid out by id (index == id, placeholders in holes) and the event stats,
  // whose keys hold verbatim ids, need no rewrite at all.
  bool stat_identity = false;
  {
    uint64_t max_used = 0;
    bool any_big = false;
    for (uint32_t i = 0, n = plane->num_stats(); i < n; ++i) {
      uint32_t key = plane->stat_key[i];
      uint32_t encoded = key & ColumnarPlane::kMaxStatMetadata;
      any_big |= (encoded & PlaneIds::kBigStatIdFlag) != 0;
      max_used = std::max<uint64_t>(max_used, encoded);
      if (static_cast<StatKind>(key >> ColumnarPlane::kKindShift) == StatKind::kRef) {
        any_big |= (key & ColumnarPlane::kWidePayload) != 0;
        max_used = std::max<uint64_t>(max_used, plane->stat_payload[i]);
      }
    }
    if (memory != nullptr) {
      any_big |= memory->any_big_stat_id();
      max_used = std::max(max_used, memory->max_used_stat_id());
    }
    stat_identity = !any_big && LayOutById(&plane->stat_metadata, max_used,
                                           [](int64_t id) { return ColumnarStatMetadata{.id = id, .defined = false}; });
  }
  IdTable stat_ids;
  stat_ids.Build(plane->stat_metadata, [](const ColumnarStatMetadata& m) { return m.id; });
  auto resolve_stat = [&](int64_t raw) {
    uint32_t index = stat_ids.Find(raw);
    if (index == IdTable::kAbsent) {
      index = static_cast<uint32_t>(plane->stat_metadata.size());
      plane->stat_metadata.push_back(ColumnarStatMetadata{.id = raw, .defined = false});
      stat_ids.Set(raw, index);
    }
    return index;
  };
  auto remap_stat = [&](ColumnarStat* stat) {
    stat->metadata_index = resolve_stat(ids->DecodeStatId(stat->metadata_index));
    if (stat->kind == StatKind::kRef) stat->payload = resolve_stat(static_cast<int64_t>(stat->payload));
  };

  // Rewrites the metadata index in place (kind and wide flag kept); refs become dense
  // indices, which always fit the narrow payload.
  for (uint32_t i = 0, n = stat_identity ? 0 : plane->num_stats(); i < n; ++i) {
    ColumnarStat stat = plane->event_stat(i);
    remap_stat(&stat);
    uint32_t key = plane->stat_key[i];
    uint32_t rest = key & ~ColumnarPlane::kMaxStatMetadata;
    if (stat.kind == StatKind::kRef) {
      rest &= ~ColumnarPlane::kWidePayload;
      plane->stat_payload[i] = static_cast<uint32_t>(stat.payload);
    }
    plane->stat_key[i] = rest | stat.metadata_index;
  }

  if (memory != nullptr) memory->Finalize(*ids, resolve_stat, plane);

  // ---- plane stats and event metadata (with their stats) ----
  plane->other_stats.clear();
  plane->plane_stats_begin = 0;
  for (ColumnarStat& stat : ids->plane_stats) {
    remap_stat(&stat);
    plane->other_stats.push_back(stat);
  }
  plane->plane_stats_end = static_cast<uint32_t>(plane->other_stats.size());

  plane->event_metadata.reserve(ids->event_metadata.size());
  for (RawEventMetadata& raw : ids->event_metadata) {
    ColumnarEventMetadata metadata;
    metadata.id = raw.key;
    metadata.name = std::move(raw.name);
    metadata.display_name = std::move(raw.display_name);
    metadata.stats_begin = static_cast<uint32_t>(plane->other_stats.size());
    for (ColumnarStat& stat : raw.stats) {
      remap_stat(&stat);
      plane->other_stats.push_back(stat);
    }
    metadata.stats_end = static_cast<uint32_t>(plane->other_stats.size());
    plane->event_metadata.push_back(std::move(metadata));
  }
  ids->event_metadata.clear();
  if (plane->stat_metadata.size() > ColumnarPlane::kMaxStatMetadata) {
    return ResourceExhaustedError("more than 2^29 stat metadata in one plane");
  }

  // ---- events ----
  bool event_identity = false;
  {
    uint32_t max_used = 0;
    for (uint32_t i = 0, n = plane->num_events(); i < n; ++i) {
      max_used = std::max(max_used, plane->event_metadata_index[i]);  // big ids have the top bit set
    }
    const uint32_t empty_range = static_cast<uint32_t>(plane->other_stats.size());
    event_identity = (max_used & PlaneIds::kBigEventIdFlag) == 0 &&
                     LayOutById(&plane->event_metadata, max_used, [&](int64_t id) {
                       ColumnarEventMetadata placeholder;
                       placeholder.id = id;
                       placeholder.defined = false;
                       placeholder.stats_begin = placeholder.stats_end = empty_range;
                       return placeholder;
                     });
  }
  IdTable event_ids;
  event_ids.Build(plane->event_metadata, [](const ColumnarEventMetadata& m) { return m.id; });
  for (uint32_t i = 0, n = event_identity ? 0 : plane->num_events(); i < n; ++i) {
    int64_t raw = ids->DecodeEventId(plane->event_metadata_index[i]);
    uint32_t index = event_ids.Find(raw);
    if (index == IdTable::kAbsent) {
      index = static_cast<uint32_t>(plane->event_metadata.size());
      ColumnarEventMetadata placeholder;
      placeholder.id = raw;
      placeholder.defined = false;
      placeholder.stats_begin = placeholder.stats_end = static_cast<uint32_t>(plane->other_stats.size());
      plane->event_metadata.push_back(std::move(placeholder));
      event_ids.Set(raw, index);
    }
    plane->event_metadata_index[i] = index;
  }
  STEPSCOPE_RETURN_IF_ERROR(CheckSomeEventIsNamed(*plane));
  if (!plane->event_stats_begin.push_back(plane->num_stats())) return ResourceExhaustedError("out of memory");
  plane->aggregated_events = std::move(ids->aggregated);
  plane->IndexStatTypes();
  plane->ReleaseUnusedPages();  // the plane is complete: its columns grow no more
  return OkStatus();
}

}  // namespace stepscope::xspace
