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
#include "src/analysis/output/json_writer.h"
#include "src/analysis/output/schema.h"

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

// Inlined into a tool's result: "framework", "framework_label" and "framework_evidence".
constexpr auto DescribeRecord(std::type_identity<FrameworkGuess>) {
  using R = FrameworkGuess;
  return output::Record(
      "FrameworkGuess",
      output::Computed<R>("framework", [](const R& r) { return FrameworkKey(r.framework); },
                          {.description = "the framework the profile comes from: `tensorflow`, `jax`, `pytorch`, "
                                          "`stepscope` (the C++ recording API) or `unknown`"}),
      output::Computed<R>("framework_label", [](const R& r) { return FrameworkLabel(r.framework); },
                          {.description = "the framework's name for people (\"PyTorch\")"}),
      output::Field("framework_evidence", &R::evidence,
                    {.description = "what decided the framework, in words (\"PyTorch operators such as "
                                    "aten::addmm\")"}));
}

// How to mark training steps in this framework, one sentence (for "no steps found").
std::string_view HowToMarkSteps(Framework framework);
// How to record a region the profile does not show yet, in this framework's API.
std::string_view HowToAnnotate(Framework framework);

// Writes "framework", "framework_label" and "framework_evidence" into the current object.
void WriteFrameworkJson(const FrameworkGuess& guess, output::JsonWriter* writer);
// "PyTorch (PyTorch operators such as aten::addmm)" for text reports.
std::string FrameworkText(const FrameworkGuess& guess);

}  // namespace stepscope::analysis
