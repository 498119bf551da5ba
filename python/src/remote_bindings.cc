#include "python/src/remote_bindings.h"

#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "python/src/errors.h"
#include "src/base/capture_settings.h"
#include "src/remote/multi_worker_capture.h"
#include "src/remote/service_address.h"
#include "stepscope/profiler_server.h"

namespace stepscope::python {
namespace py = pybind11;
namespace {

std::unique_ptr<ProfilerServer> StartServer(int64_t port, const std::string& bind_address) {
  if (port < 0 || port > 65535) {
    ThrowIfError(InvalidArgumentError("StartProfilerServer: port must be 0..65535, got " + std::to_string(port)));
  }
  ProfilerServerOptions options;
  options.port = static_cast<int>(port);
  options.bind_address = bind_address;
  StatusOr<std::unique_ptr<ProfilerServer>> server = [&] {
    py::gil_scoped_release release;
    return StartProfilerServer(options);
  }();
  ThrowIfError(server.status());
  return std::move(server).value();
}

// Why no worker was captured, as one status: the first worker's code, every worker's
// message ("host:port: message; ...").
Status NoneCaptured(const remote::CaptureResult& result) {
  std::string message = "no worker was captured: ";
  for (size_t i = 0; i < result.workers.size(); ++i) {
    if (i > 0) message += "; ";
    message += result.workers[i].address + ": " + result.workers[i].status.message();
  }
  return Status(result.workers.empty() ? StatusCode::kUnavailable : result.workers.front().status.code(), message);
}

// tf.profiler.experimental.client.trace: records `duration_ms` of every worker in
// `addresses` into one run of `logdir`; returns the saved paths. Raises when none was
// captured; partial captures return what was saved (the others' failures go to stderr
// through `progress`).
std::vector<std::string> Trace(const std::string& addresses, const std::string& logdir, int64_t duration_ms,
                               int64_t num_tracing_attempts, int64_t host_tracer_level,
                               int64_t device_tracer_level, int64_t python_tracer_level, int64_t delay_ms) {
  ThrowIfError(base::ValidateCaptureSettings({.duration_ms = duration_ms,
                                              .host_tracer_level = host_tracer_level,
                                              .device_tracer_level = device_tracer_level,
                                              .python_tracer_level = python_tracer_level,
                                              .retries = num_tracing_attempts - 1,
                                              .delay_ms = delay_ms})
                   .WithContext("client.trace"));
  StatusOr<std::vector<std::string>> parsed = remote::ParseServiceAddresses(addresses, remote::UnixSockets::kAllowed);
  ThrowIfError(parsed.status());
  remote::CaptureOptions options;
  options.logdir = logdir;
  options.duration_ms = static_cast<uint64_t>(duration_ms);
  options.host_tracer_level = static_cast<int>(host_tracer_level);
  options.device_tracer_level = static_cast<int>(device_tracer_level);
  options.python_tracer_level = static_cast<int>(python_tracer_level);
  options.retries = static_cast<int>(num_tracing_attempts - 1);
  options.delay_ms = static_cast<uint64_t>(delay_ms);
  Status valid = remote::ValidateCaptureOptions(options);
  if (valid.ok()) valid = remote::CheckCaptureBounds(parsed->size(), options);
  ThrowIfError(valid.WithContext("client.trace"));

  StatusOr<remote::CaptureResult> result = [&] {
    py::gil_scoped_release release;
    return remote::CaptureWorkers(*parsed, options);
  }();
  ThrowIfError(result.status());
  if (result->succeeded() == 0) ThrowIfError(NoneCaptured(*result));
  std::vector<std::string> paths;
  for (const remote::WorkerCapture& worker : result->workers) {
    if (worker.status.ok()) paths.push_back(worker.path);
  }
  return paths;
}

}  // namespace

void BindRemote(py::module_& m) {
  py::class_<ProfilerServer>(m, "ProfilerServer")
      .def_property_readonly("port", &ProfilerServer::port)
      .def_property_readonly("address", &ProfilerServer::address)
      .def_property_readonly("listen_address", &ProfilerServer::listen_address)
      .def("stop", &ProfilerServer::Stop, py::call_guard<py::gil_scoped_release>());
  m.def("start_server", &StartServer, py::arg("port"), py::arg("bind_address"));
  m.def("trace", &Trace, py::arg("addresses"), py::arg("logdir"), py::arg("duration_ms"),
        py::arg("num_tracing_attempts"), py::arg("host_tracer_level"), py::arg("device_tracer_level"),
        py::arg("python_tracer_level"), py::arg("delay_ms"));
}

}  // namespace stepscope::python
