// The ranges of a capture's settings — duration, host/device/python tracer levels,
// retries, delay — checked in one place for every way a capture is asked for:
// `stepscope capture` flags (src/cli/capture.cc), POST /api/capture
// (src/server/capture_route.cc), the capture client library (src/remote/capture_client.cc)
// and stepscope::Session (src/collect/session.cc). Each rule has exactly one message, so
// the same bad value is refused with the same words wherever it comes in.
//
// Values are int64 so a caller validates what the user typed before narrowing it (a
// level of 2^40 must be refused, not wrapped into range).
#pragma once

#include <cstdint>
#include <optional>

#include "stepscope/status.h"

namespace stepscope::base {

// Longest capture: per-thread buffers (8 MiB by default) fill long before 10 minutes.
inline constexpr int64_t kMaxCaptureDurationMs = 10 * 60 * 1000;
// A start delay longer than a capture is a mistake (or a client clock far off).
inline constexpr int64_t kMaxCaptureDelayMs = kMaxCaptureDurationMs;
// TensorFlow's levels: host 0 off .. 3 verbose (TraceMe kVerbose); device 0 off, 1 on,
// 2 verbose; python 0 off, 1 on.
inline constexpr int64_t kMaxHostTracerLevel = 3;
inline constexpr int64_t kMaxDeviceTracerLevel = 2;
inline constexpr int64_t kMaxPythonTracerLevel = 1;
// Extra attempts per worker; beyond this a dead worker only wastes minutes.
inline constexpr int64_t kMaxCaptureRetries = 100;

// Unset fields are not checked (a Session has no retries or delay).
struct CaptureSettings {
  std::optional<int64_t> duration_ms;
  std::optional<int64_t> host_tracer_level;
  std::optional<int64_t> device_tracer_level;
  std::optional<int64_t> python_tracer_level;
  std::optional<int64_t> retries;
  std::optional<int64_t> delay_ms;
};

// OK, or kInvalidArgument whose message holds one sentence per violated rule, joined by
// "; " (one line), e.g.
//   "duration_ms must be 1..600000 (ms), got 0; retries must be 0..100, got -1"
Status ValidateCaptureSettings(const CaptureSettings& settings);

}  // namespace stepscope::base
