#include "src/analysis/model/link_bandwidth.h"

#include <string>

#include "src/base/ascii.h"

namespace stepscope::analysis {
namespace {

// Data-centre parts that ship as SXM modules with NVLink (their PCIe versions say "PCIe").
bool IsNvlinkPart(const std::string& name) {
  for (const char* part : {"sxm", "hbm", "v100", "a100", "h100", "h200", "h800", "a800", "b200", "gb200", "b100"}) {
    if (name.find(part) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

LinkBandwidth LinkBandwidthOf(const DeviceCapabilities& device) {
  const std::string name = base::AsciiLowerCopy(device.device_name);
  const int64_t major = device.compute_capability_major, minor = device.compute_capability_minor;
  if (name.empty() && major == 0) return {};
  if (base::AsciiLowerCopy(device.vendor) == "amd") return {};  // Infinity Fabric: not in the table
  const bool pcie = name.find("pcie") != std::string::npos;
  if (!pcie && IsNvlinkPart(name)) {
    if (major == 7 && minor == 0) return {150, "NVLink 2 (6 links)"};
    if (major == 8 && minor == 0) return {300, "NVLink 3 (12 links)"};
    if (major == 9 && minor == 0) return {450, "NVLink 4 (18 links)"};
    if (major == 10) return {900, "NVLink 5 (18 links)"};
    // No compute capability in the profile: go by the name.
    if (name.find("v100") != std::string::npos) return {150, "NVLink 2 (6 links)"};
    if (name.find("a100") != std::string::npos || name.find("a800") != std::string::npos) {
      return {300, "NVLink 3 (12 links)"};
    }
    if (name.find("h100") != std::string::npos || name.find("h200") != std::string::npos ||
        name.find("h800") != std::string::npos) {
      return {450, "NVLink 4 (18 links)"};
    }
    if (name.find("b200") != std::string::npos || name.find("b100") != std::string::npos) {
      return {900, "NVLink 5 (18 links)"};
    }
  }
  if (major == 0) return {};
  if (major < 8) return {16, "PCIe Gen3 x16"};
  if (major == 8) return {32, "PCIe Gen4 x16"};
  return {64, "PCIe Gen5 x16"};
}

}  // namespace stepscope::analysis
