#include "src/analysis/model/device_counters.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

namespace stepscope::analysis {
namespace {

struct Sample {
  int64_t at_ps;
  double value;
};

// The counter's threshold, or a negative number when it has none.
double ThresholdOf(std::string_view name, int64_t memory_size_bytes) {
  if (name == "sm_utilization_pct" || name == "memory_utilization_pct") return kBusyUtilizationPercent;
  if (name == "memory_used_bytes" && memory_size_bytes > 0) {
    return kNearFullMemoryFraction * static_cast<double>(memory_size_bytes);
  }
  return -1;
}

DeviceCounterSummary Summarize(std::string name, std::vector<Sample>& samples, int64_t memory_size_bytes) {
  std::stable_sort(samples.begin(), samples.end(), [](const Sample& a, const Sample& b) { return a.at_ps < b.at_ps; });
  DeviceCounterSummary s;
  s.samples = static_cast<int64_t>(samples.size());
  s.min = samples.front().value;
  s.max = samples.front().value;
  double sum = 0;
  for (const Sample& x : samples) {
    sum += x.value;
    s.min = std::min(s.min, x.value);
    s.max = std::max(s.max, x.value);
  }
  s.mean = sum / static_cast<double>(samples.size());
  s.last = samples.back().value;
  s.first_ps = samples.front().at_ps;
  s.last_ps = samples.back().at_ps;
  const double threshold = ThresholdOf(name, memory_size_bytes);
  if (threshold >= 0) {
    s.threshold = threshold;
    // Each sample holds until the next one; one sample alone counts as all or nothing.
    const int64_t span = s.last_ps - s.first_ps;
    if (span <= 0) {
      s.time_at_or_above_threshold_percent = samples.front().value >= threshold ? 100.0 : 0.0;
    } else {
      int64_t above = 0;
      for (size_t i = 0; i + 1 < samples.size(); ++i) {
        if (samples[i].value >= threshold) above += samples[i + 1].at_ps - samples[i].at_ps;
      }
      s.time_at_or_above_threshold_percent = 100.0 * static_cast<double>(above) / static_cast<double>(span);
    }
  }
  s.name = std::move(name);
  return s;
}

}  // namespace

std::vector<DeviceCounterSummary> SummarizeDeviceCounters(const xspace::ColumnarPlane& plane,
                                                          const xspace::ColumnarLine& line, int64_t memory_size_bytes) {
  uint32_t value_index = xspace::ColumnarPlane::kNoStat;
  for (uint32_t i = 0; i < plane.stat_metadata.size(); ++i) {
    if (plane.stat_metadata[i].name == "value") value_index = i;
  }
  std::map<std::string, std::vector<Sample>, std::less<>> by_name;
  if (value_index == xspace::ColumnarPlane::kNoStat) return {};
  for (uint32_t e = line.event_begin; e < line.event_end; ++e) {
    xspace::ColumnarStat stat;
    if (!plane.FindEventStat(e, value_index, &stat) || !xspace::ColumnarPlane::IsNumeric(stat.kind)) continue;
    std::string_view name = plane.event_name(e);
    auto it = by_name.find(name);
    if (it == by_name.end()) it = by_name.emplace(std::string(name), std::vector<Sample>()).first;
    it->second.push_back({plane.event_start_ps[e], xspace::ColumnarPlane::AsDouble(stat)});
  }
  std::vector<DeviceCounterSummary> out;
  for (auto& [name, samples] : by_name) out.push_back(Summarize(name, samples, memory_size_bytes));
  return out;
}

}  // namespace stepscope::analysis
