#include "src/xspace/columnar/pod_array.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace stepscope::xspace::internal {
namespace {

size_t PageRound(size_t bytes) {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return (bytes + page - 1) / page * page;
}

}  // namespace

void* GrowPodBuffer(void* data, size_t old_bytes, size_t used_bytes, size_t new_bytes, bool* is_mapped) {
  if (new_bytes < kPodArrayMmapThresholdBytes) {
    // Only reached while the buffer is still malloc'ed: mapped buffers never shrink here.
    return std::realloc(data, new_bytes);
  }
  if (*is_mapped) {
    void* grown = mremap(data, PageRound(old_bytes), PageRound(new_bytes), MREMAP_MAYMOVE);
    return grown == MAP_FAILED ? nullptr : grown;
  }
  // NORESERVE: untouched capacity is neither resident nor charged against overcommit.
  void* mapped = mmap(nullptr, PageRound(new_bytes), PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapped == MAP_FAILED) return nullptr;
  // No MADV_HUGEPAGE: fewer faults, but each column's partly used last 2 MiB page is then
  // resident, which cost more peak memory (measured) than the faults cost time.
  if (used_bytes > 0) std::memcpy(mapped, data, used_bytes);
  std::free(data);
  *is_mapped = true;
  return mapped;
}

void FreePodBuffer(void* data, size_t bytes, bool is_mapped) {
  if (data == nullptr) return;
  if (is_mapped) {
    munmap(data, PageRound(bytes));
  } else {
    std::free(data);
  }
}

}  // namespace stepscope::xspace::internal
