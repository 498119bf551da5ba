// A framework's words for tools: how to mark steps and record regions in it, and the
// framework fields of a tool's JSON. Which framework a profile came from is decided in the
// model (src/analysis/model/framework_guess.h, DetectFramework).
#pragma once

#include <string>
#include <string_view>

#include "src/analysis/model/framework_guess.h"
#include "src/analysis/model/profile_model.h"
#include "src/analysis/output/json_writer.h"
#include "src/analysis/output/schema.h"

namespace stepscope::analysis {

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

// Writes "framework", "framework_label" and "framework_evidence" into the current object.
void WriteFrameworkJson(const FrameworkGuess& guess, output::JsonWriter* writer);
// "PyTorch (PyTorch operators such as aten::addmm)" for text reports.
std::string FrameworkText(const FrameworkGuess& guess);

}  // namespace stepscope::analysis
