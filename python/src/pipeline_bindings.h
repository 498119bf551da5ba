// stepscope.pipeline: Python bindings for the input-pipeline instrumentation API
// (include/stepscope/pipeline.h). Python declares the stages with a builder and times
// each call with context managers that hold the C++ scopes, so a Python pipeline's events
// are exactly the ones a C++ pipeline records.
#pragma once

#include <pybind11/pybind11.h>

namespace stepscope::python {

// Binds _PipelineBuilder, _Pipeline, _PipelineStage, the scope objects (_StageCall,
// _StageConsume, _StageProduce) and _records_pipelines().
void BindPipeline(pybind11::module_& m);

}  // namespace stepscope::python
