#include "src/gpu/nvml_sampler.h"

#include <dlfcn.h>

#include <chrono>

#include "src/base/clock.h"

namespace stepscope::gpu {
namespace {

// The few NVML declarations used (nvml.h is not part of the CUDA toolkit here).
using NvmlReturn = int;  // NVML_SUCCESS = 0
using NvmlDevice = void*;
struct NvmlUtilization {
  unsigned int gpu;
  unsigned int memory;
};
struct NvmlMemory {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};

struct NvmlApi {
  NvmlReturn (*init)() = nullptr;
  NvmlReturn (*shutdown)() = nullptr;
  NvmlReturn (*by_pci_bus_id)(const char*, NvmlDevice*) = nullptr;
  NvmlReturn (*utilization)(NvmlDevice, NvmlUtilization*) = nullptr;
  NvmlReturn (*memory)(NvmlDevice, NvmlMemory*) = nullptr;
  NvmlReturn (*power_mw)(NvmlDevice, unsigned int*) = nullptr;
};

NvmlApi g_api;  // filled by Start, read by the sampling thread it starts

template <typename Fn>
bool Load(void* library, const char* name, Fn* fn) {
  *fn = reinterpret_cast<Fn>(dlsym(library, name));
  return *fn != nullptr;
}

constexpr auto kInterval = std::chrono::milliseconds(100);

}  // namespace

NvmlSampler::~NvmlSampler() { Stop(); }

bool NvmlSampler::Start(const std::vector<std::string>& pci_bus_ids, std::string* why) {
  library_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library_ == nullptr) {
    *why = "NVML (libnvidia-ml.so.1, part of the NVIDIA driver) not found: no utilisation counters";
    return false;
  }
  if (!Load(library_, "nvmlInit_v2", &g_api.init) || !Load(library_, "nvmlShutdown", &g_api.shutdown) ||
      !Load(library_, "nvmlDeviceGetHandleByPciBusId_v2", &g_api.by_pci_bus_id) ||
      !Load(library_, "nvmlDeviceGetUtilizationRates", &g_api.utilization) ||
      !Load(library_, "nvmlDeviceGetMemoryInfo", &g_api.memory) ||
      !Load(library_, "nvmlDeviceGetPowerUsage", &g_api.power_mw) || g_api.init() != 0) {
    *why = "NVML could not be initialised: no utilisation counters";
    dlclose(library_);
    library_ = nullptr;
    return false;
  }
  for (uint32_t ordinal = 0; ordinal < pci_bus_ids.size(); ++ordinal) {
    NvmlDevice device = nullptr;
    if (g_api.by_pci_bus_id(pci_bus_ids[ordinal].c_str(), &device) == 0) devices_.push_back({ordinal, device});
  }
  stop_ = false;
  thread_ = std::thread([this] { Run(); });
  return true;
}

void NvmlSampler::Run() {
  while (!stop_.load(std::memory_order_relaxed)) {
    for (const auto& [ordinal, device] : devices_) {
      const uint64_t now = base::MonotonicNowNs();
      NvmlUtilization util{};
      if (g_api.utilization(device, &util) == 0) {
        samples_.push_back({ordinal, "sm_utilization_pct", now, static_cast<double>(util.gpu)});
        samples_.push_back({ordinal, "memory_utilization_pct", now, static_cast<double>(util.memory)});
      }
      NvmlMemory memory{};
      if (g_api.memory(device, &memory) == 0) {
        samples_.push_back({ordinal, "memory_used_bytes", now, static_cast<double>(memory.used)});
      }
      unsigned int milliwatts = 0;
      if (g_api.power_mw(device, &milliwatts) == 0) samples_.push_back({ordinal, "power_watts", now, milliwatts / 1000.0});
    }
    std::this_thread::sleep_for(kInterval);
  }
}

std::vector<CounterSample> NvmlSampler::Stop() {
  if (thread_.joinable()) {
    stop_ = true;
    thread_.join();
  }
  if (library_ != nullptr) {
    g_api.shutdown();
    dlclose(library_);
    library_ = nullptr;
  }
  devices_.clear();
  return std::move(samples_);
}

}  // namespace stepscope::gpu
