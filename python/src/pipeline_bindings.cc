#include "python/src/pipeline_bindings.h"

#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "python/src/errors.h"
#include "stepscope/internal/recorder.h"
#include "stepscope/pipeline.h"

namespace stepscope::python {
namespace py = pybind11;
namespace {

using SharedPipeline = std::shared_ptr<const Pipeline>;

// The Python object of a built pipeline (a struct, not the shared_ptr itself, which
// pybind11 treats as a holder).
struct PipelineHandle {
  SharedPipeline pipeline;
};

// Stage references come from Python: checked here, with one clear line, instead of
// indexing out of range.
const PipelineStage& StageOf(const SharedPipeline& pipeline, int ref) {
  if (ref < 0 || static_cast<size_t>(ref) >= pipeline->size()) {
    throw py::index_error("pipeline has no stage " + std::to_string(ref) + " (it has " +
                          std::to_string(pipeline->size()) + ")");
  }
  return pipeline->stage(ref);
}

// One `with` block around a C++ scope. The scope lives between __enter__ and __exit__
// and must end on the thread that entered it (the C++ rule). The pipeline is kept alive
// by the object, so a stage outlives every call that times it.
template <typename Scope, typename... Args>
class ScopeHolder {
 public:
  ScopeHolder(SharedPipeline pipeline, const PipelineStage* stage, Args... args)
      : pipeline_(std::move(pipeline)), stage_(stage), args_(args...) {}

  void Enter() {
    std::apply([this](auto... args) { scope_.emplace(*stage_, args...); }, args_);
  }
  void Exit() { scope_.reset(); }

 private:
  SharedPipeline pipeline_;
  const PipelineStage* stage_;
  std::tuple<Args...> args_;
  std::optional<Scope> scope_;
};

using StageCall = ScopeHolder<ScopedStageCall>;
using StageConsume = ScopeHolder<ScopedConsume, int64_t>;
using StageProduce = ScopeHolder<ScopedProduce, int64_t>;

template <typename Holder>
void BindScope(py::module_& m, const char* name, const char* doc) {
  py::class_<Holder>(m, name, doc)
      .def("__enter__", [](Holder& self) -> Holder& { self.Enter(); return self; },
           py::return_value_policy::reference_internal)
      .def("__exit__", [](Holder& self, const py::args&) {
        self.Exit();
        return false;
      });
}

// A stage of a built pipeline, as Python sees it.
struct StageView {
  SharedPipeline pipeline;
  int ref;
  const PipelineStage& stage() const { return pipeline->stage(ref); }
};

}  // namespace

void BindPipeline(py::module_& m) {
  // One atomic load, with the GIL held (is_profiling() releases it and takes a lock): lets
  // Python wrappers skip their work when stage calls would not be recorded.
  m.def("_records_pipelines", [] { return internal::IsLevelEnabled(internal::kLevelInfo); },
        "True while a session records pipeline stage calls (host_tracer_level >= 2).");
  py::class_<StageView>(m, "_PipelineStage", "One declared stage of a built pipeline")
      .def_property_readonly("ref", [](const StageView& v) { return v.ref; })
      .def_property_readonly("long_name", [](const StageView& v) { return std::string(v.stage().long_name()); })
      .def_property_readonly("dataset_name", [](const StageView& v) { return std::string(v.stage().dataset_name()); })
      .def_property_readonly("kind", [](const StageView& v) { return std::string(StageKindName(v.stage().kind())); })
      .def_property_readonly("id", [](const StageView& v) { return v.stage().id(); })
      .def_property_readonly("parent_id", [](const StageView& v) -> std::optional<int64_t> {
        if (v.stage().parent_id() == PipelineStage::kNoId) return std::nullopt;
        return v.stage().parent_id();
      })
      .def_property_readonly("input_ids", [](const StageView& v) { return v.stage().input_ids(); })
      .def_property_readonly("parallelism", [](const StageView& v) { return v.stage().parallelism(); })
      .def_property_readonly("buffer_size", [](const StageView& v) { return v.stage().buffer_size(); })
      .def_property_readonly("asynchronous", [](const StageView& v) { return v.stage().is_asynchronous(); });

  BindScope<StageCall>(m, "_StageCall", "Times one call of a stage (with block)");
  BindScope<StageConsume>(m, "_StageConsume", "An asynchronous stage's wait for an element (with block)");
  BindScope<StageProduce>(m, "_StageProduce", "The production of an element for an asynchronous stage (with block)");

  py::class_<PipelineHandle>(m, "_Pipeline", "A built pipeline (immutable)")
      .def("__len__", [](const PipelineHandle& h) { return h.pipeline->size(); })
      .def_property_readonly("root_ref", [](const PipelineHandle& h) { return h.pipeline->root_ref(); })
      .def("stage", [](const PipelineHandle& h, int ref) {
        StageOf(h.pipeline, ref);
        return StageView{h.pipeline, ref};
      }, py::arg("ref"))
      // Scope holders cannot move (they hold a C++ scope): handed to Python as owned pointers.
      .def("call", [](const PipelineHandle& h, int ref) {
        return std::make_unique<StageCall>(h.pipeline, &StageOf(h.pipeline, ref));
      }, py::arg("ref"))
      // The cheap form for wrappers on hot paths (a DataLoader's per-element fetch): no
      // scope object is created and no __enter__/__exit__ dispatched.
      .def("timed_call", [](const PipelineHandle& h, int ref, const py::object& fn, const py::args& args) {
        const PipelineStage& stage = StageOf(h.pipeline, ref);
        ScopedStageCall call(stage);
        return fn(*args);
      }, py::arg("ref"), py::arg("fn"))
      .def("consume", [](const PipelineHandle& h, int ref, int64_t element_id) {
        return std::make_unique<StageConsume>(h.pipeline, &StageOf(h.pipeline, ref), element_id);
      }, py::arg("ref"), py::arg("element_id"))
      .def("produce", [](const PipelineHandle& h, int ref, int64_t element_id) {
        return std::make_unique<StageProduce>(h.pipeline, &StageOf(h.pipeline, ref), element_id);
      }, py::arg("ref"), py::arg("element_id"));

  using Ref = PipelineBuilder::StageRef;
  py::class_<PipelineBuilder>(m, "_PipelineBuilder", "Declares pipeline stages in dataset order")
      .def(py::init<>())
      .def("source", [](PipelineBuilder& b, const std::string& name) { return b.Source(name); }, py::arg("dataset_name"))
      .def("map", &PipelineBuilder::Map, py::arg("input"))
      .def("parallel_map", &PipelineBuilder::ParallelMap, py::arg("input"), py::arg("num_workers"))
      .def("batch", &PipelineBuilder::Batch, py::arg("input"))
      .def("shuffle", &PipelineBuilder::Shuffle, py::arg("input"))
      .def("cache", &PipelineBuilder::Cache, py::arg("input"))
      .def("prefetch", &PipelineBuilder::Prefetch, py::arg("input"), py::arg("buffer_size"))
      .def("custom", [](PipelineBuilder& b, const std::string& name, const std::vector<Ref>& inputs, bool asynchronous) {
        // Custom takes an initializer_list: declare through the widest fixed arities.
        switch (inputs.size()) {
          case 0: return b.Custom(name, {}, asynchronous);
          case 1: return b.Custom(name, {inputs[0]}, asynchronous);
          case 2: return b.Custom(name, {inputs[0], inputs[1]}, asynchronous);
          case 3: return b.Custom(name, {inputs[0], inputs[1], inputs[2]}, asynchronous);
          case 4: return b.Custom(name, {inputs[0], inputs[1], inputs[2], inputs[3]}, asynchronous);
        }
        throw py::value_error("custom: at most 4 inputs, got " + std::to_string(inputs.size()));
      }, py::arg("dataset_name"), py::arg("inputs"), py::arg("asynchronous") = false)
      .def("build", [](PipelineBuilder& b) {
        StatusOr<Pipeline> built = std::move(b).Build();
        ThrowIfError(built.status());
        return PipelineHandle{std::make_shared<const Pipeline>(std::move(built).value())};
      });
}

}  // namespace stepscope::python
