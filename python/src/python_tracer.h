// python_tracer_level=1: every Python function call and return, and every call of a
// built-in (C) function, on every thread, as events on the thread's line, nested with the
// ATen ops and Trace scopes they run. A C-level profile hook (PyEval_SetProfile's, not
// sys.settrace in Python) is installed on every thread when a session with
// python_tracer_level >= 1 starts, on threads started during it through
// threading.setprofile, and removed at stop.
//
// Names, in torch.profiler's with_stack form: "<co_filename>(<co_firstlineno>): <co_name>"
// for Python functions, "<built-in method NAME>" for C functions. Recorded at host level 1
// (the host tracer must be on).
#pragma once

#include <pybind11/pybind11.h>

namespace stepscope::python {

// Registers the tracer with every later session and binds the hook helper threading
// calls. Called once at module import.
void BindPythonTracer(pybind11::module_& m);

}  // namespace stepscope::python
