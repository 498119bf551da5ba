#include "src/base/capture_settings.h"

#include <string>
#include <string_view>

namespace stepscope::base {
namespace {

// The one message of a range rule: "<name> must be <min>..<max><unit>, got <value>".
void CheckRange(std::string_view name, const std::optional<int64_t>& value, int64_t min_value, int64_t max_value,
                std::string_view unit, std::string* problems) {
  if (!value.has_value() || (*value >= min_value && *value <= max_value)) return;
  if (!problems->empty()) *problems += "; ";
  *problems += std::string(name) + " must be " + std::to_string(min_value) + ".." + std::to_string(max_value) +
               std::string(unit) + ", got " + std::to_string(*value);
}

}  // namespace

Status ValidateCaptureSettings(const CaptureSettings& settings) {
  std::string problems;
  CheckRange("duration_ms", settings.duration_ms, 1, kMaxCaptureDurationMs, " (ms)", &problems);
  CheckRange("host_tracer_level", settings.host_tracer_level, 0, kMaxHostTracerLevel, "", &problems);
  CheckRange("device_tracer_level", settings.device_tracer_level, 0, kMaxDeviceTracerLevel, "", &problems);
  CheckRange("python_tracer_level", settings.python_tracer_level, 0, kMaxPythonTracerLevel, "", &problems);
  CheckRange("retries", settings.retries, 0, kMaxCaptureRetries, "", &problems);
  CheckRange("delay_ms", settings.delay_ms, 0, kMaxCaptureDelayMs, " (ms)", &problems);
  if (problems.empty()) return OkStatus();
  return InvalidArgumentError(std::move(problems));
}

}  // namespace stepscope::base
