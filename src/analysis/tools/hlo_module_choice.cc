#include "src/analysis/tools/hlo_module_choice.h"

#include <charconv>
#include <tuple>

namespace stepscope::analysis {

std::vector<HloModuleChoice> ListHloModules(const hlo::HloPrograms& programs) {
  std::vector<HloModuleChoice> choices;
  for (const hlo::HloModule& module : programs.modules) {
    HloModuleChoice choice;
    choice.name = module.DisplayName();
    choice.module = module.name;
    choice.program_id = module.id;
    choice.instructions = static_cast<int64_t>(module.instructions.size());
    choice.has_buffer_assignment = module.buffer_assignment.has_value();
    choices.push_back(std::move(choice));
  }
  return choices;
}

std::vector<int64_t> HloModuleDeviceTime(const ProfileModel& model) {
  std::vector<int64_t> time(model.hlo ? model.hlo->modules.size() : 0, 0);
  for (const HloOpTime& op : model.hlo_ops) {
    if (op.module >= 0 && static_cast<size_t>(op.module) < time.size()) time[op.module] += op.total_time_ps;
  }
  return time;
}

bool HasHloModules(const ProfileModel& model) { return model.hlo != nullptr && !model.hlo->empty(); }

namespace {

// At most a few of the reader's lines: a profile of many broken programs has as many.
constexpr size_t kMaxReasonsShown = 3;

// The reader's reasons, joined, when no program could be read; empty otherwise.
std::string UnreadableReasons(const hlo::HloPrograms& programs) {
  if (!programs.empty() || programs.diagnostics.empty()) return {};
  std::string reason;
  for (size_t i = 0; i < programs.diagnostics.size() && i < kMaxReasonsShown; ++i) {
    reason += (i == 0 ? "" : "; ") + programs.diagnostics[i];
  }
  if (programs.diagnostics.size() > kMaxReasonsShown) {
    reason += "; ... and " + std::to_string(programs.diagnostics.size() - kMaxReasonsShown) + " more";
  }
  return reason;
}

}  // namespace

std::string HloUnreadableReason(const ProfileModel& model) {
  std::string reasons = model.hlo == nullptr ? std::string() : UnreadableReasons(*model.hlo);
  return reasons.empty() ? reasons : "its XLA programs could not be read: " + reasons;
}

StatusOr<int32_t> ChooseProfileHloModule(const ProfileModel& model, std::string_view wanted,
                                         bool prefer_buffer_assignment) {
  return ChooseHloModule(*model.hlo, wanted, prefer_buffer_assignment, HloModuleDeviceTime(model));
}

StatusOr<int32_t> ChooseHloModule(const hlo::HloPrograms& programs, std::string_view wanted,
                                  bool prefer_buffer_assignment, const std::vector<int64_t>& device_time_ps) {
  const auto count = static_cast<int32_t>(programs.modules.size());
  if (count == 0) {
    std::string reasons = UnreadableReasons(programs);
    return FailedPreconditionError(reasons.empty() ? "the profile has no XLA modules"
                                                   : "the profile's XLA programs could not be read: " + reasons);
  }
  if (wanted.empty()) {
    int32_t best = 0;
    auto rank = [&](int32_t i) {
      const hlo::HloModule& m = programs.modules[i];
      const int64_t time = static_cast<size_t>(i) < device_time_ps.size() ? device_time_ps[i] : 0;
      return std::make_tuple(prefer_buffer_assignment && m.buffer_assignment.has_value(), time, m.instructions.size());
    };
    for (int32_t i = 1; i < count; ++i) {
      if (rank(i) > rank(best)) best = i;
    }
    return best;
  }
  for (int32_t i = 0; i < count; ++i) {
    if (programs.modules[i].DisplayName() == wanted) return i;
  }
  int64_t id = 0;
  auto [end, error] = std::from_chars(wanted.data(), wanted.data() + wanted.size(), id);
  const bool is_number = error == std::errc() && end == wanted.data() + wanted.size();
  int32_t found = -1;
  int matches = 0;
  for (int32_t i = 0; i < count; ++i) {
    const hlo::HloModule& m = programs.modules[i];
    if (m.name == wanted || (is_number && m.id == id)) {
      found = i;
      ++matches;
    }
  }
  if (matches == 1) return found;
  std::string names;
  for (const hlo::HloModule& m : programs.modules) names += (names.empty() ? "" : ", ") + m.DisplayName();
  if (matches > 1) {
    return InvalidArgumentError("module '" + std::string(wanted) + "' names several modules; give name(id): " + names);
  }
  return NotFoundError("no XLA module '" + std::string(wanted) + "' in this profile; modules: " + names);
}

}  // namespace stepscope::analysis
