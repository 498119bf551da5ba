// A thread that records one "train" step every 2 ms for as long as the object lives:
// something for a profiler server inside the test process to capture.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "stepscope/step.h"

namespace stepscope::testing {

class TrainingSteps {
 public:
  TrainingSteps()
      : thread_([this] {
          for (int64_t n = 0; !stop_; ++n) {
            Step step("train", n);
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
          }
        }) {}
  ~TrainingSteps() {
    stop_ = true;
    thread_.join();
  }
  TrainingSteps(const TrainingSteps&) = delete;
  TrainingSteps& operator=(const TrainingSteps&) = delete;

 private:
  std::atomic<bool> stop_{false};  // before thread_: initialised before the thread reads it
  std::thread thread_;
};

}  // namespace stepscope::testing
