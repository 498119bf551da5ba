#include "src/base/memory_budget.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <string>

#include "src/base/parse_number.h"

namespace stepscope::base {
namespace {

std::atomic<uint64_t> g_budget_bytes{0};  // 0: not set, use the default

// cgroup v2's limit of this process's group ("max" or absent: none).
uint64_t CgroupMemoryLimit() {
  std::ifstream file("/sys/fs/cgroup/memory.max");
  std::string text;
  if (!(file >> text) || text == "max") return UINT64_MAX;
  uint64_t value = 0;
  return ParseWhole(text, &value) && value > 0 ? value : UINT64_MAX;
}

}  // namespace

uint64_t MachineMemoryBytes() {
  long pages = ::sysconf(_SC_PHYS_PAGES);
  long page_size = ::sysconf(_SC_PAGESIZE);
  uint64_t physical = pages > 0 && page_size > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size)
                                                 : uint64_t{4} << 30;
  return std::min(physical, CgroupMemoryLimit());
}

uint64_t DefaultMemoryBudgetBytes() {
  static const uint64_t bytes = std::max(kMinMemoryBudgetBytes, MachineMemoryBytes() / 4 * 3);
  return bytes;
}

uint64_t MemoryBudgetBytes() {
  uint64_t set = g_budget_bytes.load(std::memory_order_relaxed);
  return set != 0 ? set : DefaultMemoryBudgetBytes();
}

void SetMemoryBudgetBytes(uint64_t bytes) {
  g_budget_bytes.store(std::max(bytes, kMinMemoryBudgetBytes), std::memory_order_relaxed);
}

std::string MemoryBudgetText() {
  return "the memory budget of " + std::to_string(MemoryBudgetBytes() >> 20) + " MiB (--max_memory_mb)";
}

}  // namespace stepscope::base
