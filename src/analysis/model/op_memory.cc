#include "src/analysis/model/op_memory.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "src/analysis/model/op_name.h"
#include "src/analysis/model/sat_math.h"

namespace stepscope::analysis::internal {
namespace {

using xspace::ColumnarPlane;

// The host's allocator events as running sums over time: the memory of [begin, end] is
// two binary searches away. One 24-byte entry per event (the model holds 96 per event).
class MemoryTimeline {
 public:
  explicit MemoryTimeline(const MemoryEvents& memory) {
    for (const MemoryAllocatorEvents& allocator : memory.allocators) {
      if (allocator.host_index != 0) continue;  // a per-host model's own events
      const bool cpu = IsHostMemoryId(allocator.memory_id);
      const size_t first = points_.size();
      for (const MemoryEvent& e : allocator.events) {
        const int64_t bytes = e.activity == MemoryActivity::kAllocation ? e.allocation_bytes : -e.allocation_bytes;
        points_.push_back({e.time_ps, cpu ? bytes : 0, cpu ? 0 : bytes});
      }
      // Each allocator's events are in time order already: merge, no sort.
      std::inplace_merge(points_.begin(), points_.begin() + static_cast<std::ptrdiff_t>(first), points_.end(),
                         [](const Point& a, const Point& b) { return a.time_ps < b.time_ps; });
    }
    for (size_t i = 1; i < points_.size(); ++i) {  // deltas -> running sums, in place
      points_[i].cpu = SatAdd(points_[i - 1].cpu, points_[i].cpu);
      points_[i].device = SatAdd(points_[i - 1].device, points_[i].device);
    }
  }
  bool empty() const { return points_.empty(); }
  // Bytes (host, device) of the events at begin <= time <= end (key_averages' interval).
  std::pair<int64_t, int64_t> Within(int64_t begin, int64_t end) const {
    auto before = [](const Point& p, int64_t t) { return p.time_ps < t; };
    auto after = [](int64_t t, const Point& p) { return t < p.time_ps; };
    const size_t from = std::lower_bound(points_.begin(), points_.end(), begin, before) - points_.begin();
    const size_t to = std::upper_bound(points_.begin(), points_.end(), end, after) - points_.begin();
    if (to <= from) return {0, 0};
    const Point& last = points_[to - 1];
    if (from == 0) return {last.cpu, last.device};
    const Point& first = points_[from - 1];
    return {SatSub(last.cpu, first.cpu), SatSub(last.device, first.device)};
  }

 private:
  struct Point {
    int64_t time_ps, cpu, device;  // after the build: sums up to and including this event
  };
  std::vector<Point> points_;
};

struct MemoryAgg {
  int64_t cpu = 0, self_cpu = 0, device = 0, self_device = 0;
};

enum class Kind : int8_t { kUnset = -1, kOp, kSkip, kFrame };

}  // namespace

bool IsHostMemoryId(std::string_view memory_id) { return ContainsIgnoreCase(memory_id, "cpu"); }

void AddHostOpMemory(const xspace::ColumnarXSpace& space, const HostAnalysis& host, ProfileModel* model) {
  // Nothing to attribute, or nothing to attribute it to (a profile of allocations alone:
  // its threads hold only the memory instants).
  if (model->memory.allocators.empty() || model->host_ops.ops.empty()) return;
  const MemoryTimeline timeline(model->memory);
  if (timeline.empty()) return;
  std::vector<std::vector<MemoryAgg>> aggs(space.planes.size());
  std::vector<std::vector<Kind>> kinds(space.planes.size());
  for (size_t t = 0; t < host.threads.size(); ++t) {
    const HostThread& thread = host.threads[t];
    const HostThreadFacts& facts = host.facts[t];
    const ColumnarPlane& plane = space.planes[thread.plane_index];
    std::vector<MemoryAgg>& agg = aggs[thread.plane_index];
    std::vector<Kind>& kind = kinds[thread.plane_index];
    if (agg.empty()) {
      agg.resize(plane.event_metadata.size());
      kind.assign(plane.event_metadata.size(), Kind::kUnset);
    }
    // As BuildHostOpTable's self times: each subtree's memory is known when it opens (an
    // interval sum), and a child takes its total from its owner's self memory.
    struct Open {
      uint32_t index;
      uint32_t metadata;  // UINT32_MAX: not counted
      int64_t self_cpu, self_device;
      int32_t owner;  // index into `open` of the nearest non-frame event at or above; -1: none
    };
    std::vector<Open> open;
    auto close = [&](const Open& o) {
      if (o.metadata == UINT32_MAX) return;
      AddTo(agg[o.metadata].self_cpu, o.self_cpu);
      AddTo(agg[o.metadata].self_device, o.self_device);
    };
    for (uint32_t i = 0; i < thread.size(); ++i) {
      const int32_t parent = thread.parent[i];
      while (!open.empty() && static_cast<int32_t>(open.back().index) != parent) {
        close(open.back());
        open.pop_back();
      }
      const uint32_t e = thread.event(i);
      const uint32_t m = plane.event_metadata_index[e];
      if (kind[m] == Kind::kUnset) {
        const std::string_view name = plane.event_name(e);
        kind[m] = IsMemoryEventName(name) ? Kind::kSkip : IsPythonFrameName(name) ? Kind::kFrame : Kind::kOp;
      }
      const bool frame = kind[m] == Kind::kFrame;
      const int32_t above = open.empty() ? -1 : open.back().owner;
      if (kind[m] == Kind::kSkip) {  // a memory instant: neither an op nor a child of one
        open.push_back({i, UINT32_MAX, 0, 0, above});
        continue;
      }
      const auto [cpu, device] = timeline.Within(plane.event_start_ps[e], plane.event_end_ps(e));
      if (!frame && above >= 0) {
        Open& owner = open[static_cast<size_t>(above)];
        owner.self_cpu -= cpu;
        owner.self_device -= device;
      }
      open.push_back({i, UINT32_MAX, cpu, device, frame ? above : static_cast<int32_t>(open.size())});
      if (facts.flags[i] & kIsStepMarker || (host.only_group_id && !host.Counts(facts.group[i]))) continue;
      if (kind[m] != Kind::kOp) continue;
      AddTo(agg[m].cpu, cpu);
      AddTo(agg[m].device, device);
      open.back().metadata = m;
    }
    for (const Open& o : open) close(o);
  }

  std::unordered_map<std::string, size_t> by_name;
  for (size_t i = 0; i < model->host_ops.ops.size(); ++i) by_name.emplace(model->host_ops.ops[i].name, i);
  for (size_t p = 0; p < aggs.size(); ++p) {
    for (size_t m = 0; m < aggs[p].size(); ++m) {
      if (kinds[p][m] != Kind::kOp) continue;
      auto it = by_name.find(std::string(ParseOpName(space.planes[p].event_metadata[m].name).name));
      if (it == by_name.end()) continue;
      const MemoryAgg& a = aggs[p][m];
      OpMetrics& op = model->host_ops.ops[it->second];
      AddTo(op.cpu_memory_bytes, a.cpu);
      AddTo(op.self_cpu_memory_bytes, a.self_cpu);
      AddTo(op.device_memory_bytes, a.device);
      AddTo(op.self_device_memory_bytes, a.self_device);
    }
  }
  model->host_ops.has_memory = true;
}

}  // namespace stepscope::analysis::internal
