#include "src/analysis/tools/framework_op_stats.h"

#include <algorithm>
#include <map>
#include <unordered_set>

#include "src/analysis/model/derivations.h"
#include "src/analysis/model/units.h"
#include "src/analysis/output/text_table.h"

namespace stepscope::analysis {
namespace {

using output::Table;

// Rows of one side, sorted by self time, with percentages of `denominator_ps`.
std::vector<OpStatsRow> OpRows(const OpMetricsDb& db, bool is_host, bool include_idle) {
  std::vector<OpStatsRow> rows;
  rows.reserve(db.ops.size() + 1);
  for (const OpMetrics& op : db.ops) {
    OpStatsRow row;
    row.is_host = is_host;
    row.type = op.type;
    row.name = op.name;
    row.category = std::string(OpCategoryName(op.category));
    row.occurrences = op.occurrences;
    row.total_time_ms = PsToMs(op.total_time_ps);
    row.total_self_time_ms = PsToMs(op.self_time_ps);
    row.is_eager = op.is_eager;
    if (db.has_memory) {
      row.cpu_memory_bytes = op.cpu_memory_bytes;
      row.self_cpu_memory_bytes = op.self_cpu_memory_bytes;
      row.device_memory_bytes = op.device_memory_bytes;
      row.self_device_memory_bytes = op.self_device_memory_bytes;
    }
    rows.push_back(std::move(row));
  }
  if (include_idle && db.idle_time_ps > 0) {
    OpStatsRow idle;
    idle.is_host = is_host;
    idle.type = std::string(kIdleOpName);
    idle.name = std::string(kIdleOpName);
    idle.category = "idle";
    idle.total_time_ms = PsToMs(db.idle_time_ps);
    idle.total_self_time_ms = idle.total_time_ms;
    idle.is_idle = true;
    rows.push_back(std::move(idle));
  }
  std::stable_sort(rows.begin(), rows.end(), [](const OpStatsRow& a, const OpStatsRow& b) {
    if (a.total_self_time_ms != b.total_self_time_ms) return a.total_self_time_ms > b.total_self_time_ms;
    return a.name < b.name;
  });
  const double denominator_ms = PsToMs(db.total_self_time_ps + (include_idle ? db.idle_time_ps : 0));
  double cumulative = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    rows[i].rank = static_cast<int64_t>(i + 1);
    rows[i].self_time_percent = Percent(rows[i].total_self_time_ms, denominator_ms);
    cumulative += rows[i].self_time_percent;
    rows[i].cumulative_self_time_percent = std::min(cumulative, 100.0);
  }
  return rows;
}

std::vector<OpTypeRow> TypeRows(const std::vector<OpStatsRow>& ops, bool is_host) {
  std::map<std::string, OpTypeRow> by_type;
  for (const OpStatsRow& op : ops) {
    OpTypeRow& row = by_type[op.type];
    row.is_host = is_host;
    row.type = op.type;
    row.op_count += 1;
    row.occurrences += op.occurrences;
    row.total_time_ms += op.total_time_ms;
    row.total_self_time_ms += op.total_self_time_ms;
    row.self_time_percent += op.self_time_percent;
  }
  std::vector<OpTypeRow> rows;
  for (auto& [type, row] : by_type) rows.push_back(std::move(row));
  std::stable_sort(rows.begin(), rows.end(), [](const OpTypeRow& a, const OpTypeRow& b) {
    return a.total_self_time_ms > b.total_self_time_ms;
  });
  double cumulative = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    rows[i].rank = static_cast<int64_t>(i + 1);
    cumulative += rows[i].self_time_percent;
    rows[i].cumulative_self_time_percent = std::min(cumulative, 100.0);
  }
  return rows;
}

template <typename Row, typename LabelFn>
std::vector<PieSlice> Pie(const std::vector<Row>& rows, LabelFn label) {
  std::vector<PieSlice> slices;
  PieSlice rest{"(other)", 0, 0};
  for (const Row& row : rows) {  // rows are sorted by self time already
    if (slices.size() < kPieChartMaxSlices) {
      slices.push_back({label(row), row.total_self_time_ms, row.self_time_percent});
    } else {
      rest.self_time_ms += row.total_self_time_ms;
      rest.percent += row.self_time_percent;
    }
  }
  if (rest.self_time_ms > 0) slices.push_back(rest);
  return slices;
}

// Whether some op's type differs from its name (the idle row aside).
bool HasTypes(const std::vector<OpStatsRow>& rows) {
  return std::any_of(rows.begin(), rows.end(), [](const OpStatsRow& r) { return !r.is_idle && r.type != r.name; });
}

}  // namespace

std::string PlacementText(const OpPlacement& p) {
  return output::FormatFixed(p.host_percent, 1) + " % on host only (" + output::FormatFixed(p.host_time_ms, 3) +
         " ms of framework ops that launched no device work), " + output::FormatFixed(p.device_percent, 1) +
         " % device (" + output::FormatFixed(p.device_time_ms, 3) + " ms)";
}

// ComputeFrameworkOpStats's body, reading the model's derivations from the cache in use (the model's, or
// a fresh one for ComputeFrameworkOpStats).
static FrameworkOpStats BuildFrameworkOpStats(const ProfileModel& model, bool include_idle) {
  FrameworkOpStats s;
  s.include_idle = include_idle;
  s.host_ops = OpRows(model.host_ops, /*is_host=*/true, include_idle);
  s.device_ops = OpRows(model.device_ops, /*is_host=*/false, include_idle);
  s.host_has_memory = model.host_ops.has_memory;
  s.host_has_types = HasTypes(s.host_ops);
  s.device_has_types = HasTypes(s.device_ops);
  s.host_op_types = TypeRows(s.host_ops, true);
  s.device_op_types = TypeRows(s.device_ops, false);
  s.host_total_self_time_ms = PsToMs(model.host_ops.total_self_time_ps);
  s.device_total_self_time_ms = PsToMs(model.device_ops.total_self_time_ps);
  s.host_idle_time_ms = PsToMs(model.host_ops.idle_time_ps);
  s.device_idle_time_ms = PsToMs(model.device_ops.idle_time_ps);
  auto op_label = [](const OpStatsRow& r) { return r.name; };
  auto type_label = [](const OpTypeRow& r) { return r.type; };
  s.pie_charts.host_op_type = Pie(s.host_op_types, type_label);
  s.pie_charts.host_op = Pie(s.host_ops, op_label);
  s.pie_charts.device_op_type = Pie(s.device_op_types, type_label);
  s.pie_charts.device_op = Pie(s.device_ops, op_label);
  s.placement = OpPlacementOf(model);
  s.framework = FrameworkOf(model);
  return s;
}

FrameworkOpStats ComputeFrameworkOpStats(const ProfileModel& model, bool include_idle) {
  return WithFreshDerivations(model, [&] { return BuildFrameworkOpStats(model, include_idle); });
}

bool ShowColumn(const FrameworkOpStats& s, std::string_view table, std::string_view column) {
  if (table != "host_ops" && table != "device_ops") return true;
  const bool host = table == "host_ops";
  if (column == "type") return host ? s.host_has_types : s.device_has_types;
  // Only TensorFlow's profiles can say whether an op ran eagerly; others never record it,
  // so a column of "no" would mislead.
  if (column == "is_eager") return s.framework.framework == Framework::kTensorFlow || s.framework.framework == Framework::kUnknown;
  if (column.find("memory_bytes") != std::string_view::npos) return host && s.host_has_memory;
  return true;
}

std::string FormatResultText(const FrameworkOpStats& s, const ToolOptions& options) {
  std::string out = output::FormatKeyValues(
      "Framework op stats" + std::string(s.include_idle ? " (idle time included)" : " (idle time excluded)"),
      {{"Host self time, all host ops", output::FormatFixed(s.host_total_self_time_ms, 3) + " ms (idle " +
                                            output::FormatFixed(s.host_idle_time_ms, 3) + " ms)"},
       {"Device self time, all device ops", output::FormatFixed(s.device_total_self_time_ms, 3) + " ms (idle " +
                                                output::FormatFixed(s.device_idle_time_ms, 3) + " ms)"},
       {"Framework op placement", PlacementText(s.placement)}});
  out += "\n";
  const output::TextTableOptions table_options{options.text_max_rows};
  for (const Table& t : output::RecordTables(s)) {
    if (t.rows.empty() && !t.name.starts_with("host")) continue;  // no device: skip empty device tables
    out += output::FormatTextTable(t, table_options) + "\n";
  }
  return out;
}

namespace {

class FrameworkOpStatsTool final : public DeclaredTool<FrameworkOpStats> {
 public:
  std::string_view id() const override { return "framework_op_stats"; }
  std::string_view description() const override {
    return "Per op and op type, host and device: count, total and self time, percentages (TensorFlow Stats).";
  }
  std::vector<std::string_view> option_names() const override { return {"include_idle"}; }
  StatusOr<std::unique_ptr<ToolResult>> Compute(const ProfileModel& model, const ToolOptions& options) const override {
    return MakeToolResult(BuildFrameworkOpStats(model, options.include_idle));
  }
};

}  // namespace

std::unique_ptr<Tool> MakeFrameworkOpStatsTool() { return std::make_unique<FrameworkOpStatsTool>(); }

}  // namespace stepscope::analysis
