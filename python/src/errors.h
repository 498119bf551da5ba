// stepscope Status -> Python exception. The exception classes are defined in Python
// (stepscope/__init__.py: StepscopeError and one subclass per StatusCode) and registered
// here once at import; the message is the C++ layer's own, unchanged.
#pragma once

#include <pybind11/pybind11.h>

#include "stepscope/status.h"

namespace stepscope::python {

// Raises the registered class for status.code() with status.message(); no-op when ok.
// Throws pybind11::error_already_set, so call with the GIL held.
void ThrowIfError(const Status& status);

// Binds _register_errors(classes: dict[str, type]) (keys: StatusCodeName values, e.g.
// "invalid argument") and _status_code_names() for the Python side to build that dict.
void BindErrors(pybind11::module_& m);

}  // namespace stepscope::python
