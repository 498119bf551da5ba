#include "src/analysis/trace/trace_counters.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>
#include <utility>

#include "src/analysis/output/json_writer.h"
#include "src/analysis/trace/tile_query.h"
#include "src/xspace/schema.h"

namespace stepscope::analysis::trace {
namespace {

using xspace::ColumnarPlane;
using xspace::ColumnarStat;

struct Pending {
  std::string name;
  std::string unit;
  std::vector<std::pair<int64_t, double>> samples;
};

bool IsCounterLine(const xspace::ColumnarLine& line) {
  return line.id == xspace::kCounterEventsLineId || line.name == xspace::kCounterEventsLineName;
}

// Memory in use after each allocation event of the plane, per allocator.
void CollectMemory(const ColumnarPlane& plane, int64_t shift_ps, std::map<std::string, Pending>* out) {
  std::vector<bool> is_memory(plane.event_metadata.size());
  bool any = false;
  for (size_t m = 0; m < plane.event_metadata.size(); ++m) {
    const std::string& name = plane.event_metadata[m].name;
    is_memory[m] = name == xspace::kMemoryAllocationEventName || name == xspace::kMemoryDeallocationEventName;
    any = any || is_memory[m];
  }
  if (!any) return;
  for (const xspace::ColumnarLine& line : plane.lines) {
    if (IsCounterLine(line)) continue;
    for (uint32_t e = line.event_begin; e < line.event_end; ++e) {
      if (!is_memory[plane.event_metadata_index[e]]) continue;
      ColumnarStat in_use;
      if (!plane.FindStat(e, xspace::StatType::kBytesAllocated, &in_use) || !ColumnarPlane::IsNumeric(in_use.kind)) {
        continue;
      }
      ColumnarStat allocator;
      std::string which = plane.FindStat(e, xspace::StatType::kAllocatorName, &allocator)
                              ? std::string(plane.AsString(allocator))
                              : std::string();
      Pending& series = (*out)["0" + which];
      if (series.name.empty()) {
        series.name = which.empty() ? "Memory in use" : "Memory in use (" + which + ")";
        series.unit = "bytes";
      }
      series.samples.emplace_back(plane.event_start_ps[e] + shift_ps, ColumnarPlane::AsDouble(in_use));
    }
  }
}

// Each numeric stat of the counter line's events is a series "<event name> <stat name>".
// On a device plane the series are per device ("/device:GPU:1 sm_utilization_pct": every
// GPU's tracer samples the same counters), the stat name left out when it is the tracer's
// plain `value`.
void CollectCounterLine(const ColumnarPlane& plane, const xspace::ColumnarLine& line, int64_t shift_ps,
                        std::map<std::string, Pending>* out) {
  const bool device = plane.name.starts_with("/device:");
  for (uint32_t e = line.event_begin; e < line.event_end; ++e) {
    for (uint32_t i = plane.event_stats_begin[e]; i < plane.event_stats_begin[e + 1]; ++i) {
      const ColumnarStat stat = plane.event_stat(i);
      if (!ColumnarPlane::IsNumeric(stat.kind)) continue;
      std::string name = std::string(plane.event_name(e));
      if (!device || plane.stat_name(stat) != "value") name += " " + std::string(plane.stat_name(stat));
      if (device) name = plane.name + " " + name;
      Pending& series = (*out)["1" + name];
      if (series.name.empty()) series.name = std::move(name);
      series.samples.emplace_back(plane.event_start_ps[e] + shift_ps, ColumnarPlane::AsDouble(stat));
    }
  }
}

}  // namespace

std::vector<CounterSeries> CollectCounterSeries(const std::vector<TraceSourceInput>& sources,
                                                const std::vector<int64_t>& shifts_ps) {
  std::vector<CounterSeries> all;
  for (size_t s = 0; s < sources.size(); ++s) {
    std::map<std::string, Pending> pending;  // memory first, then counters, each by name
    for (const ColumnarPlane& plane : sources[s].space->planes) {
      CollectMemory(plane, shifts_ps[s], &pending);
      for (const xspace::ColumnarLine& line : plane.lines) {
        if (IsCounterLine(line)) CollectCounterLine(plane, line, shifts_ps[s], &pending);
      }
    }
    for (auto& [key, p] : pending) {
      std::stable_sort(p.samples.begin(), p.samples.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      CounterSeries series;
      series.name = std::move(p.name);
      series.host = sources[s].host;
      series.unit = std::move(p.unit);
      series.min_value = p.samples.front().second;
      series.max_value = p.samples.front().second;
      for (const auto& [t, v] : p.samples) {
        series.t_ps.push_back(t);
        series.value.push_back(v);
        series.min_value = std::min(series.min_value, v);
        series.max_value = std::max(series.max_value, v);
      }
      all.push_back(std::move(series));
    }
  }
  return all;
}

StatusOr<std::vector<CounterPoints>> QueryCounters(const TraceIndex& index, int64_t start_ps, int64_t end_ps,
                                                   uint32_t width_px) {
  if (end_ps <= start_ps) return InvalidArgumentError("end_ps must be after start_ps");
  if (width_px == 0 || width_px > kMaxTileWidthPx) {
    return InvalidArgumentError("width_px must be between 1 and " + std::to_string(kMaxTileWidthPx));
  }
  const int64_t bucket_ps = TileResolutionPs(start_ps, end_ps, width_px);
  std::vector<CounterPoints> out;
  for (uint32_t c = 0; c < index.counters().size(); ++c) {
    const CounterSeries& series = index.counters()[c];
    CounterPoints points;
    points.series = c;
    size_t i = std::lower_bound(series.t_ps.begin(), series.t_ps.end(), start_ps) - series.t_ps.begin();
    if (i > 0) {  // the level in force when the view starts
      points.t_ps.push_back(series.t_ps[i - 1]);
      points.value.push_back(series.value[i - 1]);
    }
    while (i < series.t_ps.size() && series.t_ps[i] < end_ps) {
      const int64_t bucket = (series.t_ps[i] - start_ps) / bucket_ps;
      const size_t first = i;
      double peak = series.value[i];
      for (++i; i < series.t_ps.size() && series.t_ps[i] < end_ps && (series.t_ps[i] - start_ps) / bucket_ps == bucket; ++i) {
        peak = std::max(peak, series.value[i]);
      }
      const size_t last = i - 1;
      points.t_ps.push_back(series.t_ps[first]);
      points.value.push_back(peak);
      if (last != first && series.value[last] != peak) {
        points.t_ps.push_back(series.t_ps[last]);
        points.value.push_back(series.value[last]);
      }
    }
    out.push_back(std::move(points));
  }
  return out;
}

std::string CountersJson(const TraceIndex& index, const std::vector<CounterPoints>& points) {
  std::string body;
  output::JsonWriter w(&body);
  w.BeginObject();
  w.Key("counters");
  w.BeginArray();
  for (const CounterPoints& p : points) {
    const CounterSeries& series = index.counters()[p.series];
    w.BeginObject();
    w.Field("id", static_cast<int64_t>(p.series));
    w.Field("name", series.name);
    w.Field("host", series.host);
    w.Field("unit", series.unit);
    w.Field("min", series.min_value);
    w.Field("max", series.max_value);
    w.Key("t");
    w.BeginArray();
    for (int64_t t : p.t_ps) w.Int(t);
    w.EndArray();
    w.Key("v");
    w.BeginArray();
    for (double v : p.value) w.Double(v);
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  body.push_back('\n');
  return body;
}

}  // namespace stepscope::analysis::trace
