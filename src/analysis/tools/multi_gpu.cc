#include "src/analysis/tools/multi_gpu.h"

#include <algorithm>
#include <map>
#include <utility>

#include "src/analysis/output/text_table.h"
#include "src/analysis/tools/tool_util.h"

namespace stepscope::analysis {
namespace {

using output::ColumnType;
using output::Table;

output::Column Col(std::string id, std::string label, ColumnType type, std::string unit, int decimals = 2) {
  output::Column c{std::move(id), std::move(label), type, decimals};
  c.unit = std::move(unit);
  return c;
}

// Each device's activity in one step, with where that device's host began the step.
struct DeviceInStep {
  size_t device;  // index into model.devices
  const DeviceStepActivity* activity;
  int64_t host_step_begin_ps;
};

int64_t HostStepBegin(const StepInfo& step, int host_index) {
  for (const HostStep& h : step.per_host) {
    if (h.host_index == host_index) return h.begin_ps;
  }
  return step.begin_ps;
}

std::string DeviceLabel(const ProfileModel& model, const DeviceActivity& d) {
  if (model.hostnames.size() <= 1) return d.plane_name;
  return model.hostnames[d.host_index] + ":" + d.plane_name;
}

Table DeviceTable(const MultiGpuResult& r) {
  Table t;
  t.name = "devices";
  t.title = "Per device (averages over steps)";
  t.columns = {Col("host", "Host", ColumnType::kString, ""),
               Col("device", "Device", ColumnType::kString, ""),
               Col("steps", "Steps", ColumnType::kInt, "count"),
               Col("avg_active_ms", "Active (ms)", ColumnType::kDouble, "ms", 3),
               Col("avg_compute_ms", "Compute (ms)", ColumnType::kDouble, "ms", 3),
               Col("avg_collective_ms", "Collectives (ms)", ColumnType::kDouble, "ms", 3),
               Col("collective_percent", "Coll. %", ColumnType::kDouble, "%", 1),
               Col("collectives", "Coll. ops", ColumnType::kInt, "count"),
               Col("busy_ms", "Busy (ms)", ColumnType::kDouble, "ms", 3),
               Col("straggler_steps", "Slowest in", ColumnType::kInt, "count"),
               Col("avg_wait_ms", "Waits (ms)", ColumnType::kDouble, "ms", 3),
               Col("avg_launch_skew_ms", "Launch skew (ms)", ColumnType::kDouble, "ms", 3),
               Col("kernel_ms", "All kernels (ms)", ColumnType::kDouble, "ms", 3),
               Col("total_collective_ms", "All collectives (ms)", ColumnType::kDouble, "ms", 3),
               Col("first_kernel_offset_ms", "Starts after (ms)", ColumnType::kDouble, "ms", 3)};
  for (const MultiGpuDeviceRow& d : r.devices) {
    t.AddRow({d.host, d.device, d.steps, d.avg_active_ms, d.avg_compute_ms, d.avg_collective_ms, d.collective_percent,
              d.collectives, d.busy_ms, d.straggler_steps, d.avg_wait_ms, d.avg_launch_skew_ms, d.kernel_ms,
              d.total_collective_ms, d.first_kernel_offset_ms});
  }
  return t;
}

Table StepTable(const MultiGpuResult& r) {
  Table t;
  t.name = "steps";
  t.title = "Per step";
  t.columns = {Col("step_number", "Step", ColumnType::kInt, ""),
               Col("devices", "Devices", ColumnType::kInt, "count"),
               Col("straggler", "Straggler", ColumnType::kString, ""),
               Col("max_compute_ms", "Max compute (ms)", ColumnType::kDouble, "ms", 3),
               Col("min_compute_ms", "Min compute (ms)", ColumnType::kDouble, "ms", 3),
               Col("imbalance_ms", "Imbalance (ms)", ColumnType::kDouble, "ms", 3),
               Col("avg_collective_ms", "Collectives (ms)", ColumnType::kDouble, "ms", 3),
               Col("launch_skew_ms", "Launch skew (ms)", ColumnType::kDouble, "ms", 3)};
  for (const MultiGpuStepRow& s : r.step_rows) {
    t.AddRow({s.step_number, s.devices, s.straggler, s.max_compute_ms, s.min_compute_ms, s.imbalance_ms,
              s.avg_collective_ms, s.launch_skew_ms});
  }
  return t;
}

}  // namespace

bool HasSeveralDevices(const ProfileModel& model) {
  int active = 0;
  for (const DeviceActivity& d : model.devices) active += d.has_activity() ? 1 : 0;
  return active >= 2;
}

MultiGpuResult ComputeMultiGpu(const ProfileModel& model) {
  MultiGpuResult r;
  std::vector<size_t> active;
  for (size_t i = 0; i < model.devices.size(); ++i) {
    if (model.devices[i].has_activity()) active.push_back(i);
  }
  r.device_count = static_cast<int64_t>(active.size());
  std::map<int64_t, const StepInfo*> step_by_number;
  for (const StepInfo& step : model.steps) step_by_number.emplace(step.step_number, &step);

  // Step number -> each device's activity in it.
  std::map<int64_t, std::vector<DeviceInStep>> by_step;
  for (size_t i : active) {
    const DeviceActivity& d = model.devices[i];
    for (const DeviceStepActivity& a : d.step_activity) {
      auto step = step_by_number.find(a.step_number);
      const int64_t begin = step == step_by_number.end() ? 0 : HostStepBegin(*step->second, d.host_index);
      by_step[a.step_number].push_back({i, &a, begin});
    }
  }

  struct Acc {
    int64_t steps = 0, active = 0, collective = 0, collectives = 0, straggler = 0, wait = 0, skew = 0, skew_steps = 0;
  };
  std::map<size_t, Acc> acc;
  int64_t total_active = 0, total_collective = 0, imbalance_sum = 0, skew_sum = 0, skew_steps = 0, collective_sum = 0,
          device_steps = 0;
  for (const auto& [number, devices] : by_step) {
    for (const DeviceInStep& d : devices) {
      Acc& a = acc[d.device];
      ++a.steps;
      a.active += d.activity->active_ps;
      a.collective += d.activity->collective_ps;
      a.collectives += d.activity->collective_count;
      total_active += d.activity->active_ps;
      total_collective += d.activity->collective_ps;
    }
    if (devices.size() < 2) continue;  // nothing to compare in this step
    MultiGpuStepRow row;
    row.step_number = number;
    row.devices = static_cast<int64_t>(devices.size());
    auto compute = [](const DeviceInStep& d) { return d.activity->active_ps - d.activity->collective_ps; };
    const DeviceInStep* slowest = &devices[0];
    int64_t min_compute = compute(devices[0]), collective = 0;
    for (const DeviceInStep& d : devices) {
      if (compute(d) > compute(*slowest)) slowest = &d;
      min_compute = std::min(min_compute, compute(d));
      collective += d.activity->collective_ps;
    }
    ++acc[slowest->device].straggler;
    for (const DeviceInStep& d : devices) acc[d.device].wait += compute(*slowest) - compute(d);
    // Launch skew: first kernel relative to the device's own host's step start.
    int64_t earliest = INT64_MAX, latest = INT64_MIN;
    for (const DeviceInStep& d : devices) {
      if (d.activity->first_kernel_begin_ps < 0) continue;
      const int64_t at = d.activity->first_kernel_begin_ps - d.host_step_begin_ps;
      earliest = std::min(earliest, at);
      latest = std::max(latest, at);
    }
    if (earliest != INT64_MAX) {
      for (const DeviceInStep& d : devices) {
        if (d.activity->first_kernel_begin_ps < 0) continue;
        Acc& a = acc[d.device];
        a.skew += d.activity->first_kernel_begin_ps - d.host_step_begin_ps - earliest;
        ++a.skew_steps;
      }
      row.launch_skew_ms = PsToMs(latest - earliest);
      skew_sum += latest - earliest;
      ++skew_steps;
    }
    row.straggler = DeviceLabel(model, model.devices[slowest->device]);
    row.max_compute_ms = PsToMs(compute(*slowest));
    row.min_compute_ms = PsToMs(min_compute);
    row.imbalance_ms = row.max_compute_ms - row.min_compute_ms;
    row.avg_collective_ms = PsToMs(collective) / static_cast<double>(devices.size());
    imbalance_sum += compute(*slowest) - min_compute;
    collective_sum += collective;
    device_steps += static_cast<int64_t>(devices.size());
    r.step_rows.push_back(std::move(row));
  }
  r.steps = static_cast<int64_t>(r.step_rows.size());

  // Earliest first activity per host, for the whole-profile skew.
  std::map<int, int64_t> earliest_on_host;
  for (size_t i : active) {
    const DeviceActivity& d = model.devices[i];
    auto [it, inserted] = earliest_on_host.try_emplace(d.host_index, d.first_begin_ps);
    if (!inserted) it->second = std::min(it->second, d.first_begin_ps);
  }
  for (size_t i : active) {
    const DeviceActivity& d = model.devices[i];
    const Acc& a = acc[i];
    MultiGpuDeviceRow row;
    row.host = model.hostnames.empty() ? "" : model.hostnames[d.host_index];
    row.device = d.plane_name;
    row.device_ordinal = d.device_ordinal;
    row.kernel_ms = PsToMs(d.kernel_time_ps);
    row.total_collective_ms = PsToMs(d.collective_ps);
    row.first_kernel_offset_ms = PsToMs(d.first_begin_ps - earliest_on_host[d.host_index]);
    row.steps = a.steps;
    const double steps = std::max<int64_t>(a.steps, 1);
    row.avg_active_ms = PsToMs(a.active) / steps;
    row.avg_collective_ms = PsToMs(a.collective) / steps;
    row.avg_compute_ms = row.avg_active_ms - row.avg_collective_ms;
    row.collective_percent = Percent(static_cast<double>(a.collective), static_cast<double>(a.active));
    row.collectives = a.collectives;
    row.busy_ms = PsToMs(d.busy_ps);
    row.straggler_steps = a.straggler;
    row.avg_wait_ms = PsToMs(a.wait) / steps;
    row.avg_launch_skew_ms = a.skew_steps > 0 ? PsToMs(a.skew) / static_cast<double>(a.skew_steps) : 0.0;
    if (a.straggler > r.straggler_steps) {
      r.straggler_steps = a.straggler;
      r.straggler = DeviceLabel(model, d);
    }
    r.devices.push_back(std::move(row));
  }
  if (skew_steps > 0) r.avg_launch_skew_ms = PsToMs(skew_sum) / static_cast<double>(skew_steps);
  r.collective_percent = Percent(static_cast<double>(total_collective), static_cast<double>(total_active));
  if (r.steps == 0 && r.device_count >= 2) {
    // No shared steps: compare the devices over the whole profile.
    r.basis = "profile";
    const MultiGpuDeviceRow* slowest = &r.devices[0];
    double min_compute = slowest->kernel_ms - slowest->total_collective_ms, max_skew = 0, kernel = 0, collective = 0;
    for (const MultiGpuDeviceRow& d : r.devices) {
      const double compute = d.kernel_ms - d.total_collective_ms;
      if (compute > slowest->kernel_ms - slowest->total_collective_ms) slowest = &d;
      min_compute = std::min(min_compute, compute);
      max_skew = std::max(max_skew, d.first_kernel_offset_ms);
      kernel += d.kernel_ms;
      collective += d.total_collective_ms;
    }
    r.straggler = r.devices.size() > 1 && model.hostnames.size() > 1 ? slowest->host + ":" + slowest->device : slowest->device;
    r.avg_imbalance_ms = slowest->kernel_ms - slowest->total_collective_ms - min_compute;
    r.avg_launch_skew_ms = max_skew;
    r.collective_percent = Percent(collective, kernel);
    r.avg_step_collective_ms = 0;
    r.diagnostics.push_back(
        "no step has device work on two or more devices: devices are compared over the whole profile (kernel time "
        "without collectives, first activity)");
  } else if (r.steps > 0) {
    r.avg_imbalance_ms = PsToMs(imbalance_sum) / static_cast<double>(r.steps);
    r.avg_step_collective_ms = PsToMs(collective_sum) / static_cast<double>(std::max<int64_t>(device_steps, 1));
  }

  if (r.device_count < 2) r.diagnostics.push_back("fewer than two devices with activity: nothing to compare");
  if (r.device_count >= 2 && (r.basis == "steps" ? total_collective : [&] {
        int64_t all = 0;
        for (size_t i : active) all += model.devices[i].collective_ps;
        return all;
      }()) == 0) {
    r.diagnostics.push_back("no collective kernels or ops (NCCL/RCCL, all-reduce, all-gather, ...) found");
  }
  r.diagnostics.push_back(
      "bytes moved by collectives and link bandwidth are not recorded in these profiles: no bus bandwidth computed");
  return r;
}

std::vector<Table> BuildTables(const MultiGpuResult& r) { return {DeviceTable(r), StepTable(r)}; }

void WriteResultJson(const MultiGpuResult& r, output::JsonWriter* w) {
  w->BeginObject();
  w->Field("tool", "multi_gpu");
  w->Key("summary");
  w->BeginObject();
  w->Field("basis", r.basis);
  w->Field("device_count", r.device_count);
  w->Field("steps", r.steps);
  w->Field("straggler", r.straggler);
  w->Field("straggler_steps", r.straggler_steps);
  w->Field("avg_imbalance_ms", r.avg_imbalance_ms);
  w->Field("avg_launch_skew_ms", r.avg_launch_skew_ms);
  w->Field("avg_step_collective_ms", r.avg_step_collective_ms);
  w->Field("collective_percent", r.collective_percent);
  w->EndObject();
  w->Key("devices");
  output::WriteTableRowsJson(DeviceTable(r), w);
  w->Key("steps");
  output::WriteTableRowsJson(StepTable(r), w);
  w->Key("diagnostics");
  w->BeginArray();
  for (const std::string& d : r.diagnostics) w->String(d);
  w->EndArray();
  w->EndObject();
}

std::string FormatResultText(const MultiGpuResult& r, const ToolOptions& options) {
  const bool whole = r.basis == "profile";
  const std::string per = whole ? " ms over the profile" : " ms per step";
  std::vector<std::pair<std::string, std::string>> rows = {
      {"Devices", std::to_string(r.device_count) + " with activity, compared " +
                      (whole ? std::string("over the whole profile (no shared steps)")
                             : "over " + std::to_string(r.steps) + " steps")},
      {"Straggler", r.straggler.empty() ? "-"
                    : whole             ? r.straggler + " (most kernel time without collectives)"
                                        : r.straggler + " (slowest in " + std::to_string(r.straggler_steps) + " of " +
                                              std::to_string(r.steps) + " steps)"},
      {"Compute imbalance", output::FormatFixed(r.avg_imbalance_ms, 3) + per + " (slowest minus fastest device)"},
      {"Launch skew", output::FormatFixed(r.avg_launch_skew_ms, 3) + per +
                          (whole ? " (latest minus earliest first activity)" : " (latest minus earliest first kernel)")},
      {"Collectives", (whole ? std::string() : output::FormatFixed(r.avg_step_collective_ms, 3) + " ms per device and step, ") +
                          output::FormatFixed(r.collective_percent, 1) + " % of device time"}};
  std::string out = output::FormatKeyValues("Multi-GPU", rows);
  out += "\n" + output::FormatTextTable(DeviceTable(r), {options.text_max_rows});
  out += "\n" + output::FormatTextTable(StepTable(r), {options.text_max_rows});
  for (const std::string& d : r.diagnostics) out += "note: " + d + "\n";
  return out;
}

namespace {

class MultiGpuTool final : public Tool {
 public:
  std::string_view id() const override { return "multi_gpu"; }
  std::string_view description() const override {
    return "Several GPUs or ranks: per-device busy time, the straggler and the wait it causes, collectives, launch skew.";
  }
  bool IsAvailable(const ProfileModel& model) const override { return HasSeveralDevices(model); }
  std::string_view requirement() const override { return "two or more devices with activity"; }
  StatusOr<std::unique_ptr<ToolResult>> Run(const ProfileModel& model, const ToolOptions&) const override {
    return std::unique_ptr<ToolResult>(std::make_unique<StructToolResult<MultiGpuResult>>(ComputeMultiGpu(model)));
  }
};

}  // namespace

std::unique_ptr<Tool> MakeMultiGpuTool() { return std::make_unique<MultiGpuTool>(); }

}  // namespace stepscope::analysis
