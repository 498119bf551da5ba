// Host threads that launch GPU work, and whether input-pipeline threads compete with them
// for the CPU: TensorFlow's GPU guide advises TF_GPU_THREAD_MODE=gpu_private (dedicated
// launch threads, named `tf_gpu_private_<device>`) when kernel launches are slow while
// tf.data threads are busy; XProf's overview adds the same hint to its kernel-launch
// verdict when tf.data is used (reference/xspace.md §6).
//
// From each host's threads, while its model is built:
//   launch threads       threads with launch events (events carrying a correlation_id);
//   input threads        tf.data's threads (names starting "tf_data"), which run the
//                        pipeline's map/batch/prefetch work;
//   gpu_private threads  names starting "tf_gpu_private";
//   overlap              time the launch threads are busy (union of their top-level
//                        events) while input threads are busy too, as a share of the launch
//                        threads' busy time.
// Computed while the model is built (host threads are dropped after it for the CLI and
// the server); combined models add up their hosts' figures.
#pragma once

#include <cstdint>
#include <vector>

#include "src/analysis/model/profile_model.h"
#include "src/xspace/columnar/columnar_xspace.h"

namespace stepscope::analysis {


LaunchThreadCompetition ComputeLaunchThreadCompetition(const std::vector<HostThread>& threads,
                                                        const xspace::ColumnarXSpace& space);

// Adds one host's figures to a combined model's.
void AddLaunchThreads(const LaunchThreadCompetition& host, LaunchThreadCompetition* combined);

}  // namespace stepscope::analysis
