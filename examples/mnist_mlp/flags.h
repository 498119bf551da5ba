// Command-line flags of mnist_mlp, parsed by stepscope's flag parser (src/cli/flags.h, over
// CLI11), so they take the forms and give the errors of the stepscope command.
//
// Accepted forms: --name=value, --name value, and for booleans --name, --name=true|false
// and --noname. Unknown flags and malformed or out-of-range values are errors whose
// message names the flag, the value and what was expected (main exits with code 2).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "examples/mnist_mlp/preprocess.h"
#include "stepscope/status.h"

namespace mnist_mlp {

struct Flags {
  // Training.
  int steps = 100;
  int batch_size = 64;
  // 320: the step's compute then costs ~1.5x the CPU of the default input pipeline
  // (~4.6 vs ~3.1 ms per batch of 64, thread CPU time on the 2-core VM), so the
  // synchronous pipeline is badly input bound (~40 %) while one spare core running it
  // ahead hides it.
  int hidden_units = 320;
  float learning_rate = 0.01f;
  int log_every = 10;  // print the loss every N steps (0: never)
  uint64_t seed = 1;
  // Input pipeline.
  int input_threads = 0;
  int prefetch = 0;
  bool cache = false;
  Augmentation augmentation = Augmentation::kShift;
  int input_cost = 1;
  int read_delay_us = 0;
  int slow_decode_us = 0;
  // Dataset.
  std::string data_dir;  // empty: <directory of the binary>/../mnist_data
  int train_examples = 60000;
  int shards = 6;
  // Profiling.
  std::string logdir;           // non-empty: profile into this TensorBoard logdir
  int64_t profile_first_step = -1;  // --profile_steps=first,last; -1: every step
  int64_t profile_last_step = -1;
  int host_tracer_level = 2;
  int profiler_port = 0;  // > 0: serve on-demand capture on this port (docs/remote.md)
  std::string profiler_bind = "127.0.0.1";  // the profiler server's address; 0.0.0.0: every interface
  std::string profiler_repository;  // where TensorFlow-style captures may write; empty: nowhere

  bool help = false;
};

// Parses argv[1..]. --help sets flags.help and stops parsing.
stepscope::StatusOr<Flags> ParseFlags(const std::vector<std::string>& args);

// The --help text.
std::string FlagsUsage();

}  // namespace mnist_mlp
