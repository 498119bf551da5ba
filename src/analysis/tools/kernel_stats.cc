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
#include "src/analysis/model/units.h"
#include "src/analysis/output/text_table.h"
#include "src/analysis/output/tool_output.h"
#include "src/xspace/schema.h"

namespace stepscope::analysis {
namespace {

using output::Table;

std::string Dims(const std::array<int64_t, 3>& d) {
  return std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]);
}

// Every kernel's time by its name, over all kernels, ops and launch configurations.
std::vector<KernelNameRow> KernelTimeByName(const ProfileModel& model, size_t max_rows) {
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
  if (rows.size() > max_rows) rows.resize(max_rows);
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
static KernelStatsResult BuildKernelStats(const ProfileModel& model, size_t max_kernels) {
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
  r.names = KernelTimeByName(model, max_kernels);
  if (sorted.size() > max_kernels) sorted.resize(max_kernels);
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

KernelStatsResult ComputeKernelStats(const ProfileModel& model, size_t max_kernels) {
  return WithFreshDerivations(model, [&] { return BuildKernelStats(model, max_kernels); });
}

bool ShowColumn(const KernelStatsResult& r, std::string_view table, std::string_view column) {
  return table != "kernels" || r.summary.tensor_cores_apply || column.find("tensor_core") == std::string_view::npos;
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
  // The kernels first, then the by-op and by-name views (the JSON's order is kernel_ops first).
  std::vector<Table> tables = output::RecordTables(r);
  std::stable_partition(tables.begin(), tables.end(), [](const Table& t) { return t.name == "kernels"; });
  return out + output::FormatResultTextEnd(tables, {}, options.text_max_rows);
}

namespace {

class KernelStatsTool final : public DeclaredTool<KernelStatsResult> {
 public:
  std::string_view id() const override { return "kernel_stats"; }
  std::string_view description() const override {
    return "GPU kernels per op: time, launch parameters, occupancy, Tensor Core eligibility and use.";
  }
  bool IsAvailable(const ProfileModel& model) const override { return HasGpuPlane(model); }
  std::string_view requirement() const override { return "a /device:GPU: plane"; }
  std::vector<std::string_view> option_names() const override { return {"max_kernels"}; }
  StatusOr<std::unique_ptr<ToolResult>> Compute(const ProfileModel& model, const ToolOptions& options) const override {
    return MakeToolResult(BuildKernelStats(model, static_cast<size_t>(options.max_kernels)));
  }
};

}  // namespace

std::unique_ptr<Tool> MakeKernelStatsTool() { return std::make_unique<KernelStatsTool>(); }

}  // namespace stepscope::analysis
