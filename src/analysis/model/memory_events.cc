#include "src/analysis/model/memory_events.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "src/analysis/model/model_builder.h"

namespace stepscope::analysis {
namespace {

using xspace::ColumnarPlane;
using xspace::ColumnarStat;
using xspace::StatKind;
using xspace::StatType;

// What a stat of a memory event fills.
enum Role : uint8_t {
  kNone = 0,
  kMemoryIdName,    // allocator_name
  kMemoryIdNumber,  // index_on_host, device_ordinal
  kReserved,
  kAllocated,
  kAvailable,
  kFragmentation,
  kPeak,
  kRequested,
  kAllocation,
  kAddress,
  kOp,
  kGroup,
  kRegion,
  kDataType,
  kShape,
};

Role RoleOf(const xspace::ColumnarStatMetadata& m) {
  switch (m.type) {
    case StatType::kAllocatorName: return kMemoryIdName;
    case StatType::kBytesReserved: return kReserved;
    case StatType::kBytesAllocated: return kAllocated;
    case StatType::kBytesAvailable: return kAvailable;
    case StatType::kFragmentation: return kFragmentation;
    case StatType::kPeakBytesInUse: return kPeak;
    case StatType::kRequestedBytes: return kRequested;
    case StatType::kAllocationBytes: return kAllocation;
    case StatType::kAddress: return kAddress;
    case StatType::kTfOp: return kOp;
    case StatType::kGroupId: return kGroup;
    case StatType::kRegionType: return kRegion;
    case StatType::kDataType: return kDataType;
    case StatType::kTensorShapes: return kShape;
    default: break;
  }
  if (m.name == "index_on_host" || m.name == "device_ordinal") return kMemoryIdNumber;
  return kNone;
}

// Interns strings into MemoryEvents::names. A stat's value key (string-pool index or ref
// index) is resolved once per plane into a flat table, so a repeated op name, shape or
// region costs one array read per event, not a hash of its text.
class NameInterner {
 public:
  explicit NameInterner(MemoryEvents* out) : out_(out) {
    if (out_->names.empty()) out_->names.emplace_back();
    for (uint32_t i = 0; i < out_->names.size(); ++i) by_text_.emplace(out_->names[i], i);
  }
  void StartPlane(const ColumnarPlane& plane) {
    // Sized lazily (on the first string value): most planes hold no memory events' strings.
    of_string_.clear();
    of_ref_.assign(plane.stat_metadata.size(), kUnresolved);
  }
  uint32_t Intern(const ColumnarPlane& plane, const ColumnarStat& stat) {
    uint32_t* slot = nullptr;
    if (stat.kind == StatKind::kRef) {
      if (stat.payload >= of_ref_.size()) return InternText("");
      slot = &of_ref_[stat.payload];
    } else if (stat.kind == StatKind::kStr || stat.kind == StatKind::kBytes) {
      if (stat.payload >= plane.strings.size()) return InternText("");
      if (of_string_.empty()) of_string_.assign(plane.strings.size(), kUnresolved);
      slot = &of_string_[stat.payload];
    } else {
      return InternText(plane.ToString(stat));
    }
    if (*slot == kUnresolved) *slot = InternText(std::string(plane.AsString(stat)));
    return *slot;
  }
  uint32_t InternName(const std::string& text) { return InternText(text); }

 private:
  static constexpr uint32_t kUnresolved = UINT32_MAX;
  uint32_t InternText(std::string text) {
    auto [it, inserted] = by_text_.try_emplace(text, static_cast<uint32_t>(out_->names.size()));
    if (inserted) out_->names.push_back(std::move(text));
    return it->second;
  }
  MemoryEvents* out_;
  std::unordered_map<std::string, uint32_t> by_text_;
  std::vector<uint32_t> of_string_;  // plane.strings index -> names index
  std::vector<uint32_t> of_ref_;     // stat-metadata index (a ref's value) -> names index
};

// The memory ids met so far, each with its events. An id's text is resolved once per
// plane and value key, as NameInterner does, so events carry a slot number, not a string.
class MemoryIds {
 public:
  static constexpr uint32_t kUnresolved = UINT32_MAX;
  struct Id {
    std::string text;
    std::vector<MemoryEvent> events;
  };
  void StartPlane(const ColumnarPlane& plane) {
    of_string_.clear();
    of_ref_.assign(plane.stat_metadata.size(), kUnresolved);
  }
  // The slot of an allocator_name value (its text; numbers name no id, as "").
  uint32_t OfName(const ColumnarPlane& plane, const ColumnarStat& stat) {
    uint32_t* cached = nullptr;
    if (stat.kind == StatKind::kRef && stat.payload < of_ref_.size()) {
      cached = &of_ref_[stat.payload];
    } else if ((stat.kind == StatKind::kStr || stat.kind == StatKind::kBytes) && stat.payload < plane.strings.size()) {
      if (of_string_.empty()) of_string_.assign(plane.strings.size(), kUnresolved);
      cached = &of_string_[stat.payload];
    }
    if (cached == nullptr) return OfText(std::string(plane.AsString(stat)));
    if (*cached == kUnresolved) *cached = OfText(std::string(plane.AsString(stat)));
    return *cached;
  }
  uint32_t OfText(const std::string& text) {
    auto [it, inserted] = by_text_.try_emplace(text, static_cast<uint32_t>(ids_.size()));
    if (inserted) ids_.push_back({text, {}});
    return it->second;
  }
  size_t size() const { return ids_.size(); }
  Id& operator[](uint32_t slot) { return ids_[slot]; }
  // Every id with its events, in text order.
  std::vector<Id*> SortedByText() {
    std::vector<Id*> sorted;
    for (Id& id : ids_) sorted.push_back(&id);
    std::sort(sorted.begin(), sorted.end(), [](const Id* a, const Id* b) { return a->text < b->text; });
    return sorted;
  }

 private:
  std::vector<Id> ids_;
  std::unordered_map<std::string, uint32_t> by_text_;
  std::vector<uint32_t> of_string_;
  std::vector<uint32_t> of_ref_;
};

int64_t ClampBytes(int64_t v, int64_t* invalid) {
  if (v < 0) {
    ++*invalid;
    return 0;
  }
  if (v > kMaxMemoryBytes) {
    ++*invalid;
    return kMaxMemoryBytes;
  }
  return v;
}

// ColumnarPlane::AsInt64 with the integer kinds (what writers emit) inline.
int64_t Int64Of(const ColumnarStat& stat) {
  if (stat.kind == StatKind::kInt64 || stat.kind == StatKind::kUint64) return static_cast<int64_t>(stat.payload);
  return ColumnarPlane::AsInt64(stat);
}

// What one event's stats resolve to besides the event's fields.
struct Resolvers {
  NameInterner* names;
  MemoryIds* ids;
  int64_t* invalid;
};

// Reads one stat into the event. Numbers may come as int, uint or double (TF writes
// them inconsistently); a uint64 above INT64_MAX is out of range for a byte count.
// `*memory_id` is the slot of the event's memory id (the last stat naming one wins).
inline void Apply(const ColumnarPlane& plane, Role role, const ColumnarStat& stat, const Resolvers& r,
                  MemoryEvent* e, uint32_t* memory_id) {
  auto bytes = [&] {
    if (stat.kind == StatKind::kUint64 && stat.payload > static_cast<uint64_t>(INT64_MAX)) {
      ++*r.invalid;
      return kMaxMemoryBytes;
    }
    return ClampBytes(Int64Of(stat), r.invalid);
  };
  switch (role) {
    case kNone: break;
    case kMemoryIdName: *memory_id = r.ids->OfName(plane, stat); break;
    case kMemoryIdNumber: *memory_id = r.ids->OfText(std::to_string(ColumnarPlane::AsInt64(stat))); break;
    case kReserved: e->stack_reserved_bytes = bytes(); break;
    case kAllocated: e->heap_allocated_bytes = bytes(); break;
    case kAvailable: e->free_memory_bytes = bytes(); break;
    case kPeak: e->peak_bytes_in_use = bytes(); break;
    case kRequested: e->requested_bytes = bytes(); break;
    case kAllocation: e->allocation_bytes = bytes(); break;
    case kFragmentation: {
      double f = ColumnarPlane::AsDouble(stat);
      if (!(f >= 0.0 && f <= 1.0)) {  // also NaN
        ++*r.invalid;
        f = f > 1.0 ? 1.0 : 0.0;
      }
      e->fragmentation = f;
      break;
    }
    case kAddress:
      e->address = stat.kind == StatKind::kUint64 ? stat.payload : static_cast<uint64_t>(Int64Of(stat));
      break;
    case kOp: e->op_name = r.names->Intern(plane, stat); break;
    case kGroup: e->step_id = Int64Of(stat); break;
    case kRegion: e->region_type = r.names->Intern(plane, stat); break;
    case kDataType: {
      const int64_t t = Int64Of(stat);
      e->data_type = t < INT32_MIN || t > INT32_MAX ? -1 : static_cast<int32_t>(t);
      break;
    }
    case kShape: e->shape = r.names->Intern(plane, stat); break;
  }
}

}  // namespace

std::string DataTypeName(int64_t data_type) {
  // TF's DataType enum (types.proto) in value order, as DataTypeString spells them.
  static constexpr std::array<std::string_view, 33> kNames = {
      "INVALID",     "float",         "double",          "int32",              "uint8",       "int16",
      "int8",        "string",        "complex64",       "int64",              "bool",        "qint8",
      "quint8",      "qint32",        "bfloat16",        "qint16",             "quint16",     "uint16",
      "complex128",  "half",          "resource",        "variant",            "uint32",      "uint64",
      "float8_e5m2", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e4m3b11fnuz", "float8_e5m2fnuz",
      "int4",        "uint4",         "int2",            "uint2"};
  if (data_type >= 0 && data_type < static_cast<int64_t>(kNames.size())) return std::string(kNames[data_type]);
  if (data_type > 100 && data_type - 100 < static_cast<int64_t>(kNames.size())) {
    return std::string(kNames[data_type - 100]) + "_ref";
  }
  return "unknown dtype enum (" + std::to_string(data_type) + ")";
}

namespace internal {

void ExtractMemoryEvents(const xspace::ColumnarXSpace& space, const HostAnalysis& host, int host_index,
                         MemoryEvents* out) {
  NameInterner names(out);
  MemoryIds ids;
  const Resolvers resolvers{&names, &ids, &out->invalid_values};
  // Per plane: 0 for events that are not memory events, else 1 + MemoryActivity, by
  // event metadata; the stat roles; the interned name of each event metadata (lazily).
  struct PlaneTables {
    bool any = false;
    std::vector<uint8_t> kind;
    std::vector<Role> role;
    std::vector<uint32_t> op_name;
  };
  constexpr uint32_t kNotInterned = UINT32_MAX;
  std::map<uint32_t, PlaneTables> tables;
  auto tables_of = [&](uint32_t p) -> PlaneTables& {
    auto [it, inserted] = tables.try_emplace(p);
    PlaneTables& t = it->second;
    if (!inserted) return t;
    const ColumnarPlane& plane = space.planes[p];
    t.kind.assign(plane.event_metadata.size(), 0);
    for (size_t m = 0; m < plane.event_metadata.size(); ++m) {
      const std::string& name = plane.event_metadata[m].name;
      if (name == xspace::kMemoryAllocationEventName) t.kind[m] = 1 + static_cast<uint8_t>(MemoryActivity::kAllocation);
      if (name == xspace::kMemoryDeallocationEventName) t.kind[m] = 1 + static_cast<uint8_t>(MemoryActivity::kDeallocation);
      t.any = t.any || t.kind[m] != 0;
    }
    if (!t.any) return t;
    t.role.resize(plane.stat_metadata.size());
    for (size_t i = 0; i < plane.stat_metadata.size(); ++i) t.role[i] = RoleOf(plane.stat_metadata[i]);
    t.op_name.assign(plane.event_metadata.size(), kNotInterned);
    return t;
  };
  constexpr size_t kReservedIds = 8;
  size_t remaining = 0;
  for (const HostThread& thread : host.threads) {
    const PlaneTables& pt = tables_of(thread.plane_index);
    if (!pt.any) continue;
    const ColumnarPlane& plane = space.planes[thread.plane_index];
    for (size_t i = 0; i < thread.size(); ++i) remaining += pt.kind[plane.event_metadata_index[thread.event(i)]] != 0;
  }
  uint32_t current_plane = UINT32_MAX;
  uint32_t no_id = MemoryIds::kUnresolved;  // the slot of "" (events naming no memory id)
  uint32_t last_id = MemoryIds::kUnresolved;  // threads rarely switch allocator
  for (size_t t = 0; t < host.threads.size(); ++t) {
    const HostThread& thread = host.threads[t];
    PlaneTables& pt = tables_of(thread.plane_index);
    if (!pt.any) continue;
    const ColumnarPlane& plane = space.planes[thread.plane_index];
    if (thread.plane_index != current_plane) {
      names.StartPlane(plane);
      ids.StartPlane(plane);
      current_plane = thread.plane_index;
    }
    const Role* role = pt.role.data();
    const std::vector<int32_t>* groups = t < host.facts.size() ? &host.facts[t].group : nullptr;
    for (size_t i = 0; i < thread.size(); ++i) {
      const uint32_t e = thread.event(i);
      const uint32_t m = plane.event_metadata_index[e];
      if (pt.kind[m] == 0) continue;
      MemoryEvent event;
      event.activity = static_cast<MemoryActivity>(pt.kind[m] - 1);
      event.time_ps = plane.event_start_ps[e];
      uint32_t memory_id = MemoryIds::kUnresolved;
      // Metadata stats first: the event's own stats win.
      const xspace::ColumnarEventMetadata& metadata = plane.event_metadata[m];
      for (uint32_t s = metadata.stats_begin; s < metadata.stats_end; ++s) {
        const ColumnarStat& stat = plane.other_stats[s];
        Apply(plane, role[stat.metadata_index], stat, resolvers, &event, &memory_id);
      }
      // Only the stats the model keeps are decoded (their role is resolved per plane).
      for (uint32_t s = plane.event_stats_begin[e]; s < plane.event_stats_begin[e + 1]; ++s) {
        const Role r = role[ColumnarPlane::StatMetadataOfKey(plane.stat_key[s])];
        if (r != kNone) Apply(plane, r, plane.event_stat(s), resolvers, &event, &memory_id);
      }
      if (event.step_id == -1 && groups != nullptr && i < groups->size() && (*groups)[i] != kNoGroup) {
        event.step_id = host.groups.id((*groups)[i]);
      }
      if (event.op_name == 0) {
        int32_t p = thread.parent[i];
        while (p >= 0 && pt.kind[plane.event_metadata_index[thread.event(p)]] != 0) p = thread.parent[p];
        if (p >= 0) {
          const uint32_t pm = plane.event_metadata_index[thread.event(p)];
          if (pt.op_name[pm] == kNotInterned) pt.op_name[pm] = names.InternName(plane.event_metadata[pm].name);
          event.op_name = pt.op_name[pm];
        }
      }
      if (memory_id == MemoryIds::kUnresolved) {
        if (no_id == MemoryIds::kUnresolved) no_id = ids.OfText("");
        memory_id = no_id;
      }
      // By slot, not by pointer: a new id may move the others.
      std::vector<MemoryEvent>& events = ids[memory_id].events;
      if (memory_id != last_id) {
        last_id = memory_id;
        // Room for every memory event not yet placed: pages never written are never
        // resident, and growth by doubling would hold two copies at once. Only for the
        // first few ids, so a file with thousands of ids cannot reserve thousands of times.
        if (events.capacity() == 0 && ids.size() <= kReservedIds) events.reserve(remaining);
      }
      --remaining;
      events.push_back(event);
    }
  }
  auto by_time = [](const MemoryEvent& a, const MemoryEvent& b) { return a.time_ps < b.time_ps; };
  for (MemoryIds::Id* id : ids.SortedByText()) {
    std::vector<MemoryEvent>& events = id->events;
    if (events.empty()) continue;  // an id named by a value no event kept (cannot happen today)
    // One thread per allocator (the usual case) is already in time order.
    if (!std::is_sorted(events.begin(), events.end(), by_time)) std::stable_sort(events.begin(), events.end(), by_time);
    out->allocators.push_back({std::move(id->text), host_index, std::move(events)});
  }
  std::stable_sort(out->allocators.begin(), out->allocators.end(),
                   [](const MemoryAllocatorEvents& a, const MemoryAllocatorEvents& b) {
                     return std::tie(a.host_index, a.memory_id) < std::tie(b.host_index, b.memory_id);
                   });
}

void AddMemoryDiagnostics(const MemoryEvents& memory, std::vector<std::string>* out) {
  if (memory.invalid_values > 0) {
    out->push_back(std::to_string(memory.invalid_values) +
                   " memory event values were out of range (negative or over 2^60 bytes, fragmentation outside "
                   "[0, 1]) and were clamped");
  }
}

}  // namespace internal
}  // namespace stepscope::analysis
