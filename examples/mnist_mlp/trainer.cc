#include "examples/mnist_mlp/trainer.h"

#include <chrono>

#include "examples/mnist_mlp/arena_recording.h"

#include "stepscope/annotation.h"
#include "stepscope/input_pipeline.h"
#include "stepscope/step.h"

namespace mnist_mlp {
namespace {

using Clock = std::chrono::steady_clock;

double MillisecondsBetween(Clock::time_point begin, Clock::time_point end) {
  return std::chrono::duration<double, std::milli>(end - begin).count();
}

}  // namespace

stepscope::StatusOr<std::vector<StepRecord>> RunTraining(InputPipeline* pipeline, Mlp* model, int64_t num_steps,
                                                         const StepCallback& after_step) {
  std::vector<StepRecord> records;
  records.reserve(static_cast<size_t>(num_steps));
  // The model's activation arena reports to the profiler while this loop runs.
  ArenaRecorder recorder;
  model->arena().set_observer(&recorder);
  struct Detach {
    Mlp* model;
    ~Detach() { model->arena().set_observer(nullptr); }
  } detach{model};
  Batch batch;
  for (int64_t step = 0; step < num_steps; ++step) {
    StepRecord record;
    record.step = step;
    {
      stepscope::Step step_marker("train", step);
      const Clock::time_point step_start = Clock::now();
      stepscope::Status status;
      {
        stepscope::ScopedGetNext get_next;
        status = pipeline->GetNext(&batch);
      }
      const Clock::time_point input_end = Clock::now();
      if (!status.ok()) return status;
      ForwardResult result;
      {
        STEPSCOPE_ANNOTATE("forward");
        result = model->Forward(batch.images.data(), batch.labels.data(), batch.size());
      }
      {
        STEPSCOPE_ANNOTATE("backward");
        model->Backward();
      }
      {
        STEPSCOPE_ANNOTATE("optimizer");
        model->ApplyGradients();
      }
      const Clock::time_point step_end = Clock::now();
      record.step_ms = MillisecondsBetween(step_start, step_end);
      record.input_ms = MillisecondsBetween(step_start, input_end);
      record.loss = result.mean_loss;
      record.correct = result.correct;
      record.batch_size = batch.size();
    }
    records.push_back(record);
    if (after_step) after_step(record);
  }
  return records;
}

TimingSummary SummarizeSteps(const std::vector<StepRecord>& records, int64_t first_step, int64_t last_step) {
  TimingSummary summary;
  double total_step_ms = 0, total_input_ms = 0;
  for (const StepRecord& record : records) {
    if (record.step < first_step || record.step > last_step) continue;
    ++summary.steps;
    total_step_ms += record.step_ms;
    total_input_ms += record.input_ms;
  }
  if (summary.steps > 0) {
    summary.mean_step_ms = total_step_ms / static_cast<double>(summary.steps);
    summary.mean_input_ms = total_input_ms / static_cast<double>(summary.steps);
  }
  if (total_step_ms > 0) summary.input_percent = 100.0 * total_input_ms / total_step_ms;
  return summary;
}

}  // namespace mnist_mlp
