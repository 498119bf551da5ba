#include <mutex>
#include <utility>
#include <vector>

#include "src/collect/tracer.h"

namespace stepscope::collect {
namespace {

std::mutex& FactoriesMutex() {
  static auto* mu = new std::mutex();
  return *mu;
}

std::vector<TracerFactory>& Factories() {
  static auto* factories = new std::vector<TracerFactory>();  // guarded by FactoriesMutex()
  return *factories;
}

}  // namespace

void RegisterTracerFactory(TracerFactory factory) {
  std::lock_guard<std::mutex> lock(FactoriesMutex());
  Factories().push_back(std::move(factory));
}

std::vector<std::unique_ptr<Tracer>> CreateRegisteredTracers(const ProfileOptions& options) {
  std::vector<TracerFactory> factories;
  {
    std::lock_guard<std::mutex> lock(FactoriesMutex());
    factories = Factories();
  }
  std::vector<std::unique_ptr<Tracer>> tracers;
  for (const TracerFactory& factory : factories) {
    if (std::unique_ptr<Tracer> tracer = factory(options)) tracers.push_back(std::move(tracer));
  }
  return tracers;
}

}  // namespace stepscope::collect
