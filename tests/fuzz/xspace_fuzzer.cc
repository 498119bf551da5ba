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
#include "tests/fuzz/same_columns.h"

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

using fuzzing::SameColumns;

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
