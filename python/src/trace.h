// stepscope.Trace and the step marker behind stepscope.torch's prof.step().
#pragma once

#include <pybind11/pybind11.h>

namespace stepscope::python {

// Binds Trace(name, **kwargs) (a context manager), _StepMarker and set_thread_name.
void BindTrace(pybind11::module_& m);

}  // namespace stepscope::python
