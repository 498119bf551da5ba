#include "python/src/errors.h"

#include <Python.h>

#include <string>

namespace stepscope::python {
namespace py = pybind11;
namespace {

// code name -> exception class. Leaked: it must outlive interpreter finalisation, when
// destructors of statics would touch Python objects without a live interpreter.
py::dict& ErrorClasses() {
  static auto* classes = new py::dict();
  return *classes;
}

constexpr StatusCode kAllCodes[] = {
    StatusCode::kInvalidArgument, StatusCode::kNotFound,          StatusCode::kAlreadyExists,
    StatusCode::kFailedPrecondition, StatusCode::kPermissionDenied, StatusCode::kResourceExhausted,
    StatusCode::kDataLoss,        StatusCode::kUnavailable,       StatusCode::kDeadlineExceeded,
    StatusCode::kUnimplemented,   StatusCode::kIoError,           StatusCode::kInternal,
};

}  // namespace

void ThrowIfError(const Status& status) {
  if (status.ok()) return;
  py::str code(std::string(StatusCodeName(status.code())));
  PyObject* type = PyExc_RuntimeError;
  if (ErrorClasses().contains(code)) type = ErrorClasses()[code].ptr();
  PyErr_SetString(type, status.message().c_str());
  throw py::error_already_set();
}

void BindErrors(py::module_& m) {
  m.def("_status_code_names", [] {
    py::list names;
    for (StatusCode code : kAllCodes) names.append(py::str(std::string(StatusCodeName(code))));
    return names;
  });
  m.def("_register_errors", [](py::dict classes) { ErrorClasses() = std::move(classes); });
}

}  // namespace stepscope::python
