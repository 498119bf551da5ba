// Phase 3 of the model: steps and their time breakdown.
//
// Steps from step markers are the program's iterations, windows that partition time:
// from a step's start to the next step's start, the last to the later of its host end and
// its device work's end; the device's completions where its cadence is the slower one
// (docs/model.md "Steps"). Files TensorFlow grouped, and nested markers, keep XProf's
// StepTime (event_span.cc): per group, the longest host marker and the longest device
// marker; the host marker unless a device marker exists that it does not include (or there
// is no host marker), then the device marker. With device activity in the profile, groups
// that never reach a device are not steps (XProf drops their host events) - unless no
// group reaches a device at all, in which case host steps are kept and a diagnostic says
// why.
//
// Breakdown (XProf ToNonOverlappedEvents): every host event of a group that is not a
// marker and is real compute, and every device kernel / copy, becomes a span of one
// EventType; with windows, every span counts in the window where it runs (and device
// events tied to no step too), else a step's group's spans are clipped to the step; a
// sweep line gives each instant to the highest-priority active type; uncovered time is
// kUnknownTime. A host event whose type is
// not above its enclosing event's (same group) adds nothing and is skipped, which keeps
// the span count near the number of top-level events.
//
// Host classification (XProf ClassifyCpuEvent, in this order): MemcpyHToD / H2D /
// InfeedEnqueue -> kHostToDevice; MemcpyHToH -> kHostToHost; with a device, events with
// correlation_id or named ExecutorState::Process* -> kHostPrepare; compile events ->
// kHostCompile (stepscope); IteratorGetNext* or `_ipl_stage_name` -> kHostWaitInput;
// else kHostCompute. EagerExecute*, EagerLocalExecute, EagerKernelExecute and FunctionRun
// are not counted.
#pragma once

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/model/model_builder.h"
#include "src/xspace/columnar/columnar_xspace.h"

namespace stepscope::analysis::internal {

void BuildSteps(const xspace::ColumnarXSpace& space, const ModelOptions& options, bool has_device,
                HostAnalysis* host, DeviceAnalysis* device, ProfileModel* model);

}  // namespace stepscope::analysis::internal
