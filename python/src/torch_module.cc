// The _torch extension: installs the PyTorch op recorder (torch_op_callback.h) for every
// stepscope session from the moment stepscope.torch is imported.
#include <pybind11/pybind11.h>

#include "python/src/torch_memory_reporter.h"
#include "python/src/torch_op_callback.h"
#include "python/src/torch_parallel_test_hook.h"

namespace stepscope::python {
namespace py = pybind11;

PYBIND11_MODULE(_torch, m) {
  m.doc() = "stepscope's PyTorch op recorder (use stepscope.torch)";
  static bool registered = [] {
    AddSessionObserver("pytorch ops", &TorchOpRecorder::Get());
    return true;
  }();
  (void)registered;
  m.def("set_record_shapes", [](bool enabled) { TorchOpRecorder::Get().set_record_shapes(enabled); },
        py::arg("enabled"));
  m.def("record_shapes", [] { return TorchOpRecorder::Get().record_shapes(); });
  m.def("set_profile_memory", [](bool enabled) { SetProfileMemory(enabled); }, py::arg("enabled"));
  m.def("profile_memory", [] { return ProfileMemory(); });
  m.def("callback_installed", [] { return TorchOpRecorder::Get().callback_installed(); },
        "True while the RecordFunction callback is installed (only during sessions).");
  m.def("_set_noop_callback_for_benchmark", &SetNoopCallbackForBenchmark, py::arg("installed"),
        "Benchmark only: a global RecordFunction callback that records nothing.");
  m.def("_ops_in_parallel_region_for_test", &RunOpsInParallelRegionForTest, py::arg("tasks"),
        py::call_guard<py::gil_scoped_release>(),
        "Test only: runs at::ones({4}).add_(1) once per task inside at::parallel_for (grain 1).");
}

}  // namespace stepscope::python
