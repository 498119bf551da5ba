// mnist_mlp: a small but real training program for stepscope's demo, tests and analyses.
//
// Generates an MNIST-format dataset once (see dataset.h), streams it through an
// instrumented input pipeline (pipeline.h), trains an MLP (model.h) and reports its own
// mean step time and input time. With --logdir it profiles itself with stepscope.
//
//   mnist_mlp --steps 40 --logdir /tmp/logdir                 input bound (the default)
//   mnist_mlp --steps 40 --input_threads 4 --prefetch 4 --cache   not input bound
//
// Output ends with one machine-readable line that tests compare analyses against:
//   mnist_mlp: steps=40 first_step=0 last_step=39 mean_step_ms=... mean_input_ms=... input_percent=...
// (over the profiled steps when --profile_steps is given, otherwise over every step).
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "examples/mnist_mlp/dataset.h"
#include "examples/mnist_mlp/flags.h"
#include "examples/mnist_mlp/model.h"
#include "examples/mnist_mlp/pipeline.h"
#include "examples/mnist_mlp/trainer.h"
#include "stepscope/profiler_server.h"
#include "stepscope/stepscope.h"

namespace mnist_mlp {
namespace {

// Exit codes: 2 for bad flags (like the stepscope CLI), 1 for failures while running.
constexpr int kExitBadFlags = 2;
constexpr int kExitFailure = 1;

std::string DefaultDataDir() {
  std::error_code error;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error || exe.parent_path().empty()) return "mnist_data";
  // build/bin/mnist_mlp -> build/mnist_data, which is what `./dev demo` passes too.
  return (exe.parent_path().parent_path() / "mnist_data").string();
}

int Fail(const stepscope::Status& status) {
  std::fprintf(stderr, "mnist_mlp: %s\n", status.ToString().c_str());
  return kExitFailure;
}

// On-demand capture (docs/remote.md): a gRPC profiler server that `stepscope capture`,
// TensorBoard's "Capture Profile" or tf.profiler.experimental.client.trace can record
// this process through at any time, on --profiler_bind (127.0.0.1 unless asked); clients
// that ask the server to write the file may do so below --profiler_repository only. A port
// that cannot be bound is reported and training goes on without the server, as
// TensorFlow's server.start does. The address it listens on goes to stderr.
std::unique_ptr<stepscope::ProfilerServer> MaybeStartProfilerServer(const Flags& flags) {
  const int port = flags.profiler_port;
  if (port == 0) return nullptr;
  stepscope::ProfilerServerOptions options;
  options.port = port;
  options.bind_address = flags.profiler_bind;
  options.repository_root = flags.profiler_repository;
  stepscope::StatusOr<std::unique_ptr<stepscope::ProfilerServer>> server = stepscope::StartProfilerServer(options);
  if (!server.ok()) {
    std::fprintf(stderr, "mnist_mlp: --profiler_port %d: %s; training continues without it\n", port,
                 server.status().ToString().c_str());
    return nullptr;
  }
  std::fprintf(stderr,
               "mnist_mlp: profiler server listening on %s (capture with: stepscope capture grpc://%s --logdir DIR)\n",
               (*server)->listen_address().c_str(), (*server)->address().c_str());
  return std::move(server).value();
}

int Run(const Flags& flags) {
  stepscope::SetCurrentThreadName("train_loop");
  DatasetSpec spec;
  spec.num_examples = static_cast<uint32_t>(flags.train_examples);
  spec.num_shards = static_cast<uint32_t>(flags.shards);
  const std::string data_dir = flags.data_dir.empty() ? DefaultDataDir() : flags.data_dir;
  const auto generate_start = std::chrono::steady_clock::now();
  bool generated = false;
  if (stepscope::Status status = EnsureDataset(data_dir, spec, &generated); !status.ok()) return Fail(status);
  if (generated) {
    std::printf("mnist_mlp: generated %u examples in %u shards under %s (%.1f s)\n", spec.num_examples,
                spec.num_shards, data_dir.c_str(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - generate_start).count());
  }
  stepscope::StatusOr<std::unique_ptr<Dataset>> dataset = Dataset::Open(data_dir, spec);
  if (!dataset.ok()) return Fail(dataset.status());

  PipelineOptions pipeline_options;
  pipeline_options.batch_size = flags.batch_size;
  pipeline_options.input_threads = flags.input_threads;
  pipeline_options.prefetch = flags.prefetch;
  pipeline_options.cache = flags.cache;
  pipeline_options.augmentation = flags.augmentation;
  pipeline_options.input_cost = flags.input_cost;
  pipeline_options.read_delay_us = flags.read_delay_us;
  pipeline_options.slow_decode_us = flags.slow_decode_us;
  pipeline_options.seed = flags.seed;
  stepscope::StatusOr<std::unique_ptr<InputPipeline>> pipeline =
      InputPipeline::Create(dataset->get(), pipeline_options);
  if (!pipeline.ok()) return Fail(pipeline.status());

  MlpConfig model_config;
  model_config.hidden_units = flags.hidden_units;
  model_config.learning_rate = flags.learning_rate;
  model_config.seed = flags.seed;
  Mlp model(model_config);

  const std::unique_ptr<stepscope::ProfilerServer> profiler_server =
      MaybeStartProfilerServer(flags);
  const bool profile_window = flags.profile_first_step >= 0;
  if (!flags.logdir.empty()) {
    stepscope::ProfileOptions options;
    options.host_tracer_level = flags.host_tracer_level;
    const stepscope::Status status =
        profile_window ? stepscope::ProfileStepRange(flags.logdir, flags.profile_first_step, flags.profile_last_step,
                                                     options)
                       : stepscope::StartProfiling(flags.logdir, options);
    if (!status.ok()) return Fail(status);
  }

  std::printf("mnist_mlp: training %d steps, batch %d, hidden %d; input_threads=%d prefetch=%d cache=%s augment=%s "
              "input_cost=%d read_delay_us=%d\n",
              flags.steps, flags.batch_size, flags.hidden_units, flags.input_threads, flags.prefetch,
              flags.cache ? "on" : "off", std::string(AugmentationName(flags.augmentation)).c_str(),
              flags.input_cost, flags.read_delay_us);
  double window_loss = 0;
  int window_correct = 0, window_examples = 0, window_steps = 0;
  auto report = [&](const StepRecord& record) {
    window_loss += record.loss;
    window_correct += record.correct;
    window_examples += record.batch_size;
    ++window_steps;
    if (flags.log_every > 0 && ((record.step + 1) % flags.log_every == 0 || record.step + 1 == flags.steps)) {
      std::printf("step %5lld  loss %.4f  accuracy %.3f  (mean of the last %d steps)\n",
                  static_cast<long long>(record.step), window_loss / window_steps,
                  static_cast<double>(window_correct) / window_examples, window_steps);
      std::fflush(stdout);
      window_loss = 0;
      window_correct = window_examples = window_steps = 0;
    }
  };
  const auto train_start = std::chrono::steady_clock::now();
  stepscope::StatusOr<std::vector<StepRecord>> records = RunTraining(pipeline->get(), &model, flags.steps, report);
  const double train_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - train_start).count();
  if (!records.ok()) return Fail(records.status());
  const PipelineCounters counters = (*pipeline)->counters();
  pipeline->reset();  // stop the input threads before reporting

  if (!flags.logdir.empty()) {
    if (stepscope::IsProfiling()) {
      if (stepscope::Status status = stepscope::StopProfiling(); !status.ok()) return Fail(status);
    }
    std::vector<std::string> paths;
    if (stepscope::Status status = stepscope::FlushProfiles(&paths); !status.ok()) return Fail(status);
    for (const std::string& path : paths) std::printf("mnist_mlp: profile written to %s\n", path.c_str());
    if (paths.empty()) std::fprintf(stderr, "mnist_mlp: warning: profiling was requested but no profile was written\n");
  }

  const TimingSummary all = SummarizeSteps(*records, 0, std::numeric_limits<int64_t>::max());
  std::printf("mnist_mlp: %d steps in %.2f s; loss %.4f (step 0) -> %.4f (step %d); records read %llu, cache hits %llu\n",
              flags.steps, train_seconds, records->front().loss, records->back().loss, flags.steps - 1,
              static_cast<unsigned long long>(counters.records_read),
              static_cast<unsigned long long>(counters.cache_hits));
  std::printf("mnist_mlp: every step: mean step %.3f ms, mean input %.3f ms (%.1f %% of step time)\n",
              all.mean_step_ms, all.mean_input_ms, all.input_percent);
  const int64_t first = profile_window ? flags.profile_first_step : 0;
  const int64_t last = profile_window ? flags.profile_last_step : flags.steps - 1;
  const TimingSummary window = SummarizeSteps(*records, first, last);
  std::printf("mnist_mlp: steps=%lld first_step=%lld last_step=%lld mean_step_ms=%.3f mean_input_ms=%.3f "
              "input_percent=%.1f\n",
              static_cast<long long>(window.steps), static_cast<long long>(first), static_cast<long long>(last),
              window.mean_step_ms, window.mean_input_ms, window.input_percent);
  return 0;
}

}  // namespace
}  // namespace mnist_mlp

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  stepscope::StatusOr<mnist_mlp::Flags> flags = mnist_mlp::ParseFlags(args);
  if (!flags.ok()) {
    std::fprintf(stderr, "mnist_mlp: %s (see mnist_mlp --help)\n", flags.status().message().c_str());
    return mnist_mlp::kExitBadFlags;
  }
  if (flags->help) {
    std::fputs(mnist_mlp::FlagsUsage().c_str(), stdout);
    return 0;
  }
  return mnist_mlp::Run(*flags);
}
