#include "src/analysis/trace/track_layout.h"

#include <charconv>
#include <cstdio>
#include <tuple>

#include "src/xspace/schema.h"

namespace stepscope::analysis::trace {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// "/device:TPU:12" -> 12 after `prefix`; -1 when the rest is not a number.
int64_t OrdinalAfter(std::string_view name, std::string_view prefix) {
  std::string_view digits = name.substr(prefix.size());
  int64_t ordinal = -1;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), ordinal);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) return -1;
  return ordinal;
}

// Zero-padded so that "/device:GPU:10" sorts after "/device:GPU:2".
std::string DeviceSortKey(char kind, int64_t ordinal, std::string_view name) {
  char prefix[32];
  std::snprintf(prefix, sizeof(prefix), "0%c%012lld", kind, static_cast<long long>(ordinal < 0 ? 0 : ordinal));
  return std::string(prefix) + std::string(name);
}

}  // namespace

std::string_view TrackKindName(TrackKind kind) {
  switch (kind) {
    case TrackKind::kSteps: return "steps";
    case TrackKind::kXlaModules: return "xla_modules";
    case TrackKind::kFrameworkOps: return "framework_ops";
    case TrackKind::kNameScope: return "name_scope";
    case TrackKind::kXlaOps: return "xla_ops";
    case TrackKind::kAsyncXlaOps: return "async_xla_ops";
    case TrackKind::kLaunchStats: return "launch_stats";
    case TrackKind::kSource: return "source";
    case TrackKind::kStream: return "stream";
    case TrackKind::kThread: return "thread";
    case TrackKind::kOther: return "other";
  }
  return "other";
}

SectionPlacement PlaceSection(std::string_view plane_name) {
  SectionPlacement placement;
  placement.name = std::string(plane_name);
  if (StartsWith(plane_name, xspace::kGpuPlanePrefix)) {
    placement.kind = SectionKind::kDevice;
    placement.sort_key = DeviceSortKey('a', OrdinalAfter(plane_name, xspace::kGpuPlanePrefix), plane_name);
  } else if (StartsWith(plane_name, xspace::kTpuPlanePrefix)) {
    placement.kind = SectionKind::kDevice;
    placement.sort_key = DeviceSortKey('b', OrdinalAfter(plane_name, xspace::kTpuPlanePrefix), plane_name);
  } else if (StartsWith(plane_name, xspace::kCustomPlanePrefix)) {
    placement.kind = SectionKind::kDevice;
    placement.sort_key = DeviceSortKey('c', 0, plane_name);
  } else if (plane_name == xspace::kHostThreadsPlaneName) {
    placement.kind = SectionKind::kHost;
    placement.name = "Host Threads";
    placement.sort_key = "1";
  } else if (plane_name == xspace::kCuptiDriverApiPlaneName || plane_name == xspace::kPythonTracerPlaneName ||
             plane_name == "/host:TPU-runtime" || plane_name == "/host:ROCTRACER") {
    placement.kind = SectionKind::kHost;
    placement.name = "Host Threads";
    placement.sort_key = "1";
    placement.lane_suffix = " [" + std::string(plane_name.substr(std::string_view("/host:").size())) + "]";
  } else {
    placement.kind = SectionKind::kOther;
    placement.sort_key = "2" + std::string(plane_name);
  }
  return placement;
}

bool IsShownLine(std::string_view line_name, int64_t line_id) {
  return !(line_name == xspace::kCounterEventsLineName || line_id == xspace::kCounterEventsLineId);
}

TrackKind ClassifyLine(SectionKind section_kind, std::string_view line_name) {
  if (line_name == xspace::kStepLineName) return TrackKind::kSteps;
  if (line_name == xspace::kXlaModuleLineName) return TrackKind::kXlaModules;
  if (xspace::IsFrameworkOpLineName(line_name)) return TrackKind::kFrameworkOps;
  if (xspace::IsNameScopeLineName(line_name)) return TrackKind::kNameScope;
  if (line_name == xspace::kXlaOpLineName) return TrackKind::kXlaOps;
  if (line_name == xspace::kXlaAsyncOpLineName) return TrackKind::kAsyncXlaOps;
  if (line_name == xspace::kKernelLaunchLineName) return TrackKind::kLaunchStats;
  if (line_name == xspace::kSourceLineName) return TrackKind::kSource;
  if (section_kind == SectionKind::kHost) return TrackKind::kThread;
  if (section_kind == SectionKind::kDevice && StartsWith(line_name, "Stream #")) return TrackKind::kStream;
  return TrackKind::kOther;
}

bool TrackSortKey::operator<(const TrackSortKey& other) const {
  if (kind_rank == static_cast<int>(TrackKind::kThread) && other.kind_rank == kind_rank) {
    return std::tie(name, line_id) < std::tie(other.name, other.line_id);
  }
  return std::tie(kind_rank, line_id, name) < std::tie(other.kind_rank, other.line_id, other.name);
}

TrackSortKey MakeTrackSortKey(TrackKind kind, int64_t line_id, std::string_view name) {
  TrackSortKey key;
  key.kind_rank = static_cast<int>(kind);
  key.name = std::string(name);
  // Streams by stream id; everything else by name (host threads as TensorFlow sorts them,
  // then by thread id, which keeps one thread's lanes from several planes together).
  key.line_id = kind == TrackKind::kStream || kind == TrackKind::kThread ? line_id : 0;
  return key;
}

}  // namespace stepscope::analysis::trace
