#include "python/src/python_tracer.h"

#include <Python.h>
#include <frameobject.h>

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "src/collect/tracer.h"
#include "stepscope/annotation.h"
#include "stepscope/internal/recorder.h"

namespace stepscope::python {
namespace py = pybind11;
namespace {

// Everything below is touched only with the GIL held (the hook runs under it).
uint64_t g_generation = 0;  // bumped at every start and stop: stale per-thread stacks are reset
std::unordered_map<PyCodeObject*, std::string>* g_code_names = nullptr;  // holds a reference to each code
std::unordered_map<PyMethodDef*, std::string>* g_builtin_names = nullptr;

struct OpenCall {
  void* key;  // the frame (Python) or the callable (C)
  const std::string* name;
  uint64_t start_ticks;
};
thread_local std::vector<OpenCall> t_calls;
thread_local uint64_t t_generation = 0;

std::string Utf8(PyObject* text) {
  Py_ssize_t size = 0;
  const char* data = text != nullptr ? PyUnicode_AsUTF8AndSize(text, &size) : nullptr;
  if (data == nullptr) {
    PyErr_Clear();
    return "?";
  }
  return std::string(data, static_cast<size_t>(size));
}

const std::string* CodeName(PyCodeObject* code) {
  auto [it, inserted] = g_code_names->try_emplace(code);
  if (inserted) {
    Py_INCREF(code);
    it->second = Utf8(code->co_filename) + "(" + std::to_string(code->co_firstlineno) + "): " + Utf8(code->co_name);
  }
  return &it->second;
}

const std::string* BuiltinName(PyObject* callable) {
  if (!PyCFunction_Check(callable)) return nullptr;
  PyMethodDef* def = reinterpret_cast<PyCFunctionObject*>(callable)->m_ml;
  auto [it, inserted] = g_builtin_names->try_emplace(def);
  if (inserted) it->second = std::string("<built-in method ") + def->ml_name + ">";
  return &it->second;
}

// Names this thread's line after its Python thread (threading.current_thread().name).
// Runs inside the hook, where CPython does not call the hook again.
void NameThreadLine() {
  PyObject* threading = PyImport_ImportModule("threading");
  PyObject* thread = threading != nullptr ? PyObject_CallMethod(threading, "current_thread", nullptr) : nullptr;
  PyObject* name = thread != nullptr ? PyObject_GetAttrString(thread, "name") : nullptr;
  if (name != nullptr && PyUnicode_Check(name)) SetCurrentThreadName(Utf8(name));
  Py_XDECREF(name);
  Py_XDECREF(thread);
  Py_XDECREF(threading);
  PyErr_Clear();
}

void Open(void* key, const std::string* name) {
  if (t_generation != g_generation) {  // first call on this thread in this session
    t_calls.clear();
    t_generation = g_generation;
    NameThreadLine();
  }
  t_calls.push_back({key, name, internal::ReadTicks()});
}

void Close(void* key) {
  if (t_calls.empty() || t_calls.back().key != key) return;  // began before the session
  const uint64_t end_ticks = internal::ReadTicks();
  OpenCall call = t_calls.back();
  t_calls.pop_back();
  if (t_generation != g_generation || !internal::IsLevelEnabled(internal::kLevelCritical)) return;
  internal::RecordDynamicEvent(call.name->data(), call.name->size(), call.start_ticks, end_ticks);
}

int ProfileHook(PyObject*, PyFrameObject* frame, int what, PyObject* arg) {
  switch (what) {
    case PyTrace_CALL: {
      PyCodeObject* code = PyFrame_GetCode(frame);
      Open(frame, CodeName(code));
      Py_DECREF(code);
      break;
    }
    case PyTrace_RETURN:
      Close(frame);
      break;
    case PyTrace_C_CALL:
      if (const std::string* name = BuiltinName(arg)) Open(arg, name);
      break;
    case PyTrace_C_RETURN:
    case PyTrace_C_EXCEPTION:
      Close(arg);
      break;
    default:
      break;
  }
  return 0;
}

// Python 3.12 has PyEval_SetProfileAllThreads; 3.11 exports _PyEval_SetProfile(tstate, ...),
// declared in its headers as data by mistake, hence the cast.
void SetProfileOnAllThreads(Py_tracefunc hook) {
#if PY_VERSION_HEX >= 0x030C0000
  PyEval_SetProfileAllThreads(hook, nullptr);
#else
  using SetProfileFn = int (*)(PyThreadState*, Py_tracefunc, PyObject*);
  auto set_profile = reinterpret_cast<SetProfileFn>(reinterpret_cast<void*>(&_PyEval_SetProfile));
  PyInterpreterState* interpreter = PyThreadState_GetInterpreter(PyThreadState_Get());
  for (PyThreadState* state = PyInterpreterState_ThreadHead(interpreter); state != nullptr;
       state = PyThreadState_Next(state)) {
    if (set_profile(state, hook, nullptr) < 0) PyErr_Clear();
  }
#endif
}

// threading.setprofile's function for threads started while recording: its first event
// replaces it with the C hook on that thread.
void SetThreadingProfile(bool on) {
  py::module_ threading = py::module_::import("threading");
  py::object hook = py::none();
  if (on) hook = py::module_::import("stepscope._stepscope").attr("_python_tracer_thread_start");
  threading.attr("setprofile")(hook);
}

bool InterpreterAlive() { return Py_IsInitialized() && !_Py_IsFinalizing(); }

class PythonTracer : public collect::Tracer {
 public:
  const char* name() const override { return "python"; }
  collect::TracerKind kind() const override { return collect::TracerKind::kPython; }

  explicit PythonTracer(int host_tracer_level) : host_tracer_level_(host_tracer_level) {}

  Status Start() override {
    if (host_tracer_level_ <= 0) {
      return InvalidArgumentError("python_tracer_level needs host_tracer_level >= 1 (its events go to the host threads' lines)");
    }
    if (!InterpreterAlive()) return FailedPreconditionError("the Python interpreter is shutting down");
    py::gil_scoped_acquire gil;
    ++g_generation;
    g_code_names = new std::unordered_map<PyCodeObject*, std::string>();
    g_builtin_names = new std::unordered_map<PyMethodDef*, std::string>();
    try {  // no exception may cross the session code that called us
      SetThreadingProfile(true);
    } catch (const std::exception& error) {
      PyErr_Clear();
      return InternalError(std::string("threading.setprofile: ") + error.what());
    }
    SetProfileOnAllThreads(&ProfileHook);
    started_ = true;
    return OkStatus();
  }

  Status Stop() override {
    if (!started_ || !InterpreterAlive()) return OkStatus();
    py::gil_scoped_acquire gil;
    SetProfileOnAllThreads(nullptr);
    try {
      SetThreadingProfile(false);
    } catch (const std::exception&) {
      PyErr_Clear();  // threads started later keep a hook that does nothing (see below)
    }
    ++g_generation;
    for (auto& [code, name] : *g_code_names) Py_DECREF(code);
    delete g_code_names;
    delete g_builtin_names;
    g_code_names = nullptr;
    g_builtin_names = nullptr;
    started_ = false;
    return OkStatus();
  }

  Status CollectData(const collect::SessionTimes&, xspace::XSpace*) override { return OkStatus(); }

 private:
  int host_tracer_level_;
  bool started_ = false;
};

}  // namespace

void BindPythonTracer(py::module_& m) {
  m.def("_python_tracer_thread_start", [](py::args) {
    if (g_code_names != nullptr) PyEval_SetProfile(&ProfileHook, nullptr);
  });
  collect::RegisterTracerFactory([](const ProfileOptions& options) -> std::unique_ptr<collect::Tracer> {
    if (options.python_tracer_level <= 0) return nullptr;
    return std::make_unique<PythonTracer>(options.host_tracer_level);
  });
}

}  // namespace stepscope::python
