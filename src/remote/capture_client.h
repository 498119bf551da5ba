// The capture client: asks profiler services (ours, TensorFlow's, JAX's) for a profile
// and saves it as <logdir>/plugins/profile/<run>/<host>.xplane.pb.
//
// Many workers at once: see multi_worker_capture.h (CaptureWorkers).
//
// Behaviour follows TensorFlow's client (tf.profiler.experimental.client.trace), with
// the differences stated in docs/remote.md:
//   - each worker gets one Profile RPC per attempt, all workers concurrently (one thread
//     each); the request asks for emit_xspace and the client writes the file itself, so
//     the worker's filesystem need not be shared. A server that does not honour
//     emit_xspace (older TensorFlow) saves into repository_root itself; the client then
//     accepts the file if it can see it, or tool_data if the server sent some.
//   - a worker is retried (up to `retries` extra attempts, independently of the others)
//     when its answer is UNAVAILABLE, ALREADY_EXISTS (busy), UNKNOWN "Stream removed",
//     or an empty trace. Other errors are final.
//   - per attempt: a connection must be up within connect_timeout_ms, and the RPC
//     deadline is max(60 s, 2 x duration) + delay, so a dead or unreachable worker fails
//     in bounded time.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "proto/stepscope/profiler_service.pb.h"
#include "stepscope/status.h"

namespace stepscope::remote {

// 256 workers: a large data-parallel job captured at once still fits; a typo or a hostile
// request cannot ask for thousands of threads.
inline constexpr int kDefaultMaxCaptureWorkers = 256;
// 2 GiB for all responses together: one worker may send a profile as large as gRPC allows.
inline constexpr uint64_t kDefaultMaxResponseBytes = uint64_t{2} << 30;
// The least a worker's share of max_response_bytes may be: a short capture of a real
// program takes tens to hundreds of KiB, so less than this would fail every worker only
// after recording it.
inline constexpr uint64_t kMinResponseBytesPerWorker = uint64_t{1} << 20;

struct CaptureOptions {
  std::string logdir;  // required
  // Run directory shared by every worker; default: local time YYYY_MM_DD_HH_MM_SS (or
  // _2, _3, ... when a capture in the same second has it).
  std::string run;
  // Replace a host file already in the run. Off: that worker fails with kAlreadyExists
  // and the earlier capture stays.
  bool overwrite = false;
  // Ranges: src/base/capture_settings.h.
  uint64_t duration_ms = 2000;
  int host_tracer_level = 2;    // 0..3, TensorFlow's meaning
  // 0 off, 1 on. 1 by default, as TensorBoard's client: a TensorFlow or JAX GPU worker
  // asked for 0 records no kernel. A worker without a device tracer (a stepscope one not
  // built with CUPTI) records nothing for it and says so in the profile's warnings.
  int device_tracer_level = 1;
  int python_tracer_level = 0;  // 0 off, 1 on
  int retries = 3;              // extra attempts per worker (XProf's num_retry)
  // Recording starts this long after the request (start_timestamp_ns), on every worker
  // at the same wall-clock time. 0 = each worker starts when its request arrives.
  uint64_t delay_ms = 0;
  uint64_t connect_timeout_ms = 10000;
  // Pause before retrying after UNAVAILABLE/ALREADY_EXISTS (an empty trace is retried at
  // once): a worker restarting or finishing another capture needs a moment.
  uint64_t retry_backoff_ms = 1000;
  // Bounds on one CaptureWorkers call (multi_worker_capture.h), checked before any thread
  // starts or any connection opens, so a request cannot make this process start 1,024
  // threads each accepting 2 GiB:
  //   - at most max_workers addresses (one thread and one connection each);
  //   - at most max_response_bytes of responses held in memory at once: each of N workers
  //     may receive max_response_bytes / N bytes (and never more than gRPC's 2 GiB
  //     message limit); a larger profile fails that worker with RESOURCE_EXHAUSTED naming
  //     its share. The bound is on the received messages; parsing one and writing it out
  //     needs a small multiple of its size for a moment.
  // For CaptureWorker alone, max_response_bytes is that worker's limit.
  int max_workers = kDefaultMaxCaptureWorkers;
  uint64_t max_response_bytes = kDefaultMaxResponseBytes;
  // Progress lines ("127.0.0.1:6009: attempt 1 of 4 failed: ..., retrying"). Optional;
  // called from worker threads, one call at a time.
  std::function<void(std::string_view line)> progress;
};

struct WorkerCapture {
  std::string address;  // host:port as given (without grpc://)
  std::string host;     // file-name host: the address with ':' -> '_'
  Status status;        // ok when the profile was saved
  int attempts = 0;
  std::string path;     // the saved <host>.xplane.pb
  uint64_t file_bytes = 0;
  uint64_t event_count = 0;  // events in the saved XSpace (0 when the server saved it)
  // Events the worker's collectors lost (xspace::DroppedEventCount); unset when the
  // profile does not count them or did not come back as an XSpace.
  std::optional<int64_t> dropped_events;
  std::string note;          // how the file got there when it is not the usual way
  // The profile's own diagnostics (XSpace.warnings), e.g. "device tracer level 1
  // requested: no device tracer is built into this process; ...". Only when the profile
  // came back as an XSpace (emit_xspace), not from tool data or a server-side file.
  std::vector<std::string> warnings;
};

// kInvalidArgument for bad options: no logdir, a run name xspace::ValidateRunName refuses,
// connect_timeout_ms 0, max_workers < 1, max_response_bytes under
// kMinResponseBytesPerWorker, and the ranges of base::ValidateCaptureSettings (duration, levels,
// retries, delay; src/base/capture_settings.h). Worker failures are reported per worker,
// not here.
Status ValidateCaptureOptions(const CaptureOptions& options);

// Captures one worker into <logdir>/plugins/profile/<run>/<host>.xplane.pb, with the
// retries above. `start_wall_ns` is the agreed recording start (0 = at once) for the
// first attempt; retries start `delay_ms` after they are sent. Blocks; thread-safe.
WorkerCapture CaptureWorker(const std::string& address, const CaptureOptions& options, const std::string& run,
                            uint64_t start_wall_ns);

// The Profile request sent to `address` (exposed for tests): TensorFlow's request
// (max_events 1,000,000, its tool list, repository_root <logdir>/plugins/profile,
// session_id = run, host_name = address) plus emit_xspace.
tensorflow::ProfileRequest BuildProfileRequest(std::string_view address, const CaptureOptions& options,
                                               std::string_view run, uint64_t start_wall_ns);

// max(60 s, 2 x duration) + delay, TensorFlow's max_session_duration_ms.
uint64_t CaptureDeadlineMs(const CaptureOptions& options);

}  // namespace stepscope::remote
