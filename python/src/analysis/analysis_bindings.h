// stepscope.load's bindings (issue 36): a profile file, run or logdir loaded by the loader
// the CLI uses and analysed by the same tools, with options read by the same declarations
// (src/analysis/tool_options.h), so a result in Python is the CLI's JSON.
//
// Compiled into _stepscope, not a module of its own: two extensions would each carry the
// XSpace protobuf messages, and protobuf aborts the process on the second registration.
// Only this folder may include the analysis (tools/check_layering.py); the recorder's
// bindings include this header alone.
#pragma once

#include <pybind11/pybind11.h>

namespace stepscope::python {

// Adds the submodule `_analysis` (LoadedProfile, tool_ids) to `m`.
void BindAnalysis(pybind11::module_& m);

}  // namespace stepscope::python
