#include "src/analysis/model/tf_data_analysis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "src/analysis/model/sat_math.h"
#include "src/analysis/model/step_summary.h"
#include "src/analysis/model/units.h"

namespace stepscope::analysis {
namespace {

using Events = std::vector<PipelineEvent>;

// "Iterator::Prefetch::Map[0]" -> "Map".
std::string_view DatasetNameOf(std::string_view long_name) {
  size_t colon = long_name.rfind(':');
  std::string_view name = colon == std::string_view::npos ? long_name : long_name.substr(colon + 1);
  size_t bracket = name.find('[');
  return bracket == std::string_view::npos ? name : name.substr(0, bracket);
}

// "Iterator::X" has two parts: a root iterator, one pipeline per root id (XProf).
bool IsRootName(std::string_view long_name) {
  size_t first = long_name.find("::");
  return first != std::string_view::npos && long_name.find("::", first + 2) == std::string_view::npos;
}

std::string FormatUs(int64_t ps) {
  char buffer[32];
  const double us = PsToUs(ps);
  std::snprintf(buffer, sizeof(buffer), us >= 100 ? "%.0f" : "%.1f", us);
  return std::string(buffer) + " µs";
}
std::string FormatPercent(double percent) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.0f%%", percent);
  return buffer;
}

// Producer / consumer link keys: (consumer iterator id, element id) and the event.
struct LinkKey {
  int64_t iterator_id;
  int64_t element_id;
  int32_t event;
  bool operator<(const LinkKey& o) const {
    return std::tie(iterator_id, element_id, event) < std::tie(o.iterator_id, o.element_id, o.event);
  }
  bool SameKey(const LinkKey& o) const { return iterator_id == o.iterator_id && element_id == o.element_id; }
};

// Children of every iterator call, as one CSR array.
struct CallGraph {
  std::vector<uint32_t> begin;  // n + 1
  std::vector<int32_t> children;
};

class Analyzer {
 public:
  explicit Analyzer(const PipelineEvents& input)
      : in_(input), ev_(input.events), n_(static_cast<int32_t>(input.events.size())) {}

  TfDataBottleneckResult Run() {
    CountKinds();
    AssignStages();
    ComputeNearestIterators();
    BuildGraph();
    FindPipelines();
    WalkRootCalls();
    CheckStageParents();
    SummarisePipelines();
    Finish();
    return std::move(r_);
  }

 private:
  bool IsStageCall(int32_t e) const { return e >= 0 && stage_of_[e] >= 0; }

  void CountKinds() {
    for (const PipelineEvent& e : ev_) {
      if (e.kind == PipelineEventKind::kIterator) ++r_.counts.iterator_events;
      if (e.kind == PipelineEventKind::kProduce) ++r_.counts.produce_events;
      if (e.kind == PipelineEventKind::kConsume) ++r_.counts.consume_events;
    }
  }

  // One stage per iterator id; a call without an id is counted and left out, as XProf does.
  void AssignStages() {
    stage_of_.assign(n_, -1);
    std::unordered_map<int64_t, int32_t> by_id;
    by_id.reserve(64);
    for (int32_t i = 0; i < n_; ++i) {
      const PipelineEvent& e = ev_[i];
      if (e.kind != PipelineEventKind::kIterator) continue;
      if (!e.has(PipelineEvent::kHasId)) {
        ++r_.counts.iterators_without_id;
        continue;
      }
      const PipelineIteratorStats& stats = in_.stats_of(e);
      auto [it, inserted] = by_id.try_emplace(stats.id, static_cast<int32_t>(r_.stages.size()));
      if (inserted) {
        PipelineStageStats stage;
        stage.id = stats.id;
        if (e.has(PipelineEvent::kHasParentId)) stage.parent_id = stats.parent_id;
        stage.long_name = in_.names[e.name];
        stage.dataset_name = std::string(DatasetNameOf(stage.long_name));
        stage.kind = BottleneckKindOf(stage.dataset_name);
        r_.stages.push_back(std::move(stage));
        stage_name_.push_back(e.name);
      } else if (stage_name_[it->second] != e.name && in_.names[stage_name_[it->second]] != in_.names[e.name]) {
        ++r_.counts.conflicting_names;
      }
      stage_of_[i] = it->second;
      PipelineStageStats& stage = r_.stages[it->second];
      stage.setting = std::max(stage.setting, stats.setting);
    }
    stage_by_id_ = std::move(by_id);
  }

  // up_[e]: the innermost iterator call (with a stage) enclosing e on its thread.
  void ComputeNearestIterators() {
    up_.assign(n_, -1);
    for (int32_t i = 0; i < n_; ++i) {
      const int32_t enclosing = ev_[i].enclosing;
      if (enclosing < 0 || enclosing >= i) continue;  // malformed order: treated as a root
      up_[i] = IsStageCall(enclosing) ? enclosing : up_[enclosing];
    }
  }

  void BuildGraph() {
    // The first iterator call inside each produce (XProf: the produce's first child iterator).
    std::vector<int32_t> produce_child(n_, -1);
    for (int32_t i = 0; i < n_; ++i) {
      if (!IsStageCall(i)) continue;
      const int32_t enclosing = ev_[i].enclosing;
      if (enclosing >= 0 && enclosing < i && ev_[enclosing].kind == PipelineEventKind::kProduce &&
          produce_child[enclosing] == -1) {
        produce_child[enclosing] = i;
      }
    }
    std::vector<LinkKey> producers, consumers;
    for (int32_t i = 0; i < n_; ++i) {
      const PipelineEvent& e = ev_[i];
      if (e.kind == PipelineEventKind::kProduce) {
        const int32_t child = produce_child[i];
        if (!e.has(PipelineEvent::kHasElementId) || child < 0 || !ev_[child].has(PipelineEvent::kHasParentId)) {
          ++r_.counts.produce_without_element;
          continue;
        }
        producers.push_back({in_.stats_of(ev_[child]).parent_id, e.element_id, child});
      } else if (e.kind == PipelineEventKind::kConsume) {
        const int32_t enclosing = e.enclosing;
        if (enclosing < 0 || enclosing >= i || !IsStageCall(enclosing)) {
          ++r_.counts.consume_outside_iterator;
          continue;
        }
        if (!e.has(PipelineEvent::kHasElementId)) {
          ++r_.counts.consume_without_producer;
          continue;
        }
        consumers.push_back({in_.stats_of(ev_[enclosing]).id, e.element_id, enclosing});
      }
    }
    std::sort(producers.begin(), producers.end());
    std::sort(consumers.begin(), consumers.end());

    // Edges: (parent call, child call). Every producer call is linked at most once (to
    // the first consumer of its element), so there are fewer edges than events.
    std::vector<std::pair<int32_t, int32_t>> links;
    size_t p = 0, c = 0;
    auto key_less = [](const LinkKey& a, const LinkKey& b) {
      return std::tie(a.iterator_id, a.element_id) < std::tie(b.iterator_id, b.element_id);
    };
    while (p < producers.size() || c < consumers.size()) {
      if (p < producers.size() && c < consumers.size() && producers[p].SameKey(consumers[c])) {
        size_t p_end = p, c_end = c;
        while (p_end < producers.size() && producers[p_end].SameKey(producers[p])) ++p_end;
        while (c_end < consumers.size() && consumers[c_end].SameKey(consumers[c])) ++c_end;
        for (size_t k = p; k < p_end; ++k) links.push_back({consumers[c].event, producers[k].event});
        r_.counts.linked_producers += static_cast<int64_t>(p_end - p);
        r_.counts.duplicate_consumes += static_cast<int64_t>(c_end - c - 1);
        p = p_end;
        c = c_end;
      } else if (c == consumers.size() || (p < producers.size() && key_less(producers[p], consumers[c]))) {
        ++r_.counts.produce_unconsumed;
        ++p;
      } else {
        ++r_.counts.consume_without_producer;
        ++c;
      }
    }

    graph_.begin.assign(static_cast<size_t>(n_) + 1, 0);
    auto for_each_edge = [&](auto&& visit) {
      for (int32_t i = 0; i < n_; ++i) {
        if (IsStageCall(i) && up_[i] >= 0) visit(up_[i], i);
      }
      for (const auto& [from, to] : links) visit(from, to);
    };
    for_each_edge([&](int32_t from, int32_t) { ++graph_.begin[from + 1]; });
    for (int32_t i = 0; i < n_; ++i) graph_.begin[i + 1] += graph_.begin[i];
    graph_.children.resize(graph_.begin[n_]);
    std::vector<uint32_t> fill(graph_.begin.begin(), graph_.begin.end() - 1);
    for_each_edge([&](int32_t from, int32_t to) { graph_.children[fill[from]++] = to; });
  }

  // Root calls: calls of "Iterator::X" stages that no other iterator call encloses.
  void FindPipelines() {
    std::vector<int32_t> pipeline_of_stage(r_.stages.size(), -1);
    for (int32_t i = 0; i < n_; ++i) {
      if (!IsStageCall(i) || up_[i] >= 0) continue;
      const int32_t stage = stage_of_[i];
      if (!IsRootName(r_.stages[stage].long_name)) continue;
      if (pipeline_of_stage[stage] == -1) {
        pipeline_of_stage[stage] = static_cast<int32_t>(r_.pipelines.size());
        PipelineStats pipeline;
        pipeline.root_stage = stage;
        r_.pipelines.push_back(pipeline);
        r_.stages[stage].pipeline = pipeline_of_stage[stage];
      }
      root_calls_.push_back(i);
    }
    // Longest first, so the slowest calls claim what they reach (XProf sorts the same way).
    std::sort(root_calls_.begin(), root_calls_.end(), [&](int32_t a, int32_t b) {
      const int64_t da = ev_[a].duration_ps(), db = ev_[b].duration_ps();
      return da != db ? da > db : a < b;
    });
    // The slow set of each pipeline: its slowest kSlowCallSharePercent calls (at least one).
    std::vector<int64_t> calls_per_pipeline(r_.pipelines.size(), 0);
    for (int32_t call : root_calls_) ++calls_per_pipeline[r_.stages[stage_of_[call]].pipeline];
    slow_quota_.resize(r_.pipelines.size());
    for (size_t p = 0; p < r_.pipelines.size(); ++p) {
      slow_quota_[p] = std::max<int64_t>(
          1, static_cast<int64_t>(std::ceil(static_cast<double>(calls_per_pipeline[p]) * kSlowCallSharePercent / 100.0)));
    }
  }

  // Self time of call e: its time minus the union of its children's time inside it.
  int64_t SelfTime(int32_t e, std::vector<std::pair<int64_t, int64_t>>* scratch) const {
    const PipelineEvent& call = ev_[e];
    scratch->clear();
    for (uint32_t k = graph_.begin[e]; k < graph_.begin[e + 1]; ++k) {
      const PipelineEvent& child = ev_[graph_.children[k]];
      const int64_t b = std::max(child.begin_ps, call.begin_ps), end = std::min(child.end_ps, call.end_ps);
      if (end > b) scratch->push_back({b, end});
    }
    std::sort(scratch->begin(), scratch->end());
    int64_t covered = 0, run_begin = 0, run_end = 0;
    bool open = false;
    for (const auto& [b, end] : *scratch) {
      if (open && b <= run_end) {
        run_end = std::max(run_end, end);
        continue;
      }
      if (open) covered += run_end - run_begin;
      run_begin = b;
      run_end = end;
      open = true;
    }
    if (open) covered += run_end - run_begin;
    return std::max<int64_t>(0, call.duration_ps() - covered);
  }

  static int64_t Overlap(const PipelineEvent& a, const PipelineEvent& b) {
    return std::max<int64_t>(0, std::min(a.end_ps, b.end_ps) - std::max(a.begin_ps, b.begin_ps));
  }

  void WalkRootCalls() {
    visited_.assign(n_, 0);
    best_child_.assign(n_, -1);
    best_wait_.assign(n_, 0);
    self_.assign(n_, 0);
    std::vector<int64_t> slow_taken(r_.pipelines.size(), 0);
    std::vector<bool> slowest_done(r_.pipelines.size(), false);
    std::vector<int64_t> call_self(r_.stages.size(), 0);  // per-call scratch, slowest call only
    std::vector<int32_t> touched;
    std::vector<std::pair<int64_t, int64_t>> scratch;
    struct Item {
      int32_t event;
      bool blocking;
    };
    std::vector<Item> stack;
    for (int32_t root : root_calls_) {
      if (visited_[root]) continue;  // reached from a longer call already
      const int pipeline = r_.stages[stage_of_[root]].pipeline;
      PipelineStats& p = r_.pipelines[pipeline];
      const int64_t duration = ev_[root].duration_ps();
      p.min_latency_ps = p.calls == 0 ? duration : std::min(p.min_latency_ps, duration);
      p.max_latency_ps = std::max(p.max_latency_ps, duration);
      AddTo(p.total_latency_ps, duration);
      ++p.calls;
      if (duration > kSlowPipelineCallPs) ++p.slow_calls;
      const bool in_slow_set = slow_taken[pipeline] < slow_quota_[pipeline];
      if (in_slow_set) ++slow_taken[pipeline];
      const bool is_slowest = !slowest_done[pipeline];
      slowest_done[pipeline] = true;
      if (is_slowest) slowest_root_.push_back(root);

      visited_[root] = 1;
      stack.push_back({root, true});
      while (!stack.empty()) {
        const Item item = stack.back();
        stack.pop_back();
        const int32_t e = item.event;
        const int64_t self = SelfTime(e, &scratch);
        self_[e] = self;
        const int32_t s = stage_of_[e];
        PipelineStageStats& stage = r_.stages[s];
        if (stage.pipeline == -1) stage.pipeline = pipeline;
        ++stage.calls;
        // Saturating: hostile files may hold many calls of 2^61 ps.
        AddTo(stage.total_ps, ev_[e].duration_ps());
        AddTo(stage.self_ps, self);
        if (item.blocking) {
          ++stage.blocking_calls;
          AddTo(stage.blocking_self_ps, self);
          if (in_slow_set) AddTo(stage.slow_blocking_self_ps, self);
          if (is_slowest) {
            if (call_self[s] == 0) touched.push_back(s);
            AddTo(call_self[s], SatAdd(self, 1));  // +1: a touched stage with 0 self time stays marked
          }
        }
        for (uint32_t k = graph_.begin[e]; k < graph_.begin[e + 1]; ++k) {
          const int32_t child = graph_.children[k];
          if (visited_[child]) {
            ++r_.counts.revisited_calls;
            continue;
          }
          visited_[child] = 1;
          const int64_t overlap = Overlap(ev_[e], ev_[child]);
          if (overlap > best_wait_[e]) {
            best_wait_[e] = overlap;
            best_child_[e] = child;
          }
          stack.push_back({child, item.blocking && overlap > 0});
        }
      }
      if (is_slowest) {
        int best = -1;
        int64_t best_self = 0;
        for (int32_t s : touched) {
          if (call_self[s] > best_self) {
            best_self = call_self[s];
            best = s;
          }
          call_self[s] = 0;
        }
        touched.clear();
        if (best >= 0) p.slowest_call_bottleneck_stage = best;
      }
    }
    for (int32_t i = 0; i < n_; ++i) {
      if (IsStageCall(i) && !visited_[i]) ++r_.counts.unreached_calls;
    }
  }

  // parent_known, missing parents and cycles of the recorded parent_id links.
  void CheckStageParents() {
    const size_t count = r_.stages.size();
    std::vector<int32_t> parent(count, -1);
    for (size_t s = 0; s < count; ++s) {
      const PipelineStageStats& stage = r_.stages[s];
      if (!stage.parent_id.has_value()) continue;
      auto it = stage_by_id_.find(*stage.parent_id);
      if (it == stage_by_id_.end()) {
        ++r_.counts.missing_parents;
        continue;
      }
      parent[s] = it->second;
    }
    // 0 new, 1 on the current chain, 2 done (acyclic above), 3 on a cycle.
    std::vector<uint8_t> state(count, 0);
    std::vector<int32_t> chain;
    for (size_t start = 0; start < count; ++start) {
      int32_t s = static_cast<int32_t>(start);
      chain.clear();
      while (s >= 0 && state[s] == 0) {
        state[s] = 1;
        chain.push_back(s);
        s = parent[s];
      }
      // Stopped at a stage on this chain: everything from it on is a cycle.
      const bool cycle = s >= 0 && state[s] == 1;
      bool on_cycle = false;
      for (int32_t c : chain) {
        if (cycle && c == s) on_cycle = true;
        state[c] = on_cycle ? 3 : 2;
      }
    }
    for (size_t s = 0; s < count; ++s) {
      if (state[s] == 3) ++r_.counts.parent_cycles;
      r_.stages[s].parent_known = parent[s] >= 0 && state[s] != 3;
    }
  }

  std::string SuggestionFor(const PipelineStats& p, const PipelineStageStats& stage) const {
    const std::string numbers = stage.long_name + " holds " + FormatPercent(p.bottleneck_share_percent) +
                                " of the blocking time in the slowest " + std::to_string(p.analysed_slow_calls) +
                                " call" + (p.analysed_slow_calls == 1 ? "" : "s") + " (" +
                                FormatUs(stage.calls > 0 ? stage.self_ps / stage.calls : 0) + " self time per call, " +
                                std::to_string(stage.calls) + (stage.calls == 1 ? " call)" : " calls)");
    // The stage's own setting (workers, buffer size), when the trace tells it.
    const std::string now = stage.setting > 0 ? " (now " + std::to_string(stage.setting) + ")" : std::string();
    std::string advice;
    switch (stage.kind) {
      case BottleneckKind::kFileSource:
        advice = "read files in parallel (interleave the files with parallel calls, or read shards on several "
                 "threads) and keep the data close to the host";
        break;
      case BottleneckKind::kMemorySource:
        if (p.is_device && stage.dataset_name == "Generator") {
          advice = "the device pipeline waits for the host pipeline that feeds every device (a MultiDeviceIterator): "
                   "speed up that host pipeline or prefetch more on it";
          break;
        }
        advice = "move this work offline: produce the elements ahead of time (a Python generator runs element by "
                 "element under the interpreter lock)";
        break;
      case BottleneckKind::kSequentialMap:
        advice = "parallelise this map (ParallelMap / num_parallel_calls), or cache after this stage if its output "
                 "is deterministic and fits in memory";
        break;
      case BottleneckKind::kParallelMap:
        advice = "give this map more workers" + now +
                 ", cache after this stage if its output is deterministic, or move this work offline";
        break;
      case BottleneckKind::kSequentialTransform:
        advice = "this stage has no parallel form: cache after this stage, move its work offline, or run several "
                 "copies of the pipeline over shards";
        break;
      case BottleneckKind::kPrefetch:
        advice = "enlarge the prefetch buffer" + now + " or speed up the stages it reads from";
        break;
      case BottleneckKind::kCache:
        advice = "the cache is still being filled; later epochs read from memory";
        break;
      case BottleneckKind::kOther:
        advice = "speed up this stage or move its work offline";
        break;
    }
    std::string suggestion = numbers + ": " + advice + ".";
    const PipelineStageStats& root = r_.stages[p.root_stage];
    if (root.kind != BottleneckKind::kPrefetch && stage.kind != BottleneckKind::kPrefetch) {
      suggestion += " The pipeline ends without a prefetch: add one so the next batch is built while the step runs.";
    }
    return suggestion;
  }

  void SummarisePipelines() {
    for (size_t i = 0; i < r_.pipelines.size(); ++i) {
      PipelineStats& p = r_.pipelines[i];
      p.analysed_slow_calls = std::min<int64_t>(slow_quota_[i], p.calls);
      int64_t sum = 0, best = 0;
      for (size_t s = 0; s < r_.stages.size(); ++s) {
        const PipelineStageStats& stage = r_.stages[s];
        if (stage.pipeline != static_cast<int>(i)) continue;
        AddTo(sum, stage.slow_blocking_self_ps);
        if (stage.slow_blocking_self_ps > best) {
          best = stage.slow_blocking_self_ps;
          p.bottleneck_stage = static_cast<int>(s);
        }
      }
      p.bottleneck_share_percent = Percent(static_cast<double>(best), static_cast<double>(sum));
      // Device pipelines: the per-device Prefetch over a Generator that a
      // MultiDeviceIterator runs (XProf marks them by "Iterator::Prefetch::Generator").
      for (const PipelineStageStats& stage : r_.stages) {
        if (stage.pipeline == static_cast<int>(i) && stage.long_name == "Iterator::Prefetch::Generator") {
          p.is_device = true;
        }
      }
      if (p.bottleneck_stage.has_value()) p.suggestion = SuggestionFor(p, r_.stages[*p.bottleneck_stage]);
    }
  }

  // Critical path of the slowest call: from the root, the child it waited on longest.
  void AppendCriticalPath(int pipeline, int32_t root) {
    int depth = 0;
    int64_t wait = ev_[root].duration_ps();
    // Each call is visited once by the walk, so best_child_ links form a tree: the path ends.
    for (int32_t e = root; e >= 0 && depth < 1000; e = best_child_[e], ++depth) {
      CriticalPathStep step;
      step.pipeline = pipeline;
      step.depth = depth;
      step.stage = stage_of_[e];
      step.duration_ps = ev_[e].duration_ps();
      step.self_ps = self_[e];
      step.wait_ps = wait;
      step.thread = ev_[e].thread < in_.threads.size() ? in_.threads[ev_[e].thread] : std::string();
      r_.critical_path.push_back(std::move(step));
      wait = best_wait_[e];
    }
  }

  void Finish() {
    // Pipelines by total latency, descending; names "Host:N" / "Device:N" in that order.
    std::vector<int> order(r_.pipelines.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return r_.pipelines[a].total_latency_ps > r_.pipelines[b].total_latency_ps;
    });
    std::vector<int> new_index(order.size());
    for (size_t i = 0; i < order.size(); ++i) new_index[order[i]] = static_cast<int>(i);
    std::vector<PipelineStats> pipelines;
    int hosts = 0, devices = 0;
    for (int old : order) {
      pipelines.push_back(std::move(r_.pipelines[old]));
      PipelineStats& p = pipelines.back();
      p.name = p.is_device ? "Device:" + std::to_string(devices++) : "Host:" + std::to_string(hosts++);
    }
    // Stages: by pipeline (unreached last), then blocking self time.
    std::vector<int> stage_order(r_.stages.size());
    for (size_t i = 0; i < stage_order.size(); ++i) stage_order[i] = static_cast<int>(i);
    auto pipeline_rank = [&](int s) {
      return r_.stages[s].pipeline < 0 ? static_cast<int>(order.size()) : new_index[r_.stages[s].pipeline];
    };
    std::stable_sort(stage_order.begin(), stage_order.end(), [&](int a, int b) {
      if (pipeline_rank(a) != pipeline_rank(b)) return pipeline_rank(a) < pipeline_rank(b);
      return r_.stages[a].blocking_self_ps > r_.stages[b].blocking_self_ps;
    });
    std::vector<int> new_stage(stage_order.size());
    for (size_t i = 0; i < stage_order.size(); ++i) new_stage[stage_order[i]] = static_cast<int>(i);
    // Critical paths with the old indices, then remap.
    for (size_t old = 0; old < slowest_root_.size(); ++old) {
      const int32_t root = slowest_root_[old];
      AppendCriticalPath(r_.stages[stage_of_[root]].pipeline, root);
    }
    std::vector<PipelineStageStats> stages;
    for (int old : stage_order) {
      stages.push_back(std::move(r_.stages[old]));
      if (stages.back().pipeline >= 0) stages.back().pipeline = new_index[stages.back().pipeline];
    }
    for (PipelineStats& p : pipelines) {
      p.root_stage = new_stage[p.root_stage];
      if (p.bottleneck_stage) p.bottleneck_stage = new_stage[*p.bottleneck_stage];
      if (p.slowest_call_bottleneck_stage) p.slowest_call_bottleneck_stage = new_stage[*p.slowest_call_bottleneck_stage];
    }
    for (CriticalPathStep& step : r_.critical_path) {
      step.pipeline = new_index[step.pipeline];
      step.stage = new_stage[step.stage];
    }
    std::stable_sort(r_.critical_path.begin(), r_.critical_path.end(),
                     [](const CriticalPathStep& a, const CriticalPathStep& b) { return a.pipeline < b.pipeline; });
    r_.pipelines = std::move(pipelines);
    r_.stages = std::move(stages);
    AddDiagnostics();
  }

  void AddDiagnostics() {
    const PipelineEventCounts& c = r_.counts;
    auto add = [&](int64_t count, const std::string& what) {
      if (count > 0) r_.diagnostics.push_back(std::to_string(count) + " " + what);
    };
    add(c.iterators_without_id, "iterator calls carry no id stat and were left out");
    add(c.produce_without_element, "produce events have no element_id or no iterator call inside");
    add(c.produce_unconsumed, "produced elements were consumed after the profile ended (or never)");
    add(c.consume_without_producer, "consumed elements were produced before the profile started (or unrecorded)");
    add(c.consume_outside_iterator, "consume events lie outside any iterator call");
    add(c.duplicate_consumes, "consume events repeat an element id already consumed");
    add(c.revisited_calls, "links lead to calls already walked (cycles or shared producers); each call counted once");
    add(c.parent_cycles, "stages have parent_id links that form a cycle; those links are ignored");
    add(c.missing_parents, "stages name a parent_id that no recorded iterator has");
    add(c.conflicting_names, "iterator calls reuse an id under another name");
    add(c.unreached_calls, "iterator calls are reached from no root call (Iterator::X) and are left out");
  }

  const PipelineEvents& in_;
  const Events& ev_;
  const int32_t n_;
  TfDataBottleneckResult r_;
  std::vector<int32_t> stage_of_;
  std::vector<uint32_t> stage_name_;
  std::unordered_map<int64_t, int32_t> stage_by_id_;
  std::vector<int32_t> up_;
  CallGraph graph_;
  std::vector<int32_t> root_calls_;
  std::vector<int64_t> slow_quota_;
  std::vector<int32_t> slowest_root_;
  std::vector<uint8_t> visited_;
  std::vector<int32_t> best_child_;
  std::vector<int64_t> best_wait_;
  std::vector<int64_t> self_;
};

}  // namespace

std::string_view BottleneckKindName(BottleneckKind kind) {
  switch (kind) {
    case BottleneckKind::kFileSource: return "file_source";
    case BottleneckKind::kMemorySource: return "memory_source";
    case BottleneckKind::kSequentialMap: return "sequential_map";
    case BottleneckKind::kParallelMap: return "parallel_map";
    case BottleneckKind::kSequentialTransform: return "sequential_transform";
    case BottleneckKind::kPrefetch: return "prefetch";
    case BottleneckKind::kCache: return "cache";
    case BottleneckKind::kOther: return "other";
  }
  return "other";
}

BottleneckKind BottleneckKindOf(std::string_view name) {
  // Dataset names as tf.data writes them (the long name's parts), and stepscope's.
  static constexpr std::string_view kFileSources[] = {
      "TFRecord", "TextLine", "FixedLengthRecord", "FixedLengthRecordV2", "SSTable", "RecordIO", "LMDB",
      "Spanner", "TFColumn", "CapacitorProto", "ArrayRecord", "Parquet", "CSV", "SqlDataset", "Files"};
  static constexpr std::string_view kMemorySources[] = {"TensorSlice", "Tensor", "FromTensor", "FromTensors",
                                                        "Range", "Generator", "FlatMap", "Source"};
  static constexpr std::string_view kSequentialMaps[] = {"Map", "Interleave", "FlatMap"};
  static constexpr std::string_view kParallelMaps[] = {"ParallelMap", "ParallelMapV2", "ParallelInterleave",
                                                       "ParallelInterleaveV4", "LegacyParallelInterleave",
                                                       "MapAndBatch", "ParseExample", "ParallelBatch"};
  static constexpr std::string_view kSequentialTransforms[] = {"Batch", "PaddedBatch", "Filter", "Unbatch",
                                                               "Shuffle", "ShuffleAndRepeat", "Repeat", "Take",
                                                               "Skip", "Zip", "Concatenate", "Window", "Rebatch"};
  auto in = [&](const auto& list) { return std::find(std::begin(list), std::end(list), name) != std::end(list); };
  if (in(kFileSources)) return BottleneckKind::kFileSource;
  if (in(kParallelMaps)) return BottleneckKind::kParallelMap;
  if (in(kSequentialMaps)) return BottleneckKind::kSequentialMap;
  if (in(kSequentialTransforms)) return BottleneckKind::kSequentialTransform;
  if (name == "Prefetch") return BottleneckKind::kPrefetch;
  if (name == "Cache" || name == "MemoryCache") return BottleneckKind::kCache;
  if (in(kMemorySources)) return BottleneckKind::kMemorySource;
  return BottleneckKind::kOther;
}

namespace {

std::string Statement(const TfDataBottleneckResult& r) {
  if (r.pipelines.empty()) {
    return r.counts.iterator_events == 0 ? "No input pipeline events (Iterator::...) in this profile."
                                         : "Iterator events were recorded, but no root iterator call (Iterator::X).";
  }
  const PipelineStats& top = r.pipelines[0];
  std::string share = top.step_time_percent.has_value() ? FormatPercent(*top.step_time_percent) + " of the step time"
                                                        : "a slowest call of " + FormatUs(top.max_latency_ps);
  if (!top.iterator_bound) {
    return "Not iterator-bound: the calls of pipeline " + top.name + " (" + r.stages[top.root_stage].long_name +
           ") take " + share + " (average fetch " + FormatUs(top.calls > 0 ? top.total_latency_ps / top.calls : 0) +
           ").";
  }
  std::string text = "Iterator-bound: the calls of pipeline " + top.name + " take " + share;
  if (r.bottleneck_stage.has_value()) {
    const PipelineStageStats& stage = r.stages[*r.bottleneck_stage];
    text += "; the bottleneck is stage " + stage.long_name + " (" + FormatPercent(top.bottleneck_share_percent) +
            " of the blocking time in the slowest calls).";
  } else {
    text += "; no stage stands out.";
  }
  return text;
}

}  // namespace

TfDataBottleneckResult AnalyzePipelineEvents(const PipelineEvents& events) {
  if (events.analysis != nullptr) return *events.analysis;
  return Analyzer(events).Run();
}

void ApplyStepTime(int64_t total_step_time_ps, TfDataBottleneckResult* r) {
  for (PipelineStats& p : r->pipelines) {
    p.step_time_percent.reset();
    if (total_step_time_ps > 0) {
      p.step_time_percent = std::min(100.0, Percent(static_cast<double>(p.total_latency_ps),
                                                    static_cast<double>(total_step_time_ps)));
    }
    p.iterator_bound = p.step_time_percent.has_value() ? *p.step_time_percent >= kModeratelyInputBoundThresholdPercent
                                                       : p.max_latency_ps > kSlowPipelineCallPs;
  }
  r->iterator_bound = !r->pipelines.empty() && r->pipelines[0].iterator_bound;
  r->bottleneck_stage.reset();
  if (r->iterator_bound) r->bottleneck_stage = r->pipelines[0].bottleneck_stage;
  r->statement = Statement(*r);
}

TfDataBottleneckResult AnalyzePipelineEvents(const PipelineEvents& events, int64_t total_step_time_ps) {
  TfDataBottleneckResult r = AnalyzePipelineEvents(events);
  ApplyStepTime(total_step_time_ps, &r);
  return r;
}

namespace {

// Step time of host `host_index` (the whole step time in single-host models).
int64_t TotalStepTimePs(const ProfileModel& model, int host_index) {
  int64_t total = 0;
  for (const StepInfo& step : model.steps) {
    if (step.per_host.empty()) {
      total += step.duration_ps;
      continue;
    }
    if (const HostStep* h = FindHostStep(step, host_index)) total += h->duration_ps;
  }
  return total;
}

// Appends one host's result to `into`, renaming its pipelines "<host> Host:0" when the
// model has several hosts (ids of different processes may collide, so hosts are analysed apart).
void MergeHostResult(TfDataBottleneckResult host, const std::string& prefix, TfDataBottleneckResult* into) {
  const int pipeline_offset = static_cast<int>(into->pipelines.size());
  const int stage_offset = static_cast<int>(into->stages.size());
  for (PipelineStats& p : host.pipelines) {
    p.name = prefix + p.name;
    p.root_stage += stage_offset;
    if (p.bottleneck_stage) *p.bottleneck_stage += stage_offset;
    if (p.slowest_call_bottleneck_stage) *p.slowest_call_bottleneck_stage += stage_offset;
    into->pipelines.push_back(std::move(p));
  }
  for (PipelineStageStats& s : host.stages) {
    if (s.pipeline >= 0) s.pipeline += pipeline_offset;
    into->stages.push_back(std::move(s));
  }
  for (CriticalPathStep& step : host.critical_path) {
    step.pipeline += pipeline_offset;
    step.stage += stage_offset;
    into->critical_path.push_back(std::move(step));
  }
  PipelineEventCounts& c = into->counts;
  const PipelineEventCounts& h = host.counts;
  c.iterator_events += h.iterator_events;
  c.produce_events += h.produce_events;
  c.consume_events += h.consume_events;
  c.linked_producers += h.linked_producers;
  c.iterators_without_id += h.iterators_without_id;
  c.produce_without_element += h.produce_without_element;
  c.produce_unconsumed += h.produce_unconsumed;
  c.consume_without_producer += h.consume_without_producer;
  c.consume_outside_iterator += h.consume_outside_iterator;
  c.duplicate_consumes += h.duplicate_consumes;
  c.revisited_calls += h.revisited_calls;
  c.parent_cycles += h.parent_cycles;
  c.missing_parents += h.missing_parents;
  c.conflicting_names += h.conflicting_names;
  c.unreached_calls += h.unreached_calls;
  for (std::string& d : host.diagnostics) into->diagnostics.push_back(prefix + d);
}

}  // namespace

namespace {

// Sets the step's input wait beside the iterator time: the two are different measures
// of one run, and a reader who sees both must know why they differ.
void AddInputWait(const ProfileModel& model, TfDataBottleneckResult* r) {
  r->step_input_wait_percent = StepsInputPercent(model.steps);
  if (!r->step_input_wait_percent || r->pipelines.empty() || !r->pipelines[0].step_time_percent) return;
  r->statement += " The steps wait for input " + FormatPercent(*r->step_input_wait_percent) +
                  " of their time (the input pipeline analyzer's input share): iterator calls can run while the "
                  "step does other work, so iterator time is not all waiting.";
}

TfDataBottleneckResult ComputeTfDataBottleneckPerHost(const ProfileModel& model) {
  std::vector<TfDataBottleneckResult> per_host;
  ForEachHostPipelineEvents(model, [&](int host, const PipelineEvents& events) {
    per_host.push_back(AnalyzePipelineEvents(events, TotalStepTimePs(model, host)));
  });
  if (per_host.empty()) return AnalyzePipelineEvents({}, 0);
  if (per_host.size() == 1) return std::move(per_host[0]);
  TfDataBottleneckResult merged;
  for (size_t h = 0; h < per_host.size(); ++h) {
    const std::string prefix = (h < model.hostnames.size() ? model.hostnames[h] : "host " + std::to_string(h)) + " ";
    MergeHostResult(std::move(per_host[h]), prefix, &merged);
  }
  // The costliest pipeline of any host decides the verdict.
  std::vector<int> order(merged.pipelines.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return merged.pipelines[a].total_latency_ps > merged.pipelines[b].total_latency_ps;
  });
  if (!order.empty() && order[0] != 0) std::swap(merged.pipelines[0], merged.pipelines[order[0]]);
  for (PipelineStageStats& s : merged.stages) {
    if (!order.empty() && s.pipeline == order[0]) s.pipeline = 0;
    else if (!order.empty() && s.pipeline == 0) s.pipeline = order[0];
  }
  for (CriticalPathStep& step : merged.critical_path) {
    if (!order.empty() && step.pipeline == order[0]) step.pipeline = 0;
    else if (!order.empty() && step.pipeline == 0) step.pipeline = order[0];
  }
  if (!merged.pipelines.empty()) {
    merged.iterator_bound = merged.pipelines[0].iterator_bound;
    if (merged.iterator_bound) merged.bottleneck_stage = merged.pipelines[0].bottleneck_stage;
    merged.statement = merged.pipelines[0].name + ": " +
                       (merged.iterator_bound ? std::string("iterator-bound") : std::string("not iterator-bound")) +
                       (merged.bottleneck_stage ? "; the bottleneck is stage " +
                                                      merged.stages[*merged.bottleneck_stage].long_name
                                                : std::string()) + ".";
  } else {
    merged.statement = "No input pipeline events (Iterator::...) in this profile.";
  }
  return merged;
}

}  // namespace

TfDataBottleneckResult AnalyzeTfDataPipelines(const ProfileModel& model) {
  TfDataBottleneckResult r = ComputeTfDataBottleneckPerHost(model);
  AddInputWait(model, &r);
  return r;
}

}  // namespace stepscope::analysis
