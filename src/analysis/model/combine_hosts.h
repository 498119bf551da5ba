// Combining the per-host models of a multi-host run into one (XProf's CombineOpStats role).
//
//   - Steps are aligned by step number. Each combined step lists every host that has it in
//     per_host (begin, duration, breakdown: what pod_viewer shows); the step's own times
//     and breakdown are those of the slowest host, because a synchronous step is as long
//     as its slowest worker.
//   - Op tables, kernels and input ops are merged by name (kernels by name, op and launch
//     parameters); totals and idle times add up.
//   - Devices, hosts and diagnostics (prefixed "<host>: ") are concatenated; host_index
//     fields point into the combined hostnames.
//   - Event trees are per host and are not kept (host_threads empty, source null).
// A single model is returned unchanged.
#pragma once

#include <vector>

#include "src/analysis/model/profile_model.h"

namespace stepscope::analysis {

ProfileModel CombineHostModels(std::vector<ProfileModel> hosts);

}  // namespace stepscope::analysis
