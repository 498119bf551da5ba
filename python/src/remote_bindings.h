// The profiler server (stepscope.server) and the capture client (stepscope.client).
#pragma once

#include <pybind11/pybind11.h>

namespace stepscope::python {

void BindRemote(pybind11::module_& m);

}  // namespace stepscope::python
