#include "src/base/cores.h"

#include <algorithm>
#include <thread>
#include <vector>

namespace stepscope::base {

int UsableCores() {
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0) return std::max(1, CPU_COUNT(&allowed));
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

CoreHalves CoreHalves::OfCallingThread() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0) return CoreHalves();
  return Of(allowed, sched_getcpu());
}

CoreHalves CoreHalves::Of(const cpu_set_t& allowed, int current_cpu) {
  CoreHalves halves;
  halves.all_ = allowed;
  CPU_ZERO(&halves.halves_[0]);
  CPU_ZERO(&halves.halves_[1]);
  if (CPU_COUNT(&allowed) < 2) return halves;
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &allowed)) cpus.push_back(cpu);
  }
  // Alternate CPUs of the mask go to alternate halves (either half then spans the
  // machine, not one end of it); the current CPU's parity is half 1's.
  const auto current = std::find(cpus.begin(), cpus.end(), current_cpu);
  const size_t parity = current == cpus.end() ? 1 : static_cast<size_t>(current - cpus.begin()) % 2;
  for (size_t i = 0; i < cpus.size(); ++i) CPU_SET(cpus[i], &halves.halves_[i % 2 == parity ? 1 : 0]);
  halves.active_ = true;
  return halves;
}

void CoreHalves::Enter(int half) const {
  if (active_) sched_setaffinity(0, sizeof(cpu_set_t), &halves_[half == 0 ? 0 : 1]);
}

void CoreHalves::Place(pthread_t thread, int half) const {
  if (active_) pthread_setaffinity_np(thread, sizeof(cpu_set_t), &halves_[half == 0 ? 0 : 1]);
}

void CoreHalves::Leave() const {
  if (active_) sched_setaffinity(0, sizeof(cpu_set_t), &all_);
}

}  // namespace stepscope::base
