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

#include <cstddef>
#include <memory>
#include <vector>

#include "src/analysis/model/profile_model.h"

namespace stepscope::analysis {

// The same, a host at a time: each host's model is folded in as it comes and freed, so a
// pod's thousands of hosts are never all in memory at once (only their combination).
class HostCombiner {
 public:
  HostCombiner();
  ~HostCombiner();
  HostCombiner(const HostCombiner&) = delete;
  HostCombiner& operator=(const HostCombiner&) = delete;

  void Add(ProfileModel host);  // in host order
  // The combination (a single model unchanged; an empty model for none). Ends the combiner.
  ProfileModel Finish() &&;

 private:
  struct State;
  void Fold(ProfileModel host);

  std::unique_ptr<State> state_;
  ProfileModel first_;  // held until a second host comes
  size_t added_ = 0;
};

ProfileModel CombineHostModels(std::vector<ProfileModel> hosts);

}  // namespace stepscope::analysis
