#include "examples/mnist_mlp/flags.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string_view>

#include "src/cli/flags.h"

namespace mnist_mlp {
namespace {

using stepscope::Status;
using stepscope::StatusOr;
using stepscope::cli::BadFlagValue;
using stepscope::cli::FlagSet;

constexpr int64_t kMaxInt32 = std::numeric_limits<int32_t>::max();

// "first,last" with 0 <= first <= last.
Status ParseStepRange(const std::string& value, Flags* flags) {
  constexpr std::string_view kFlag = "profile_steps";
  const size_t comma = value.find(',');
  if (comma == std::string::npos) return BadFlagValue(kFlag, value, "FIRST,LAST (e.g. 10,15)");
  int64_t first = 0, last = 0;
  if (!stepscope::cli::ParseIntFlag(kFlag, std::string_view(value).substr(0, comma), 0, kMaxInt32, &first).ok() ||
      !stepscope::cli::ParseIntFlag(kFlag, std::string_view(value).substr(comma + 1), 0, kMaxInt32, &last).ok()) {
    return BadFlagValue(kFlag, value, "FIRST,LAST with two non-negative integers (e.g. 10,15)");
  }
  if (first > last) return BadFlagValue(kFlag, value, "FIRST <= LAST");
  flags->profile_first_step = first;
  flags->profile_last_step = last;
  return stepscope::OkStatus();
}

Status ParseLearningRate(const std::string& value, float* learning_rate) {
  char* end = nullptr;
  errno = 0;
  const double parsed = std::strtod(value.c_str(), &end);
  if (value.empty() || errno != 0 || end != value.c_str() + value.size() || !std::isfinite(parsed) || parsed <= 0 ||
      parsed > 10) {
    return BadFlagValue("learning_rate", value, "a number in (0, 10]");
  }
  *learning_rate = static_cast<float>(parsed);
  return stepscope::OkStatus();
}

Status StoreString(const std::string& text, std::string* value) {
  *value = text;  // never empty: the parser reports an empty value as missing
  return stepscope::OkStatus();
}

// Every flag, bound to `flags`. Upper bounds: generous for real use, small enough that a
// typo cannot ask for gigabytes of memory or thousands of threads.
void DefineFlags(Flags* flags, FlagSet* set) {
  set->StartSection("Training");
  set->AddInt("steps", &flags->steps, "training steps", 1, 100000000);
  set->AddInt("batch_size", &flags->batch_size, "examples per step", 1, 8192);
  set->AddInt("hidden_units", &flags->hidden_units, "hidden layer width", 1, 8192);
  set->AddCustom("learning_rate", "X", "SGD learning rate, momentum 0.9", "0.01",
                 [flags](const std::string& text) { return ParseLearningRate(text, &flags->learning_rate); });
  set->AddInt("log_every", &flags->log_every, "print the loss every N steps, 0 = never", 0, 100000000);
  set->AddInt("seed", &flags->seed, "shuffle, augmentation and initialisation seed", 0,
              std::numeric_limits<int64_t>::max());
  set->StartSection("Input pipeline");
  set->AddInt("input_threads", &flags->input_threads, "threads that read/decode/augment; 0 = on the batching thread",
              0, 256);
  set->AddInt("prefetch", &flags->prefetch, "batches prepared ahead on a background thread; 0 = none", 0, 1024);
  set->AddBool("cache", &flags->cache, "keep decoded examples in memory (hits from the second epoch on)",
               stepscope::cli::BoolForms::kWithNegation);
  set->AddCustom("augment", "KIND", "none | shift | elastic (elastic adds uncacheable work per example)", "shift",
                 [flags](const std::string& text) {
                   return ParseAugmentation(text, &flags->augmentation)
                              ? stepscope::OkStatus()
                              : BadFlagValue("augment", text, "none, shift or elastic");
                 });
  set->AddInt("input_cost", &flags->input_cost, "do the per-example decode/augment work N times", 1, 1000);
  set->AddInt("read_delay_us", &flags->read_delay_us, "extra latency per record read, simulating slow storage", 0,
              1000000);
  set->AddInt("slow_decode_us", &flags->slow_decode_us,
              "extra latency per decode (a deliberately slow Map stage, for bottleneck tests)", 0, 1000000);
  set->StartSection("Dataset");
  set->AddCustom("data_dir", "DIR", "where the dataset is generated once", "<binary dir>/../mnist_data",
                 [flags](const std::string& text) { return StoreString(text, &flags->data_dir); });
  set->AddInt("train_examples", &flags->train_examples, "examples in the generated training set", 1, 10000000);
  set->AddInt("shards", &flags->shards, "shard files", 1, 1000);
  set->StartSection("Profiling");
  set->AddCustom("logdir", "DIR", "profile into DIR/plugins/profile/<run>/<host>.xplane.pb", "",
                 [flags](const std::string& text) { return StoreString(text, &flags->logdir); });
  set->AddCustom("profile_steps", "A,B", "record only steps A..B (0-based, inclusive); default: every step", "",
                 [flags](const std::string& text) { return ParseStepRange(text, flags); });
  set->AddInt("host_tracer_level", &flags->host_tracer_level, "0 off, 1 user annotations, 2 +info, 3 +verbose", 0,
              3);
  set->AddCustom("profiler_port", "P",
                 "serve on-demand capture (gRPC, tensorflow.ProfilerService) on port P; default: no server", "",
                 [flags](const std::string& text) {
                   int64_t port = 0;
                   Status status = stepscope::cli::ParseIntFlag("profiler_port", text, 1, 65535, &port);
                   if (status.ok()) flags->profiler_port = static_cast<int>(port);
                   return status;
                 });
  set->AddCustom("profiler_bind", "ADDR",
                 "the profiler server's address: 127.0.0.1 this machine only, 0.0.0.0 or :: every interface",
                 "127.0.0.1", [flags](const std::string& text) { return StoreString(text, &flags->profiler_bind); });
  set->AddCustom("profiler_repository", "DIR",
                 "let TensorFlow-style captures (TensorBoard's) write profiles, below DIR only; default: nowhere", "",
                 [flags](const std::string& text) { return StoreString(text, &flags->profiler_repository); });
}

// Rules between flags, checked once all are parsed.
Status CheckCombination(const Flags& flags) {
  if (flags.shards > flags.train_examples) {
    return stepscope::InvalidArgumentError("--shards (" + std::to_string(flags.shards) +
                                           ") must not exceed --train_examples (" +
                                           std::to_string(flags.train_examples) + ")");
  }
  if (flags.profile_last_step >= flags.steps) {
    return stepscope::InvalidArgumentError("--profile_steps " + std::to_string(flags.profile_first_step) + "," +
                                           std::to_string(flags.profile_last_step) +
                                           " ends after the last step (--steps " + std::to_string(flags.steps) +
                                           " runs steps 0.." + std::to_string(flags.steps - 1) + ")");
  }
  if (flags.profile_first_step >= 0 && flags.logdir.empty()) {
    return stepscope::InvalidArgumentError("--profile_steps needs --logdir (where to write the profile)");
  }
  return stepscope::OkStatus();
}

}  // namespace

StatusOr<Flags> ParseFlags(const std::vector<std::string>& args) {
  Flags flags;
  FlagSet set;
  DefineFlags(&flags, &set);
  std::vector<std::string> positional;
  Status parsed = set.Parse(args, &positional);
  if (!parsed.ok()) return parsed;
  if (set.help_requested()) {
    flags.help = true;
    return flags;
  }
  if (!positional.empty()) {
    return stepscope::InvalidArgumentError("unexpected argument '" + positional[0] + "' (flags start with --)");
  }
  Status combined = CheckCombination(flags);
  if (!combined.ok()) return combined;
  return flags;
}

std::string FlagsUsage() {
  Flags defaults;
  FlagSet set;
  DefineFlags(&defaults, &set);
  return "mnist_mlp: trains a 784-H-10 MLP on a generated MNIST-format dataset, instrumented\n"
         "with stepscope. Prints its own mean step time and input time for comparison with the\n"
         "profiler's analysis.\n"
         "\n" +
         set.Usage() +
         "\n"
         "Slow (input bound):  mnist_mlp --input_threads 0 --prefetch 0\n"
         "Fast:                mnist_mlp --input_threads 4 --prefetch 4 --cache\n";
}

}  // namespace mnist_mlp
