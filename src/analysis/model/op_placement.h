// Where framework op time runs: on the host only, or on the device. Derived once per model
// (derivations.h: OpPlacementOf) and read by framework_op_stats, the overview page and the
// advisor.
#pragma once

#include "src/analysis/model/profile_model.h"

namespace stepscope::analysis {

// Where framework op time runs. Host time counts framework ops (TensorFlow, JAX and
// PyTorch names) that launched no device work: a GPU op's host event only launches
// kernels, so it is device time, not a host placement. Without a device every op is a
// host op. Not the same quantity as the host op table's total self time, which counts
// every host event (runtime calls, Python frames, annotations): pages label the two apart.
struct OpPlacement {
  double host_time_ms = 0;
  double device_time_ms = 0;
  double host_percent = 0;
  double device_percent = 0;
};
// Tools read the cached one: OpPlacementOf(model).
OpPlacement ComputeOpPlacement(const ProfileModel& model);

}  // namespace stepscope::analysis
