// Building the profile model of one host, and the entry points the CLI / server use.
//
// The model is computed in one pass over the columnar XSpace plus sorts; every interval
// join is O(n log n). Problems in the data (no steps, dropped events, dangling ids) become
// ProfileModel::diagnostics, never errors; errors are for unreadable input only.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "src/analysis/model/profile_model.h"
#include "src/xspace/xplane.h"
#include "stepscope/status.h"

namespace stepscope::analysis {

struct ModelOptions {
  // Sampling mode (on-demand capture that started and stopped mid-step): drop the first
  // and the last step when there are more than 5, as XProf's maybe_drop_incomplete_steps.
  bool drop_incomplete_steps = false;
  // Host name to use when the file names none (e.g. derived from "<host>.xplane.pb").
  std::string hostname;
  // Keep per-thread event trees (ProfileModel::host_threads) and the columnar source.
  // Off saves ~17 bytes per host event once the model is built.
  bool keep_event_tree = true;
  // One step only (the step selector): the model of the step whose step_number this is.
  // Its step group's events alone count in the op tables, kernels, device activity and
  // input facts, and `steps` holds that one step (with the breakdown the full model gives
  // it). kNotFound when no step has this number.
  std::optional<int64_t> step;
};

// Reads a step selection as the CLI (--step) and the HTTP API (step=) take it: empty or
// "all" for every step, else a step number. The error names the text, for the caller to
// prefix with the flag or parameter it came from.
StatusOr<std::optional<int64_t>> ParseStepSelection(std::string_view text);

// The group id of the step numbered `step` in `model`; kNotFound naming the steps there
// are ("no step 7 in this profile; its 40 steps are numbered 0 to 39").
StatusOr<int64_t> StepGroupId(const ProfileModel& model, int64_t step);

// Builds the model from columnar data (the fast path). Shares ownership of `space`.
StatusOr<ProfileModel> BuildProfileModel(std::shared_ptr<const xspace::ColumnarXSpace> space,
                                         const ModelOptions& options = {});

// Converts an in-memory XSpace (tests, small captures) and builds from that, so every
// input goes through the same code.
StatusOr<ProfileModel> BuildProfileModelFromXSpace(const xspace::XSpace& space, const ModelOptions& options = {});

// Reads `path` (.xplane.pb, optionally gzip) with the streaming reader and builds.
// When options.hostname is empty it is derived from the file name. Without
// keep_event_tree the host planes' memory events are read as records
// (ParseOptions::memory_event_records with IsHostThreadsPlaneName): the same model,
// faster, from columns that then lack those events' stats.

StatusOr<ProfileModel> BuildProfileModelFromFile(const std::string& path, const ModelOptions& options = {});

// Planes whose lines are host threads (the model's host side).
bool IsHostThreadsPlaneName(std::string_view name);

}  // namespace stepscope::analysis
