#include "src/analysis/model/memory_events.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <tuple>
#include <new>
#include <unordered_map>
#include <utility>

#include "src/analysis/model/model_builder.h"
#include "src/base/sort_runs.h"
#include "src/xspace/columnar/columnar_memory_apply.h"

namespace stepscope::analysis {
namespace {

using xspace::ColumnarPlane;
using xspace::ColumnarStat;
using xspace::StatKind;
using xspace::StatType;

using Role = xspace::MemoryStatRole;
using xspace::ColumnarMemoryEvents;
using xspace::MemoryValueUse;

Role RoleOf(const xspace::ColumnarStatMetadata& m) { return xspace::MemoryStatRoleOf(m.type, m.name); }

// Appends to a PodArray, failing as std::vector does when memory is exhausted.
template <typename T>
void Append(xspace::PodArray<T>* array, const T& value) {
  if (!array->push_back(value)) throw std::bad_alloc();
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
  size_t size() const { return out_->names.size(); }

 private:
  static constexpr uint32_t kUnresolved = UINT32_MAX;
  uint32_t InternText(std::string text) {
    // TensorFlow's and XLA's allocators print a missing op name or region as "(null)"
    // (a null C string through printf): it names nothing, so it is stored as no name.
    if (text == "(null)") return 0;
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
    MemoryEventArray events;
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

// What one event's stats resolve to besides the event's fields.
struct Resolvers {
  NameInterner* names;
  MemoryIds* ids;
  int64_t* invalid;
};

// Reads one stat into the event (xspace::ApplyMemoryNumber for the numbers, as the
// reader's records). `*memory_id` is the slot of the event's memory id (the last stat
// naming one wins).
inline void Apply(const ColumnarPlane& plane, Role role, const ColumnarStat& stat, const Resolvers& r,
                  MemoryEvent* e, uint32_t* memory_id) {
  switch (role) {
    case Role::kNone: break;
    case Role::kMemoryIdName: *memory_id = r.ids->OfName(plane, stat); break;
    case Role::kMemoryIdNumber: *memory_id = r.ids->OfText(std::to_string(ColumnarPlane::AsInt64(stat))); break;
    case Role::kOp: e->op_name = r.names->Intern(plane, stat); break;
    case Role::kRegion: e->region_type = r.names->Intern(plane, stat); break;
    case Role::kShape: e->shape = r.names->Intern(plane, stat); break;
    default: xspace::ApplyMemoryNumber(role, stat, e, r.invalid); break;
  }
}

// The text a record value stands for, as Apply reads the same stat from the columns.
std::string ValueText(const ColumnarPlane& plane, const ColumnarMemoryEvents::NameValue& v) {
  const ColumnarStat stat{0, static_cast<StatKind>(v.kind), v.payload};
  switch (v.use) {
    case MemoryValueUse::kName:
      if (stat.kind == StatKind::kRef || stat.kind == StatKind::kStr || stat.kind == StatKind::kBytes) {
        return std::string(plane.AsString(stat));
      }
      return plane.ToString(stat);
    case MemoryValueUse::kIdName: return std::string(plane.AsString(stat));
    case MemoryValueUse::kIdNumber: return std::to_string(ColumnarPlane::AsInt64(stat));
  }
  return "";
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

MemoryRecords TakeMemoryRecords(xspace::ColumnarXSpace* space) {
  MemoryRecords records(space->planes.size());
  for (size_t p = 0; p < space->planes.size(); ++p) {
    if (space->planes[p].memory_in_records) records[p] = std::move(space->planes[p].memory);
  }
  return records;
}

namespace {

constexpr uint32_t kNotInterned = UINT32_MAX;

// Per plane: 0 for events that are not memory events, else 1 + MemoryActivity, by
// event metadata; the stat roles; the interned name of each event metadata (lazily).
struct PlaneTables {
  bool any = false;
  std::vector<uint8_t> kind;
  std::vector<Role> role;
  std::vector<uint32_t> op_name;
};

class Extractor {
 public:
  Extractor(const xspace::ColumnarXSpace& space, const HostAnalysis& host, MemoryRecords* taken, MemoryEvents* out)
      : space_(space), host_(host), taken_(taken), out_(out), names_(out), resolvers_{&names_, &ids_, &out->invalid_values} {}

  void Run(int host_index) {
    size_t remaining = 0;
    for (const HostThread& thread : host_.threads) {
      const PlaneTables& pt = TablesOf(thread.plane_index);
      if (!pt.any || space_.planes[thread.plane_index].memory_in_records) continue;
      const ColumnarPlane& plane = space_.planes[thread.plane_index];
      for (size_t i = 0; i < thread.size(); ++i) remaining += pt.kind[plane.event_metadata_index[thread.event(i)]] != 0;
    }
    uint32_t current_plane = UINT32_MAX;
    for (uint32_t t = 0; t < host_.threads.size(); ++t) {
      const HostThread& thread = host_.threads[t];
      if (space_.planes[thread.plane_index].memory_in_records) {
        if (thread.plane_index != current_plane) AppendRecordPlane(thread.plane_index, t);
        current_plane = thread.plane_index;
        continue;
      }
      PlaneTables& pt = TablesOf(thread.plane_index);
      if (!pt.any) continue;
      const ColumnarPlane& plane = space_.planes[thread.plane_index];
      if (thread.plane_index != current_plane) {
        names_.StartPlane(plane);
        ids_.StartPlane(plane);
        current_plane = thread.plane_index;
      }
      ReadThreadFromColumns(t, pt, &remaining);
    }
    auto by_time = [](const MemoryEvent& a, const MemoryEvent& b) { return a.time_ps < b.time_ps; };
    for (MemoryIds::Id* id : ids_.SortedByText()) {
      MemoryEventArray& events = id->events;
      if (events.empty()) continue;  // an id named by a value no event kept (cannot happen today)
      // One thread per allocator (the usual case) is already in time order.
      base::SortRuns(events.begin(), events.end(), by_time);
      out_->allocators.push_back({std::move(id->text), host_index, std::move(events)});
    }
    std::stable_sort(out_->allocators.begin(), out_->allocators.end(),
                     [](const MemoryAllocatorEvents& a, const MemoryAllocatorEvents& b) {
                       return std::tie(a.host_index, a.memory_id) < std::tie(b.host_index, b.memory_id);
                     });
  }

 private:
  PlaneTables& TablesOf(uint32_t p) {
    auto [it, inserted] = tables_.try_emplace(p);
    PlaneTables& t = it->second;
    if (!inserted) return t;
    const ColumnarPlane& plane = space_.planes[p];
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
  }

  // What the event's thread gives an event without its own group_id or tf_op: the step
  // group the model gave it (step markers, step window), and the name of the innermost
  // host event around it (Kineto's [memory] instants sit inside the ATen op that allocated).
  void CompleteFromThread(uint32_t t, size_t i, PlaneTables& pt, MemoryEvent* event) {
    const HostThread& thread = host_.threads[t];
    const ColumnarPlane& plane = space_.planes[thread.plane_index];
    const std::vector<int32_t>* groups = t < host_.facts.size() ? &host_.facts[t].group : nullptr;
    if (event->step_id == -1 && groups != nullptr && i < groups->size() && (*groups)[i] != kNoGroup) {
      event->step_id = host_.groups.id((*groups)[i]);
    }
    if (event->op_name == 0) {
      int32_t p = thread.parent[i];
      while (p >= 0 && pt.kind[plane.event_metadata_index[thread.event(p)]] != 0) p = thread.parent[p];
      if (p >= 0) {
        const uint32_t pm = plane.event_metadata_index[thread.event(p)];
        if (pt.op_name[pm] == kNotInterned) pt.op_name[pm] = names_.InternName(plane.event_metadata[pm].name);
        event->op_name = pt.op_name[pm];
      }
    }
  }

  MemoryEventArray& EventsOf(uint32_t memory_id, size_t remaining) {
    // By slot, not by pointer: a new id may move the others.
    MemoryEventArray& events = ids_[memory_id].events;
    if (memory_id != last_id_) {
      last_id_ = memory_id;
      // Room for every memory event not yet placed: pages never written are never
      // resident. Only for the first few ids, so a file with thousands of ids cannot
      // reserve thousands of times.
      if (events.capacity() == 0 && ids_.size() <= kReservedIds && !events.Reserve(remaining)) throw std::bad_alloc();
    }
    return events;
  }

  // The memory events of one thread, decoded from the stat columns.
  void ReadThreadFromColumns(uint32_t t, PlaneTables& pt, size_t* remaining) {
    const HostThread& thread = host_.threads[t];
    const ColumnarPlane& plane = space_.planes[thread.plane_index];
    const Role* role = pt.role.data();
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
        Apply(plane, role[stat.metadata_index], stat, resolvers_, &event, &memory_id);
      }
      // Only the stats the model keeps are decoded (their role is resolved per plane).
      for (uint32_t s = plane.event_stats_begin[e]; s < plane.event_stats_begin[e + 1]; ++s) {
        const Role r = role[ColumnarPlane::StatMetadataOfKey(plane.stat_key[s])];
        if (r != Role::kNone) Apply(plane, r, plane.event_stat(s), resolvers_, &event, &memory_id);
      }
      CompleteFromThread(t, i, pt, &event);
      if (memory_id == MemoryIds::kUnresolved) memory_id = NoId();
      Append(&EventsOf(memory_id, *remaining), event);
      --*remaining;
    }
  }

  uint32_t NoId() {
    if (no_id_ == MemoryIds::kUnresolved) no_id_ = ids_.OfText("");
    return no_id_;
  }

  // The records the reader decoded for plane `p`, whose threads start at `first_thread`.
  // Each record gets its names re-indexed into MemoryEvents::names and, like events read
  // from the columns, what its thread gives (CompleteFromThread). When every thread of
  // the plane is in file order (what writers produce), a memory id's records in file
  // order are already in thread order, and the reader's arrays become the model's.
  void AppendRecordPlane(uint32_t p, uint32_t first_thread) {
    const ColumnarPlane& plane = space_.planes[p];
    const bool take = taken_ != nullptr;
    const ColumnarMemoryEvents* source = take ? (p < taken_->size() ? &(*taken_)[p] : nullptr) : &plane.memory;
    if (source == nullptr) return;
    ColumnarMemoryEvents& records = const_cast<ColumnarMemoryEvents&>(*source);  // moved from only when taken
    out_->invalid_values += records.invalid_values;
    PlaneTables& pt = TablesOf(p);
    names_.StartPlane(plane);
    ids_.StartPlane(plane);
    std::vector<uint32_t> name_of(records.names.size());
    bool names_identity = true, any_empty_name = false;
    const size_t names_before = names_.size();
    for (size_t v = 0; v < records.names.size(); ++v) {
      name_of[v] = v == 0 ? 0 : names_.InternName(ValueText(plane, records.names[v]));
      names_identity = names_identity && name_of[v] == v;
      any_empty_name = any_empty_name || (v != 0 && name_of[v] == 0);
    }
    names_identity = names_identity && names_before <= 1;
    std::vector<uint32_t> id_of(records.ids.size());
    for (size_t v = 0; v < records.ids.size(); ++v) id_of[v] = v == 0 ? NoId() : ids_.OfText(ValueText(plane, records.ids[v]));

    uint32_t end_thread = first_thread;
    bool in_file_order = true;
    while (end_thread < host_.threads.size() && host_.threads[end_thread].plane_index == p) {
      in_file_order = in_file_order && host_.threads[end_thread].event_index.empty();
      ++end_thread;
    }
    auto complete = [&](MemoryEvent* r, uint32_t t, size_t i) {
      if (!names_identity) {
        r->op_name = name_of[r->op_name];
        r->region_type = name_of[r->region_type];
        r->shape = name_of[r->shape];
      }
      if (r->step_id == -1 || r->op_name == 0) CompleteFromThread(t, i, pt, r);
    };
    if (!in_file_order) {
      AppendRecordsInThreadOrder(records, first_thread, end_thread, id_of, complete);
      return;
    }
    // Thread of an event: lines and threads are in the same order, one thread per line.
    auto thread_of = [&](uint32_t e) {
      uint32_t lo = first_thread, hi = end_thread;
      while (hi - lo > 1) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (host_.threads[mid].first_event <= e) lo = mid; else hi = mid;
      }
      return lo;
    };
    std::vector<bool> seen(ids_.size() + records.ids.size());
    for (ColumnarMemoryEvents::Slot& slot : records.slots) {
      if (slot.events.empty()) continue;
      // Records not taken belong to the space: completed on a copy.
      xspace::PodArray<MemoryEvent> copy;
      if (!take) {
        if (!copy.Resize(slot.events.size())) throw std::bad_alloc();
        std::copy(slot.events.begin(), slot.events.end(), copy.begin());
      }
      xspace::PodArray<MemoryEvent>& placed = take ? slot.events : copy;
      if (!names_identity || any_empty_name || slot.without_step > 0 || slot.without_op > 0) {
        for (size_t k = 0; k < placed.size(); ++k) {
          const uint32_t e = slot.event_index[k];
          const uint32_t t = thread_of(e);
          complete(&placed[k], t, e - host_.threads[t].first_event);
        }
      }
      const uint32_t id = id_of[slot.memory_id];
      MemoryEventArray& events = ids_[id].events;
      if (id >= seen.size()) seen.resize(id + 1);
      if (seen[id]) {
        // Two values of one text on this plane (rare): merge by file order.
        MergeInFileOrder(id, placed, slot.event_index);
        continue;
      }
      seen[id] = true;
      xspace::PodArray<uint32_t>& order = last_file_order_[id];
      if (events.empty()) {
        events = MemoryEventArray(std::move(placed));
      } else {
        const size_t at = events.size();
        if (!events.Resize(at + placed.size())) throw std::bad_alloc();
        std::copy(placed.begin(), placed.end(), events.begin() + at);
        if (!order.Resize(at)) throw std::bad_alloc();  // earlier planes' events come first (index 0)
      }
      const size_t at = order.size();
      if (!order.Resize(at + slot.event_index.size())) throw std::bad_alloc();
      std::copy(slot.event_index.begin(), slot.event_index.end(), order.begin() + at);
    }
    last_file_order_.clear();
  }

  // A second slot of memory id `id` on the same plane: the two merge by event index
  // (events of earlier planes, index 0 in `order`, stay first).
  void MergeInFileOrder(uint32_t id, const xspace::PodArray<MemoryEvent>& more,
                        const xspace::PodArray<uint32_t>& more_order) {
    MemoryEventArray& events = ids_[id].events;
    xspace::PodArray<uint32_t>& order = last_file_order_[id];
    MemoryEventArray merged;
    xspace::PodArray<uint32_t> merged_order;
    size_t a = 0, b = 0;
    while (a < events.size() || b < more.size()) {
      const bool from_a = b == more.size() || (a < events.size() && order[a] <= more_order[b]);
      Append(&merged, from_a ? events[a] : more[b]);
      Append(&merged_order, from_a ? order[a++] : more_order[b++]);
    }
    events = std::move(merged);
    order = std::move(merged_order);
  }

  // Records of a plane whose threads are not all in file order: placed thread by thread,
  // as ReadThreadFromColumns places events.
  template <typename Complete>
  void AppendRecordsInThreadOrder(const ColumnarMemoryEvents& records, uint32_t first_thread, uint32_t end_thread,
                                  const std::vector<uint32_t>& id_of, Complete complete) {
    const ColumnarPlane& plane = space_.planes[host_.threads[first_thread].plane_index];
    constexpr uint64_t kNoRecord = UINT64_MAX;
    std::vector<uint64_t> record_of(plane.num_events(), kNoRecord);  // (slot << 32) | index
    for (size_t s = 0; s < records.slots.size(); ++s) {
      for (size_t k = 0; k < records.slots[s].events.size(); ++k) {
        record_of[records.slots[s].event_index[k]] = (uint64_t{s} << 32) | k;
      }
    }
    for (uint32_t t = first_thread; t < end_thread; ++t) {
      const HostThread& thread = host_.threads[t];
      for (size_t i = 0; i < thread.size(); ++i) {
        const uint64_t at = record_of[thread.event(i)];
        if (at == kNoRecord) continue;
        const ColumnarMemoryEvents::Slot& slot = records.slots[at >> 32];
        MemoryEvent r = slot.events[at & UINT32_MAX];
        complete(&r, t, i);
        Append(&ids_[id_of[slot.memory_id]].events, r);
      }
    }
  }

  static constexpr size_t kReservedIds = 8;
  const xspace::ColumnarXSpace& space_;
  const HostAnalysis& host_;
  MemoryRecords* taken_;
  MemoryEvents* out_;
  NameInterner names_;
  MemoryIds ids_;
  const Resolvers resolvers_;
  std::map<uint32_t, PlaneTables> tables_;
  uint32_t no_id_ = MemoryIds::kUnresolved;   // the slot of "" (events naming no memory id)
  uint32_t last_id_ = MemoryIds::kUnresolved;  // threads rarely switch allocator
  // Per memory id, while a plane's records are placed: the event index of each event.
  std::map<uint32_t, xspace::PodArray<uint32_t>> last_file_order_;
};

}  // namespace

void ExtractMemoryEvents(const xspace::ColumnarXSpace& space, const HostAnalysis& host, int host_index,
                         MemoryRecords* taken, MemoryEvents* out) {
  Extractor(space, host, taken, out).Run(host_index);
  for (MemoryAllocatorEvents& allocator : out->allocators) {
    if (allocator.host_index == host_index) DeriveHeapFromSizes(&allocator);
  }
}

bool DeriveHeapFromSizes(MemoryAllocatorEvents* allocator) {
  if (allocator->heap_from_sizes) return false;
  bool has_size = false;
  for (const MemoryEvent& e : allocator->events) {
    if (e.address != 0 || e.heap_allocated_bytes != 0 || e.peak_bytes_in_use != 0) return false;
    has_size = has_size || e.requested_bytes != 0 || e.allocation_bytes != 0;
  }
  if (!has_size) return false;
  int64_t in_use = 0, peak = 0;
  for (MemoryEvent& e : allocator->events) {
    const int64_t bytes = e.allocation_bytes != 0 ? e.allocation_bytes : e.requested_bytes;
    // Sizes are clamped to kMaxMemoryBytes (2^60) by the reader: the sum cannot overflow
    // before 8 of them, so it saturates instead.
    if (e.activity == MemoryActivity::kAllocation) {
      in_use = in_use > kMaxMemoryBytes - bytes ? kMaxMemoryBytes : in_use + bytes;
    } else {
      in_use = std::max<int64_t>(0, in_use - bytes);
    }
    peak = std::max(peak, in_use);
    e.heap_allocated_bytes = in_use;
    e.peak_bytes_in_use = peak;
  }
  allocator->heap_from_sizes = true;
  return true;
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
