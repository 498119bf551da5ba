#include "src/analysis/tools/kernel_stats.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "src/analysis/model/derivations.h"
#include "src/analysis/output/text_table.h"
#include "src/analysis/output/tool_output.h"
#include "src/analysis/tools/tool_util.h"
#include "src/xspace/schema.h"

namespace stepscope::analysis {
namespace {

using output::ColumnType;
using output::Table;

std::string Dims(const std::array<int64_t, 3>& d) {
  return std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]);
}

void OptionalField(std::string_view key, bool applies, double value, output::JsonWriter* w) {
  w->Key(key);
  if (applies) {
    w->Double(value);
  } else {
    w->Null();
  }
}

Table KernelTable(const KernelStatsResult& r) {
  const bool tc = r.summary.tensor_cores_apply;
  Table t;
  t.name = "kernels";
  t.title = "GPU kernels by total time";
  t.columns = {{"rank", "Rank", ColumnType::kInt},
               {"kernel_name", "Kernel", ColumnType::kString, 2, 50},
               {"registers_per_thread", "Regs", ColumnType::kInt},
               {"shmem_bytes", "Shmem (B)", ColumnType::kInt},
               {"block_dim", "Block", ColumnType::kString},
               {"grid_dim", "Grid", ColumnType::kString},
               {"occupancy_pct", "Occ %", ColumnType::kDouble, 1}};
  if (tc) {
    t.columns.push_back({"is_op_tensor_core_eligible", "TC eligible", ColumnType::kBool});
    t.columns.push_back({"is_kernel_using_tensor_core", "Uses TC", ColumnType::kBool});
  }
  for (output::Column column : {output::Column{"op_name", "Op", ColumnType::kString, 2, 40},
                                output::Column{"occurrences", "Count", ColumnType::kInt},
                                output::Column{"total_duration_us", "Total (us)", ColumnType::kDouble, 1},
                                output::Column{"avg_duration_us", "Avg (us)", ColumnType::kDouble, 2},
                                output::Column{"min_duration_us", "Min (us)", ColumnType::kDouble, 2},
                                output::Column{"max_duration_us", "Max (us)", ColumnType::kDouble, 2}}) {
    t.columns.push_back(std::move(column));
  }
  for (const KernelRow& k : r.kernels) {
    output::Row row = {k.rank,
                       k.kernel_name,
                       output::OptionalCell(k.registers_per_thread),
                       output::OptionalCell(k.shared_memory_bytes),
                       k.block_dim,
                       k.grid_dim,
                       output::OptionalCell(k.occupancy_pct)};
    if (tc) {
      row.emplace_back(k.is_op_tensor_core_eligible);
      row.emplace_back(k.is_kernel_using_tensor_core);
    }
    for (output::Cell cell : {output::Cell(k.op_name), output::Cell(k.occurrences), output::Cell(k.total_duration_us),
                              output::Cell(k.avg_duration_us), output::Cell(k.min_duration_us),
                              output::Cell(k.max_duration_us)}) {
      row.push_back(std::move(cell));
    }
    t.AddRow(std::move(row));
  }
  return t;
}

Table OpTable(const KernelStatsResult& r) {
  Table t;
  t.name = "kernel_ops";
  t.title = "Kernel time by framework op";
  t.columns = {{"op_name", "Op", ColumnType::kString, 2, 50},
               {"kernels", "Kernels", ColumnType::kInt},
               {"launches", "Launches", ColumnType::kInt},
               {"total_time_ms", "Total (ms)", ColumnType::kDouble, 3},
               {"percent", "% of kernel time", ColumnType::kDouble, 1}};
  for (const KernelOpRow& op : r.ops) {
    t.AddRow({op.op_name, op.kernels, op.launches, op.total_time_ms, op.percent});
  }
  return t;
}

Table NameTable(const KernelStatsResult& r) {
  Table t;
  t.name = "kernel_names";
  t.title = "Kernels by name (every op and launch configuration)";
  t.columns = {{"kernel_name", "Kernel", ColumnType::kString, 2, 50},
               {"configurations", "Launch configs", ColumnType::kInt},
               {"ops", "Ops", ColumnType::kInt},
               {"occurrences", "Count", ColumnType::kInt},
               {"total_duration_us", "Total (us)", ColumnType::kDouble, 1},
               {"avg_duration_us", "Avg (us)", ColumnType::kDouble, 2},
               {"percent", "% of kernel time", ColumnType::kDouble, 1}};
  for (const KernelNameRow& k : r.names) {
    t.AddRow({k.kernel_name, k.configurations, k.ops, k.occurrences, k.total_duration_us, k.avg_duration_us,
              k.percent});
  }
  return t;
}

// Every kernel's time by its name, over all kernels, ops and launch configurations.
std::vector<KernelNameRow> KernelTimeByName(const ProfileModel& model) {
  struct Acc {
    std::set<std::tuple<std::optional<int64_t>, std::optional<int64_t>, int64_t, std::array<int64_t, 3>,
                        std::array<int64_t, 3>>>
        configurations;
    std::unordered_set<std::string_view> ops;
    int64_t launches = 0;
    int64_t total_ps = 0;
  };
  std::map<std::string_view, Acc> by_name;
  int64_t total_ps = 0;
  for (const KernelStats& k : model.kernels) {
    Acc& acc = by_name[k.kernel_name];
    const KernelLaunchParams& p = k.params;
    acc.configurations.emplace(p.registers_per_thread, p.static_shared_memory_bytes, p.dynamic_shared_memory_bytes,
                               p.grid, p.block);
    acc.ops.insert(k.op_name);
    acc.launches += k.occurrences;
    acc.total_ps += k.total_duration_ps;
    total_ps += k.total_duration_ps;
  }
  std::vector<KernelNameRow> rows;
  rows.reserve(by_name.size());
  for (const auto& [name, acc] : by_name) {
    const double total_us = PsToUs(acc.total_ps);
    rows.push_back({std::string(name), static_cast<int64_t>(acc.configurations.size()),
                    static_cast<int64_t>(acc.ops.size()), acc.launches, total_us,
                    acc.launches > 0 ? total_us / static_cast<double>(acc.launches) : 0,
                    Percent(acc.total_ps, total_ps)});
  }
  std::stable_sort(rows.begin(), rows.end(), [](const KernelNameRow& a, const KernelNameRow& b) {
    return a.total_duration_us > b.total_duration_us;
  });
  if (rows.size() > kMaxKernelRows) rows.resize(kMaxKernelRows);
  return rows;
}

// Every kernel's time by its framework op, over all kernels (not only the listed ones).
std::vector<KernelOpRow> KernelTimeByOp(const ProfileModel& model) {
  struct Acc {
    std::unordered_set<std::string_view> names;
    int64_t launches = 0;
    int64_t total_ps = 0;
  };
  std::map<std::string_view, Acc> by_op;
  int64_t total_ps = 0;
  for (const KernelStats& k : model.kernels) {
    Acc& acc = by_op[k.op_name];
    acc.names.insert(k.kernel_name);
    acc.launches += k.occurrences;
    acc.total_ps += k.total_duration_ps;
    total_ps += k.total_duration_ps;
  }
  std::vector<KernelOpRow> rows;
  for (const auto& [name, acc] : by_op) {
    rows.push_back({std::string(name), static_cast<int64_t>(acc.names.size()), acc.launches, PsToMs(acc.total_ps),
                    Percent(acc.total_ps, total_ps)});
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const KernelOpRow& a, const KernelOpRow& b) { return a.total_time_ms > b.total_time_ms; });
  return rows;
}

}  // namespace

bool HasGpuPlane(const ProfileModel& model) {
  for (const DeviceActivity& device : model.devices) {
    if (xspace::IsGpuPlaneName(device.plane_name)) return true;
  }
  return false;
}

// ComputeKernelStats's body, reading the model's derivations from the cache in use (the model's, or
// a fresh one for ComputeKernelStats).
static KernelStatsResult BuildKernelStats(const ProfileModel& model) {
  KernelStatsResult r;
  r.summary = KernelSummaryOf(model);
  std::vector<const KernelStats*> sorted;
  sorted.reserve(model.kernels.size());
  for (const KernelStats& k : model.kernels) sorted.push_back(&k);
  // The model sorts by total time already; a stable sort with tie-breaks keeps the rank
  // deterministic whatever order equal kernels arrive in.
  std::stable_sort(sorted.begin(), sorted.end(), [](const KernelStats* a, const KernelStats* b) {
    if (a->total_duration_ps != b->total_duration_ps) return a->total_duration_ps > b->total_duration_ps;
    if (a->kernel_name != b->kernel_name) return a->kernel_name < b->kernel_name;
    return a->op_name < b->op_name;
  });
  r.ops = KernelTimeByOp(model);
  r.names = KernelTimeByName(model);
  if (sorted.size() > kMaxKernelRows) sorted.resize(kMaxKernelRows);
  for (const KernelStats* k : sorted) {
    KernelRow row;
    row.rank = static_cast<int64_t>(r.kernels.size() + 1);
    row.kernel_name = k->kernel_name;
    row.op_name = k->op_name;
    row.registers_per_thread = k->params.registers_per_thread;
    if (k->params.static_shared_memory_bytes) {
      row.shared_memory_bytes = *k->params.static_shared_memory_bytes + k->params.dynamic_shared_memory_bytes;
    }
    row.block_dim = Dims(k->params.block);
    row.grid_dim = Dims(k->params.grid);
    row.occupancy_pct = k->params.occupancy_pct;
    row.is_op_tensor_core_eligible = k->is_op_tensor_core_eligible;
    row.is_kernel_using_tensor_core = k->is_kernel_using_tensor_core;
    row.occurrences = k->occurrences;
    row.total_duration_us = PsToUs(k->total_duration_ps);
    row.avg_duration_us = k->occurrences > 0 ? row.total_duration_us / k->occurrences : 0;
    row.min_duration_us = PsToUs(k->min_duration_ps);
    row.max_duration_us = PsToUs(k->max_duration_ps);
    r.kernels.push_back(std::move(row));
  }
  return r;
}

KernelStatsResult ComputeKernelStats(const ProfileModel& model) {
  return WithFreshDerivations(model, [&] { return BuildKernelStats(model); });
}

std::vector<Table> BuildTables(const KernelStatsResult& r) { return {KernelTable(r), OpTable(r), NameTable(r)}; }

void WriteResultJson(const KernelStatsResult& r, output::JsonWriter* w) {
  const KernelSummary& s = r.summary;
  w->BeginObject();
  w->Field("tool", "kernel_stats");
  w->Key("summary");
  w->BeginObject();
  w->Field("distinct_kernel_names", s.distinct_kernel_names);
  w->Field("kernel_op_groups", s.kernel_op_groups);
  // Before issue 12 this field counted kernel-op groups under the name "distinct_kernels";
  // kept, with that meaning, for readers of the old name.
  w->Field("distinct_kernels", s.kernel_op_groups);
  w->Field("launches", s.launches);
  w->Field("total_time_ms", s.total_time_ms);
  w->Field("median_duration_us", s.median_duration_us);
  w->Field("tiny_launches", s.tiny_launches);
  w->Field("tiny_launch_percent", s.tiny_launch_percent);
  w->Field("tensor_cores_apply", s.tensor_cores_apply);
  OptionalField("tensor_core_time_percent", s.tensor_cores_apply, s.tensor_core_time_percent, w);
  w->Key("eligible_without_tensor_core_kernels");
  if (s.tensor_cores_apply) {
    w->Int(s.eligible_without_tensor_core_kernels);
  } else {
    w->Null();
  }
  OptionalField("eligible_without_tensor_core_time_ms", s.tensor_cores_apply, s.eligible_without_tensor_core_time_ms, w);
  OptionalField("eligible_without_tensor_core_percent", s.tensor_cores_apply, s.eligible_without_tensor_core_percent, w);
  w->EndObject();
  // The Tensor Core pie: three parts of kernel time; null where Tensor Cores do not apply.
  w->Key("tensor_core_time_ms");
  if (s.tensor_cores_apply) {
    w->BeginObject();
    w->Field("using_tensor_cores", s.tensor_core_time_ms);
    w->Field("eligible_not_using", s.eligible_without_tensor_core_time_ms);
    w->Field("not_eligible", s.not_eligible_time_ms);
    w->EndObject();
  } else {
    w->Null();
  }
  w->Key("kernel_ops");
  output::WriteTableRowsJson(OpTable(r), w);
  w->Field("truncated", s.kernel_op_groups > static_cast<int64_t>(r.kernels.size()));
  w->Key("kernels");
  output::WriteTableRowsJson(KernelTable(r), w);
  w->Key("kernel_names");
  output::WriteTableRowsJson(NameTable(r), w);
  w->EndObject();
}

std::string FormatResultText(const KernelStatsResult& r, const ToolOptions& options) {
  const KernelSummary& s = r.summary;
  std::vector<std::pair<std::string, std::string>> rows = {
      {"Kernels", std::to_string(s.distinct_kernel_names) + " distinct kernels in " +
                       std::to_string(s.kernel_op_groups) + " kernel-op groups (table rows), " +
                       std::to_string(s.launches) + " launches, " + output::FormatFixed(s.total_time_ms, 3) + " ms"},
      {"Median kernel", output::FormatFixed(s.median_duration_us, 2) + " us"},
      {"Tiny kernels (< 10 us)", output::FormatFixed(s.tiny_launch_percent, 1) + " % of launches"}};
  if (s.tensor_cores_apply) {
    rows.push_back({"Tensor Core time", output::FormatFixed(s.tensor_core_time_percent, 1) + " % of kernel time"});
    rows.push_back({"Eligible, no Tensor Cores", output::FormatFixed(s.eligible_without_tensor_core_percent, 1) +
                                                     " % of kernel time (" +
                                                     std::to_string(s.eligible_without_tensor_core_kernels) +
                                                     " kernels)"});
  } else {
    rows.push_back({"Tensor Cores", "not applicable (no GPU here has them)"});
  }
  std::string out = output::FormatKeyValues("GPU kernel stats", rows);
  return out + output::FormatResultTextEnd(BuildTables(r), {}, options.text_max_rows);
}

namespace {

class KernelStatsTool final : public Tool {
 public:
  std::string_view id() const override { return "kernel_stats"; }
  std::string_view description() const override {
    return "GPU kernels per op: time, launch parameters, occupancy, Tensor Core eligibility and use.";
  }
  bool IsAvailable(const ProfileModel& model) const override { return HasGpuPlane(model); }
  std::string_view requirement() const override { return "a /device:GPU: plane"; }
  StatusOr<std::unique_ptr<ToolResult>> Compute(const ProfileModel& model, const ToolOptions&) const override {
    return MakeToolResult(BuildKernelStats(model));
  }
};

}  // namespace

std::unique_ptr<Tool> MakeKernelStatsTool() { return std::make_unique<KernelStatsTool>(); }

}  // namespace stepscope::analysis
