// Step markers: tell the profiler where each training step begins and ends.
//
//   for (int64_t step = 0; step < num_steps; ++step) {
//     stepscope::Step step_marker("train", step);
//     auto batch = NextBatch();        // fetch the batch INSIDE the step (see below)
//     TrainOn(batch);
//   }
//
// Records exactly what TensorFlow records for
// `with tf.profiler.experimental.Trace('train', step_num=step, _r=1):` — an event named
// "train" on this thread's line of `/host:CPU` with int64 stats step_num=<step> and _r=1
// (the root marker that TensorBoard's and stepscope's step grouping look for). Steps are
// recorded at level 1, so any active session records them.
//
// Fetch the input batch inside the step's scope: time spent waiting for input before
// the marker is invisible to the step-time breakdown (the anti-pattern TensorFlow's
// guide warns about).
//
// Steps also drive ProfileStepRange (session.h): the trigger starts profiling when the
// first step of the range begins and stops it when the last one ends.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace stepscope {

class Step {
 public:
  // `name` must have static storage duration ("train", "test", ...).
  Step(const char* name, int64_t step_num);
  // Copies the name when profiling is on (for names built at run time, e.g. bindings).
  Step(std::string_view name, int64_t step_num);
  ~Step();

  Step(const Step&) = delete;
  Step& operator=(const Step&) = delete;

  int64_t step_num() const { return step_num_; }

 private:
  void Begin();

  const char* static_name_ = nullptr;
  std::string dynamic_name_;
  int64_t step_num_;
  uint64_t start_ticks_ = 0;
  bool recording_ = false;
};

}  // namespace stepscope
