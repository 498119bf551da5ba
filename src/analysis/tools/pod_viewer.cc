#include "src/analysis/tools/pod_viewer.h"

#include <algorithm>
#include <map>

#include "src/analysis/model/derivations.h"
#include "src/analysis/model/units.h"
#include "src/analysis/output/text_table.h"
#include "src/analysis/output/tool_output.h"
#include "src/analysis/tools/framework.h"

namespace stepscope::analysis {
namespace {

std::string HostName(const PodViewerResult& r, int host_index) {
  return host_index >= 0 && host_index < static_cast<int>(r.hosts.size()) ? r.hosts[host_index]
                                                                          : "host " + std::to_string(host_index);
}

PodWorkerStep MakeWorkerStep(int64_t step_number, int host_index, int64_t duration_ps, const StepBreakdown& breakdown) {
  PodWorkerStep worker;
  worker.step_number = step_number;
  worker.host_index = host_index;
  worker.step_time_ms = PsToMs(duration_ps);
  worker.input_percent = Percent(static_cast<double>(breakdown.input_ps()), static_cast<double>(duration_ps));
  for (int c = 0; c < kNumTimeCategories; ++c) {
    worker.category_ms[c] = PsToMs(breakdown.category_ps(static_cast<TimeCategory>(c)));
  }
  worker.busy_ms = PsToMs(duration_ps - breakdown.category_ps(TimeCategory::kOther));
  return worker;
}

bool StepsAreWindows(const ProfileModel& model) {
  return !model.steps.empty() && (model.steps.front().time_source == StepTimeSource::kStepStarts ||
                                  model.steps.front().time_source == StepTimeSource::kDeviceCompletions);
}

std::string FormatMs(double ms) { return output::FormatFixed(ms, 2) + " ms"; }

// A step and its workers while they are measured; the result lists all steps' workers in
// one table (step_workers).
struct StepBars {
  PodStep step;
  std::vector<PodWorkerStep> workers;  // in host order
};

// Appends the measured step to `r`: its workers, named, to r->step_workers.
void AddStep(StepBars bars, PodViewerResult* r) {
  bars.step.slowest_host = HostName(*r, bars.step.slowest_host_index);
  bars.step.first_worker = r->step_workers.size();
  for (PodWorkerStep& w : bars.workers) {
    w.host = HostName(*r, w.host_index);
    r->step_workers.push_back(std::move(w));
  }
  r->steps.push_back(std::move(bars.step));
}

std::string Statement(const PodViewerResult& r, Framework framework) {
  if (r.steps.empty()) {
    return "No steps were found, so the workers cannot be compared. " + std::string(HowToMarkSteps(framework));
  }
  if (r.hosts.size() <= 1) {
    const PodWorkerSummary& w = r.workers.front();
    return "One worker (" + w.host + "): " + std::to_string(w.steps) + " steps, " + FormatMs(w.avg_step_time_ms) +
           " per step on average.";
  }
  int64_t multi_steps = 0;
  double max_sum = 0;
  for (const PodStep& s : r.steps) {
    if (s.worker_count < 2) continue;
    ++multi_steps;
    max_sum += s.max_step_time_ms;
  }
  std::string text = std::to_string(r.hosts.size()) + " workers, " + std::to_string(r.steps.size()) + " steps";
  if (multi_steps == 0) return text + ": no step was run by two workers, so they cannot be compared.";
  double avg_max = max_sum / static_cast<double>(multi_steps);
  text += r.compared_by == "busy_time" ? ": the busiest worker works " : ": the slowest worker takes ";
  text += FormatMs(r.avg_spread_ms) + " (" + output::FormatFixed(Percent(r.avg_spread_ms, avg_max), 1) +
          " % of the step) longer than the fastest on average";
  if (r.straggler_host_index.has_value()) {
    const PodWorkerSummary& w = r.workers[*r.straggler_host_index];
    text += "; " + w.host + " is the slowest in " + std::to_string(w.slowest_steps) + " of " +
            std::to_string(multi_steps) + " steps";
  } else {
    text += "; no worker is consistently the slowest";
  }
  return text + ".";
}

}  // namespace

// ComputePodViewer's body, reading the model's derivations from the cache in use (the model's, or
// a fresh one for ComputePodViewer).
static PodViewerResult BuildPodViewer(const ProfileModel& model) {
  PodViewerResult r;
  r.hosts = model.hostnames;
  r.diagnostics = model.diagnostics;
  // Steps matched across hosts by number (a combined model already did that, but a
  // model may list a number twice if a host restarted its count: keep them apart).
  std::vector<StepBars> bars;
  for (const StepInfo& step : model.steps) {
    StepBars& pod = bars.emplace_back();
    pod.step.step_number = step.step_number;
    pod.step.name = step.name;
    if (step.per_host.empty()) {
      pod.workers.push_back(MakeWorkerStep(step.step_number, 0, step.duration_ps, step.breakdown));
    } else {
      for (const HostStep& host : step.per_host) {
        pod.workers.push_back(MakeWorkerStep(step.step_number, host.host_index, host.duration_ps, host.breakdown));
      }
      std::stable_sort(pod.workers.begin(), pod.workers.end(),
                       [](const PodWorkerStep& a, const PodWorkerStep& b) { return a.host_index < b.host_index; });
    }
  }
  std::stable_sort(bars.begin(), bars.end(),
                   [](const StepBars& a, const StepBars& b) { return a.step.step_number < b.step.step_number; });

  int host_count = static_cast<int>(r.hosts.size());
  for (const StepBars& b : bars) {
    for (const PodWorkerStep& w : b.workers) host_count = std::max(host_count, w.host_index + 1);
  }
  if (host_count == 0) host_count = 1;
  while (static_cast<int>(r.hosts.size()) < host_count) r.hosts.push_back("host " + std::to_string(r.hosts.size()));

  // Several workers on one machine (ranks of one node, or local test processes) report the
  // same host name; the bars, tables and the UI key workers by name, so each gets a
  // distinct one.
  std::map<std::string, int> name_count;
  for (const std::string& host : r.hosts) ++name_count[host];
  for (const auto& [name, count] : name_count) {
    if (count < 2) continue;
    r.diagnostics.push_back(std::to_string(count) + " workers report the same host name '" + name +
                            "'; they are shown as '" + name + " #<worker index>'");
  }
  for (size_t h = 0; h < r.hosts.size(); ++h) {
    if (name_count[r.hosts[h]] > 1) r.hosts[h] += " #" + std::to_string(h);
  }

  r.workers.resize(host_count);
  for (int h = 0; h < host_count; ++h) {
    r.workers[h].host_index = h;
    r.workers[h].host = r.hosts[h];
  }
  const bool by_busy = StepsAreWindows(model);
  if (by_busy) r.compared_by = "busy_time";
  std::vector<double> step_time_sum(host_count, 0), lag_sum(host_count, 0), input_ps_weighted(host_count, 0);
  int64_t multi_steps = 0;
  double spread_sum = 0;
  for (StepBars& bar : bars) {
    PodStep& s = bar.step;
    s.worker_count = static_cast<int>(bar.workers.size());
    if (bar.workers.empty()) continue;
    auto compared = [&](const PodWorkerStep& w) { return by_busy ? w.busy_ms : w.step_time_ms; };
    auto [fastest, slowest] = std::minmax_element(
        bar.workers.begin(), bar.workers.end(),
        [&](const PodWorkerStep& a, const PodWorkerStep& b) { return compared(a) < compared(b); });
    s.min_step_time_ms = compared(*fastest);
    s.max_step_time_ms = compared(*slowest);
    s.spread_ms = s.max_step_time_ms - s.min_step_time_ms;
    s.slowest_host_index = slowest->host_index;
    if (s.worker_count == host_count) ++r.steps_on_all_hosts;
    if (s.worker_count >= 2) {
      ++multi_steps;
      spread_sum += s.spread_ms;
      if (!r.max_spread_step.has_value() || s.spread_ms > r.max_spread_ms) {
        r.max_spread_ms = s.spread_ms;
        r.max_spread_step = s.step_number;
      }
      ++r.workers[s.slowest_host_index].slowest_steps;
    }
    for (PodWorkerStep& w : bar.workers) {
      w.lag_ms = compared(w) - s.min_step_time_ms;
      PodWorkerSummary& summary = r.workers[w.host_index];
      ++summary.steps;
      step_time_sum[w.host_index] += w.step_time_ms;
      lag_sum[w.host_index] += w.lag_ms;
      input_ps_weighted[w.host_index] += w.input_percent * w.step_time_ms;
      for (int c = 0; c < kNumTimeCategories; ++c) summary.avg_category_ms[c] += w.category_ms[c];
    }
  }
  for (int h = 0; h < host_count; ++h) {
    PodWorkerSummary& summary = r.workers[h];
    if (summary.steps == 0) continue;
    double n = static_cast<double>(summary.steps);
    summary.avg_step_time_ms = step_time_sum[h] / n;
    summary.avg_lag_ms = lag_sum[h] / n;
    summary.input_percent = step_time_sum[h] > 0 ? input_ps_weighted[h] / step_time_sum[h] : 0;
    for (double& ms : summary.avg_category_ms) ms /= n;
  }
  if (multi_steps > 0) {
    r.avg_spread_ms = spread_sum / static_cast<double>(multi_steps);
    auto most = std::max_element(r.workers.begin(), r.workers.end(),
                                 [](const PodWorkerSummary& a, const PodWorkerSummary& b) {
                                   return a.slowest_steps < b.slowest_steps;
                                 });
    double share = Percent(static_cast<double>(most->slowest_steps), static_cast<double>(multi_steps));
    if (host_count >= 2 && share >= kStragglerSharePercent) {
      r.straggler_host_index = most->host_index;
      r.straggler_slowest_percent = share;
    }
  }
  for (StepBars& bar : bars) AddStep(std::move(bar), &r);
  if (host_count >= 2 && r.steps_on_all_hosts < static_cast<int64_t>(r.steps.size())) {
    r.diagnostics.push_back(std::to_string(static_cast<int64_t>(r.steps.size()) - r.steps_on_all_hosts) + " of " +
                            std::to_string(r.steps.size()) +
                            " steps were not recorded on every worker (their capture windows differ); those "
                            "steps show only the workers that have them");
  }
  for (const PodWorkerSummary& w : r.workers) {
    if (w.steps == 0 && host_count >= 2) {
      r.diagnostics.push_back("worker " + w.host + " has no steps (no step markers in its profile?)");
    }
  }
  r.statement = Statement(r, FrameworkOf(model).framework);
  return r;
}

PodViewerResult ComputePodViewer(const ProfileModel& model) {
  return WithFreshDerivations(model, [&] { return BuildPodViewer(model); });
}

std::span<const PodWorkerStep> StepWorkers(const PodViewerResult& r, const PodStep& step) {
  return std::span<const PodWorkerStep>(r.step_workers).subspan(step.first_worker,
                                                                static_cast<size_t>(step.worker_count));
}

std::string FormatResultText(const PodViewerResult& r, const ToolOptions& options) {
  std::vector<std::pair<std::string, std::string>> rows = {
      {"Workers", std::to_string(r.hosts.size())},
      {"Steps", std::to_string(r.steps.size()) + " (" + std::to_string(r.steps_on_all_hosts) + " on every worker)"}};
  if (r.hosts.size() > 1 && r.max_spread_step.has_value()) {
    rows.push_back({"Average spread", FormatMs(r.avg_spread_ms)});
    rows.push_back({"Largest spread", FormatMs(r.max_spread_ms) + " at step " + std::to_string(*r.max_spread_step)});
  }
  std::string out = output::FormatKeyValues("Pod viewer", rows);
  out += "  " + r.statement + "\n";
  // Not step_workers: one row per step and worker is for CSV and the chart, not a terminal.
  std::vector<output::Table> tables = output::RecordTables(r);
  std::erase_if(tables, [](const output::Table& t) { return t.name == "step_workers"; });
  return out + output::FormatResultTextEnd(tables, r.diagnostics, options.text_max_rows);
}

namespace {

class PodViewerTool final : public DeclaredTool<PodViewerResult> {
 public:
  std::string_view id() const override { return "pod_viewer"; }
  std::string_view description() const override {
    return "Every worker's step time stacked by category, step by step: which worker lags, when, and why.";
  }
  StatusOr<std::unique_ptr<ToolResult>> Compute(const ProfileModel& model, const ToolOptions&) const override {
    return MakeToolResult(BuildPodViewer(model));
  }
};

}  // namespace

std::unique_ptr<Tool> MakePodViewerTool() { return std::make_unique<PodViewerTool>(); }

}  // namespace stepscope::analysis
