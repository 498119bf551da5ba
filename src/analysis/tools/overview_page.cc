#include "src/analysis/tools/overview_page.h"

#include <algorithm>

#include "src/analysis/model/derivations.h"
#include "src/analysis/model/units.h"
#include "src/analysis/output/text_table.h"
#include "src/analysis/output/tool_output.h"

namespace stepscope::analysis {
namespace {

using output::FormatFixed;
using output::Table;

std::string Pct(double percent) { return FormatFixed(percent, 1) + " %"; }

std::string NextStep(const OverviewPage& p) {
  if (!p.recommendations.empty()) {
    const Finding& top = p.recommendations.front();
    return top.title + ". " + top.advice;
  }
  const StepTimeSummary& s = p.summary;
  if (s.step_count == 0) return s.statement;
  int largest = 0;
  for (int c = 1; c < kNumTimeCategories; ++c) {
    if (s.category_percent[c] > s.category_percent[largest]) largest = c;
  }
  return "The advisor's checks found nothing to fix. " + s.statement + " Most of the step is " +
         std::string(TimeCategoryLabel(static_cast<TimeCategory>(largest))) + " (" + Pct(s.category_percent[largest]) +
         "); see framework_op_stats for the ops behind it.";
}

}  // namespace

// ComputeOverviewPage's body, reading the model's derivations from the cache in use (the model's, or
// a fresh one for ComputeOverviewPage).
static OverviewPage BuildOverviewPage(const ProfileModel& model) {
  OverviewPage p;
  p.summary = StepSummaryOf(model);
  p.steps = StepRowsOf(model);
  p.run_environment = model.run_environment;
  for (const DeviceActivity& d : model.devices) {
    if (d.has_activity()) p.device_compute_units += d.capabilities.core_count;
  }
  p.device_models = CountDeviceModels(model);
  p.hostnames = model.hostnames;
  p.has_device = model.has_device;
  p.placement = OpPlacementOf(model);
  p.diagnostics = model.diagnostics;
  for (const DeviceActivity& d : model.devices) {
    for (const DeviceCounterSummary& c : d.counters) {
      DeviceCounterRow row;
      row.host = model.hostnames.empty() ? "" : model.hostnames[d.host_index];
      row.device = d.plane_name;
      row.counter = c.name;
      row.samples = c.samples;
      row.mean = c.mean;
      row.min = c.min;
      row.max = c.max;
      row.last = c.last;
      row.threshold = c.threshold;
      row.at_or_above_percent = c.time_at_or_above_threshold_percent;
      p.device_counters.push_back(std::move(row));
    }
  }

  const double device_self_ps = static_cast<double>(model.device_ops.total_self_time_ps);
  double cumulative = 0;
  for (const OpMetrics& op : model.device_ops.ops) {  // sorted by self time, descending
    if (p.top_device_ops.size() == kTopDeviceOps) break;
    TopDeviceOp top;
    top.rank = static_cast<int64_t>(p.top_device_ops.size() + 1);
    top.name = op.name;
    top.type = op.type;
    top.category = std::string(OpCategoryName(op.category));
    top.occurrences = op.occurrences;
    top.self_time_ms = PsToMs(op.self_time_ps);
    top.self_time_percent = Percent(op.self_time_ps, device_self_ps);
    cumulative += top.self_time_percent;
    top.cumulative_percent = std::min(cumulative, 100.0);
    p.top_device_ops.push_back(std::move(top));
  }
  if (model.hlo != nullptr) p.xla = HloSummaryOf(model);
  p.recommendations = AdviceOf(model).findings;
  p.next_step = NextStep(p);
  return p;
}

OverviewPage ComputeOverviewPage(const ProfileModel& model) {
  return WithFreshDerivations(model, [&] { return BuildOverviewPage(model); });
}

bool ShowColumn(const OverviewPage& p, std::string_view table, std::string_view column) {
  return table != "steps" || StepColumnShown(p.summary, column);
}

namespace {

// What a step's time is, in words (StepTimeSummary::step_time_source).
std::string StepTimeSourceText(std::string_view source) {
  if (source == "step_starts") return "the program's iteration: from a step's start to the next step's start";
  if (source == "device_completions") {
    return "the device's cadence: from one step's device work ending to the next one's (the device is slower)";
  }
  if (source == "device_marker") return "the span of the step's device work";
  return "the host step marker";
}

}  // namespace

std::string FormatResultText(const OverviewPage& p, const ToolOptions& options) {
  const StepTimeSummary& s = p.summary;
  const RunEnvironment& env = p.run_environment;
  std::string precision = "unknown (no device compute)";
  if (s.device_compute_16bit_percent.has_value()) {
    precision = Pct(*s.device_compute_16bit_percent) + " 16-bit, " + Pct(100.0 - *s.device_compute_16bit_percent) +
                " 32-bit";
  }
  std::string hosts;
  for (const std::string& h : p.hostnames) hosts += (hosts.empty() ? "" : ", ") + h;
  std::string out = output::FormatKeyValues(
      "Performance summary",
      {{"Framework", FrameworkText(s.framework)},
       {"Steps", std::to_string(s.step_count)},
       {"Average step time", s.step_count == 0
                                 ? std::string("- (no steps)")
                                 : FormatFixed(s.avg_step_time_ms, 3) + " ms (stddev " +
                                       FormatFixed(s.step_time_ms.stddev, 3) + " ms, min " +
                                       FormatFixed(s.step_time_ms.min, 3) + ", max " +
                                       FormatFixed(s.step_time_ms.max, 3) + ")"},
       {"Input bound", s.step_count == 0 ? std::string("unknown (no steps)")
                                         : std::string(InputBoundVerdictName(s.verdict)) + " (" + Pct(s.input_percent) + ")"},
       {"Device compute precision", precision},
       {"Framework op placement", PlacementText(p.placement)}});
  if (s.cadence) {
    std::vector<std::pair<std::string, std::string>> rows = {
        {"Step time is", StepTimeSourceText(s.step_time_source)},
        {"Device lag", "mean " + FormatFixed(PsToMs(s.cadence->mean_device_lag_ps), 3) + " ms, max " +
                           FormatFixed(PsToMs(s.cadence->max_device_lag_ps), 3) +
                           " ms (from the host step's end to the end of the device work it launched)"}};
    if (!s.cadence_statement.empty()) rows.push_back({"Cadence", s.cadence_statement});
    out += output::FormatKeyValues("Host and device", rows);
  }
  if (s.step_count > 0) out += "\n" + output::FormatTextTable(StepBreakdownTable(s, /*for_people=*/true)) + "\n";
  out += output::FormatKeyValues(
      "Run environment",
      {{"Hosts", std::to_string(env.hosts.size()) + (hosts.empty() ? "" : " (" + hosts + ")")},
       {"Device type", env.device_type.empty() ? "CPU" : env.device_type},
       {"Devices", std::to_string(env.active_device_count) + " active of " + std::to_string(env.device_count) +
                       (p.device_models.empty() ? "" : " (" + DeviceModelsText(p.device_models) + ")")},
       {"Device cores", std::to_string(env.device_core_count) +
                            (p.device_compute_units > 0
                                 ? " (" + std::to_string(p.device_compute_units) + " SMs / compute units)"
                                 : "")}});
  out += "\n";
  if (p.xla) {
    const HloOpSummary& x = *p.xla;
    const std::string util = x.peaks.known()
                                 ? Pct(x.flops_utilization_percent) + " of " +
                                       FormatFixed(x.peaks.peak_flops_per_s / 1e12, 1) + " TFLOP/s; bandwidth " +
                                       Pct(x.bandwidth_utilization_percent)
                                 : std::string("unknown (device peaks unknown)");
    out += output::FormatKeyValues(
        "XLA programs",
        {{"Programs", std::to_string(x.modules) + " (" + std::to_string(x.instructions) + " HLO instructions)"},
         {"Kernels joined to HLO ops", std::to_string(x.join.kernels_joined) + " of " + std::to_string(x.join.kernels)},
         {"FLOP utilisation", util}});
    out += "\n";
  }
  // The tables as declared (labels, units), by name.
  const std::vector<Table> tables = output::RecordTables(p);
  auto table = [&](std::string_view name) -> const Table& {
    return *std::find_if(tables.begin(), tables.end(), [&](const Table& t) { return t.name == name; });
  };
  if (p.has_device) out += output::FormatTextTable(table("top_device_ops"), {options.text_max_rows}) + "\n";
  if (!p.device_counters.empty()) {
    out += output::FormatTextTable(table("device_counters"), {options.text_max_rows}) + "\n";
  }
  out += "Recommendation for the next step\n  " + output::SanitizeForTerminal(p.next_step) + "\n";
  for (const std::string& d : p.diagnostics) out += "  note: " + output::SanitizeForTerminal(d) + "\n";
  return out;
}

namespace {

class OverviewPageTool final : public DeclaredTool<OverviewPage> {
 public:
  std::string_view id() const override { return "overview_page"; }
  std::string_view description() const override {
    return "Step time and its breakdown, step graph, top device ops, run environment, recommendation.";
  }
  StatusOr<std::unique_ptr<ToolResult>> Compute(const ProfileModel& model, const ToolOptions&) const override {
    return MakeToolResult(BuildOverviewPage(model));
  }
};

}  // namespace

std::unique_ptr<Tool> MakeOverviewPageTool() { return std::make_unique<OverviewPageTool>(); }

}  // namespace stepscope::analysis
