// The interface every collector implements (host annotations, CUPTI, ...), and the one
// place where collectors other than the host tracer are registered.
//
// Call order, per session, on one thread at a time: Start() once, Stop() once, then
// CollectData() at most once. A tracer that fails Start() is dropped from the session
// and its error becomes an XSpace warning; profiling goes on with the others.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "src/xspace/xplane.h"
#include "stepscope/session.h"
#include "stepscope/status.h"

namespace stepscope::collect {

// The session's clock facts. Every plane expresses times relative to
// start_monotonic_ns (XLine.timestamp_ns and event offsets), as TensorFlow's
// post-processing normalises them; wall times go into the `Task Environment` plane.
struct SessionTimes {
  uint64_t start_monotonic_ns = 0;
  uint64_t stop_monotonic_ns = 0;
  uint64_t start_wall_ns = 0;
  uint64_t stop_wall_ns = 0;
};

// What a tracer records, so a session can tell when a requested tracer level has no
// tracer behind it (device_tracer_level > 0 without a device tracer) and say so.
enum class TracerKind { kHost, kDevice, kPython, kOther };

class Tracer {
 public:
  virtual ~Tracer() = default;
  // Short name for warnings, e.g. "host", "cupti".
  virtual const char* name() const = 0;
  virtual TracerKind kind() const { return TracerKind::kOther; }
  virtual Status Start() = 0;
  virtual Status Stop() = 0;
  // Adds this tracer's planes (or lines of existing planes) to `space`.
  virtual Status CollectData(const SessionTimes& times, xspace::XSpace* space) = 0;
};

// Makes a tracer for a session, or returns nullptr when it does not apply (e.g. device
// tracing is off in `options`). Called on the thread that starts the session.
using TracerFactory = std::function<std::unique_ptr<Tracer>(const ProfileOptions& options)>;

// Registers a factory for every later session. Thread-safe; typically called once at
// start-up by the layer that owns the tracer (src/gpu).
void RegisterTracerFactory(TracerFactory factory);
// Tracers from every registered factory for `options` (nullptrs dropped).
std::vector<std::unique_ptr<Tracer>> CreateRegisteredTracers(const ProfileOptions& options);

}  // namespace stepscope::collect
