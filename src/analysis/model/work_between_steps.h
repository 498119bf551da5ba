// What runs between steps: the host work in the gaps between consecutive steps (time that
// no step covers), by name, so that "gaps between steps" says what fills them.
//
// Steps from step markers partition time and leave no gaps (docs/model.md "Steps") but
// around a marker that is not a step (one without device work on a device profile);
// TensorFlow's grouped steps, timed by their markers, leave the loop's own work between
// them.
#pragma once

#include <vector>

#include "src/analysis/model/model_builder.h"
#include "src/analysis/model/profile_model.h"
#include "src/xspace/columnar/columnar_xspace.h"

namespace stepscope::analysis::internal {

// Fills model->work_between_steps from the host threads. An event counts for a gap when
// it overlaps the gap without enclosing it and its parent (if any) encloses it: the
// outermost work inside the gap, under the long-lived loop that spans the steps.
void FindWorkBetweenSteps(const xspace::ColumnarXSpace& space, const std::vector<HostThread>& threads,
                          ProfileModel* model);

}  // namespace stepscope::analysis::internal
