#include "src/analysis/model/memory_analysis.h"

#include <algorithm>
#include <map>
#include <cstdint>
#include <numeric>
#include <string_view>
#include <tuple>
#include <utility>

#include "src/analysis/model/flat_map.h"
#include "src/analysis/model/sat_math.h"
#include "src/analysis/model/units.h"

namespace stepscope::analysis {
namespace {

constexpr int64_t kInvalidStepId = -1;

int64_t StackPlusHeap(const MemoryEvent& e) { return e.stack_reserved_bytes + e.heap_allocated_bytes; }

const std::string& NameAt(const std::vector<std::string>& names, uint32_t i) {
  static const std::string kEmpty;
  return i < names.size() ? names[i] : kEmpty;
}

// Per event of one memory id: the step id after XProf's fill.
struct PairedEvents {
  const MemoryEventArray* events = nullptr;
  // Filled step ids; empty when every event has its own (the usual case: no copy).
  std::vector<int64_t> filled_step_ids;
  int64_t step_id(uint32_t i) const { return filled_step_ids.empty() ? (*events)[i].step_id : filled_step_ids[i]; }
};

// XProf's pairing by address, event by event in time order: an allocation makes its
// address live unless it already is (XProf keeps the first allocation's metadata), a
// deallocation of a live address frees it. Freed addresses leave the map, so it holds
// what is live (small, in cache), not every address the profile ever used.
class AddressPairing {
 public:
  // Applies event `i`; returns the live allocation at its address before it, or
  // FlatUint64Map::kAbsent when the address was not live.
  uint32_t Apply(const MemoryEvent& e, uint32_t i) {
    if (e.activity == MemoryActivity::kDeallocation) {
      const uint32_t at = live_.Find(e.address);
      if (at != FlatUint64Map::kAbsent) live_.Erase(e.address);
      return at;
    }
    uint32_t* slot = live_.Slot(e.address, FlatUint64Map::kAbsent);  // one probe
    const uint32_t at = *slot;
    if (at == FlatUint64Map::kAbsent) *slot = i;
    return at;
  }

 private:
  FlatUint64Map live_{64};
};

// The events a computation runs over, in time order: indices [begin, end) of the memory
// id's events, or of `listed` (the events of the step filter) when set.
class EventWindow {
 public:
  EventWindow(const std::vector<uint32_t>* listed, size_t begin, size_t end) : listed_(listed), begin_(begin), end_(end) {}
  size_t size() const { return end_ - begin_; }
  bool empty() const { return end_ == begin_; }
  uint32_t operator[](size_t k) const {
    return listed_ != nullptr ? (*listed_)[begin_ + k] : static_cast<uint32_t>(begin_ + k);
  }
  uint32_t front() const { return (*this)[0]; }
  uint32_t back() const { return (*this)[size() - 1]; }
  struct Iterator {
    const EventWindow* window;
    size_t k;
    uint32_t operator*() const { return (*window)[k]; }
    Iterator& operator++() {
      ++k;
      return *this;
    }
    bool operator!=(const Iterator& o) const { return k != o.k; }
  };
  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, size()}; }

 private:
  const std::vector<uint32_t>* listed_;
  size_t begin_;
  size_t end_;
};

// XProf's step fill: an event without a step id takes the last valid one + 1.
int64_t FillStep(int64_t step_id, int64_t* last_valid_step) {
  if (step_id != kInvalidStepId) {
    *last_valid_step = step_id;
    return step_id;
  }
  return *last_valid_step == INT64_MAX ? INT64_MAX : *last_valid_step + 1;  // saturating
}

// Every event's step after the fill (WalkEvents fills them on its way when it can).
PairedEvents FillStepIds(const MemoryEventArray& events, MemoryDiagnostics* diagnostics) {
  PairedEvents paired;
  paired.events = &events;
  const bool any_missing = std::any_of(events.begin(), events.end(),
                                       [](const MemoryEvent& e) { return e.step_id == kInvalidStepId; });
  if (!any_missing) return paired;
  paired.filled_step_ids.resize(events.size());
  int64_t last_valid_step = kInvalidStepId;
  for (uint32_t i = 0; i < events.size(); ++i) {
    diagnostics->missing_step_ids += events[i].step_id == kInvalidStepId;
    paired.filled_step_ids[i] = FillStep(events[i].step_id, &last_valid_step);
  }
  return paired;
}

// XProf's SampleMemoryProfileTimeline, fed one event at a time: the window's `n` events
// fall into `max_points` boxes in order (the first ones of n / max_points events, the rest
// one more), each shown by its event with the largest stack + heap (the first of equals).
// With n <= max_points every event is its own box.
class TimelineBoxes {
 public:
  TimelineBoxes(size_t n, size_t max_points) {
    if (n <= max_points || max_points == 0) {
      width_ = 1;
      narrow_ = n;
    } else {
      width_ = n / max_points;
      narrow_ = max_points * (width_ + 1) - n;
    }
    sampled_.reserve(std::min(n, max_points == 0 ? n : max_points));
    sources_.reserve(sampled_.capacity());
  }
  // The next event of the window, with the event whose metadata it shows (`source`).
  void Add(const MemoryEvent& e, uint32_t i, uint32_t source) {
    const int64_t bytes = StackPlusHeap(e);
    if (left_ == 0) {
      left_ = boxes_started_++ < narrow_ ? width_ : width_ + 1;
      best_ = i;
      best_source_ = source;
      best_bytes_ = bytes;
    } else if (bytes > best_bytes_) {
      best_ = i;
      best_source_ = source;
      best_bytes_ = bytes;
    }
    if (--left_ == 0) {
      sampled_.push_back(best_);
      sources_.push_back(best_source_);
    }
  }
  const std::vector<uint32_t>& sampled() const { return sampled_; }
  const std::vector<uint32_t>& sources() const { return sources_; }

 private:
  size_t width_ = 1, narrow_ = 0, left_ = 0, boxes_started_ = 0;
  uint32_t best_ = 0, best_source_ = 0;
  int64_t best_bytes_ = 0;
  std::vector<uint32_t> sampled_, sources_;
};

// The window's summary figures that one walk in time order gives (UpdateProfileSummary).
struct WindowPeak {
  uint32_t peak = 0;  // the last event of the largest stack + heap
  std::map<int64_t, int64_t> heap_at_step_end;
};

// One walk over a memory id's events in time order - they are read from memory, 96 bytes
// each, so a second walk costs as much as the first: XProf's step fill (when `paired` has
// no filled steps yet and one is missing), the pairing by address (counts and diagnostics
// over the whole profile of the memory id) and, over `window`, the peak, the heap at each
// step's end and the timeline's boxes, each sampled event showing its own metadata or, for
// a deallocation, that of the allocation it frees.
WindowPeak WalkEvents(const MemoryEventArray& events, const EventWindow& window, bool fill_steps, PairedEvents* paired,
                      TimelineBoxes* boxes, MemoryDiagnostics* diagnostics, MemoryProfileSummary* summary) {
  WindowPeak result;
  if (!window.empty()) result.peak = window.front();
  int64_t peak_bytes = window.empty() ? 0 : StackPlusHeap(events[result.peak]);
  auto step_end = result.heap_at_step_end.end();
  AddressPairing pairing;
  int64_t last_valid_step = kInvalidStepId;
  size_t next_in_window = 0;
  for (uint32_t i = 0; i < events.size(); ++i) {
    const MemoryEvent& e = events[i];
    int64_t step;
    if (!fill_steps) {
      step = paired->step_id(i);
    } else {
      step = FillStep(e.step_id, &last_valid_step);
      if (e.step_id == kInvalidStepId) {
        ++diagnostics->missing_step_ids;
        if (paired->filled_step_ids.empty()) {  // the first one missing: every step before it is its own
          paired->filled_step_ids.resize(events.size());
          for (uint32_t k = 0; k < i; ++k) paired->filled_step_ids[k] = events[k].step_id;
        }
      }
      if (!paired->filled_step_ids.empty()) paired->filled_step_ids[i] = step;
    }

    const uint32_t at = pairing.Apply(e, i);
    const bool is_live = at != FlatUint64Map::kAbsent;
    if (e.activity == MemoryActivity::kDeallocation) {
      ++summary->num_deallocations;
      if (is_live) {
        --diagnostics->never_freed;
        AddTo(diagnostics->never_freed_bytes, -events[at].allocation_bytes);
      } else {
        ++diagnostics->frees_without_allocation;
      }
    } else {
      ++summary->num_allocations;
      if (is_live) {
        ++diagnostics->address_reused_without_free;
      } else {
        ++diagnostics->never_freed;
        AddTo(diagnostics->never_freed_bytes, e.allocation_bytes);
      }
    }

    if (next_in_window == window.size() || window[next_in_window] != i) continue;
    ++next_in_window;
    const int64_t bytes = StackPlusHeap(e);
    if (bytes >= peak_bytes) {
      result.peak = i;
      peak_bytes = bytes;
    }
    // Events of one step come together: look the step up only when it changes.
    if (step_end == result.heap_at_step_end.end() || step_end->first != step) {
      step_end = result.heap_at_step_end.try_emplace(step).first;
    }
    step_end->second = e.heap_allocated_bytes;
    boxes->Add(e, i, e.activity == MemoryActivity::kDeallocation && is_live ? at : i);
  }
  return result;
}

// The data type as recorded; TF's enum value 0 ("INVALID") is what allocators write when
// they do not know the type (XLA's and PyTorch's allocations, XProf's special rows), so
// it is no type: empty, which pages show as absent.
std::string RecordedDataType(int64_t data_type) { return data_type == 0 ? std::string() : DataTypeName(data_type); }

// The snapshot of event `i`, showing the metadata of event `source` (WalkEvents).
MemoryProfileSnapshot MakeSnapshot(const MemoryAllocatorEvents& allocator, const std::vector<std::string>& names,
                                   const PairedEvents& paired, uint32_t i, uint32_t source_index) {
  const MemoryEvent& e = allocator.events[i];
  const MemoryEvent& source = allocator.events[source_index];
  MemoryProfileSnapshot s;
  s.time_offset_ps = e.time_ps;
  s.aggregation_stats = {e.stack_reserved_bytes, e.heap_allocated_bytes, e.free_memory_bytes, e.fragmentation,
                         e.peak_bytes_in_use};
  MemoryActivityMetadata& m = s.activity_metadata;
  m.activity = e.activity;
  m.requested_bytes = e.requested_bytes;
  m.allocation_bytes = e.allocation_bytes;
  m.address = e.address;
  m.tf_op_name = NameAt(names, source.op_name);
  m.step_id = paired.step_id(i);
  m.region_type = NameAt(names, source.region_type);
  m.data_type = RecordedDataType(source.data_type);
  m.tensor_shape = NameAt(names, source.shape);
  return s;
}

// Breakdown-order comparison on the merge key (XProf's MetadataComparator).
struct BreakdownKey {
  int64_t allocation_bytes;
  int64_t requested_bytes;
  const std::string* op;
  const std::string* region;
  std::string data_type;
  const std::string* shape;
  auto Tie() const { return std::tie(*op, *region, data_type, *shape); }
  bool SameAs(const BreakdownKey& o) const {
    return allocation_bytes == o.allocation_bytes && requested_bytes == o.requested_bytes && Tie() == o.Tie();
  }
  bool Before(const BreakdownKey& o) const {
    if (allocation_bytes != o.allocation_bytes) return allocation_bytes > o.allocation_bytes;
    if (requested_bytes != o.requested_bytes) return requested_bytes > o.requested_bytes;
    return Tie() < o.Tie();
  }
};

MemoryActivityMetadata SpecialRow(int64_t bytes, std::string op, std::string region, int64_t step) {
  MemoryActivityMetadata m;
  m.activity = MemoryActivity::kAllocation;
  m.requested_bytes = m.allocation_bytes = bytes;
  m.tf_op_name = std::move(op);
  m.step_id = step;
  m.region_type = std::move(region);
  m.data_type = RecordedDataType(0);
  m.tensor_shape = "unknown";
  return m;
}

// XProf's ProcessActiveAllocations + SaveActiveAllocationSnapshots.
void BuildBreakdown(const MemoryAllocatorEvents& allocator, const std::vector<std::string>& names,
                    const PairedEvents& paired, const EventWindow& window, PerAllocatorMemoryProfile* out) {
  const MemoryEventArray& events = allocator.events;
  const MemoryProfileSummary& summary = out->summary;
  int64_t unmapped_allocation = summary.peak_stats.heap_allocated_bytes;
  int64_t unmapped_deallocation = 0;
  FlatUint64Map active(64);
  std::vector<uint32_t> added;  // allocations in order; active iff still mapped to themselves
  for (uint32_t i : window) {
    const MemoryEvent& e = events[i];
    if (e.time_ps > summary.peak_stats_time_ps) break;
    if (paired.step_id(i) != summary.peak_step_id) continue;
    if (e.activity == MemoryActivity::kAllocation) {
      active.Set(e.address, i);
      added.push_back(i);
      unmapped_allocation = SatAdd(unmapped_allocation, -e.allocation_bytes);
    } else {
      if (active.Find(e.address) != FlatUint64Map::kAbsent) {
        active.Erase(e.address);
      } else {
        AddTo(unmapped_deallocation, e.allocation_bytes);
      }
      AddTo(unmapped_allocation, e.allocation_bytes);
    }
  }
  // Separates persistent memory from what the previous step's allocations freed.
  unmapped_allocation = SatAdd(unmapped_allocation, -unmapped_deallocation);

  std::vector<std::pair<BreakdownKey, uint32_t>> live;
  for (uint32_t i : added) {
    if (active.Find(events[i].address) != i) continue;
    const MemoryEvent& e = events[i];
    live.push_back({{e.allocation_bytes, e.requested_bytes, &NameAt(names, e.op_name), &NameAt(names, e.region_type),
                     RecordedDataType(e.data_type), &NameAt(names, e.shape)},
                    i});
  }
  std::sort(live.begin(), live.end(), [](const auto& a, const auto& b) {
    if (a.first.Before(b.first)) return true;
    if (b.first.Before(a.first)) return false;
    return a.second < b.second;
  });

  auto add_special = [&](MemoryActivityMetadata row) {
    const int64_t special = static_cast<int64_t>(out->special_allocations.size());
    out->special_allocations.push_back(std::move(row));
    out->active_allocations.push_back({-1 - special, special, 1});
  };
  if (unmapped_allocation > 0) {
    add_special(SpecialRow(unmapped_allocation, "unused preallocated device memory", "persist/dynamic",
                           summary.peak_step_id));
  }
  if (summary.peak_stats.stack_reserved_bytes > 0) {
    add_special(SpecialRow(summary.peak_stats.stack_reserved_bytes, "stack", "stack", summary.peak_step_id));
  }
  for (size_t k = 0; k < live.size();) {
    ActiveAllocation row;
    row.snapshot_index = static_cast<int64_t>(out->active_snapshots.size());
    row.num_occurrences = 1;
    // Breakdown rows are allocations: each shows its own metadata.
    out->active_snapshots.push_back(MakeSnapshot(allocator, names, paired, live[k].second, live[k].second));
    size_t next = k + 1;
    while (next < live.size() && live[next].first.SameAs(live[k].first)) {
      ++row.num_occurrences;
      ++next;
    }
    out->active_allocations.push_back(row);
    k = next;
  }
}

}  // namespace

PerAllocatorMemoryProfile ComputeAllocatorProfile(const MemoryAllocatorEvents& allocator,
                                                  const std::vector<std::string>& names,
                                                  std::optional<int64_t> step_filter, size_t max_timeline_points,
                                                  const MemoryTimeRange& time_range) {
  PerAllocatorMemoryProfile out;
  out.memory_id = allocator.memory_id;
  const MemoryEventArray& events = allocator.events;
  // The step's events are listed before its window is cut, so its steps are filled
  // first; without a step filter, WalkEvents fills them on its way.
  PairedEvents paired;
  paired.events = &events;
  if (step_filter) paired = FillStepIds(events, &out.diagnostics);

  // The step's events (all events without a step filter), then the part of them in the
  // time range: events are in time order, so that part is one slice.
  std::vector<uint32_t> listed;
  if (step_filter) {
    for (uint32_t i = 0; i < events.size(); ++i) {
      if (paired.step_id(i) == *step_filter) listed.push_back(i);
    }
  }
  const std::vector<uint32_t>* list = step_filter ? &listed : nullptr;
  const EventWindow step_window(list, 0, step_filter ? listed.size() : events.size());
  auto first_at_or_after = [&](int64_t time_ps) {
    size_t lo = 0, hi = step_window.size();
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      if (events[step_window[mid]].time_ps < time_ps) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  };
  const size_t begin = time_range.start_ps ? first_at_or_after(*time_range.start_ps) : 0;
  size_t end = step_window.size();
  if (time_range.end_ps) end = *time_range.end_ps == INT64_MAX ? end : first_at_or_after(*time_range.end_ps + 1);
  const EventWindow window(list, begin, std::max(begin, end));

  MemoryProfileSummary& summary = out.summary;
  TimelineBoxes boxes(window.size(), max_timeline_points);
  WindowPeak walked = WalkEvents(events, window, !step_filter, &paired, &boxes, &out.diagnostics, &summary);
  if (window.empty()) return out;

  // Summary (XProf's UpdateProfileSummary over the window, in time order).
  summary.peak_bytes_usage_lifetime = events[window.back()].peak_bytes_in_use;
  const MemoryEvent& p = events[walked.peak];
  summary.peak_stats = {p.stack_reserved_bytes, p.heap_allocated_bytes, p.free_memory_bytes, p.fragmentation,
                        StackPlusHeap(p)};
  summary.peak_stats_time_ps = p.time_ps;
  summary.memory_capacity = StackPlusHeap(p) + p.free_memory_bytes;
  summary.peak_step_id = paired.step_id(walked.peak);
  out.heap_at_step_end.assign(walked.heap_at_step_end.begin(), walked.heap_at_step_end.end());

  for (size_t k = 0; k < boxes.sampled().size(); ++k) {
    out.sampled_timeline.push_back(MakeSnapshot(allocator, names, paired, boxes.sampled()[k], boxes.sources()[k]));
  }
  out.heap_from_sizes = allocator.heap_from_sizes;
  if (allocator.heap_from_sizes) {
    // Without addresses no free pairs with its allocation: the pairing's counts would be
    // noise, and no buffer can be called live at the peak.
    const int64_t missing_step_ids = out.diagnostics.missing_step_ids;
    out.diagnostics = {};
    out.diagnostics.missing_step_ids = missing_step_ids;
    return out;
  }
  // What is live at the peak does not depend on where the time range starts: the
  // breakdown reads the step's events from the beginning.
  BuildBreakdown(allocator, names, paired, step_window, &out);
  return out;
}

MemoryProfileResult AnalyzeMemory(const ProfileModel& model, std::optional<int64_t> step_filter,
                                  const MemoryTimeRange& time_range) {
  MemoryProfileResult r;
  r.num_hosts = std::max<int64_t>(1, static_cast<int64_t>(model.hostnames.size()));
  r.step_filter = step_filter;
  r.time_range = time_range;
  const bool prefix_host = model.hostnames.size() > 1;
  for (const MemoryAllocatorEvents& allocator : model.memory.allocators) {
    r.total_events += static_cast<int64_t>(allocator.events.size());
    PerAllocatorMemoryProfile profile = ComputeAllocatorProfile(allocator, model.memory.names, r.step_filter, kMaxTimelinePoints, r.time_range);
    if (prefix_host && allocator.host_index >= 0 &&
        static_cast<size_t>(allocator.host_index) < model.hostnames.size()) {
      profile.memory_id = model.hostnames[allocator.host_index] + ":" + profile.memory_id;
    }
    const MemoryDiagnostics& d = profile.diagnostics;
    const std::string who = "memory id '" + profile.memory_id + "': ";
    if (profile.heap_from_sizes) {
      r.diagnostics.push_back(who + std::string(kHeapFromSizesNote));
    }
    if (d.frees_without_allocation > 0) {
      r.diagnostics.push_back(who + std::to_string(d.frees_without_allocation) +
                              " deallocations have no allocation at their address in the profile (allocated "
                              "before it started, or the allocation event was lost)");
    }
    if (d.address_reused_without_free > 0) {
      r.diagnostics.push_back(who + std::to_string(d.address_reused_without_free) +
                              " allocations reuse an address that was never freed (a lost deallocation event)");
    }
    if (d.never_freed > 0) {
      r.diagnostics.push_back(who + std::to_string(d.never_freed) + " allocations (" +
                              std::to_string(d.never_freed_bytes) +
                              " bytes) are not freed by the end of the profile");
    }
    if (r.step_filter && profile.sampled_timeline.empty()) {
      r.diagnostics.push_back(who + "no memory events in step " + std::to_string(*r.step_filter));
    } else if (r.time_range.active() && profile.sampled_timeline.empty()) {
      r.diagnostics.push_back(who + "no memory events in the time range");
    }
    r.allocators.push_back(std::move(profile));
  }
  std::stable_sort(r.allocators.begin(), r.allocators.end(),
                   [](const PerAllocatorMemoryProfile& a, const PerAllocatorMemoryProfile& b) {
                     return a.memory_id < b.memory_id;
                   });
  if (r.allocators.empty()) {
    r.diagnostics.push_back(
        "no MemoryAllocation / MemoryDeallocation events in this profile: record allocator activity "
        "(TensorFlow's BFC allocator with the profiler at host tracer level >= 2, PyTorch with "
        "profile_memory=True)");
  }
  return r;
}

}  // namespace stepscope::analysis
