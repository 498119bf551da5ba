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

// The device's cadence is the step time when it is this much slower than the host's
// (per mille): the device then falls further behind every step (a queue that is still
// filling), and the host's step starts no longer say when the work of a step is done.
constexpr int64_t kDeviceBoundPerMille = 1020;

struct GroupMarkers {
  const StepMarker* host = nullptr;    // longest host marker
  const StepMarker* device = nullptr;  // longest device marker
  int64_t host_begin_ps = INT64_MAX;   // first host marker's begin (markers on several threads)
  int64_t host_end_ps = INT64_MIN;     // last host marker's end
  int64_t device_end_ps = -1;          // end of the group's last device marker
  const StepMarker* numbered = nullptr;  // first marker with a step number
  const StepMarker* named = nullptr;     // first marker with a step_name
};

std::vector<bool> HostPlanes(const xspace::ColumnarXSpace& space, const HostAnalysis& host) {
  std::vector<bool> is_host(space.planes.size(), false);
  for (const HostThread& thread : host.threads) is_host[thread.plane_index] = true;
  return is_host;
}

class StepBuilder {
 public:
  StepBuilder(const xspace::ColumnarXSpace& space, const ModelOptions& options, bool has_device, HostAnalysis* host,
              DeviceAnalysis* device, ProfileModel* model)
      : space_(space), options_(options), has_device_(has_device), host_(host), device_(device), model_(model) {}

  void Run() {
    MakeSteps();
    if (model_->steps.empty()) return;
    AddHostSpans();
    if (windows_) {
      SweepWindows();
    } else {
      Sweep();
    }
  }

 private:
  void MakeSteps() {
    const int32_t num_groups = host_->groups.size();
    std::vector<GroupMarkers> markers(num_groups);
    auto consider = [&](const StepMarker& m) {
      GroupMarkers& g = markers[m.group];
      const StepMarker*& longest = m.on_device ? g.device : g.host;
      if (longest == nullptr || m.duration_ps > longest->duration_ps) longest = &m;
      const int64_t end = m.begin_ps + std::max<int64_t>(m.duration_ps, 0);
      if (m.on_device) {
        g.device_end_ps = std::max(g.device_end_ps, end);
      } else {
        g.host_begin_ps = std::min(g.host_begin_ps, m.begin_ps);
        g.host_end_ps = std::max(g.host_end_ps, end);
      }
      if (m.has_step_number && g.numbered == nullptr) g.numbered = &m;
      if (!m.step_name.empty() && g.named == nullptr) g.named = &m;
    };
    for (const StepMarker& m : host_->markers) consider(m);
    for (const StepMarker& m : device_->markers) consider(m);
    for (size_t g = 0; g < device_->group_device_end.size() && g < markers.size(); ++g) {
      markers[g].device_end_ps = std::max(markers[g].device_end_ps, device_->group_device_end[g]);
    }

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
      if (m.host != nullptr) {
        step.host_begin_ps = m.host_begin_ps;
        step.host_end_ps = m.host_end_ps;
      }
      step.device_end_ps = m.device_end_ps;
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
    if (host_->step_source == "step_markers") MakeWindows(markers);
    if (options_.drop_incomplete_steps && model_->steps.size() > kMinStepsToDropIncomplete) {
      model_->steps.erase(model_->steps.begin());
      model_->steps.pop_back();
    }
    step_of_group_.assign(num_groups, -1);
    for (size_t s = 0; s < model_->steps.size(); ++s) {
      step_of_group_[host_->groups.Find(model_->steps[s].group_id)] = static_cast<int32_t>(s);
    }
  }

  // Steps from step markers are the program's iterations, windows that partition time
  // (docs/model.md "Steps"): a step lasts from its host start to the next step's start
  // (the next host marker of any group, a marker that is not a step included), the last
  // one to the later of its host end and the end of its device work. Where the device's
  // cadence is the slower one, the windows follow the device's completions instead.
  // TensorFlow's grouped files keep XProf's rule: their host step waits for its device
  // work, and their groups, not time, say what belongs to a step. So do nested markers.
  void MakeWindows(const std::vector<GroupMarkers>& markers) {
    std::vector<StepInfo>& steps = model_->steps;
    for (const StepInfo& step : steps) {
      if (markers[host_->groups.Find(step.group_id)].host == nullptr) return;  // a step without a host marker
    }
    for (size_t i = 0; i + 1 < steps.size(); ++i) {
      // Nested step markers (an epoch around its steps) are no sequence of iterations.
      if (steps[i].host_end_ps > steps[i + 1].host_end_ps) return;
    }
    std::vector<int64_t> starts;  // every host marker's start, steps or not
    for (const GroupMarkers& m : markers) {
      if (m.host != nullptr) starts.push_back(m.host_begin_ps);
    }
    std::sort(starts.begin(), starts.end());
    windows_ = true;
    const size_t n = steps.size();
    std::vector<int64_t> end(n);
    for (size_t i = 0; i < n; ++i) {
      const StepInfo& step = steps[i];
      auto next = std::upper_bound(starts.begin(), starts.end(), step.host_begin_ps);
      if (i + 1 < n) {
        end[i] = std::min(steps[i + 1].host_begin_ps, next != starts.end() ? *next : INT64_MAX);
      } else {
        end[i] = next != starts.end() ? *next : std::max(step.host_end_ps, step.device_end_ps);
      }
    }
    MeasureCadence();
    if (model_->step_cadence.device_bound) {
      // Each step ends where its device work ends (the ends grow: the device runs in order).
      for (size_t i = 0; i < n; ++i) end[i] = std::max(steps[i].device_end_ps, i > 0 ? end[i - 1] : steps[0].host_begin_ps);
      end[n - 1] = std::max(end[n - 1], steps[n - 1].host_end_ps);
    }
    for (size_t i = 0; i < n; ++i) {
      StepInfo& step = steps[i];
      step.begin_ps = i > 0 && model_->step_cadence.device_bound ? end[i - 1] : step.host_begin_ps;
      step.duration_ps = std::max<int64_t>(end[i] - step.begin_ps, 0);
      step.time_source = model_->step_cadence.device_bound ? StepTimeSource::kDeviceCompletions : StepTimeSource::kStepStarts;
    }
  }

  // The host's and the device's mean step intervals over the steps that launched device
  // work (from the first such step's end to the last one's, on each side), and the
  // device's lag behind the host.
  void MeasureCadence() {
    StepCadence& cadence = model_->step_cadence;
    const StepInfo* first = nullptr;
    const StepInfo* last = nullptr;
    int64_t lag_sum = 0, with_device = 0;
    bool all_have_device = true;
    for (const StepInfo& step : model_->steps) {
      if (step.device_end_ps < 0) {
        all_have_device = false;
        continue;
      }
      if (first == nullptr) first = &step;
      last = &step;
      ++with_device;
      lag_sum += step.device_lag_ps();
      cadence.max_device_lag_ps = std::max(cadence.max_device_lag_ps, step.device_lag_ps());
    }
    if (with_device == 0) return;
    cadence.steps = with_device;
    cadence.mean_device_lag_ps = lag_sum / with_device;
    if (with_device < 2) return;  // one step has a lag but no cadence
    // Host ends, not starts: the difference of the two cadences is then exactly how much
    // the lag grows per step (with back-to-back markers, a host end is the next start).
    cadence.host_interval_ps = (last->host_end_ps - first->host_end_ps) / (with_device - 1);
    cadence.device_interval_ps = (last->device_end_ps - first->device_end_ps) / (with_device - 1);
    cadence.device_bound = all_have_device && cadence.host_interval_ps > 0 &&
                           cadence.device_interval_ps * 1000 > cadence.host_interval_ps * kDeviceBoundPerMille;
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
        if (group >= StepSpan::kUntiedGroup ||
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

  // Which step a span counts for (the step that launched it), or -1.
  int32_t StepOf(const StepSpan& span) const {
    return span.group() == StepSpan::kUntiedGroup ? -1 : step_of_group_[span.group()];
  }

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
    int32_t launched_by;  // the step whose group the event is in, -1 for none
    uint8_t type;
    bool on_device;
  };

  Interval MakeInterval(const StepSpan& span, int64_t window_begin, int64_t window_end) const {
    auto [plane_index, event] = index_space_.Local(span.global_event());
    const ColumnarPlane& plane = space_.planes[plane_index];
    return {std::max(plane.event_start_ps[event], window_begin), std::min(plane.event_end_ps(event), window_end),
            StepOf(span), span.type(), !host_plane_[plane_index]};
  }

  // The device work each step launched: its busy time (union over streams and devices),
  // from intervals that come in begin order.
  void CountLaunchedWork(const Interval& interval) {
    if (!interval.on_device || interval.launched_by < 0 || interval.end <= interval.begin) return;
    int64_t& covered = launched_end_[interval.launched_by];
    if (interval.end <= covered) return;
    model_->steps[interval.launched_by].device_busy_ps += interval.end - std::max(interval.begin, covered);
    covered = interval.end;
  }

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

  // The first span of every run, then the end of the last one.
  std::vector<uint32_t> RunBounds() const {
    std::vector<uint32_t> runs = device_->span_run_starts;
    runs.push_back(static_cast<uint32_t>(device_->spans.size()));
    return runs;
  }

  // `intervals` in begin order: its chunks (each sorted; `chunk_starts` their first
  // indices) merged, in `merged` or in place.
  static std::vector<Interval>* InBeginOrder(std::vector<Interval>* intervals, std::vector<Interval>* merged,
                                             std::vector<uint32_t>* chunk_starts, std::vector<uint32_t>* next_starts) {
    if (chunk_starts->size() <= 1) return intervals;
    chunk_starts->push_back(static_cast<uint32_t>(intervals->size()));
    return MergeChunks(intervals, merged, chunk_starts, next_starts);
  }

  void Sweep() {
    const size_t num_steps = model_->steps.size();
    xspace::PodArray<StepSpan>& spans = device_->spans;
    std::vector<uint32_t> runs = RunBounds();
    const bool run_per_step = !RunsAreStepMonotone(runs);
    if (run_per_step) BucketByStep(&runs);  // then run s holds exactly step s's spans
    std::vector<uint32_t> cursor(runs.begin(), runs.end() - 1);

    launched_end_.assign(num_steps, INT64_MIN);
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
          Interval interval = MakeInterval(span, window_begin, window_end);
          if (interval.end > interval.begin) intervals.push_back(interval);
        }
        if (intervals.size() > before) chunk_starts.push_back(static_cast<uint32_t>(before));
      }
      // Merge of the chunks by begin (a run is in time order; clipping keeps it so):
      // pairwise passes, cheaper than a heap for the few chunks a step has.
      std::vector<Interval>* ordered = InBeginOrder(&intervals, &merged, &chunk_starts, &next_starts);
      TypeSweep sweep(window_begin);
      for (const Interval& interval : *ordered) {
        sweep.Advance(interval.begin, &step.breakdown);
        sweep.Open(interval);
        CountLaunchedWork(interval);
      }
      sweep.Advance(window_end, &step.breakdown);
    }
    spans = xspace::PodArray<StepSpan>();  // release
  }

  // The sweep line, in begin order. Per type, the union of its intervals so far ends at
  // open_end[type]; `open` has a bit per type whose union may still reach past `now`
  // (cleared lazily, when it is the highest). Each stretch of time goes to the highest
  // type whose union covers it, or to unknown.
  class TypeSweep {
   public:
    explicit TypeSweep(int64_t now) : now_(now) {}
    void Open(const Interval& interval) {
      const uint32_t bit = 1u << interval.type;
      open_end_[interval.type] = (open_ & bit) ? std::max(open_end_[interval.type], interval.end) : interval.end;
      open_ |= bit;
    }
    // Gives [now, to) to the types, into `out`.
    void Advance(int64_t to, StepBreakdown* out) {
      while (now_ < to) {
        int type = static_cast<int>(EventType::kUnknownTime);
        int64_t until = to;
        while (open_ != 0) {
          const int top = 31 - std::countl_zero(open_);
          if (open_end_[top] > now_) {
            type = top;
            until = std::min(to, open_end_[top]);
            break;
          }
          open_ &= ~(1u << top);
        }
        out->type_ps[type] += until - now_;
        now_ = until;
      }
    }
    // Skips to `to` without counting (time outside every step).
    void SkipTo(int64_t to) { now_ = std::max(now_, to); }

   private:
    std::array<int64_t, kNumEventTypes> open_end_{};
    uint32_t open_ = 0;
    int64_t now_;
  };

  // Steps as windows of time (MakeWindows): every span of any step's group, and every
  // untied device event, counts in the window where it runs, whichever step launched it.
  // Windows are in time order and do not overlap, so one sweep line crosses them all;
  // each run (a thread or a stream, in time order) is read up to the current window's end,
  // and the chunks are merged by begin, as in Sweep.
  void SweepWindows() {
    const size_t num_steps = model_->steps.size();
    xspace::PodArray<StepSpan>& spans = device_->spans;
    std::vector<uint32_t> runs = RunBounds();
    std::vector<uint32_t> cursor(runs.begin(), runs.end() - 1);
    launched_end_.assign(num_steps, INT64_MIN);
    std::vector<Interval> intervals, merged;
    std::vector<uint32_t> chunk_starts, next_starts;
    TypeSweep sweep(model_->steps.front().begin_ps);
    for (size_t s = 0; s < num_steps; ++s) {
      StepInfo& step = model_->steps[s];
      const int64_t window_begin = step.begin_ps, window_end = step.begin_ps + step.duration_ps;
      const bool last = s + 1 == num_steps;
      intervals.clear();
      chunk_starts.clear();
      for (size_t r = 0; r + 1 < runs.size(); ++r) {
        uint32_t& k = cursor[r];
        const size_t before = intervals.size();
        for (; k < runs[r + 1]; ++k) {
          const StepSpan& span = spans[k];
          Interval interval = MakeInterval(span, INT64_MIN, INT64_MAX);
          if (!last && interval.begin >= window_end) break;
          if (interval.launched_by < 0 && span.group() != StepSpan::kUntiedGroup) continue;  // no step
          if (interval.end > interval.begin) intervals.push_back(interval);
        }
        if (intervals.size() > before) chunk_starts.push_back(static_cast<uint32_t>(before));
      }
      std::vector<Interval>* ordered = InBeginOrder(&intervals, &merged, &chunk_starts, &next_starts);
      sweep.SkipTo(window_begin);  // a gap before the window (a marker that is not a step) is in no step
      for (const Interval& interval : *ordered) {
        sweep.Advance(std::min(interval.begin, window_end), &step.breakdown);
        sweep.Open(interval);
        CountLaunchedWork(interval);
      }
      sweep.Advance(window_end, &step.breakdown);
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
  bool windows_ = false;  // steps are windows of time (MakeWindows)
  std::vector<int32_t> step_of_group_;
  std::vector<bool> host_plane_ = HostPlanes(space_, *host_);
  std::vector<int64_t> launched_end_;  // per step: end of its launched device work counted so far
};

}  // namespace

void BuildSteps(const xspace::ColumnarXSpace& space, const ModelOptions& options, bool has_device, HostAnalysis* host,
                DeviceAnalysis* device, ProfileModel* model) {
  StepBuilder(space, options, has_device, host, device, model).Run();
}

}  // namespace stepscope::analysis::internal
