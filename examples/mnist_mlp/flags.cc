#include "examples/mnist_mlp/flags.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <string_view>

namespace mnist_mlp {
namespace {

using stepscope::Status;
using stepscope::StatusOr;

Status BadValue(std::string_view flag, std::string_view value, std::string_view expected) {
  return stepscope::InvalidArgumentError("--" + std::string(flag) + ": expected " + std::string(expected) +
                                         ", got '" + std::string(value) + "'");
}

// Whole-string integer parse in [lo, hi].
Status ParseInt(std::string_view flag, const std::string& value, int64_t lo, int64_t hi, int64_t* out) {
  const std::string expected = "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  if (value.empty()) return BadValue(flag, value, expected);
  errno = 0;
  char* end = nullptr;
  const long long parsed = std::strtoll(value.c_str(), &end, 10);
  if (errno != 0 || end != value.c_str() + value.size() || parsed < lo || parsed > hi) {
    return BadValue(flag, value, expected);
  }
  *out = parsed;
  return stepscope::OkStatus();
}

template <typename T>
std::function<Status(const std::string&)> IntSetter(std::string_view flag, T* field, int64_t lo, int64_t hi) {
  return [flag, field, lo, hi](const std::string& value) {
    int64_t parsed = 0;
    if (Status status = ParseInt(flag, value, lo, hi, &parsed); !status.ok()) return status;
    *field = static_cast<T>(parsed);
    return stepscope::OkStatus();
  };
}

Status ParseBool(std::string_view flag, const std::string& value, bool* out) {
  if (value == "true" || value == "1") {
    *out = true;
  } else if (value == "false" || value == "0") {
    *out = false;
  } else {
    return BadValue(flag, value, "true, false, 1 or 0");
  }
  return stepscope::OkStatus();
}

// "first,last" with 0 <= first <= last.
Status ParseStepRange(const std::string& value, Flags* flags) {
  constexpr std::string_view kFlag = "profile_steps";
  const size_t comma = value.find(',');
  if (comma == std::string::npos) return BadValue(kFlag, value, "FIRST,LAST (e.g. 10,15)");
  int64_t first = 0, last = 0;
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  if (!ParseInt(kFlag, value.substr(0, comma), 0, kMax, &first).ok() ||
      !ParseInt(kFlag, value.substr(comma + 1), 0, kMax, &last).ok()) {
    return BadValue(kFlag, value, "FIRST,LAST with two non-negative integers (e.g. 10,15)");
  }
  if (first > last) return BadValue(kFlag, value, "FIRST <= LAST");
  flags->profile_first_step = first;
  flags->profile_last_step = last;
  return stepscope::OkStatus();
}

}  // namespace

StatusOr<Flags> ParseFlags(const std::vector<std::string>& args) {
  Flags flags;
  // Upper bounds: generous for real use, small enough that a typo cannot ask for
  // gigabytes of memory or thousands of threads.
  std::map<std::string, std::function<Status(const std::string&)>, std::less<>> value_flags = {
      {"steps", IntSetter("steps", &flags.steps, 1, 100000000)},
      {"batch_size", IntSetter("batch_size", &flags.batch_size, 1, 8192)},
      {"hidden_units", IntSetter("hidden_units", &flags.hidden_units, 1, 8192)},
      {"log_every", IntSetter("log_every", &flags.log_every, 0, 100000000)},
      {"seed", IntSetter("seed", &flags.seed, 0, std::numeric_limits<int64_t>::max())},
      {"input_threads", IntSetter("input_threads", &flags.input_threads, 0, 256)},
      {"prefetch", IntSetter("prefetch", &flags.prefetch, 0, 1024)},
      {"input_cost", IntSetter("input_cost", &flags.input_cost, 1, 1000)},
      {"read_delay_us", IntSetter("read_delay_us", &flags.read_delay_us, 0, 1000000)},
      {"train_examples", IntSetter("train_examples", &flags.train_examples, 1, 10000000)},
      {"shards", IntSetter("shards", &flags.shards, 1, 1000)},
      {"host_tracer_level", IntSetter("host_tracer_level", &flags.host_tracer_level, 0, 3)},
      {"profiler_port", IntSetter("profiler_port", &flags.profiler_port, 1, 65535)},
      {"learning_rate",
       [&](const std::string& value) {
         char* end = nullptr;
         errno = 0;
         const double parsed = std::strtod(value.c_str(), &end);
         if (value.empty() || errno != 0 || end != value.c_str() + value.size() || !std::isfinite(parsed) ||
             parsed <= 0 || parsed > 10) {
           return BadValue("learning_rate", value, "a number in (0, 10]");
         }
         flags.learning_rate = static_cast<float>(parsed);
         return stepscope::OkStatus();
       }},
      {"augment",
       [&](const std::string& value) {
         return ParseAugmentation(value, &flags.augmentation) ? stepscope::OkStatus()
                                                              : BadValue("augment", value, "none, shift or elastic");
       }},
      {"data_dir",
       [&](const std::string& value) {
         if (value.empty()) return BadValue("data_dir", value, "a directory");
         flags.data_dir = value;
         return stepscope::OkStatus();
       }},
      {"logdir",
       [&](const std::string& value) {
         if (value.empty()) return BadValue("logdir", value, "a directory");
         flags.logdir = value;
         return stepscope::OkStatus();
       }},
      {"profile_steps", [&](const std::string& value) { return ParseStepRange(value, &flags); }},
      {"profiler_repository",
       [&](const std::string& value) {
         if (value.empty()) return BadValue("profiler_repository", value, "a directory");
         flags.profiler_repository = value;
         return stepscope::OkStatus();
       }},
      {"profiler_bind",
       [&](const std::string& value) {
         if (value.empty()) return BadValue("profiler_bind", value, "an IP address (127.0.0.1, 0.0.0.0, ::)");
         flags.profiler_bind = value;
         return stepscope::OkStatus();
       }},
  };
  std::map<std::string, bool*, std::less<>> bool_flags = {{"cache", &flags.cache}};

  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--help" || arg == "-h") {
      flags.help = true;
      return flags;
    }
    if (arg.size() < 3 || arg.compare(0, 2, "--") != 0) {
      return stepscope::InvalidArgumentError("unexpected argument '" + arg + "' (flags start with --; see --help)");
    }
    const size_t equals = arg.find('=');
    const std::string name = arg.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
    const bool has_value = equals != std::string::npos;

    if (auto it = bool_flags.find(name); it != bool_flags.end()) {
      if (!has_value) {
        *it->second = true;
      } else if (Status status = ParseBool(name, arg.substr(equals + 1), it->second); !status.ok()) {
        return status;
      }
      continue;
    }
    if (name.rfind("no", 0) == 0 && !has_value) {
      if (auto it = bool_flags.find(std::string_view(name).substr(2)); it != bool_flags.end()) {
        *it->second = false;
        continue;
      }
    }
    auto it = value_flags.find(name);
    if (it == value_flags.end()) return stepscope::InvalidArgumentError("unknown flag --" + name + " (see --help)");
    std::string value;
    if (has_value) {
      value = arg.substr(equals + 1);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      return stepscope::InvalidArgumentError("--" + name + " needs a value");
    }
    if (Status status = it->second(value); !status.ok()) return status;
  }
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
  return flags;
}

std::string FlagsUsage() {
  return R"(mnist_mlp: trains a 784-H-10 MLP on a generated MNIST-format dataset, instrumented
with stepscope. Prints its own mean step time and input time for comparison with the
profiler's analysis.

Training
  --steps N              training steps (default 100)
  --batch_size N         examples per step (default 64)
  --hidden_units N       hidden layer width (default 320)
  --learning_rate X      SGD learning rate, momentum 0.9 (default 0.01)
  --log_every N          print the loss every N steps, 0 = never (default 10)
  --seed N               shuffle, augmentation and initialisation seed (default 1)
Input pipeline
  --input_threads N      threads that read/decode/augment; 0 = on the batching thread (default 0)
  --prefetch N           batches prepared ahead on a background thread; 0 = none (default 0)
  --cache                keep decoded examples in memory (hits from the second epoch on)
  --augment KIND         none | shift | elastic (default shift; elastic adds
                         uncacheable work per example)
  --input_cost N         do the per-example decode/augment work N times (default 1)
  --read_delay_us N      extra latency per record read, simulating slow storage (default 0)
Dataset
  --data_dir DIR         where the dataset is generated once (default <binary dir>/../mnist_data)
  --train_examples N     examples in the generated training set (default 60000)
  --shards N             shard files (default 6)
Profiling
  --logdir DIR           profile into DIR/plugins/profile/<run>/<host>.xplane.pb
  --profile_steps A,B    record only steps A..B (0-based, inclusive); default: every step
  --host_tracer_level N  0 off, 1 user annotations, 2 +info, 3 +verbose (default 2)
  --profiler_port P      serve on-demand capture (gRPC, tensorflow.ProfilerService) on port P
  --profiler_bind ADDR   the profiler server's address (default 127.0.0.1: this machine only;
                         0.0.0.0 or :: to be captured from other machines)
  --profiler_repository DIR  let TensorFlow-style captures (TensorBoard's "Capture Profile")
                         make this process write profiles, below DIR only (default: nowhere;
                         `stepscope capture` needs no directory here)

Slow (input bound):  mnist_mlp --input_threads 0 --prefetch 0
Fast:                mnist_mlp --input_threads 4 --prefetch 4 --cache
)";
}

}  // namespace mnist_mlp
