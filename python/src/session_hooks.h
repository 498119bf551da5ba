// Session start/stop notifications for the Python extensions that record from callbacks
// of other libraries (PyTorch's RecordFunction): they install their callback only while
// a session records, so a program that is not being profiled pays nothing for them.
//
// Implemented in _stepscope (the one copy of the recorder in the process) on top of
// collect's tracer registry; _torch links _stepscope and calls AddSessionObserver at
// import. Every kind of session notifies: stepscope.start(), Profile, a remote capture.
#pragma once

#include "stepscope/session.h"

#define STEPSCOPE_PY_EXPORT __attribute__((visibility("default")))

namespace stepscope::python {

class SessionObserver {
 public:
  virtual ~SessionObserver() = default;
  // Before recording starts (before the host tracer level is published) and after it
  // stopped, on the thread that starts / stops the session, which need not hold the GIL
  // (a remote capture starts on a gRPC thread). Called once each per session, in order.
  virtual void OnSessionStart(const ProfileOptions& options) = 0;
  virtual void OnSessionStop() = 0;
};

// Registers `observer` (not owned; must live until process exit) for every later session.
// `name` names it in the profile's warnings. Thread-safe.
STEPSCOPE_PY_EXPORT void AddSessionObserver(const char* name, SessionObserver* observer);

}  // namespace stepscope::python
