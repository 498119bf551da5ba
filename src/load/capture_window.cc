#include "src/load/capture_window.h"

#include <algorithm>
#include <charconv>
#include <ctime>
#include <string>

#include "src/load/plane_scan.h"
#include "src/xspace/columnar/columnar_reader.h"
#include "src/xspace/schema.h"

namespace stepscope::load {
namespace {

// A Task Environment plane holds a handful of stats; a larger one is not what we look for.
constexpr uint64_t kMaxTaskPlaneBytes = 1 << 20;

// The Task Environment plane's start and stop, when the file has the plane with both.
std::optional<CaptureWindow> TaskEnvironmentWindow(const HostProfileFile& file) {
  std::optional<std::string> space = FindPlaneInFile(file.path, xspace::kTaskEnvPlaneName, kMaxTaskPlaneBytes);
  if (!space.has_value()) return std::nullopt;
  // The plane alone, through the reader every command uses.
  StatusOr<xspace::ColumnarXSpace> parsed = xspace::ParseColumnarXSpace(*space, file.path);
  const xspace::ColumnarPlane* task = parsed.ok() ? parsed->FindPlane(xspace::kTaskEnvPlaneName) : nullptr;
  xspace::ColumnarStat start, stop;
  if (task == nullptr || !task->FindPlaneStat(xspace::StatType::kProfileStartTime, &start) ||
      !task->FindPlaneStat(xspace::StatType::kProfileStopTime, &stop)) {
    return std::nullopt;
  }
  CaptureWindow window{.start_ns = xspace::ColumnarPlane::AsInt64(start),
                       .stop_ns = xspace::ColumnarPlane::AsInt64(stop),
                       .source = WindowSource::kTaskEnvironment};
  if (window.start_ns <= 0 || window.stop_ns < window.start_ns) return std::nullopt;
  return window;
}

bool ParseDigits(std::string_view text, int* value) {
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), *value);
  return error == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::optional<int64_t> RunNameStartNs(std::string_view name) {
  // YYYY_MM_DD_HH_MM_SS: 19 characters, '_' at 4, 7, 10, 13 and 16.
  if (name.size() < 19) return std::nullopt;
  int parts[6];
  const int starts[6] = {0, 5, 8, 11, 14, 17};
  const int widths[6] = {4, 2, 2, 2, 2, 2};
  for (int i = 0; i < 6; ++i) {
    if (i > 0 && name[starts[i] - 1] != '_') return std::nullopt;
    if (!ParseDigits(name.substr(starts[i], widths[i]), &parts[i])) return std::nullopt;
  }
  std::tm local{};
  local.tm_year = parts[0] - 1900;
  local.tm_mon = parts[1] - 1;
  local.tm_mday = parts[2];
  local.tm_hour = parts[3];
  local.tm_min = parts[4];
  local.tm_sec = parts[5];
  local.tm_isdst = -1;
  const time_t seconds = std::mktime(&local);
  if (seconds == static_cast<time_t>(-1)) return std::nullopt;
  return static_cast<int64_t>(seconds) * 1000000000;
}

CaptureWindow ReadCaptureWindow(const HostProfileFile& file, std::string_view run_dir_name) {
  if (file.format == ProfileFormat::kXSpace && !file.path.ends_with(".gz")) {
    if (std::optional<CaptureWindow> exact = TaskEnvironmentWindow(file)) return *exact;
  }
  std::optional<int64_t> start = RunNameStartNs(run_dir_name);
  if (start.has_value() && *start <= file.mtime_ns) {
    return {.start_ns = *start, .stop_ns = file.mtime_ns, .source = WindowSource::kRunNameAndMtime};
  }
  return {.start_ns = file.mtime_ns, .stop_ns = file.mtime_ns, .source = WindowSource::kMtime};
}

}  // namespace stepscope::load
