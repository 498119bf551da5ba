#include "src/analysis/model/op_metrics.h"

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>

#include "src/analysis/model/event_tree.h"
#include "src/analysis/model/op_name.h"

#include "src/analysis/model/sat_math.h"

namespace stepscope::analysis::internal {
namespace {

using xspace::ColumnarPlane;

struct Agg {
  int64_t occurrences = 0;
  int64_t total_ps = 0;
  int64_t self_ps = 0;
  int64_t min_ps = INT64_MAX;
  int64_t max_ps = 0;
  bool eager = false;
};

enum class NameKind : int8_t { kUnset = -1, kOp, kSkip, kGetNext, kDataLoaderNext, kPythonFrame };

// True when [begin, end) overlaps a step (steps sorted by begin).
bool OverlapsAStep(const std::vector<StepInfo>& steps, int64_t begin, int64_t end) {
  auto it = std::upper_bound(steps.begin(), steps.end(), std::max(end, begin + 1),
                             [](int64_t t, const StepInfo& s) { return t <= s.begin_ps; });
  // `it` is the first step starting at or after `end`; look at the few before it.
  for (int k = 0; k < 2 && it != steps.begin(); ++k) {
    --it;
    if (it->begin_ps + it->duration_ps > begin) return true;
  }
  return false;
}

// A model of one step: the thread's time is that of the step group's events on it (their
// span, and the span minus their union as idle), not of the whole thread.
void AddSelectedThreadTime(const ColumnarPlane& plane, const HostThread& thread, const HostThreadFacts& facts,
                           const HostAnalysis& host, OpMetricsDb* db) {
  int64_t first = INT64_MAX, last = INT64_MIN, busy = 0, busy_end = INT64_MIN;
  for (uint32_t i = 0; i < thread.size(); ++i) {
    if (!host.Counts(facts.group[i])) continue;
    const uint32_t e = thread.event(i);
    const int64_t begin = plane.event_start_ps[e], end = plane.event_end_ps(e);
    first = std::min(first, begin);
    last = std::max(last, end);
    if (end > busy_end) {  // events are in begin order, so a sweep gives the union
      AddTo(busy, end - std::max(begin, busy_end));
      busy_end = end;
    }
  }
  if (first > last) return;
  AddTo(db->total_time_ps, last - first);
  AddTo(db->idle_time_ps, (last - first) - busy);
}

}  // namespace

HostOpTable BuildHostOpTable(const xspace::ColumnarXSpace& space, const HostAnalysis& host) {
  std::vector<std::vector<Agg>> aggs(space.planes.size());
  std::vector<std::vector<NameKind>> kinds(space.planes.size());
  HostOpTable table;
  OpMetricsDb& db = table.ops;
  InputPipelineFacts& input = table.input;
  for (size_t t = 0; t < host.threads.size(); ++t) {
    const HostThread& thread = host.threads[t];
    const HostThreadFacts& facts = host.facts[t];
    const ColumnarPlane& plane = space.planes[thread.plane_index];
    std::vector<Agg>& agg = aggs[thread.plane_index];
    std::vector<NameKind>& kind = kinds[thread.plane_index];
    if (agg.empty()) {
      agg.resize(plane.event_metadata.size());
      kind.assign(plane.event_metadata.size(), NameKind::kUnset);
    }
    if (host.only_group_id) {
      AddSelectedThreadTime(plane, thread, facts, host, &db);
    } else if (thread.size() > 0) {
      AddTo(db.total_time_ps, thread.last_end_ps - thread.first_begin_ps);
      AddTo(db.idle_time_ps, (thread.last_end_ps - thread.first_begin_ps) - thread.busy_ps);
    }
    // Self times as ComputeSelfTimes computes them, but finished as each subtree closes
    // (events are in pre-order: a parent is on the stack of open ancestors when its
    // children come), so no array over every event of the thread is held. Python frames
    // are transparent, as in key_averages(): an event under frames is a child of the
    // nearest open event that is not one (its `owner`), and a frame takes no time from
    // its parent.
    struct Open {
      uint32_t index;
      uint32_t metadata;  // UINT32_MAX: not counted
      int64_t self_ps;
      int32_t owner;  // index into `open` of the nearest non-frame event at or above; -1: none
    };
    std::vector<Open> open;
    auto close = [&](const Open& o) {
      if (o.metadata != UINT32_MAX) AddTo(agg[o.metadata].self_ps, std::max<int64_t>(o.self_ps, 0));
    };
    for (uint32_t i = 0; i < thread.size(); ++i) {
      const int32_t parent = thread.parent[i];
      while (!open.empty() && static_cast<int32_t>(open.back().index) != parent) {
        close(open.back());
        open.pop_back();
      }
      uint32_t e = thread.event(i);
      uint32_t m = plane.event_metadata_index[e];
      if (kind[m] == NameKind::kUnset) {
        std::string_view name = plane.event_name(e);
        kind[m] = IsMemoryEventName(name)       ? NameKind::kSkip
                  : IsPythonFrameName(name)     ? NameKind::kPythonFrame
                  : IsDataLoaderNextName(name)  ? NameKind::kDataLoaderNext
                  : IsIteratorGetNextName(name) ? NameKind::kGetNext
                                                : NameKind::kOp;
      }
      const bool frame = kind[m] == NameKind::kPythonFrame;
      const int32_t above = open.empty() ? -1 : open.back().owner;
      if (!frame && above >= 0) {
        Open& owner = open[static_cast<size_t>(above)];
        const uint32_t p = thread.event(owner.index);
        const int64_t inside = std::min(plane.event_end_ps(e), plane.event_end_ps(p)) - plane.event_start_ps[e];
        if (inside > 0) owner.self_ps -= inside;
      }
      open.push_back({i, UINT32_MAX, plane.duration_ps(e), frame ? above : static_cast<int32_t>(open.size())});
      if (facts.flags[i] & kIsStepMarker || (host.only_group_id && !host.Counts(facts.group[i]))) continue;
      if (kind[m] == NameKind::kSkip || frame) continue;
      const int64_t duration = plane.duration_ps(e);
      if (kind[m] == NameKind::kGetNext || kind[m] == NameKind::kDataLoaderNext) {
        ++input.get_next_count;
        if (kind[m] == NameKind::kDataLoaderNext) ++input.data_loader_next_count;
        table.fetch_spans.emplace_back(plane.event_start_ps[e], plane.event_start_ps[e] + duration);
      }
      Agg& a = agg[m];
      ++a.occurrences;
      AddTo(a.total_ps, duration);
      open.back().metadata = m;  // its self time is added when its subtree closes
      a.min_ps = std::min(a.min_ps, duration);
      a.max_ps = std::max(a.max_ps, duration);
      a.eager = a.eager || (facts.flags[i] & kIsEager);
    }
    for (const Open& o : open) close(o);
  }

  std::unordered_map<std::string, size_t> by_name;
  for (size_t p = 0; p < aggs.size(); ++p) {
    for (size_t m = 0; m < aggs[p].size(); ++m) {
      const Agg& a = aggs[p][m];
      if (a.occurrences == 0) continue;
      ParsedOpName parsed = ParseOpName(space.planes[p].event_metadata[m].name);
      auto [it, inserted] = by_name.try_emplace(std::string(parsed.name), db.ops.size());
      if (inserted) {
        OpMetrics& op = db.ops.emplace_back();
        op.name = std::string(parsed.name);
        op.type = std::string(parsed.type);
        op.category = parsed.category;
        op.is_host = true;
        op.min_time_ps = INT64_MAX;
      }
      OpMetrics& op = db.ops[it->second];
      op.occurrences += a.occurrences;
      AddTo(op.total_time_ps, a.total_ps);
      AddTo(op.self_time_ps, a.self_ps);
      op.min_time_ps = std::min(op.min_time_ps, a.min_ps);
      op.max_time_ps = std::max(op.max_time_ps, a.max_ps);
      op.is_eager = op.is_eager || a.eager;
      AddTo(db.total_self_time_ps, a.self_ps);
    }
  }
  std::sort(db.ops.begin(), db.ops.end(), [](const OpMetrics& a, const OpMetrics& b) {
    return a.self_time_ps != b.self_time_ps ? a.self_time_ps > b.self_time_ps : a.name < b.name;
  });

  for (const OpMetrics& op : db.ops) {
    const std::optional<InputOpCategory> category = HostInputOpCategory(op.category, op.name);
    if (!category) continue;
    InputOp& in = input.ops.emplace_back();
    in.name = op.name;
    in.type = op.type;
    in.category = *category;
    in.occurrences = op.occurrences;
    in.total_time_ps = op.total_time_ps;
    in.self_time_ps = op.self_time_ps;
    AddTo(input.category_self_time_ps[static_cast<int>(in.category)], op.self_time_ps);
    if (op.category == OpCategory::kTfData) input.uses_tf_data = true;
  }
  return table;
}

void AddHostOpTable(HostOpTable table, ProfileModel* model) {
  model->host_ops = std::move(table.ops);
  std::vector<DeviceInputCopy> device_copies = std::move(model->input_pipeline.device_copies);
  model->input_pipeline = std::move(table.input);
  model->input_pipeline.device_copies = std::move(device_copies);
  if (model->steps.empty() || model->step_source != "step_markers") return;
  for (const auto& [begin, end] : table.fetch_spans) {
    if (!OverlapsAStep(model->steps, begin, end)) ++model->input_pipeline.get_next_outside_steps;
  }
}

}  // namespace stepscope::analysis::internal
