#include "src/analysis/model/step_marker_rules.h"

#include <charconv>

#include "src/xspace/schema.h"

namespace stepscope::analysis {

bool IsDeviceStepLine(std::string_view plane_name, std::string_view line_name) {
  return xspace::IsDevicePlaneName(plane_name) && line_name == xspace::kStepLineName;
}

std::optional<int64_t> DeviceStepNumber(std::string_view step_name, const EventStats& stats) {
  size_t space = step_name.rfind(' ');
  std::string_view last = space == std::string_view::npos ? step_name : step_name.substr(space + 1);
  int64_t value = 0;
  auto [end, ec] = std::from_chars(last.data(), last.data() + last.size(), value);
  if (!last.empty() && ec == std::errc() && end == last.data() + last.size()) return value;
  if (stats.has_group_id) return stats.group_id;
  return std::nullopt;
}

}  // namespace stepscope::analysis
