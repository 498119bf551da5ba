#include "src/analysis/tools/diff.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "src/analysis/model/derivations.h"
#include "src/analysis/model/units.h"
#include "src/analysis/output/schema_writer.h"
#include "src/analysis/output/text_table.h"
#include "src/analysis/tools/framework.h"

namespace stepscope::analysis {
namespace {

using output::Table;

std::optional<double> RelativeChange(double a, double b) {
  if (a == 0) return std::nullopt;
  return 100.0 * (b - a) / std::fabs(a);
}

// What the comparison reads from one model, computed once per side.
struct SideFacts {
  StepTimeSummary summary;
  double median_step_ms = 0;
  double time_scale = 1;  // multiplies op and kernel times onto the time basis
};

SideFacts ReadSide(const ProfileModel& model) {
  SideFacts facts;
  facts.summary = StepSummaryOf(model);
  std::vector<double> durations;
  durations.reserve(model.steps.size());
  for (const StepInfo& step : model.steps) durations.push_back(PsToMs(step.duration_ps));
  facts.median_step_ms = Median(std::move(durations));
  return facts;
}

DiffSide DescribeSide(const ProfileModel& model, const SideFacts& facts, std::string label) {
  DiffSide side;
  side.label = std::move(label);
  side.hosts = model.hostnames;
  side.framework = std::string(FrameworkKey(facts.summary.framework.framework));
  side.steps = facts.summary.step_count;
  side.device_type = model.run_environment.device_type;
  side.devices = CountDeviceModels(model);
  return side;
}

// "8× A100 → 2× V100" when the sides' devices differ, else empty. A side without device
// planes reads "no devices" (the host's CPU only).
std::string DeviceChange(const DiffSide& a, const DiffSide& b) {
  auto same = [](const DeviceModelCount& x, const DeviceModelCount& y) {
    return x.name == y.name && x.device_type == y.device_type && x.count == y.count;
  };
  if (std::equal(a.devices.begin(), a.devices.end(), b.devices.begin(), b.devices.end(), same)) return "";
  auto text = [](const DiffSide& side) {
    return side.devices.empty() ? std::string("no devices") : DeviceModelsText(side.devices);
  };
  return text(a) + " \u2192 " + text(b);
}

DiffMetric Metric(std::string key, std::string label, std::string unit, std::optional<double> a,
                  std::optional<double> b) {
  DiffMetric m{std::move(key), std::move(label), std::move(unit), a, b, std::nullopt, std::nullopt};
  if (a && b) {
    m.delta = *b - *a;
    // A percentage's change is read in points; a relative change of a share confuses.
    if (m.unit != "%") m.delta_percent = RelativeChange(*a, *b);
  }
  return m;
}

std::vector<DiffMetric> SummaryMetrics(const ProfileModel& ma, const SideFacts& a, const ProfileModel& mb,
                                       const SideFacts& b, DiffTimeBasis basis) {
  auto with_steps = [](const SideFacts& s, double value) -> std::optional<double> {
    return s.summary.step_count > 0 ? std::optional<double>(value) : std::nullopt;
  };
  auto on_device = [](const ProfileModel& m, std::optional<double> value) -> std::optional<double> {
    return m.has_device ? value : std::nullopt;
  };
  const std::string time_unit = basis == DiffTimeBasis::kPerStep ? "ms/step" : "ms";
  auto scaled = [](const SideFacts& s, int64_t ps) { return PsToMs(ps) * s.time_scale; };
  int64_t kernel_ps_a = 0, kernel_ps_b = 0;
  for (const KernelStats& k : ma.kernels) kernel_ps_a += k.total_duration_ps;
  for (const KernelStats& k : mb.kernels) kernel_ps_b += k.total_duration_ps;

  const StepTimeSummary& sa = a.summary;
  const StepTimeSummary& sb = b.summary;
  std::vector<DiffMetric> rows;
  rows.push_back(Metric("steps", "Steps", "count", static_cast<double>(sa.step_count),
                        static_cast<double>(sb.step_count)));
  // avg_step_time_ms, not step_time_ms.mean: the overview's number to the last bit.
  rows.push_back(Metric("step_time_mean_ms", "Mean step time", "ms", with_steps(a, sa.avg_step_time_ms),
                        with_steps(b, sb.avg_step_time_ms)));
  rows.push_back(Metric("step_time_median_ms", "Median step time", "ms", with_steps(a, a.median_step_ms),
                        with_steps(b, b.median_step_ms)));
  rows.push_back(Metric("step_time_stddev_ms", "Step time standard deviation", "ms",
                        with_steps(a, sa.step_time_ms.stddev), with_steps(b, sb.step_time_ms.stddev)));
  rows.push_back(Metric("step_time_min_ms", "Fastest step", "ms", with_steps(a, sa.step_time_ms.min),
                        with_steps(b, sb.step_time_ms.min)));
  rows.push_back(Metric("step_time_max_ms", "Slowest step", "ms", with_steps(a, sa.step_time_ms.max),
                        with_steps(b, sb.step_time_ms.max)));
  rows.push_back(Metric("input_bound_percent", "Input share of step time", "%", with_steps(a, sa.input_percent),
                        with_steps(b, sb.input_percent)));
  rows.push_back(Metric("input_time_mean_ms", "Mean input time per step", "ms", with_steps(a, sa.input_time_ms.mean),
                        with_steps(b, sb.input_time_ms.mean)));
  if (ma.has_device || mb.has_device) {
    rows.push_back(Metric("device_compute_percent", "Device compute share of step time", "%",
                          on_device(ma, with_steps(a, sa.device_compute_percent)),
                          on_device(mb, with_steps(b, sb.device_compute_percent))));
    rows.push_back(Metric("device_idle_percent", "Device idle share of step time", "%",
                          on_device(ma, with_steps(a, sa.idle_percent.value_or(0))),
                          on_device(mb, with_steps(b, sb.idle_percent.value_or(0)))));
    rows.push_back(Metric("kernel_time_ms", "Kernel time", time_unit, on_device(ma, scaled(a, kernel_ps_a)),
                          on_device(mb, scaled(b, kernel_ps_b))));
    rows.push_back(Metric("device_op_self_time_ms", "Device op self time", time_unit,
                          on_device(ma, scaled(a, ma.device_ops.total_self_time_ps)),
                          on_device(mb, scaled(b, mb.device_ops.total_self_time_ps))));
  }
  rows.push_back(Metric("host_op_self_time_ms", "Host self time, all host ops", time_unit,
                        scaled(a, ma.host_ops.total_self_time_ps), scaled(b, mb.host_ops.total_self_time_ps)));
  return rows;
}

std::vector<DiffCategory> CategoryRows(const StepTimeSummary& a, const StepTimeSummary& b) {
  std::vector<DiffCategory> rows;
  for (int c = 0; c < kNumTimeCategories; ++c) {
    if (!a.category_applies[c] && !b.category_applies[c]) continue;
    const TimeCategory category = static_cast<TimeCategory>(c);
    DiffCategory row;
    row.category = std::string(TimeCategoryKey(category));
    row.label = std::string(TimeCategoryLabel(category));
    row.a_ms = a.avg_category_ms[c];
    row.b_ms = b.avg_category_ms[c];
    row.delta_ms = row.b_ms - row.a_ms;
    row.delta_percent = RelativeChange(row.a_ms, row.b_ms);
    row.a_percent = a.category_percent[c];
    row.b_percent = b.category_percent[c];
    rows.push_back(std::move(row));
  }
  return rows;
}

DiffInputVerdict VerdictRow(std::string side, const DiffSide& described, const StepTimeSummary& s) {
  DiffInputVerdict v;
  v.side = std::move(side);
  v.label = described.label;
  if (s.step_count > 0) v.input_bound_percent = s.input_percent;
  v.input_ms = s.input_time_ms.mean;
  v.verdict = std::string(InputBoundVerdictName(s.verdict));
  v.classification = s.classification;
  v.statement = s.statement;
  return v;
}

// Largest change first; names break ties so the order never depends on map layout.
template <typename Item>
void SortByChange(std::vector<Item>* items) {
  std::sort(items->begin(), items->end(), [](const DiffItem& x, const DiffItem& y) {
    const double dx = std::fabs(x.delta_ms), dy = std::fabs(y.delta_ms);
    if (dx != dy) return dx > dy;
    if (x.kind != y.kind) return x.kind < y.kind;
    return x.name < y.name;
  });
}

void FinishItem(DiffItem* item, bool in_a, bool in_b) {
  item->change = in_a && in_b ? DiffChange::kMatched : in_b ? DiffChange::kAdded : DiffChange::kRemoved;
  item->delta_ms = item->b_ms - item->a_ms;
  item->delta_percent = RelativeChange(item->a_ms, item->b_ms);
}

std::vector<DiffOp> OpItems(const ProfileModel& ma, const SideFacts& a, const ProfileModel& mb, const SideFacts& b) {
  struct Pair {
    const OpMetrics* a = nullptr;
    const OpMetrics* b = nullptr;
  };
  std::map<std::pair<bool, std::string_view>, Pair> by_name;  // (is_host, name)
  for (const OpMetricsDb* db : {&ma.host_ops, &ma.device_ops}) {
    for (const OpMetrics& op : db->ops) by_name[{op.is_host, op.name}].a = &op;
  }
  for (const OpMetricsDb* db : {&mb.host_ops, &mb.device_ops}) {
    for (const OpMetrics& op : db->ops) by_name[{op.is_host, op.name}].b = &op;
  }
  std::vector<DiffOp> items;
  items.reserve(by_name.size());
  for (const auto& [key, pair] : by_name) {
    DiffOp item;
    item.name = std::string(key.second);
    item.kind = key.first ? "host" : "device";
    item.type = pair.a != nullptr ? pair.a->type : pair.b->type;
    if (pair.a != nullptr) {
      item.a_ms = PsToMs(pair.a->self_time_ps) * a.time_scale;
      item.a_count = pair.a->occurrences;
    }
    if (pair.b != nullptr) {
      item.b_ms = PsToMs(pair.b->self_time_ps) * b.time_scale;
      item.b_count = pair.b->occurrences;
    }
    FinishItem(&item, pair.a != nullptr, pair.b != nullptr);
    items.push_back(std::move(item));
  }
  SortByChange(&items);
  return items;
}

// Kernel reports are per (kernel, op, launch parameters); a kernel compared by name sums
// its reports, so a changed launch shape or op does not read as a new kernel.
std::vector<DiffKernel> KernelItems(const ProfileModel& ma, const SideFacts& a, const ProfileModel& mb,
                                  const SideFacts& b) {
  struct Sums {
    int64_t a_ps = 0, b_ps = 0, a_count = 0, b_count = 0;
    bool in_a = false, in_b = false;
  };
  std::map<std::string_view, Sums> by_name;
  for (const KernelStats& k : ma.kernels) {
    Sums& s = by_name[k.kernel_name];
    s.in_a = true;
    s.a_ps += k.total_duration_ps;
    s.a_count += k.occurrences;
  }
  for (const KernelStats& k : mb.kernels) {
    Sums& s = by_name[k.kernel_name];
    s.in_b = true;
    s.b_ps += k.total_duration_ps;
    s.b_count += k.occurrences;
  }
  std::vector<DiffKernel> items;
  items.reserve(by_name.size());
  for (const auto& [name, s] : by_name) {
    DiffKernel item;
    item.name = std::string(name);
    item.kind = "kernel";
    item.a_ms = PsToMs(s.a_ps) * a.time_scale;
    item.b_ms = PsToMs(s.b_ps) * b.time_scale;
    item.a_count = s.a_count;
    item.b_count = s.b_count;
    FinishItem(&item, s.in_a, s.in_b);
    items.push_back(std::move(item));
  }
  SortByChange(&items);
  return items;
}

std::string SignedFixed(double value, int decimals) {
  return (value > 0 ? "+" : "") + output::FormatFixed(value, decimals);
}

std::string Statement(const ProfileDiff& d, const SideFacts& a, const SideFacts& b) {
  if (a.summary.step_count == 0 || b.summary.step_count == 0) {
    return "Step times cannot be compared: " + std::string(a.summary.step_count == 0 ? "A" : "B") +
           " has no steps. Ops and kernels are compared by their total time.";
  }
  const DiffMetric* mean = nullptr;
  for (const DiffMetric& m : d.summary) {
    if (m.key == "step_time_mean_ms") mean = &m;
  }
  std::string text = "Mean step time " + output::FormatFixed(*mean->a, 3) + " ms -> " +
                     output::FormatFixed(*mean->b, 3) + " ms (" + SignedFixed(*mean->delta, 3) + " ms";
  if (mean->delta_percent) text += ", " + SignedFixed(*mean->delta_percent, 1) + " %";
  text += "); input " + output::FormatFixed(a.summary.input_percent, 1) + " % -> " +
          output::FormatFixed(b.summary.input_percent, 1) + " % of step time (" +
          std::string(InputBoundVerdictName(a.summary.verdict)) + " -> " +
          std::string(InputBoundVerdictName(b.summary.verdict)) + " input bound).";
  return text;
}

std::vector<std::string> Diagnostics(const ProfileDiff& d) {
  std::vector<std::string> out;
  for (const DiffSide* side : {&d.a, &d.b}) {
    if (side->steps == 0) {
      out.push_back("run " + std::string(side == &d.a ? "A" : "B") + " (" + side->label +
                    ") has no steps: step times, categories and the input share are not compared");
    }
  }
  if (d.a.framework != d.b.framework) {
    out.push_back("the runs come from different frameworks (" + d.a.framework + ", " + d.b.framework +
                  "): few op and kernel names will match");
  }
  if (!d.device_change.empty()) {
    out.push_back("the runs ran on different devices (" + d.device_change +
                  "): step, op and kernel times compare the hardware as well as the change");
  }
  if (d.a.hosts.size() != d.b.hosts.size()) {
    out.push_back("A has " + std::to_string(d.a.hosts.size()) + " hosts and B " + std::to_string(d.b.hosts.size()) +
                  ": step times are the slowest host's, op times the sum over hosts");
  }
  return out;
}

// The ops or kernels table of the text output: the declared columns, with the time basis
// in the time columns' headers ("A self (ms/step)"), as the declaration's unit cannot say it.
template <typename Item>
Table ItemTable(const ProfileDiff& d, std::string_view name, const std::vector<Item>& items, std::string title) {
  Table t = output::RowsTable(name, title, items);
  const std::string in_time = d.time_basis == DiffTimeBasis::kPerStep ? " (ms/step)" : " (ms)";
  for (output::Column& column : t.columns) {
    if (column.unit == "ms") column.label += in_time;
  }
  return t;
}

const Table& FindTable(const std::vector<Table>& tables, std::string_view name) {
  for (const Table& t : tables) {
    if (t.name == name) return t;
  }
  static const Table kNone;
  return kNone;
}

}  // namespace

std::string_view DiffTimeBasisName(DiffTimeBasis basis) {
  return basis == DiffTimeBasis::kPerStep ? "per_step" : "total";
}

std::string_view DiffChangeName(DiffChange change) {
  switch (change) {
    case DiffChange::kAdded: return "added";
    case DiffChange::kRemoved: return "removed";
    default: return "matched";
  }
}

ProfileDiff CompareProfiles(const ProfileModel& ma, const ProfileModel& mb, const DiffOptions& options) {
  SideFacts a = ReadSide(ma);
  SideFacts b = ReadSide(mb);
  ProfileDiff d;
  d.a = DescribeSide(ma, a, options.label_a);
  d.b = DescribeSide(mb, b, options.label_b);
  if (a.summary.step_count > 0 && b.summary.step_count > 0) {
    d.time_basis = DiffTimeBasis::kPerStep;
    a.time_scale = 1.0 / static_cast<double>(a.summary.step_count);
    b.time_scale = 1.0 / static_cast<double>(b.summary.step_count);
  }
  d.summary = SummaryMetrics(ma, a, mb, b, d.time_basis);
  if (a.summary.step_count > 0 && b.summary.step_count > 0) d.breakdown = CategoryRows(a.summary, b.summary);
  d.input_verdicts = {VerdictRow("a", d.a, a.summary), VerdictRow("b", d.b, b.summary)};
  d.ops = OpItems(ma, a, mb, b);
  d.kernels = KernelItems(ma, a, mb, b);
  d.statement = Statement(d, a, b);
  d.device_change = DeviceChange(d.a, d.b);
  d.diagnostics = Diagnostics(d);
  return d;
}

std::string FormatResultText(const ProfileDiff& d, const ToolOptions& options) {
  const size_t top = options.text_max_rows > 0 ? options.text_max_rows : d.ops.size() + d.kernels.size();
  std::string out = "A: " + output::SanitizeForTerminal(d.a.label) + "\nB: " + output::SanitizeForTerminal(d.b.label) +
                    "\n\n" + output::SanitizeForTerminal(d.statement) + "\n";
  if (!d.device_change.empty()) {
    out += "Devices changed: " + output::SanitizeForTerminal(d.device_change) + "\n";
  } else if (!d.a.devices.empty()) {
    out += "Devices: " + output::SanitizeForTerminal(DeviceModelsText(d.a.devices)) + " in both runs\n";
  }
  const std::vector<Table> tables = output::RecordTables(d);
  Table summary = FindTable(tables, "summary");
  // For people: the label and unit say what the key says, and each number has the
  // decimals of its unit (a count has none).
  summary.columns.erase(summary.columns.begin());
  for (size_t r = 0; r < summary.rows.size(); ++r) {
    output::Row& row = summary.rows[r];
    row.erase(row.begin());
    const std::string& unit = d.summary[r].unit;
    const int decimals = unit == "count" ? 0 : unit == "%" ? 2 : 3;
    for (size_t c = 2; c <= 4; ++c) {
      if (const double* v = std::get_if<double>(&row[c])) row[c] = output::FormatFixed(*v, decimals);
    }
  }
  out += "\n" + output::FormatTextTable(summary);
  if (!d.breakdown.empty()) {
    Table breakdown = FindTable(tables, "step_time_breakdown");
    breakdown.columns.erase(breakdown.columns.begin());
    for (output::Row& row : breakdown.rows) row.erase(row.begin());
    out += "\n" + output::FormatTextTable(breakdown);
  }
  out += "\nInput\n";
  for (const DiffInputVerdict& v : d.input_verdicts) {
    out += "  " + std::string(v.side == "a" ? "A" : "B") + ": " + v.verdict + " input bound" +
           (v.input_bound_percent ? " (" + output::FormatFixed(*v.input_bound_percent, 1) + " % of step time)" : "") +
           ". " + output::SanitizeForTerminal(v.statement) + "\n";
  }
  const std::string basis = d.time_basis == DiffTimeBasis::kPerStep ? "per step" : "over the whole profile";
  auto section = [&](const auto& all, std::string_view name, DiffChange change, const std::string& title) {
    const auto items = TopItems(all, change, top);
    if (!items.empty()) out += "\n" + output::FormatTextTable(ItemTable(d, name, items, title + " (" + basis + ")"));
  };
  section(d.ops, "ops", DiffChange::kMatched, "Ops whose self time changed most");
  section(d.ops, "ops", DiffChange::kAdded, "Ops only in B (added)");
  section(d.ops, "ops", DiffChange::kRemoved, "Ops only in A (removed)");
  section(d.kernels, "kernels", DiffChange::kMatched, "Kernels whose time changed most");
  section(d.kernels, "kernels", DiffChange::kAdded, "Kernels only in B (added)");
  section(d.kernels, "kernels", DiffChange::kRemoved, "Kernels only in A (removed)");
  if (!d.diagnostics.empty()) {
    out += "\nNotes\n";
    for (const std::string& line : d.diagnostics) out += "  " + output::SanitizeForTerminal(line) + "\n";
  }
  return out;
}

}  // namespace stepscope::analysis
