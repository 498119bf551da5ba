#include "src/analysis/model/input_analysis.h"

#include <algorithm>

#include "src/analysis/model/derivations.h"
#include "src/analysis/model/tf_data_analysis.h"
#include "src/analysis/model/units.h"
#include "src/base/format_number.h"

namespace stepscope::analysis {
namespace {

// kHostBreakdownKeys is indexed by the model's InputOpCategory.
static_assert(static_cast<int>(InputOpCategory::kDemandedFileRead) == 0 &&
              static_cast<int>(InputOpCategory::kAdvancedFileRead) == 1 &&
              static_cast<int>(InputOpCategory::kPreprocessing) == 2 &&
              static_cast<int>(InputOpCategory::kEnqueue) == 3 && static_cast<int>(InputOpCategory::kOther) == 4);

std::string Ms(double ms) { return base::FormatFixed(ms, 2) + " ms"; }

// The input share's two parts in the framework's words.
std::string WaitForInputLabel(Framework framework) {
  switch (framework) {
    case Framework::kPyTorch: return "Waiting for the DataLoader (enumerate(DataLoader)#...__next__)";
    case Framework::kTensorFlow: return "Waiting for the tf.data iterator (IteratorGetNext)";
    case Framework::kJax: return "Waiting for the input iterator (GetNext / input stages)";
    case Framework::kStepscope: return "Waiting for the next batch (stepscope::ScopedGetNext)";
    case Framework::kUnknown: break;
  }
  return "Waiting for input (IteratorGetNext, DataLoader __next__)";
}

std::string HostToDeviceLabel(Framework framework) {
  switch (framework) {
    case Framework::kPyTorch: return "Host-to-device copies (aten::copy_ / aten::to: Memcpy HtoD)";
    case Framework::kTensorFlow: return "Host-to-device copies (MemcpyHToD / infeed)";
    case Framework::kJax: return "Host-to-device transfers (device_put: MemcpyH2D)";
    default: break;
  }
  return "Host-to-device copies (MemcpyHToD)";
}

std::vector<InputShareRow> InputShareRows(const StepTimeSummary& s) {
  if (s.step_count == 0) return {};
  const double total = static_cast<double>(s.total_step_time_ps);
  auto row = [&](std::string kind, std::string label, EventType type) {
    return InputShareRow{std::move(kind), std::move(label), PsToMs(s.total.ps(type)) / s.step_count,
                         Percent(s.total.ps(type), total)};
  };
  return {row("wait_for_input", WaitForInputLabel(s.framework.framework), EventType::kHostWaitInput),
          row("host_to_device", HostToDeviceLabel(s.framework.framework), EventType::kHostToDevice)};
}

std::string_view HostBreakdownLabel(InputOpCategory category) {
  switch (category) {
    case InputOpCategory::kDemandedFileRead: return "Reading files on demand";
    case InputOpCategory::kAdvancedFileRead: return "Reading files ahead (behind prefetch / interleave)";
    case InputOpCategory::kPreprocessing: return "Preprocessing (map, batch, shuffle, ...)";
    case InputOpCategory::kEnqueue: return "Enqueue to device (MemcpyHToD / infeed / device_put)";
    case InputOpCategory::kOther: return "Other input work";
    case InputOpCategory::kDataLoader: return "DataLoader iteration (enumerate(DataLoader)#...__next__)";
    case InputOpCategory::kPinMemory: return "Pinned-memory copies (aten::pin_memory)";
  }
  return "Other input work";
}

// The host input classes of the framework: PyTorch's two for PyTorch, XProf's five for
// the tf.data-style pipelines, all of them when the framework is unknown. A class with
// time always shows.
std::vector<HostBreakdownRow> HostBreakdownRows(Framework framework,
                                                const std::array<double, kNumInputOpCategories>& ms) {
  std::vector<HostBreakdownRow> rows;
  for (int c = 0; c < kNumInputOpCategories; ++c) {
    const InputOpCategory category = static_cast<InputOpCategory>(c);
    const bool pytorch_class = category == InputOpCategory::kDataLoader || category == InputOpCategory::kPinMemory;
    const bool applies = framework == Framework::kUnknown ||
                         (framework == Framework::kPyTorch ? pytorch_class : !pytorch_class);
    if (applies || ms[c] > 0) rows.push_back({std::string(kHostBreakdownKeys[c]), std::string(HostBreakdownLabel(category)), ms[c]});
  }
  return rows;
}

// What the input rows say, for the recommendation.
struct InputEvidence {
  double wait_ms = 0;  // per step
  double copy_ms = 0;  // per step
  int64_t pageable_copies = 0;  // device H2D copies the profile says read pageable memory
  int64_t pinned_copies = 0;    // ... pinned memory
  int64_t copies = 0;
  // The host class with the most time, nullopt when no input op has time.
  std::optional<InputOpCategory> top_host_class;
};

InputEvidence GatherEvidence(const InputPipelineAnalysis& a, const InputPipelineFacts& facts) {
  InputEvidence e;
  for (const InputShareRow& row : a.input_share) (row.kind == "wait_for_input" ? e.wait_ms : e.copy_ms) = row.avg_ms;
  for (const DeviceInputCopy& copy : facts.device_copies) {
    e.copies += copy.occurrences;
    if (copy.source_memory == "pageable") e.pageable_copies += copy.occurrences;
    if (copy.source_memory == "pinned") e.pinned_copies += copy.occurrences;
  }
  for (int c = 0; c < kNumInputOpCategories; ++c) {
    if (a.host_breakdown_ms[c] <= 0) continue;
    if (!e.top_host_class || a.host_breakdown_ms[c] > a.host_breakdown_ms[static_cast<int>(*e.top_host_class)]) {
      e.top_host_class = static_cast<InputOpCategory>(c);
    }
  }
  return e;
}

std::string PyTorchAdvice(const InputEvidence& e) {
  const std::string pageable = std::to_string(e.pageable_copies) + " of " + std::to_string(e.copies) +
                               " host-to-device copies read pageable memory";
  if (e.copy_ms > e.wait_ms) {
    if (e.pageable_copies > 0) {
      return "Host-to-device copies take " + Ms(e.copy_ms) + " of each step and " + pageable +
             ": create the DataLoader with pin_memory=True so batches arrive in page-locked memory, and copy with "
             "tensor.to(device, non_blocking=True) so the copy overlaps compute.";
    }
    if (e.copies > 0 && e.pinned_copies == e.copies) {
      return "Host-to-device copies take " + Ms(e.copy_ms) +
             " of each step although they read pinned memory: copy with non_blocking=True and start the next "
             "batch's copy before this step's compute (a prefetcher on a side CUDA stream), or copy less (e.g. "
             "uint8 images, normalised on the GPU).";
    }
    return "Host-to-device copies take " + Ms(e.copy_ms) +
           " of each step: create the DataLoader with pin_memory=True and copy with tensor.to(device, "
           "non_blocking=True) so the copy overlaps compute, or copy less (e.g. uint8 images, normalised on the GPU).";
  }
  std::string advice = "The step waits " + Ms(e.wait_ms) +
                       " for the DataLoader (enumerate(DataLoader)#...__next__): load batches in worker processes "
                       "(DataLoader(num_workers=N), about one per free CPU core), keep them alive between epochs "
                       "(persistent_workers=True), let each worker prepare more batches ahead (prefetch_factor=4 or "
                       "more), and move fixed preprocessing out of the Dataset's __getitem__.";
  if (e.pageable_copies > 0) {
    advice += " Also set pin_memory=True and copy with non_blocking=True: " + pageable + ".";
  }
  return advice;
}

std::string TfDataAdvice(const InputEvidence& e) {
  if (!e.top_host_class) {
    return "The step waits in IteratorGetNext, but the tf.data ops are not in the profile (record with "
           "host_tracer_level=2 to see each stage). The usual fixes: dataset.map(fn, "
           "num_parallel_calls=tf.data.AUTOTUNE), .cache() after the deterministic steps, and "
           ".prefetch(tf.data.AUTOTUNE) at the end of the pipeline.";
  }
  switch (*e.top_host_class) {
    case InputOpCategory::kDemandedFileRead:
      return "Most input time reads files on demand: read several files in parallel (dataset.interleave(..., "
             "num_parallel_calls=tf.data.AUTOTUNE)), add .prefetch(tf.data.AUTOTUNE) at the end of the pipeline, "
             "and .cache() the dataset if it fits in memory.";
    case InputOpCategory::kAdvancedFileRead:
      return "Most input time reads files, already ahead of use: read from more files in parallel "
             "(interleave with a larger cycle_length and num_parallel_calls=tf.data.AUTOTUNE), or .cache() the "
             "dataset if it fits in memory.";
    case InputOpCategory::kEnqueue:
      return "Most input time copies batches to the device: prefetch to the device "
             "(tf.data.experimental.prefetch_to_device, or a tf.distribute dataset) so copies overlap compute.";
    default: break;
  }
  return "Most input time is preprocessing: dataset.map(fn, num_parallel_calls=tf.data.AUTOTUNE), .cache() after "
         "the deterministic steps so later epochs skip them, and .prefetch(tf.data.AUTOTUNE) so input overlaps the "
         "step; move fixed work offline.";
}

std::string JaxAdvice(const InputEvidence& e) {
  const std::string put_ahead =
      "put the next batch on the device while this step runs (jax.device_put of batch n+1 before step n, or "
      "flax.jax_utils.prefetch_to_device(iterator, 2)).";
  if (e.copy_ms > e.wait_ms) return "Host-to-device transfers take " + Ms(e.copy_ms) + " of each step: " + put_ahead;
  if (e.top_host_class == InputOpCategory::kEnqueue) {
    return "Most input work on the host puts batches on the device (DevicePut, CopyToDevice): " + put_ahead;
  }
  return "JAX has no input pipeline of its own: speed up the loader that feeds it (tf.data: .map(..., "
         "num_parallel_calls=tf.data.AUTOTUNE), .prefetch(tf.data.AUTOTUNE), .cache(); Grain: a larger "
         "worker_count) and prefetch batches to the device (flax.jax_utils.prefetch_to_device).";
}

std::string StepscopeAdvice(const InputEvidence& e) {
  if (!e.top_host_class) {
    return "The input stage is not instrumented, so the profile cannot say which part is slow: wrap each stage "
           "in stepscope::ScopedIterator(\"Iterator::Batch::Map\") and the fetch in stepscope::ScopedGetNext; then "
           "prepare batches ahead on a background thread, read and preprocess on several threads, and cache what "
           "does not change between epochs.";
  }
  switch (*e.top_host_class) {
    case InputOpCategory::kDemandedFileRead:
      return "Most input time reads records on demand (the file-source ScopedIterator stage): read ahead on a "
             "background thread or from several files in parallel, or keep the decoded dataset in memory.";
    case InputOpCategory::kAdvancedFileRead:
      return "Most input time reads records, already ahead of use: read from more files in parallel, or keep "
             "the decoded dataset in memory.";
    case InputOpCategory::kEnqueue:
      return "Most input time copies batches to the device: copy from pinned host memory, asynchronously, while "
             "the previous step computes.";
    default: break;
  }
  return "Most input time is preprocessing (the ScopedIterator stages below the batch): run it on several "
         "threads, prepare the next batch on a background thread so input overlaps the step, and cache decoded "
         "examples that repeat between epochs.";
}

std::string Recommendation(const InputPipelineAnalysis& a, const InputPipelineFacts& facts) {
  const StepTimeSummary& s = a.summary;
  const Framework framework = s.framework.framework;
  if (s.verdict == InputBoundVerdict::kUnknown) return s.statement;
  if (s.verdict == InputBoundVerdict::kNot) {
    return s.potentially_input_bound
               ? "Find out what the unexplained time is: if it is data loading, " + std::string(HowToAnnotate(framework)) +
                     " so the profile shows it."
               : "Input is not the bottleneck; see the overview page for where step time goes.";
  }
  const InputEvidence e = GatherEvidence(a, facts);
  switch (framework) {
    case Framework::kPyTorch: return PyTorchAdvice(e);
    case Framework::kTensorFlow: return TfDataAdvice(e);
    case Framework::kJax: return JaxAdvice(e);
    case Framework::kStepscope: return StepscopeAdvice(e);
    case Framework::kUnknown: break;
  }
  return "Prefetch so input overlaps compute, parallelise reading and preprocessing, and cache what repeats.";
}

}  // namespace

std::optional<PipelineBottleneckLink> FindPipelineBottleneck(const ProfileModel& model) {
  if (!model.input_pipeline.uses_tf_data) return std::nullopt;
  const TfDataBottleneckResult& r = TfDataAnalysisOf(model);
  if (!r.iterator_bound || !r.bottleneck_stage.has_value() || r.pipelines.empty()) return std::nullopt;
  const PipelineStats& pipeline = r.pipelines[0];
  const PipelineStageStats& stage = r.stages[*r.bottleneck_stage];
  PipelineBottleneckLink link;
  link.pipeline = pipeline.name;
  link.stage = stage.long_name;
  link.kind = std::string(BottleneckKindName(stage.kind));
  link.share_percent = pipeline.bottleneck_share_percent;
  link.self_time_per_call_us = stage.calls > 0 ? PsToUs(stage.self_ps / stage.calls) : 0;
  link.suggestion = pipeline.suggestion;
  link.statement = "Input bound \u2014 the bottleneck is stage " + stage.long_name + " of pipeline " + pipeline.name +
                   " (" + base::FormatFixed(link.share_percent, 0) + "% of the blocking time in the slowest calls, " +
                   base::FormatFixed(link.self_time_per_call_us, 1) +
                   " \u00b5s self time per call; see tf_data_bottleneck_analysis).";
  return link;
}

InputPipelineAnalysis AnalyzeInputPipeline(const ProfileModel& model) {
  InputPipelineAnalysis a;
  a.summary = StepSummaryOf(model);
  a.steps = StepRowsOf(model);
  a.input_share = InputShareRows(a.summary);
  const InputPipelineFacts& facts = model.input_pipeline;
  for (int c = 0; c < kNumInputOpCategories; ++c) a.host_breakdown_ms[c] = PsToMs(facts.category_self_time_ps[c]);
  a.host_breakdown = HostBreakdownRows(a.summary.framework.framework, a.host_breakdown_ms);
  // XProf divides by all host op time without idle; that is the host side's self-time sum.
  const double host_op_ps = static_cast<double>(model.host_ops.total_self_time_ps);
  const double step_ps = static_cast<double>(a.summary.total_step_time_ps);
  auto step_share = [&](int64_t ps) -> std::optional<double> {
    return a.summary.step_count > 0 ? std::optional<double>(Percent(ps, step_ps)) : std::nullopt;
  };
  for (const InputOp& op : facts.ops) {
    InputOpRow row;
    row.name = op.name;
    row.type = op.type;
    row.category = std::string(kHostBreakdownKeys[static_cast<int>(op.category)]);
    row.count = op.occurrences;
    row.total_time_ms = PsToMs(op.total_time_ps);
    row.total_time_percent = Percent(op.total_time_ps, host_op_ps);
    row.self_time_ms = PsToMs(op.self_time_ps);
    row.self_time_percent = Percent(op.self_time_ps, host_op_ps);
    row.step_time_percent = step_share(op.self_time_ps);
    a.input_ops.push_back(std::move(row));
  }
  std::stable_sort(a.input_ops.begin(), a.input_ops.end(),
                   [](const InputOpRow& x, const InputOpRow& y) { return x.self_time_ms > y.self_time_ms; });
  for (const DeviceInputCopy& copy : facts.device_copies) {  // sorted by time already
    InputOpRow row;
    row.name = copy.op_name;
    row.type = copy.source_memory.empty() ? copy.copy_name : copy.copy_name + " (from " + copy.source_memory + " memory)";
    row.category = std::string(kDeviceCopyCategory);
    row.on_device = true;
    row.count = copy.occurrences;
    row.total_time_ms = PsToMs(copy.total_time_ps);
    row.self_time_ms = row.total_time_ms;
    row.step_time_percent = step_share(copy.total_time_ps);
    a.input_ops.push_back(std::move(row));
  }
  a.uses_tf_data = facts.uses_tf_data;
  a.get_next_count = facts.get_next_count;
  a.data_loader_next_count = facts.data_loader_next_count;
  a.get_next_outside_steps = facts.get_next_outside_steps;
  a.diagnostics = model.diagnostics;
  if (a.get_next_outside_steps > 0) {
    a.diagnostics.push_back(std::to_string(a.get_next_outside_steps) + " of " + std::to_string(a.get_next_count) +
                            " input fetches (IteratorGetNext, DataLoader __next__) happen outside any step, so "
                            "their time is not "
                            "counted as input in the step breakdown");
  }
  a.recommendation = Recommendation(a, facts);
  a.pipeline_bottleneck = FindPipelineBottleneck(model);
  return a;
}

}  // namespace stepscope::analysis
