// The _stepscope extension: thin bindings over include/stepscope (sessions, annotations,
// steps, the profiler server) and the remote capture client. The Python API on top is
// python/stepscope/__init__.py; docs/python.md describes both.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <vector>

#include "python/src/analysis/analysis_bindings.h"
#include "python/src/errors.h"
#include "python/src/pipeline_bindings.h"
#include "python/src/python_tracer.h"
#include "python/src/remote_bindings.h"
#include "python/src/trace.h"
#include "src/base/capture_settings.h"
#include "stepscope/session.h"

namespace stepscope::python {
namespace py = pybind11;
namespace {

// Checked as given (int64) before narrowing, with the rule and words every other entry
// point uses (src/base/capture_settings.h).
ProfileOptions ToProfileOptions(int64_t host_tracer_level, int64_t device_tracer_level,
                                int64_t python_tracer_level, const std::string& context) {
  Status valid = base::ValidateCaptureSettings({.host_tracer_level = host_tracer_level,
                                                .device_tracer_level = device_tracer_level,
                                                .python_tracer_level = python_tracer_level});
  ThrowIfError(valid.WithContext(context));
  ProfileOptions options;
  options.host_tracer_level = static_cast<int>(host_tracer_level);
  options.device_tracer_level = static_cast<int>(device_tracer_level);
  options.python_tracer_level = static_cast<int>(python_tracer_level);
  return options;
}

void Start(const std::string& logdir, int64_t host_tracer_level, int64_t device_tracer_level,
           int64_t python_tracer_level) {
  ProfileOptions options =
      ToProfileOptions(host_tracer_level, device_tracer_level, python_tracer_level, "StartProfiling");
  Status started;
  {
    py::gil_scoped_release release;
    started = StartProfiling(logdir, options);
  }
  ThrowIfError(started);
}

// Stops and waits until the profile is written (TensorFlow's stop() returns after saving),
// so the caller can read it at once. Returns the written .xplane.pb paths.
std::vector<std::string> Stop() {
  Status stopped;
  std::vector<std::string> paths;
  {
    py::gil_scoped_release release;
    stopped = StopProfiling();
    if (stopped.ok()) stopped = FlushProfiles(&paths);
  }
  ThrowIfError(stopped);
  return paths;
}

void StartInMemory(int64_t host_tracer_level, int64_t device_tracer_level, int64_t python_tracer_level) {
  ProfileOptions options =
      ToProfileOptions(host_tracer_level, device_tracer_level, python_tracer_level, "StartProfilingInMemory");
  Status started;
  {
    py::gil_scoped_release release;
    started = StartProfilingInMemory(options);
  }
  ThrowIfError(started);
}

// Stops and hands the profile back as serialized XSpace bytes; nothing is written.
py::bytes StopInMemory() {
  Status stopped;
  std::string bytes;
  {
    py::gil_scoped_release release;
    stopped = StopProfilingInMemory(&bytes);
  }
  ThrowIfError(stopped);
  return py::bytes(bytes);
}

}  // namespace

PYBIND11_MODULE(_stepscope, m) {
  m.doc() = "stepscope's C++ recording API (use the `stepscope` package, not this module)";
  m.attr("__version__") = STEPSCOPE_VERSION;
  BindErrors(m);
  m.def("start", &Start, py::arg("logdir"), py::arg("host_tracer_level"), py::arg("device_tracer_level"),
        py::arg("python_tracer_level"));
  m.def("stop", &Stop);
  m.def("start_in_memory", &StartInMemory, py::arg("host_tracer_level"), py::arg("device_tracer_level"),
        py::arg("python_tracer_level"));
  m.def("stop_in_memory", &StopInMemory);
  // Without the GIL: a session starting on another thread may wait for it (the Python
  // tracer) while holding the lock IsProfiling takes.
  m.def("is_profiling", [] { return IsProfiling(); }, py::call_guard<py::gil_scoped_release>());
  BindTrace(m);
  BindRemote(m);
  BindPythonTracer(m);
  BindPipeline(m);
  BindAnalysis(m);
}

}  // namespace stepscope::python
