#include "src/analysis/tools/pod_viewer.h"

#include <algorithm>
#include <initializer_list>
#include <map>
#include <variant>

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

// Numeric cells only (GCC 12 warns spuriously about braced rows mixing strings in).
void AppendCells(output::Row* row, std::initializer_list<std::variant<int64_t, double>> cells) {
  for (const auto& cell : cells) {
    if (std::holds_alternative<int64_t>(cell)) {
      row->emplace_back(std::get<int64_t>(cell));
    } else {
      row->emplace_back(std::get<double>(cell));
    }
  }
}

std::string FormatMs(double ms) { return output::FormatFixed(ms, 2) + " ms"; }

void AddCategoryColumns(output::Table* table, std::string_view prefix) {
  for (int c = 0; c < kNumTimeCategories; ++c) {
    std::string key(TimeCategoryKey(static_cast<TimeCategory>(c)));
    table->columns.push_back({std::string(prefix) + key + "_ms", key + " (ms)", output::ColumnType::kDouble, 2});
  }
}

output::Table WorkersTable(const PodViewerResult& r) {
  output::Table table;
  table.name = "workers";
  table.title = "Workers";
  table.columns = {{"host", "Worker", output::ColumnType::kString, 0, 40},
                   {"host_index", "#", output::ColumnType::kInt},
                   {"steps", "Steps", output::ColumnType::kInt},
                   {"avg_step_time_ms", "Avg step (ms)", output::ColumnType::kDouble, 2},
                   {"avg_lag_ms", "Avg lag (ms)", output::ColumnType::kDouble, 2},
                   {"slowest_steps", "Slowest in", output::ColumnType::kInt},
                   {"input_percent", "Input %", output::ColumnType::kDouble, 1}};
  AddCategoryColumns(&table, "avg_");
  for (const PodWorkerSummary& w : r.workers) {
    output::Row row;
    row.emplace_back(std::in_place_type<std::string>, w.host);
    AppendCells(&row, {int64_t{w.host_index}, w.steps, w.avg_step_time_ms, w.avg_lag_ms, w.slowest_steps,
                       w.input_percent});
    for (double ms : w.avg_category_ms) row.emplace_back(ms);
    table.AddRow(std::move(row));
  }
  return table;
}

output::Table StepsTable(const PodViewerResult& r) {
  output::Table table;
  table.name = "steps";
  table.title = "Steps";
  table.columns = {{"step_number", "Step", output::ColumnType::kInt},
                   {"step_name", "Name", output::ColumnType::kString, 0, 30},
                   {"worker_count", "Workers", output::ColumnType::kInt},
                   {"max_step_time_ms", "Slowest (ms)", output::ColumnType::kDouble, 2},
                   {"min_step_time_ms", "Fastest (ms)", output::ColumnType::kDouble, 2},
                   {"spread_ms", "Spread (ms)", output::ColumnType::kDouble, 2},
                   {"slowest_host", "Slowest worker", output::ColumnType::kString, 0, 40}};
  for (const PodStep& s : r.steps) {
    output::Row row;
    row.emplace_back(s.step_number);
    row.emplace_back(std::in_place_type<std::string>, s.name);
    AppendCells(&row, {int64_t{s.worker_count}, s.max_step_time_ms, s.min_step_time_ms, s.spread_ms});
    row.emplace_back(std::in_place_type<std::string>, HostName(r, s.slowest_host_index));
    table.AddRow(std::move(row));
  }
  return table;
}

output::Table StepWorkersTable(const PodViewerResult& r) {
  output::Table table;
  table.name = "step_workers";
  table.title = "Step time per worker";
  table.columns = {{"step_number", "Step", output::ColumnType::kInt},
                   {"host", "Worker", output::ColumnType::kString, 0, 40},
                   {"host_index", "#", output::ColumnType::kInt},
                   {"step_time_ms", "Step (ms)", output::ColumnType::kDouble, 2},
                   {"lag_ms", "Lag (ms)", output::ColumnType::kDouble, 2},
                   {"input_percent", "Input %", output::ColumnType::kDouble, 1}};
  AddCategoryColumns(&table, "");
  for (const PodStep& s : r.steps) {
    for (const PodWorkerStep& w : s.workers) {
      output::Row row;
      row.emplace_back(w.step_number);
      row.emplace_back(std::in_place_type<std::string>, HostName(r, w.host_index));
      AppendCells(&row, {int64_t{w.host_index}, w.step_time_ms, w.lag_ms, w.input_percent});
      for (double ms : w.category_ms) row.emplace_back(ms);
      table.AddRow(std::move(row));
    }
  }
  return table;
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
  for (const StepInfo& step : model.steps) {
    PodStep pod;
    pod.step_number = step.step_number;
    pod.name = step.name;
    if (step.per_host.empty()) {
      pod.workers.push_back(MakeWorkerStep(step.step_number, 0, step.duration_ps, step.breakdown));
    } else {
      for (const HostStep& host : step.per_host) {
        pod.workers.push_back(MakeWorkerStep(step.step_number, host.host_index, host.duration_ps, host.breakdown));
      }
      std::stable_sort(pod.workers.begin(), pod.workers.end(),
                       [](const PodWorkerStep& a, const PodWorkerStep& b) { return a.host_index < b.host_index; });
    }
    r.steps.push_back(std::move(pod));
  }
  std::stable_sort(r.steps.begin(), r.steps.end(),
                   [](const PodStep& a, const PodStep& b) { return a.step_number < b.step_number; });

  int host_count = static_cast<int>(r.hosts.size());
  for (const PodStep& s : r.steps) {
    for (const PodWorkerStep& w : s.workers) host_count = std::max(host_count, w.host_index + 1);
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
  for (PodStep& s : r.steps) {
    s.worker_count = static_cast<int>(s.workers.size());
    if (s.workers.empty()) continue;
    auto compared = [&](const PodWorkerStep& w) { return by_busy ? w.busy_ms : w.step_time_ms; };
    auto [fastest, slowest] = std::minmax_element(
        s.workers.begin(), s.workers.end(),
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
    for (PodWorkerStep& w : s.workers) {
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

void WriteResultJson(const PodViewerResult& r, output::JsonWriter* w) {
  w->BeginObject();
  w->Field("tool", "pod_viewer");
  w->Field("host_count", static_cast<int64_t>(r.hosts.size()));
  w->Key("hosts");
  w->BeginArray();
  for (const std::string& host : r.hosts) w->String(host);
  w->EndArray();
  w->Field("step_count", static_cast<int64_t>(r.steps.size()));
  w->Field("steps_on_all_hosts", r.steps_on_all_hosts);
  w->Key("categories");
  w->BeginArray();
  for (int c = 0; c < kNumTimeCategories; ++c) w->String(TimeCategoryKey(static_cast<TimeCategory>(c)));
  w->EndArray();
  w->Key("summary");
  w->BeginObject();
  w->Field("avg_spread_ms", r.avg_spread_ms);
  w->Field("max_spread_ms", r.max_spread_ms);
  w->Key("max_spread_step");
  if (r.max_spread_step.has_value()) {
    w->Int(*r.max_spread_step);
  } else {
    w->Null();
  }
  w->Key("straggler_host");
  if (r.straggler_host_index.has_value()) {
    w->String(r.hosts[*r.straggler_host_index]);
  } else {
    w->Null();
  }
  w->Field("straggler_slowest_percent", r.straggler_slowest_percent);
  w->Field("compared_by", r.compared_by);
  w->Field("statement", r.statement);
  w->EndObject();
  output::WriteTablesJson(BuildTables(r), w);
  output::EndResultJson(r.diagnostics, w);
}

std::vector<output::Table> BuildTables(const PodViewerResult& r) {
  return {WorkersTable(r), StepsTable(r), StepWorkersTable(r)};
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
  return out + output::FormatResultTextEnd({WorkersTable(r), StepsTable(r)}, r.diagnostics, options.text_max_rows);
}

namespace {

class PodViewerTool final : public Tool {
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
