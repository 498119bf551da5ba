#include "src/analysis/model/framework_guess.h"

#include <optional>

namespace stepscope::analysis {
namespace {

// The first host or device op that satisfies `test`, by name.
template <typename Test>
std::optional<std::string> FirstOp(const ProfileModel& model, Test test) {
  for (const OpMetricsDb* db : {&model.host_ops, &model.device_ops}) {
    for (const OpMetrics& op : db->ops) {
      if (test(op)) return op.name;
    }
  }
  return std::nullopt;
}

std::optional<std::string> StepscopeRecorderEvidence(const ProfileModel& model) {
  for (const HostEnvironment& host : model.run_environment.hosts) {
    if (host.logical_cores > 0 || host.host_memory_bytes > 0) {
      return "the host plane carries stepscope's recorder stats (logical_cores, host_memory_bytes)";
    }
  }
  return std::nullopt;
}

std::optional<std::string> PyTorchEvidence(const ProfileModel& model) {
  if (model.input_pipeline.data_loader_next_count > 0) return "the DataLoader's iteration, enumerate(DataLoader)#...__next__";
  if (auto op = FirstOp(model, [](const OpMetrics& op) { return op.name.starts_with("aten::"); })) {
    return "PyTorch operators such as " + *op;
  }
  for (const StepInfo& step : model.steps) {
    if (step.name.starts_with("ProfilerStep#")) return "torch.profiler steps (" + step.name + ")";
  }
  return std::nullopt;
}

std::optional<std::string> TensorFlowEvidence(const ProfileModel& model) {
  auto op = FirstOp(model, [](const OpMetrics& op) {
    return op.category == OpCategory::kTensorFlow || op.category == OpCategory::kTfData;
  });
  if (!op) return std::nullopt;
  return "TensorFlow / tf.data ops such as " + *op;
}

std::optional<std::string> JaxEvidence(const ProfileModel& model) {
  auto op = FirstOp(model, [](const OpMetrics& op) {
    return op.category == OpCategory::kJax || op.name.starts_with("PjitFunction(") || op.name.starts_with("PjRt");
  });
  if (!op) return std::nullopt;
  return "XLA/JAX runtime events such as " + *op;
}

}  // namespace

std::string_view FrameworkKey(Framework framework) {
  switch (framework) {
    case Framework::kStepscope: return "stepscope";
    case Framework::kPyTorch: return "pytorch";
    case Framework::kTensorFlow: return "tensorflow";
    case Framework::kJax: return "jax";
    case Framework::kUnknown: break;
  }
  return "unknown";
}

std::string_view FrameworkLabel(Framework framework) {
  switch (framework) {
    case Framework::kStepscope: return "C++ (stepscope API)";
    case Framework::kPyTorch: return "PyTorch";
    case Framework::kTensorFlow: return "TensorFlow";
    case Framework::kJax: return "JAX";
    case Framework::kUnknown: break;
  }
  return "unknown";
}

FrameworkGuess DetectFramework(const ProfileModel& model) {
  struct Rule {
    Framework framework;
    std::optional<std::string> (*evidence)(const ProfileModel&);
  };
  // PyTorch before stepscope's own recorder: a Python program profiled by stepscope with
  // stepscope.torch (issue 13) carries both, and its advice must speak of DataLoaders.
  static constexpr Rule kRules[] = {{Framework::kPyTorch, PyTorchEvidence},
                                    {Framework::kStepscope, StepscopeRecorderEvidence},
                                    {Framework::kTensorFlow, TensorFlowEvidence},
                                    {Framework::kJax, JaxEvidence}};
  for (const Rule& rule : kRules) {
    if (std::optional<std::string> evidence = rule.evidence(model)) return {rule.framework, std::move(*evidence)};
  }
  return {Framework::kUnknown, "no framework's ops or markers found"};
}

std::string_view HowToMarkSteps(Framework framework) {
  switch (framework) {
    case Framework::kPyTorch:
      return "Profile with torch.profiler.profile(schedule=torch.profiler.schedule(...)) and call prof.step() once "
             "per training iteration, so each step is recorded as ProfilerStep#N.";
    case Framework::kTensorFlow:
      return "Mark each training step with `with tf.profiler.experimental.Trace('train', step_num=step, _r=1):`.";
    case Framework::kJax:
      return "Mark each training step with `with jax.profiler.StepTraceAnnotation('train', step_num=step):`.";
    case Framework::kStepscope:
      return "Mark each training step with stepscope::Step step(\"train\", step_number); around the loop body.";
    case Framework::kUnknown: break;
  }
  return "Mark each training step: stepscope::Step (C++), tf.profiler.experimental.Trace('train', step_num=n, _r=1) "
         "(TensorFlow), jax.profiler.StepTraceAnnotation (JAX) or prof.step() under torch.profiler (PyTorch).";
}

std::string_view HowToAnnotate(Framework framework) {
  switch (framework) {
    case Framework::kPyTorch:
      return "wrap it in `with torch.profiler.record_function(\"load_batch\"):` or profile with with_stack=True";
    case Framework::kTensorFlow: return "wrap it in `with tf.profiler.experimental.Trace(\"load_batch\"):`";
    case Framework::kJax: return "wrap it in `with jax.profiler.TraceAnnotation(\"load_batch\"):`";
    case Framework::kStepscope:
      return "wrap it in stepscope::ScopedAnnotation (input stages: stepscope::ScopedIterator(\"Iterator::...\"))";
    case Framework::kUnknown: break;
  }
  return "record it with your framework's annotation API (stepscope::ScopedAnnotation, "
         "tf.profiler.experimental.Trace, jax.profiler.TraceAnnotation, torch.profiler.record_function)";
}

}  // namespace stepscope::analysis
