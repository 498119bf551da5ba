#include "src/base/testing/resident_pages.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

namespace stepscope::base {

size_t ResidentPages(const void* begin, size_t bytes) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t first = reinterpret_cast<uintptr_t>(begin) & ~uintptr_t{page - 1};
  const size_t length = reinterpret_cast<uintptr_t>(begin) + bytes - first;
  std::vector<unsigned char> in_core((length + page - 1) / page);
  if (mincore(reinterpret_cast<void*>(first), length, in_core.data()) != 0) return 0;
  size_t resident = 0;
  for (unsigned char c : in_core) resident += c & 1;
  return resident;
}

}  // namespace stepscope::base
