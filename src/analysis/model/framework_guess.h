// Which framework a profile came from, read from the profile itself, so that every page
// speaks that framework's words and its advice names that framework's own knobs
// (num_workers for PyTorch, num_parallel_calls for tf.data, stepscope's API for C++).
//
// The rule (first match wins; docs/tools.md "Framework"):
//   1. stepscope: a host plane carries the stats only stepscope's recorder writes
//      (logical_cores, host_memory_bytes). Checked first: its input stages use tf.data's
//      names (Iterator::...) on purpose, so they must not read as TensorFlow.
//   2. PyTorch: PyTorch operators (aten::...), ProfilerStep#N steps or DataLoader
//      iteration (enumerate(DataLoader)#...__next__) - what a Kineto trace holds.
//   3. TensorFlow: TensorFlow ops ("scope/name:Type") or tf.data ops (Iterator::...).
//   4. JAX: XLA/JAX markers: PjitFunction(...) or PjRt* host events, JAX op names.
//   5. unknown: none of these (a generic Chrome trace); advice stays framework-neutral.
#pragma once

#include <string>
#include <string_view>

#include "src/analysis/model/profile_model.h"

namespace stepscope::analysis {

enum class Framework { kUnknown, kStepscope, kPyTorch, kTensorFlow, kJax };

// "unknown", "stepscope", "pytorch", "tensorflow", "jax": the JSON value.
std::string_view FrameworkKey(Framework framework);
// For people: "C++ (stepscope API)", "PyTorch", "TensorFlow", "JAX", "unknown".
std::string_view FrameworkLabel(Framework framework);

struct FrameworkGuess {
  Framework framework = Framework::kUnknown;
  // What decided it, in words ("PyTorch operators such as aten::addmm").
  std::string evidence;
};
FrameworkGuess DetectFramework(const ProfileModel& model);

// How to mark training steps in this framework, one sentence (for "no steps found").
std::string_view HowToMarkSteps(Framework framework);
// How to record a region the profile does not show yet, in this framework's API.
std::string_view HowToAnnotate(Framework framework);

}  // namespace stepscope::analysis
