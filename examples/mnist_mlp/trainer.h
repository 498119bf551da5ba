// The instrumented training loop and the program's own timing of it.
//
// Each step is recorded the way a TensorFlow training loop is:
//
//   Step "train" (step_num = n)             stepscope::Step, the step marker
//     IteratorGetNext                       stepscope::ScopedGetNext: waiting for input
//       Iterator::...                       the pipeline's own iterator events
//     forward / backward / optimizer        STEPSCOPE_ANNOTATE
//
// and timed by the program itself with a steady clock at the same boundaries, so an
// analysis of the profile can be checked against StepRecord's numbers.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "examples/mnist_mlp/model.h"
#include "examples/mnist_mlp/pipeline.h"
#include "stepscope/status.h"

namespace mnist_mlp {

struct StepRecord {
  int64_t step = 0;
  double step_ms = 0;   // from the start of the step marker to its end
  double input_ms = 0;  // time inside GetNext (the training loop waiting for a batch)
  float loss = 0;       // mean cross-entropy of the step's batch, before the update
  int correct = 0;      // correctly classified examples of the batch, before the update
  int batch_size = 0;
};

// Called after each step, outside the step marker (so printing never counts as step time).
using StepCallback = std::function<void(const StepRecord&)>;

// Runs steps [0, num_steps). Returns the first pipeline error, if any.
stepscope::StatusOr<std::vector<StepRecord>> RunTraining(InputPipeline* pipeline, Mlp* model, int64_t num_steps,
                                                         const StepCallback& after_step = nullptr);

struct TimingSummary {
  int64_t steps = 0;
  double mean_step_ms = 0;
  double mean_input_ms = 0;
  double input_percent = 0;  // 100 * total input time / total step time
};

// Mean step and input time over the records with first_step <= step <= last_step.
TimingSummary SummarizeSteps(const std::vector<StepRecord>& records, int64_t first_step, int64_t last_step);

}  // namespace mnist_mlp
