// libFuzzer target for the analysis read path: bytes -> the streaming columnar XSpace
// reader (xspace/columnar, on one thread and on several, which must agree) -> the columnar
// writer and back -> every column accessor -> the profile model (steps, trees,
// breakdown, ops, kernels) -> the host combiner. Anything that crashes, reads out of
// bounds or hits undefined behaviour here would do the same to `stepscope analyze` on a
// hostile file.
//
// Built as a fuzzer with -DSTEPSCOPE_BUILD_FUZZERS=ON (clang); replayed over
// tests/fuzz/corpus/xspace/ (XSpace bytes, like this target's input) by the normal test
// build (fuzz_replay_test).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/model/combine_hosts.h"
#include "src/analysis/model/event_tree.h"
#include "src/analysis/model/step_markers.h"
#include "src/xspace/columnar/columnar_reader.h"
#include "src/xspace/columnar/columnar_writer.h"
#include "tests/fuzz/same_columns.h"

namespace {

using namespace stepscope;  // NOLINT: fuzz driver

using fuzzing::SameColumns;

uint64_t WalkColumns(const xspace::ColumnarXSpace& space) {
  uint64_t sum = space.num_events() + static_cast<uint64_t>(space.time_origin_ns);
  for (const xspace::ColumnarPlane& plane : space.planes) {
    for (const xspace::ColumnarLine& line : plane.lines) {
      sum += line.name.size() + static_cast<uint64_t>(line.timestamp_ns) + line.num_events();
      for (uint32_t e = line.event_begin; e < line.event_end; ++e) {
        sum += plane.event_name(e).size() + static_cast<uint64_t>(plane.event_end_ps(e));
        for (uint32_t i = plane.event_stats_begin[e]; i < plane.event_stats_begin[e + 1]; ++i) {
          xspace::ColumnarStat stat = plane.event_stat(i);
          sum += plane.stat_name(stat).size() + plane.ToString(stat).size() +
                 static_cast<uint64_t>(xspace::ColumnarPlane::AsInt64(stat));
        }
        xspace::ColumnarStat found;
        for (auto type : {xspace::StatType::kGroupId, xspace::StatType::kIsRoot, xspace::StatType::kTfOp}) {
          if (plane.FindStat(e, type, &found)) sum += plane.AsString(found).size();
        }
      }
    }
    for (uint32_t i = plane.plane_stats_begin; i < plane.plane_stats_end; ++i) {
      sum += plane.ToString(plane.other_stats[i]).size();
    }
  }
  return sum;
}

uint64_t WalkModel(const analysis::ProfileModel& model) {
  uint64_t sum = model.diagnostics.size() + model.kernels.size() + model.devices.size();
  for (const analysis::StepInfo& step : model.steps) {
    sum += static_cast<uint64_t>(step.duration_ps) + static_cast<uint64_t>(step.breakdown.total_ps());
  }
  for (const analysis::HostThread& thread : model.host_threads) {
    const xspace::ColumnarPlane& plane = model.source->planes[thread.plane_index];
    for (int64_t self : analysis::ComputeSelfTimes(plane, thread)) sum += static_cast<uint64_t>(self);
  }
  return sum;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto space = xspace::ParseColumnarXSpace(bytes, "fuzz");
  // Planes parsed on several threads: the same columns, or the same error.
  xspace::ParseOptions parallel;
  parallel.threads = 3;
  parallel.parallel_min_bytes = 0;
  auto again = xspace::ParseColumnarXSpace(bytes, "fuzz", parallel);
  if (again.ok() != space.ok()) __builtin_trap();
  if (!space.ok()) {
    if (again.status().ToString() != space.status().ToString()) __builtin_trap();
    return 0;
  }
  if (!SameColumns(*space, *again)) __builtin_trap();
  // Written again (columnar_writer.h, what `stepscope import` does with its columns), the
  // columns must read back with the same planes, lines and events.
  auto written = xspace::SerializeColumnarXSpace(*space);
  if (!written.ok()) __builtin_trap();
  auto reread = xspace::ParseColumnarXSpace(*written, "fuzz, written again");
  if (!reread.ok() || reread->planes.size() != space->planes.size() || reread->num_events() != space->num_events()) {
    __builtin_trap();
  }
  for (size_t p = 0; p < space->planes.size(); ++p) {
    if (reread->planes[p].lines.size() != space->planes[p].lines.size()) __builtin_trap();
  }
  volatile uint64_t sink = WalkColumns(*space);
  sink = sink + analysis::FindStepMarkers(*space).size();
  auto shared = std::make_shared<const xspace::ColumnarXSpace>(std::move(*space));
  for (bool sampling : {false, true}) {
    analysis::ModelOptions options;
    options.drop_incomplete_steps = sampling;
    auto model = analysis::BuildProfileModel(shared, options);
    if (!model.ok()) continue;
    sink = sink + WalkModel(*model);
    std::vector<analysis::ProfileModel> hosts;
    hosts.push_back(std::move(*model));
    auto again = analysis::BuildProfileModel(shared, options);
    if (again.ok()) hosts.push_back(std::move(*again));
    sink = sink + WalkModel(analysis::CombineHostModels(std::move(hosts)));
  }
  (void)sink;
  return 0;
}
