// Test support: one small synthetic trace per generation of the PyTorch profiler's JSON,
// written by us from the shape each Kineto version's ChromeTraceLogger (and the legacy
// autograd exporter) writes: categories, pid/tid spellings, flow events, args and
// top-level members as those versions produce them (docs/importers.md, "Kineto
// generations"). Used by the importer's tests (kineto_json/kineto_generations_test.cc)
// and the model's (tests/golden/kineto_generations_model_test.cc).
#pragma once

#include <string_view>
#include <vector>

namespace stepscope::importers::testing {

struct KinetoGeneration {
  std::string_view name;  // a test-name-safe id: "pytorch_1_9"
  std::string_view what;  // the writer and what sets its shape apart, in words
  std::string_view json;  // the trace
};

// In order: pytorch_1_9, pytorch_1_10, pytorch_1_12, pytorch_2, rocm, legacy_autograd,
// cuda_graph, display_ns, then Kineto's other records and devices: cuda_sync, mtia, xpu,
// gaudi, privateuse1.
const std::vector<KinetoGeneration>& KinetoGenerations();
const KinetoGeneration& KinetoGenerationNamed(std::string_view name);

}  // namespace stepscope::importers::testing
