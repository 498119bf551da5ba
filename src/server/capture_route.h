// POST /api/capture: the UI's "Capture profile" dialog. Captures running profiler
// servers (docs/remote.md) into the served logdir with the same client library as
// `stepscope capture`, so the new run shows up in the run list.
//
//   POST /api/capture
//   Content-Type: application/json
//   {"service_addresses": "grpc://10.0.0.1:6009,grpc://10.0.0.2:6009",   (or an array)
//    "duration_ms": 2000, "host_tracer_level": 2, "device_tracer_level": 0,
//    "python_tracer_level": 0, "retries": 3, "delay_ms": 0, "run": "optional_name"}
//
// Reply (200 once the capture ran, whether or not a worker was captured; "error" is set
// when none was):
//   {"run": "...", "succeeded": 2, "failed": 1,
//    "workers": [{"address", "host", "ok", "attempts", "path", "file_bytes",
//                 "event_count", "dropped_events" (null: not counted), "note",
//                 "warnings": ["..."], "error"}], "error": "..."}
//
// Guards: at most CaptureLimits::max_workers addresses and max_response_bytes of profiles
// in memory per request (400 naming the limit, before any connection); the body must be JSON (Content-Type application/json: a cross-site page cannot
// send that without a CORS preflight, which this server does not grant), at most one
// capture at a time (409 while one runs), and the usual option limits (400).
#pragma once

#include <mutex>
#include <string>
#include <string_view>

#include "src/remote/capture_client.h"
#include "src/server/api_routes.h"

namespace stepscope::server {

// What one POST may cost this process (remote::CaptureOptions has the meaning): more
// addresses than max_workers, or a max_response_bytes share under 1 MiB per worker, is a
// 400 before any connection is made.
struct CaptureLimits {
  int max_workers = remote::kDefaultMaxCaptureWorkers;
  uint64_t max_response_bytes = remote::kDefaultMaxResponseBytes;
};

class CaptureRoute {
 public:
  explicit CaptureRoute(std::string logdir, CaptureLimits limits = {})
      : logdir_(std::move(logdir)), limits_(limits) {}

  // Blocks for the capture (duration + connection and retry time). Thread-safe.
  HttpReply Handle(std::string_view content_type, std::string_view body);

 private:
  const std::string logdir_;
  const CaptureLimits limits_;
  std::mutex busy_;  // held for a whole capture
};

}  // namespace stepscope::server
