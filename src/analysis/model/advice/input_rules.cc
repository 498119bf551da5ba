// The advisor's rules about input: input bound (naming the tf.data bottleneck stage when
// the tf.data analysis found one), dataset fetches outside the step.
#include <algorithm>

#include "src/analysis/model/advice/rule_context.h"

namespace stepscope::analysis::advice {
namespace {

// Where to fetch the batch so that the fetch falls inside the step, in the framework's API.
std::string FetchInsideStep(Framework f) {
  switch (f) {
    case Framework::kPyTorch:
      return "Call prof.step() once per iteration at the end of the loop body, so each batch's fetch "
             "(enumerate(DataLoader)#...__next__) falls inside a ProfilerStep.";
    case Framework::kTensorFlow:
      return "Fetch the next batch inside the step scope: `with tf.profiler.experimental.Trace('train', "
             "step_num=step, _r=1): batch = next(iterator)`.";
    case Framework::kJax:
      return "Fetch the next batch inside `with jax.profiler.StepTraceAnnotation('train', step_num=step):`.";
    case Framework::kStepscope:
      return "Fetch the next batch inside the step: stepscope::Step step(\"train\", n); then "
             "{ stepscope::ScopedGetNext get_next; batch = pipeline.Next(); }.";
    case Framework::kUnknown: break;
  }
  return "Fetch the next batch inside the step scope: `with tf.profiler.experimental.Trace('train', "
         "step_num=step, _r=1): batch = next(iterator)` (Python) or inside stepscope::Step (C++).";
}

}  // namespace

void Rules::InputBound() {
  const StepTimeSummary& s = c_.steps;
  if (!HasSteps()) {
    Check("input_bound", false, "not applicable: no steps");
    return;
  }
  const std::string numbers = "input " + Pct(s.input_percent) + " of step time (" +
                              Ms(s.input_time_ms.mean) + " of " + Ms(s.avg_step_time_ms) + " per step)";
  if (s.verdict == InputBoundVerdict::kHighly || s.verdict == InputBoundVerdict::kModerately) {
    const bool highly = s.verdict == InputBoundVerdict::kHighly;
    const std::optional<PipelineBottleneckLink>& stage = c_.input.pipeline_bottleneck;
    if (stage.has_value()) {
      // The stage to fix and its own suggestion, from tf_data_bottleneck_analysis.
      Fire({"input_bound", highly ? Severity::kHigh : Severity::kMedium,
            std::string(highly ? "Highly" : "Moderately") + " input bound \u2014 the bottleneck is stage " +
                stage->stage,
            numbers + "; " + stage->statement,
            {{"input_percent", s.input_percent, "%"},
             {"input_ms_per_step", s.input_time_ms.mean, "ms"},
             {"bottleneck_share_percent", stage->share_percent, "%"}},
            stage->suggestion, "tf_data_bottleneck_analysis", s.input_percent});
      return;
    }
    Fire({"input_bound", highly ? Severity::kHigh : Severity::kMedium,
          std::string(highly ? "Highly" : "Moderately") + " input bound: input is " + Pct(s.input_percent) +
              " of step time",
          numbers,
          {{"input_percent", s.input_percent, "%"}, {"input_ms_per_step", s.input_time_ms.mean, "ms"}},
          c_.input.recommendation, "input_pipeline_analyzer", s.input_percent});
  } else if (s.potentially_input_bound) {
    Fire({"input_bound", Severity::kLow,
          "Possibly input bound: " + Pct(s.all_other_percent) + " of step time is unexplained",
          numbers + "; " + Pct(s.all_other_percent) + " of step time is covered by no recorded event",
          {{"input_percent", s.input_percent, "%"}, {"all_other_percent", s.all_other_percent, "%"}},
          c_.input.recommendation, "input_pipeline_analyzer", s.all_other_percent});
  } else {
    Check("input_bound", false, numbers + " < " + Pct(kModeratelyInputBoundThresholdPercent));
  }
}

void Rules::GetNextOutsideSteps() {
  const InputPipelineFacts& f = c_.model.input_pipeline;
  if (f.get_next_outside_steps <= 0 || !HasSteps()) {
    Check("get_next_outside_step", false,
          Num(f.get_next_outside_steps) + " of " + Num(f.get_next_count) + " input fetches outside steps");
    return;
  }
  Fire({"get_next_outside_step", Severity::kMedium, "The dataset iterator is fetched outside the step",
        Num(f.get_next_outside_steps) + " of " + Num(f.get_next_count) +
            " input fetches (IteratorGetNext, DataLoader __next__) happen outside any step, so their wait is "
            "missing from the step breakdown "
            "and the input share is understated",
        {{"get_next_outside_steps", static_cast<double>(f.get_next_outside_steps), ""},
         {"get_next_count", static_cast<double>(f.get_next_count), ""}},
        FetchInsideStep(framework()),
        "input_pipeline_analyzer", 0});
}

}  // namespace stepscope::analysis::advice
