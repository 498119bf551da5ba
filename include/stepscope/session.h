// Profiling sessions: when to record, and where the profile goes.
//
//   // 1. Programmatic: record a window and write it to a TensorBoard logdir.
//   stepscope::Status status = stepscope::StartProfiling("/tmp/logdir");
//   if (!status.ok()) std::cerr << status.ToString() << "\n";
//   Train(100);
//   status = stepscope::StopProfiling();   // returns quickly
//   std::vector<std::string> paths;
//   status = stepscope::FlushProfiles(&paths);  // optional: wait until written
//
//   // 2. RAII.
//   { stepscope::ScopedProfile profile("/tmp/logdir"); Train(100); }
//
//   // 3. Step range, like Keras' profile_batch='10,15': records steps 10..15 inclusive.
//   stepscope::ProfileStepRange("/tmp/logdir", 10, 15);
//   for (int64_t n = 0; n < 100; ++n) { stepscope::Step step("train", n); ... }
//
//   // 4. In memory (the gRPC profiler server uses this).
//   auto session = stepscope::Session::Start(options);
//   ...; (*session)->Stop(); (*session)->CollectSerializedXSpace(&bytes);
//
// Files: <logdir>/plugins/profile/<run>/<host>.xplane.pb, an XSpace that TensorBoard's
// profile plugin can open. One session at a time per process; a second start fails with
// kAlreadyExists.
//
// Threading: all functions here are thread-safe. StopProfiling never writes files on
// the caller's thread: a collector thread converts and writes, and FlushProfiles waits
// for it (also run automatically at process exit).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "stepscope/status.h"

namespace tensorflow::profiler {
class XSpace;  // proto/stepscope/xplane.proto
}  // namespace tensorflow::profiler

namespace stepscope {

struct ProfileOptions {
  // 0 off, 1 user annotations and steps (kCritical), 2 + info (tf.data-style iterators,
  // framework internals), 3 + verbose. TensorFlow's levels and default.
  int host_tracer_level = 2;
  // 0 off, 1 on, 2 verbose. The device tracer is CUPTI's (src/gpu, docs/gpu.md), present
  // in programs that link stepscope::gpu (a build with CUDA). Without it, a level above 0
  // records nothing and adds a warning (on stderr at start and in the profile's XSpace
  // warnings); with it but no usable GPU, its warning says why. 0 by default for that
  // reason (TensorFlow's default is 1).
  int device_tracer_level = 0;
  // 0 off, 1 on. No Python tracer is built into stepscope yet: 1 warns as above.
  int python_tracer_level = 0;
  // Run directory name; default: local time YYYY_MM_DD_HH_MM_SS at start.
  std::string run_name;
  // Host part of the file name; default: gethostname().
  std::string host_name;
  // Per thread and session; when a thread's buffer is full its further events are
  // dropped and counted (the count is written into the profile).
  size_t per_thread_buffer_bytes = 8 << 20;
};

// Starts recording into memory; the profile is written under `logdir` at stop.
// kAlreadyExists when a session is active, kInvalidArgument for an empty logdir or bad
// options.
Status StartProfiling(const std::string& logdir, const ProfileOptions& options = {});
// Stops recording and hands the data to the collector thread, which converts it and
// writes the file. kFailedPrecondition when no session started by StartProfiling is
// active.
Status StopProfiling();
bool IsProfiling();

// The same process-wide session, kept in memory: nothing is created or written, and the
// profile is handed to the caller at stop (Python's `stepscope.stop(write=False)`, which
// analyses it without a file). StopProfiling refuses such a session (it has no logdir).
Status StartProfilingInMemory(const ProfileOptions& options = {});
// Stops the session StartProfiling or StartProfilingInMemory began and, instead of
// writing it, converts it on the caller's thread into `serialized_xspace` (a
// tensorflow.profiler.XSpace message). kFailedPrecondition when none is active.
Status StopProfilingInMemory(std::string* serialized_xspace);
// Blocks until every stopped session has been written; returns the first write error
// since the last call. `written_paths` receives the .xplane.pb paths written since the
// last call. Also runs at process exit (after stopping an active session).
Status FlushProfiles(std::vector<std::string>* written_paths = nullptr);

// Start in the constructor, stop in the destructor. status() is the start status.
class ScopedProfile {
 public:
  explicit ScopedProfile(const std::string& logdir, const ProfileOptions& options = {});
  ~ScopedProfile();
  ScopedProfile(const ScopedProfile&) = delete;
  ScopedProfile& operator=(const ScopedProfile&) = delete;
  const Status& status() const { return status_; }

 private:
  Status status_;
};

// Arms a step-range trigger: profiling starts when a stepscope::Step numbered in
// [first_step, last_step] begins (normally first_step) and stops when a Step numbered
// >= last_step ends; the result is written to `logdir` like StopProfiling does. If a
// step numbered past last_step begins while the range is recording, recording stops
// before that step. The trigger fires once.
// kInvalidArgument when first_step > last_step or first_step < 0; kAlreadyExists when a
// trigger is armed or a session is active.
Status ProfileStepRange(const std::string& logdir, int64_t first_step, int64_t last_step,
                        const ProfileOptions& options = {});
// Disarms a step-range trigger that has not fired yet. OK if none is armed.
void CancelProfileStepRange();

// A session whose result stays in memory. At most one session (of any kind) is active.
class Session {
 public:
  // Starts recording. kAlreadyExists when another session is active.
  static StatusOr<std::unique_ptr<Session>> Start(const ProfileOptions& options = {});
  // Stops (if running) and discards whatever was not collected.
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Stops recording; cheap: recorded buffers are taken, not converted.
  // kFailedPrecondition when already stopped.
  Status Stop();
  bool is_running() const;

  // After Stop(): converts everything recorded into `space` (cleared first). May be
  // called once; runs on the caller's thread. Tracer failures (e.g. no GPU access) and
  // levels no tracer acts on (device/python level > 0 without such a tracer) do not fail
  // the call: they are listed in space->warnings().
  Status CollectXSpace(tensorflow::profiler::XSpace* space);
  // Same, serialized as a tensorflow.profiler.XSpace message.
  Status CollectSerializedXSpace(std::string* bytes);

  const ProfileOptions& options() const;
  // Events lost to full per-thread buffers (valid after Stop()).
  uint64_t dropped_events() const;

 private:
  struct State;  // defined in src/collect/session.cc
  explicit Session(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace stepscope
