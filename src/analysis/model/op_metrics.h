// Phase 4 of the model: the host op table and the input-pipeline facts.
//
// Host ops: every event of every host thread except step markers and memory instants,
// aggregated by op name (the name part of "name:Type"). Self time is the event tree's
// (duration minus immediate children on the same thread). Idle: per thread, the time
// between its first and last event not covered by any event.
//
// Input ops (XProf op_stats_to_input_pipeline_analysis, widened to PyTorch and JAX):
// host ops that HostInputOpCategory (op_name.h) classes as demanded / advanced file read,
// preprocessing, enqueue, DataLoader iteration or pinned-memory copy. IteratorGetNext*
// events that overlap no step are counted: the iterator was fetched outside the step
// scope.
#pragma once

#include "src/analysis/model/model_builder.h"
#include "src/xspace/columnar/columnar_xspace.h"

namespace stepscope::analysis::internal {

void BuildHostOpMetrics(const xspace::ColumnarXSpace& space, const HostAnalysis& host, ProfileModel* model);

}  // namespace stepscope::analysis::internal
