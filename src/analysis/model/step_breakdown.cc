#include "src/analysis/model/step_breakdown.h"

#include <algorithm>
#include <array>
#include <bit>
#include <string>
#include <utility>

#include "src/analysis/model/op_name.h"

namespace stepscope::analysis::internal {
namespace {

using xspace::ColumnarPlane;

// Drop the first and last step in sampling mode only when more than this many remain
// (XProf maybe_drop_incomplete_steps).
constexpr size_t kMinStepsToDropIncomplete = 5;

// Name-only part of the host classification, cached per event metadata.
enum class HostNameClass : int8_t {
  kUnset = -1,
  kSkip,          // not real compute, or a memory instant
  kToDevice,
  kHostToHost,
  kExecutor,      // kHostPrepare with a device, else compute
  kCompile,
  kWaitInput,
  kCompute,
};

HostNameClass ClassifyHostName(std::string_view name) {
  if (IsNotRealComputeName(name) || IsMemoryEventName(name)) return HostNameClass::kSkip;
  ParsedOpName op = ParseOpName(name);
  if (op.category == OpCategory::kMemcpyHToD || op.category == OpCategory::kInfeed) return HostNameClass::kToDevice;
  if (op.category == OpCategory::kMemcpyHToH) return HostNameClass::kHostToHost;
  if (IsExecutorProcessName(name)) return HostNameClass::kExecutor;
  if (IsCompileName(name)) return HostNameClass::kCompile;
  if (IsIteratorGetNextName(name)) return HostNameClass::kWaitInput;
  return HostNameClass::kCompute;
}

struct GroupMarkers {
  const StepMarker* host = nullptr;    // longest host marker
  const StepMarker* device = nullptr;  // longest device marker
  const StepMarker* numbered = nullptr;  // first marker with a step number
  const StepMarker* named = nullptr;     // first marker with a step_name
};

class StepBuilder {
 public:
  StepBuilder(const xspace::ColumnarXSpace& space, const ModelOptions& options, bool has_device, HostAnalysis* host,
              DeviceAnalysis* device, ProfileModel* model)
      : space_(space), options_(options), has_device_(has_device), host_(host), device_(device), model_(model) {}

  void Run() {
    MakeSteps();
    if (model_->steps.empty()) return;
    AddHostSpans();
    Sweep();
  }

 private:
  void MakeSteps() {
    const int32_t num_groups = host_->groups.size();
    std::vector<GroupMarkers> markers(num_groups);
    auto consider = [&](const StepMarker& m) {
      GroupMarkers& g = markers[m.group];
      const StepMarker*& longest = m.on_device ? g.device : g.host;
      if (longest == nullptr || m.duration_ps > longest->duration_ps) longest = &m;
      if (m.has_step_number && g.numbered == nullptr) g.numbered = &m;
      if (!m.step_name.empty() && g.named == nullptr) g.named = &m;
    };
    for (const StepMarker& m : host_->markers) consider(m);
    for (const StepMarker& m : device_->markers) consider(m);

    std::vector<bool>& on_device = device_->group_on_device;
    on_device.resize(num_groups);
    require_device_ = has_device_ && std::find(on_device.begin(), on_device.end(), true) != on_device.end();
    if (has_device_ && !require_device_ && !host_->markers.empty()) {
      model_->diagnostics.push_back(
          "no device activity could be tied to a step (device events carry neither group_id nor a correlation_id "
          "of a host launch): steps use host time only");
    }

    int64_t without_device = 0;
    std::string first_without_device;
    for (int32_t g = 0; g < num_groups; ++g) {
      const GroupMarkers& m = markers[g];
      if (m.host == nullptr && m.device == nullptr) continue;
      if (require_device_ && !on_device[g]) {
        // As XProf: with a device, a step is device work; a host-only marker (typically
        // the stub step a profiler stops in) is not a step. Said, never silent.
        if (++without_device == 1) {
          const StepMarker& marker = m.host != nullptr ? *m.host : *m.device;
          first_without_device = marker.name;
          if (marker.has_step_number) first_without_device += " #" + std::to_string(marker.step_number);
        }
        continue;
      }
      StepInfo step;
      step.group_id = host_->groups.id(g);
      step.has_device_activity = on_device[g];
      const StepMarker* chosen = m.host;
      step.time_source = StepTimeSource::kHostMarker;
      if (m.device != nullptr) {
        bool includes = m.host != nullptr && m.host->begin_ps <= m.device->begin_ps &&
                        m.device->begin_ps + m.device->duration_ps <= m.host->begin_ps + m.host->duration_ps;
        if (!includes) {
          chosen = m.device;
          step.time_source = StepTimeSource::kDeviceMarker;
        }
      }
      step.begin_ps = chosen->begin_ps;
      step.duration_ps = std::max<int64_t>(chosen->duration_ps, 0);
      step.step_number = m.numbered != nullptr ? m.numbered->step_number : step.group_id;
      if (m.named != nullptr) {
        step.name = m.named->step_name;
      } else {
        const StepMarker* base = m.host != nullptr ? m.host : m.device;
        step.name = base->name + " " + std::to_string(step.step_number);
      }
      model_->steps.push_back(std::move(step));
    }
    if (without_device > 0) {
      model_->diagnostics.push_back(std::to_string(without_device) + " step marker" + (without_device > 1 ? "s" : "") +
                                    " without device activity (e.g. '" + first_without_device +
                                    "') not counted as steps: on a device profile a step is the device work it "
                                    "launches");
    }
    std::sort(model_->steps.begin(), model_->steps.end(), [](const StepInfo& a, const StepInfo& b) {
      return a.begin_ps != b.begin_ps ? a.begin_ps < b.begin_ps : a.group_id < b.group_id;
    });
    if (options_.drop_incomplete_steps && model_->steps.size() > kMinStepsToDropIncomplete) {
      model_->steps.erase(model_->steps.begin());
      model_->steps.pop_back();
    }
    step_of_group_.assign(num_groups, -1);
    for (size_t s = 0; s < model_->steps.size(); ++s) {
      step_of_group_[host_->groups.Find(model_->steps[s].group_id)] = static_cast<int32_t>(s);
    }
  }

  void AddHostSpans() {
    std::vector<std::vector<HostNameClass>> name_class(space_.planes.size());
    std::vector<int8_t> effective;  // highest type emitted by an event or its same-group ancestors
    for (size_t t = 0; t < host_->threads.size(); ++t) {
      const HostThread& thread = host_->threads[t];
      HostThreadFacts& facts = host_->facts[t];
      const ColumnarPlane& plane = space_.planes[thread.plane_index];
      std::vector<HostNameClass>& classes = name_class[thread.plane_index];
      if (classes.empty()) classes.assign(plane.event_metadata.size(), HostNameClass::kUnset);
      effective.assign(thread.size(), -1);
      device_->span_run_starts.push_back(static_cast<uint32_t>(device_->spans.size()));
      for (uint32_t i = 0; i < thread.size(); ++i) {
        const int32_t group = facts.group[i];
        const int32_t parent = thread.parent[i];
        const uint32_t e = thread.event(i);
        int8_t covered = -1;
        if (parent >= 0 && facts.group[parent] == group) {
          uint32_t p = thread.event(parent);
          if (plane.event_end_ps(e) <= plane.event_end_ps(p)) covered = effective[parent];
        }
        effective[i] = covered;
        if (group == kNoGroup || step_of_group_[group] < 0 || (facts.flags[i] & kIsStepMarker)) continue;
        uint32_t metadata = plane.event_metadata_index[e];
        if (classes[metadata] == HostNameClass::kUnset) classes[metadata] = ClassifyHostName(plane.event_name(e));
        EventType type;
        switch (classes[metadata]) {
          case HostNameClass::kSkip: continue;
          case HostNameClass::kToDevice: type = EventType::kHostToDevice; break;
          case HostNameClass::kHostToHost: type = EventType::kHostToHost; break;
          default: {
            HostNameClass c = classes[metadata];
            if (has_device_ && ((facts.flags[i] & kHasCorrelation) || c == HostNameClass::kExecutor)) {
              type = EventType::kHostPrepare;
            } else if (c == HostNameClass::kCompile) {
              type = EventType::kHostCompile;
            } else if (c == HostNameClass::kWaitInput || (facts.flags[i] & kIsInputStage)) {
              type = EventType::kHostWaitInput;
            } else {
              type = EventType::kHostCompute;
            }
          }
        }
        if (static_cast<int8_t>(type) <= covered) continue;
        effective[i] = static_cast<int8_t>(type);
        if (group >= static_cast<int32_t>(StepSpan::kMaxGroups) ||
            !device_->spans.push_back(StepSpan(group, type, index_space_.Global(thread.plane_index, e)))) {
          model_->diagnostics.push_back("out of memory (or over 2^27 step groups) while building the step breakdown");
          return;
        }
      }
      // Nothing reads a thread's groups after its spans (but the host op table of a one-step
      // model): give the memory back while the spans grow (the model's peak is here).
      if (!host_->only_group_id) std::vector<int32_t>().swap(facts.group);
    }
  }

  // Which step a span counts for, or -1.
  int32_t StepOf(const StepSpan& span) const { return step_of_group_[span.group()]; }

  // True when, along every run, the spans' steps never go back (skipping spans of no
  // step). Then each step's spans are one contiguous, time-ordered chunk per run - the
  // common case, since a thread or stream works through the steps in order.
  bool RunsAreStepMonotone(const std::vector<uint32_t>& runs) const {
    const xspace::PodArray<StepSpan>& spans = device_->spans;
    for (size_t r = 0; r + 1 < runs.size(); ++r) {
      int32_t last = -1;
      for (uint32_t k = runs[r]; k < runs[r + 1]; ++k) {
        int32_t s = StepOf(spans[k]);
        if (s < 0) continue;
        if (s < last) return false;
        last = s;
      }
    }
    return true;
  }

  // Fallback for spans whose runs are not step-monotone: bucket by step in place
  // (American flag sort), then each step's bucket is sorted by time. Rewrites `runs` to
  // one run per step bucket.
  void BucketByStep(std::vector<uint32_t>* runs) {
    const size_t num_steps = model_->steps.size();
    xspace::PodArray<StepSpan>& spans = device_->spans;
    auto bucket_of = [&](const StepSpan& span) {
      int32_t s = StepOf(span);
      return s >= 0 ? static_cast<size_t>(s) : num_steps;
    };
    std::vector<uint32_t> bucket_begin(num_steps + 2, 0);
    for (const StepSpan& span : spans) ++bucket_begin[bucket_of(span) + 1];
    for (size_t b = 0; b <= num_steps; ++b) bucket_begin[b + 1] += bucket_begin[b];
    std::vector<uint32_t> next(bucket_begin.begin(), bucket_begin.end() - 1);
    for (size_t b = 0; b <= num_steps; ++b) {
      while (next[b] < bucket_begin[b + 1]) {
        size_t target = bucket_of(spans[next[b]]);
        if (target == b) {
          ++next[b];
        } else {
          std::swap(spans[next[b]], spans[next[target]++]);
        }
      }
    }
    for (size_t b = 0; b < num_steps; ++b) {
      std::sort(spans.begin() + bucket_begin[b], spans.begin() + bucket_begin[b + 1],
                [&](const StepSpan& x, const StepSpan& y) { return BeginOf(x) < BeginOf(y); });
    }
    bucket_begin.pop_back();  // keep the "no step" bucket's start as the last run end
    *runs = std::move(bucket_begin);
  }

  int64_t BeginOf(const StepSpan& span) const {
    auto [plane, event] = index_space_.Local(span.global_event());
    return space_.planes[plane].event_start_ps[event];
  }

  struct Interval {
    int64_t begin;
    int64_t end;
    uint8_t type;
  };

  // Merges the chunks of `a` (each sorted by begin; `starts` holds their first indices and
  // then a.size()) into one sorted sequence, merging neighbours pass by pass and
  // alternating between `a` and `b`. Returns the buffer that holds the result.
  static std::vector<Interval>* MergeChunks(std::vector<Interval>* a, std::vector<Interval>* b,
                                            std::vector<uint32_t>* starts, std::vector<uint32_t>* next) {
    auto by_begin = [](const Interval& x, const Interval& y) { return x.begin < y.begin; };
    while (starts->size() > 2) {
      b->resize(a->size());
      next->clear();
      const std::vector<uint32_t>& s = *starts;
      for (size_t c = 0; c + 1 < s.size(); c += 2) {
        next->push_back(s[c]);
        const uint32_t mid = s[c + 1], end = c + 2 < s.size() ? s[c + 2] : mid;
        std::merge(a->begin() + s[c], a->begin() + mid, a->begin() + mid, a->begin() + end, b->begin() + s[c],
                   by_begin);
      }
      next->push_back(s.back());
      std::swap(*starts, *next);
      std::swap(a, b);
    }
    return a;
  }

  void Sweep() {
    const size_t num_steps = model_->steps.size();
    xspace::PodArray<StepSpan>& spans = device_->spans;
    std::vector<uint32_t> runs = device_->span_run_starts;
    runs.push_back(static_cast<uint32_t>(spans.size()));
    const bool run_per_step = !RunsAreStepMonotone(runs);
    if (run_per_step) BucketByStep(&runs);  // then run s holds exactly step s's spans
    std::vector<uint32_t> cursor(runs.begin(), runs.end() - 1);

    std::vector<Interval> intervals, merged;
    std::vector<uint32_t> chunk_starts, next_starts;
    for (size_t s = 0; s < num_steps; ++s) {
      StepInfo& step = model_->steps[s];
      const int64_t window_begin = step.begin_ps, window_end = step.begin_ps + step.duration_ps;
      // This step's chunk of every run (each in time order), clipped to the step.
      intervals.clear();
      chunk_starts.clear();
      const size_t first_run = run_per_step ? s : 0;
      const size_t last_run = run_per_step ? s + 1 : runs.size() - 1;
      for (size_t r = first_run; r < last_run; ++r) {
        uint32_t& k = cursor[r];
        const uint32_t end_k = runs[r + 1];
        size_t before = intervals.size();
        for (; k < end_k; ++k) {
          const StepSpan& span = spans[k];
          int32_t span_step = StepOf(span);
          if (span_step > static_cast<int32_t>(s)) break;
          if (span_step < static_cast<int32_t>(s)) continue;  // no step
          auto [plane_index, event] = index_space_.Local(span.global_event());
          const ColumnarPlane& plane = space_.planes[plane_index];
          int64_t begin = std::max(plane.event_start_ps[event], window_begin);
          int64_t end = std::min(plane.event_end_ps(event), window_end);
          if (end > begin) intervals.push_back({begin, end, span.type()});
        }
        if (intervals.size() > before) chunk_starts.push_back(static_cast<uint32_t>(before));
      }
      // Merge of the chunks by begin (a run is in time order; clipping keeps it so):
      // pairwise passes, cheaper than a heap for the few chunks a step has.
      std::vector<Interval>* ordered = &intervals;
      if (chunk_starts.size() > 1) {
        chunk_starts.push_back(static_cast<uint32_t>(intervals.size()));
        ordered = MergeChunks(&intervals, &merged, &chunk_starts, &next_starts);
      }
      // Sweep in begin order. Per type, the union of its intervals so far ends at
      // open_end[type]; `open` has a bit per type whose union may still reach past `now`
      // (cleared lazily, when it is the highest). Each stretch of time goes to the
      // highest type whose union covers it, or to unknown.
      std::array<int64_t, kNumEventTypes> open_end{};
      uint32_t open = 0;
      int64_t now = window_begin;
      StepBreakdown& out = step.breakdown;
      auto advance = [&](int64_t to) {
        while (now < to) {
          int type = static_cast<int>(EventType::kUnknownTime);
          int64_t until = to;
          while (open != 0) {
            const int top = 31 - std::countl_zero(open);
            if (open_end[top] > now) {
              type = top;
              until = std::min(to, open_end[top]);
              break;
            }
            open &= ~(1u << top);
          }
          out.type_ps[type] += until - now;
          now = until;
        }
      };
      for (const Interval& interval : *ordered) {
        advance(interval.begin);
        const uint32_t bit = 1u << interval.type;
        open_end[interval.type] = (open & bit) ? std::max(open_end[interval.type], interval.end) : interval.end;
        open |= bit;
      }
      advance(window_end);
    }
    spans = xspace::PodArray<StepSpan>();  // release
  }

  const xspace::ColumnarXSpace& space_;
  const ModelOptions& options_;
  const bool has_device_;
  HostAnalysis* host_;
  DeviceAnalysis* device_;
  ProfileModel* model_;
  EventIndexSpace index_space_{space_};
  bool require_device_ = false;
  std::vector<int32_t> step_of_group_;
};

}  // namespace

void BuildSteps(const xspace::ColumnarXSpace& space, const ModelOptions& options, bool has_device, HostAnalysis* host,
                DeviceAnalysis* device, ProfileModel* model) {
  StepBuilder(space, options, has_device, host, device, model).Run();
}

}  // namespace stepscope::analysis::internal
