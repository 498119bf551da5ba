// libFuzzer target for the per-module XLA tools (memory_viewer, graph_viewer) over what
// the HLO reader accepts: bytes -> ParseHloProto -> the memory view (heap-trace replay,
// whole-program buffers, peak buffers, tables, JSON) and the graph around a few ops.
// Buffer assignments and graphs that contradict themselves must come out as diagnostics,
// never as a crash, a hang or undefined behaviour (an overflowing sum, say).
//
// Built as a fuzzer with -DSTEPSCOPE_BUILD_FUZZERS=ON (clang); replayed over
// tests/fuzz/corpus/hlo/ by the normal test build (fuzz_replay_test).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "src/analysis/tools/graph_viewer.h"
#include "src/analysis/tools/memory_viewer.h"
#include "src/hlo/hlo_reader.h"

namespace {

using namespace stepscope;  // NOLINT: fuzz driver

uint64_t Render(const analysis::ToolResult& result) {
  uint64_t sum = result.ToJson(/*pretty=*/false).size() + result.FormatText({}).size();
  for (const std::string& name : result.TableNames()) sum += result.TableCsv(name).ok() ? 1 : 0;
  return sum;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto module = hlo::ParseHloProto(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!module.ok()) return 0;
  uint64_t sum = 0;
  sum += Render(analysis::StructToolResult<analysis::MemoryViewerResult>(analysis::ComputeMemoryViewer(*module)));
  // The default centre, the first and the last op, and a substring search.
  const std::string last = module->instructions.empty() ? std::string() : module->instructions.back().name;
  const std::string first = module->instructions.empty() ? std::string() : module->instructions.front().name;
  for (const std::string& op : {std::string(), first, last, std::string("a")}) {
    sum += Render(analysis::StructToolResult<analysis::GraphViewerResult>(
        analysis::ComputeGraphViewer(*module, op, analysis::kGraphMaxHops, 64)));
  }
  volatile uint64_t sink = sum;
  (void)sink;
  return 0;
}
