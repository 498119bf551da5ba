#include "src/analysis/model/multi_gpu_analysis.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <utility>

#include "src/analysis/model/collective_message.h"
#include "src/analysis/model/link_bandwidth.h"
#include "src/analysis/model/units.h"
#include "src/base/format_number.h"

namespace stepscope::analysis {
namespace {

// Where host `host_index` began `step` (the step's own begin when the host has no part).
int64_t HostStepBegin(const StepInfo& step, int host_index) {
  const HostStep* h = FindHostStep(step, host_index);
  return h != nullptr ? h->begin_ps : step.begin_ps;
}

std::string DeviceLabel(const ProfileModel& model, const DeviceActivity& d) {
  if (model.hostnames.size() <= 1) return d.plane_name;
  return model.hostnames[d.host_index] + ":" + d.plane_name;
}

constexpr double kBytesPerGb = 1e9;
constexpr double kBytesPerMb = 1e6;

// Size, algorithm and bus bandwidth of the collectives the model could size, per device
// and kind, against each device's link; summary figures over all devices.
void AddCollectiveBandwidth(const ProfileModel& model, const MultiGpuParams& options, MultiGpuResult* r) {
  double size = 0, bus = 0, sized_ps = 0, all_reduce_bytes = 0, all_reduce_ps = 0, device_steps = 0;
  bool link_unknown = false;
  // Each row's device by its (host, plane) names, the last of equal names as rows are
  // matched: an index, not a scan of the devices per row (a pod has 10^4 to 10^5 devices).
  std::map<std::pair<std::string_view, std::string_view>, const DeviceActivity*> device_named;
  for (const DeviceActivity& d : model.devices) {
    const std::string_view host = model.hostnames.empty() ? std::string_view() : model.hostnames[d.host_index];
    device_named[{host, d.plane_name}] = &d;
  }
  for (const MultiGpuDeviceRow& row : r->devices) {
    auto named = device_named.find({model.hostnames.empty() ? std::string_view() : row.host, row.device});
    if (named == device_named.end()) continue;
    const DeviceActivity* d = named->second;
    LinkBandwidth link = LinkBandwidthOf(d->capabilities);
    if (options.link_bandwidth_gbps) link = {*options.link_bandwidth_gbps, "option"};
    const double steps = r->basis == "steps" ? static_cast<double>(std::max<int64_t>(row.steps, 1)) : 1.0;
    device_steps += steps;
    for (const CollectiveTraffic& c : d->collective_traffic) {
      MultiGpuCollectiveRow out;
      out.host = row.host;
      out.device = row.device;
      out.collective = std::string(CollectiveKindName(c.kind));
      out.count = c.count;
      out.sized = c.sized_count;
      out.ranks = c.ranks;
      out.ranks_source = c.ranks_source;
      out.time_ms = PsToMs(c.time_ps);
      out.size_mb = static_cast<double>(c.size_bytes) / kBytesPerMb;
      out.size_per_step_mb = out.size_mb / steps;
      const double seconds = static_cast<double>(c.sized_time_ps) / 1e12;
      if (seconds > 0) {
        out.algbw_gbps = static_cast<double>(c.size_bytes) / seconds / kBytesPerGb;
        out.busbw_gbps = c.bus_bytes / seconds / kBytesPerGb;
      }
      out.link_gbps = link.gb_per_s;
      out.link = link.link;
      if (out.link_gbps > 0 && c.sized_count > 0) out.link_percent = Percent(out.busbw_gbps, out.link_gbps);
      if (c.sized_count > 0) {
        size += static_cast<double>(c.size_bytes);
        bus += c.bus_bytes;
        sized_ps += static_cast<double>(c.sized_time_ps);
        if (link.gb_per_s <= 0) link_unknown = true;
        if (link.gb_per_s > 0 && (r->link_gbps == 0 || link.gb_per_s < r->link_gbps)) {
          r->link_gbps = link.gb_per_s;
          r->link = link.link;
        }
      }
      if (c.kind == CollectiveKind::kAllReduce) {
        all_reduce_bytes += static_cast<double>(c.size_bytes);
        all_reduce_ps += static_cast<double>(c.time_ps);
      }
      r->collectives += c.count;
      r->sized_collectives += c.sized_count;
      r->collective_rows.push_back(std::move(out));
    }
  }
  if (sized_ps > 0) {
    r->algbw_gbps = size / (sized_ps / 1e12) / kBytesPerGb;
    r->busbw_gbps = bus / (sized_ps / 1e12) / kBytesPerGb;
    if (r->link_gbps > 0) r->link_percent = Percent(r->busbw_gbps, r->link_gbps);
  }
  if (device_steps > 0) {
    r->all_reduce_mb_per_step = all_reduce_bytes / kBytesPerMb / device_steps;
    r->all_reduce_ms_per_step = all_reduce_ps / 1e9 / device_steps;
  }
  // The guide's estimate, parameters x 4 B / link bandwidth: from the parameter count when
  // given, else from the all-reduce bytes measured per step (fp32 gradients: bytes / 4
  // parameters).
  double estimate_bytes = 0;
  if (options.parameter_count && *options.parameter_count > 0) {
    r->parameter_count = *options.parameter_count;
    r->estimate_basis = "parameters";
    estimate_bytes = static_cast<double>(r->parameter_count) * 4.0;
  } else if (r->all_reduce_mb_per_step > 0) {
    r->parameter_count = static_cast<int64_t>(r->all_reduce_mb_per_step * kBytesPerMb / 4.0);
    r->estimate_basis = "all_reduce_bytes";
    estimate_bytes = r->all_reduce_mb_per_step * kBytesPerMb;
  }
  if (estimate_bytes > 0 && r->link_gbps > 0) r->estimated_all_reduce_ms = estimate_bytes / (r->link_gbps * kBytesPerGb) * 1e3;
  if (r->collectives > 0 && r->sized_collectives == 0) {
    r->diagnostics.push_back(
        "no collective says how much it moved (sizes come from PyTorch's record_param_comms / nccl:<collective> "
        "scopes and Kineto's NCCL kernel args): no bandwidth computed");
  } else if (r->sized_collectives > 0 && r->sized_collectives < r->collectives) {
    r->diagnostics.push_back(std::to_string(r->collectives - r->sized_collectives) + " of " +
                             std::to_string(r->collectives) +
                             " collectives have no known size: bandwidth is over the sized ones only");
  }
  if (r->sized_collectives > 0 && (link_unknown || r->link_gbps == 0)) {
    r->diagnostics.push_back(
        "link bandwidth unknown for some devices (the profile names no GPU the table knows): give it "
        "(--link_gbps, link_gbps= in the API, the Link GB/s box on the page) to compare collectives with it");
  }
}

}  // namespace

bool HasSeveralDevices(const ProfileModel& model) {
  int active = 0;
  for (const DeviceActivity& d : model.devices) active += d.has_activity() ? 1 : 0;
  return active >= 2;
}

MultiGpuResult AnalyzeMultiGpu(const ProfileModel& model, const MultiGpuParams& options) {
  MultiGpuResult r;
  std::vector<size_t> active;
  for (size_t i = 0; i < model.devices.size(); ++i) {
    if (model.devices[i].has_activity()) active.push_back(i);
  }
  r.device_count = static_cast<int64_t>(active.size());
  std::map<int64_t, const StepInfo*> step_by_number;
  for (const StepInfo& step : model.steps) step_by_number.emplace(step.step_number, &step);

  // The steps the devices have activity in, ascending: slot s is numbers[s].
  std::vector<int64_t> numbers;
  for (size_t i : active) {
    for (const DeviceStepActivity& a : model.devices[i].step_activity) numbers.push_back(a.step_number);
  }
  std::sort(numbers.begin(), numbers.end());
  numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
  auto slot_of = [&](int64_t number) {
    return static_cast<size_t>(std::lower_bound(numbers.begin(), numbers.end(), number) - numbers.begin());
  };
  std::vector<const StepInfo*> step_of_slot(numbers.size(), nullptr);
  for (size_t s = 0; s < numbers.size(); ++s) {
    auto step = step_by_number.find(numbers[s]);
    if (step != step_by_number.end()) step_of_slot[s] = step->second;
  }
  // Each host's begin of each step, looked up once (a pod: hosts x steps, not device-steps).
  std::vector<int64_t> host_begin(std::max<size_t>(1, model.hostnames.size()) * numbers.size(), INT64_MIN);
  auto step_begin_on_host = [&](size_t slot, int host_index) {
    if (step_of_slot[slot] == nullptr) return int64_t{0};
    if (host_index < 0 || static_cast<size_t>(host_index) * numbers.size() >= host_begin.size()) {
      return HostStepBegin(*step_of_slot[slot], host_index);
    }
    int64_t& begin = host_begin[static_cast<size_t>(host_index) * numbers.size() + slot];
    if (begin == INT64_MIN) begin = HostStepBegin(*step_of_slot[slot], host_index);
    return begin;
  };
  auto compute = [](const DeviceStepActivity& a) { return a.active_ps - a.collective_ps; };

  // What each step's row needs of its devices, gathered device by device in the order the
  // devices and their activity come (a pass over memory in order, not a gather per step:
  // a pod has 10^6 device-steps): the first device with the most compute is the slowest.
  struct StepAcc {
    int64_t devices = 0;
    const DeviceStepActivity* slowest = nullptr;
    size_t slowest_device = 0;
    int64_t min_compute = 0, collective = 0;
    int64_t last_start = INT64_MIN, first_end = INT64_MAX;  // on each host's clock, from its step start
    int64_t earliest = INT64_MAX, latest = INT64_MIN;        // first kernels, the same
  };
  std::vector<StepAcc> per_step(numbers.size());
  struct Acc {
    int64_t steps = 0, active = 0, collective = 0, collectives = 0, straggler = 0, wait = 0, skew = 0, skew_steps = 0;
  };
  std::vector<Acc> acc(model.devices.size());
  int64_t total_active = 0, total_collective = 0, imbalance_sum = 0, skew_sum = 0, skew_steps = 0, collective_sum = 0,
          device_steps = 0;
  for (size_t i : active) {
    const DeviceActivity& d = model.devices[i];
    Acc& device_acc = acc[i];
    for (const DeviceStepActivity& a : d.step_activity) {
      const size_t slot = slot_of(a.step_number);
      const int64_t begin = step_begin_on_host(slot, d.host_index);
      StepAcc& st = per_step[slot];
      ++device_acc.steps;
      device_acc.active += a.active_ps;
      device_acc.collective += a.collective_ps;
      device_acc.collectives += a.collective_count;
      total_active += a.active_ps;
      total_collective += a.collective_ps;
      if (st.devices++ == 0) {
        st.slowest = &a;
        st.slowest_device = i;
        st.min_compute = compute(a);
      } else {
        if (compute(a) > compute(*st.slowest)) {
          st.slowest = &a;
          st.slowest_device = i;
        }
        st.min_compute = std::min(st.min_compute, compute(a));
      }
      st.collective += a.collective_ps;
      // The devices' windows for this step: when one starts after another has finished,
      // they did not run it together, and comparing their starts measures nothing.
      st.last_start = std::max(st.last_start, a.first_begin_ps - begin);
      st.first_end = std::min(st.first_end, a.last_end_ps - begin);
      if (a.first_kernel_begin_ps >= 0) {  // launch skew: first kernel from the device's own host's step start
        st.earliest = std::min(st.earliest, a.first_kernel_begin_ps - begin);
        st.latest = std::max(st.latest, a.first_kernel_begin_ps - begin);
      }
    }
  }
  auto concurrent = [](const StepAcc& st) { return st.devices >= 2 && st.last_start < st.first_end; };
  // The waits and skews, which need each step's slowest device and earliest kernel.
  for (size_t i : active) {
    const DeviceActivity& d = model.devices[i];
    for (const DeviceStepActivity& a : d.step_activity) {
      const size_t slot = slot_of(a.step_number);
      const StepAcc& st = per_step[slot];
      if (!concurrent(st)) continue;
      acc[i].wait += compute(*st.slowest) - compute(a);
      if (st.earliest != INT64_MAX && a.first_kernel_begin_ps >= 0) {
        acc[i].skew += a.first_kernel_begin_ps - step_begin_on_host(slot, d.host_index) - st.earliest;
        ++acc[i].skew_steps;
      }
    }
  }
  for (size_t slot = 0; slot < numbers.size(); ++slot) {
    const StepAcc& st = per_step[slot];
    if (st.devices < 2) continue;  // nothing to compare in this step
    const int64_t number = numbers[slot];
    MultiGpuStepRow row;
    row.step_number = number;
    row.devices = st.devices;
    row.concurrent = concurrent(st);
    const int64_t step_ps = step_of_slot[slot] == nullptr ? 0 : step_of_slot[slot]->duration_ps;
    const int64_t max_compute = compute(*st.slowest);
    const int64_t imbalance_ps = max_compute - st.min_compute;
    const bool straggles = row.concurrent && step_ps > 0 &&
                           Percent(static_cast<double>(imbalance_ps), static_cast<double>(step_ps)) >=
                               kStepStragglerMinPercent;
    if (straggles) {
      ++acc[st.slowest_device].straggler;
      row.straggler = DeviceLabel(model, model.devices[st.slowest_device]);
    }
    if (!row.concurrent) {
      ++r.non_concurrent_steps;
      if (r.non_concurrent_steps == 1) {
        r.diagnostics.push_back("step " + std::to_string(number) + ": the devices' work for it does not overlap (one "
                                "starts " + base::FormatFixed(PsToMs(st.last_start - st.first_end), 1) + " ms" +
                                " after another has finished): they ran it at different times, so it has no launch "
                                "skew or straggler");
      }
    }
    if (row.concurrent && st.earliest != INT64_MAX) {
      row.launch_skew_ms = PsToMs(st.latest - st.earliest);
      skew_sum += st.latest - st.earliest;
      ++skew_steps;
    }
    row.max_compute_ms = PsToMs(max_compute);
    row.min_compute_ms = PsToMs(st.min_compute);
    row.imbalance_ms = row.max_compute_ms - row.min_compute_ms;
    row.avg_collective_ms = PsToMs(st.collective) / static_cast<double>(st.devices);
    imbalance_sum += imbalance_ps;
    collective_sum += st.collective;
    device_steps += st.devices;
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
    if (a.skew_steps > 0) row.avg_launch_skew_ms = PsToMs(a.skew) / static_cast<double>(a.skew_steps);
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
    r.avg_imbalance_ms = slowest->kernel_ms - slowest->total_collective_ms - min_compute;
    // Without steps the imbalance is held to the slowest device's compute.
    if (Percent(r.avg_imbalance_ms, slowest->kernel_ms - slowest->total_collective_ms) >= kStepStragglerMinPercent) {
      r.straggler =
          r.devices.size() > 1 && model.hostnames.size() > 1 ? slowest->host + ":" + slowest->device : slowest->device;
    }
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
  AddCollectiveBandwidth(model, options, &r);
  r.launch_threads = model.launch_threads;
  return r;
}

}  // namespace stepscope::analysis
