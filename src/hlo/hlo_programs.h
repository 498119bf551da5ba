// HloPrograms: every XLA module a profile carries, found from the profile alone.
//
// XLA profilers (JAX, TensorFlow with XLA, PjRt) put one entry per compiled module on the
// `/host:metadata` plane: an event metadata named "<module>(<program id>)" whose stat
// `Hlo Proto` holds the serialized xla.HloProto (reference/xspace.md). Events of that plane
// may carry the stat too; both are read. Device kernels name their module in the
// `hlo_module` stat (and its id in `program_id`) and their instruction in `hlo_op`, which
// is how profiles join kernels to HLO (Find + HloModule::FindInstruction).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "src/hlo/hlo_module.h"
#include "src/hlo/hlo_reader.h"

namespace stepscope::xspace {
struct ColumnarXSpace;
}

namespace stepscope::hlo {

// The stat that holds a module's serialized HloProto.
inline constexpr std::string_view kHloProtoStatName = "Hlo Proto";

struct HloPrograms {
  // Sorted by (name, id); one entry per (name, id) even when the profile repeats it.
  std::vector<HloModule> modules;
  // Modules that could not be read, and what was odd in those that could ("module
  // jit_f(3): 2 operand ids name no instruction (dropped)"), one line each.
  std::vector<std::string> diagnostics;

  bool empty() const { return modules.empty(); }
  // The module kernels name: by program id when it is known (>= 0) and a module has it
  // (and the same name, when `name` is not empty), else by name when exactly one module
  // has it. -1 when neither identifies one.
  int32_t Find(std::string_view name, int64_t program_id = -1) const;
};

// Reads every `Hlo Proto` stat of the /host:metadata plane. A profile without that plane
// gives an empty result (no diagnostics): most profiles are not XLA's.
HloPrograms ReadHloPrograms(const xspace::ColumnarXSpace& space, const HloReadLimits& limits = {});

// The programs of several hosts as one set (hosts of one job usually run the same
// modules): the union by (name, id), first host first. Returns one of the inputs when it
// already holds every module; null when all are null.
std::shared_ptr<const HloPrograms> MergeHloPrograms(const std::vector<std::shared_ptr<const HloPrograms>>& parts);

}  // namespace stepscope::hlo
