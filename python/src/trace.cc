// `with stepscope.Trace("train", step_num=step, _r=1):` records what the C++ API records
// for the same name and metadata: one event on this thread's line, named
// "train#step_num=5,_r=1#" in TraceMe encoding (include/stepscope/annotation.h), which the
// collector decodes into the name "train" and int64 stats step_num and _r.
//
// Cost when not profiling: constructing the object keeps references to the name and the
// keyword dict; __enter__ checks the level and returns. Nothing is formatted.
#include "python/src/trace.h"

#include <Python.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stepscope/annotation.h"
#include "stepscope/internal/recorder.h"
#include "stepscope/step.h"

namespace stepscope::python {
namespace py = pybind11;
namespace {

// UTF-8 view of a str, valid while the object lives (CPython caches the encoding).
std::string_view Utf8(PyObject* text) {
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(text, &size);
  if (data == nullptr) throw py::error_already_set();
  return std::string_view(data, static_cast<size_t>(size));
}

// "name#k1=v1,k2=v2#": bools as 1/0, ints as int64 (others as text), floats, str, and
// str(value) for anything else, as TensorFlow's Trace formats its kwargs.
std::string EncodeTraceName(const py::str& name, const py::dict& kwargs) {
  std::vector<MetadataArg> args;
  std::vector<py::object> keep_alive;  // str(value) of non-str values
  args.reserve(kwargs.size());
  for (auto [key_handle, value_handle] : kwargs) {
    std::string_view key = Utf8(key_handle.ptr());
    PyObject* value = value_handle.ptr();
    if (PyBool_Check(value)) {
      args.emplace_back(key, value == Py_True);
    } else if (PyLong_Check(value)) {
      int overflow = 0;
      long long number = PyLong_AsLongLongAndOverflow(value, &overflow);
      if (overflow == 0 && !(number == -1 && PyErr_Occurred())) {
        args.emplace_back(key, static_cast<int64_t>(number));
      } else {
        PyErr_Clear();
        keep_alive.push_back(py::str(value_handle));
        args.emplace_back(key, Utf8(keep_alive.back().ptr()));
      }
    } else if (PyFloat_Check(value)) {
      args.emplace_back(key, PyFloat_AsDouble(value));
    } else if (PyUnicode_Check(value)) {
      args.emplace_back(key, Utf8(value));
    } else {
      keep_alive.push_back(py::str(value_handle));
      args.emplace_back(key, Utf8(keep_alive.back().ptr()));
    }
  }
  return EncodeMetadataList(Utf8(name.ptr()), args);
}

class Trace {
 public:
  Trace(py::str name, py::dict kwargs) : name_(std::move(name)), kwargs_(std::move(kwargs)) {}

  void Enter() {
    if (!internal::IsLevelEnabled(internal::kLevelCritical)) return;
    encoded_ = EncodeTraceName(name_, kwargs_);
    recording_ = true;
    start_ticks_ = internal::ReadTicks();
  }

  // Recorded on the thread that leaves the scope (the name is interned there).
  void Exit() {
    if (!recording_) return;
    recording_ = false;
    internal::RecordDynamicEvent(encoded_.data(), encoded_.size(), start_ticks_, internal::ReadTicks());
  }

  bool recording() const { return recording_; }

 private:
  py::str name_;
  py::dict kwargs_;
  std::string encoded_;
  uint64_t start_ticks_ = 0;
  bool recording_ = false;
};

// A step marker begun now and ended by end() (or when collected): prof.step() keeps one
// open between two calls. The event is Step's: name with int64 stats step_num and _r=1.
class StepMarker {
 public:
  StepMarker(std::string name, int64_t step_num) : step_(std::in_place, std::string_view(name), step_num) {}
  void End() { step_.reset(); }

 private:
  std::optional<Step> step_;
};

}  // namespace

void BindTrace(py::module_& m) {
  py::class_<Trace>(m, "Trace", R"doc(
Records the enclosed code as one event on this thread's line while profiling.

    with stepscope.Trace("train", step_num=step, _r=1):
        train_one_step()

Keyword arguments become the event's stats (TraceMe metadata): ints as int64, bools as
1/0, floats, strings, and str(value) for anything else. `_r=1` with `step_num` marks a
training step, as in TensorFlow. Not profiling: nothing is formatted or recorded.
)doc")
      .def(py::init([](py::str name, py::kwargs kwargs) { return Trace(std::move(name), std::move(kwargs)); }),
           py::arg("name"))
      .def("__enter__", [](py::object self) {
        self.cast<Trace&>().Enter();
        return self;
      })
      .def("__exit__", [](Trace& self, py::args) { self.Exit(); })
      .def_property_readonly("recording", &Trace::recording, "True while this scope is being recorded");

  py::class_<StepMarker>(m, "_StepMarker")
      .def(py::init<std::string, int64_t>(), py::arg("name"), py::arg("step_num"))
      .def("end", &StepMarker::End);

  m.def("set_thread_name", [](std::string_view name) { SetCurrentThreadName(name); }, py::arg("name"),
        "Names the calling thread's line in profiles (default: the OS thread name).");
}

}  // namespace stepscope::python
