// libFuzzer target for the protobuf XSpace path: bytes -> xspace::ParseXSpace (gzip,
// limits, validation) -> every visitor accessor -> FindStepMarkers, then what parsed goes
// through the streaming reader into the `stepscope info` summary and both output formats
// (and through the message walk, which must give the same columns).
// (Files themselves reach info through the streaming reader, fuzzed from raw bytes by
// columnar_fuzzer; protobuf messages still come from the wire and the collector.)
//
// Built as a fuzzer with -DSTEPSCOPE_BUILD_FUZZERS=ON (clang); replayed over
// tests/fuzz/corpus/xspace/ by the normal test build (fuzz_replay_test).
#include <google/protobuf/stubs/logging.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "src/analysis/model/step_markers.h"
#include "src/cli/info_format.h"
#include "src/cli/xspace_summary.h"
#include "src/xspace/columnar/xspace_to_columnar.h"
#include "src/xspace/xplane_visitor.h"
#include "src/xspace/xspace_io.h"

namespace {

using namespace stepscope;  // NOLINT: fuzz driver

// Small limits keep each run fast and bounded; the limit code paths are the same.
constexpr uint64_t kFuzzLimitBytes = 8 << 20;

// Touches every accessor so sanitizers see every read they do. The sum keeps the
// compiler from dropping the calls.
uint64_t WalkStat(const xspace::XStatVisitor& stat) {
  uint64_t sum = stat.name().size() + static_cast<uint64_t>(stat.type()) + static_cast<uint64_t>(stat.value_case());
  sum += static_cast<uint64_t>(stat.IntValue()) + stat.UintValue() + (stat.DoubleValue() > 0 ? 1 : 0);
  sum += stat.IsNumeric() + stat.StrOrRefValue().size() + stat.BytesValue().size() + stat.ToString().size();
  return sum;
}

uint64_t WalkSpace(const xspace::XSpace& space) {
  uint64_t sum = 0;
  for (const xspace::XPlane& raw_plane : space.planes()) {
    xspace::XPlaneVisitor plane(&raw_plane);
    sum += static_cast<uint64_t>(plane.id()) + plane.name().size() + static_cast<uint64_t>(plane.num_lines());
    plane.ForEachStat([&](const xspace::XStatVisitor& stat) { sum += WalkStat(stat); });
    for (int t = 0; t < xspace::kNumStatTypes; ++t) {
      auto type = static_cast<xspace::StatType>(t);
      if (auto stat = plane.GetStat(type)) sum += WalkStat(*stat);
      if (auto id = plane.GetStatMetadataId(type)) sum += static_cast<uint64_t>(plane.GetStatType(*id));
    }
    if (auto stat = plane.GetStat("_r")) sum += WalkStat(*stat);
    if (auto line = plane.FindLineByName(xspace::kStepLineName)) sum += line->num_events();
    plane.ForEachLine([&](const xspace::XLineVisitor& line) {
      for (int64_t value : {line.id(), line.display_id(), line.timestamp_ns(), line.duration_ps()}) {
        sum += static_cast<uint64_t>(value);
      }
      sum += line.name().size() + line.display_name().size();
      line.ForEachEvent([&](const xspace::XEventVisitor& event) {
        sum += event.name().size() + event.display_name().size() + (event.metadata() != nullptr);
        for (int64_t value : {event.metadata_id(), event.timestamp_ps(), event.timestamp_ns(), event.offset_ps(),
                              event.duration_ps(), event.end_timestamp_ps()}) {
          sum += static_cast<uint64_t>(value);  // unsigned: wraps, never overflows
        }
        sum += event.IsAggregatedEvent() ? static_cast<uint64_t>(event.num_occurrences()) : 0;
        event.ForEachStat([&](const xspace::XStatVisitor& stat) { sum += WalkStat(stat); });
        for (xspace::StatType type : {xspace::StatType::kIsRoot, xspace::StatType::kStepNum,
                                      xspace::StatType::kGroupId, xspace::StatType::kStepName}) {
          if (auto stat = event.GetStat(type)) sum += WalkStat(*stat);
        }
        if (auto stat = event.GetStat("iter_num")) sum += WalkStat(*stat);
      });
      if (line.num_events() > 0) sum += line.event(line.num_events() - 1).name().size();
    });
  }
  return sum;
}

// True when two readings of one input gave the same columns (the checks a fuzzer can
// afford: sizes, every column's bytes, names and string pools).
template <typename T>
bool SameArray(const xspace::PodArray<T>& a, const xspace::PodArray<T>& b) {
  return a.size() == b.size() && (a.size() == 0 || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}
bool SameColumns(const xspace::ColumnarXSpace& a, const xspace::ColumnarXSpace& b) {
  if (a.time_origin_ns != b.time_origin_ns || a.planes.size() != b.planes.size() || a.errors != b.errors ||
      a.warnings != b.warnings || a.hostnames != b.hostnames) {
    return false;
  }
  for (size_t p = 0; p < a.planes.size(); ++p) {
    const xspace::ColumnarPlane& x = a.planes[p];
    const xspace::ColumnarPlane& y = b.planes[p];
    if (x.name != y.name || x.id != y.id || x.lines.size() != y.lines.size() || x.strings != y.strings ||
        x.event_metadata.size() != y.event_metadata.size() || x.stat_metadata.size() != y.stat_metadata.size() ||
        x.other_stats.size() != y.other_stats.size() || x.aggregated_events != y.aggregated_events ||
        x.long_durations_ps != y.long_durations_ps || x.wide_payloads != y.wide_payloads ||
        !SameArray(x.event_start_ps, y.event_start_ps) || !SameArray(x.event_duration, y.event_duration) ||
        !SameArray(x.event_metadata_index, y.event_metadata_index) ||
        !SameArray(x.event_stats_begin, y.event_stats_begin) || !SameArray(x.stat_key, y.stat_key) ||
        !SameArray(x.stat_payload, y.stat_payload)) {
      return false;
    }
    for (size_t m = 0; m < x.event_metadata.size(); ++m) {
      if (x.event_metadata[m].name != y.event_metadata[m].name) return false;
    }
    for (size_t m = 0; m < x.stat_metadata.size(); ++m) {
      if (x.stat_metadata[m].name != y.stat_metadata[m].name) return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool quiet = [] {
    google::protobuf::SetLogHandler(nullptr);
    return true;
  }();
  (void)quiet;
  xspace::ReadLimits limits;
  limits.max_file_bytes = kFuzzLimitBytes;
  limits.inflate.max_output_bytes = kFuzzLimitBytes;
  auto space = xspace::ParseXSpace(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz", limits);
  if (!space.ok()) return 0;
  volatile uint64_t sink = WalkSpace(*space);
  for (const analysis::StepSeries& series : analysis::GroupStepMarkers(analysis::FindStepMarkers(*space))) {
    sink = sink + static_cast<uint64_t>(analysis::ComputeStepTimeStats(series.markers).count);
  }
  cli::FileInfo file;
  file.path = "fuzz.xplane.pb";
  file.file_bytes = size;
  auto columnar = xspace::ConvertXSpaceToColumnar(*space);
  // The message walk (imported traces' path) must give what serializing and reading gives.
  auto walked = xspace::XSpaceMessageToColumnar(*space);
  if (walked.ok() != columnar.ok() || (columnar.ok() && !SameColumns(*columnar, *walked))) __builtin_trap();
  if (!columnar.ok()) return 0;
  file.summary = cli::SummarizeXSpace(*columnar);
  sink = sink + cli::FormatFileText(file).size() + cli::FormatFileJson(file).size();
  (void)sink;
  return 0;
}
