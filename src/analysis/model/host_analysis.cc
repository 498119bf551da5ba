#include "src/analysis/model/host_analysis.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "src/analysis/model/collective_message.h"
#include "src/analysis/model/event_stats.h"
#include "src/analysis/model/event_tree.h"
#include "src/analysis/model/input_precision.h"
#include "src/analysis/model/op_name.h"
#include "src/analysis/model/sat_math.h"
#include "src/analysis/model/step_marker_rules.h"
#include "src/base/cores.h"
#include "src/base/for_each_index.h"

namespace stepscope::analysis::internal {
namespace {

using xspace::ColumnarPlane;

struct Root {
  int64_t level;
  int64_t begin_ps;
  uint32_t thread;
  uint32_t pos;
  bool has_step_number;
  int64_t step_number;
};

// Step marker windows as a partition of time into elementary segments, each knowing the
// group whose window holds it. Where windows of different groups overlap (markers on
// different threads, or nested roots), the window that began last wins - for nested
// windows that is the innermost, as with the marker rule - and on equal begins the one
// that ends first. A gap between two markers belongs to the marker before it: a step is
// the program's iteration, from its start to the next step's start (docs/model.md
// "Steps"), so work between two markers is the earlier step's.
class StepWindows {
 public:
  explicit StepWindows(const std::vector<StepMarker>& markers) {
    struct Edge {
      int64_t time;
      bool opens;
      uint32_t marker;
    };
    std::vector<Edge> edges;
    for (uint32_t m = 0; m < markers.size(); ++m) {
      if (markers[m].duration_ps <= 0 || markers[m].on_device) continue;
      edges.push_back({markers[m].begin_ps, true, m});
      edges.push_back({markers[m].begin_ps + markers[m].duration_ps, false, m});
    }
    std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.time < b.time; });
    // Open windows ordered by (begin, -end): the last element is the one that wins.
    std::set<std::tuple<int64_t, int64_t, uint32_t>> open;
    for (size_t e = 0; e < edges.size();) {
      const int64_t time = edges[e].time;
      for (; e < edges.size() && edges[e].time == time; ++e) {
        const StepMarker& m = markers[edges[e].marker];
        std::tuple<int64_t, int64_t, uint32_t> key{m.begin_ps, -(m.begin_ps + m.duration_ps), edges[e].marker};
        if (edges[e].opens) {
          open.insert(key);
        } else {
          open.erase(key);
        }
      }
      int32_t group = open.empty() ? kNoGroup : markers[std::get<2>(*open.rbegin())].group;
      if (!group_.empty() && group_.back() == group) continue;
      begin_.push_back(time);
      group_.push_back(group);
    }
    FillGapsBetweenMarkers();
  }
  bool empty() const { return begin_.empty(); }

  // Gives each segment between two markers (no window open, another one opening after it)
  // the group of the segment before it, then merges equal neighbours.
  void FillGapsBetweenMarkers() {
    for (size_t k = 1; k + 1 < group_.size(); ++k) {
      if (group_[k] == kNoGroup) group_[k] = group_[k - 1];
    }
    size_t out = 0;
    for (size_t k = 0; k < group_.size(); ++k) {
      if (out > 0 && group_[out - 1] == group_[k]) continue;
      begin_[out] = begin_[k];
      group_[out++] = group_[k];
    }
    begin_.resize(out);
    group_.resize(out);
  }

  // The group whose window holds `time`, kNoGroup when none does.
  int32_t GroupAt(int64_t time) const {
    auto it = std::upper_bound(begin_.begin(), begin_.end(), time);
    return it == begin_.begin() ? kNoGroup : group_[it - begin_.begin() - 1];
  }

 private:
  std::vector<int64_t> begin_;  // segment begins, ascending; a segment ends where the next begins
  std::vector<int32_t> group_;  // by segment
};

struct Connection {
  int64_t type;
  uint64_t id;
  uint32_t thread;
  uint32_t pos;
};

// Consumers join their producer's group; chains (producer itself a consumer) need a few
// rounds. Three covers TF's executor -> function -> tf.data chains.
constexpr int kConnectionRounds = 3;

class HostGrouper {
 public:
  HostGrouper(const xspace::ColumnarXSpace& space, HostAnalysis* out) : space_(space), out_(out) {}

  void Run(const std::vector<uint32_t>& host_planes) {
    bool file_grouped = false;
    std::vector<PlaneStatReader> readers;
    readers.reserve(host_planes.size());
    for (uint32_t p : host_planes) {
      readers.emplace_back(space_.planes[p]);
      file_grouped = file_grouped || readers.back().has_group_id_stat();
    }
    for (size_t i = 0; i < host_planes.size(); ++i) ReadPlane(host_planes[i], readers[i], file_grouped);

    if (file_grouped) {
      out_->step_source = "tf_grouped";
    } else if (has_loop_ops_ && !roots_.empty()) {
      out_->step_source = "none";
      out_->diagnostics.push_back(
          "TensorFlow loop ops (WhileOp/ForOp) were found: steps are not grouped, as in TensorFlow");
    } else if (!roots_.empty()) {
      GroupByRoots();
      PropagateToConsumers();
      GroupByStepWindows();
      subtree_ends_.clear();  // 4 bytes per event of every grouped thread, not needed again
      out_->step_source = "step_markers";
    } else {
      out_->step_source = "none";
    }
    BuildCorrelationMaps();
  }

 private:
  // What one line of a host plane contributes, read on its own (lines are read in
  // parallel) and then merged in line order, where it gets its thread index and the file's
  // group ids their dense indices, so the result is the one-thread result.
  struct LineScan {
    HostThread thread;
    HostThreadFacts facts;
    std::vector<std::pair<uint32_t, int64_t>> file_groups;  // (position, group_id), in order
    std::vector<std::pair<uint32_t, StepMarker>> markers;  // file-grouped (position, marker); group unset
    std::vector<Root> roots;           // .thread unset
    std::vector<Connection> producers, consumers;  // .thread unset
    bool has_loop_ops = false;
    bool has_op_scopes = false;
  };

  void ReadPlane(uint32_t plane_index, const PlaneStatReader& reader, bool file_grouped) {
    const ColumnarPlane& plane = space_.planes[plane_index];
    std::vector<uint8_t> kinds(plane.event_metadata.size(), 0);
    for (size_t m = 0; m < plane.event_metadata.size(); ++m) {
      const std::string& name = plane.event_metadata[m].name;
      kinds[m] = (IsTfLoopOpName(name) ? kLoopOp : 0) | (name == "TraceContext" ? kTraceContext : 0) |
                 (IsMemoryEventName(name) ? kMemoryEvent : 0);
    }
    std::vector<LineScan> scans(plane.lines.size());
    // A thread per core for planes worth it (PyTorch's two busy threads: ~0.7 ms of a
    // 15 MB trace's model); small planes are not worth starting threads for.
    const int threads = plane.num_events() >= kParallelScanEvents ? base::UsableCores() : 1;
    base::ForEachIndex(scans.size(), threads, [&] {
      return [&](size_t l) {
        ScanLine(plane, plane_index, static_cast<uint32_t>(l), reader, file_grouped, kinds, &scans[l]);
        return true;
      };
    });
    for (LineScan& scan : scans) MergeLine(std::move(scan), file_grouped);
  }

  static constexpr uint8_t kLoopOp = 1, kTraceContext = 2, kMemoryEvent = 4;
  static constexpr uint32_t kParallelScanEvents = 8192;

  void ScanLine(const ColumnarPlane& plane, uint32_t plane_index, uint32_t l, const PlaneStatReader& reader,
                bool file_grouped, const std::vector<uint8_t>& kinds, LineScan* scan) const {
    EventStats stats;
    scan->thread = BuildHostThread(plane, plane_index, l);
    const HostThread& thread = scan->thread;
    HostThreadFacts& facts = scan->facts;
    facts.group.assign(thread.size(), kNoGroup);
    facts.flags.assign(thread.size(), 0);
    for (uint32_t i = 0; i < thread.size(); ++i) {
      uint32_t e = thread.event(i);
      const uint8_t kind = kinds[plane.event_metadata_index[e]];
      // Allocator events are read by memory_events.cc; none of their stats matters here
      // (their group_id is read there too), and they can be most of a plane's events.
      if (kind & kMemoryEvent) continue;
      if (reader.HasNoStats(e)) {  // flags 0, no group, no connection; maybe a TraceContext root
        if (!file_grouped) {
          if (kind & kTraceContext) scan->roots.push_back({1, plane.event_start_ps[e], 0, i, false, 0});
          scan->has_loop_ops = scan->has_loop_ops || (kind & kLoopOp);
        }
        continue;
      }
      reader.Read(e, &stats);
      uint8_t flags = 0;
      if (stats.has_correlation_id) {
        flags |= kHasCorrelation;
        ++scan->thread.launch_events;
      }
      if (stats.is_eager) flags |= kIsEager;
      if (stats.is_input_pipeline_stage) flags |= kIsInputStage;
      if (stats.has_external_id && !stats.has_root && !stats.has_correlation_id) {
        flags |= kIsOpScope;
        scan->has_op_scopes = true;
      }
      std::string_view name = plane.event_name(e);
      if (file_grouped) {
        if (stats.has_group_id) {
          scan->file_groups.push_back({i, stats.group_id});
          if (IsExplicitStepMarkerName(name) || !stats.step_name.empty()) {
            flags |= kIsStepMarker;
            scan->markers.emplace_back(i, MarkerOf(plane, e, stats, std::string(stats.step_name)));
          }
        }
      } else {
        int64_t level = RootLevel(stats, kind & kTraceContext);
        if (level > 0) {
          std::optional<int64_t> number = HostStepNumber(stats);
          scan->roots.push_back({level, plane.event_start_ps[e], 0, i, number.has_value(), number.value_or(0)});
        }
        if (stats.has_producer) scan->producers.push_back({stats.producer_type, stats.producer_id, 0, i});
        if (stats.has_consumer) scan->consumers.push_back({stats.consumer_type, stats.consumer_id, 0, i});
        scan->has_loop_ops = scan->has_loop_ops || (kind & kLoopOp);
      }
      facts.flags[i] = flags;
    }
  }

  void MergeLine(LineScan scan, bool file_grouped) {
    const uint32_t t = static_cast<uint32_t>(out_->threads.size());
    out_->threads.push_back(std::move(scan.thread));
    HostThreadFacts& facts = out_->facts.emplace_back(std::move(scan.facts));
    if (file_grouped) {
      for (const auto& [i, group_id] : scan.file_groups) facts.group[i] = out_->groups.Dense(group_id);
      for (auto& [i, marker] : scan.markers) {
        marker.group = facts.group[i];
        out_->markers.push_back(std::move(marker));
      }
    }
    for (Root& root : scan.roots) {
      root.thread = t;
      roots_.push_back(root);
    }
    for (Connection& c : scan.producers) producers_.push_back({c.type, c.id, t, c.pos});
    for (Connection& c : scan.consumers) consumers_.push_back({c.type, c.id, t, c.pos});
    has_loop_ops_ = has_loop_ops_ || scan.has_loop_ops;
    thread_has_op_scopes_.push_back(scan.has_op_scopes);
  }

  static StepMarker MarkerOf(const ColumnarPlane& plane, uint32_t event, const EventStats& stats,
                             std::string step_name) {
    StepMarker marker;
    marker.begin_ps = plane.event_start_ps[event];
    marker.duration_ps = plane.duration_ps(event);
    marker.name = std::string(plane.event_name(event));
    std::optional<int64_t> number = HostStepNumber(stats);
    marker.has_step_number = number.has_value();
    marker.step_number = number.value_or(0);
    marker.step_name = std::move(step_name);
    return marker;
  }

  const std::vector<uint32_t>& SubtreeEnds(uint32_t t) {
    auto [it, inserted] = subtree_ends_.try_emplace(t);
    if (inserted) it->second = ComputeSubtreeEnds(out_->threads[t]);
    return it->second;
  }

  void AssignSubtree(uint32_t t, uint32_t pos, int32_t group, uint8_t extra_flags = 0) {
    const std::vector<uint32_t>& ends = SubtreeEnds(t);
    std::vector<int32_t>& groups = out_->facts[t].group;
    std::vector<uint8_t>& flags = out_->facts[t].flags;
    for (uint32_t i = pos; i < ends[pos]; ++i) {
      if (groups[i] == kNoGroup) {
        groups[i] = group;
        flags[i] |= extra_flags;
      }
    }
  }

  void GroupByRoots() {
    std::sort(roots_.begin(), roots_.end(), [](const Root& a, const Root& b) {
      return std::tie(b.level, a.begin_ps, a.thread, a.pos) < std::tie(a.level, b.begin_ps, b.thread, b.pos);
    });
    std::map<std::pair<std::string, int64_t>, int64_t> group_by_key;
    int64_t next_group_id = 0;
    for (const Root& root : roots_) {
      std::vector<int32_t>& groups = out_->facts[root.thread].group;
      if (groups[root.pos] != kNoGroup) continue;  // inside a higher-level (or earlier) group
      const HostThread& thread = out_->threads[root.thread];
      const ColumnarPlane& plane = space_.planes[thread.plane_index];
      uint32_t e = thread.event(root.pos);
      std::string name(plane.event_name(e));
      int64_t group_id;
      if (root.has_step_number) {
        auto [it, inserted] = group_by_key.try_emplace({name, root.step_number}, next_group_id);
        if (inserted) ++next_group_id;
        group_id = it->second;
      } else {
        group_id = next_group_id++;
      }
      int32_t group = out_->groups.Dense(group_id);
      AssignSubtree(root.thread, root.pos, group);
      out_->facts[root.thread].flags[root.pos] |= kIsStepMarker;
      StepMarker marker;
      marker.group = group;
      marker.begin_ps = plane.event_start_ps[e];
      marker.duration_ps = plane.duration_ps(e);
      marker.name = std::move(name);
      marker.has_step_number = root.has_step_number;
      marker.step_number = root.step_number;
      out_->markers.push_back(std::move(marker));
    }
  }

  void PropagateToConsumers() {
    if (consumers_.empty() || producers_.empty()) return;
    for (int round = 0; round < kConnectionRounds; ++round) {
      std::map<std::pair<int64_t, uint64_t>, int32_t> producer_group;
      for (const Connection& p : producers_) {
        int32_t group = out_->facts[p.thread].group[p.pos];
        if (group != kNoGroup) producer_group.try_emplace({p.type, p.id}, group);
      }
      bool changed = false;
      for (const Connection& c : consumers_) {
        if (out_->facts[c.thread].group[c.pos] != kNoGroup) continue;
        auto it = producer_group.find({c.type, c.id});
        if (it == producer_group.end()) continue;
        AssignSubtree(c.thread, c.pos, it->second);
        changed = true;
      }
      if (!changed) break;
    }
  }

  // The step-window rule: an event still in no group after the marker and connection
  // rules, whose start lies inside a step marker's [begin, end), joins that step with its
  // subtree (its still ungrouped part). Events are visited in time order per thread, so
  // the outermost such event takes its subtree, and the children of an event that starts
  // outside every window are tried one by one. This ties the work of threads that carry
  // no marker - PyTorch runs backward on its autograd thread - to the step whose window
  // holds it, as PyTorch's TensorBoard plugin does.
  void GroupByStepWindows() {
    StepWindows windows(out_->markers);
    if (windows.empty()) return;
    for (uint32_t t = 0; t < out_->threads.size(); ++t) {
      const HostThread& thread = out_->threads[t];
      const ColumnarPlane& plane = space_.planes[thread.plane_index];
      const std::vector<int32_t>& groups = out_->facts[t].group;
      for (uint32_t i = 0; i < thread.size(); ++i) {
        if (groups[i] != kNoGroup) continue;
        int32_t group = windows.GroupAt(plane.event_start_ps[thread.event(i)]);
        if (group != kNoGroup) AssignSubtree(t, i, group, kGroupedByWindow);
      }
    }
  }

  // Correlation id -> group of the launch (launches with a group), and correlation id ->
  // the framework op around the launch (threads with PyTorch record-function scopes): the
  // innermost enclosing scope with a cpu_op-like name, else the innermost scope. One pass
  // per thread in time order: parents come before children, so the innermost scopes of an
  // event are its own or its parent's (two arrays, only on threads that have scopes).
  void BuildCorrelationMaps() {
    constexpr uint32_t kNone = UINT32_MAX;
    std::vector<uint32_t> inner_scope, inner_op;  // per event: innermost scope / cpu_op-like scope
    std::vector<uint32_t> inner_comms;            // per event: innermost scope with a collective's size
    // Per event: the floating-point precision of the innermost scope whose "Input type"
    // names one (input_precision.h), only on planes that have the stat.
    std::vector<InputPrecision> inner_precision;
    uint32_t input_type_index = xspace::ColumnarPlane::kNoStat;  // of the current plane
    std::vector<int8_t> cpu_op_like;              // per event metadata of the current plane: -1 unknown
    uint32_t cpu_op_like_plane = UINT32_MAX;
    std::optional<CollectiveStatReader> comms_reader;  // of the current plane
    FlatUint64Map launch_op_index;  // metadata index -> index into launch_ops (one host plane at a time)
    std::map<std::pair<std::string_view, std::string_view>, uint32_t> sync_index;  // (call, op) -> sync_waits
    for (uint32_t t = 0; t < out_->threads.size(); ++t) {
      const HostThread& thread = out_->threads[t];
      const HostThreadFacts& facts = out_->facts[t];
      const ColumnarPlane& plane = space_.planes[thread.plane_index];
      uint32_t index = plane.stat_index(xspace::StatType::kCorrelationId);
      const bool scopes = thread_has_op_scopes_[t];
      if (scopes) {
        inner_scope.resize(thread.size());
        inner_op.resize(thread.size());
        if (cpu_op_like_plane != thread.plane_index) {
          cpu_op_like_plane = thread.plane_index;
          cpu_op_like.assign(plane.event_metadata.size(), -1);
          launch_op_index = FlatUint64Map();
          comms_reader.emplace(plane);
          input_type_index = InputTypeStatIndex(plane);
        }
        if (comms_reader->has_any()) inner_comms.resize(thread.size());
      }
      const bool comms = scopes && comms_reader->has_any();
      const bool typed = scopes && input_type_index != xspace::ColumnarPlane::kNoStat;
      if (typed) inner_precision.assign(thread.size(), InputPrecision::kUnknown);
      for (uint32_t i = 0; i < thread.size(); ++i) {
        const uint8_t flags = facts.flags[i];
        uint32_t scope = kNone, op = kNone, message = kNone;
        if (scopes) {
          int32_t parent = thread.parent[i];
          if (parent >= 0) {
            scope = inner_scope[parent];
            op = inner_op[parent];
            if (comms) message = inner_comms[parent];
          }
          // Scopes that say what a collective moved (record_param_comms, nccl:<collective>).
          if (comms && (flags & kIsOpScope)) {
            if (std::optional<CollectiveMessage> m = comms_reader->Read(thread.event(i))) {
              message = static_cast<uint32_t>(out_->collective_messages.size());
              out_->collective_messages.push_back(*m);
            }
          }
          if (comms) inner_comms[i] = message;
          if (typed) {
            InputPrecision precision = parent >= 0 ? inner_precision[parent] : InputPrecision::kUnknown;
            if (flags & kIsOpScope) {
              xspace::ColumnarStat types;
              if (plane.FindEventStat(thread.event(i), input_type_index, &types)) {
                const InputPrecision own = FloatInputPrecision(plane.AsString(types));
                if (own != InputPrecision::kUnknown) precision = own;
              }
            }
            inner_precision[i] = precision;
          }
          if ((flags & kIsOpScope) && !(flags & kIsStepMarker)) {
            scope = i;
            int8_t& like = cpu_op_like[plane.event_metadata_index[thread.event(i)]];
            if (like < 0) like = IsCpuOpLikeName(plane.event_name(thread.event(i))) ? 1 : 0;
            if (like) op = i;
          }
          inner_scope[i] = scope;
          inner_op[i] = op;
        }
        if (!(flags & kHasCorrelation)) continue;
        const int32_t group = facts.group[i];
        const uint32_t launcher = op != kNone ? op : scope;
        AddSyncWait(plane, thread, i, op, &sync_index);
        xspace::ColumnarStat stat;
        if (!plane.FindEventStat(thread.event(i), index, &stat)) continue;
        const uint64_t correlation_id = static_cast<uint64_t>(ColumnarPlane::AsInt64(stat));
        if (group == kNoGroup) {
          out_->correlation_to_group.Add(correlation_id, kLaunchWithoutGroup);
        } else {
          out_->correlation_to_group.Add(correlation_id, (flags & kGroupedByWindow) ? group | kTiedByWindowBit : group);
        }
        if (message != kNone) out_->correlation_to_collective.Add(correlation_id, static_cast<int32_t>(message));
        if (typed && inner_precision[i] == InputPrecision::k16Bit) out_->launches_with_16bit_inputs.Add(correlation_id, 1);
        if (launcher != kNone) {
          const uint32_t metadata = plane.event_metadata_index[thread.event(launcher)];
          uint32_t launch_op = launch_op_index.FindOrInsert(metadata, static_cast<uint32_t>(out_->launch_ops.size()));
          if (launch_op == out_->launch_ops.size()) {
            out_->launch_ops.push_back({plane.event_name(thread.event(launcher)), cpu_op_like[metadata] == 1});
          }
          out_->correlation_to_op.Add(correlation_id, static_cast<int32_t>(launch_op));
        }
      }
    }
    out_->correlation_to_group.Finish();
    out_->correlation_to_op.Finish();
    out_->correlation_to_collective.Finish();
    out_->launches_with_16bit_inputs.Finish();
  }

  // Counts event i of `thread` when it is a blocking runtime call, under the framework op
  // `op` around it (a time-order index on the thread, or UINT32_MAX for none). The names
  // in `index` point into the planes, which outlive the pass.
  void AddSyncWait(const ColumnarPlane& plane, const HostThread& thread, uint32_t i, uint32_t op,
                   std::map<std::pair<std::string_view, std::string_view>, uint32_t>* index) {
    const uint32_t e = thread.event(i);
    const uint32_t metadata = plane.event_metadata_index[e];
    std::vector<int8_t>& is_sync = sync_call_;
    if (sync_call_plane_ != thread.plane_index) {  // threads come plane by plane
      sync_call_plane_ = thread.plane_index;
      is_sync.assign(plane.event_metadata.size(), -1);
    }
    if (is_sync[metadata] < 0) is_sync[metadata] = IsHostSyncCallName(plane.event_name(e)) ? 1 : 0;
    if (is_sync[metadata] == 0) return;
    const std::string_view call = plane.event_name(e);
    const std::string_view op_name = op != UINT32_MAX ? plane.event_name(thread.event(op)) : std::string_view();
    auto [it, inserted] = index->try_emplace({call, op_name}, static_cast<uint32_t>(out_->sync_waits.size()));
    if (inserted) out_->sync_waits.push_back({std::string(call), std::string(op_name)});
    HostSyncWait& wait = out_->sync_waits[it->second];
    const int64_t duration = std::max<int64_t>(plane.duration_ps(e), 0);
    ++wait.count;
    AddTo(wait.total_ps, duration);
    out_->sync_wait_spans.emplace_back(plane.event_start_ps[e], plane.event_start_ps[e] + duration, it->second);
  }

  static uint32_t InputTypeStatIndex(const ColumnarPlane& plane) {
    for (uint32_t i = 0; i < plane.stat_metadata.size(); ++i) {
      if (plane.stat_metadata[i].name == "Input type") return i;
    }
    return xspace::ColumnarPlane::kNoStat;
  }

  const xspace::ColumnarXSpace& space_;
  HostAnalysis* out_;
  std::vector<Root> roots_;
  std::vector<Connection> producers_;
  std::vector<Connection> consumers_;
  bool has_loop_ops_ = false;
  std::map<uint32_t, std::vector<uint32_t>> subtree_ends_;
  std::vector<int8_t> sync_call_;  // per event metadata of sync_call_plane_: a sync call (-1 unknown)
  uint32_t sync_call_plane_ = UINT32_MAX;
  std::vector<bool> thread_has_op_scopes_;  // by thread: any kIsOpScope event
};

}  // namespace

void AnalyzeHost(const xspace::ColumnarXSpace& space, const std::vector<uint32_t>& host_planes, HostAnalysis* out) {
  HostGrouper(space, out).Run(host_planes);
}

}  // namespace stepscope::analysis::internal
