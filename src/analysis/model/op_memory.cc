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
// two binary searches away.
class MemoryTimeline {
 public:
  explicit MemoryTimeline(const MemoryEvents& memory) {
    struct Delta {
      int64_t time_ps, cpu, device;
    };
    std::vector<Delta> deltas;
    for (const MemoryAllocatorEvents& allocator : memory.allocators) {
      if (allocator.host_index != 0) continue;  // a per-host model's own events
      const bool cpu = IsHostMemoryId(allocator.memory_id);
      for (const MemoryEvent& e : allocator.events) {
        const int64_t bytes = e.activity == MemoryActivity::kAllocation ? e.allocation_bytes : -e.allocation_bytes;
        deltas.push_back({e.time_ps, cpu ? bytes : 0, cpu ? 0 : bytes});
      }
    }
    std::stable_sort(deltas.begin(), deltas.end(), [](const Delta& a, const Delta& b) { return a.time_ps < b.time_ps; });
    times_.reserve(deltas.size());
    cpu_.assign(1, 0);
    device_.assign(1, 0);
    for (const Delta& d : deltas) {
      times_.push_back(d.time_ps);
      cpu_.push_back(SatAdd(cpu_.back(), d.cpu));
      device_.push_back(SatAdd(device_.back(), d.device));
    }
  }
  bool empty() const { return times_.empty(); }
  // Bytes (host, device) of the events at begin <= time <= end (key_averages' interval).
  std::pair<int64_t, int64_t> Within(int64_t begin, int64_t end) const {
    const size_t from = std::lower_bound(times_.begin(), times_.end(), begin) - times_.begin();
    const size_t to = std::upper_bound(times_.begin(), times_.end(), end) - times_.begin();
    if (to <= from) return {0, 0};
    return {SatSub(cpu_[to], cpu_[from]), SatSub(device_[to], device_[from])};
  }

 private:
  std::vector<int64_t> times_;
  std::vector<int64_t> cpu_, device_;  // prefix sums: [k] = events before index k
};

struct MemoryAgg {
  int64_t cpu = 0, self_cpu = 0, device = 0, self_device = 0;
};

enum class Kind : int8_t { kUnset = -1, kOp, kSkip, kFrame };

}  // namespace

bool IsHostMemoryId(std::string_view memory_id) {
  std::string lower(memory_id);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower.find("cpu") != std::string::npos;
}

void AddHostOpMemory(const xspace::ColumnarXSpace& space, const HostAnalysis& host, ProfileModel* model) {
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
      const auto [cpu, device] = timeline.Within(plane.event_start_ps[e], plane.event_end_ps(e));
      if (!frame && kind[m] != Kind::kSkip && above >= 0) {
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
