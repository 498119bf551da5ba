// libFuzzer target for the HLO reader (src/hlo): bytes -> ParseHloProto (wire pre-scan,
// protobuf decoding, id resolution, cycle removal, shape sizes) -> every derived view a
// tool reads: shape text, the callee-first computation order, operands, users, calls,
// the schedule and the buffer assignment lookups - and the cost model over all of it.
// Hostile bytes (truncation, cyclic calls, dimension products past int64, dangling ids)
// must come out as an error or as diagnostics, never as a crash, a hang or undefined
// behaviour.
//
// Built as a fuzzer with -DSTEPSCOPE_BUILD_FUZZERS=ON (clang); replayed over
// tests/fuzz/corpus/hlo/ by the normal test build (fuzz_replay_test).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/hlo/hlo_cost.h"
#include "src/hlo/hlo_reader.h"

namespace {

using namespace stepscope;  // NOLINT: fuzz driver

// Touches every index the module hands out, so a bad one shows up under ASan.
uint64_t Walk(const hlo::HloModule& module) {
  uint64_t sum = module.diagnostics.size() + module.DisplayName().size();
  for (int32_t c : module.computation_order) {
    const hlo::Computation& computation = module.computations.at(static_cast<size_t>(c));
    for (int32_t i : computation.instructions) {
      const hlo::Instruction& instruction = module.instructions.at(static_cast<size_t>(i));
      sum += instruction.shape.ToString().size() + static_cast<uint64_t>(instruction.shape.byte_size & 0xff);
      for (int32_t o : instruction.operands) sum += module.instructions.at(static_cast<size_t>(o)).name.size();
      for (int32_t u : instruction.users) sum += module.instructions.at(static_cast<size_t>(u)).name.size();
      for (int32_t k : instruction.called_computations) sum += module.computations.at(static_cast<size_t>(k)).name.size();
      sum += static_cast<uint64_t>(module.FindInstruction(instruction.name) >= 0);
    }
    for (int32_t caller : computation.callers) sum += module.instructions.at(static_cast<size_t>(caller)).name.size();
    if (computation.root >= 0) sum += module.instructions.at(static_cast<size_t>(computation.root)).name.size();
  }
  for (const hlo::ScheduleSequence& sequence : module.schedule) {
    for (int32_t i : sequence.instructions) sum += module.instructions.at(static_cast<size_t>(i)).opcode.size();
  }
  if (module.buffer_assignment) {
    for (const hlo::LogicalBuffer& buffer : module.buffer_assignment->logical_buffers) {
      if (buffer.instruction >= 0) sum += module.instructions.at(static_cast<size_t>(buffer.instruction)).name.size();
      sum += static_cast<uint64_t>(module.buffer_assignment->FindLogicalBuffer(buffer.id));
    }
  }
  return sum;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto module = hlo::ParseHloProto(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!module.ok()) return 0;
  hlo::HloCostModel costs(*module);
  double total = 0;
  for (size_t i = 0; i < module->instructions.size(); ++i) {
    const hlo::OpCost& cost = costs.cost(static_cast<int32_t>(i));
    total += cost.flops + cost.bytes_accessed + cost.arithmetic_intensity();
  }
  for (size_t c = 0; c < module->computations.size(); ++c) total += costs.computation_flops(static_cast<int32_t>(c));
  volatile uint64_t sink = Walk(*module) + (total > 0 ? 1 : 0);
  (void)sink;
  return 0;
}
