// libFuzzer target for the input-pipeline path: bytes -> the columnar XSpace reader -> the
// profile model's pipeline events (pipeline_events.h: names, stat roles, enclosing events)
// -> tf_data_bottleneck_analysis (stages, produce/consume links, the walk, parent cycles)
// -> its JSON, tables and text. Hostile iterator events (cycles in parent ids, produce
// without consume, huge or non-integer ids, links into a call's own ancestors) must come
// out as counted diagnostics, never as a hang, a crash or undefined behaviour.
//
// Built as a fuzzer with -DSTEPSCOPE_BUILD_FUZZERS=ON (clang); replayed over
// tests/fuzz/corpus/tf_data/ by the normal test build (fuzz_replay_test).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/tools/tf_data_bottleneck.h"
#include "src/xspace/columnar/columnar_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace stepscope;  // NOLINT: fuzz driver
  auto space = xspace::ParseColumnarXSpace(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
  if (!space.ok()) return 0;
  auto model = analysis::BuildProfileModel(std::make_shared<const xspace::ColumnarXSpace>(std::move(*space)));
  if (!model.ok()) return 0;
  const analysis::TfDataBottleneckResult result = analysis::ComputeTfDataBottleneck(*model);
  // Invariants whatever the input: every index points at something that exists, and no
  // call is walked twice (walked + unreached + without id == iterator events).
  int64_t walked = 0;
  for (const analysis::PipelineStageStats& stage : result.stages) {
    if (stage.pipeline >= static_cast<int>(result.pipelines.size())) __builtin_trap();
    if (stage.self_ps < 0 || stage.calls < 0) __builtin_trap();
    walked += stage.calls;
  }
  if (walked + result.counts.unreached_calls + result.counts.iterators_without_id != result.counts.iterator_events) {
    __builtin_trap();
  }
  for (const analysis::PipelineStats& p : result.pipelines) {
    if (p.root_stage < 0 || p.root_stage >= static_cast<int>(result.stages.size())) __builtin_trap();
    if (p.bottleneck_stage && *p.bottleneck_stage >= static_cast<int>(result.stages.size())) __builtin_trap();
  }
  for (const analysis::CriticalPathStep& step : result.critical_path) {
    if (step.stage < 0 || step.stage >= static_cast<int>(result.stages.size())) __builtin_trap();
  }
  analysis::StructToolResult<analysis::TfDataBottleneckReport> tool(analysis::TfDataBottleneckReportOf(result));
  volatile uint64_t sink = tool.ToJson(false).size() + tool.FormatText({}).size();
  for (const std::string& name : tool.TableNames()) {
    auto csv = tool.TableCsv(name);
    if (csv.ok()) sink = sink + csv->size();
  }
  (void)sink;
  return 0;
}
