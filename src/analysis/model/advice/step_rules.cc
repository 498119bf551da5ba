// The advisor's rules about steps and recording: no steps, gaps between steps, a device that
// falls behind the host, unexplained step time, events dropped while recording.
#include <algorithm>

#include "src/analysis/model/advice/rule_context.h"

namespace stepscope::analysis::advice {

void Rules::NoSteps() {
  if (HasSteps()) {
    Check("no_steps", false, Num(c_.steps.step_count) + " steps found");
    return;
  }
  Fire({"no_steps", Severity::kHigh, "No training steps were found",
        "the profile has no step markers (" + Num(c_.model.total_events) +
            " events read), so step time and its breakdown cannot be computed",
        {{"steps", 0, ""}},
        std::string(HowToMarkSteps(framework())),
        "overview_page", 100});
}

void Rules::StepGaps() {
  const auto& steps = c_.model.steps;
  if (steps.size() < 2) {
    Check("step_gaps", false, "not applicable: fewer than 2 steps");
    return;
  }
  int64_t gap_ps = 0, largest_gap_ps = 0, largest_after = 0, gaps = 0;
  int64_t first = steps.front().begin_ps, last_end = steps.front().begin_ps + steps.front().duration_ps;
  for (size_t i = 0; i + 1 < steps.size(); ++i) {
    const int64_t end = steps[i].begin_ps + steps[i].duration_ps;
    const int64_t gap = steps[i + 1].begin_ps - end;
    first = std::min(first, steps[i + 1].begin_ps);
    last_end = std::max(last_end, steps[i + 1].begin_ps + steps[i + 1].duration_ps);
    if (gap <= 0) continue;
    gap_ps += gap;
    ++gaps;
    if (gap > largest_gap_ps) {
      largest_gap_ps = gap;
      largest_after = steps[i].step_number;
    }
  }
  const double percent = Percent(gap_ps, last_end - first);
  if (percent < kStepGapPercent) {
    Check("step_gaps", false, "time between steps " + Pct(percent) + " < " + Pct(kStepGapPercent));
    return;
  }
  const double avg_gap_ms = PsToMs(gap_ps) / std::max<int64_t>(1, gaps);
  // What runs in the gaps, outermost host work first (the model's work_between_steps).
  std::string in_gaps;
  const std::vector<WorkBetweenSteps::Op>& work = c_.model.work_between_steps.ops;
  for (size_t i = 0; i < work.size() && i < 3; ++i) {
    in_gaps += (i > 0 ? ", " : "; in the gaps: ") + work[i].name + " " + Ms(PsToMs(work[i].time_ps));
  }
  if (work.empty()) in_gaps = "; no recorded host event runs in the gaps";
  Fire({"step_gaps", percent >= 25 ? Severity::kMedium : Severity::kLow,
        "Gaps between steps: " + Pct(percent) + " of the time",
        Pct(percent) + " of the time from the first step to the last is between steps (" + Num(gaps) +
            " gaps, average " + Ms(avg_gap_ms) + ", largest " + Ms(PsToMs(largest_gap_ps)) + " after step " +
            Num(largest_after) + ")" + in_gaps,
        {{"step_gap_percent", percent, "%"}, {"avg_gap_ms", avg_gap_ms, "ms"}},
        "Work between steps is invisible in step time: logging, checkpoints, summaries, metric fetches or a "
        "batch fetched outside the step. Do it less often or asynchronously, or move it inside the step.",
        "overview_page", percent});
}

void Rules::DeviceFallsBehind() {
  const std::optional<StepCadence>& cadence = c_.steps.cadence;
  if (!cadence || cadence->steps < 2 || cadence->host_interval_ps <= 0) {
    Check("device_falls_behind", false, "not applicable: no host and device cadence (fewer than 2 steps with device work)");
    return;
  }
  const double percent = Percent(cadence->lag_growth_per_step_ps(), cadence->host_interval_ps);
  if (percent < kDeviceFallsBehindPercent) {
    Check("device_falls_behind", false,
          "device lag grows " + Pct(percent) + " of the host's step interval per step < " +
              Pct(kDeviceFallsBehindPercent));
    return;
  }
  const double growth_ms = PsToMs(cadence->lag_growth_per_step_ps());
  Fire({"device_falls_behind", percent >= 10 ? Severity::kHigh : Severity::kMedium,
        "The device falls " + Ms(growth_ms) + " further behind the host every step",
        c_.steps.cadence_statement + " (device lag up to " + Ms(PsToMs(cadence->max_device_lag_ps)) + ")",
        {{"host_interval_ms", PsToMs(cadence->host_interval_ps), "ms"},
         {"device_interval_ms", PsToMs(cadence->device_interval_ps), "ms"},
         {"lag_growth_per_step_ms", growth_ms, "ms"}},
        "The device sets the pace: the host is still filling the launch queue, so its own step times understate "
        "the step and the profile has not reached steady state. Speed up the device work (kernel_stats), or "
        "profile more steps; host-side optimisations will not shorten the step.",
        "overview_page", percent});
}

void Rules::UnexplainedTime() {
  const double p = c_.steps.all_other_percent;
  if (!HasSteps() || p < kUnexplainedTimeHighPercent || c_.steps.potentially_input_bound) {
    Check("unexplained_step_time", false,
          "unexplained " + Pct(p) + " of step time" +
              (c_.steps.potentially_input_bound ? " (reported as possibly input bound)"
                                                : " < " + Pct(kUnexplainedTimeHighPercent)));
    return;
  }
  Fire({"unexplained_step_time", Severity::kLow, Pct(p) + " of step time is unexplained",
        Pct(p) + " of step time is covered by no recorded op, copy or kernel",
        {{"all_other_percent", p, "%"}},
        "Record the missing work: " + std::string(HowToAnnotate(framework())) +
            "; the usual culprits are Python overhead, eager ops and synchronisation.",
        "overview_page", p});
}

void Rules::DroppedEvents() {
  const int64_t dropped = c_.model.run_environment.dropped_traces;
  if (dropped <= 0) {
    Check("dropped_events", false, "no events dropped while recording");
    return;
  }
  const double percent = Percent(dropped, dropped + c_.model.total_events);
  Fire({"dropped_events", percent >= 1 ? Severity::kHigh : Severity::kMedium,
        Num(dropped) + " events were dropped while recording",
        Num(dropped) + " events (" + Pct(percent) +
            " of those recorded) were lost to full per-thread buffers; times and counts here undercount",
        {{"dropped_events", static_cast<double>(dropped), ""}, {"dropped_percent", percent, "%"}},
        "Record a shorter window, lower host_tracer_level, or raise ProfileOptions::per_thread_buffer_bytes.",
        "overview_page", percent});
}

}  // namespace stepscope::analysis::advice
