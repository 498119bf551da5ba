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
//
// In two parts: the table needs the host analysis alone, so it is built beside the
// device analysis and the step build (build_profile_model.cc); only the count of fetches
// outside every step waits for the steps.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "src/analysis/model/model_builder.h"
#include "src/xspace/columnar/columnar_xspace.h"

namespace stepscope::analysis::internal {

struct HostOpTable {
  OpMetricsDb ops;
  InputPipelineFacts input;  // all but get_next_outside_steps (AddHostOpTable counts it)
  std::vector<std::pair<int64_t, int64_t>> fetch_spans;  // [begin, end) of each input fetch counted
};

// Reads `host` and `space` only (safe beside the device analysis and BuildSteps unless
// host.only_group_id is set: the step's group is then looked up in tables they extend).
HostOpTable BuildHostOpTable(const xspace::ColumnarXSpace& space, const HostAnalysis& host);
// Moves the table into the model (host_ops, input_pipeline but its device copies) and,
// when steps come from step markers, counts the input fetches that overlap no step.
void AddHostOpTable(HostOpTable table, ProfileModel* model);

}  // namespace stepscope::analysis::internal
