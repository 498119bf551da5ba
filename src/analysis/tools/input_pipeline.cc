#include "src/analysis/tools/input_pipeline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "src/analysis/output/text_table.h"
#include "src/analysis/output/tool_output.h"
#include "src/analysis/tools/tf_data_bottleneck.h"
#include "src/analysis/tools/tool_util.h"

namespace stepscope::analysis {
namespace {

// kHostBreakdownKeys is indexed by the model's InputOpCategory.
static_assert(static_cast<int>(InputOpCategory::kDemandedFileRead) == 0 &&
              static_cast<int>(InputOpCategory::kAdvancedFileRead) == 1 &&
              static_cast<int>(InputOpCategory::kPreprocessing) == 2 &&
              static_cast<int>(InputOpCategory::kEnqueue) == 3 && static_cast<int>(InputOpCategory::kOther) == 4);

using output::Column;
using output::ColumnType;
using output::Table;

std::string Pct(double percent) { return output::FormatFixed(percent, 1) + " %"; }

std::string Ms(double ms) { return output::FormatFixed(ms, 2) + " ms"; }

std::string VerdictStatement(const StepTimeSummary& s) {
  switch (s.verdict) {
    case InputBoundVerdict::kHighly:
      return "HIGHLY input bound: " + Pct(s.input_percent) +
             " of step time is spent waiting for input. Reduce input time first.";
    case InputBoundVerdict::kModerately:
      return "MODERATELY input bound: " + Pct(s.input_percent) +
             " of step time is spent waiting for input. Reduce both the input time and the rest of the step.";
    case InputBoundVerdict::kNot:
      if (s.potentially_input_bound) {
        return "NOT input bound by the recorded input (" + Pct(s.input_percent) + "), but " +
               Pct(s.all_other_percent) +
               " of step time is explained by no recorded event; if that is uninstrumented input work "
               "(Python, file reads), the program is POTENTIALLY input bound.";
      }
      return "NOT input bound: only " + Pct(s.input_percent) +
             " of step time is spent waiting for input. Look at the rest of the step.";
    case InputBoundVerdict::kUnknown:
      break;
  }
  return "No steps were found, so the input share of the step cannot be computed. " +
         std::string(HowToMarkSteps(s.framework.framework));
}

// Which step-time categories can occur in this profile (StepTimeSummary::category_applies).
std::array<bool, kNumTimeCategories> CategoriesThatApply(const ProfileModel& model, Framework framework,
                                                         const StepBreakdown& total) {
  std::array<bool, kNumTimeCategories> applies;
  for (int c = 0; c < kNumTimeCategories; ++c) {
    const TimeCategory category = static_cast<TimeCategory>(c);
    bool can_occur = true;
    switch (category) {
      case TimeCategory::kOutput:
      case TimeCategory::kKernelLaunch:
      case TimeCategory::kDeviceToDevice:
      case TimeCategory::kDeviceCollectives:
      case TimeCategory::kDeviceCompute: can_occur = model.has_device; break;
      case TimeCategory::kCompilation: can_occur = framework != Framework::kPyTorch; break;
      default: break;
    }
    applies[c] = can_occur || total.category_ps(category) > 0;
  }
  return applies;
}

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

Table InputOpsTable(const InputPipelineAnalysis& a) {
  Table ops;
  ops.name = "input_ops";
  ops.title = "Input ops (host ops, and host-to-device copies on the device)";
  ops.columns = {{"name", "Input op", ColumnType::kString, 2, 60},
                 {"type", "Type", ColumnType::kString, 2, 32},
                 {"category", "Category", ColumnType::kString},
                 {"host_or_device", "Where", ColumnType::kString},
                 {"count", "Count", ColumnType::kInt},
                 {"total_time_ms", "Total (ms)", ColumnType::kDouble},
                 {"total_time_percent", "Total % of host op time", ColumnType::kDouble, 1},
                 {"self_time_ms", "Self (ms)", ColumnType::kDouble},
                 {"self_time_percent", "Self % of host op time", ColumnType::kDouble, 1},
                 {"step_time_percent", "Self % of step time", ColumnType::kDouble, 1}};
  for (const InputOpRow& r : a.input_ops) {
    ops.AddRow({r.name, r.type, r.category, std::string(r.on_device ? "device" : "host"), r.count, r.total_time_ms,
                output::OptionalCell(r.total_time_percent), r.self_time_ms, output::OptionalCell(r.self_time_percent),
                output::OptionalCell(r.step_time_percent)});
  }
  return ops;
}

Table InputShareTable(const InputPipelineAnalysis& a) {
  Table t;
  t.name = "input_share";
  t.title = "Input share of step time";
  t.columns = {{"kind", "Kind"},
               {"label", "What the step waited for", ColumnType::kString, 2, 70},
               {"avg_ms", "Avg per step (ms)", ColumnType::kDouble, 3},
               {"percent", "% of step time", ColumnType::kDouble, 1}};
  for (const InputShareRow& r : a.input_share) t.AddRow({r.kind, r.label, r.avg_ms, r.percent});
  return t;
}

Table HostBreakdownTable(const InputPipelineAnalysis& a) {
  Table breakdown;
  breakdown.name = "host_breakdown";
  breakdown.title = "Host-side input time (ms, whole profile)";
  breakdown.columns = {{"category", "Category"},
                       {"label", "Input work", ColumnType::kString, 2, 60},
                       {"time_ms", "Time (ms)", ColumnType::kDouble}};
  for (const HostBreakdownRow& r : a.host_breakdown) breakdown.AddRow({r.category, r.label, r.time_ms});
  return breakdown;
}

}  // namespace

std::string_view InputBoundVerdictName(InputBoundVerdict verdict) {
  switch (verdict) {
    case InputBoundVerdict::kHighly: return "highly";
    case InputBoundVerdict::kModerately: return "moderately";
    case InputBoundVerdict::kNot: return "not";
    case InputBoundVerdict::kUnknown: return "unknown";
  }
  return "unknown";
}

SummaryStats ComputeSummaryStats(const std::vector<double>& values) {
  SummaryStats stats;
  stats.count = static_cast<int64_t>(values.size());
  if (values.empty()) return stats;
  double sum = 0;
  stats.min = values[0];
  stats.max = values[0];
  for (double v : values) {
    sum += v;
    stats.min = std::min(stats.min, v);
    stats.max = std::max(stats.max, v);
  }
  stats.mean = sum / values.size();
  double sq = 0;
  for (double v : values) sq += (v - stats.mean) * (v - stats.mean);
  stats.stddev = std::sqrt(sq / values.size());
  return stats;
}

StepTimeSummary SummarizeSteps(const ProfileModel& model) {
  StepTimeSummary s;
  s.step_count = static_cast<int64_t>(model.steps.size());
  std::vector<double> step_ms, input_ms;
  for (const StepInfo& step : model.steps) {
    s.total_step_time_ps += step.duration_ps;
    s.total.Add(step.breakdown);
    step_ms.push_back(PsToMs(step.duration_ps));
    input_ms.push_back(PsToMs(step.breakdown.input_ps()));
  }
  s.step_time_ms = ComputeSummaryStats(step_ms);
  s.input_time_ms = ComputeSummaryStats(input_ms);
  if (s.step_count > 0) s.avg_step_time_ms = PsToMs(s.total_step_time_ps) / s.step_count;
  const double total = static_cast<double>(s.total_step_time_ps);
  for (int c = 0; c < kNumTimeCategories; ++c) {
    const int64_t ps = s.total.category_ps(static_cast<TimeCategory>(c));
    if (s.step_count > 0) s.avg_category_ms[c] = PsToMs(ps) / s.step_count;
    s.category_percent[c] = Percent(ps, total);
  }
  s.input_percent = StepsInputPercent(model.steps).value_or(0);
  s.output_percent = Percent(s.total.ps(EventType::kDeviceToHost), total);
  s.device_compute_percent = Percent(s.total.category_ps(TimeCategory::kDeviceCompute), total);
  s.device_collectives_percent = Percent(s.total.ps(EventType::kDeviceCollectives), total);
  s.kernel_launch_percent = Percent(s.total.ps(EventType::kHostPrepare), total);
  s.all_other_percent = Percent(s.total.ps(EventType::kUnknownTime), total);
  if (model.has_device) {
    s.idle_percent = std::max(0.0, 100.0 - s.input_percent - s.output_percent - s.device_compute_percent -
                                       s.device_collectives_percent);
  }

  s.framework = DetectFramework(model);
  s.category_applies = CategoriesThatApply(model, s.framework.framework, s.total);
  if (s.step_count == 0 || s.total_step_time_ps <= 0) {
    s.verdict = InputBoundVerdict::kUnknown;
    s.classification = "unknown";
  } else if (s.input_percent >= kHighlyInputBoundThresholdPercent) {
    s.verdict = InputBoundVerdict::kHighly;
    s.classification = "host";
  } else if (s.input_percent >= kModeratelyInputBoundThresholdPercent) {
    s.verdict = InputBoundVerdict::kModerately;
    s.classification = "both";
  } else {
    s.verdict = InputBoundVerdict::kNot;
    s.potentially_input_bound = s.all_other_percent >= kAllOtherThresholdPercent;
    s.classification = s.potentially_input_bound ? "both" : "device";
  }
  s.statement = VerdictStatement(s);

  const int64_t dc16 = s.total.ps(EventType::kDeviceCompute16);
  const int64_t dc = dc16 + s.total.ps(EventType::kDeviceCompute32);
  if (model.has_device && dc > 0) s.device_compute_16bit_percent = Percent(dc16, dc);
  if (!model.steps.empty()) s.step_time_source = std::string(StepTimeSourceName(model.steps.front().time_source));
  if (model.step_cadence.steps > 0) {
    s.cadence = model.step_cadence;
    s.cadence_statement = CadenceStatement(model.step_cadence, model.run_environment.device_type);
  }
  return s;
}

std::string CadenceStatement(const StepCadence& c, std::string_view device_type) {
  const int64_t growth = c.lag_growth_per_step_ps();
  // Cadences within 2 % of each other (kDeviceBoundPerMille's margin) agree: nothing to say.
  if (c.host_interval_ps <= 0 || std::abs(growth) * 50 <= c.host_interval_ps) return "";
  const std::string device(device_type.empty() || device_type == "CPU" ? "device" : device_type);
  std::string text = "the host issues a step every " + output::FormatFixed(PsToMs(c.host_interval_ps), 1) + " ms; the " +
                     device + " completes one every " + output::FormatFixed(PsToMs(c.device_interval_ps), 1) + " ms and ";
  if (growth > 0) {
    text += "falls " + output::FormatFixed(PsToMs(growth), 1) + " ms further behind each step";
    if (c.device_bound) text += ", so the step time is the " + device + "'s";
  } else {
    text += "catches up " + output::FormatFixed(PsToMs(-growth), 1) + " ms each step";
  }
  return text;
}

std::vector<StepTimeRow> ComputeStepTimeRows(const ProfileModel& model) {
  std::vector<StepTimeRow> rows;
  rows.reserve(model.steps.size());
  for (const StepInfo& step : model.steps) {
    StepTimeRow row;
    row.step_number = step.step_number;
    row.name = step.name;
    row.step_time_ms = PsToMs(step.duration_ps);
    row.input_ms = PsToMs(step.breakdown.input_ps());
    for (int c = 0; c < kNumTimeCategories; ++c) {
      row.category_ms[c] = PsToMs(step.breakdown.category_ps(static_cast<TimeCategory>(c)));
    }
    row.device_busy_ms = PsToMs(step.device_busy_ps);
    row.device_lag_ms = PsToMs(step.device_lag_ps());
    rows.push_back(std::move(row));
  }
  return rows;
}

Table StepTimeTable(const std::vector<StepTimeRow>& rows, const StepTimeSummary& s) {
  Table t;
  t.name = "steps";
  t.title = "Step time per step (ms)";
  t.columns = {{"step_number", "Step", ColumnType::kInt},
               {"step_name", "Name", ColumnType::kString, 2, 24},
               {"step_time_ms", "Step", ColumnType::kDouble},
               {"input_bound_ms", "Input", ColumnType::kDouble}};
  for (int c = 0; c < kNumTimeCategories; ++c) {
    if (!s.category_applies[c]) continue;
    std::string key(TimeCategoryKey(static_cast<TimeCategory>(c)));
    t.columns.push_back({key + "_ms", key, ColumnType::kDouble});
  }
  const bool launched = s.cadence.has_value();
  if (launched) {
    t.columns.push_back({"device_busy_ms", "Device busy (launched)", ColumnType::kDouble});
    t.columns.push_back({"device_lag_ms", "Device lag", ColumnType::kDouble});
  }
  for (const StepTimeRow& r : rows) {
    output::Row row;
    row.reserve(t.columns.size());
    row.emplace_back(r.step_number);
    row.emplace_back(r.name);
    row.emplace_back(r.step_time_ms);
    row.emplace_back(r.input_ms);
    for (int c = 0; c < kNumTimeCategories; ++c) {
      if (s.category_applies[c]) row.emplace_back(r.category_ms[c]);
    }
    if (launched) {
      row.emplace_back(r.device_busy_ms);
      row.emplace_back(r.device_lag_ms);
    }
    t.AddRow(std::move(row));
  }
  return t;
}

Table StepBreakdownTable(const StepTimeSummary& s, bool for_people) {
  Table t;
  t.name = "step_time_breakdown";
  t.title = "Average step time breakdown";
  t.columns = {{"category", "Category"},
               {"avg_ms", "Avg (ms)", ColumnType::kDouble, 3},
               {"percent", "% of step", ColumnType::kDouble, 1}};
  for (int c = 0; c < kNumTimeCategories; ++c) {
    if (!s.category_applies[c]) continue;
    const TimeCategory category = static_cast<TimeCategory>(c);
    t.AddRow({std::string(for_people ? TimeCategoryLabel(category) : TimeCategoryKey(category)), s.avg_category_ms[c],
              s.category_percent[c]});
  }
  return t;
}

std::optional<PipelineBottleneckLink> FindPipelineBottleneck(const ProfileModel& model) {
  if (!model.input_pipeline.uses_tf_data) return std::nullopt;
  const TfDataBottleneckResult r = ComputeTfDataBottleneck(model);
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
                   " (" + output::FormatFixed(link.share_percent, 0) + "% of the blocking time in the slowest calls, " +
                   output::FormatFixed(link.self_time_per_call_us, 1) +
                   " \u00b5s self time per call; see tf_data_bottleneck_analysis).";
  return link;
}

InputPipelineAnalysis ComputeInputPipelineAnalysis(const ProfileModel& model) {
  InputPipelineAnalysis a;
  a.summary = SummarizeSteps(model);
  a.steps = ComputeStepTimeRows(model);
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

void WriteSummaryStatsJson(const SummaryStats& stats, output::JsonWriter* w) {
  w->BeginObject();
  w->Field("mean", stats.mean);
  w->Field("stddev", stats.stddev);
  w->Field("min", stats.min);
  w->Field("max", stats.max);
  w->EndObject();
}

void WriteStepBreakdownJson(const StepTimeSummary& s, output::JsonWriter* w) {
  w->BeginObject();
  for (int c = 0; c < kNumTimeCategories; ++c) {
    if (s.category_applies[c]) w->Field(TimeCategoryKey(static_cast<TimeCategory>(c)), s.avg_category_ms[c]);
  }
  w->EndObject();
}

void WriteStepSummaryJson(const StepTimeSummary& s, output::JsonWriter* w) {
  WriteFrameworkJson(s.framework, w);
  w->Field("steps", s.step_count);
  w->Field("avg_step_time_ms", s.avg_step_time_ms);
  // Without steps there is no input share (null), not an input share of 0.
  w->Key("input_bound_percent");
  if (s.step_count > 0) {
    w->Double(s.input_percent);
  } else {
    w->Null();
  }
  w->Field("input_bound_verdict", InputBoundVerdictName(s.verdict));
  w->Field("input_bound_potentially", s.potentially_input_bound);
  w->Field("input_bound_classification", s.classification);
  w->Field("input_bound_statement", s.statement);
  w->Field("step_time_source", s.step_time_source);
  // The cadences and the device's lag: null where they are not measured.
  w->Key("step_cadence");
  if (!s.cadence) {
    w->Null();
    return;
  }
  w->BeginObject();
  w->Field("steps", s.cadence->steps);
  w->Field("host_interval_ms", PsToMs(s.cadence->host_interval_ps));
  w->Field("device_interval_ms", PsToMs(s.cadence->device_interval_ps));
  w->Field("lag_growth_per_step_ms", PsToMs(s.cadence->lag_growth_per_step_ps()));
  w->Field("device_bound", s.cadence->device_bound);
  w->Field("mean_device_lag_ms", PsToMs(s.cadence->mean_device_lag_ps));
  w->Field("max_device_lag_ms", PsToMs(s.cadence->max_device_lag_ps));
  w->Field("statement", s.cadence_statement);
  w->EndObject();
}

void WriteResultJson(const InputPipelineAnalysis& a, output::JsonWriter* w) {
  w->BeginObject();
  w->Field("tool", "input_pipeline_analyzer");
  WriteStepSummaryJson(a.summary, w);
  w->Key("step_time_stats_ms");
  WriteSummaryStatsJson(a.summary.step_time_ms, w);
  w->Key("input_time_stats_ms");
  WriteSummaryStatsJson(a.summary.input_time_ms, w);
  w->Key("step_time_breakdown_ms");
  WriteStepBreakdownJson(a.summary, w);
  w->Key("bottleneck_percent");
  w->BeginObject();
  const auto& applies = a.summary.category_applies;
  auto field_if = [&](std::string_view key, TimeCategory category, double value) {
    if (applies[static_cast<int>(category)]) w->Field(key, value);
  };
  w->Field("input", a.summary.input_percent);
  field_if("output", TimeCategory::kOutput, a.summary.output_percent);
  field_if("device_compute", TimeCategory::kDeviceCompute, a.summary.device_compute_percent);
  field_if("device_collectives", TimeCategory::kDeviceCollectives, a.summary.device_collectives_percent);
  field_if("kernel_launch", TimeCategory::kKernelLaunch, a.summary.kernel_launch_percent);
  w->Field("all_other", a.summary.all_other_percent);
  w->Key("idle");
  if (a.summary.idle_percent.has_value()) {
    w->Double(*a.summary.idle_percent);
  } else {
    w->Null();
  }
  w->EndObject();
  w->Key("input_share");
  output::WriteTableRowsJson(InputShareTable(a), w);
  w->Key("host_breakdown_ms");
  w->BeginObject();
  for (const HostBreakdownRow& r : a.host_breakdown) w->Field(r.category, r.time_ms);
  w->EndObject();
  w->Key("host_breakdown");
  output::WriteTableRowsJson(HostBreakdownTable(a), w);
  w->Key("input_ops");
  output::WriteTableRowsJson(InputOpsTable(a), w);
  w->Key("step_details");
  output::WriteTableRowsJson(StepTimeTable(a.steps, a.summary), w);
  w->Field("uses_tf_data", a.uses_tf_data);
  w->Field("get_next_count", a.get_next_count);
  w->Field("data_loader_next_count", a.data_loader_next_count);
  w->Field("get_next_outside_steps", a.get_next_outside_steps);
  w->Field("recommendation", a.recommendation);
  // Only when tf_data_bottleneck_analysis names a stage (profiles without iterator ids
  // keep their JSON unchanged).
  if (a.pipeline_bottleneck.has_value()) {
    const PipelineBottleneckLink& link = *a.pipeline_bottleneck;
    w->Key("pipeline_bottleneck");
    w->BeginObject();
    w->Field("tool", "tf_data_bottleneck_analysis");
    w->Field("pipeline", link.pipeline);
    w->Field("stage", link.stage);
    w->Field("kind", link.kind);
    w->Field("share_percent", link.share_percent);
    w->Field("self_time_per_call_us", link.self_time_per_call_us);
    w->Field("suggestion", link.suggestion);
    w->Field("statement", link.statement);
    w->EndObject();
  }
  output::EndResultJson(a.diagnostics, w);
}

std::vector<Table> BuildTables(const InputPipelineAnalysis& a) {
  return {StepTimeTable(a.steps, a.summary), InputShareTable(a), InputOpsTable(a), HostBreakdownTable(a)};
}

std::string FormatResultText(const InputPipelineAnalysis& a, const ToolOptions& options) {
  const StepTimeSummary& s = a.summary;
  auto stats = [](const SummaryStats& st) {
    return "mean " + output::FormatFixed(st.mean, 2) + "  stddev " + output::FormatFixed(st.stddev, 2) + "  min " +
           output::FormatFixed(st.min, 2) + "  max " + output::FormatFixed(st.max, 2);
  };
  std::vector<std::pair<std::string, std::string>> rows = {{"Framework", FrameworkText(s.framework)},
                                                           {"Steps", std::to_string(s.step_count)}};
  if (s.step_count > 0) {
    rows.push_back({"Input bound", std::string(InputBoundVerdictName(s.verdict)) + " (" + Pct(s.input_percent) +
                                       " of step time)"});
    rows.push_back({"Step time (ms)", stats(s.step_time_ms)});
    rows.push_back({"Input per step (ms)", stats(s.input_time_ms)});
  } else {
    rows.push_back({"Input bound", "unknown (no steps)"});
  }
  std::string out = output::FormatKeyValues("Input pipeline analysis", rows);
  out += "  " + output::SanitizeForTerminal(s.statement) + "\n\n";
  if (s.step_count > 0) out += output::FormatTextTable(StepBreakdownTable(s, /*for_people=*/true)) + "\n";
  const output::TextTableOptions table_options{options.text_max_rows};
  for (const Table& t : BuildTables(a)) {
    if (t.name == "steps") continue;  // long; in JSON/CSV
    if (t.name == "input_share" && t.rows.empty()) continue;  // no steps: said above
    out += output::FormatTextTable(t, table_options) + "\n";
  }
  out += "Recommendation\n  " + output::SanitizeForTerminal(a.recommendation) + "\n";
  if (a.pipeline_bottleneck.has_value()) {
    out += "  " + output::SanitizeForTerminal(a.pipeline_bottleneck->statement) + "\n";
  }
  for (const std::string& d : a.diagnostics) out += "  note: " + output::SanitizeForTerminal(d) + "\n";
  return out;
}

namespace {

class InputPipelineTool final : public Tool {
 public:
  std::string_view id() const override { return "input_pipeline_analyzer"; }
  std::string_view description() const override {
    return "Is the program input bound? Input share of step time, step statistics, host input breakdown and "
           "input ops.";
  }
  StatusOr<std::unique_ptr<ToolResult>> Compute(const ProfileModel& model, const ToolOptions&) const override {
    return MakeToolResult(ComputeInputPipelineAnalysis(model));
  }
};

}  // namespace

std::unique_ptr<Tool> MakeInputPipelineTool() { return std::make_unique<InputPipelineTool>(); }

}  // namespace stepscope::analysis
