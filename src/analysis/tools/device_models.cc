#include "src/analysis/tools/device_models.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "src/analysis/output/schema_writer.h"
#include "src/xspace/schema.h"

namespace stepscope::analysis {

std::vector<DeviceModelCount> CountDeviceModels(const ProfileModel& model) {
  std::map<std::pair<std::string, std::string>, int64_t> counts;  // (name, type) -> planes
  for (const DeviceActivity& device : model.devices) {
    const DeviceCapabilities& caps = device.capabilities;
    std::string type = caps.device_type;
    if (type.empty()) type = device.plane_name.starts_with(xspace::kTpuPlanePrefix) ? "TPU" : "GPU";
    ++counts[{caps.device_name, type}];
  }
  std::vector<DeviceModelCount> models;
  models.reserve(counts.size());
  for (const auto& [key, count] : counts) models.push_back({key.first, key.second, count});
  std::sort(models.begin(), models.end(), [](const DeviceModelCount& a, const DeviceModelCount& b) {
    if (a.name.empty() != b.name.empty()) return b.name.empty();
    if (a.count != b.count) return a.count > b.count;
    return std::tie(a.name, a.device_type) < std::tie(b.name, b.device_type);
  });
  return models;
}

std::string DeviceModelsText(const std::vector<DeviceModelCount>& models) {
  std::string text;
  for (const DeviceModelCount& m : models) {
    if (!text.empty()) text += ", ";
    text += std::to_string(m.count) + "\u00d7 " + (m.name.empty() ? m.device_type : m.name);
  }
  return text;
}

}  // namespace stepscope::analysis
