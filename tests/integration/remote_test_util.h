// Shared by the remote-capture integration tests: starting instrumented workers and
// reading the step markers of captured host files.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "src/xspace/schema.h"
#include "src/xspace/xplane_visitor.h"
#include "src/xspace/xspace_io.h"
#include "tests/integration/remote_worker.h"

namespace stepscope::testing {

struct Worker {
  int port = 0;
  std::unique_ptr<BackgroundProcess> process;
  std::string address() const { return "127.0.0.1:" + std::to_string(port); }
};

// What mnist_mlp writes to stderr once its profiler server listens on the default address.
inline std::string ListeningLine(int port) {
  return "mnist_mlp: profiler server listening on 127.0.0.1:" + std::to_string(port) +
         " (capture with: stepscope capture grpc://127.0.0.1:" + std::to_string(port) + " --logdir DIR)\n";
}

// Starts an mnist_mlp with a profiler server on a free port and waits until it trains.
// A port taken between picking and binding is retried with another.
inline Worker StartWorker(const std::string& data_dir, int steps) {
  for (int attempt = 0; attempt < 5; ++attempt) {
    Worker worker;
    worker.port = PickFreePort();
    std::vector<std::string> args = LightTrainingArgs(data_dir, steps);
    args.push_back("--profiler_port");
    args.push_back(std::to_string(worker.port));
    worker.process = std::make_unique<BackgroundProcess>(args);
    if (worker.process->WaitForError(ListeningLine(worker.port), std::chrono::seconds(60)) &&
        worker.process->WaitForOutput("training", std::chrono::seconds(60))) {
      return worker;
    }
  }
  return Worker{};
}

// step_num of every "train" step marker of the host plane, ordered by start time.
inline std::vector<int64_t> StepNumbersInFile(const std::string& path) {
  std::vector<std::pair<int64_t, int64_t>> steps;  // (timestamp_ps, step_num)
  auto space = xspace::ReadXSpaceFile(path);
  if (!space.ok()) return {};
  for (const auto& plane : space->planes()) {
    if (plane.name() != xspace::kHostThreadsPlaneName) continue;
    xspace::XPlaneVisitor visitor(&plane);
    visitor.ForEachLine([&](const xspace::XLineVisitor& line) {
      line.ForEachEvent([&](const xspace::XEventVisitor& event) {
        if (event.name() != "train") return;
        auto step = event.GetStat(xspace::StatType::kStepNum);
        if (step.has_value()) steps.emplace_back(event.timestamp_ps(), step->IntValue());
      });
    });
  }
  std::sort(steps.begin(), steps.end());
  std::vector<int64_t> numbers;
  for (const auto& step : steps) numbers.push_back(step.second);
  return numbers;
}

// True when `steps` is n, n+1, n+2, ...
inline bool Consecutive(const std::vector<int64_t>& steps) {
  for (size_t i = 1; i < steps.size(); ++i) {
    if (steps[i] != steps[i - 1] + 1) return false;
  }
  return true;
}

}  // namespace stepscope::testing
