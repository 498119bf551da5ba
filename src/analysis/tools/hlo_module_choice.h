// Which XLA module a per-module tool (memory_viewer, graph_viewer) shows: the `module`
// option names it, else a default; plus the list of modules the page offers to choose from.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/model/profile_model.h"
#include "src/analysis/output/schema.h"
#include "src/hlo/hlo_module.h"
#include "src/hlo/hlo_programs.h"
#include "stepscope/status.h"

namespace stepscope::analysis {

// One entry of a tool's module selector.
struct HloModuleChoice {
  std::string name;     // "jit_train_step(5)", as the `module` option accepts it
  std::string module;   // "jit_train_step"
  int64_t program_id = 0;
  int64_t instructions = 0;
  bool has_buffer_assignment = false;
};

// One declaration for both tools' `modules` (memory_viewer's is also a table).
constexpr auto DescribeRecord(std::type_identity<HloModuleChoice>) {
  using R = HloModuleChoice;
  return output::Record(
      "HloModuleChoice",
      output::Field("name", &R::name,
                    {.label = "Module",
                     .description = "`name(program id)`, as the `module` option takes it",
                     .max_width = 50}),
      output::Field("module", &R::module, {.label = "Name", .description = "the module's name"}),
      output::Field("program_id", &R::program_id, {.label = "Program id"}),
      output::Field("instructions", &R::instructions, {.label = "Instructions", .unit = "count"}),
      output::Field("has_buffer_assignment", &R::has_buffer_assignment, {.label = "Buffer assignment"}));
}

std::vector<HloModuleChoice> ListHloModules(const hlo::HloPrograms& programs);

// The module `wanted` names: its display name "name(id)", its name (when one module has it)
// or its program id. Empty `wanted`: the module whose kernels took the most device time
// (`device_time_ps`, by module index; the step function, usually), then, with none timed,
// the one with the most instructions; with `prefer_buffer_assignment`, modules without
// buffer assignment only when no module has one. An unknown name is kNotFound naming the
// modules there are.
StatusOr<int32_t> ChooseHloModule(const hlo::HloPrograms& programs, std::string_view wanted,
                                  bool prefer_buffer_assignment, const std::vector<int64_t>& device_time_ps = {});

// Device time of each module's kernels (ProfileModel::hlo_ops summed), by module index.
std::vector<int64_t> HloModuleDeviceTime(const ProfileModel& model);

// ChooseHloModule over the profile's modules, by their kernels' device time: what every
// per-module tool (memory_viewer, graph_viewer) runs on. Needs HasHloModules(model).
StatusOr<int32_t> ChooseProfileHloModule(const ProfileModel& model, std::string_view wanted,
                                         bool prefer_buffer_assignment);

// Whether the profile has XLA modules: a per-module tool's Tool::IsAvailable().
bool HasHloModules(const ProfileModel& model);
// "its XLA programs could not be read: <the reader's reasons>" when the profile carried
// programs and none could be read; empty otherwise (Tool::WhyUnavailable).
std::string HloUnreadableReason(const ProfileModel& model);

// What a per-module tool needs, for Tool::requirement().
inline constexpr std::string_view kHloRequirement = "XLA programs (the `Hlo Proto` stats of a /host:metadata plane)";

// The message of a per-module tool's result on a profile without XLA modules.
inline constexpr std::string_view kNoHloModulesMessage =
    "The profile has no XLA modules (no `Hlo Proto` stats on /host:metadata).";

}  // namespace stepscope::analysis
