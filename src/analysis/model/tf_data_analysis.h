// The tf.data bottleneck analysis: which stage of the input pipeline to fix, and how.
// Derived once per model (derivations.h: TfDataAnalysisOf); tf_data_bottleneck_analysis
// presents it and the input analysis (input_analysis.h) names its bottleneck stage.
//
// XProf's tf.data bottleneck analysis (reference/xspace.md §6), made general for any
// pipeline recorded with tf.data's iterator events (TensorFlow's, or stepscope's
// pipeline API, include/stepscope/pipeline.h):
//   - iterator calls nest on their thread; an asynchronous stage's consumer call is linked
//     to the producer's iterator call on another thread through the `*Consume` /
//     `*Produce` events with equal element_id (the producer iterator's parent_id names
//     the consumer iterator's id);
//   - every call of a root iterator ("Iterator::X") is one fetch from a pipeline; walking
//     it gives each call's self time (its time minus the union of its children's time
//     inside it) and whether it blocked the fetch (it overlaps a blocking parent);
//   - the bottleneck of a pipeline is the blocking stage with the most self time over the
//     slowest calls (the slowest kSlowCallSharePercent of them, at least one); the
//     critical path is the chain of longest blocking waits in the slowest call.
// Linear in the iterator events apart from sorts (n log n): each call is visited once,
// whatever cycles or duplicate links hostile files contain (counted in diagnostics).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/model/pipeline_events.h"
#include "src/analysis/model/profile_model.h"

namespace stepscope::analysis {

// A call slower than this is "slow" (XProf's kSlowCallThresholdUs): 50 µs.
inline constexpr int64_t kSlowPipelineCallPs = 50'000'000;
// The bottleneck is judged over this share of the slowest calls (at least one call):
// enough calls that one hiccup (a page fault, a preempted thread) does not decide it.
inline constexpr double kSlowCallSharePercent = 10.0;
// Without steps, the verdict falls back on XProf's rule: input bound when the slowest
// call takes longer than kSlowPipelineCallPs. With steps, the pipeline's wait share of
// step time is compared with the input pipeline analyzer's threshold
// (kModeratelyInputBoundThresholdPercent, input_pipeline.h), so the two tools agree.

// What kind of fix a bottleneck stage calls for.
enum class BottleneckKind : uint8_t {
  kFileSource = 0,         // reads files (TFRecord, TextLine, FixedLengthRecord, ...)
  kMemorySource,           // TensorSlice, Range, FromTensor(s), Generator
  kSequentialMap,          // Map / Interleave on the caller's thread: has a parallel form
  kParallelMap,            // ParallelMap / ParallelInterleave / MapAndBatch already parallel
  kSequentialTransform,    // Batch, Filter, Shuffle, Unbatch, ...: no parallel form
  kPrefetch,               // the consumer waits on a prefetch buffer
  kCache,                  // a cache being filled
  kOther,
};
std::string_view BottleneckKindName(BottleneckKind kind);  // "file_source", ...
// By the dataset name (last part of the long name, "[n]" suffixes dropped).
BottleneckKind BottleneckKindOf(std::string_view dataset_name);

struct PipelineStageStats {
  int pipeline = -1;  // index into TfDataBottleneckResult::pipelines; -1 when no root reached it
  int64_t id = 0;
  std::optional<int64_t> parent_id;  // as recorded
  bool parent_known = false;         // parent_id names a recorded stage (and no cycle)
  std::string long_name;             // "Iterator::Prefetch::Batch::Map"
  std::string dataset_name;          // "Map"
  BottleneckKind kind = BottleneckKind::kOther;
  int64_t setting = 0;               // parallelism / buffer_limit when recorded
  int64_t calls = 0;                 // calls reached from a root call
  int64_t total_ps = 0;
  int64_t self_ps = 0;
  int64_t blocking_calls = 0;
  int64_t blocking_self_ps = 0;      // self time of calls that blocked a fetch
  int64_t slow_blocking_self_ps = 0; // the same, within the slowest calls only
  double avg_latency_us() const { return calls > 0 ? static_cast<double>(total_ps) / calls / 1e6 : 0; }
};

struct CriticalPathStep {
  int pipeline = 0;
  int depth = 0;         // 0: the root call
  int stage = 0;         // index into stages
  int64_t duration_ps = 0;
  int64_t self_ps = 0;
  int64_t wait_ps = 0;   // how much of the parent call this call overlapped
  std::string thread;
};

struct PipelineStats {
  std::string name;            // "Host:0", "Device:0" (XProf's names)
  bool is_device = false;      // a per-device pipeline (MultiDeviceIterator's Prefetch::Generator)
  int root_stage = 0;          // index into stages
  int64_t calls = 0;
  int64_t total_latency_ps = 0;
  int64_t min_latency_ps = 0;
  int64_t max_latency_ps = 0;
  int64_t slow_calls = 0;        // > kSlowPipelineCallPs
  int64_t analysed_slow_calls = 0;  // the calls the bottleneck is judged over
  // Root-call time over the total step time (percent), when steps are known.
  std::optional<double> step_time_percent;
  std::optional<int> bottleneck_stage;   // index into stages
  double bottleneck_share_percent = 0;   // its share of the slow calls' blocking self time
  std::optional<int> slowest_call_bottleneck_stage;  // XProf's: the slowest call's alone
  // The pipeline's calls take >= kModeratelyInputBoundThresholdPercent of the step time
  // (without steps: a call slower than kSlowPipelineCallPs). Iterator time, not the step's
  // input wait: a call can overlap the step's own work, so the two differ, and each has
  // its own name (input_pipeline_analyzer's input share is the wait).
  bool iterator_bound = false;
  std::string suggestion;  // with the numbers that back it; empty when no bottleneck
  double avg_latency_us() const { return calls > 0 ? static_cast<double>(total_latency_ps) / calls / 1e6 : 0; }
};

// Counted problems in the events; never fatal.
struct PipelineEventCounts {
  int64_t iterator_events = 0;
  int64_t produce_events = 0;
  int64_t consume_events = 0;
  int64_t linked_producers = 0;        // producer iterator calls linked to a consumer
  int64_t iterators_without_id = 0;
  int64_t produce_without_element = 0;   // no element_id, or no iterator call inside
  int64_t produce_unconsumed = 0;        // produced elements no consume in the profile took
  int64_t consume_without_producer = 0;  // consumed elements whose production was not recorded
  int64_t consume_outside_iterator = 0;  // a consume with no enclosing iterator call
  int64_t duplicate_consumes = 0;        // a second consume of an already linked element
  int64_t revisited_calls = 0;           // links into calls already walked (cycles, shared producers)
  int64_t parent_cycles = 0;             // stages whose parent_id chain loops
  int64_t missing_parents = 0;           // stages whose parent_id names no recorded stage
  int64_t conflicting_names = 0;         // one iterator id under two names
  int64_t unreached_calls = 0;           // iterator calls no root call reaches
};

struct TfDataBottleneckResult {
  std::vector<PipelineStats> pipelines;   // by total latency, descending
  std::vector<PipelineStageStats> stages; // by pipeline, then blocking self time descending
  std::vector<CriticalPathStep> critical_path;  // per pipeline, root first
  // The pipeline that costs the most (pipelines[0]) and its verdict (PipelineStats).
  bool iterator_bound = false;
  // The share of step time the steps waited for input (the step breakdown's input time,
  // input_pipeline_analyzer's input share), for the statement to set beside the iterator
  // time; absent without steps.
  std::optional<double> step_input_wait_percent;
  std::optional<int> bottleneck_stage;  // pipelines[0]'s bottleneck, when iterator bound
  std::string statement;                // one sentence with the numbers
  PipelineEventCounts counts;
  std::vector<std::string> diagnostics;
};

// The analysis of already extracted events (or the analysis a host summary carries in
// their place, PipelineEvents::analysis) in two parts, so that a summary can hold the first:
//   - AnalyzePipelineEvents(events): everything that depends on the events alone (stages,
//     pipelines, critical paths, counts), with the step-time fields unset;
//   - ApplyStepTime: each pipeline's share of the steps' total time, its verdict, the
//     result's verdict and statement. `total_step_time_ps` 0: steps unknown.
TfDataBottleneckResult AnalyzePipelineEvents(const PipelineEvents& events);
void ApplyStepTime(int64_t total_step_time_ps, TfDataBottleneckResult* result);
// Both.
TfDataBottleneckResult AnalyzePipelineEvents(const PipelineEvents& events, int64_t total_step_time_ps);
// Extracts the model's events (pipeline_events.h), per host, and analyses them. Tools read
// the cached result: TfDataAnalysisOf(model).
TfDataBottleneckResult AnalyzeTfDataPipelines(const ProfileModel& model);

}  // namespace stepscope::analysis
