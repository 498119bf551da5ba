// The accelerators a profile ran on, by model: what the overview shows ("8× NVIDIA
// A100-SXM4-40GB") and what `diff` compares ("8× A100 → 2× V100"). Every device plane
// counts, as in RunEnvironment::device_count (Kineto writes one per device the process
// could see, from deviceProperties).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/analysis/model/profile_model.h"
#include "src/analysis/output/json_writer.h"
#include "src/analysis/output/schema.h"

namespace stepscope::analysis {

struct DeviceModelCount {
  std::string name;         // DeviceCapabilities::device_name; empty: not recorded
  std::string device_type;  // "GPU", "MTIA", "TPU", ... (DeviceCapabilities::device_type, else the plane's)
  int64_t count = 0;
};

constexpr auto DescribeRecord(std::type_identity<DeviceModelCount>) {
  using R = DeviceModelCount;
  return output::Record(
      "DeviceModelCount",
      output::Field("name", &R::name,
                    {.description = "the model name (`gpu_device_name`, Kineto's `deviceProperties` name); empty when "
                                    "not recorded"}),
      output::Field("device_type", &R::device_type, {.description = "`GPU`, `MTIA`, `TPU`, ..."}),
      output::Field("count", &R::count, {.unit = "count", .description = "device planes of this model"}));
}

// The device planes of `model` grouped by (name, device_type): most planes first, then by
// name; planes without a name after the named ones.
std::vector<DeviceModelCount> CountDeviceModels(const ProfileModel& model);

// "8× NVIDIA A100-SXM4-40GB, 1× MTIA" (a device without a model name shows its type);
// empty for no devices.
std::string DeviceModelsText(const std::vector<DeviceModelCount>& models);

}  // namespace stepscope::analysis
