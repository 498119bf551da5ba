#include "src/analysis/tools/framework.h"

namespace stepscope::analysis {

void WriteFrameworkJson(const FrameworkGuess& guess, output::JsonWriter* w) {
  w->Field("framework", FrameworkKey(guess.framework));
  w->Field("framework_label", FrameworkLabel(guess.framework));
  w->Field("framework_evidence", guess.evidence);
}

std::string FrameworkText(const FrameworkGuess& guess) {
  return std::string(FrameworkLabel(guess.framework)) + " (" + guess.evidence + ")";
}

}  // namespace stepscope::analysis
