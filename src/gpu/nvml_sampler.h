// Device utilisation counters sampled during a session from NVML, loaded with dlopen at
// run time (libnvidia-ml.so.1 comes with the driver; nothing links it): SM and memory
// utilisation (%), memory used (bytes) and power (W) per device, every 100 ms, what
// TensorFlow's GPU guide gets from `nvidia-smi --query-gpu=... -l`. Devices are matched
// to CUDA ordinals by PCI bus id. Without NVML it samples nothing and says why once.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "src/gpu/activity_records.h"

namespace stepscope::gpu {

class NvmlSampler {
 public:
  NvmlSampler() = default;
  ~NvmlSampler();
  NvmlSampler(const NvmlSampler&) = delete;
  NvmlSampler& operator=(const NvmlSampler&) = delete;

  // `pci_bus_ids[i]` is CUDA device i's ("0000:65:00.0"). Returns false (and sets
  // `why`) when NVML cannot be loaded or initialised; the session goes on without counters.
  bool Start(const std::vector<std::string>& pci_bus_ids, std::string* why);
  // Stops sampling and returns the samples (host monotonic clock).
  std::vector<CounterSample> Stop();

 private:
  void Run();

  void* library_ = nullptr;
  std::vector<std::pair<uint32_t, void*>> devices_;  // CUDA ordinal, nvmlDevice_t
  std::vector<CounterSample> samples_;               // written by the sampling thread only
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace stepscope::gpu
